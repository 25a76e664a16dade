/*
 * staged_rma.c: strided RMA (iput, ibput, iget, ibget; default and created contexts; heap and
 * globals) moves exactly its elements and keeps the meaning of quiet and fence, at every size:
 * below the staging threshold (one UCX put per block), above it (packed messages the target
 * unpacks, src/transport/ucx_staging.c) and above the piece size (several messages).
 *
 * Each round, every PE puts strided data into its right neighbour, completes it (quiet, or
 * fence), then sets a flag there; the neighbour waits for the flag and checks every element
 * and every gap right away: data visible after quiet, ordered by fence. Gets check that the
 * data is in place when a blocking get returns; also with equal strides on both sides. On the
 * direct path the same checks run over the direct copies.
 *
 * sshmem-test-env: paths=ucx,tcp SSHMEM_STAGE_PIECE=4K
 * (Without the progress thread only at 2 PEs: at 3 over tcp shmem_finalize itself can hang,
 * whatever the test does: test/pe/put_get too.)
 * sshmem-test-env: np=2 paths=ucx,tcp SSHMEM_PROGRESS_THREAD=0
 * (Messages also on one host: not through UCX's shared-memory mapping.)
 * sshmem-test-env: np=2,3 paths=ucx SSHMEM_STAGE_MAPPED=0 SSHMEM_STAGE_MIN_RUNS_SHM=2
 * sshmem-test-env: np=2 paths=ucx SSHMEM_STAGE_MAPPED=0 SSHMEM_STAGE_PIECE=4K
 * sshmem-test-env: np=2,3 paths=ucx,tcp SSHMEM_STAGE_MAPPED=0 SSHMEM_STAGE_MIN_RUNS=0 SSHMEM_STAGE_MIN_RUNS_SHM=0
 */
#include <shmem.h>
#include <time.h>

#include "check.h"

#define STRIDE 24     /* doubles between consecutive put targets (the vector case) */
#define MAX_N 40000   /* elements: 320 KB of data, more than one 256 KB piece */
#define G_N 1000      /* elements of the global target */
#define GSRC_N (5000 * STRIDE) /* doubles of the gets' source: 5,000 strided elements */
#define SENTINEL -1.0

static double gdst[G_N * STRIDE]; /* a global: symmetric too */
static long flag;                 /* the round whose data has been put here */
static int me, npes, right, left;
static long round_no;

static double value(int pe, size_t i, long r) { return pe * 1e7 + (double)i + r * 0.25; }

static void fill(double *a, size_t n, double v)
{
    for (size_t i = 0; i < n; i++)
        a[i] = v;
}

enum completion { BY_QUIET, BY_FENCE };

/* Check the blocks of bsize put from left: block b at b*stride, gaps untouched. */
static void check_strided(const double *dst, size_t nblocks, size_t bsize, size_t stride,
                          long r, const char *what)
{
    size_t bad = 0;
    for (size_t b = 0; b < nblocks; b++)
        for (size_t k = 0; k < stride; k++) {
            double want = k < bsize ? value(left, b * bsize + k, r) : SENTINEL;
            if (k >= bsize && b == nblocks - 1)
                break; /* nothing beyond the last block is ours to check */
            if (dst[b * stride + k] != want && bad++ < 3)
                CHECK(0, "%s round %ld: element %zu of block %zu is %g, expected %g", what, r,
                      k, b, dst[b * stride + k], want);
        }
    CHECK(bad == 0, "%s round %ld: %zu wrong elements", what, r, bad);
}

/* One put round: nblocks blocks of bsize doubles from src (contiguous) into the right
 * neighbour's dst at a stride, completed as asked, then the flag. */
static void put_round(shmem_ctx_t ctx, double *dst, size_t nblocks, size_t bsize,
                      enum completion how, const char *what)
{
    static double src[MAX_N + 3];
    long r = ++round_no;
    fill(dst, (nblocks - 1) * STRIDE + bsize, SENTINEL);
    for (size_t i = 0; i < nblocks * bsize; i++)
        src[i] = value(me, i, r);
    shmem_barrier_all();
    if (bsize == 1)
        shmem_ctx_double_iput(ctx, dst, src, STRIDE, 1, nblocks, right);
    else
        shmem_ctx_double_ibput(ctx, dst, src, STRIDE, bsize, bsize, nblocks, right);
    fill(src, nblocks * bsize, -2.0); /* the source is reusable on return */
    if (how == BY_QUIET)
        shmem_ctx_quiet(ctx);
    else
        shmem_ctx_fence(ctx);
    shmem_ctx_long_p(ctx, &flag, r, right);
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
    check_strided(dst, nblocks, bsize, STRIDE, r, what);
    shmem_barrier_all();
}

/* One get round: every PE lays out its values at a stride in src; each gets the right
 * neighbour's into a local array at another stride, checked as soon as the get returns. */
static void get_round(shmem_ctx_t ctx, double *src, size_t cap, size_t nblocks, size_t bsize,
                      const char *what)
{
    static double dst[MAX_N * 2];
    long r = ++round_no;
    size_t dstride = 2 * bsize;
    for (size_t b = 0; b < nblocks; b++)
        for (size_t k = 0; k < STRIDE; k++)
            if (b * STRIDE + k < cap)
                src[b * STRIDE + k] = k < bsize ? value(me, b * bsize + k, r) : -3.0;
    fill(dst, nblocks * dstride, SENTINEL);
    shmem_barrier_all();
    if (bsize == 1)
        shmem_ctx_double_iget(ctx, dst, src, (ptrdiff_t)dstride, STRIDE, nblocks, right);
    else
        shmem_ctx_double_ibget(ctx, dst, src, (ptrdiff_t)dstride, STRIDE, bsize, nblocks, right);
    size_t bad = 0;
    for (size_t b = 0; b < nblocks; b++)
        for (size_t k = 0; k < dstride; k++) {
            double want = k < bsize ? value(right, b * bsize + k, r) : SENTINEL;
            if (dst[b * dstride + k] != want && bad++ < 3)
                CHECK(0, "%s round %ld: element %zu of block %zu is %g, expected %g", what, r,
                      k, b, dst[b * dstride + k], want);
        }
    CHECK(bad == 0, "%s round %ld: %zu wrong elements", what, r, bad);
    shmem_barrier_all();
}

