/*
 * get_bw: get bandwidth with many gets in flight, per message size.
 *
 * PE 0 repeats a window of --window (default 64) non-blocking gets of `size` bytes from the
 * same symmetric source at PE 1 into one local buffer, then one shmem_quiet:
 *
 *     for (w = 0; w < window; w++) shmem_getmem_nbi(dest, src, size, 1);
 *     shmem_quiet();
 *
 * and reports bytes fetched per second in MB/s (1 MB = 10^6 bytes), for sizes 1 B .. 1 MiB.
 * (All gets of a window write the same data to the same buffer, which is allowed.)
 *
 * PE 1 fills its source with a pattern before the start barrier and then only waits in the
 * final barrier. After each size PE 0 checks (untimed) the data it got.
 */
#include <shmem.h>

#include <stdio.h>
#include <string.h>

#include "bench_util.h"

struct bw_args {
    void *dest;
    const void *src;
    size_t size;
    long window;
    int pe;
};

/* One iteration = one window of non-blocking gets and the quiet that completes them. */
static void get_window(long n, void *p)
{
    const struct bw_args *a = p;
    for (long i = 0; i < n; i++) {
        for (long w = 0; w < a->window; w++)
            shmem_getmem_nbi(a->dest, a->src, a->size, a->pe);
        shmem_quiet();
    }
}

int main(int argc, char **argv)
{
    int rc = bench_init(argc, argv, "get_bw", 1000, 1);
    if (rc != BENCH_CONTINUE)
        return rc;

    const size_t max = bench_opt.max_size;
    const unsigned seed = 4321;
    char *src = bench_shmalloc(max);
    char *dest = bench_shmalloc(max);

    bench_fill(src, max, seed);
    shmem_barrier_all(); /* PE 1's source is ready */

    if (bench_me == 0) {
        bench_comment("window of %ld shmem_getmem_nbi then shmem_quiet, PE 0 <- PE 1",
                      bench_opt.window);
        bench_header("size", "MB_per_s");
        for (size_t s = bench_opt.min_size; s != 0 && s <= max; s *= 2) {
            memset(dest, 0, s);
            struct bw_args a = { dest, src, s, bench_opt.window, 1 };
            long done = 0;
            double t = bench_measure(get_window, &a, bench_iters_for(s), &done);
            double bytes = (double)s * (double)bench_opt.window * (double)done;
            bench_row_size(s, bytes / t / 1e6);
            if (!bench_verify(dest, s, seed))
                bench_check_failed("get_nbi of %zu bytes: wrong data", s);
        }
    }

    shmem_barrier_all(); /* the target and any idle PE wait here while PE 0 measures */
    shmem_free(dest);
    shmem_free(src);
    return bench_finish();
}
