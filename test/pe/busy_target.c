/*
 * busy_target.c: puts, gets and atomics into a PE that is busy computing (not calling
 * sshmem at all) complete without waiting for it: they are truly one-sided.
 * sshmem-test: np=2 3 4
 *
 * PE 0 computes for BUSY_S seconds without calling the library. Every other PE meanwhile
 * does its puts, gets and atomics on PE 0 and records when they finished; all of them must
 * finish long before PE 0 is done computing.
 */
#include <time.h>
#include "check.h"

#define BUSY_S 2.0
static long global_hits;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (on_tcp()) {
        /* Over tcp every operation is emulated by the target's CPU: it needs the progress
         * thread of the point-to-point issue. */
        if (me == 0)
            printf("SKIP: over UCX tcp a busy target needs a progress thread\n");
        shmem_finalize();
        return 77;
    }
    const char *local = getenv("SSHMEM_LOCAL");
    /* Through UCX (SSHMEM_LOCAL=ucx, or several SSHMEM_PES_PER_NODE groups, where every
     * atomic goes through UCX), atomics on globals are emulated and need the target. */
    const char *k_env = getenv("SSHMEM_PES_PER_NODE");
    int k = k_env ? atoi(k_env) : 0;
    int via_ucx = (local && !strcmp(local, "ucx")) || (k > 0 && k < npes);
    long *hits = shmem_malloc(sizeof *hits);
    long *buf = shmem_malloc(64 * sizeof *buf);
    double *done_at = shmem_malloc(sizeof *done_at);
    *hits = 0;
    shmem_barrier_all();
    double start = now();
    if (me == 0) {
        volatile double x = 0; /* compute without touching the library */
        while (now() - start < BUSY_S)
            for (int i = 0; i < 10000; i++)
                x += i * 0.5;
    } else {
        long v[64];
        for (int i = 0; i < 64; i++)
            v[i] = me * 100 + i;
        for (int rep = 0; rep < 100; rep++) {
            shmem_long_put(buf, v, 64, 0);
            shmem_long_atomic_inc(hits, 0);
            long back = shmem_long_g(&buf[0], 0);
            CHECK(back % 100 == 0, "g from the busy PE: %ld", back);
            (void)shmem_long_atomic_fetch_add(hits, 0, 0);
            if (!via_ucx)
                shmem_long_atomic_inc(&global_hits, 0);
        }
        shmem_quiet();
        *done_at = now() - start;
        CHECK(*done_at < BUSY_S * 0.75, "one-sided operations into a busy PE took %.3f s "
              "(the target computed for %.1f s)", *done_at, BUSY_S);
    }
    shmem_barrier_all();
    if (me == 0) {
        CHECK_EQ_LONG(*hits, 100L * (npes - 1), "atomic increments from the others");
        if (!via_ucx)
            CHECK_EQ_LONG(global_hits, 100L * (npes - 1), "atomic increments on a global");
    }
    return check_finish();
}
