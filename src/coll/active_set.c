/*
 * active_set.c: the active-set collectives (PE_start, logPE_stride, PE_size, pSync, pWrk):
 * deprecated in OpenSHMEM 1.6 but required, and what old codes and many courses use.
 * logPE_stride becomes a stride here; the caller's pSync holds the engine's flags and pWrk is
 * its work buffer (see coll/engine.h). PEs outside the set are never touched.
 */
#include <shmem.h>

#include "coll/api.h"
#include "coll/coll.h"
#include "core/api_defs.h"
#include "core/debug_hooks.h"
#include "core/env.h"
#include "core/error.h"

static void check_root(const coll_t *c, int root)
{
    if (SSHMEM_UNLIKELY(root < 0 || root >= c->n))
        sshmem_fatal(c->call, "PE_root %d is not a PE of the active set: it is an index into "
                     "the set, from 0 to PE_size-1 = %d", root, c->n - 1);
}

void coll_as_broadcast(void *dest, const void *source, size_t nbytes, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    coll_setup_active_set(&c, PE_start, logPE_stride, PE_size, pSync, SHMEM_BCAST_SYNC_SIZE,
                          NULL, 0, call);
    check_root(&c, PE_root);
    coll_buf(&d, dest, nbytes, "dest", &c);
    coll_buf(&s, source, nbytes, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, PE_root, (long long)nbytes);
    coll_broadcast(&c, &d, &s, nbytes, PE_root, 0);
}

void coll_as_collect(void *dest, const void *source, size_t nbytes, int PE_start,
                     int logPE_stride, int PE_size, long *pSync, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    coll_setup_active_set(&c, PE_start, logPE_stride, PE_size, pSync, SHMEM_COLLECT_SYNC_SIZE,
                          NULL, 0, call);
    coll_buf(&d, dest, 0, "dest", &c);
    coll_buf(&s, source, nbytes, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, -1);
    coll_collect(&c, &d, &s, nbytes);
}

void coll_as_fcollect(void *dest, const void *source, size_t nbytes, int PE_start,
                      int logPE_stride, int PE_size, long *pSync, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    coll_setup_active_set(&c, PE_start, logPE_stride, PE_size, pSync, SHMEM_COLLECT_SYNC_SIZE,
                          NULL, 0, call);
    coll_buf(&d, dest, nbytes * (size_t)PE_size, "dest", &c);
    coll_buf(&s, source, nbytes, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, (long long)nbytes);
    coll_fcollect(&c, &d, &s, nbytes);
}

void coll_as_alltoall(void *dest, const void *source, size_t nbytes, int PE_start,
                      int logPE_stride, int PE_size, long *pSync, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    coll_setup_active_set(&c, PE_start, logPE_stride, PE_size, pSync, SHMEM_ALLTOALL_SYNC_SIZE,
                          NULL, 0, call);
    coll_buf(&d, dest, nbytes * (size_t)PE_size, "dest", &c);
    coll_buf(&s, source, nbytes * (size_t)PE_size, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, (long long)nbytes);
    coll_alltoall(&c, &d, &s, nbytes);
}

static void check_strides(const char *call, ptrdiff_t dst, ptrdiff_t sst)
{
    if (SSHMEM_UNLIKELY(dst < 1 || sst < 1))
        sshmem_fatal(call, "strides dst=%td and sst=%td must both be 1 or more (in elements)",
                     dst, sst);
}

void coll_as_alltoalls(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, size_t esize, int PE_start, int logPE_stride, int PE_size,
                       long *pSync, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    check_strides(call, dst, sst);
    coll_setup_active_set(&c, PE_start, logPE_stride, PE_size, pSync, SHMEM_ALLTOALLS_SYNC_SIZE,
                          NULL, 0, call);
    size_t span = nelems * (size_t)PE_size;
    coll_buf(&d, dest, span ? ((span - 1) * (size_t)dst + 1) * esize : 0, "dest", &c);
    coll_buf(&s, source, span ? ((span - 1) * (size_t)sst + 1) * esize : 0, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, (long long)(nelems * esize));
    coll_alltoalls(&c, &d, &s, dst, sst, nelems, esize);
}

void coll_as_to_all(void *dest, const void *source, int nreduce, int PE_start, int logPE_stride,
                    int PE_size, void *pWrk, long *pSync, const coll_op_t *op, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    if (SSHMEM_UNLIKELY(nreduce < 0))
        sshmem_fatal(call, "nreduce is %d; it must be 0 or more", nreduce);
    if (SSHMEM_UNLIKELY(!pWrk))
        sshmem_fatal(call, "pWrk is NULL; pass a symmetric work array of max(nreduce/2 + 1, "
                     "SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements");
    /* The size the specification asks the caller for, and all we may assume. */
    size_t wrk = (size_t)nreduce / 2 + 1;
    if (wrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
        wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    coll_setup_active_set(&c, PE_start, logPE_stride, PE_size, pSync, SHMEM_REDUCE_SYNC_SIZE,
                          pWrk, wrk * op->esize, call);
    coll_buf(&d, dest, (size_t)nreduce * op->esize, "dest", &c);
    coll_buf(&s, source, (size_t)nreduce * op->esize, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, (long long)nreduce * (long long)op->esize);
    coll_reduce(&c, &d, &s, (size_t)nreduce, op);
}

/* ------------------------------------------------------------------ the sized routines */
#define DEF_ACTIVE_SET_(BITS)                                                                    \
    SSHMEM_DEFINE(void, shmem_broadcast##BITS,                                                   \
                  (void *dest, const void *source, size_t nelems, int PE_root, int PE_start,     \
                   int logPE_stride, int PE_size, long *pSync))                                  \
    {                                                                                            \
        coll_as_broadcast(dest, source, nelems * (BITS / 8), PE_root, PE_start, logPE_stride,    \
                          PE_size, pSync, "shmem_broadcast" #BITS);                              \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_collect##BITS,                                                     \
                  (void *dest, const void *source, size_t nelems, int PE_start,                  \
                   int logPE_stride, int PE_size, long *pSync))                                  \
    {                                                                                            \
        coll_as_collect(dest, source, nelems * (BITS / 8), PE_start, logPE_stride, PE_size,      \
                        pSync, "shmem_collect" #BITS);                                           \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_fcollect##BITS,                                                    \
                  (void *dest, const void *source, size_t nelems, int PE_start,                  \
                   int logPE_stride, int PE_size, long *pSync))                                  \
    {                                                                                            \
        coll_as_fcollect(dest, source, nelems * (BITS / 8), PE_start, logPE_stride, PE_size,     \
                         pSync, "shmem_fcollect" #BITS);                                         \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_alltoall##BITS,                                                    \
                  (void *dest, const void *source, size_t nelems, int PE_start,                  \
                   int logPE_stride, int PE_size, long *pSync))                                  \
    {                                                                                            \
        coll_as_alltoall(dest, source, nelems * (BITS / 8), PE_start, logPE_stride, PE_size,     \
                         pSync, "shmem_alltoall" #BITS);                                         \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_alltoalls##BITS,                                                   \
                  (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,  \
                   int PE_start, int logPE_stride, int PE_size, long *pSync))                    \
    {                                                                                            \
        coll_as_alltoalls(dest, source, dst, sst, nelems, BITS / 8, PE_start, logPE_stride,      \
                          PE_size, pSync, "shmem_alltoalls" #BITS);                              \
    }
DEF_ACTIVE_SET_(32)
DEF_ACTIVE_SET_(64)
