/*
 * fence_order.c: shmem_fence orders a large put before a later small put or atomic to the
 * same PE, also where UCX's fence orders only within one lane (UCX up to 1.13 on RDMA).
 * The weak-ordering emulation (weak_order.c) holds every put of at least HOLD bytes back
 * until its endpoint's next flush, so a fence that is only ucp_worker_fence lets the flag
 * land before the block; the receiver then reads a stale block.
 *
 * Every PE sends to the next one, ROUNDS times: a block of N longs, shmem_fence, then the
 * round number as the flag, by a small put (even rounds) or an atomic set (odd rounds). The
 * receiver waits for the flag, checks the block's first and last element, and lets the
 * sender go on (an ack, so that a block is never overwritten while it is read).
 *
 * sshmem-test: np=2 3 4
 */
#include "check.h"
#include "weak_order.h"

#define N 2048 /* longs: 16 KiB, over UCX's zero-copy threshold on RDMA */
#define HOLD 1024
#define ROUNDS 100

static long *block, *flag, *ack; /* on the heap: UCX puts there directly (globals are
                                    emulated, and a fence completes emulated puts anyway) */

int main(void)
{
    weak_order_setup(HOLD);
    shmem_init();
    block = shmem_malloc(N * sizeof *block);
    flag = shmem_calloc(2, sizeof *flag);
    ack = flag + 1;
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    const int to = (me + 1) % npes, from = (me + npes - 1) % npes;
    long src[N];
    for (long r = 1; r <= ROUNDS; r++) {
        for (int i = 0; i < N; i++)
            src[i] = r * 1000000 + i;
        shmem_long_put(block, src, N, to);
        shmem_fence();
        if (r % 2)
            shmem_long_atomic_set(flag, r, to);
        else
            shmem_long_p(flag, r, to);
        shmem_long_wait_until(flag, SHMEM_CMP_GE, r);
        long first = __atomic_load_n(&block[0], __ATOMIC_RELAXED);
        long last = __atomic_load_n(&block[N - 1], __ATOMIC_RELAXED);
        CHECK(first == r * 1000000 && last == r * 1000000 + N - 1,
              "round %ld from PE %d: the flag came before the block (%ld .. %ld)", r, from,
              first, last);
        shmem_long_atomic_set(ack, r, from);
        shmem_long_wait_until(ack, SHMEM_CMP_GE, r);
    }
    return check_finish();
}
