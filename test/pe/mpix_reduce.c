/*
 * mpix_reduce.c: shmemx_reduce and shmemx_allreduce give the exact result on every PE (and
 * leave other PEs' dest alone): SUM over many elements (several pieces and slot chunks), in
 * place, to every root; MAXLOC/MINLOC on DOUBLE_INT with ties (the smallest index wins,
 * whatever PE holds it); a predefined operator on a matrix column; a non-commutative user
 * operator (2x2 matrix product) whose result proves ascending PE order, also on a type with
 * gaps and to a root other than 0, over many elements (called on chunks), and on elements
 * larger than the operator's piece buffer (also to each end root); a commutative user
 * operator, on few elements and on many symmetric ones to each end root.
 *
 * Every reduction algorithm is forced in turn at 3, 5 and 8 PEs (they all must keep PE order):
 * sshmem-test-env: np=3,5,8 paths=direct SSHMEM_COLL_REDUCE=shm
 * sshmem-test-env: np=3,5,8 paths=direct SSHMEM_COLL_REDUCE=shmrs
 * sshmem-test-env: np=3,5,8 paths=direct SSHMEM_COLL_REDUCE=rd
 * sshmem-test-env: np=3,5,8 paths=direct SSHMEM_COLL_REDUCE=rsag
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_PES_PER_NODE=2 SSHMEM_COLL_REDUCE=hier
 * (over tcp a collective step is one message; SSHMEM_COLL_MESSAGES=0 runs its put + signal form)
 * sshmem-test-env: np=3,4 paths=tcp SSHMEM_COLL_MESSAGES=0
 */
#include <shmemx.h>

#include "check.h"
#include "mat2.h"

#define BIG 40000 /* doubles: more than one piece, many slot chunks */

static int me, npes;

/* PE p's k-th matrix: products of these do not commute. */
static mat2 mat_of(int p, int k) { return (mat2){p + 1 + k, 1, 1, k % 2}; }

/* A commutative user operator: sum of the first field, max of the second. */
typedef struct {
    long sum;
    long max;
} summax;
static void summax_fn(void *invec, void *inoutvec, int *len, shmemx_datatype_t *type)
{
    summax *x = invec, *y = inoutvec;
    for (int i = 0; i < *len; i++) {
        y[i].sum += x[i].sum;
        y[i].max = x[i].max > y[i].max ? x[i].max : y[i].max;
    }
}

static void sums(void)
{
    double *src = malloc(BIG * sizeof *src), *dst = malloc(BIG * sizeof *dst);
    for (int i = 0; i < BIG; i++)
        src[i] = me + i;
    shmemx_allreduce(SHMEM_TEAM_WORLD, dst, src, BIG, SHMEMX_DOUBLE, SHMEMX_SUM);
    for (int i = 0; i < BIG; i++)
        CHECK(dst[i] == (double)npes * i + npes * (npes - 1) / 2, "allreduce sum [%d] = %g", i,
              dst[i]);
    /* in place, integers, PROD */
    int v[3] = {me + 1, 2, -1};
    shmemx_allreduce(SHMEM_TEAM_WORLD, v, v, 3, SHMEMX_INT, SHMEMX_PROD);
    long fact = 1;
    for (int p = 1; p <= npes; p++)
        fact *= p;
    CHECK_EQ_LONG(v[0], fact, "in-place prod");
    CHECK_EQ_LONG(v[1], 1L << npes, "in-place prod 2^n");
    CHECK_EQ_LONG(v[2], npes % 2 ? -1 : 1, "in-place prod of -1");
    /* reduce to every root; other PEs' dest untouched */
    for (int root = 0; root < npes; root++) {
        long s[5], d[5];
        for (int i = 0; i < 5; i++) {
            s[i] = (long)(me + 1) << i;
            d[i] = -7;
        }
        shmemx_reduce(SHMEM_TEAM_WORLD, d, s, 5, SHMEMX_LONG, SHMEMX_MAX, root);
        for (int i = 0; i < 5; i++)
            CHECK_EQ_LONG(d[i], me == root ? (long)npes << i : -7, "reduce max to root");
    }
    free(src);
    free(dst);
}

/* Value and index of PE p's element i: ties on purpose, indices not in PE order. */
static double loc_value(int p, int i) { return (double)((p * 7 + i) % 3); }
static int loc_index(int p, int i) { return (p * 5 + i * 3) % 11; }

