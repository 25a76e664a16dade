/*
 * wait_set.h: comparisons for the point-to-point synchronization routines, and the one
 * size-generic engine behind wait_until_{all,any,some}[_vector] and test_{all,any,some}[_vector]
 * (each typed routine only supplies how to read and compare element i: wait_set_typed.c).
 */
#ifndef SSHMEM_WAIT_SET_H
#define SSHMEM_WAIT_SET_H

#include <stddef.h>
#include <stdint.h>
#include <shmem.h>

#include "core/error.h"

SSHMEM_NORETURN SSHMEM_COLD void sshmem_bad_cmp(const char *call, int cmp);

/* The comparison operators are SHMEM_CMP_EQ (0) .. SHMEM_CMP_LE (5). */
static inline void sshmem_check_cmp(int cmp, const char *call)
{
    if (SSHMEM_UNLIKELY((unsigned)cmp > 5u))
        sshmem_bad_cmp(call, cmp);
}

/* a <cmp> b, for a cmp already checked. */
#define SSHMEM_COMPARE(a, cmp, b)                                                                \
    ((cmp) == SHMEM_CMP_EQ   ? (a) == (b)                                                        \
     : (cmp) == SHMEM_CMP_NE ? (a) != (b)                                                        \
     : (cmp) == SHMEM_CMP_GT ? (a) > (b)                                                         \
     : (cmp) == SHMEM_CMP_GE ? (a) >= (b)                                                        \
     : (cmp) == SHMEM_CMP_LT ? (a) < (b)                                                         \
                             : (a) <= (b))

static inline int sshmem_compare_u64(uint64_t a, int cmp, uint64_t b)
{
    return SSHMEM_COMPARE(a, cmp, b);
}

/* One wait/test call's set: element i takes part unless status && status[i] != 0. */
typedef struct sshmem_wait_set {
    const void *ivars;
    size_t nelems;
    const int *status;
    int cmp;
    const void *values; /* the one compare value, or nelems of them (vector forms) */
    int vector;
    /* Reads element i (an acquire load) and compares it with its value. */
    int (*satisfied)(const struct sshmem_wait_set *ws, size_t i);
    const char *call;
} sshmem_wait_set_t;

/* Waits: re-read every element of the set on every sweep, drive progress, yield. */
void sshmem_wait_set_all(const sshmem_wait_set_t *ws);
size_t sshmem_wait_set_any(const sshmem_wait_set_t *ws);               /* SIZE_MAX if empty */
size_t sshmem_wait_set_some(const sshmem_wait_set_t *ws, size_t *indices); /* 0 if empty */
/* Tests: one sweep, never block. */
int sshmem_test_set_all(const sshmem_wait_set_t *ws);                  /* 1 if empty */
size_t sshmem_test_set_any(const sshmem_wait_set_t *ws);               /* SIZE_MAX if none */
size_t sshmem_test_set_some(const sshmem_wait_set_t *ws, size_t *indices);

#endif
