/*
 * startup_memory.c: each PE's private memory after start-up. Every PE reads the anonymous
 * memory it holds (/proc/self/smaps_rollup "Anonymous": malloc, private mappings and stacks,
 * not the shared symmetric heap nor the shared global data) right after shmem_init, and again
 * after one reduction and a barrier (which contact log2(n) peers each); PE 0 prints the
 * largest of each over the PEs: "init_max_kib K contacted_max_kib K pes N".
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static long mine, largest;

/* The "Anonymous:" line of smaps_rollup in KiB, or -1. */
static long anonymous_kib(void)
{
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (!f)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Anonymous: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

static long at_init, at_init_max;

int main(void)
{
    shmem_init();
    at_init = anonymous_kib();
    mine = 1;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &largest, &mine, 1);
    shmem_barrier_all();
    mine = anonymous_kib();
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &at_init_max, &at_init, 1);
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, &largest, &mine, 1);
    if (shmem_my_pe() == 0)
        printf("init_max_kib %ld contacted_max_kib %ld pes %d\n", at_init_max, largest,
               shmem_n_pes());
    shmem_finalize();
    return mine < 0 || at_init < 0;
}
