/*
 * space_limits.c: split teams and locks up to their settings (SSHMEM_TEAMS_MAX,
 * SSHMEM_LOCKS_MAX; their defaults when unset). Every team of the full pool works (a
 * reduction whose result depends on the team) and one more split fails cleanly on every PE;
 * after a destroy one slot is free again (a 2-D split, which needs two, still fails). Every
 * PE holds all SSHMEM_LOCKS_MAX locks at once, several PEs contend for them, and the
 * counters they guard come out exact. (The messages at the limits: space-errors-test.sh.)
 *
 * sshmem-test: np=1 2 3 4 8
 * sshmem-test-env: np=2,3 paths=direct,ucx SSHMEM_TEAMS_MAX=70 SSHMEM_LOCKS_MAX=5
 * sshmem-test-env: np=1,4 paths=direct SSHMEM_TEAMS_MAX=1 SSHMEM_LOCKS_MAX=1
 */
#include "check.h"

#define LOCK_ROUNDS 8

static int me, npes;

static long setting(const char *name, long def)
{
    const char *v = getenv(name);
    return v && *v ? atol(v) : def;
}

/* Team i: every PE; a reduction of (me + i) tells the team from its neighbours. */
static void check_team(shmem_team_t t, int i)
{
    static long src, dst;
    src = me + i;
    shmem_long_sum_reduce(t, &dst, &src, 1);
    CHECK_EQ_LONG(dst, (long)npes * (npes - 1) / 2 + (long)npes * i, "reduction on a pool team");
}

static void teams_up_to_the_limit(void)
{
    long limit = setting("SSHMEM_TEAMS_MAX", 32);
    shmem_team_t *teams = calloc((size_t)limit + 1, sizeof *teams);
    for (long i = 0; i < limit; i++)
        CHECK_EQ_LONG(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0,
                                               &teams[i]), 0, "split up to SSHMEM_TEAMS_MAX");
    for (long i = 0; i < limit; i++) /* every slot's state is its own */
        check_team(teams[i], (int)i);
    shmem_team_t extra = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &extra) != 0,
          "split %ld (SSHMEM_TEAMS_MAX=%ld) must fail", limit + 1, limit);
    CHECK(extra == SHMEM_TEAM_INVALID, "a failed split gave a team");
    /* One slot back: a strided split fits, a 2-D split (two teams) does not. */
    shmem_team_destroy(teams[limit - 1]);
    shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 1, NULL, 0, &x, NULL, 0, &y) != 0,
          "a 2-D split with one free slot must fail");
    CHECK(x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID, "a failed 2-D split gave teams");
    CHECK_EQ_LONG(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0,
                                           &teams[limit - 1]), 0, "split into the freed slot");
    for (long i = 0; i < limit; i++)
        check_team(teams[i], (int)(i + 1000));
    for (long i = 0; i < limit; i++)
        shmem_team_destroy(teams[i]);
    free(teams);
}

/* Every PE takes locks 0..limit-1 in order (no deadlock), holds all of them, bumps each
 * guarded counter on PE 0 with a get and a put (lost updates without mutual exclusion),
 * then clears them in reverse. */
static void locks_up_to_the_limit(void)
{
    long limit = setting("SSHMEM_LOCKS_MAX", 256);
    long *locks = shmem_calloc((size_t)limit, sizeof *locks);
    long *count = shmem_calloc((size_t)limit, sizeof *count);
    shmem_barrier_all();
    for (int r = 0; r < LOCK_ROUNDS; r++) {
        for (long k = 0; k < limit; k++)
            shmem_set_lock(&locks[k]);
        for (long k = 0; k < limit; k++) {
            long v = shmem_long_g(&count[k], 0);
            shmem_long_p(&count[k], v + 1, 0);
        }
        for (long k = limit - 1; k >= 0; k--)
            shmem_clear_lock(&locks[k]);
    }
    shmem_barrier_all();
    for (long k = 0; k < limit; k++)
        CHECK_EQ_LONG(shmem_long_g(&count[k], 0), (long)npes * LOCK_ROUNDS, "guarded counter");
    /* All free again: test_lock takes each at once. */
    shmem_barrier_all();
    if (me == npes - 1) {
        for (long k = 0; k < limit; k++)
            CHECK_EQ_LONG(shmem_test_lock(&locks[k]), 0, "test_lock of a free lock");
        for (long k = 0; k < limit; k++)
            shmem_clear_lock(&locks[k]);
    }
    shmem_barrier_all();
    shmem_free(count);
    shmem_free(locks);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    teams_up_to_the_limit();
    locks_up_to_the_limit();
    return check_finish();
}
