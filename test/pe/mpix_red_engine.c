/*
 * mpix_red_engine.c: the MPI-style reductions and scans on the collective engine, under every
 * reduction and scan algorithm (forced by the sshmem-test-env lines below), with symmetric
 * buffers (the engine works on them directly) and local ones (pieces through the team's
 * staging buffer), small and beyond both the work buffer and the staging buffer:
 *  - a non-commutative operator (2x2 matrix product, exact integers) gives x0 x1 ... x(n-1)
 *    for allreduce and reduce, the ordered prefixes for scan and exscan;
 *  - SHMEMX_IN_PLACE for all four (exscan leaves PE 0's dest alone, reduce the non-roots');
 *  - MINLOC/MAXLOC on DOUBLE_INT with ties (the smallest index wins, whichever PE has it);
 *  - SUM over many longs.
 * Every element is checked on every PE.
 *
 * sshmem-test: np=1 2 3 4 5 8
 * sshmem-test-env: np=2,3,5,8 paths=direct SSHMEM_COLL_REDUCE=shm
 * sshmem-test-env: np=3,5,8 paths=direct SSHMEM_COLL_REDUCE=shmrs
 * sshmem-test-env: np=3,5,8 paths=direct SSHMEM_COLL_REDUCE=rd
 * sshmem-test-env: np=3,5,8 paths=direct SSHMEM_COLL_REDUCE=rsag
 * sshmem-test-env: np=5 paths=tcp SSHMEM_COLL_REDUCE=rd
 * sshmem-test-env: np=5 paths=ucx SSHMEM_COLL_REDUCE=rsag
 * sshmem-test-env: np=5 paths=direct SSHMEM_PES_PER_NODE=2
 * sshmem-test-env: np=3 paths=direct SHMEM_DEBUG=1
 * (over tcp reductions to a root are gathered or go down a tree also on teams of more than
 * 8, the members leaving early: src/mpix/reduce.c)
 * sshmem-test-env: np=12 paths=tcp
 */
#include <shmemx.h>

#include "check.h"

#define PRIME 10007
#define BIG 3000    /* matrices: 96 KB, beyond the work and the staging buffer */
#define MANY 150000 /* longs */

static int me, npes;
static shmemx_datatype_t imat_type;
static shmemx_op_t imat_op;

/* 2x2 integer matrices modulo a prime: exact, associative, not commutative. */
typedef struct {
    long a, b, c, d;
} imat;

static imat imul(imat x, imat y)
{
    return (imat){(x.a * y.a + x.b * y.c) % PRIME, (x.a * y.b + x.b * y.d) % PRIME,
                  (x.c * y.a + x.d * y.c) % PRIME, (x.c * y.b + x.d * y.d) % PRIME};
}

static imat imat_of(int p, int k) { return (imat){(p + k) % 7 + 1, k % 5, (p * k) % 3 + 1, 1}; }

static void imatmul(void *invec, void *inoutvec, int *len, shmemx_datatype_t *type)
{
    (void)type;
    imat *x = invec, *y = inoutvec;
    for (int i = 0; i < *len; i++)
        y[i] = imul(x[i], y[i]);
}

/* x(first) ... x(last) for element k; the identity when first > last. */
static imat product(int first, int last, int k)
{
    imat r = {1, 0, 0, 1};
    for (int p = first; p <= last; p++)
        r = imul(r, imat_of(p, k));
    return r;
}

static void check_mats(const char *what, const imat *got, int last, size_t k_count)
{
    for (size_t k = 0; k < k_count; k++) {
        imat w = product(0, last, (int)k), g = got[k];
        CHECK(g.a == w.a && g.b == w.b && g.c == w.c && g.d == w.d,
              "%s [%zu] = [%ld %ld; %ld %ld], want [%ld %ld; %ld %ld]", what, k, g.a, g.b, g.c,
              g.d, w.a, w.b, w.c, w.d);
    }
}

static void *buffer(int symmetric, size_t bytes)
{
    return symmetric ? shmem_malloc(bytes) : malloc(bytes);
}

