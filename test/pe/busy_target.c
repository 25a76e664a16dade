/*
 * busy_target.c: puts, gets and atomics into a PE that is busy computing (not calling
 * sshmem at all) complete without waiting for it: they are truly one-sided.
 * sshmem-test: np=2 3 4
 *
 * PE 0 computes for BUSY_S seconds without calling the library. Every other PE meanwhile
 * does its puts, gets and atomics on PE 0 (heap and globals) and records when they finished;
 * all of them must finish long before PE 0 is done computing. On the direct path and for the
 * heap over UCX shared memory they are truly one-sided; over tcp, and for globals through
 * UCX, UCX emulates them and PE 0's progress thread serves them.
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
            shmem_long_atomic_inc(&global_hits, 0);
        }
        shmem_quiet();
        *done_at = now() - start;
        CHECK(*done_at < BUSY_S * 0.75 || !speed_checked(), "one-sided operations into a busy PE took %.3f s "
              "(the target computed for %.1f s)", *done_at, BUSY_S);
    }
    shmem_barrier_all();
    if (me == 0) {
        CHECK_EQ_LONG(*hits, 100L * (npes - 1), "atomic increments from the others");
        CHECK_EQ_LONG(global_hits, 100L * (npes - 1), "atomic increments on a global");
    }
    return check_finish();
}
