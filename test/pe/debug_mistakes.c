/*
 * debug_mistakes.c: the program behind test/pe/debug-errors-test.sh. Under SHMEM_DEBUG it
 * makes one mistake, named by argv[1], that only a comparison across PEs can see: PEs passing
 * different arguments to a routine they must all call alike. The script checks the message
 * names the PE, the call, the argument, both values, the other PE and the fix. With argv[1]
 * "none" every PE calls alike and the program must finish.
 */
#include "check.h"

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long src[8], dst[8 * 8], wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "none";
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), last = me == npes - 1;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (!strcmp(what, "malloc_size"))
        shmem_malloc(last ? 200 : 100);
    else if (!strcmp(what, "align"))
        shmem_align(last ? 128 : 64, 256);
    else if (!strcmp(what, "malloc_order")) /* the last PE skips the first allocation */
        shmem_free(last ? shmem_malloc(64) : (shmem_malloc(64), shmem_malloc(64)));
    else if (!strcmp(what, "bcast_root"))
        shmem_broadcast64(dst, src, 4, last ? 1 : 0, 0, 0, npes, psync);
    else if (!strcmp(what, "reduce_count"))
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, last ? 4 : 8);
    else if (!strcmp(what, "to_all_count"))
        shmem_long_sum_to_all(dst, src, last ? 4 : 8, 0, 0, npes, wrk, psync);
    else if (!strcmp(what, "active_set") && npes >= 3) /* PE 1 thinks the set has 2 PEs */
        shmem_barrier(0, 0, me == 1 ? 2 : npes, psync);
    else if (!strcmp(what, "other_call"))
        last ? shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst, src, 8)
             : shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 8);
    else if (!strcmp(what, "team")) {
        shmem_team_t copy;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &copy);
        shmem_broadcastmem(me == 0 ? copy : SHMEM_TEAM_WORLD, dst, src, 8, 0);
    } else if (!strcmp(what, "none")) {
        /* Correct uses of everything checked, back to back. */
        void *p = shmem_malloc(100), *q = shmem_calloc(4, 8), *r = shmem_align(128, 64);
        p = shmem_realloc(p, 400);
        shmem_broadcast64(dst, src, 4, 0, 0, 0, npes, psync);
        shmem_barrier(0, 0, npes, psync);
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 8);
        shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst, src, 8);
        shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, (size_t)(me + 1));
        shmem_team_sync(SHMEM_TEAM_WORLD);
        shmem_free(r);
        shmem_free(q);
        shmem_free(p);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
