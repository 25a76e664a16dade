/*
 * bcast.c: broadcast.
 *
 *  - linear (shared memory): the root copies into every member's dest, signals it and returns;
 *    a member returns once its data is in (engine.h, "Early return"). One step: the best for
 *    small data.
 *  - coop (shared memory): the data is cut in n parts; the root writes part r into member r's
 *    dest while every member reads all other parts straight from the root's source, so all CPUs
 *    copy at once. For large data on a node.
 *  - binomial / knomial (radix 4): arrivals go up a tree to the root, the data comes down it,
 *    each member forwarding from its own dest. For members reached over the network.
 * All but linear learn that every member has entered before the last member leaves (arrivals
 * gathered at the root): the engine's reuse rule.
 */
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/hier.h"
#include "coll/slots.h"

static void local_copy(const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes)
{
    if (dest->addr != src->addr)
        memcpy(dest->addr, src->addr, nbytes);
}

/* Linear (see the top): the root copies into every member's dest at once (the caller's contract
 * says they are ready). */
static void bcast_linear_early(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                               size_t nbytes, int root, int root_too)
{
    coll_mark_early(c);
    if (c->me != root) {
        coll_wait(c, COLL_SLOT_EARLY, 1);
        return;
    }
    for (int d = 1; d < c->n; d++) {
        int j = coll_rel(c, d);
        coll_put_signal(c, j, dest, 0, src->addr, nbytes, COLL_SLOT_EARLY);
    }
    if (root_too)
        local_copy(dest, src, nbytes);
}

/* Part p of n over nbytes, in cache-line multiples: [*lo, *hi). */
static void part_of(size_t nbytes, int n, int p, size_t *lo, size_t *hi)
{
    size_t chunk = ((nbytes + (size_t)n - 1) / (size_t)n + 63) & ~(size_t)63;
    *lo = (size_t)p * chunk < nbytes ? (size_t)p * chunk : nbytes;
    *hi = *lo + chunk < nbytes ? *lo + chunk : nbytes;
}

static void bcast_coop(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes,
                       int root, int root_too)
{
    const int n = c->n;
    const int rank = (c->me - root + n) % n; /* 0 at the root */
    size_t lo, hi;
    if (rank != 0) {
        coll_wait(c, SLOT_BCAST_DOWN, 1); /* "go": the root's source is ready */
        const char *rsrc = coll_peer(c, src, root, 0);
        for (int p = 0; p < n; p++) {
            if (p == rank)
                continue; /* the root writes this one */
            part_of(nbytes, n, p, &lo, &hi);
            memcpy(dest->addr + lo, rsrc + lo, hi - lo);
        }
        coll_signal(c, root, SLOT_BCAST_UP);  /* done reading the root's source */
        coll_wait(c, SLOT_BCAST_DOWN, 1);     /* the root has written our part */
        return;
    }
    for (int d = 1; d < n; d++)
        coll_signal(c, coll_rel(c, d), SLOT_BCAST_DOWN);
    for (int d = 1; d < n; d++) {
        int j = coll_rel(c, d);
        part_of(nbytes, n, d, &lo, &hi);
        memcpy(coll_peer(c, dest, j, lo), src->addr + lo, hi - lo);
    }
    if (root_too)
        local_copy(dest, src, nbytes);
    coll_wait(c, SLOT_BCAST_UP, n - 1);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    for (int d = 1; d < n; d++)
        coll_signal(c, coll_rel(c, d), SLOT_BCAST_DOWN);
}

/* k-nomial tree over ranks relative to the root. The parent of rank r clears r's lowest
 * non-zero base-k digit; the children of r add j * k^m (j = 1..k-1) for every m below it. */
static int tree_top_level(int rank, int k, int n)
{
    long step = 1;
    if (rank == 0) {
        while (step * k < n)
            step *= k;
        return (int)step; /* the root's children start at the largest power below n */
    }
    while ((rank / step) % k == 0)
        step *= k;
    return (int)(step / k); /* below r's lowest non-zero digit (0 for a leaf) */
}

static int tree_parent(int rank, int k)
{
    long step = 1;
    while ((rank / step) % k == 0)
        step *= k;
    return rank - (int)(((rank / step) % k) * step);
}

static int tree_children(int rank, int k, int n)
{
    int count = 0;
    for (long step = tree_top_level(rank, k, n); step >= 1; step /= k)
        for (int j = 1; j < k; j++)
            if (rank + j * step < n)
                count++;
    return count;
}

void coll_bcast_tree(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                     const coll_buf_t *src, size_t nbytes, int root, int root_too, int k,
                     int up, int down)
{
    const int n = hier_places(c, m), top = m ? m->root_group : root;
    const int rank = (hier_my_place(c, m) - top + n) % n;
#define MEMBER_OF(r) hier_place_member(m, (top + (r)) % n)
    coll_wait(c, up, tree_children(rank, k, n));
    if (rank != 0) {
        coll_signal(c, MEMBER_OF(tree_parent(rank, k)), up);
        coll_wait(c, down, 1);
    } else if (root_too) {
        local_copy(dest, src, nbytes);
    }
    const char *from = rank == 0 ? src->addr : dest->addr;
    for (long step = tree_top_level(rank, k, n); step >= 1; step /= k)
        for (int j = 1; j < k; j++) {
            if (rank + j * step >= n)
                continue;
            coll_put_signal(c, MEMBER_OF(rank + j * (int)step), dest, 0, from, nbytes, down);
        }
#undef MEMBER_OF
}

void coll_broadcast(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes,
                    int root, int root_too)
{
    if (c->n == 1) {
        if (root_too)
            local_copy(dest, src, nbytes);
        return;
    }
    switch (coll_algo_bcast(c, nbytes)) {
    case COLL_BCAST_COOP:
        bcast_coop(c, dest, src, nbytes, root, root_too);
        break;
    case COLL_BCAST_BINOMIAL:
        coll_bcast_tree(c, NULL, dest, src, nbytes, root, root_too, 2, SLOT_BCAST_UP,
                        SLOT_BCAST_DOWN);
        break;
    case COLL_BCAST_KNOMIAL:
        coll_bcast_tree(c, NULL, dest, src, nbytes, root, root_too, 4, SLOT_BCAST_UP,
                        SLOT_BCAST_DOWN);
        break;
    case COLL_BCAST_HIER:
        coll_hier_broadcast(c, dest, src, nbytes, root, root_too);
        break;
    default:
        bcast_linear_early(c, dest, src, nbytes, root, root_too);
        break;
    }
    coll_done(c);
}

/* The node-aware broadcast (hier.h), arrivals first going up the leaders' tree; the root leads
 * its own group, whose members copy from the root's source. The members of a node copy at once
 * and tell their leader when done, so no leader leaves while its buffer is read. */
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
