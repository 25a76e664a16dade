/*
 * msg_rate: how many small (8-byte) operations per second PE 0 can issue to PE 1.
 *
 * Rows (label, messages per second):
 *   putmem_nbi_8B  window of --window (default 64) shmem_putmem_nbi of 8 bytes, then quiet
 *   getmem_nbi_8B  window of shmem_getmem_nbi of 8 bytes, then quiet
 *   long_p         window of shmem_long_p (returns once the value is copied out; no remote
 *                  completion per call), then quiet
 *   long_g         shmem_long_g, one after the other (each is a full round trip)
 *
 * The rate counts operations only; the quiet that ends each window is part of the time.
 * This is the small-message overhead of the library: call path, queueing, completion.
 *
 * PE 1 (and any further PE) only waits in the final barrier. PE 0 checks (untimed) that the
 * last value written or read is the expected one.
 */
#include <shmem.h>

#include <stdio.h>

#include "bench_util.h"

struct rate_args {
    long *remote;   /* symmetric word at PE `pe` */
    long *local;    /* local 8-byte buffer (source of puts, destination of gets) */
    long window;
    int pe;
    long expect;    /* long_g: the value PE 1's word holds */
    long bad;       /* long_g: how many reads did not return it */
};

/* The bodies copy the arguments into locals first, so that the loops keep them in registers
 * instead of reloading them from the caller's stack around every library call. */
static void putmem_nbi_window(long n, void *p)
{
    const struct rate_args *a = p;
    long *remote = a->remote, *local = a->local, window = a->window;
    int pe = a->pe;
    for (long i = 0; i < n; i++) {
        for (long w = 0; w < window; w++)
            shmem_putmem_nbi(remote, local, sizeof(long), pe);
        shmem_quiet();
    }
}

static void getmem_nbi_window(long n, void *p)
{
    const struct rate_args *a = p;
    long *remote = a->remote, *local = a->local, window = a->window;
    int pe = a->pe;
    for (long i = 0; i < n; i++) {
        for (long w = 0; w < window; w++)
            shmem_getmem_nbi(local, remote, sizeof(long), pe);
        shmem_quiet();
    }
}

static void long_p_window(long n, void *p)
{
    const struct rate_args *a = p;
    long *remote = a->remote, window = a->window;
    int pe = a->pe;
    for (long i = 0; i < n; i++) {
        for (long w = 0; w < window; w++)
            shmem_long_p(remote, w, pe);
        shmem_quiet();
    }
}

static void long_g_loop(long n, void *p)
{
    struct rate_args *a = p;
    long *remote = a->remote, expect = a->expect, bad = 0;
    int pe = a->pe;
    for (long i = 0; i < n; i++)
        if (shmem_long_g(remote, pe) != expect) /* a compare costs next to nothing */
            bad++;
    a->bad += bad;
}

/* Time `body` and print one row: operations per second, ops_per_iter operations per call. */
static void rate_row(const char *label, bench_body_fn body, struct rate_args *a,
                     long ops_per_iter, long iters)
{
    long done = 0;
    double t = bench_measure(body, a, iters, &done);
    bench_row_label(label, (double)done * (double)ops_per_iter / t);
}

int main(int argc, char **argv)
{
    /* 2000 windows of 64 = 128000 messages per row at most (see --budget). */
    int rc = bench_init(argc, argv, "msg_rate", 2000, 1);
    if (rc != BENCH_CONTINUE)
        return rc;

    long *remote = bench_shmalloc(sizeof(long));
    long *local = bench_shmalloc(sizeof(long));
    *remote = 0;
    shmem_barrier_all(); /* PE 1's word is initialised */

    if (bench_me == 0) {
        const long W = bench_opt.window;
        const long iters = bench_opt.iters;
        struct rate_args a = { remote, local, W, 1, 0, 0 };

        bench_comment("8-byte operations PE 0 -> PE 1; nbi and p: windows of %ld then quiet", W);
        bench_header("op", "msgs_per_s");

        *local = 0x5eed;
        rate_row("putmem_nbi_8B", putmem_nbi_window, &a, W, iters);
        if (shmem_long_g(remote, 1) != 0x5eed)
            bench_check_failed("putmem_nbi: wrong value at the target");

        shmem_long_p(remote, 0x1dea, 1);
        shmem_quiet();
        *local = 0;
        rate_row("getmem_nbi_8B", getmem_nbi_window, &a, W, iters);
        if (*local != 0x1dea)
            bench_check_failed("getmem_nbi: got %ld instead of %ld", *local, 0x1deaL);

        rate_row("long_p", long_p_window, &a, W, iters);
        if (shmem_long_g(remote, 1) != W - 1)
            bench_check_failed("long_p: wrong value at the target");

        /* Each g is one operation; use as many as the windowed rows issue in total. */
        a.expect = W - 1;
        rate_row("long_g", long_g_loop, &a, 1, iters * W);
        if (a.bad != 0)
            bench_check_failed("long_g: %ld reads returned a wrong value", a.bad);
    }

    shmem_barrier_all(); /* the target and any idle PE wait here while PE 0 measures */
    shmem_free(local);
    shmem_free(remote);
    return bench_finish();
}