static void release(int symmetric, void *p)
{
    if (symmetric)
        shmem_free(p);
    else
        free(p);
}

static void fill_mats(imat *m, size_t k_count)
{
    for (size_t k = 0; k < k_count; k++)
        m[k] = imat_of(me, (int)k);
}

/* allreduce, reduce to every root, scan, exscan with the non-commutative product. */
static void ordered(int sym, size_t k_count)
{
    imat *src = buffer(sym, k_count * sizeof *src), *dst = buffer(sym, k_count * sizeof *dst);
    const imat poison = {-5, -5, -5, -5};
    fill_mats(src, k_count);
    shmemx_allreduce(SHMEM_TEAM_WORLD, dst, src, k_count, imat_type, imat_op);
    check_mats(sym ? "allreduce (symmetric)" : "allreduce (local)", dst, npes - 1, k_count);
    for (int root = 0; root < npes; root += npes > 3 ? npes - 1 : 1) {
        for (size_t k = 0; k < k_count; k++)
            dst[k] = poison;
        shmemx_reduce(SHMEM_TEAM_WORLD, dst, src, k_count, imat_type, imat_op, root);
        if (me == root)
            check_mats("reduce", dst, npes - 1, k_count);
        else
            for (size_t k = 0; k < k_count; k++)
                CHECK(dst[k].a == -5 && dst[k].d == -5, "reduce to %d wrote a non-root's dest "
                      "[%zu]", root, k);
    }
    shmemx_scan(SHMEM_TEAM_WORLD, dst, src, k_count, imat_type, imat_op);
    check_mats("scan", dst, me, k_count);
    for (size_t k = 0; k < k_count; k++)
        dst[k] = poison;
    shmemx_exscan(SHMEM_TEAM_WORLD, dst, src, k_count, imat_type, imat_op);
    if (me > 0)
        check_mats("exscan", dst, me - 1, k_count);
    else
        for (size_t k = 0; k < k_count; k++)
            CHECK(dst[k].a == -5 && dst[k].b == -5, "exscan wrote PE 0's dest [%zu]", k);
    release(sym, src);
    release(sym, dst);
}

/* SHMEMX_IN_PLACE: the input is in dest, the result replaces it. */
static void in_place(int sym, size_t k_count)
{
    imat *buf = buffer(sym, k_count * sizeof *buf);
    fill_mats(buf, k_count);
    shmemx_allreduce(SHMEM_TEAM_WORLD, buf, SHMEMX_IN_PLACE, k_count, imat_type, imat_op);
    check_mats("allreduce in place", buf, npes - 1, k_count);
    fill_mats(buf, k_count);
    shmemx_scan(SHMEM_TEAM_WORLD, buf, SHMEMX_IN_PLACE, k_count, imat_type, imat_op);
    check_mats("scan in place", buf, me, k_count);
    fill_mats(buf, k_count);
    shmemx_exscan(SHMEM_TEAM_WORLD, buf, SHMEMX_IN_PLACE, k_count, imat_type, imat_op);
    if (me > 0)
        check_mats("exscan in place", buf, me - 1, k_count);
    else
        for (size_t k = 0; k < k_count; k++) {
            imat w = imat_of(0, (int)k);
            CHECK(buf[k].a == w.a && buf[k].c == w.c, "exscan in place changed PE 0 [%zu]", k);
        }
    int root = npes / 2;
    imat *src = buffer(sym, k_count * sizeof *src);
    fill_mats(src, k_count);
    fill_mats(buf, k_count);
    if (me == root)
        shmemx_reduce(SHMEM_TEAM_WORLD, buf, SHMEMX_IN_PLACE, k_count, imat_type, imat_op, root);
    else
        shmemx_reduce(SHMEM_TEAM_WORLD, NULL, src, k_count, imat_type, imat_op, root);
    if (me == root)
        check_mats("reduce in place at the root", buf, npes - 1, k_count);
    release(sym, buf);
    release(sym, src);
}

/* Value of element k on PE p, and its index: ties on the value, indices decreasing with p so
 * that the smallest index of a tie is on its highest PE. */
