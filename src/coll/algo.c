/*
 * algo.c: choosing a collective algorithm (see algo.h). The thresholds come from
 * bench/coll_latency.c on a 2-core host; on a node, shared-memory algorithms win.
 */
#include "coll/algo.h"
#include "coll/hier.h"
#include "coll/set_shape.h"
#include "core/env.h"

enum coll_barrier_algo coll_algo_barrier(const coll_t *c)
{
    int forced = sshmem_env.coll_barrier;
    if (forced != COLL_BARRIER_AUTO && (forced != COLL_BARRIER_HIER || coll_node_loads()))
        return (enum coll_barrier_algo)forced;
    if (!c->direct && hier_worth(c))
        return COLL_BARRIER_HIER;
    /* All-signal-all reaches everybody in one step; worth it while the signals are cheap. With
     * more PEs than CPUs each wait costs a trip through the scheduler, so one wait of n - 1
     * signals beats log2(n) waits of one. */
    if (c->direct && (c->n <= 4 || (c->n <= 16 && coll_host_crowded())))
        return COLL_BARRIER_FLAT;
    return COLL_BARRIER_DISSEM;
}

enum coll_bcast_algo coll_algo_bcast(const coll_t *c, size_t nbytes)
{
    int forced = sshmem_env.coll_bcast;
    const int shm_only = forced == COLL_BCAST_LINEAR || forced == COLL_BCAST_COOP;
    if (forced != COLL_BCAST_AUTO && (!shm_only || c->direct) &&
        (forced != COLL_BCAST_HIER || coll_node_loads()))
        return (enum coll_bcast_algo)forced;
    if (!c->direct && hier_worth(c))
        return COLL_BCAST_HIER;
    if (c->direct)
        return nbytes <= 16384 ? COLL_BCAST_LINEAR : COLL_BCAST_COOP;
    /* The radix-4 tree's root sends 3 log4(n) messages of data, 1.5 times the binomial
     * tree's log2(n): fewer rounds while n is small, too many messages past 16 members. */
    return c->n > 4 && c->n <= 16 && nbytes <= 8192 ? COLL_BCAST_KNOMIAL : COLL_BCAST_BINOMIAL;
}

/* The flat shared-memory reductions read every member's buffer, so each PE maps every other PE's
 * heap on first use (heap/peers.c learns peers lazily): n^2 mappings for the job, each a UCX
 * endpoint and an attach. Past this many members the log n algorithms, whose PEs each talk to
 * log n others, keep start-up and first calls linear. */
#define COLL_FLAT_MAX_MEMBERS 32

enum coll_reduce_algo coll_algo_reduce(const coll_t *c, size_t nbytes, int shm_fits)
{
    int forced = sshmem_env.coll_reduce;
    if (forced == COLL_REDUCE_STAMP) /* the old name of shm's stamped form */
        forced = COLL_REDUCE_SHM;
    if (forced == COLL_REDUCE_RD || forced == COLL_REDUCE_RSAG ||
        (forced == COLL_REDUCE_SHMRS && c->direct) ||
        (forced == COLL_REDUCE_SHM && c->direct && shm_fits) ||
        (forced == COLL_REDUCE_HIER && coll_node_loads()))
        return (enum coll_reduce_algo)forced;
    if (c->direct && c->n <= COLL_FLAT_MAX_MEMBERS)
        return shm_fits && nbytes <= 4096 ? COLL_REDUCE_SHM : COLL_REDUCE_SHMRS;
    if (nbytes <= 8192 && hier_worth(c))
        return COLL_REDUCE_HIER;
    return nbytes <= 8192 ? COLL_REDUCE_RD : COLL_REDUCE_RSAG;
}

enum coll_fcollect_algo coll_algo_fcollect(const coll_t *c)
{
    int forced = sshmem_env.coll_fcollect;
    if (forced == COLL_FCOLLECT_RING) /* the old name of a removed algorithm: Bruck's steps */
        forced = COLL_FCOLLECT_BRUCK;
    if (forced != COLL_FCOLLECT_AUTO && (forced != COLL_FCOLLECT_HIER || coll_node_loads()))
        return (enum coll_fcollect_algo)forced;
    if (c->direct)
        return COLL_FCOLLECT_LINEAR;
    if (hier_worth(c))
        return COLL_FCOLLECT_HIER;
    /* Every PE sends (n - 1) blocks in ceil(log2 n) steps, the fewest of any algorithm here:
     * where each step is a message through its receiver's CPU (tcp), the steps cost most. */
    return COLL_FCOLLECT_BRUCK;
}

enum coll_exchange_algo coll_algo_exchange(size_t nbytes, size_t slot_bytes)
{
    if (sshmem_env.coll_exchange == COLL_EXCHANGE_RENDEZVOUS)
        return COLL_EXCHANGE_RENDEZVOUS;
    /* A copy through the slot costs less than the handshake while it fits: the slot holds
     * over 3 KB at 2 PEs, 1.9 KB at 4 (the 7.5 KB work space shared by the peers). */
    return nbytes <= slot_bytes ? COLL_EXCHANGE_EAGER : COLL_EXCHANGE_RENDEZVOUS;
}
