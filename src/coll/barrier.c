/*
 * barrier.c: dissemination barrier over all PEs.
 *
 * In round k, PE i tells PE (i + 2^k) mod n "I reached barrier number e" by storing e into
 * that peer's flag k, and waits until its own flag k reaches e. After ceil(log2 n) rounds
 * every PE has heard, directly or not, from every other. Flags only grow, so a fast PE that
 * already signals the next barrier (e + 1) cannot confuse a slow one waiting for e.
 * On-node peers get a plain release store into their mapped heap; others a UCX put.
 */
#include <shmem.h>

#include "coll/barrier.h"
#include "core/api_defs.h"
#include "core/error.h"
#include "heap/heap.h"
#include "sync/wait.h"

#define FLAG_STRIDE 8 /* uint64_t per flag: one cache line each */
#define MAX_ROUNDS 32

static uint64_t *flags; /* symmetric: MAX_ROUNDS flags */
static uint64_t epoch;  /* barriers completed by this PE */

void sshmem_barrier_init(void)
{
    flags = sshmem_heap_internal(MAX_ROUNDS * FLAG_STRIDE * sizeof(uint64_t));
    epoch = 0;
}

static void signal_peer(int pe, uint64_t *flag, uint64_t value)
{
    size_t off = (uintptr_t)flag - sshmem.region[SSHMEM_REGION_HEAP].base;
    char *direct = sshmem.peers[pe].direct[SSHMEM_REGION_HEAP];
    if (direct) {
        __atomic_store_n((uint64_t *)(direct + off), value, __ATOMIC_RELEASE);
        return;
    }
    sshmem_tx_put(sshmem_tx_default(), pe, SSHMEM_REGION_HEAP,
                  sshmem.peers[pe].remote[SSHMEM_REGION_HEAP] + off, &value, sizeof value, 1);
}

void sshmem_barrier_world(int quiet)
{
    const int n = sshmem.n_pes, me = sshmem.my_pe;
    if (quiet) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        if (sshmem.ucx_in_use)
            sshmem_tx_quiet(sshmem_tx_default());
    }
    const uint64_t e = ++epoch;
    for (int k = 0, dist = 1; dist < n; k++, dist <<= 1) {
        uint64_t *flag = &flags[k * FLAG_STRIDE];
        signal_peer((me + dist) % n, flag, e);
        SSHMEM_WAIT_UNTIL(__atomic_load_n(flag, __ATOMIC_ACQUIRE) >= e);
    }
}

SSHMEM_DEFINE(void, shmem_barrier_all, (void))
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized("shmem_barrier_all");
    sshmem_barrier_world(1);
}

SSHMEM_DEFINE(void, shmem_sync_all, (void))
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized("shmem_sync_all");
    sshmem_barrier_world(0);
}
