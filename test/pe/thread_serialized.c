/*
 * thread_serialized.c: SHMEM_THREAD_SERIALIZED. Several threads call the library, one at a
 * time (they take turns on a mutex), on the default context and on one SHMEM_CTX_SERIALIZED
 * context: operations issued by one thread are completed by another thread's quiet. The
 * progress thread, where it runs, works alongside them. Every element is checked.
 */
#include <pthread.h>
#include "check.h"

#define THREADS 3
#define TURNS 4
#define MAX_PES 8

static long gslots[MAX_PES][THREADS][TURNS];
static long *hcount;
static shmem_ctx_t ctx;
static pthread_mutex_t turn = PTHREAD_MUTEX_INITIALIZER;

static long value(int src, int t, int k) { return (src * 10L + t) * 10L + k + 1; }

/* One turn: put this thread's values to every PE and count, but leave completion to
 * whichever thread quiets next (the one after it, or the main thread). */
static void *thread_main(void *arg)
{
    int t = (int)(long)arg, me = shmem_my_pe(), npes = shmem_n_pes();
    for (int k = 0; k < TURNS; k++) {
        pthread_mutex_lock(&turn);
        shmem_ctx_t c = k % 2 ? ctx : SHMEM_CTX_DEFAULT;
        shmem_ctx_quiet(c); /* completes what another thread left in flight on c */
        for (int pe = 0; pe < npes; pe++) {
            shmem_ctx_long_p(c, &gslots[me][t][k], value(me, t, k), pe);
            shmem_ctx_long_atomic_add(c, hcount, 1, pe);
        }
        pthread_mutex_unlock(&turn);
    }
    return NULL;
}

int main(void)
{
    int provided = -1, queried = -1;
    shmem_init_thread(SHMEM_THREAD_SERIALIZED, &provided);
    shmem_query_thread(&queried);
    int npes = shmem_n_pes();
    CHECK_EQ_LONG(provided, SHMEM_THREAD_SERIALIZED, "provided thread level");
    CHECK_EQ_LONG(queried, SHMEM_THREAD_SERIALIZED, "shmem_query_thread");
    if (npes > MAX_PES) {
        if (shmem_my_pe() == 0)
            printf("SKIP: the global slots are sized for %d PEs\n", MAX_PES);
        shmem_finalize();
        return 77;
    }
    hcount = shmem_calloc(1, sizeof(long));
    CHECK(shmem_ctx_create(SHMEM_CTX_SERIALIZED, &ctx) == 0, "a serialized context");
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, thread_main, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    shmem_ctx_quiet(ctx); /* the main thread completes the threads' last operations */
    shmem_barrier_all();
    for (int s = 0; s < npes; s++)
        for (int t = 0; t < THREADS; t++)
            for (int k = 0; k < TURNS; k++)
                CHECK_EQ_LONG(gslots[s][t][k], value(s, t, k), "global slot");
    CHECK_EQ_LONG(*hcount, (long)npes * THREADS * TURNS, "atomic adds from every thread");
    shmem_ctx_destroy(ctx);
    return check_finish();
}
