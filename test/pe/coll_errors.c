/*
 * coll_errors.c: the program behind test/pe/coll-errors-test.sh. It makes one mistake with a
 * collective or a team, named by argv[1]; the script checks that the job ends with a message
 * that names the PE, the call and the fix.
 */
#include "check.h"

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long zero_psync[SHMEM_REDUCE_SYNC_SIZE]; /* never initialised: all 0 */
static long src[8], dst[8], wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long on_stack[8] = {0};
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (!strcmp(what, "bad_set"))
        shmem_barrier(0, 0, npes + 1, psync);
    else if (!strcmp(what, "not_member") && me == npes - 1)
        shmem_barrier(0, 0, npes - 1, psync);
    else if (!strcmp(what, "bad_root"))
        shmem_broadcast64(dst, src, 1, npes, 0, 0, npes, psync);
    else if (!strcmp(what, "null_psync"))
        shmem_barrier(0, 0, npes, NULL);
    else if (!strcmp(what, "not_symmetric"))
        shmem_long_sum_to_all(on_stack, src, 8, 0, 0, npes, wrk, psync);
    else if (!strcmp(what, "null_pwrk"))
        shmem_long_sum_to_all(dst, src, 8, 0, 0, npes, NULL, psync);
    else if (!strcmp(what, "uninit_psync"))
        shmem_long_max_to_all(dst, src, 8, 0, 0, npes, wrk, zero_psync);
    else if (!strcmp(what, "bad_strides"))
        shmem_alltoalls64(dst, src, 0, 1, 1, 0, 0, npes, psync);
    else if (!strcmp(what, "team_invalid"))
        shmem_team_sync(SHMEM_TEAM_INVALID);
    else if (!strcmp(what, "destroy_world"))
        shmem_team_destroy(SHMEM_TEAM_WORLD);
    else if (!strcmp(what, "team_bad_root"))
        shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 1, -1);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
