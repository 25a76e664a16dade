/*
 * hier_collect.c: the node-aware fcollect (hier.h).
 *  1. node: the leader copies its group's blocks from the members' sources (mapped) into its
 *     dest, first; a group's blocks are consecutive, since groups are runs of members;
 *  2. leaders: Bruck's steps over the groups (coll_ring_bruck, ceil(log2 nodes) steps of one
 *     run each, over the network), then the leader puts its dest in member order;
 *  3. node: every member copies the other blocks from its leader's dest and says so.
 * Who writes a leader's dest while its members still read it? Nobody: its members never write
 * it, and the other leaders put into it only after it said it has entered the call (READY,
 * sent on entry to each leader it receives from, so after its previous call's readers were
 * done).
 */
#include <string.h>

#include "coll/coll.h"
#include "coll/hier.h"
#include "coll/slots.h"

static void leaders_bruck(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                          size_t nbytes)
{
    const int groups = m->nleaders;
    const coll_ring_t ring = {groups, m->my_lrank, m->first, NULL, nbytes};
    int steps = 0;
    for (int d = 1; d < groups; d <<= 1) { /* step d's sender is the group d after ours */
        coll_signal(c, hier_leader(m, (m->my_lrank + d) % groups), SLOT_HIER_COLLECT_FREE);
        steps++;
    }
    coll_wait(c, SLOT_HIER_COLLECT_FREE, steps);
    coll_ring_bruck(c, &ring, dest, SLOT_HIER_COLLECT_STEP0);
    coll_rotate(dest->addr, (size_t)(c->n - m->lo) * nbytes, (size_t)m->lo * nbytes);
}

static void leader(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                   const coll_buf_t *src, size_t nbytes)
{
    if (dest->addr != src->addr)
        memmove(dest->addr, src->addr, nbytes); /* the group's blocks first */
    hier_node_arrive(c, m, SLOT_NODE_ARRIVE);
    for (int i = m->lo + 1; i < m->hi; i++)
        memcpy(dest->addr + (size_t)(i - m->lo) * nbytes, hier_node_view(c, src, i, 0),
               nbytes);
    if (m->nleaders > 1) /* (one group starts at member 0: its dest is in order) */
        leaders_bruck(c, m, dest, nbytes);
    if (m->hi - m->lo > 1) {
        hier_node_release(c, m, SLOT_NODE_RELEASE);
        hier_node_wait(c, SLOT_NODE_COPIED, m->hi - m->lo - 1);
    }
}

void coll_hier_fcollect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                        size_t nbytes)
{
    hier_map_t m;
    hier_map_init(&m, c, -1);
    if (hier_is_leader(&m, c)) {
        leader(c, &m, dest, src, nbytes);
    } else {
        hier_node_arrive(c, &m, SLOT_NODE_ARRIVE);
        hier_node_release(c, &m, SLOT_NODE_RELEASE); /* the leader has read our source */
        /* all of it: our own block there is the leader's copy of our source */
        memcpy(dest->addr, hier_node_view(c, dest, m.leader, 0), (size_t)c->n * nbytes);
        hier_node_add(c, m.leader, SLOT_NODE_COPIED, 1);
    }
    coll_done(c);
}
