/*
 * signal.c: put-with-signal and the signal routines. The receiver of every signal checks
 * every data element it guards, so a signal seen before its data fails the test:
 *  1. ring, SHMEM_SIGNAL_SET, several typed/sized/untyped spellings, ctx forms;
 *  2. all-to-one, SHMEM_SIGNAL_ADD: each PE's slice into the root, the root waits for npes;
 *  3. a stream of small puts, each followed by an add: the k-th add guards slot k;
 *  4. a 1 MiB payload (large transfers travel differently from atomics on UCX);
 *  5. the _nbi forms completed by quiet; signal in a global, data on the heap;
 *  6. shmem_signal_fetch / add / set (+ ctx), and the value signal_wait_until returns.
 */
#include "check.h"

#define RING_N 64
#define BIG_BYTES (1u << 20)
#define BIG_N (BIG_BYTES / sizeof(long))

static uint64_t global_sig;
static long global_data[RING_N];

/* Data for (round, sender, element): distinct for every round and sender. */
static long value_of(long round, int sender, size_t i)
{
    return round * 1000003L + sender * 7919L + (long)i;
}

static void ring_set(int me, int npes, long *data, uint64_t *sig)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long src[RING_N];
    for (long round = 1; round <= 6; round++) {
        for (size_t i = 0; i < RING_N; i++)
            src[i] = value_of(round, me, i);
        switch (round) { /* a different spelling each round; all deliver RING_N longs */
        case 1: shmem_long_put_signal(data, src, RING_N, sig, round, SHMEM_SIGNAL_SET, right); break;
        case 2: shmem_ctx_long_put_signal(SHMEM_CTX_DEFAULT, data, src, RING_N, sig, round,
                                          SHMEM_SIGNAL_SET, right); break;
        case 3: shmem_put64_signal(data, src, RING_N, sig, round, SHMEM_SIGNAL_SET, right); break;
        case 4: shmem_put32_signal(data, src, 2 * RING_N, sig, round, SHMEM_SIGNAL_SET, right); break;
        case 5: shmem_putmem_signal(data, src, sizeof src, sig, round, SHMEM_SIGNAL_SET, right); break;
        case 6: shmem_ctx_put128_signal(SHMEM_CTX_DEFAULT, data, src, RING_N / 2, sig, round,
                                        SHMEM_SIGNAL_SET, right); break;
        }
        uint64_t got = shmem_signal_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)round);
        CHECK_EQ_LONG(got, round, "signal_wait_until return value");
        for (size_t i = 0; i < RING_N; i++)
            CHECK(data[i] == value_of(round, left, i), "ring round %ld: data[%zu] = %ld, want %ld",
                  round, i, data[i], value_of(round, left, i));
        shmem_barrier_all(); /* everyone has read before the next round overwrites */
    }
}

static void all_to_one_add(int me, int npes, long *slices, uint64_t *sig)
{
    enum { SLICE = 16 };
    for (int root = 0; root < npes && root < 3; root++) {
        long src[SLICE];
        for (size_t i = 0; i < SLICE; i++)
            src[i] = value_of(root + 1, me, i);
        shmem_long_put_signal(slices + me * SLICE, src, SLICE, sig, 1, SHMEM_SIGNAL_ADD, root);
        if (me == root) {
            shmem_signal_wait_until(sig, SHMEM_CMP_GE, (uint64_t)npes);
            CHECK_EQ_LONG(shmem_signal_fetch(sig), npes, "all-to-one: signal after every add");
            for (int p = 0; p < npes; p++)
                for (size_t i = 0; i < SLICE; i++)
                    CHECK(slices[p * SLICE + i] == value_of(root + 1, p, i),
                          "all-to-one root %d: slice of PE %d [%zu] = %ld", root, p, i,
                          slices[p * SLICE + i]);
            *sig = 0;
        }
        shmem_barrier_all();
    }
}

static void stream_add(int me, int npes, long *slots, uint64_t *sig, int count)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    for (int k = 0; k < count; k++) {
        long v = value_of(k, me, 0);
        shmem_long_put_signal(slots + k, &v, 1, sig, 1, SHMEM_SIGNAL_ADD, right);
        /* A signal orders only its own data: without the fence, put k+1 (data and signal)
         * may land before put k's data, and sig > k would not mean slot k is there. */
        shmem_fence();
    }
    for (int k = 0; k < count; k++) {
        shmem_signal_wait_until(sig, SHMEM_CMP_GT, (uint64_t)k);
        CHECK(slots[k] == value_of(k, left, 0), "stream slot %d = %ld", k, slots[k]);
    }
    shmem_barrier_all();
    *sig = 0;
    shmem_barrier_all();
}

