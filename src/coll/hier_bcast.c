/*
 * hier_bcast.c: the node-aware broadcast (hier.h). The root leads its own group. Arrivals go
 * from the members to their leader and up a binomial tree of leaders to the root; the data
 * comes down that tree (leader to leader, over the network); then every member copies it
 * from its leader (from the root's source in the root's group), all members of a node at
 * once, and tells the leader it is done reading, so no leader leaves while its buffer is read.
 */
#include <string.h>

#include "coll/hier.h"
#include "coll/slots.h"

void coll_hier_broadcast(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                         size_t nbytes, int root, int root_too)
{
    hier_map_t m;
    hier_map_init(&m, c, root);
    hier_node_arrive(c, &m, SLOT_NODE_ARRIVE);
    if (hier_is_leader(&m, c)) {
        coll_bcast_tree(c, &m, dest, src, nbytes, root, root_too, 2, SLOT_HIER_BCAST_UP,
                        SLOT_HIER_BCAST_DOWN);
        if (m.hi - m.lo > 1) {
            hier_node_release(c, &m, SLOT_NODE_RELEASE);
            hier_node_wait(c, SLOT_NODE_COPIED, m.hi - m.lo - 1);
        }
    } else {
        hier_node_release(c, &m, SLOT_NODE_RELEASE);
        const coll_buf_t *from = m.leader == root ? src : dest;
        memcpy(dest->addr, hier_node_view(c, from, m.leader, 0), nbytes);
        hier_node_add(c, m.leader, SLOT_NODE_COPIED, 1);
    }
    coll_done(c);
}
