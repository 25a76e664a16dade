/*
 * put_bw: put bandwidth with many puts in flight, per message size.
 *
 * PE 0 repeats a window of --window (default 64) non-blocking puts of `size` bytes to the
 * same symmetric destination at PE 1, then one shmem_quiet:
 *
 *     for (w = 0; w < window; w++) shmem_putmem_nbi(dest, src, size, 1);
 *     shmem_quiet();
 *
 * and reports bytes delivered per second in MB/s (1 MB = 10^6 bytes), for sizes 1 B .. 1 MiB.
 * Small sizes measure how well the implementation pipelines (and perhaps aggregates) small
 * puts; large sizes measure the copy / transfer bandwidth.
 *
 * PE 1 (and any further PE) only waits in the final barrier. After each size PE 0 reads the
 * destination back (untimed) to check the data.
 */
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

struct bw_args {
    void *dest;
    const void *src;
    size_t size;
    long window;
    int pe;
};

/* One iteration = one window of non-blocking puts and the quiet that completes them. */
static void put_window(long n, void *p)
{
    const struct bw_args *a = p;
    for (long i = 0; i < n; i++) {
        for (long w = 0; w < a->window; w++)
            shmem_putmem_nbi(a->dest, a->src, a->size, a->pe);
        shmem_quiet();
    }
}

int main(int argc, char **argv)
{
    /* 1000 windows of 64 at small sizes; the count shrinks above 8 KiB (bench_iters_for). */
    int rc = bench_init(argc, argv, "put_bw", 1000, 1);
    if (rc != BENCH_CONTINUE)
        return rc;

    const size_t max = bench_opt.max_size;
    char *dest = bench_shmalloc(max);
    char *src = bench_shmalloc(max);

    if (bench_me == 0) {
        char *check = malloc(max);
        bench_comment("window of %ld shmem_putmem_nbi then shmem_quiet, PE 0 -> PE 1",
                      bench_opt.window);
        bench_header("size", "MB_per_s");
        for (size_t s = bench_opt.min_size; s != 0 && s <= max; s *= 2) {
            unsigned seed = (unsigned)s + 7;
            bench_fill(src, s, seed);
            struct bw_args a = { dest, src, s, bench_opt.window, 1 };
            long done = 0;
            double t = bench_measure(put_window, &a, bench_iters_for(s), &done);
            double bytes = (double)s * (double)bench_opt.window * (double)done;
            bench_row_size(s, bytes / t / 1e6);

            memset(check, 0, s);
            shmem_getmem(check, dest, s, 1);
            if (!bench_verify(check, s, seed))
                bench_check_failed("put_nbi of %zu bytes: wrong data at the target", s);
        }
        free(check);
    }

    shmem_barrier_all(); /* the target and any idle PE wait here while PE 0 measures */
    shmem_free(src);
    shmem_free(dest);
    return bench_finish();
}
