/*
 * startup_reduce.c: the program the start-up scale test times (test/scale/check-scale.sh):
 * start, one sum reduction over all PEs, a barrier, finalize. PE 0 prints "ok N" only when
 * every PE found the right sum, so a wrong value fails the run, not just a crash.
 */
#include <shmem.h>
#include <stdio.h>

static long mine, sum, bad;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    mine = me + 1;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &mine, 1);
    long want = (long)n * (n + 1) / 2;
    if (sum != want) {
        fprintf(stderr, "PE %d: sum %ld, expected %ld\n", me, sum, want);
        shmem_long_atomic_inc(&bad, 0);
    }
    shmem_barrier_all();
    if (me == 0) {
        if (bad == 0)
            printf("ok %d\n", n);
        else
            printf("FAILED: %ld PEs found a wrong sum\n", bad);
    }
    shmem_finalize();
    return 0;
}
