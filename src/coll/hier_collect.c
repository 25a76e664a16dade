/*
 * hier_collect.c: the node-aware fcollect (hier.h). Members write their block into their
 * leader's dest (a group's blocks are consecutive: groups are runs of members); the leaders
 * send their group's run of blocks to every other leader (one put each, over the network);
 * then every member copies the other blocks from its leader's dest and tells it so.
 */
#include <string.h>

#include "coll/hier.h"

#define SLOT_ARRIVE (COLL_SLOT_ALGO + 0)  /* on-node: my block is at the leader */
#define SLOT_RELEASE (COLL_SLOT_ALGO + 1) /* on-node: every block is at the leader */
#define SLOT_DONE (COLL_SLOT_ALGO + 2)    /* on-node: a member has copied them */
#define SLOT_BLOCKS (COLL_SLOT_ALGO + 3)  /* leaders: a group's blocks have arrived */

static void leaders_exchange(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                             size_t nbytes)
{
    const size_t at = (size_t)m->lo * nbytes, len = (size_t)(m->hi - m->lo) * nbytes;
    for (int d = 1; d < m->nleaders; d++) {
        int q = m->leaders[(m->my_lrank + d) % m->nleaders];
        coll_put(c, q, dest, at, dest->addr + at, len);
        coll_signal(c, q, SLOT_BLOCKS);
    }
    coll_wait(c, SLOT_BLOCKS, m->nleaders - 1);
}

void coll_hier_fcollect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                        size_t nbytes)
{
    hier_map_t m;
    const size_t at = (size_t)c->me * nbytes, total = (size_t)c->n * nbytes;
    hier_map_init(&m, c, -1);
    if (hier_is_leader(&m, c)) {
        if (dest->addr + at != src->addr)
            memmove(dest->addr + at, src->addr, nbytes);
        hier_node_arrive(c, &m, SLOT_ARRIVE);
        if (m.nleaders > 1)
            leaders_exchange(c, &m, dest, nbytes);
        hier_node_release(c, &m, SLOT_RELEASE);
        coll_wait_cpu(c, SLOT_DONE, m.hi - m.lo - 1);
    } else {
        memcpy(coll_peer(c, dest, m.leader, at), src->addr, nbytes);
        hier_node_arrive(c, &m, SLOT_ARRIVE);
        hier_node_release(c, &m, SLOT_RELEASE);
        const char *all = coll_peer(c, dest, m.leader, 0);
        memcpy(dest->addr, all, at); /* the blocks before ours, then those after */
        memcpy(dest->addr + at + nbytes, all + at + nbytes, total - at - nbytes);
        if (dest->addr + at != src->addr)
            memmove(dest->addr + at, src->addr, nbytes);
        coll_add_cpu(c, m.leader, SLOT_DONE, 1);
    }
    hier_map_free(&m);
    coll_done(c);
}
