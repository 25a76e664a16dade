/*
 * barrier.c: barriers and syncs, on teams, on active sets and over the world.
 *
 * Two algorithms (SSHMEM_COLL_BARRIER):
 *  - dissemination: in round k member i signals member i + 2^k and waits for the signal of
 *    member i - 2^k (flag k); after ceil(log2 n) rounds everybody has heard from everybody.
 *  - flat: every member signals every other on one flag and waits for n - 1 signals; one step,
 *    n - 1 signals each: the fastest while members share memory and are few.
 * Both leave every flag at rest and tolerate a peer already in the next barrier on the same flags
 * (engine.h, reuse rule; no member can be more than one barrier ahead of another).
 */
#include <shmem.h>

#include "coll/algo.h"
#include "coll/api.h"
#include "coll/barrier.h"
#include "coll/coll.h"
#include "coll/hier.h"
#include "coll/slots.h"
#include "core/api_defs.h"
#include "core/debug_hooks.h"
#include "core/env.h"
#include "core/error.h"
#include "core/profile.h"
#include "sync/weak.h"
#include "transport/transport.h"

void coll_dissemination(coll_t *c, const hier_map_t *m, int slot0)
{
    const int n = hier_places(c, m), me = hier_my_place(c, m);
    for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        coll_signal(c, hier_place_member(m, (me + dist) % n), slot0 + k);
        coll_wait(c, slot0 + k, 1);
    }
}

static void barrier_flat(coll_t *c)
{
    for (int d = 1; d < c->n; d++)
        coll_signal(c, coll_rel(c, d), SLOT_BARRIER_ALL);
    coll_wait(c, SLOT_BARRIER_ALL, c->n - 1);
}

void coll_barrier(coll_t *c)
{
    if (c->n == 1)
        return;
    coll_reach_all(c); /* a barrier writes into members' flags */
    switch (coll_algo_barrier(c)) {
    case COLL_BARRIER_FLAT:
        barrier_flat(c);
        break;
    case COLL_BARRIER_HIER:
        coll_hier_barrier(c);
        break;
    default:
        coll_dissemination(c, NULL, SLOT_BARRIER_ROUND(0));
        break;
    }
}

/* Complete this PE's outstanding puts and atomics (the "quiet" of a barrier). */
static void quiet_default(void)
{
    if (SSHMEM_UNLIKELY(sshmem_env.weak))
        sshmem_weak_complete(SHMEM_CTX_DEFAULT, NULL, 0);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (sshmem.ucx_in_use)
        sshmem_tx_quiet(sshmem_tx_default());
}

void sshmem_barrier_init(void)
{
    sshmem_team_init();
}

void sshmem_barrier_world(int quiet)
{
    coll_t c;
    if (quiet)
        quiet_default();
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST); /* local stores visible before we signal */
    coll_setup_team(&c, &sshmem_team_world, quiet ? "shmem_barrier_all" : "shmem_sync_all");
    coll_barrier(&c);
}

/* ------------------------------------------------------------------ API */

static void world(int quiet, const char *call)
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized(call);
    uint64_t t0 = SSHMEM_PROFILE_START();
    sshmem_barrier_world(quiet);
    SSHMEM_PROFILE_STOP(BARRIER, t0);
}

SSHMEM_DEFINE(void, shmem_barrier_all, (void)) { world(1, "shmem_barrier_all"); }

SSHMEM_DEFINE(void, shmem_sync_all, (void)) { world(0, "shmem_sync_all"); }

SSHMEM_DEFINE(int, shmem_team_sync, (shmem_team_t team))
{
    return coll_team_call(team, &(const coll_call_t){COLL_SYNC, .call = "shmem_team_sync"});
}

void coll_barrier_call(coll_t *c, int quiet)
{
    uint64_t t0 = SSHMEM_PROFILE_START();
    if (quiet)
        quiet_default();
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST); /* local stores visible before we signal */
    coll_barrier(c);
    SSHMEM_PROFILE_STOP(BARRIER, t0);
}

SSHMEM_DEFINE(void, shmem_barrier, (int PE_start, int logPE_stride, int PE_size, long *pSync))
{
    coll_as_call(&(const coll_call_t){COLL_BARRIER, .call = "shmem_barrier"}, PE_start,
                 logPE_stride, PE_size, pSync);
}

#undef shmem_sync /* the C11 form of shmem_coll.h: here the function itself is defined */
SSHMEM_DEFINE(void, shmem_sync, (int PE_start, int logPE_stride, int PE_size, long *pSync))
{
    coll_as_call(&(const coll_call_t){COLL_SYNC, .call = "shmem_sync"}, PE_start, logPE_stride,
                 PE_size, pSync);
}

/* The node-aware barrier (hier.h), dissemination among the leaders. Only the barrier's slots
 * (0..19, engine.h) are used, since any algorithm may call coll_barrier. */
void coll_hier_barrier(coll_t *c)
{
    hier_map_t m;
    hier_map_init(&m, c, -1);
    hier_node_arrive(c, &m, SLOT_HIER_BARRIER_ARRIVE);
    if (hier_is_leader(&m, c))
        coll_dissemination(c, &m, SLOT_HIER_BARRIER_ROUND(0));
    hier_node_release(c, &m, SLOT_HIER_BARRIER_RELEASE);
}
