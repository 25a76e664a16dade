/*
 * first_contact.c: peers are learnt on first use (src/heap/peers.c): a PE's first operation
 * to a peer fetches its card, makes the endpoint and maps its memory. Here THREADS threads
 * of every PE (SHMEM_THREAD_MULTIPLE) make their first contact with every other PE at the
 * same moment, all starting with the same peer: puts, fetch-adds and gets on global data
 * straight after start-up (nothing learnt yet but a neighbour), then again on the heap.
 * Every slot and counter on every PE is checked. On the UCX paths the progress thread works
 * the same worker meanwhile; with nodes of 2, some peers are direct and some through UCX.
 *
 * sshmem-test-env: [np=4,8] [paths=direct] SSHMEM_PES_PER_NODE=2
 */
#include <pthread.h>
#include "check.h"

#define THREADS 4
#define MAX_PES 8

static long gslots[MAX_PES][THREADS];
static long gcount;
static long gconst = 0x5eed; /* the same on every PE from the start (data, not rodata) */
static long *hslots;                /* [npes][THREADS] on the heap */
static long *hcount;
static pthread_barrier_t start;
static int on_heap;

static long value(int src, int t, int heap) { return (heap + 1) * 1000L + src * 10L + t + 1; }

static void *contact_all(void *arg)
{
    int t = (int)(long)arg, me = shmem_my_pe(), npes = shmem_n_pes();
    long *slots = on_heap ? hslots : &gslots[0][0], *count = on_heap ? hcount : &gcount;
    pthread_barrier_wait(&start); /* every thread meets each new peer at once */
    for (int i = 1; i <= npes; i++) {
        int pe = (me + i) % npes;
        shmem_long_p(&slots[me * THREADS + t], value(me, t, on_heap), pe);
        shmem_long_atomic_fetch_add(count, 1, pe);
        long got = shmem_long_g(&gconst, pe);
        CHECK_EQ_LONG(got, 0x5eed, "a global read from a new peer");
    }
    return NULL;
}

static void run_threads(void)
{
    pthread_t th[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, contact_all, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&start);
    shmem_barrier_all(); /* quiet + every PE's contacts done */
}

static void check_round(int heap)
{
    int npes = shmem_n_pes();
    long *slots = heap ? hslots : &gslots[0][0], count = heap ? *hcount : gcount;
    for (int src = 0; src < npes; src++)
        for (int t = 0; t < THREADS; t++)
            CHECK_EQ_LONG(slots[src * THREADS + t], value(src, t, heap),
                          heap ? "heap slot" : "global slot");
    CHECK_EQ_LONG(count, (long)npes * THREADS, heap ? "heap counter" : "global counter");
}

int main(void)
{
    int provided = -1;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    CHECK_EQ_LONG(provided, SHMEM_THREAD_MULTIPLE, "provided thread level");
    if (shmem_n_pes() > MAX_PES) {
        if (shmem_my_pe() == 0)
            printf("SKIP: the global slots are sized for %d PEs\n", MAX_PES);
        shmem_finalize();
        return 77;
    }
    run_threads(); /* globals, first: no collective has run yet */
    check_round(0);
    hslots = shmem_calloc((size_t)shmem_n_pes() * THREADS, sizeof(long));
    hcount = shmem_calloc(1, sizeof(long));
    on_heap = 1;
    run_threads(); /* the heap: peers the allocation's barrier did not reach are new */
    check_round(1);
    shmem_free(hslots);
    shmem_free(hcount);
    return check_finish();
}
