/*
 * startup_reduce.c: the program the start-up scale test times (test/scale/check-scale.sh):
 * start, one sum reduction over all PEs, a barrier, finalize. PE 0 prints "ok N" only when
 * every PE found the right sum, so a wrong value fails the run, not just a crash, and
 * "memory INIT_KIB KIB": the most private memory any PE holds (its anonymous pages: the
 * library's tables, UCX's and PMIx's buffers; the symmetric heap is shared memory and does
 * not count) right after shmem_init, and again after the reduction and the barrier. The
 * first grows with the per-PE tables; the second adds what a PE keeps for the peers it met
 * (endpoints, their chunk of peer entries: about 2 log2(n) peers), which grows by a constant
 * per doubling of the job, not per PE.
 */
#include <shmem.h>
#include <stdio.h>

static long mine, sum, bad, memory_kib[2], most_kib[2];

/* This process's anonymous memory in KiB, from /proc/self/smaps_rollup; 0 if unknown. */
static long anonymous_kib(void)
{
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    char line[128];
    long kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Anonymous: %ld kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

int main(void)
{
    shmem_init();
    memory_kib[0] = anonymous_kib();
    int me = shmem_my_pe(), n = shmem_n_pes();
    mine = me + 1;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &mine, 1);
    long want = (long)n * (n + 1) / 2;
    if (sum != want) {
        fprintf(stderr, "PE %d: sum %ld, expected %ld\n", me, sum, want);
        shmem_long_atomic_inc(&bad, 0);
    }
    shmem_barrier_all();
    memory_kib[1] = anonymous_kib();
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, most_kib, memory_kib, 2);
    if (me == 0) {
        printf("memory %ld %ld\n", most_kib[0], most_kib[1]);
        if (bad == 0)
            printf("ok %d\n", n);
        else
            printf("FAILED: %ld PEs found a wrong sum\n", bad);
    }
    shmem_finalize();
    return 0;
}
