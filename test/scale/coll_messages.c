/*
 * coll_messages.c: how many messages each PE sends per call of every collective at 8 bytes
 * per PE, counted by the library (shmemx_messages_sent), for test/scale/check-scale.sh.
 *
 * Run with SSHMEM_LOCAL=ucx, so every transfer is a UCX message, as between hosts. Each
 * collective runs once to learn its peers, then once measured; every PE checks every value
 * it received. PE 0 prints "messages NAME MAX" (the most any PE sent in the measured call),
 * then "ok N" when every value on every PE was right.
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long bad;          /* wrong values seen, on PE 0 */
static uint64_t sent, most; /* one PE's messages in the measured call; their maximum */
static int me, n;
static long *src, *dst;   /* symmetric, n longs each */
static size_t *counts, *displs;

static void expect(const char *what, long got, long want)
{
    if (got != want && bad < 10) {
        fprintf(stderr, "PE %d: %s: got %ld, expected %ld\n", me, what, got, want);
        shmem_long_atomic_inc(&bad, 0);
    }
}

static void barrier(void) { shmem_barrier_all(); }
static void broadcast(void) { shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 8, 0); }
static void reduce(void) { shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 1); }
static void fcollect(void) { shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, 8); }
static void collect(void) { shmem_collectmem(SHMEM_TEAM_WORLD, dst, src, 8); }
static void alltoall(void) { shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, 8); }
static void gatherv(void)
{
    shmemx_gatherv(SHMEM_TEAM_WORLD, dst, src, 1, counts, displs, SHMEMX_LONG, 0);
}
static void scatterv(void)
{
    shmemx_scatterv(SHMEM_TEAM_WORLD, dst, src, counts, displs, 1, SHMEMX_LONG, 0);
}
static void allgatherv(void)
{
    shmemx_allgatherv(SHMEM_TEAM_WORLD, dst, src, 1, counts, displs, SHMEMX_LONG);
}
static void alltoallv(void)
{
    shmemx_alltoallv(SHMEM_TEAM_WORLD, dst, counts, displs, src, counts, displs, SHMEMX_LONG);
}

/* What each collective must leave in dst on this PE; src[i] = 1000 * me + i. */
static void check(const char *name)
{
#define IS(x) (strcmp(name, x) == 0)
    if (IS("broadcast") || IS("scatterv"))
        expect(name, dst[0], IS("scatterv") ? me : 0); /* root 0's first long, or long me */
    else if (IS("reduce"))
        expect(name, dst[0], 1000L * n * (n - 1) / 2);
    else if (IS("fcollect") || IS("collect") || IS("allgatherv") || (IS("gatherv") && me == 0))
        for (int i = 0; i < n; i++)
            expect(name, dst[i], 1000L * i); /* PE i's first long */
    else if (IS("alltoall") || IS("alltoallv"))
        for (int i = 0; i < n; i++)
            expect(name, dst[i], 1000L * i + me); /* PE i's long number me */
#undef IS
}

static void measure(const char *name, void (*call)(void))
{
    for (int i = 0; i < n; i++)
        src[i] = 1000L * me + i;
    call(); /* learns its peers */
    shmem_barrier_all();
    uint64_t before = shmemx_messages_sent();
    call();
    sent = shmemx_messages_sent() - before;
    check(name);
    shmem_barrier_all();
    shmem_uint64_max_reduce(SHMEM_TEAM_WORLD, &most, &sent, 1);
    if (me == 0)
        printf("messages %s %llu\n", name, (unsigned long long)most);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    src = shmem_malloc((size_t)n * sizeof *src);
    dst = shmem_malloc((size_t)n * sizeof *dst);
    counts = malloc((size_t)n * sizeof *counts);
    displs = malloc((size_t)n * sizeof *displs);
    if (!src || !dst || !counts || !displs) {
        fprintf(stderr, "PE %d: out of memory for %d PEs\n", me, n);
        shmem_global_exit(1);
    }
    for (int i = 0; i < n; i++) {
        counts[i] = 1;
        displs[i] = (size_t)i;
    }
    measure("barrier", barrier);
    measure("broadcast", broadcast);
    measure("reduce", reduce);
    measure("fcollect", fcollect);
    measure("collect", collect);
    measure("alltoall", alltoall);
    measure("gatherv", gatherv);
    measure("scatterv", scatterv);
    measure("allgatherv", allgatherv);
    measure("alltoallv", alltoallv);
    shmem_barrier_all();
    if (me == 0) {
        if (bad == 0)
            printf("ok %d\n", n);
        else
            printf("FAILED: %ld wrong values\n", bad);
    }
    shmem_finalize();
    return 0;
}
