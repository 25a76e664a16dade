/*
 * atomic_latency: latency of remote atomics on a long, on the symmetric heap and on a global.
 *
 * Rows (label, mean microseconds per operation), each measured twice: on a long from
 * shmem_malloc ("_heap") and on a file-scope static long ("_global"; global and static
 * variables are symmetric in OpenSHMEM, and an implementation may reach them by a different
 * path than the heap, e.g. a separately registered data segment):
 *   fetch_add_*      v = shmem_long_atomic_fetch_add(x, 1, 1)           (a round trip)
 *   compare_swap_*   v = shmem_long_atomic_compare_swap(x, v, v + 1, 1) (always succeeds)
 *   add_quiet_*      shmem_long_atomic_add(x, 1, 1); shmem_quiet();
 *   long_p_quiet_*   shmem_long_p(x, v, 1); shmem_quiet();              (a plain 8-byte put)
 *
 * Only PE 0 touches PE 1's words, so every fetched value is known in advance: PE 0 checks
 * each returned value and, after each row, the final value at PE 1 (untimed).
 * PE 1 (and any further PE) only waits in the final barrier.
 */
#include <shmem.h>

#include <stdio.h>

#include "bench_util.h"

/* The global target: symmetric because it is a static-storage variable. */
static long global_target = 0;

struct amo_args {
    long *target;  /* symmetric word at PE `pe` */
    int pe;
    long expect;   /* the value the target holds now (PE 0 is its only writer) */
    long bad;      /* fetched values that differed from `expect` */
};

static void fetch_add(long n, void *p)
{
    struct amo_args *a = p;
    for (long i = 0; i < n; i++) {
        long v = shmem_long_atomic_fetch_add(a->target, 1, a->pe);
        if (v != a->expect)
            a->bad++;
        a->expect++;
    }
}

static void compare_swap(long n, void *p)
{
    struct amo_args *a = p;
    for (long i = 0; i < n; i++) {
        long v = shmem_long_atomic_compare_swap(a->target, a->expect, a->expect + 1, a->pe);
        if (v != a->expect)
            a->bad++;
        a->expect++;
    }
}

static void add_quiet(long n, void *p)
{
    struct amo_args *a = p;
    for (long i = 0; i < n; i++) {
        shmem_long_atomic_add(a->target, 1, a->pe);
        shmem_quiet();
    }
    a->expect += n;
}

static void long_p_quiet(long n, void *p)
{
    struct amo_args *a = p;
    for (long i = 0; i < n; i++) {
        shmem_long_p(a->target, a->expect, a->pe); /* rewrites the current value */
        shmem_quiet();
    }
}

/* Measure one operation on one target, print its row and check the target afterwards. */
static void amo_row(const char *label, bench_body_fn body, struct amo_args *a)
{
    long done = 0;
    double t = bench_measure(body, a, bench_opt.iters, &done);
    bench_row_label(label, t / (double)done * 1e6);

    long now = shmem_long_g(a->target, a->pe);
    if (a->bad != 0 || now != a->expect)
        bench_check_failed("%s: %ld wrong fetched values; target holds %ld, expected %ld",
                           label, a->bad, now, a->expect);
    a->bad = 0;
}

int main(int argc, char **argv)
{
    int rc = bench_init(argc, argv, "atomic_latency", 10000, 1);
    if (rc != BENCH_CONTINUE)
        return rc;

    long *heap_target = bench_shmalloc(sizeof(long));
    *heap_target = 0;
    shmem_barrier_all(); /* PE 1's heap word is initialised */

    if (bench_me == 0) {
        struct amo_args heap = { heap_target, 1, 0, 0 };
        struct amo_args global = { &global_target, 1, 0, 0 };

        bench_comment("long atomics PE 0 -> PE 1; _heap: shmem_malloc'd, _global: static long");
        bench_header("op", "latency_us");
        amo_row("fetch_add_heap", fetch_add, &heap);
        amo_row("fetch_add_global", fetch_add, &global);
        amo_row("compare_swap_heap", compare_swap, &heap);
        amo_row("compare_swap_global", compare_swap, &global);
        amo_row("add_quiet_heap", add_quiet, &heap);
        amo_row("add_quiet_global", add_quiet, &global);
        amo_row("long_p_quiet_heap", long_p_quiet, &heap);
        amo_row("long_p_quiet_global", long_p_quiet, &global);
    }

    shmem_barrier_all(); /* the target and any idle PE wait here while PE 0 measures */
    shmem_free(heap_target);
    return bench_finish();
}
