/*
 * hier_map.c: the groups of a set for the node-aware collectives (see hier.h), how the
 * members of a node reach each other, and the on-node phases the algorithms share.
 */
#include "coll/hier.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/peers.h"

/* The group holding member i: a binary search of the group starts. */
static int group_of(const coll_groups_t *g, int i)
{
    int lo = 0, hi = g->count - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (g->first[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

void hier_map_init(hier_map_t *m, const coll_t *c, int root)
{
    const coll_groups_t *g = &c->shape->groups;
    if (SSHMEM_UNLIKELY(!g->first))
        sshmem_fatal(c->call, "internal error: a node-aware algorithm on a set without groups");
    m->first = g->first;
    m->nleaders = g->count;
    m->my_lrank = g->mine;
    m->lo = g->first[g->mine];
    m->hi = g->first[g->mine + 1];
    m->root = root;
    m->root_group = root >= 0 ? group_of(g, root) : -1;
    m->leader = hier_leader(m, m->my_lrank);
}

char *hier_node_view(coll_t *c, const coll_buf_t *b, int member, size_t at)
{
    const int pe = coll_pe(c, member);
    char *base = b->region == SSHMEM_REGION_HEAP ? sshmem_peer_node_heap(pe)
                                                 : sshmem_peer(pe)->direct[b->region];
    return base + b->off + at;
}

/* The on-node flag of slot on member: the call's own flag word (hier.h, "On-node views"). */
static long *node_flag(coll_t *c, int member, int slot)
{
    return (long *)hier_node_view(c, &c->flags, member, (size_t)slot * sizeof(long));
}

void hier_node_add(coll_t *c, int member, int slot, long amount)
{
    __atomic_fetch_add(node_flag(c, member, slot), amount, __ATOMIC_RELEASE);
}

void hier_node_wait(coll_t *c, int slot, long count)
{
    coll_wait_cpu(c, (long *)c->flags.addr + slot, SHMEM_SYNC_VALUE, count);
}

void hier_node_arrive(coll_t *c, const hier_map_t *m, int slot)
{
    if (hier_is_leader(m, c))
        hier_node_wait(c, slot, m->hi - m->lo - 1);
    else
        hier_node_add(c, m->leader, slot, 1);
}

void hier_node_release(coll_t *c, const hier_map_t *m, int slot)
{
    if (!hier_is_leader(m, c)) {
        hier_node_wait(c, slot, 1);
        return;
    }
    for (int i = m->lo; i < m->hi; i++)
        if (i != c->me)
            hier_node_add(c, i, slot, 1);
}
