/*
 * hier_map.c: the groups of a set for the node-aware collectives (see hier.h), and the
 * on-node phases they share.
 */
#include <stdlib.h>

#include "coll/hier.h"
#include "core/env.h"
#include "core/error.h"

static int node_of(const coll_t *c, int member)
{
    return sshmem_node_of(coll_pe(c, member));
}

void hier_map_init(hier_map_t *m, const coll_t *c, int root)
{
    int groups = 1;
    for (int i = 1; i < c->n; i++)
        groups += node_of(c, i) != node_of(c, i - 1);
    m->first = m->inline_buf;
    if (groups > HIER_MAP_INLINE) {
        m->first = malloc((2 * (size_t)groups + 1) * sizeof(int));
        if (!m->first)
            sshmem_fatal(c->call, "out of memory for the node map of %d groups", groups);
    }
    m->leaders = m->first + groups + 1;
    m->nleaders = groups;
    for (int i = 0, g = 0; i < c->n; i++)
        if (i == 0 || node_of(c, i) != node_of(c, i - 1))
            m->first[g++] = i;
    m->first[groups] = c->n;
    for (int g = 0; g < groups; g++) {
        int lo = m->first[g], hi = m->first[g + 1];
        m->leaders[g] = root >= lo && root < hi ? root : lo;
        if (c->me >= lo && c->me < hi) {
            m->my_lrank = g;
            m->lo = lo;
            m->hi = hi;
            m->leader = m->leaders[g];
        }
    }
}

void hier_map_free(hier_map_t *m)
{
    if (m->first != m->inline_buf)
        free(m->first);
}

int hier_usable(const coll_t *c)
{
    (void)c;
    return sshmem_env.local == 0; /* node mates use load/store (mapped, or mirrors) */
}

int hier_worth(const coll_t *c)
{
    if (sshmem.n_nodes == 1 || !hier_usable(c) || c->n < 3)
        return 0;
    int groups = 1, big = 0;
    for (int i = 1; i < c->n; i++) {
        int same = node_of(c, i) == node_of(c, i - 1);
        groups += !same;
        big |= same;
    }
    return groups > 1 && big;
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
