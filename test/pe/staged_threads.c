/*
 * staged_threads.c: strided RMA through the staging path (src/transport/ucx_staging.c) from
 * THREADS threads at once under SHMEM_THREAD_MULTIPLE: threads share the default context,
 * share one created context, or each use a private one. Each thread iputs its own slot of
 * strided data into every PE, quiets its context, then bumps a counter there; a PE whose
 * counter shows every thread of every PE done checks every element right away (quiet means
 * unpacked in place, whichever thread's progress unpacked it). Then each thread igets a
 * strided slot back from every PE and checks it (blocking get: in place on return).
 *
 * sshmem-test: np=1 2 3 4
 */
#include <pthread.h>

#include "check.h"

#define THREADS 4
#define N 600    /* strided elements per (thread, source PE) slot: above the threshold */
#define STRIDE 5 /* longs between them */
#define ROUNDS 3

enum { ON_DEFAULT, ON_SHARED, ON_PRIVATE };

static long *slots; /* [npes][THREADS][N * STRIDE] */
static long *count; /* threads of all PEs whose data is in place here */
static shmem_ctx_t shared_ctx;
static int round_now, me, npes;

static long value(int round, int src, int t, size_t i)
{
    return ((round * 100L + src) * 100L + t) * 100000L + (long)i + 1;
}

static long *slot(int src, int t) { return &slots[((size_t)src * THREADS + t) * N * STRIDE]; }

static void check_slot(const long *s, int round, int src, int t, const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < N; i++)
        if (s[i * STRIDE] != value(round, src, t, i) && bad++ < 3)
            CHECK(0, "%s round %d from PE %d thread %d: element %zu is %ld, expected %ld", what,
                  round, src, t, i, s[i * STRIDE], value(round, src, t, i));
    CHECK(bad == 0, "%s round %d from PE %d thread %d: %zu wrong", what, round, src, t, bad);
}

static void share(shmem_ctx_t ctx, int t)
{
    int r = round_now;
    long src[N];
    for (size_t i = 0; i < N; i++)
        src[i] = value(r, me, t, i);
    for (int k = 0; k < npes; k++) {
        int pe = (me + k + t) % npes;
        shmem_ctx_long_iput(ctx, slot(me, t), src, STRIDE, 1, N, pe);
    }
    shmem_ctx_quiet(ctx);
    for (int k = 0; k < npes; k++)
        shmem_ctx_long_atomic_inc(ctx, count, (me + k + t) % npes);
    shmem_ctx_quiet(ctx);
}

static void fetch_back(shmem_ctx_t ctx, int t)
{
    long got[N * 2];
    for (int k = 0; k < npes; k++) {
        int pe = (me + k + t) % npes;
        shmem_ctx_long_iget(ctx, got, slot(me, t), 2, STRIDE, N, pe);
        for (size_t i = 0; i < N; i++)
            CHECK(got[2 * i] == value(round_now, me, t, i),
                  "iget from PE %d thread %d: element %zu is %ld", pe, t, i, got[2 * i]);
    }
}

static void *thread_main(void *arg)
{
    int t = (int)(long)arg, mode = round_now;
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    if (mode == ON_SHARED)
        ctx = shared_ctx;
    else if (mode == ON_PRIVATE && shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;
    share(ctx, t);
    if (ctx != SHMEM_CTX_DEFAULT && ctx != shared_ctx)
        shmem_ctx_destroy(ctx); /* by the thread that made it, as a private one must be */
    return NULL;
}

static void *thread_get(void *arg)
{
    fetch_back(SHMEM_CTX_DEFAULT, (int)(long)arg);
    return NULL;
}

static void run_threads(void *(*fn)(void *))
{
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, fn, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
}

int main(void)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    if (provided != SHMEM_THREAD_MULTIPLE) {
        printf("SKIP: SHMEM_THREAD_MULTIPLE not provided\n");
        shmem_finalize();
        return 77;
    }
    me = shmem_my_pe();
    npes = shmem_n_pes();
    slots = shmem_calloc((size_t)npes * THREADS * N * STRIDE, sizeof(long));
    count = shmem_calloc(1, sizeof(long));
    if (shmem_ctx_create(0, &shared_ctx) != 0)
        shared_ctx = SHMEM_CTX_DEFAULT;
    for (round_now = 0; round_now < ROUNDS; round_now++) {
        shmem_barrier_all();
        run_threads(thread_main);
        shmem_long_wait_until(count, SHMEM_CMP_EQ, (long)(round_now + 1) * npes * THREADS);
        for (int src = 0; src < npes; src++)
            for (int t = 0; t < THREADS; t++)
                check_slot(slot(src, t), round_now, src, t, "iput from a thread");
        shmem_barrier_all();
        run_threads(thread_get);
    }
    if (shared_ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(shared_ctx);
    shmem_free(count);
    shmem_free(slots);
    return check_finish();
}
