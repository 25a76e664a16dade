/*
 * barrier_latency: mean time of one shmem_barrier_all, with every PE taking part.
 *
 * All PEs run the same number of back-to-back barriers; PE 0's clock times them. Works with
 * any number of PEs (even 1). One row: "barrier_all <microseconds>".
 *
 * Unlike the one-sided tests, bench_measure cannot be used here: when to stop (--iters,
 * --min-time, --budget) is PE 0's decision, and every PE must run the same number of
 * barriers. So the barriers run in batches of --iters/16, and after each batch PE 0 tells
 * everybody (untimed) whether to go on.
 */
#include <shmem.h>

#include <stdio.h>

#include "bench_util.h"

static void barriers(long n)
{
    for (long i = 0; i < n; i++)
        shmem_barrier_all();
}

int main(int argc, char **argv)
{
    int rc = bench_init(argc, argv, "barrier_latency", 2000, 0);
    if (rc != BENCH_CONTINUE)
        return rc;

    long *go = bench_shmalloc(sizeof(long)); /* PE 0's verdict after each batch */
    const long iters = bench_opt.iters;
    long batch = iters / 16 > 0 ? iters / 16 : 1;

    barriers(iters / 10 > 2 ? iters / 10 : 2); /* warm-up */

    long done = 0;
    double elapsed = 0.0;
    for (;;) {
        long k = (done < iters && iters - done < batch) ? iters - done : batch;
        double t0 = bench_now();
        barriers(k);
        elapsed += bench_now() - t0;
        done += k;

        /* Untimed: PE 0 decides and writes the verdict into every PE's `go`. */
        if (bench_me == 0) {
            long verdict = (done < iters || elapsed < bench_opt.min_time) &&
                           elapsed < bench_opt.budget;
            for (int pe = 0; pe < bench_npes; pe++)
                shmem_long_p(go, verdict, pe);
            shmem_quiet();
        }
        shmem_barrier_all(); /* the verdict is everywhere */
        long verdict = *go;
        shmem_barrier_all(); /* nobody reads `go` any more before PE 0 rewrites it */
        if (!verdict)
            break;
    }

    bench_comment("shmem_barrier_all, all %d PEs, %ld barriers timed on PE 0", bench_npes, done);
    bench_header("op", "latency_us");
    bench_row_label("barrier_all", elapsed / (double)done * 1e6);

    shmem_barrier_all();
    shmem_free(go);
    return bench_finish();
}
