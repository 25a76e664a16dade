/*
 * put_latency: time of one blocking put followed by shmem_quiet, per message size.
 *
 * PE 0 repeats   shmem_putmem(dest, src, size, 1); shmem_quiet();
 * and reports the mean time of one put+quiet in microseconds, for sizes 1 B .. 1 MiB.
 * shmem_quiet makes the put complete at PE 1 (remotely visible), so this is the time until
 * the data is known to be in PE 1's memory, not only until the source buffer can be reused.
 *
 * Both buffers come from shmem_malloc: the destination must be symmetric, and a symmetric
 * source lets every implementation use memory it registered already, so the number reflects
 * the transfer path and not memory registration.
 *
 * PE 1 (and any further PE) does nothing but wait in the final barrier: the test is one-sided.
 * After each size PE 0 reads the destination back (untimed) to check the data arrived.
 */
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

struct put_args {
    void *dest;       /* symmetric destination, at PE `pe` */
    const void *src;  /* local source */
    size_t size;
    int pe;
};

/* The measured operation, n times. */
static void put_quiet(long n, void *p)
{
    const struct put_args *a = p;
    for (long i = 0; i < n; i++) {
        shmem_putmem(a->dest, a->src, a->size, a->pe);
        shmem_quiet();
    }
}

int main(int argc, char **argv)
{
    int rc = bench_init(argc, argv, "put_latency", 10000, 1);
    if (rc != BENCH_CONTINUE)
        return rc;

    const size_t max = bench_opt.max_size;
    char *dest = bench_shmalloc(max);
    char *src = bench_shmalloc(max);

    if (bench_me == 0) {
        char *check = malloc(max);
        bench_comment("shmem_putmem + shmem_quiet, PE 0 -> PE 1, mean of one put+quiet");
        bench_header("size", "latency_us");
        for (size_t s = bench_opt.min_size; s != 0 && s <= max; s *= 2) {
            unsigned seed = (unsigned)s;
            bench_fill(src, s, seed);
            struct put_args a = { dest, src, s, 1 };
            long done = 0;
            double t = bench_measure(put_quiet, &a, bench_iters_for(s), &done);
            bench_row_size(s, t / (double)done * 1e6);

            /* Untimed check: the last put of this size must be in PE 1's memory. */
            memset(check, 0, s);
            shmem_getmem(check, dest, s, 1);
            if (!bench_verify(check, s, seed))
                bench_check_failed("put of %zu bytes: wrong data at the target", s);
        }
        free(check);
    }

    shmem_barrier_all(); /* the target and any idle PE wait here while PE 0 measures */
    shmem_free(src);
    shmem_free(dest);
    return bench_finish();
}
