/*
 * pi.c: estimate pi by throwing darts, one sum reduction to add up the hits.
 *
 * What it teaches
 *   - the simplest parallel pattern: every PE works alone on its share, then ONE collective
 *     combines the results;
 *   - shmem_long_sum_reduce on SHMEM_TEAM_WORLD: every PE of the team calls it with the same
 *     count; afterwards every PE holds the sum. The source and destination are symmetric
 *     (globals here, or shmem_malloc'ed);
 *   - the older active-set form, shmem_long_sum_to_all(dest, source, n, PE_start,
 *     logPE_stride, PE_size, pWrk, pSync), does the same on "PEs start, start + 2^stride, ..."
 *     with a work array and a pSync array the caller provides: shown below for comparison.
 *
 * A dart lands at a random (x, y) in the unit square; it hits if x^2 + y^2 <= 1, which
 * happens with probability pi / 4. Checks: the reduced hit count equals the count recomputed
 * from every PE's (deterministic) random numbers, both forms agree, and the estimate is
 * within 0.1 of pi.
 *
 *   oshcc pi.c -o pi && oshrun -np 4 ./pi
 */
#include <shmem.h>
#include <stdio.h>

#define DARTS 20000 /* per PE */

static long hits, total_hits, total_hits_old; /* symmetric: source and destinations */
static long pSync[SHMEM_REDUCE_SYNC_SIZE];    /* for the active-set form */
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

/* A deterministic generator per PE: anyone can replay anyone's darts. */
static double uniform(unsigned long long *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0; /* 53 bits: [0, 1) */
}

static long darts_that_hit(int pe)
{
    unsigned long long state = 12345ull + (unsigned long long)pe;
    long n = 0;
    for (int i = 0; i < DARTS; i++) {
        double x = uniform(&state), y = uniform(&state);
        n += x * x + y * y <= 1.0;
    }
    return n;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();

    hits = darts_that_hit(me); /* the parallel part: no communication at all */

    /* The team form: every PE of SHMEM_TEAM_WORLD calls it; total_hits is the sum everywhere. */
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &total_hits, &hits, 1);

    /* The active-set form (deprecated in OpenSHMEM 1.5, still supported): PEs 0, 1, ...,
     * npes - 1 (start 0, stride 2^0, size npes). pSync must hold SHMEM_SYNC_VALUE on every PE
     * before the first use, and a barrier must separate that initialisation from the call, so
     * that no PE's reduction writes into a pSync its owner is still initialising. */
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_long_sum_to_all(&total_hits_old, &hits, 1, 0, 0, npes, pWrk, pSync);

    long expected = 0;
    for (int pe = 0; pe < npes; pe++)
        expected += darts_that_hit(pe);
    double pi = 4.0 * (double)total_hits / ((double)DARTS * npes);
    int ok = total_hits == expected && total_hits_old == expected && pi > 3.04 && pi < 3.24;
    if (!ok || me == 0)
        printf("PE %d: pi ~ %.5f from %ld darts (%ld hits; team form %ld, active set %ld, "
               "expected %ld): %s\n", me, pi, (long)DARTS * npes, expected, total_hits,
               total_hits_old, expected, ok ? "OK" : "WRONG");
    shmem_finalize();
    return !ok;
}
