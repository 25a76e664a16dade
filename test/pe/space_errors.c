/*
 * space_errors.c: the program behind test/pe/space-errors-test.sh. It goes one past a limit
 * of the internal space (argv[1]); the library must say which PE, which call, the limit and
 * the variable that raises it.
 */
#include "check.h"

static long setting(const char *name, long def)
{
    const char *v = getenv(name);
    return v && *v ? atol(v) : def;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    shmem_init();
    int npes = shmem_n_pes();
    if (!strcmp(what, "teams_over")) {
        /* a split returns non-zero at the limit (the specification's failure), with a warning */
        long limit = setting("SSHMEM_TEAMS_MAX", 32);
        shmem_team_t t;
        for (long i = 0; i <= limit; i++)
            if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t) != 0) {
                printf("PE %d: split %ld failed\n", shmem_my_pe(), i + 1);
                break;
            }
    } else if (!strcmp(what, "locks_over")) {
        long limit = setting("SSHMEM_LOCKS_MAX", 256);
        long *locks = shmem_calloc((size_t)limit + 1, sizeof *locks);
        if (shmem_my_pe() == 2)
            for (long k = 0; k <= limit; k++)
                shmem_set_lock(&locks[k]);
        shmem_barrier_all();
    }
    shmem_finalize();
    return 0;
}
