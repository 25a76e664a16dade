/*
 * gatherv.c: gather results of different lengths on one PE with shmemx_gatherv.
 *
 * What it teaches
 *   - an irregular collective: PE i contributes count_of(i) values, a different number each;
 *     the root says where each PE's block goes with two arrays, recvcounts and displs
 *     (as MPI_Gatherv);
 *   - the rules of the MPI-style layer (shmemx.h): the destination must be SYMMETRIC (every
 *     PE allocates it, the same size, although only the root's is written), the source may be
 *     any local memory, recvcounts and displs are read on the root only;
 *   - shmemx calls return an error code (SHMEMX_SUCCESS is 0) after printing what was wrong.
 *
 * Here PE i finds the primes in its slice of 2..LIMIT-1: an uneven amount of results per PE,
 * the usual reason for a gatherv. The root (the last PE, to show that any PE can be root)
 * checks that it received all the primes below LIMIT, in order.
 *
 *   oshcc gatherv.c -o gatherv && oshrun -np 4 ./gatherv
 */
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>

#define LIMIT 200

static int is_prime(int x)
{
    if (x < 2)
        return 0;
    for (int d = 2; d * d <= x; d++)
        if (x % d == 0)
            return 0;
    return 1;
}

/* The slice of [0, LIMIT) that PE pe searches. */
static void slice(int pe, int npes, int *lo, int *hi)
{
    *lo = (int)((long)LIMIT * pe / npes);
    *hi = (int)((long)LIMIT * (pe + 1) / npes);
}

/* How many primes PE pe finds: every PE can compute this for any PE (the root needs it). */
static int count_of(int pe, int npes)
{
    int lo, hi, n = 0;
    slice(pe, npes, &lo, &hi);
    for (int x = lo; x < hi; x++)
        n += is_prime(x);
    return n;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), root = npes - 1;

    /* My results, in private memory: the source of a shmemx collective need not be symmetric. */
    int lo, hi, mine[LIMIT], nmine = 0;
    slice(me, npes, &lo, &hi);
    for (int x = lo; x < hi; x++)
        if (is_prime(x))
            mine[nmine++] = x;

    /* The root's layout: PE i's block starts where PE i-1's ended. (In a real program the
     * counts are often not known in advance: gather them first with shmemx_gather of one int
     * per PE.) */
    size_t *recvcounts = malloc(npes * sizeof *recvcounts), *displs = malloc(npes * sizeof *displs);
    size_t total = 0;
    for (int pe = 0; pe < npes; pe++) {
        recvcounts[pe] = (size_t)count_of(pe, npes);
        displs[pe] = total;
        total += recvcounts[pe];
    }

    /* The destination: symmetric, the same size on every PE (shmem_malloc is collective). */
    int *primes = shmem_malloc(LIMIT * sizeof *primes);

    int rc = shmemx_gatherv(SHMEM_TEAM_WORLD, primes, mine, (size_t)nmine, recvcounts, displs,
                            SHMEMX_INT, root);

    int ok = rc == SHMEMX_SUCCESS;
    if (me == root) {
        /* All primes below LIMIT, in increasing order, exactly once. */
        size_t k = 0;
        for (int x = 0; x < LIMIT; x++)
            if (is_prime(x)) {
                if (k >= total || primes[k] != x) {
                    printf("element %zu: got %d, expected %d\n", k, k < total ? primes[k] : -1, x);
                    ok = 0;
                }
                k++;
            }
        ok = ok && k == total;
        printf("gatherv: %zu primes below %d from %d PEs on PE %d: %s\n", total, LIMIT, npes,
               root, ok ? "OK" : "WRONG");
    }
    shmem_free(primes); /* collective: also a barrier, so the root is done reading */
    free(recvcounts);
    free(displs);
    shmem_finalize();
    return !ok;
}