static void big_payload(int me, int npes, long *big, long *src, uint64_t *sig)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    for (long round = 1; round <= 2; round++) {
        for (size_t i = 0; i < BIG_N; i++)
            src[i] = value_of(round, me, i);
        if (round == 1)
            shmem_long_put_signal(big, src, BIG_N, sig, round, SHMEM_SIGNAL_SET, right);
        else
            shmem_putmem_signal_nbi(big, src, BIG_BYTES, sig, round, SHMEM_SIGNAL_SET, right);
        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)round);
        size_t bad = 0;
        for (size_t i = 0; i < BIG_N; i++)
            bad += big[i] != value_of(round, left, i);
        CHECK(bad == 0, "1 MiB round %ld: %zu of %zu elements wrong (first %ld, last %ld)", round,
              bad, (size_t)BIG_N, big[0], big[BIG_N - 1]);
        shmem_quiet(); /* the nbi round: our source is free again */
        shmem_barrier_all();
    }
}

static void nbi_and_global(int me, int npes, int *idata, uint64_t *sig)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    int src[RING_N];
    for (size_t i = 0; i < RING_N; i++)
        src[i] = (int)value_of(9, me, i);
    shmem_int_put_signal_nbi(idata, src, RING_N, sig, 5, SHMEM_SIGNAL_SET, right);
    shmem_ctx_long_put_signal_nbi(SHMEM_CTX_DEFAULT, global_data, (long *)src, RING_N / 2,
                                  &global_sig, 3, SHMEM_SIGNAL_ADD, right);
    shmem_quiet();
    shmem_barrier_all();
    CHECK_EQ_LONG(*sig, 5, "nbi signal (set)");
    CHECK_EQ_LONG(global_sig, 3, "nbi signal in a global (add)");
    for (size_t i = 0; i < RING_N; i++)
        CHECK(idata[i] == (int)value_of(9, left, i), "nbi int data[%zu] = %d", i, idata[i]);
    const int *g = (const int *)global_data;
    for (size_t i = 0; i < RING_N; i++)
        CHECK(g[i] == (int)value_of(9, left, i), "nbi global data[%zu] = %d", i, g[i]);
    shmem_barrier_all();
}

static void signal_routines(int me, int npes, uint64_t *sig)
{
    *sig = 0;
    shmem_barrier_all();
    shmem_signal_add(sig, (uint64_t)me + 1, 0);
    shmem_ctx_signal_add(SHMEM_CTX_DEFAULT, sig, 100, npes - 1);
    shmem_barrier_all();
    uint64_t want = 0;
    if (me == 0)
        want += (uint64_t)npes * (npes + 1) / 2;
    if (me == npes - 1)
        want += 100u * npes;
    CHECK_EQ_LONG(shmem_signal_fetch(sig), want, "signal_add totals");
    shmem_barrier_all();
    /* set: PE p sets its right neighbour's signal to 1000 + p; then ctx set adds a high bit. */
    shmem_signal_set(sig, 1000u + (uint64_t)me, (me + 1) % npes);
    shmem_barrier_all();
    CHECK_EQ_LONG(shmem_signal_fetch(sig), 1000 + (me + npes - 1) % npes, "signal_set");
    shmem_barrier_all();
    shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, sig, UINT64_C(1) << 63, (me + 1) % npes);
    uint64_t seen = shmem_signal_wait_until(sig, SHMEM_CMP_GT, UINT64_C(1) << 62);
    CHECK(seen == UINT64_C(1) << 63, "ctx_signal_set full 64 bits: %llx", (unsigned long long)seen);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long *data = shmem_calloc(RING_N, sizeof *data);
    long *slices = shmem_calloc(16 * (size_t)npes, sizeof *slices);
    long *slots = shmem_calloc(64, sizeof *slots);
    int *idata = shmem_calloc(RING_N, sizeof *idata);
    long *big = shmem_calloc(BIG_N, sizeof *big);
    long *big_src = malloc(BIG_BYTES);
    uint64_t *sig = shmem_calloc(4, sizeof *sig);
    shmem_barrier_all();

    ring_set(me, npes, data, &sig[0]);
    all_to_one_add(me, npes, slices, &sig[1]);
    stream_add(me, npes, slots, &sig[2], on_tcp() ? 16 : 64);
    big_payload(me, npes, big, big_src, &sig[3]);
    nbi_and_global(me, npes, idata, &sig[0]);
    signal_routines(me, npes, &sig[1]);

    free(big_src);
    shmem_free(data);
    shmem_free(slices);
    shmem_free(slots);
    shmem_free(idata);
    shmem_free(big);
    shmem_free(sig);
    return check_finish();
}
