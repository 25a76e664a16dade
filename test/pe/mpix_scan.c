/*
 * mpix_scan.c: shmemx_scan and shmemx_exscan give every PE its exact prefix: SUM over many
 * elements (several pieces), MAXLOC with ties, a non-commutative user operator (prefix
 * products of 2x2 matrices in PE order) on a type with gaps; exscan leaves PE 0's dest alone.
 */
#include <shmemx.h>

#include "check.h"
#include "mat2.h"

#define BIG 40000

static int me, npes;

static mat2 mat_of(int p, int k) { return (mat2){1, p + k, 1, p % 3}; }

static void sums(void)
{
    long *src = malloc(BIG * sizeof *src), *in = malloc(BIG * sizeof *in),
         *ex = malloc(BIG * sizeof *ex);
    for (int i = 0; i < BIG; i++) {
        src[i] = (long)(me + 1) * (i + 1);
        ex[i] = -5;
    }
    shmemx_scan(SHMEM_TEAM_WORLD, in, src, BIG, SHMEMX_LONG, SHMEMX_SUM);
    shmemx_exscan(SHMEM_TEAM_WORLD, ex, src, BIG, SHMEMX_LONG, SHMEMX_SUM);
    long tri = (long)(me + 1) * (me + 2) / 2, tri_ex = (long)me * (me + 1) / 2;
    int bad = 0;
    for (int i = 0; i < BIG && bad < 5; i++) {
        long want = me == 0 ? -5 : tri_ex * (i + 1);
        bad += in[i] != tri * (i + 1) || ex[i] != want;
        CHECK(in[i] == tri * (i + 1), "scan [%d] = %ld, want %ld", i, in[i], tri * (i + 1));
        CHECK(ex[i] == want, "exscan [%d] = %ld, want %ld", i, ex[i], want);
    }
    /* in place */
    int v[2] = {1, me};
    shmemx_scan(SHMEM_TEAM_WORLD, v, v, 2, SHMEMX_INT, SHMEMX_SUM);
    CHECK_EQ_LONG(v[0], me + 1, "in-place scan");
    CHECK_EQ_LONG(v[1], me * (me + 1) / 2, "in-place scan 2");
    free(src);
    free(in);
    free(ex);
}

static void locs(void)
{
    shmemx_2int_t src[4], dst[4];
    for (int k = 0; k < 4; k++)
        src[k] = (shmemx_2int_t){(me + k) % 3, 50 - me};
    shmemx_scan(SHMEM_TEAM_WORLD, dst, src, 4, SHMEMX_2INT, SHMEMX_MAXLOC);
    for (int k = 0; k < 4; k++) {
        int best = -1, bi = 0;
        for (int p = 0; p <= me; p++) {
            int v = (p + k) % 3, x = 50 - p;
            if (v > best || (v == best && x < bi))
                best = v, bi = x;
        }
        CHECK(dst[k].value == best && dst[k].index == bi, "scan maxloc [%d] = (%d,%d) want "
              "(%d,%d)", k, dst[k].value, dst[k].index, best, bi);
    }
}

static void prefix_products(void)
{
    enum { K = 3, STRIDE = 6 }; /* each matrix followed by two doubles of gap */
    shmemx_op_t op;
    shmemx_datatype_t m2, m2gap;
    shmemx_op_create(matmul, 0, &op);
    shmemx_type_contiguous(4, SHMEMX_DOUBLE, &m2);
    shmemx_type_create_resized(m2, 0, STRIDE * sizeof(double), &m2gap);
    shmemx_type_commit(&m2gap);
    double src[K * STRIDE], in[K * STRIDE], ex[K * STRIDE];
    for (int k = 0; k < K; k++) {
        *(mat2 *)&src[k * STRIDE] = mat_of(me, k);
        for (int g = 4; g < STRIDE; g++)
            src[k * STRIDE + g] = 77, in[k * STRIDE + g] = ex[k * STRIDE + g] = -3;
        *(mat2 *)&ex[k * STRIDE] = (mat2){-1, -1, -1, -1};
    }
    shmemx_scan(SHMEM_TEAM_WORLD, in, src, K, m2gap, op);
    shmemx_exscan(SHMEM_TEAM_WORLD, ex, src, K, m2gap, op);
    for (int k = 0; k < K; k++) {
        mat2 want = mat_of(0, k), want_ex = want;
        for (int p = 1; p <= me; p++) {
            want_ex = want;
            want = mul(want, mat_of(p, k));
        }
        const mat2 *g = (const mat2 *)&in[k * STRIDE], *e = (const mat2 *)&ex[k * STRIDE];
        CHECK(g->a == want.a && g->b == want.b && g->c == want.c && g->d == want.d,
              "scan product [%d] = [%g %g; %g %g]", k, g->a, g->b, g->c, g->d);
        if (me == 0)
            CHECK(e->a == -1 && e->d == -1, "exscan wrote PE 0's dest");
        else
            CHECK(e->a == want_ex.a && e->b == want_ex.b && e->c == want_ex.c &&
                      e->d == want_ex.d,
                  "exscan product [%d] = [%g %g; %g %g]", k, e->a, e->b, e->c, e->d);
        for (int g2 = 4; g2 < STRIDE; g2++)
            CHECK(in[k * STRIDE + g2] == -3 && ex[k * STRIDE + g2] == -3, "gap written");
    }
    shmemx_op_free(&op);
    shmemx_type_free(&m2);
    shmemx_type_free(&m2gap);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    sums();
    locs();
    prefix_products();
    return check_finish();
}
