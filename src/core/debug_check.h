/*
 * debug_check.h: SHMEM_DEBUG agreement checks. Routines that every PE (of a set) must call
 * with the same arguments - the allocation routines, the collectives - compare their
 * arguments with a neighbour's before they run, and a difference is a fatal error naming the
 * PE, the call, the argument, both values, the other PE and the fix.
 *
 * Off (sshmem_env.debug == 0) this costs the caller one predictable branch.
 */
#ifndef SSHMEM_DEBUG_CHECK_H
#define SSHMEM_DEBUG_CHECK_H

#include <stddef.h>

struct coll;

/* Start-up, on every PE, after every other user of the internal heap (carves only when
 * SHMEM_DEBUG is on). */
void sshmem_debug_check_init(void);

/* shmem_malloc and friends (collective over all PEs): size and alignment; free passes the
 * block's heap offset as size. */
void sshmem_debug_agree_alloc(const char *call, size_t size, size_t align);

/* A collective described by c: root (member index; -1 when the routine has none) and size in
 * bytes (-1 when PEs may differ, as in collect). */
void sshmem_debug_agree_coll(const struct coll *c, long root, long long size);

#endif
