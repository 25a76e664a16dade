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

/* Binomial tree over leader ranks relative to the root's group (rank 0): the parent of r
 * clears r's lowest set bit; the children of r are r + 2^j for 2^j below that bit. */
static int lowest_bit(int r, int L)
{
    if (r == 0) {
        int b = 1;
        while (b < L)
            b <<= 1;
        return b;
    }
    return r & -r;
}

static int count_children(int r, int L)
{
    int count = 0;
    for (int b = 1; b < lowest_bit(r, L); b <<= 1)
        count += r + b < L;
    return count;
}

/* The leaders' part: arrivals up the tree, the data down it. */
static void leaders_tree(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                                const coll_buf_t *src, size_t nbytes, int root, int root_lrank,
                                int root_too)
{
    const int L = m->nleaders;
    const int r = (m->my_lrank - root_lrank + L) % L;
#define LEADER_OF(rel) (hier_leader(m, ((rel) + root_lrank) % L))
    coll_wait(c, SLOT_HIER_BCAST_UP, count_children(r, L));
    if (r != 0) {
        coll_signal(c, LEADER_OF(r - (r & -r)), SLOT_HIER_BCAST_UP);
        coll_wait(c, SLOT_HIER_BCAST_DOWN, 1);
    } else if (root_too && dest->addr != src->addr) {
        memcpy(dest->addr, src->addr, nbytes);
    }
    const char *from = c->me == root ? src->addr : dest->addr;
    for (int b = lowest_bit(r, L) >> 1; b >= 1; b >>= 1) {
        if (r + b >= L)
            continue;
        coll_put_signal(c, LEADER_OF(r + b), dest, 0, from, nbytes, SLOT_HIER_BCAST_DOWN);
    }
#undef LEADER_OF
}

void coll_hier_broadcast(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                         size_t nbytes, int root, int root_too)
{
    hier_map_t m;
    hier_map_init(&m, c, root);
    const int root_lrank = m.root_group;
    hier_node_arrive(c, &m, SLOT_NODE_ARRIVE);
    if (hier_is_leader(&m, c)) {
        leaders_tree(c, &m, dest, src, nbytes, root, root_lrank, root_too);
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
