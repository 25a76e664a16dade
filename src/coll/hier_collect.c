/*
 * hier_collect.c: the node-aware concatenation (hier.h), for fcollect and for blocks of sizes
 * every member knows (coll_collect_bruck: the MPI-style allgatherv's records).
 *  1. node: the leader first copies its group's blocks (consecutive, since groups are runs of
 *     members) from the members' sources (mapped) into its dest;
 *  2. leaders: Bruck's steps over the groups (coll_ring_bruck, ceil(log2 nodes) steps of one run
 *     each, over the network), which leave the leader's dest in member order;
 *  3. node: every member copies the whole from its leader's dest and says so.
 * Who writes a leader's dest while its members still read it? Not its members, and not the other
 * leaders in this call; in the next call only if it uses the same dest, which the caller must
 * not do without a sync between (doc/collectives.md: every collective writes into the others'
 * dest once they have entered). The call's own work space (the allgatherv's): a leader leaves
 * only once its members have copied, and the engine's reuse rule keeps the next call that writes
 * the same work space out until then.
 */
#include <string.h>

#include "coll/coll.h"
#include "coll/hier.h"
#include "coll/slots.h"

static void leaders_bruck(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                          const size_t *offs, size_t nbytes)
{
    const int groups = m->nleaders;
    const coll_ring_t ring = {groups, m->my_lrank, m->first, offs, nbytes};
    coll_ring_bruck(c, &ring, dest, SLOT_HIER_COLLECT_STEP0);
}

static void leader(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                   const coll_buf_t *src, const size_t *offs, size_t nbytes)
{
    const size_t lo = coll_block_at(offs, nbytes, m->lo);
    if (dest->addr != src->addr)
        memmove(dest->addr, src->addr, coll_block_at(offs, nbytes, m->lo + 1) - lo);
    hier_node_arrive(c, m, SLOT_NODE_ARRIVE);
    for (int i = m->lo + 1; i < m->hi; i++) { /* the group's blocks first */
        const size_t at = coll_block_at(offs, nbytes, i);
        memcpy(dest->addr + at - lo, hier_node_view(c, src, i, 0),
               coll_block_at(offs, nbytes, i + 1) - at);
    }
    if (m->nleaders > 1) /* (one group starts at member 0: its dest is in order) */
        leaders_bruck(c, m, dest, offs, nbytes);
    if (m->hi - m->lo > 1) {
        hier_node_release(c, m, SLOT_NODE_RELEASE);
        hier_node_wait(c, SLOT_NODE_COPIED, m->hi - m->lo - 1);
    }
}

void coll_hier_collect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                       const size_t *offs, size_t nbytes)
{
    hier_map_t m;
    hier_map_init(&m, c, -1);
    if (hier_is_leader(&m, c)) {
        leader(c, &m, dest, src, offs, nbytes);
    } else {
        hier_node_arrive(c, &m, SLOT_NODE_ARRIVE);
        hier_node_release(c, &m, SLOT_NODE_RELEASE); /* the leader has read our source */
        /* all of it: our own block there is the leader's copy of our source */
        memcpy(dest->addr, hier_node_view(c, dest, m.leader, 0),
               coll_block_at(offs, nbytes, c->n));
        hier_node_add(c, m.leader, SLOT_NODE_COPIED, 1);
    }
}