static double loc_value(int p, size_t k) { return (double)((p + k) % 3); }
static int loc_index(int p, size_t k) { return (int)(1000 - 10 * p + k % 7); }

static void minmaxloc(int sym, size_t count)
{
    shmemx_double_int_t *src = buffer(sym, count * sizeof *src);
    shmemx_double_int_t *mx = buffer(sym, count * sizeof *mx);
    shmemx_double_int_t *mn = buffer(sym, count * sizeof *mn);
    for (size_t k = 0; k < count; k++)
        src[k] = (shmemx_double_int_t){loc_value(me, k), loc_index(me, k)};
    shmemx_allreduce(SHMEM_TEAM_WORLD, mx, src, count, SHMEMX_DOUBLE_INT, SHMEMX_MAXLOC);
    shmemx_allreduce(SHMEM_TEAM_WORLD, mn, src, count, SHMEMX_DOUBLE_INT, SHMEMX_MINLOC);
    for (size_t k = 0; k < count; k++) {
        double vmax = -1, vmin = 99;
        int imax = 1 << 30, imin = 1 << 30;
        for (int p = 0; p < npes; p++) {
            double v = loc_value(p, k);
            int i = loc_index(p, k);
            if (v > vmax || (v == vmax && i < imax))
                vmax = v, imax = i;
            if (v < vmin || (v == vmin && i < imin))
                vmin = v, imin = i;
        }
        CHECK(mx[k].value == vmax && mx[k].index == imax, "maxloc [%zu] = (%g, %d), want (%g, %d)",
              k, mx[k].value, mx[k].index, vmax, imax);
        CHECK(mn[k].value == vmin && mn[k].index == imin, "minloc [%zu] = (%g, %d), want (%g, %d)",
              k, mn[k].value, mn[k].index, vmin, imin);
    }
    release(sym, src);
    release(sym, mx);
    release(sym, mn);
}

static void sums(int sym)
{
    long *src = buffer(sym, MANY * sizeof *src), *dst = buffer(sym, MANY * sizeof *dst);
    for (long k = 0; k < MANY; k++)
        src[k] = me * 3 + k;
    shmemx_allreduce(SHMEM_TEAM_WORLD, dst, src, MANY, SHMEMX_LONG, SHMEMX_SUM);
    for (long k = 0; k < MANY; k++)
        CHECK_EQ_LONG(dst[k], 3L * npes * (npes - 1) / 2 + (long)npes * k, "allreduce sum");
    shmemx_scan(SHMEM_TEAM_WORLD, dst, src, MANY, SHMEMX_LONG, SHMEMX_SUM);
    for (long k = 0; k < MANY; k++)
        CHECK_EQ_LONG(dst[k], 3L * me * (me + 1) / 2 + (long)(me + 1) * k, "scan sum");
    /* To the last PE (through UCX a tree turned to that root), in several pieces; the other
     * PEs' dest stays as it was. */
    for (long k = 0; k < MANY; k++)
        dst[k] = -7;
    shmemx_reduce(SHMEM_TEAM_WORLD, dst, src, MANY, SHMEMX_LONG, SHMEMX_SUM, npes - 1);
    for (long k = 0; k < MANY; k++)
        CHECK_EQ_LONG(dst[k], me == npes - 1 ? 3L * npes * (npes - 1) / 2 + (long)npes * k : -7,
                      "reduce sum to the last PE");
    release(sym, src);
    release(sym, dst);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    shmemx_type_contiguous(4, SHMEMX_LONG, &imat_type);
    shmemx_type_commit(&imat_type);
    shmemx_op_create(imatmul, 0, &imat_op);
    for (int sym = 1; sym >= 0; sym--) {
        ordered(sym, 3);
        ordered(sym, BIG);
        in_place(sym, 5);
        in_place(sym, BIG);
        minmaxloc(sym, 1);
        minmaxloc(sym, 20000);
        sums(sym);
    }
    shmemx_op_free(&imat_op);
    shmemx_type_free(&imat_type);
    return check_finish();
}
