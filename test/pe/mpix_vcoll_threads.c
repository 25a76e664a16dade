/*
 * mpix_vcoll_threads.c: under SHMEM_THREAD_MULTIPLE, THREADS threads of every PE run the
 * shmemx gather family at once, each on its own team (a copy of the world), small and large
 * blocks, many rounds; every element is checked. Collectives on different teams share no sync
 * area, so they may overlap in time.
 */
#include <pthread.h>
#include <shmemx.h>

#include "check.h"

#define THREADS 4
#define ROUNDS 20
#define MAXPES 16
#define LARGE 2500 /* ints: beyond a sync area's slot, so the direct-put path too */

static int me, npes;
static shmem_team_t teams[THREADS];
static int *dest[THREADS]; /* symmetric, one per thread */

static int val(int t, int round, int pe, size_t k)
{
    return ((t * 100 + round) * 100 + pe) * 10000 + (int)k;
}

static void *run(void *arg)
{
    const int t = (int)(long)arg;
    shmem_team_t team = teams[t];
    size_t counts[MAXPES], displs[MAXPES], total = 0;
    int *src = malloc(LARGE * sizeof(int));
    for (int round = 0; round < ROUNDS; round++) {
        size_t big = round % 2 ? LARGE : 3; /* alternate small and large blocks */
        total = 0;
        for (int i = 0; i < npes; i++) {
            counts[i] = big - (size_t)(i % 2);
            displs[i] = total;
            total += counts[i];
        }
        for (size_t k = 0; k < counts[me]; k++)
            src[k] = val(t, round, me, k);
        for (size_t p = 0; p < total; p++)
            dest[t][p] = -1;
        shmemx_allgatherv(team, dest[t], src, counts[me], counts, displs, SHMEMX_INT);
        for (int i = 0; i < npes; i++)
            for (size_t k = 0; k < counts[i]; k++)
                CHECK_EQ_LONG(dest[t][displs[i] + k], val(t, round, i, k), "allgatherv");
        int root = (round + t) % npes;
        shmem_team_sync(team);
        shmemx_gatherv(team, dest[t], src, counts[me], counts, displs, SHMEMX_INT, root);
        if (me == root)
            for (int i = 0; i < npes; i++)
                for (size_t k = 0; k < counts[i]; k++)
                    CHECK_EQ_LONG(dest[t][displs[i] + k], val(t, round, i, k), "gatherv");
        shmem_team_sync(team);
    }
    free(src);
    return NULL;
}

int main(void)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (provided != SHMEM_THREAD_MULTIPLE || npes > MAXPES) {
        printf("SKIP: needs SHMEM_THREAD_MULTIPLE and at most %d PEs\n", MAXPES);
        shmem_finalize();
        return 77;
    }
    for (int t = 0; t < THREADS; t++) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &teams[t]);
        dest[t] = shmem_malloc((size_t)LARGE * (size_t)npes * sizeof(int));
    }
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, run, (void *)(long)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    for (int t = 0; t < THREADS; t++) {
        shmem_team_destroy(teams[t]);
        shmem_free(dest[t]);
    }
    return check_finish();
}
