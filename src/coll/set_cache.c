/*
 * set_cache.c: the shapes of the active sets a thread used last (set_shape.h), so a call on a
 * set seen before reads no member's node id. Programs use a handful of sets (all PEs, the even
 * ones, a row of a grid): SET_CACHE_ENTRIES are kept per thread, the least recently used making
 * way. A hit costs a compare or one per entry; a miss the O(n) scan of coll_set_shape_make; an
 * entry holds at most one int per group of its set. Per thread, so threads calling collectives
 * on different sets at once need no lock and never free an entry another thread uses.
 */
#include <stddef.h>

#include "coll/set_shape.h"

#define SET_CACHE_ENTRIES 8

typedef struct set_entry {
    sshmem_triplet_t set;
    int me;
    unsigned long last_use; /* 0: empty */
    coll_set_shape_t shape;
} set_entry_t;

static __thread set_entry_t cache[SET_CACHE_ENTRIES];
static __thread unsigned long uses;
/* The entry of this thread's last call, usually the next one's: a load relative to the thread
 * pointer (initial-exec; 8 bytes of the static TLS a library loaded with dlopen may take), where
 * the general model costs a function call per access. The entry making way is never it. */
static __thread set_entry_t *last __attribute__((tls_model("initial-exec")));

static int same_set(const set_entry_t *e, const sshmem_triplet_t *t, int me)
{
    return e->last_use && e->me == me && e->set.start == t->start &&
           e->set.stride == t->stride && e->set.size == t->size;
}

static set_entry_t *least_recent(void)
{
    set_entry_t *victim = NULL;
    for (int i = 0; i < SET_CACHE_ENTRIES; i++)
        if (&cache[i] != last && (!victim || cache[i].last_use < victim->last_use))
            victim = &cache[i];
    return victim;
}

static set_entry_t *find(const sshmem_triplet_t *t, int me)
{
    for (int i = 0; i < SET_CACHE_ENTRIES; i++)
        if (same_set(&cache[i], t, me))
            return &cache[i];
    return NULL;
}

const coll_set_shape_t *coll_active_set_shape(const sshmem_triplet_t *t, int me)
{
    if (last && same_set(last, t, me))
        return &last->shape;
    set_entry_t *e = find(t, me);
    uses++;
    if (e) {
        e->last_use = uses;
        last = e;
        return &e->shape;
    }
    e = least_recent();
    if (e->last_use)
        coll_set_shape_free(&e->shape);
    coll_set_shape_make(&e->shape, t, me);
    e->set = *t;
    e->me = me;
    e->last_use = uses;
    last = e;
    return &e->shape;
}
