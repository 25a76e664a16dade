/*
 * debug_hooks.h: SHMEM_DEBUG agreement checks. Routines that every PE (of a set) must call
 * with the same arguments - the allocation routines, the collectives - compare their
 * arguments with a neighbour's before they run, and a difference is a fatal error naming the
 * PE, the call, the argument, both values, the other PE and the fix.
 *
 * The checks themselves (src/watch/debug_check.c) exchange through the collective engine and
 * the internal heap, so they sit above the layers they watch: the collectives and the
 * allocation routines call them through the hooks below, which the checks fill in at
 * start-up (sshmem_debug_check_init, src/watch/watch.h) when SHMEM_DEBUG is on.
 *
 * Off (sshmem_env.debug == 0) this costs the caller one predictable branch.
 */
#ifndef SSHMEM_DEBUG_HOOKS_H
#define SSHMEM_DEBUG_HOOKS_H

#include <stddef.h>

struct coll;

struct sshmem_debug_hooks {
    void (*agree_alloc)(const char *call, size_t size, size_t align);
    void (*agree_coll)(const struct coll *c, long root, long long size);
};
/* NULL members until the checks register (src/core/state.c holds it). */
extern struct sshmem_debug_hooks sshmem_debug_hooks;

/* shmem_malloc and friends (collective over all PEs): size and alignment; free passes the
 * block's heap offset as size. */
static inline void sshmem_debug_agree_alloc(const char *call, size_t size, size_t align)
{
    if (sshmem_debug_hooks.agree_alloc)
        sshmem_debug_hooks.agree_alloc(call, size, align);
}

/* A collective described by c: root (member index; -1 when the routine has none) and size in
 * bytes (-1 when PEs may differ, as in collect). */
static inline void sshmem_debug_agree_coll(const struct coll *c, long root, long long size)
{
    if (sshmem_debug_hooks.agree_coll)
        sshmem_debug_hooks.agree_coll(c, root, size);
}

#endif
