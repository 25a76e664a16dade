/*
 * mpix_minloc.c: where is the smallest value? MINLOC on (value, index) pairs.
 *
 * Each PE holds part of a function sampled on a grid. Each finds its local minimum and the
 * grid point where it lies, then one allreduce with SHMEMX_MINLOC on SHMEMX_DOUBLE_INT gives
 * every PE the global minimum and its grid point; on a tie the lowest index wins, so the
 * answer does not depend on the number of PEs.
 *
 *   oshcc mpix_minloc.c -o mpix_minloc && oshrun -np 4 ./mpix_minloc
 */
#include <shmemx.h>
#include <stdio.h>

#define POINTS 1000

static double f(int x) { return (x - 613) * (x - 613) % 97; } /* zero every 97 points */

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int per = (POINTS + npes - 1) / npes, first = me * per;
    int last = first + per < POINTS ? first + per : POINTS;

    shmemx_double_int_t mine = {1e300, -1}, best; /* (value, grid point) */
    for (int x = first; x < last; x++)
        if (f(x) < mine.value)
            mine = (shmemx_double_int_t){f(x), x};
    shmemx_allreduce(SHMEM_TEAM_WORLD, &best, &mine, 1, SHMEMX_DOUBLE_INT, SHMEMX_MINLOC);

    int ok = best.value == 0 && best.index == 31; /* 31 - 613 = -6 * 97: the first zero */
    for (int x = 0; x < POINTS; x++) /* the first grid point with the smallest value */
        if (f(x) < best.value || (f(x) == best.value && x < best.index))
            ok = 0;
    if (me == 0)
        printf("minimum %g at grid point %d (found by PE %d of %d): %s\n", best.value,
               best.index, best.index / per, npes, ok ? "OK" : "WRONG");
    shmem_finalize();
    return !ok;
}
