/*
 * set_shape.c: working out a set's shape (set_shape.h), once per team or active set.
 */
#include <stdlib.h>

#include "coll/algo.h"
#include "coll/set_shape.h"
#include "core/env.h"
#include "core/error.h"
#include "core/sshmem.h"

static int node_of(const sshmem_triplet_t *t, int member)
{
    return sshmem_node_of(sshmem_triplet_pe(t, member));
}

int coll_node_loads(void)
{
    /* The heap of a node mate is always at hand (sshmem_peer_node_heap); global data only
     * where the node maps it. */
    return sshmem_env.local == 0 &&
           (!sshmem.region[SSHMEM_REGION_DATA].size || sshmem.node_maps[SSHMEM_REGION_DATA]);
}

/* Some collective's variable forces the node-aware algorithm (which then runs wherever node
 * mates may use load/store, coll_node_loads: one group or many). */
static int hier_forced(void)
{
    return sshmem_env.coll_barrier == COLL_BARRIER_HIER ||
           sshmem_env.coll_bcast == COLL_BCAST_HIER ||
           sshmem_env.coll_reduce == COLL_REDUCE_HIER ||
           sshmem_env.coll_fcollect == COLL_FCOLLECT_HIER;
}

static int count_groups(const sshmem_triplet_t *t, int *big)
{
    int groups = 1;
    *big = 0;
    for (int i = 1; i < t->size; i++) {
        const int same = node_of(t, i) == node_of(t, i - 1);
        groups += !same;
        *big |= same;
    }
    return groups;
}

static void fill_groups(coll_groups_t *g, const sshmem_triplet_t *t, int me, int count)
{
    g->first = malloc(((size_t)count + 1) * sizeof(int));
    if (!g->first)
        sshmem_fatal("a collective's set-up", "out of memory for the node map of %d PEs in "
                     "%d groups", t->size, count);
    g->count = count;
    for (int i = 0, k = 0; i < t->size; i++)
        if (i == 0 || node_of(t, i) != node_of(t, i - 1)) {
            g->first[k] = i;
            if (i <= me)
                g->mine = k;
            k++;
        }
    g->first[count] = t->size;
}

/* Whether this PE maps every member of t (heap, and global data if there is any). */
static int all_mapped(const sshmem_triplet_t *t)
{
    int need_data = sshmem.region[SSHMEM_REGION_DATA].size != 0;
    /* Whether the members will be mapped, not whether they are yet (heap/peers.c). */
    for (int i = 0; i < t->size; i++) {
        int pe = sshmem_triplet_pe(t, i);
        if (!sshmem_peer_maps(pe, SSHMEM_REGION_HEAP) ||
            (need_data && !sshmem_peer_maps(pe, SSHMEM_REGION_DATA)))
            return 0;
    }
    return 1;
}

void coll_set_shape_make(coll_set_shape_t *s, const sshmem_triplet_t *t, int me)
{
    s->direct = all_mapped(t);
    s->hier_worth = 0;
    s->groups = (coll_groups_t){0, 0, NULL};
    if (!coll_node_loads())
        return;
    if (sshmem.n_nodes == 1 && !hier_forced())
        return;
    int big;
    const int count = count_groups(t, &big);
    s->hier_worth = sshmem.n_nodes > 1 && t->size >= 3 && count > 1 && big;
    if (s->hier_worth || hier_forced())
        fill_groups(&s->groups, t, me, count);
}

void coll_set_shape_free(coll_set_shape_t *s)
{
    free(s->groups.first);
    s->groups = (coll_groups_t){0, 0, NULL};
}
