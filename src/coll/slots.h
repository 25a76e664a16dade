/*
 * slots.h: the map of flag slots, every algorithm's in one place.
 *
 * A call's flags (a pSync of at least COLL_MIN_FLAGS longs, or a team's sync area) are counting
 * semaphores indexed by slot (coll/engine.h). One algorithm runs per call, so the algorithms
 * share one range; the barrier any algorithm may call has its own, and the early broadcast the
 * last slot. A name here means one flag of one algorithm; algorithms doing the same step (the
 * node-aware ones inside a node, the message-passing reductions' rounds) share its name.
 *
 *   0 .. 19   COLL_SLOT_BARRIER: coll_barrier's algorithms
 *  20 .. 62   COLL_SLOT_ALGO: the algorithm of the call
 *  63         COLL_SLOT_EARLY: the early broadcast's data (coll/engine.h)
 */
#ifndef SSHMEM_COLL_SLOTS_H
#define SSHMEM_COLL_SLOTS_H

#include "coll/engine.h"

#define SLOT_ALGO_LAST (COLL_SLOT_EARLY - 1)

/* ---- barriers (barrier.c, its node-aware form too; engine.c's barrier of gated messages) */
#define SLOT_BARRIER_ALL COLL_SLOT_BARRIER                 /* flat: every member signals */
#define SLOT_BARRIER_ROUND(k) (COLL_SLOT_BARRIER + (k))    /* dissemination round k < 20 */
#define SLOT_HIER_BARRIER_ARRIVE (COLL_SLOT_BARRIER + 0)   /* on-node: members -> leader */
#define SLOT_HIER_BARRIER_RELEASE (COLL_SLOT_BARRIER + 1)  /* on-node: leader -> members */
#define SLOT_HIER_BARRIER_ROUND(k) (COLL_SLOT_BARRIER + 2 + (k)) /* leaders, round k < 18 */

/* ---- inside a node, for every node-aware collective (bcast.c, hier_collect.c, reduce.c) */
#define SLOT_NODE_ARRIVE (COLL_SLOT_ALGO + 0)  /* a member's source is ready */
#define SLOT_NODE_RELEASE (COLL_SLOT_ALGO + 1) /* the leader holds what members copy */
#define SLOT_NODE_COPIED (COLL_SLOT_ALGO + 2)  /* a member has copied it */

/* ---- broadcast (bcast.c; the node-aware form between leaders) */
#define SLOT_BCAST_UP (COLL_SLOT_ALGO + 0)   /* arrivals / done, counted at the parent or root */
#define SLOT_BCAST_DOWN (COLL_SLOT_ALGO + 1) /* data (or "go", "pushed") from the parent */
#define SLOT_HIER_BCAST_UP (COLL_SLOT_ALGO + 3)   /* leaders: arrivals of a subtree */
#define SLOT_HIER_BCAST_DOWN (COLL_SLOT_ALGO + 4) /* leaders: the data is in our dest */

/* ---- the message-passing reductions' rounds (reduce.c rd, rsag, also hier's leaders; scan.c) */
#define SLOT_ROUND_DATA(e) (COLL_SLOT_ALGO + 20 + (e)) /* round e: the data is in */
#define SLOT_FOLD_DATA (COLL_SLOT_ALGO + 41)   /* the folded member's data is in */
#define SLOT_FOLD_RESULT (COLL_SLOT_ALGO + 42) /* the result back to the folded member */

/* ---- shared-memory reductions (reduce.c) */
#define SLOT_SHMRS_DONE (COLL_SLOT_ALGO + 0)  /* shmrs: a member has written its slices */
#define SLOT_GATHERED (COLL_SLOT_ALGO + 0)    /* coll_reduce_gather: a vector is in */

/* ---- collect, fcollect (collect.c, ring_bruck.c; hier_collect.c between leaders) */
#define SLOT_COLLECT_STEP(e) (COLL_SLOT_ALGO + (e))          /* Bruck's / doubling's step e */
#define SLOT_COLLECT_BLOCK (COLL_SLOT_ALGO + 20)             /* linear; a pair's block */
#define SLOT_COLLECT_RUN_DATA(e) (COLL_SLOT_ALGO + 21 + (e)) /* a large run of step e is in */
#define SLOT_COLLECT_PAIR_DATA (COLL_SLOT_ALGO + 41)  /* a second member's large block is in */
#define SLOT_HIER_COLLECT_STEP0 (COLL_SLOT_ALGO + 4)  /* leaders: Bruck's steps from here */

/* ---- alltoall, alltoalls (alltoall.c) */
#define SLOT_ALLTOALL_BLOCK (COLL_SLOT_ALGO + 0)

/* ---- the MPI-style exchange (src/mpix/exchange*.c, tree.c) */
#define SLOT_XCHG_IN (COLL_SLOT_ALGO + 0)           /* invitations and headers */
#define SLOT_XCHG_LARGE_IN (COLL_SLOT_ALGO + 1)     /* at a receiver: large blocks in */
#define SLOT_XCHG_TREE_ARRIVED (COLL_SLOT_ALGO + 2) /* a tree: a subtree entered, or its blocks */

_Static_assert(SLOT_FOLD_RESULT <= SLOT_ALGO_LAST &&
                   SLOT_COLLECT_RUN_DATA(COLL_MAX_ROUNDS - 1) <= SLOT_ALGO_LAST,
               "every algorithm's slots lie below the early broadcast's");

#endif
