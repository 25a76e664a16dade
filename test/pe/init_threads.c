/*
 * init_threads.c: shmem_init_thread called by two threads of each PE at once (a program whose
 * threads each "make sure the library is up"). They take turns: one starts the library, the
 * other finds it started and gets the same thread level. Then every PE puts into its right
 * neighbour from both threads, and every value is checked.
 */
#include <pthread.h>
#include "check.h"

#define THREADS 2

static pthread_barrier_t together;
static int provided[THREADS];
static long slots[THREADS];

static void *start(void *arg)
{
    int t = (int)(long)arg;
    pthread_barrier_wait(&together); /* both call at the same moment */
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided[t]);
    return NULL;
}

int main(void)
{
    pthread_t th[THREADS];
    pthread_barrier_init(&together, NULL, THREADS);
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, start, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes;
    for (int t = 0; t < THREADS; t++)
        CHECK(provided[t] == SHMEM_THREAD_MULTIPLE, "thread %d was given level %d", t,
              provided[t]);
    for (long t = 0; t < THREADS; t++)
        shmem_long_p(&slots[t], me * 10 + t, right);
    shmem_barrier_all();
    int left = (me + npes - 1) % npes;
    for (int t = 0; t < THREADS; t++)
        CHECK_EQ_LONG(slots[t], left * 10 + t, "the slot of the left neighbour's thread");
    return check_finish();
}
