/*
 * init_reduce: the smallest whole job, for timing start-up from outside (bench/issue13.sh
 * times the launcher running it): initialise, one sum reduction over all PEs, a barrier,
 * finalize. PE 0 checks the sum and exits with status 1 when it is wrong. OpenSHMEM 1.4
 * names, so the same source builds with any implementation's oshcc.
 */
#include <shmem.h>

#include <stdio.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* the 1.4 active-set reduce */

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long src, dst;

int main(void)
{
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    long me = shmem_my_pe(), n = shmem_n_pes();
    src = me + 1;
    shmem_barrier_all(); /* every pSync initialised before anybody reduces */
    shmem_long_sum_to_all(&dst, &src, 1, 0, 0, (int)n, pwrk, psync);
    shmem_barrier_all();
    int bad = dst != n * (n + 1) / 2;
    if (bad)
        fprintf(stderr, "init_reduce: PE %ld got %ld, expected %ld\n", me, dst, n * (n + 1) / 2);
    else if (me == 0)
        printf("init_reduce: %ld PEs, sum %ld\n", n, dst);
    shmem_finalize();
    return bad;
}
