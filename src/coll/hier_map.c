/*
 * hier_map.c: the groups of a set for the node-aware collectives (see hier.h), and the
 * on-node phases they share.
 */
#include "coll/hier.h"
#include "core/env.h"
#include "core/error.h"

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

int hier_usable(const coll_t *c)
{
    (void)c;
    return sshmem_env.local == 0; /* node mates use load/store (mapped, or mirrors) */
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
