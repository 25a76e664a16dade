/*
 * hier.h: node-aware collectives (the "hier" choice of SSHMEM_COLL_BARRIER, _BCAST, _REDUCE,
 * _FCOLLECT). Inside a node members work through shared memory; one leader per node talks to
 * the other leaders over the network:
 *   barrier:  node gather at the leader -> dissemination among leaders -> node release
 *   bcast:    root's data to the leaders down a binomial tree -> node members copy from theirs
 *   reduce:   leader combines its node's sources -> reduce.c's rounds among leaders ->
 *             node members copy the result from their leader (reduce.c)
 *   fcollect (and the MPI-style allgatherv's records): node blocks gathered at the leader
 *             -> leaders exchange node blocks -> node members copy the whole from the leader
 *
 * Groups. A group is a maximal run of consecutive members on one node, so combining groups in
 * group order keeps member order: a non-commutative operator (ops.h, commute == 0) gets x0 op ...
 * op x(n-1). With block placement (and SSHMEM_PES_PER_NODE) a run is a node's whole share of the
 * set; with round-robin placement runs are single PEs and hier degrades to its leader algorithm.
 * A group's leader is its first member (the root itself in the root's group of a bcast).
 *
 * On-node views (hier_map.c). Node mates reach each other by load/store, in heap and globals; the
 * heap is mapped from its memory file for these algorithms alone where UCX has no shared-memory
 * transport (sshmem_peer_node_heap: UCX_TLS=tcp,self leaves direct views of node mates' heaps
 * NULL). With SSHMEM_LOCAL=ucx they never use load/store, and the choice falls back to the
 * automatic one (coll_node_loads, set_shape.h). On-node flags are the call's own flag words,
 * taken by CPU atomics (engine.h, coll_wait_cpu); flags between leaders take other slots and
 * coll_add: one atomicity domain per word for the whole call.
 */
#ifndef SSHMEM_COLL_HIER_H
#define SSHMEM_COLL_HIER_H

#include "coll/engine.h"
#include "coll/ops.h"

/* A call's view of its set's groups (coll/set_shape.h, worked out before the call). */
typedef struct hier_map {
    int lo, hi;        /* my group: members [lo, hi) */
    int leader;        /* my group's leader (member index) */
    int nleaders;      /* groups in the set */
    int my_lrank;      /* my group's number (0 = lowest members) */
    const int *first;  /* first[g]: first member of group g; first[nleaders] = n */
    int root_group;    /* the group whose leader is the root, or -1 */
    int root;
} hier_map_t;

/* The groups of c's set; root >= 0 makes the root the leader of its group. */
void hier_map_init(hier_map_t *m, const coll_t *c, int root);

/* The leader of group g: its first member, or the root in the root's group. */
static inline int hier_leader(const hier_map_t *m, int g)
{
    return g == m->root_group ? m->root : m->first[g];
}

static inline int hier_is_leader(const hier_map_t *m, const coll_t *c)
{
    return m->leader == c->me;
}

/* The places the log-step phases run over, shared by the flat collectives (m NULL: the
 * members) and the node-aware ones (the leaders of m's groups): how many, this PE's, and
 * the member at place p. */
static inline int hier_places(const coll_t *c, const hier_map_t *m)
{
    return m ? m->nleaders : c->n;
}
static inline int hier_my_place(const coll_t *c, const hier_map_t *m)
{
    return m ? m->my_lrank : c->me;
}
static inline int hier_place_member(const hier_map_t *m, int p)
{
    return m ? hier_leader(m, p) : p;
}
/* Dissemination over the places (barrier.c): flags slot0 .. slot0 + ceil(log2 places) - 1. */
void coll_dissemination(coll_t *c, const hier_map_t *m, int slot0);
/* A tree broadcast over the places (bcast.c) from root's place (the root leads its group),
 * radix k: arrivals go up the tree on flag slot up, the data comes down it on slot down. */
void coll_bcast_tree(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                     const coll_buf_t *src, size_t nbytes, int root, int root_too, int k,
                     int up, int down);

/* hier is worth it: usable, more than one group, and some group of more than one member
 * (decided with the set's shape, before the call). */
static inline int hier_worth(const coll_t *c)
{
    return c->shape->hier_worth;
}

void coll_hier_barrier(coll_t *c);
void coll_hier_broadcast(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                         size_t nbytes, int root, int root_too);
/* coll_collect_bruck's node-aware form (hier_collect.c). */
void coll_hier_collect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                       const size_t *offs, size_t nbytes);

/* On-node views (hier_map.c): the load/store address of node mate member's b + at. */
char *hier_node_view(coll_t *c, const coll_buf_t *b, int member, size_t at);
/* On-node flags (slot numbers as the sync area's). */
void hier_node_add(coll_t *c, int member, int slot, long amount);
void hier_node_wait(coll_t *c, int slot, long count);

/* Shared by the algorithms: the on-node phases. */
/* Members tell the leader they have entered (and whatever they wrote before is there). */
void hier_node_arrive(coll_t *c, const hier_map_t *m, int slot);
/* The leader lets its members go. */
void hier_node_release(coll_t *c, const hier_map_t *m, int slot);

#endif
