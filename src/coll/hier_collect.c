/*
 * hier_collect.c: the node-aware fcollect (hier.h).
 *  1. node: the leader copies its group's blocks from the members' sources (mapped) into its
 *     dest; a group's blocks are consecutive, since groups are runs of members;
 *  2. leaders: each sends its group's run of blocks to every other leader (one put each,
 *     over the network);
 *  3. node: every member copies the other blocks from its leader's dest and says so.
 * Who writes a leader's dest while its members still read it? Nobody: its members never write
 * it, and the other leaders put into it only after it said it has entered the call (READY,
 * sent on entry, so after its previous call's readers were done).
 */
#include <string.h>

#include "coll/hier.h"

#define SLOT_ARRIVE (COLL_SLOT_ALGO + 0)  /* on-node: my source is ready */
#define SLOT_RELEASE (COLL_SLOT_ALGO + 1) /* on-node: every block is at the leader */
#define SLOT_DONE (COLL_SLOT_ALGO + 2)    /* on-node: a member has copied them */
#define SLOT_READY (COLL_SLOT_ALGO + 3)   /* leaders: my dest may be written */
#define SLOT_BLOCKS (COLL_SLOT_ALGO + 4)  /* leaders: a group's blocks have arrived */

static int other_leader(const hier_map_t *m, int d)
{
    return hier_leader(m, (m->my_lrank + d) % m->nleaders);
}

static void leaders_exchange(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                             size_t nbytes)
{
    const size_t at = (size_t)m->lo * nbytes, len = (size_t)(m->hi - m->lo) * nbytes;
    coll_wait(c, SLOT_READY, m->nleaders - 1);
    for (int d = 1; d < m->nleaders; d++) {
        coll_put_signal(c, other_leader(m, d), dest, at, dest->addr + at, len, SLOT_BLOCKS);
    }
    coll_wait(c, SLOT_BLOCKS, m->nleaders - 1);
}

static void leader(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                   const coll_buf_t *src, size_t nbytes)
{
    for (int d = 1; d < m->nleaders; d++)
        coll_signal(c, other_leader(m, d), SLOT_READY);
    if (dest->addr + (size_t)c->me * nbytes != src->addr)
        memmove(dest->addr + (size_t)c->me * nbytes, src->addr, nbytes);
    hier_node_arrive(c, m, SLOT_ARRIVE);
    for (int i = m->lo; i < m->hi; i++)
        if (i != c->me)
            memcpy(dest->addr + (size_t)i * nbytes, hier_node_view(c, src, i, 0), nbytes);
    if (m->nleaders > 1)
        leaders_exchange(c, m, dest, nbytes);
    if (m->hi - m->lo > 1) {
        hier_node_expose(c, dest, 0, (size_t)c->n * nbytes);
        hier_node_release(c, m, SLOT_RELEASE);
        hier_node_wait(c, SLOT_DONE, m->hi - m->lo - 1);
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
        const size_t at = (size_t)c->me * nbytes, total = (size_t)c->n * nbytes;
        hier_node_expose(c, src, 0, nbytes);
        hier_node_arrive(c, &m, SLOT_ARRIVE);
        hier_node_release(c, &m, SLOT_RELEASE); /* the leader has read our source */
        const char *all = hier_node_view(c, dest, m.leader, 0);
        memcpy(dest->addr, all, at); /* the blocks before ours, then those after */
        memcpy(dest->addr + at + nbytes, all + at + nbytes, total - at - nbytes);
        if (dest->addr + at != src->addr)
            memmove(dest->addr + at, src->addr, nbytes);
        hier_node_add(c, m.leader, SLOT_DONE, 1);
    }
    coll_done(c);
}
