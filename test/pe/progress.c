/*
 * progress.c: a target that spins on its own variable while all other PEs hammer it with
 * atomics and gets must not hang them (a known bug class of other implementations: over tcp,
 * or on global data through UCX, every such operation needs the target's CPU).
 * sshmem-test: np=2 3 4 8
 *
 * Phase 1: PE 0 waits in shmem_long_wait_until on a heap flag; the others do fetch-adds on a
 * heap and a global counter of PE 0 and gets from it; the last one to finish sets the flag.
 * Phase 2: the same, but PE 0 spins with plain loads on a global flag, never calling the
 * library: only the progress thread can serve the others (skipped with
 * SSHMEM_PROGRESS_THREAD=0, where it would hang by design). Then every count is checked.
 */
#include <time.h>
#include "check.h"

#define ROUNDS 100
#define LIMIT_S 20.0 /* a phase that takes this long has hung */

static long gcounter;
static volatile long gflag;
static long gdata[8];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Everything the others do to PE 0 in one phase; the last to finish sets *flag there. */
static void hammer(long *counter, long *buf, long *done, long *flag)
{
    int npes = shmem_n_pes();
    long back[8];
    for (int r = 0; r < ROUNDS; r++) {
        long a = shmem_long_atomic_fetch_add(counter, 1, 0);
        long b = shmem_long_atomic_fetch_add(&gcounter, 1, 0);
        CHECK(a >= 0 && b >= 0, "fetched counts %ld %ld", a, b);
        if (r % 10 == 0) {
            shmem_long_get(back, buf, 8, 0);
            for (int i = 0; i < 8; i++)
                CHECK_EQ_LONG(back[i], 100 + i, "get from the spinning PE's heap");
            shmem_long_get(back, gdata, 8, 0);
            for (int i = 0; i < 8; i++)
                CHECK_EQ_LONG(back[i], 200 + i, "get from the spinning PE's globals");
        }
    }
    if (shmem_long_atomic_fetch_inc(done, 0) == npes - 2)
        shmem_long_atomic_set(flag, 1, 0);
}

static void check_counts(const long *counter, long phases)
{
    long want = phases * ROUNDS * (shmem_n_pes() - 1);
    CHECK_EQ_LONG(*counter, want, "fetch-adds on the heap counter");
    CHECK_EQ_LONG(gcounter, want, "fetch-adds on the global counter");
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    const char *pt = getenv("SSHMEM_PROGRESS_THREAD");
    int thread_off = pt && !strcmp(pt, "0");
    long *counter = shmem_calloc(1, sizeof(long));
    long *done = shmem_calloc(2, sizeof(long));
    long *flag = shmem_calloc(1, sizeof(long));
    long *buf = shmem_malloc(8 * sizeof(long));
    for (int i = 0; i < 8; i++) {
        buf[i] = 100 + i;
        gdata[i] = 200 + i;
    }
    shmem_barrier_all();

    /* Phase 1: the target waits inside the library. */
    double start = now();
    if (me == 0)
        shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
    else
        hammer(counter, buf, &done[0], flag);
    shmem_barrier_all();
    if (me == 0)
        check_counts(counter, 1);
    CHECK(now() - start < LIMIT_S, "phase 1 took %.1f s", now() - start);
    shmem_barrier_all();

    /* Phase 2: the target spins on plain loads of a global; only the progress thread helps. */
    if (!thread_off) {
        start = now();
        if (me == 0) {
            while (gflag == 0 && now() - start < LIMIT_S)
                for (int i = 0; i < 1000 && gflag == 0; i++)
                    ;
            CHECK(gflag == 1, "the flag was set while this PE spun (%.1f s)", now() - start);
        } else {
            hammer(counter, buf, &done[1], (long *)&gflag);
        }
        shmem_barrier_all();
        if (me == 0)
            check_counts(counter, 2);
    }
    return check_finish();
}
