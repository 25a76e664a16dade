/*
 * hang_mistakes.c: the program behind test/pe/hang-test.sh: a job that hangs, named by argv[1], for
 * SSHMEM_HANG_TIMEOUT to report.
 *   skip_barrier: PE 1 computes forever while the others wait in shmem_barrier_all.
 *   skip_team_sync: the same with shmem_team_sync on SHMEM_TEAM_WORLD.
 *   nobody_sets: every PE waits for a variable nobody sets.
 */
#include <unistd.h>

#include "check.h"

static long flag;

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    shmem_init();
    int me = shmem_my_pe();
    shmem_barrier_all();
    if (!strcmp(what, "skip_barrier") || !strcmp(what, "skip_team_sync")) {
        if (me == 1)
            for (;;)
                sleep(1); /* "computing" */
        if (!strcmp(what, "skip_barrier"))
            shmem_barrier_all();
        else
            shmem_team_sync(SHMEM_TEAM_WORLD);
    } else if (!strcmp(what, "nobody_sets")) {
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
    }
    shmem_finalize();
    return 0;
}
