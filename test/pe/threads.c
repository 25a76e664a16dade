/*
 * threads.c: SHMEM_THREAD_MULTIPLE for real. On every PE, THREADS threads at once put,
 * get and do atomics (fetch-add on the heap and on a global) to every PE, in three rounds:
 * on the default context, on one shared context, and on a PRIVATE context per thread (made
 * and destroyed by that thread). Then every element on every PE is checked.
 */
#include <pthread.h>
#include "check.h"

#define THREADS 4
#define M 4            /* longs per (round, source PE, thread) slot */
#define ADDS 3         /* fetch-adds per (thread, target PE) on the heap counter */
#define ROUNDS 3
#define MAX_PES 8

enum { ON_DEFAULT, ON_SHARED, ON_PRIVATE };

static long gslots[ROUNDS][MAX_PES][THREADS][M];
static long gcount;
static long *hslots; /* [ROUNDS][npes][THREADS][M] */
static long *hcount;
static shmem_ctx_t shared_ctx;
static int round_now;

static long value(int round, int src, int t, int i)
{
    return ((round * 100L + src) * 100L + t) * 100L + i + 1;
}

static long *hslot(int round, int src, int t)
{
    return &hslots[((round * shmem_n_pes() + src) * THREADS + t) * M];
}

/* One thread's share of the round, on ctx. */
static void talk_to_all(shmem_ctx_t ctx, int t)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), r = round_now;
    long src[M], back[M];
    for (int i = 0; i < M; i++)
        src[i] = value(r, me, t, i);
    for (int k = 0; k < npes; k++) {
        int pe = (me + k + t) % npes;
        shmem_ctx_long_put(ctx, hslot(r, me, t), src, M, pe);
        for (int i = 0; i < M; i++)
            shmem_ctx_long_p(ctx, &gslots[r][me][t][i], src[i], pe);
        long last = -1;
        for (int a = 0; a < ADDS; a++) {
            long got = shmem_ctx_long_atomic_fetch_add(ctx, hcount, 1, pe);
            CHECK(got > last, "fetch-add values from one thread grow: %ld after %ld", got, last);
            last = got;
        }
        shmem_ctx_long_atomic_add(ctx, hcount, 1, pe);
        (void)shmem_ctx_long_atomic_fetch_add(ctx, &gcount, 1, pe);
    }
    shmem_ctx_quiet(ctx);
    for (int k = 0; k < npes; k++) {
        int pe = (me + k + t) % npes;
        shmem_ctx_long_get(ctx, back, hslot(r, me, t), M, pe);
        for (int i = 0; i < M; i++)
            CHECK_EQ_LONG(back[i], src[i], "get of this thread's heap slot");
        back[0] = shmem_ctx_long_g(ctx, &gslots[r][me][t][M - 1], pe);
        CHECK_EQ_LONG(back[0], src[M - 1], "g of this thread's global slot");
    }
}

static void *thread_main(void *arg)
{
    int t = (int)(long)arg;
    switch (round_now) {
    case ON_DEFAULT:
        talk_to_all(SHMEM_CTX_DEFAULT, t);
        break;
    case ON_SHARED:
        talk_to_all(shared_ctx, t);
        break;
    case ON_PRIVATE: {
        shmem_ctx_t ctx;
        CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "private context for thread %d", t);
        talk_to_all(ctx, t);
        shmem_ctx_destroy(ctx);
        break;
    }
    }
    return NULL;
}

static void run_round(int round)
{
    pthread_t th[THREADS];
    round_now = round;
    for (long t = 0; t < THREADS; t++)
        if (pthread_create(&th[t], NULL, thread_main, (void *)t) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            shmem_global_exit(1);
        }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
}

static void check_all(void)
{
    int npes = shmem_n_pes();
    for (int r = 0; r < ROUNDS; r++)
        for (int s = 0; s < npes; s++)
            for (int t = 0; t < THREADS; t++)
                for (int i = 0; i < M; i++) {
                    CHECK_EQ_LONG(hslot(r, s, t)[i], value(r, s, t, i), "heap slot");
                    CHECK_EQ_LONG(gslots[r][s][t][i], value(r, s, t, i), "global slot");
                }
    CHECK_EQ_LONG(*hcount, (long)ROUNDS * npes * THREADS * (ADDS + 1), "heap counter");
    CHECK_EQ_LONG(gcount, (long)ROUNDS * npes * THREADS, "global counter");
}

int main(void)
{
    int provided = -1, queried = -1;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0) {
        fprintf(stderr, "shmem_init_thread failed\n");
        return 1;
    }
    shmem_query_thread(&queried);
    int npes = shmem_n_pes();
    CHECK_EQ_LONG(provided, SHMEM_THREAD_MULTIPLE, "provided thread level");
    CHECK_EQ_LONG(queried, SHMEM_THREAD_MULTIPLE, "shmem_query_thread");
    if (npes > MAX_PES) {
        if (shmem_my_pe() == 0)
            printf("SKIP: the global slots are sized for %d PEs\n", MAX_PES);
        shmem_finalize();
        return 77;
    }
    hslots = shmem_calloc((size_t)ROUNDS * npes * THREADS * M, sizeof(long));
    hcount = shmem_calloc(1, sizeof(long));
    CHECK(shmem_ctx_create(0, &shared_ctx) == 0, "a context shared by the threads");

    run_round(ON_DEFAULT);
    run_round(ON_SHARED);
    run_round(ON_PRIVATE);
    check_all();
    shmem_ctx_destroy(shared_ctx);
    return check_finish();
}
