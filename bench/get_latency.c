/*
 * get_latency: time of one blocking get, per message size.
 *
 * PE 0 repeats   shmem_getmem(dest, src, size, 1);
 * and reports the mean time of one get in microseconds, for sizes 1 B .. 1 MiB. A blocking
 * get returns only when the data is in the local buffer: this is a full round trip.
 *
 * The remote source is symmetric (shmem_malloc) and PE 1 fills it with a known pattern
 * before the start barrier; the local destination is symmetric too, so that no
 * implementation pays for registering a private buffer (see put_latency.c).
 *
 * PE 1 (and any further PE) does nothing after the start barrier but wait in the final one.
 * After each size PE 0 checks (untimed) that the data it got is PE 1's pattern.
 */
#include <shmem.h>

#include <stdio.h>
#include <string.h>

#include "bench_util.h"

struct get_args {
    void *dest;       /* local destination */
    const void *src;  /* symmetric source, at PE `pe` */
    size_t size;
    int pe;
};

/* The measured operation, n times. */
static void get_blocking(long n, void *p)
{
    const struct get_args *a = p;
    for (long i = 0; i < n; i++)
        shmem_getmem(a->dest, a->src, a->size, a->pe);
}

int main(int argc, char **argv)
{
    int rc = bench_init(argc, argv, "get_latency", 10000, 1);
    if (rc != BENCH_CONTINUE)
        return rc;

    const size_t max = bench_opt.max_size;
    const unsigned seed = 1234;
    char *src = bench_shmalloc(max);
    char *dest = bench_shmalloc(max);

    bench_fill(src, max, seed); /* what PE 0 will read from PE 1 */
    shmem_barrier_all();        /* PE 1's source is ready */

    if (bench_me == 0) {
        bench_comment("blocking shmem_getmem, PE 0 <- PE 1, mean of one get");
        bench_header("size", "latency_us");
        for (size_t s = bench_opt.min_size; s != 0 && s <= max; s *= 2) {
            memset(dest, 0, s);
            struct get_args a = { dest, src, s, 1 };
            long done = 0;
            double t = bench_measure(get_blocking, &a, bench_iters_for(s), &done);
            bench_row_size(s, t / (double)done * 1e6);
            if (!bench_verify(dest, s, seed))
                bench_check_failed("get of %zu bytes: wrong data", s);
        }
    }

    shmem_barrier_all(); /* the target and any idle PE wait here while PE 0 measures */
    shmem_free(dest);
    shmem_free(src);
    return bench_finish();
}
