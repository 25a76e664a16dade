/*
 * lock_threads.c: one shmem lock wanted by several threads of every PE at once
 * (SHMEM_THREAD_MULTIPLE). A lock is a PE's: a thread of a PE whose other thread holds it
 * waits for it like a thread of another PE does. Inside the critical section every thread
 * increments a plain counter on PE 0 with a get and a put (exact only if no two threads of
 * any PEs were ever inside at once) and checks that it is alone inside on its own PE. Half
 * the threads take the lock with shmem_set_lock, the others with a shmem_test_lock loop.
 *
 * sshmem-test: np=2 3 4
 */
#include <pthread.h>
#include <sched.h>
#include "check.h"

#define THREADS 4
#define ITERS 40 /* on the direct path; through UCX fewer (a round trip per try) */

static long lock;     /* global: symmetric, zero before first use */
static long *counter; /* on PE 0 */
static int inside;    /* threads of this PE inside the critical section */
static int iters;

static void *contend(void *arg)
{
    const int t = (int)(long)arg;
    for (int i = 0; i < iters; i++) {
        if (t % 2)
            shmem_set_lock(&lock);
        else
            while (shmem_test_lock(&lock))
                sched_yield(); /* 2 cores for up to 16 threads: let the holder run */
        int others = __atomic_fetch_add(&inside, 1, __ATOMIC_ACQ_REL);
        CHECK(others == 0, "thread %d, round %d: %d other threads of this PE inside", t, i,
              others);
        long v = shmem_long_g(counter, 0);
        shmem_long_p(counter, v + 1, 0);
        __atomic_fetch_sub(&inside, 1, __ATOMIC_ACQ_REL);
        shmem_clear_lock(&lock);
    }
    return NULL;
}

int main(void)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    if (provided != SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "SKIP: SHMEM_THREAD_MULTIPLE not provided\n");
        shmem_finalize();
        return CHECK_SKIP;
    }
    const char *local = getenv("SSHMEM_LOCAL");
    iters = local && !strcmp(local, "ucx") ? ITERS / 4 : ITERS;
    counter = shmem_calloc(1, sizeof *counter);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, contend, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        CHECK_EQ_LONG(*counter, (long)shmem_n_pes() * THREADS * iters, "counter on PE 0");
    shmem_free(counter);
    return check_finish();
}
