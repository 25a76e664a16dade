/*
 * histogram.c: a distributed histogram filled with remote atomic increments.
 *
 * What it teaches
 *   - distributing a data structure: the histogram's bins are spread over the PEs, BINS_PER_PE
 *     on each; global bin b lives on PE b / BINS_PER_PE at index b % BINS_PER_PE;
 *   - shmem_long_atomic_inc: many PEs may add to the same bin at the same time and no
 *     increment is lost (a plain get, add, put would lose some: two PEs read 5, both write 6);
 *   - non-fetching atomics: the caller does not wait for an answer, so they stream quickly;
 *   - shmem_barrier_all completes them: after the barrier every increment has landed.
 *
 * Every PE draws SAMPLES pseudo-random numbers and counts each in its bin, wherever that bin
 * lives. The checks: each bin equals a count recomputed locally from everyone's numbers, and
 * the total over all bins is SAMPLES * npes.
 *
 *   oshcc histogram.c -o histogram && oshrun -np 4 ./histogram
 */
#include <shmem.h>
#include <stdio.h>

#define BINS_PER_PE 8
#define SAMPLES 100 /* per PE; small, so the example runs quickly over tcp too */

/* The bins this PE owns: symmetric (a global), so other PEs can name them. */
static long bins[BINS_PER_PE];
static long total; /* on PE 0: the sum of every PE's bins */

/* A tiny deterministic generator, so any PE can replay any other PE's numbers. */
static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 16;
}

/* The global bin of sample k of PE pe. */
static int bin_of(int pe, int k, int nbins)
{
    unsigned state = 1000u * (unsigned)pe + 17u; /* each PE its own stream */
    unsigned r = 0;
    for (int i = 0; i <= k; i++)
        r = next_random(&state);
    return (int)(r % (unsigned)nbins);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int nbins = BINS_PER_PE * npes;

    /* The bins start at zero (globals are zeroed), but no PE may increment a bin before its
     * owner is running: wait for everyone. */
    shmem_barrier_all();

    unsigned state = 1000u * (unsigned)me + 17u;
    for (int k = 0; k < SAMPLES; k++) {
        int b = (int)(next_random(&state) % (unsigned)nbins);
        int owner = b / BINS_PER_PE;
        shmem_long_atomic_inc(&bins[b % BINS_PER_PE], owner); /* owner may be me: that's fine */
    }

    /* The barrier completes every PE's increments (it implies shmem_quiet) and waits for all
     * PEs, so afterwards our bins are final. */
    shmem_barrier_all();

    /* Check 1: each of my bins against a recount of every PE's samples. */
    int ok = 1;
    long expected[BINS_PER_PE] = {0};
    for (int pe = 0; pe < npes; pe++)
        for (int k = 0; k < SAMPLES; k++) {
            int b = bin_of(pe, k, nbins);
            if (b / BINS_PER_PE == me)
                expected[b % BINS_PER_PE]++;
        }
    long mine = 0;
    for (int i = 0; i < BINS_PER_PE; i++) {
        if (bins[i] != expected[i]) {
            printf("PE %d: bin %d holds %ld, expected %ld\n", me, me * BINS_PER_PE + i, bins[i],
                   expected[i]);
            ok = 0;
        }
        mine += bins[i];
    }

    /* Check 2: the total over all PEs, collected on PE 0 with an atomic add. */
    shmem_long_atomic_add(&total, mine, 0);
    shmem_barrier_all();
    if (me == 0) {
        ok = ok && total == (long)SAMPLES * npes;
        printf("histogram: %d bins on %d PEs, %ld samples counted (expected %ld): %s\n", nbins,
               npes, total, (long)SAMPLES * npes, ok ? "OK" : "WRONG");
    }
    shmem_finalize();
    return !ok;
}
