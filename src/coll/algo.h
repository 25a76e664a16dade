/*
 * algo.h: which algorithm a collective uses. Each collective has an environment variable
 * (SSHMEM_COLL_BARRIER, _BCAST, _REDUCE, _FCOLLECT; see core/env.h and doc/) whose value forces
 * one algorithm; "auto" (the default) chooses by PE count, size and whether the members share
 * memory. A shared-memory algorithm forced on a set that does not share memory falls back to the
 * automatic choice, and so does hier (hier.h) where node mates do not map each other
 * (SSHMEM_LOCAL=ucx). Auto picks hier when the set spans several nodes with more than one member
 * on some node (hier_worth). Every PE of a call chooses alike: the choice depends only on values
 * all members agree on. Every reduction algorithm (reduce.c) and the scan keep member order, so a
 * non-commutative operator may take any of them.
 */
#ifndef SSHMEM_COLL_ALGO_H
#define SSHMEM_COLL_ALGO_H

#include "coll/engine.h"

/* In the order of the choices in core/env.h. */
enum coll_barrier_algo {
    COLL_BARRIER_AUTO, COLL_BARRIER_DISSEM, COLL_BARRIER_FLAT, COLL_BARRIER_HIER
};
enum coll_bcast_algo {
    COLL_BCAST_AUTO, COLL_BCAST_LINEAR, COLL_BCAST_COOP, COLL_BCAST_BINOMIAL, COLL_BCAST_KNOMIAL,
    COLL_BCAST_HIER
};
enum coll_reduce_algo { /* STAMP: the old name of SHM, taken as SHM */
    COLL_REDUCE_AUTO, COLL_REDUCE_SHM, COLL_REDUCE_SHMRS, COLL_REDUCE_RD, COLL_REDUCE_RSAG,
    COLL_REDUCE_HIER, COLL_REDUCE_STAMP
};
enum coll_fcollect_algo { /* RING: the old name of BRUCK, taken as BRUCK */
    COLL_FCOLLECT_AUTO, COLL_FCOLLECT_LINEAR, COLL_FCOLLECT_RING, COLL_FCOLLECT_BRUCK,
    COLL_FCOLLECT_HIER
};
/* How a block of the shmemx gather family travels (src/mpix/exchange.h): through the receiver's
 * slot of the work space (eager), or straight into dest after a handshake. AUTO, RENDEZVOUS and
 * TREE are the choices of SSHMEM_COLL_EXCHANGE; EAGER is only a result. TREE: rooted calls take
 * the binomial tree wherever it may apply (src/mpix/tree.c). */
enum coll_exchange_algo {
    COLL_EXCHANGE_AUTO, COLL_EXCHANGE_RENDEZVOUS, COLL_EXCHANGE_TREE, COLL_EXCHANGE_EAGER
};

enum coll_barrier_algo coll_algo_barrier(const coll_t *c);
/* nbytes: the size of the broadcast. */
enum coll_bcast_algo coll_algo_bcast(const coll_t *c, size_t nbytes);
/* nbytes: the size of one PE's vector; shm_fits: it fits the work buffer for staging. */
enum coll_reduce_algo coll_algo_reduce(const coll_t *c, size_t nbytes, int shm_fits);
/* Not by size: every size takes the same algorithm. */
enum coll_fcollect_algo coll_algo_fcollect(const coll_t *c);
/* nbytes: one block; slot_bytes: the data a work-space slot holds. Depends only on values
 * sender and receiver agree on (the receiver follows the sender's header anyway). */
enum coll_exchange_algo coll_algo_exchange(size_t nbytes, size_t slot_bytes);

#endif