static void locs(void)
{
    enum { K = 12 };
    shmemx_double_int_t src[K], mx[K], mn[K];
    for (int i = 0; i < K; i++)
        src[i] = (shmemx_double_int_t){loc_value(me, i), loc_index(me, i)};
    shmemx_allreduce(SHMEM_TEAM_WORLD, mx, src, K, SHMEMX_DOUBLE_INT, SHMEMX_MAXLOC);
    shmemx_reduce(SHMEM_TEAM_WORLD, mn, src, K, SHMEMX_DOUBLE_INT, SHMEMX_MINLOC, npes - 1);
    for (int i = 0; i < K; i++) {
        double best = loc_value(0, i), worst = best;
        int bi = loc_index(0, i), wi = bi;
        for (int p = 1; p < npes; p++) {
            double v = loc_value(p, i);
            int x = loc_index(p, i);
            if (v > best || (v == best && x < bi))
                best = v, bi = x;
            if (v < worst || (v == worst && x < wi))
                worst = v, wi = x;
        }
        CHECK(mx[i].value == best && mx[i].index == bi, "maxloc [%d] = (%g,%d), want (%g,%d)",
              i, mx[i].value, mx[i].index, best, bi);
        if (me == npes - 1)
            CHECK(mn[i].value == worst && mn[i].index == wi,
                  "minloc [%d] = (%g,%d), want (%g,%d)", i, mn[i].value, mn[i].index, worst, wi);
    }
}

/* SUM on a column of a 4x4 matrix: only the column changes. */
static void column_sum(void)
{
    int m[4][4], r[4][4];
    shmemx_datatype_t col;
    shmemx_type_vector(4, 1, 4, SHMEMX_INT, &col);
    shmemx_type_commit(&col);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            m[i][j] = me * 100 + i * 4 + j;
            r[i][j] = -1;
        }
    shmemx_allreduce(SHMEM_TEAM_WORLD, &r[0][2], &m[0][2], 1, col, SHMEMX_SUM);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            CHECK_EQ_LONG(r[i][j], j == 2 ? 100 * npes * (npes - 1) / 2 + npes * (i * 4 + j) : -1,
                          "column sum");
    shmemx_type_free(&col);
}

static void check_product(const char *what, const mat2 *got, size_t stride, int k_count)
{
    for (int k = 0; k < k_count; k++) {
        mat2 want = mat_of(0, k);
        for (int p = 1; p < npes; p++)
            want = mul(want, mat_of(p, k));
        const mat2 *g = (const mat2 *)((const char *)got + k * stride);
        CHECK(g->a == want.a && g->b == want.b && g->c == want.c && g->d == want.d,
              "%s [%d] = [%g %g; %g %g], want [%g %g; %g %g]", what, k, g->a, g->b, g->c, g->d,
              want.a, want.b, want.c, want.d);
    }
}

/* x0 x1 ... x(n-1) in that order, contiguous and with gaps, to root 0 and to the last PE. */
static void noncommutative(void)
{
    enum { K = 3 };
    shmemx_op_t op;
    shmemx_datatype_t m2, m2gap;
    shmemx_op_create(matmul, 0, &op);
    shmemx_type_contiguous(4, SHMEMX_DOUBLE, &m2);
    shmemx_type_create_resized(m2, 0, 5 * sizeof(double), &m2gap); /* a 5th double: a gap */
    shmemx_type_commit(&m2);
    shmemx_type_commit(&m2gap);
    mat2 src[K], dst[K];
    for (int k = 0; k < K; k++)
        src[k] = mat_of(me, k);
    shmemx_allreduce(SHMEM_TEAM_WORLD, dst, src, K, m2, op);
    check_product("allreduce matmul", dst, sizeof(mat2), K);
    int root = npes - 1;
    memset(dst, 0, sizeof dst);
    shmemx_reduce(SHMEM_TEAM_WORLD, dst, src, K, m2, op, root);
    if (me == root)
        check_product("reduce matmul to last PE", dst, sizeof(mat2), K);
    double gsrc[K * 5], gdst[K * 5];
    for (int k = 0; k < K; k++) {
        memcpy(&gsrc[k * 5], &src[k], sizeof(mat2));
        gsrc[k * 5 + 4] = 1234;
        gdst[k * 5 + 4] = -99;
    }
    shmemx_allreduce(SHMEM_TEAM_WORLD, gdst, gsrc, K, m2gap, op);
    check_product("allreduce matmul with gaps", (mat2 *)gdst, 5 * sizeof(double), K);
    for (int k = 0; k < K; k++)
        CHECK(gdst[k * 5 + 4] == -99, "gap %d written: %g", k, gdst[k * 5 + 4]);
    shmemx_op_free(&op);
    shmemx_type_free(&m2);
    shmemx_type_free(&m2gap);
}

/* 2x2 integer matrices modulo a prime: exact, associative, not commutative. */
#define PRIME 10007
typedef struct {
    long a, b, c, d;
} imat;