/* Equal strides on both sides (the vector case of mpix_bench): through UCX's shared-memory
 * mapping one strided copy, no packing. iput from a strided source into the right
 * neighbour, then iget of the right neighbour's strided source into a strided local array;
 * every element and every gap checked. */
#define SAME_N 1000
static void same_stride_round(shmem_ctx_t ctx, double *dst, const char *what)
{
    static double src[SAME_N * STRIDE], got[SAME_N * STRIDE];
    long r = ++round_no;
    fill(dst, SAME_N * STRIDE, SENTINEL);
    for (size_t i = 0; i < SAME_N * STRIDE; i++)
        src[i] = i % STRIDE ? -4.0 : value(me, i / STRIDE, r);
    shmem_barrier_all();
    shmem_ctx_double_iput(ctx, dst, src, STRIDE, STRIDE, SAME_N, right);
    shmem_ctx_quiet(ctx);
    shmem_ctx_long_p(ctx, &flag, r, right);
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
    check_strided(dst, SAME_N, 1, STRIDE, r, what);
    shmem_barrier_all(); /* every dst checked: now each holds its left neighbour's values */
    fill(got, SAME_N * STRIDE, SENTINEL);
    shmem_ctx_double_iget(ctx, got, dst, STRIDE, STRIDE, SAME_N, right);
    size_t bad = 0;
    for (size_t i = 0; i < SAME_N * STRIDE - (STRIDE - 1); i++) {
        double want = i % STRIDE ? SENTINEL : value(me, i / STRIDE, r); /* right's left is me */
        if (got[i] != want && bad++ < 3)
            CHECK(0, "%s (iget) round %ld: double %zu is %g, expected %g", what, r, i, got[i],
                  want);
    }
    CHECK(bad == 0, "%s (iget) round %ld: %zu wrong doubles", what, r, bad);
    shmem_barrier_all();
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* PE 0 computes for BUSY_S seconds without calling the library while the others put staged
 * data into it and quiet: its progress thread unpacks and acknowledges, so their quiets
 * return long before it is done (without the thread they would wait for it). */
#define BUSY_S 1.5
static void busy_target(double *dst)
{
    static double src[1000];
    for (size_t i = 0; i < 1000; i++)
        src[i] = value(me, i, 0);
    shmem_barrier_all();
    double start = now(), took = 0;
    if (me == 0) {
        volatile double x = 0;
        while (now() - start < BUSY_S)
            for (int i = 0; i < 10000; i++)
                x += i * 0.5;
    } else {
        shmem_double_iput(dst + me, src, npes, 1, 1000, 0);
        shmem_quiet();
        took = now() - start;
        CHECK(took < BUSY_S * 0.7 || !speed_checked(),
              "a staged put into a computing PE took %.2f s", took);
    }
    shmem_barrier_all();
    if (me == 0)
        for (int pe = 1; pe < npes; pe++)
            for (size_t i = 0; i < 1000; i++)
                CHECK(dst[pe + i * npes] == value(pe, i, 0), "busy target: element %zu of PE %d",
                      i, pe);
    shmem_barrier_all();
}

int main(void)
{
    static const size_t counts[] = {1, 15, 16, 17, 1000, MAX_N};
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    double *dst = shmem_malloc(sizeof(double) * MAX_N * STRIDE);
    double *gsrc = shmem_malloc(sizeof(double) * GSRC_N);
    shmem_ctx_t ctx;
    if (shmem_ctx_create(0, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;

    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        size_t n = counts[c];
        put_round(SHMEM_CTX_DEFAULT, dst, n, 1, BY_QUIET, "iput, quiet");
        put_round(SHMEM_CTX_DEFAULT, dst, n, 1, BY_FENCE, "iput, fence");
        put_round(ctx, dst, n, 1, BY_QUIET, "ctx iput, ctx quiet");
        put_round(ctx, dst, n / 3 + 1, 3, BY_QUIET, "ctx ibput, ctx quiet");
        if (n * STRIDE <= GSRC_N) {
            get_round(SHMEM_CTX_DEFAULT, gsrc, GSRC_N, n, 1, "iget");
            get_round(ctx, gsrc, GSRC_N, n / 3 + 1, 3, "ctx ibget");
        }
    }
    same_stride_round(SHMEM_CTX_DEFAULT, dst, "iput/iget, equal strides");
    same_stride_round(ctx, dst, "ctx iput/iget, equal strides");
    put_round(SHMEM_CTX_DEFAULT, gdst, G_N, 1, BY_QUIET, "iput to a global, quiet");
    put_round(SHMEM_CTX_DEFAULT, gdst, G_N, 1, BY_FENCE, "iput to a global, fence");
    get_round(SHMEM_CTX_DEFAULT, gdst, G_N * STRIDE, G_N, 1, "iget from a global");
    const char *thread = getenv("SSHMEM_PROGRESS_THREAD");
    if (npes <= 4 && !(thread && !strcmp(thread, "0")))
        busy_target(dst);

    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(gsrc);
    shmem_free(dst);
    return check_finish();
}