static imat imul(imat x, imat y)
{
    return (imat){(x.a * y.a + x.b * y.c) % PRIME, (x.a * y.b + x.b * y.d) % PRIME,
                  (x.c * y.a + x.d * y.c) % PRIME, (x.c * y.b + x.d * y.d) % PRIME};
}

static imat imat_of(int p, int k) { return (imat){(p + k) % 7 + 1, k % 5, (p * k) % 3, 1}; }

static int chunk_calls;
static void imatmul(void *invec, void *inoutvec, int *len, shmemx_datatype_t *type)
{
    ptrdiff_t lb, ext;
    shmemx_type_get_extent(*type, &lb, &ext);
    chunk_calls++;
    for (int i = 0; i < *len; i++) {
        imat *x = (imat *)((char *)invec + i * ext), *y = (imat *)((char *)inoutvec + i * ext);
        *y = imul(*x, *y);
    }
}

/* Many elements of a type with gaps: the operator is called on chunks, order kept. */
static void noncommutative_many(void)
{
    enum { K = 20000, STRIDE = 5 };
    shmemx_op_t op;
    shmemx_datatype_t m, mgap;
    shmemx_op_create(imatmul, 0, &op);
    shmemx_type_contiguous(4, SHMEMX_LONG, &m);
    shmemx_type_create_resized(m, 0, STRIDE * sizeof(long), &mgap);
    shmemx_type_commit(&mgap);
    long *src = malloc(K * STRIDE * sizeof *src), *dst = malloc(K * STRIDE * sizeof *dst);
    for (int k = 0; k < K; k++) {
        *(imat *)&src[k * STRIDE] = imat_of(me, k);
        src[k * STRIDE + 4] = 5;
        dst[k * STRIDE + 4] = -5;
    }
    chunk_calls = 0;
    shmemx_allreduce(SHMEM_TEAM_WORLD, dst, src, K, mgap, op);
    int bad = 0;
    for (int k = 0; k < K && bad < 5; k++) {
        imat want = imat_of(0, k);
        for (int p = 1; p < npes; p++)
            want = imul(want, imat_of(p, k));
        const imat *g = (const imat *)&dst[k * STRIDE];
        int ok = g->a == want.a && g->b == want.b && g->c == want.c && g->d == want.d &&
                 dst[k * STRIDE + 4] == -5;
        bad += !ok;
        CHECK(ok, "many: element %d = [%ld %ld; %ld %ld], want [%ld %ld; %ld %ld]", k, g->a, g->b,
              g->c, g->d, want.a, want.b, want.c, want.d);
    }
    if (npes > 1 && me == 0)
        CHECK(chunk_calls > 1, "the operator saw all %d elements in one call", K);
    free(src);
    free(dst);
    shmemx_op_free(&op);
    shmemx_type_free(&m);
    shmemx_type_free(&mgap);
}

static void commutative_user(void)
{
    shmemx_op_t op;
    shmemx_datatype_t t;
    shmemx_type_contiguous(2, SHMEMX_LONG, &t);
    shmemx_type_commit(&t);
    shmemx_op_create(summax_fn, 1, &op);
    summax s[2] = {{me, me * 3 % 5}, {1, -me}}, d[2] = {{-1, -1}, {-1, -1}};
    int root = npes / 2;
    shmemx_reduce(SHMEM_TEAM_WORLD, d, s, 2, t, op, root);
    long mx = 0;
    for (int p = 0; p < npes; p++)
        mx = p * 3 % 5 > mx ? p * 3 % 5 : mx;
    if (me == root) {
        CHECK_EQ_LONG(d[0].sum, npes * (npes - 1) / 2, "summax sum");
        CHECK_EQ_LONG(d[0].max, mx, "summax max");
        CHECK_EQ_LONG(d[1].sum, npes, "summax sum 2");
        CHECK_EQ_LONG(d[1].max, 0, "summax max 2");
    } else {
        CHECK(d[0].sum == -1 && d[1].max == -1, "non-root dest written");
    }
    shmemx_op_free(&op);
    shmemx_type_free(&t);
}

/* A commutative user operator over many symmetric elements (on shared memory each PE combines
 * its slice into the root's stage), to each end root; every element checked on the root,
 * non-roots' dest untouched. */
static void commutative_many(void)
{
    enum { K = 3 * 256 + 17 }; /* 16-byte elements: slices of odd lengths */
    shmemx_op_t op;
    shmemx_datatype_t t;
    shmemx_type_contiguous(2, SHMEMX_LONG, &t);
    shmemx_type_commit(&t);
    shmemx_op_create(summax_fn, 1, &op);
    summax *s = shmem_malloc(K * sizeof *s), *d = shmem_malloc(K * sizeof *d);
    for (int k = 0; k < K; k++) {
        s[k] = (summax){me * 1000 + k, (me * 7 + k) % 13};
        d[k] = (summax){-1, -1};
    }
    for (int root = 0; root < npes; root += npes > 2 ? npes - 1 : 1) {
        shmemx_reduce(SHMEM_TEAM_WORLD, d, s, K, t, op, root);
        int bad = 0;
        for (int k = 0; k < K && bad < 5; k++) {
            long sum = 0, mx = -1;
            for (int p = 0; p < npes; p++) {
                sum += p * 1000 + k;
                mx = (p * 7 + k) % 13 > mx ? (p * 7 + k) % 13 : mx;
            }
            int ok = me == root ? d[k].sum == sum && d[k].max == mx
                                : d[k].sum == -1 && d[k].max == -1;
            bad += !ok;
            CHECK(ok, "commutative many, root %d: element %d = {%ld, %ld}, want {%ld, %ld}", root,
                  k, d[k].sum, d[k].max, me == root ? sum : -1, me == root ? mx : -1);
        }
        for (int k = 0; k < K; k++)
            d[k] = (summax){-1, -1};
        shmem_barrier_all();
    }
    shmem_free(d);
    shmem_free(s);
    shmemx_op_free(&op);
    shmemx_type_free(&t);
}

/* Elements larger than the operator's piece buffer (4 KiB; 150 matrices, 4,800 bytes, within
 * the work buffer of the paths without shared memory): the non-commutative operator's copy
 * of an operand takes a buffer of its own; order kept. */
enum { BIG_ELEM = 150 };
static void imatmul_rows(void *invec, void *inoutvec, int *len, shmemx_datatype_t *type)
{
    imat *x = invec, *y = inoutvec;
    for (int i = 0; i < *len * BIG_ELEM; i++)
        y[i] = imul(x[i], y[i]);
}

/* dst holds x0 ... x(n-1) of matrices 0 .. count-1 (want_result), or is untouched (-1). */
static void check_big(const char *what, const imat *dst, int count, int want_result)
{
    int bad = 0;
    for (int k = 0; k < count && bad < 5; k++) {
        imat want = {-1, -1, -1, -1};
        if (want_result) {
            want = imat_of(0, k);
            for (int p = 1; p < npes; p++)
                want = imul(want, imat_of(p, k));
        }
        const imat *g = &dst[k];
        int ok = g->a == want.a && g->b == want.b && g->c == want.c && g->d == want.d;
        bad += !ok;
        CHECK(ok, "%s: matrix %d = [%ld %ld; %ld %ld], want [%ld %ld; %ld %ld]", what, k,
              g->a, g->b, g->c, g->d, want.a, want.b, want.c, want.d);
    }
}

/* Also rooted, symmetric and above the gathered size (the staged engine reduction to a root
 * on shared memory): the order kept on the root, the others' dest untouched. */
static void noncommutative_big_elements(void)
{
    enum { K = 3 };
    shmemx_op_t op;
    shmemx_datatype_t m;
    shmemx_op_create(imatmul_rows, 0, &op);
    shmemx_type_contiguous(4 * BIG_ELEM, SHMEMX_LONG, &m);
    shmemx_type_commit(&m);
    imat *src = shmem_malloc(K * BIG_ELEM * sizeof *src);
    imat *dst = shmem_malloc(K * BIG_ELEM * sizeof *dst);
    for (int k = 0; k < K * BIG_ELEM; k++)
        src[k] = imat_of(me, k);
    shmemx_allreduce(SHMEM_TEAM_WORLD, dst, src, K, m, op);
    check_big("big elements", dst, K * BIG_ELEM, 1);
    for (int root = 0; root < npes; root += npes > 2 ? npes - 1 : 1) {
        for (int k = 0; k < K * BIG_ELEM; k++)
            dst[k] = (imat){-1, -1, -1, -1};
        shmem_barrier_all();
        shmemx_reduce(SHMEM_TEAM_WORLD, dst, src, K, m, op, root);
        check_big(me == root ? "big elements to the root" : "big elements, not the root", dst,
                  K * BIG_ELEM, me == root);
        shmem_barrier_all();
    }
    shmem_free(dst);
    shmem_free(src);
    shmemx_op_free(&op);
    shmemx_type_free(&m);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    sums();
    locs();
    column_sum();
    noncommutative();
    noncommutative_many();
    commutative_user();
    commutative_many();
    noncommutative_big_elements();
    /* nothing to do: returns at once everywhere */
    CHECK_EQ_LONG(shmemx_allreduce(SHMEM_TEAM_WORLD, NULL, NULL, 0, SHMEMX_INT, SHMEMX_SUM), 0,
                  "count 0");
    return check_finish();
}
