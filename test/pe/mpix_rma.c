/*
 * mpix_rma.c: typed RMA (shmemx_put_type, shmemx_get_type, _nbi and ctx forms) moves exactly
 * the type's elements with the same layout remotely, on the heap and on globals: a matrix
 * column, several columns at once (resized column type), a sub-block, a transpose (pack with
 * a column type, then a contiguous put), fields of an array of structs, padded pairs; every
 * other byte of the target stays untouched. Mistakes return an error and move nothing.
 */
#include <shmemx.h>

#include "check.h"

#define N 6
#define V(pe, i, j) ((double)((pe) * 1000 + (i) * N + (j)))

static double gmat[N][N]; /* a global: symmetric too */

struct rec {
    char tag;
    double x;
    int n[3];
};
static struct rec grec[5];

static int me, npes, right, left;

static void fill(double (*m)[N], double v)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            m[i][j] = v;
}

static void mine(double (*m)[N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            m[i][j] = V(me, i, j);
}

/* A column put into the right neighbour, then a column get back from it. */
static void columns(double (*target)[N], shmemx_datatype_t col, const char *where)
{
    double local[N][N], got[N][N];
    mine(local);
    fill(target, -1);
    shmem_barrier_all();
    int c = me % N, cl = left % N; /* right's column c holds my values */
    CHECK_EQ_LONG(shmemx_put_type(&target[0][c], &local[0][c], 1, col, right), 0, "put_type rc");
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(target[i][j] == (j == cl ? V(left, i, j) : -1), "%s column put [%d][%d] = %g",
                  where, i, j, target[i][j]);
    fill(got, -2);
    CHECK_EQ_LONG(shmemx_get_type(&got[0][c], &target[0][c], 1, col, right), 0, "get rc");
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(got[i][j] == (j == c ? V(me, i, j) : -2), "%s column get [%d][%d] = %g", where,
                  i, j, got[i][j]);
    shmem_barrier_all();
}

/* Columns 1..3 at once (count 3 of a column resized to one double), non-blocking. */
static void many_columns_nbi(double (*target)[N], shmemx_datatype_t colr)
{
    double local[N][N];
    mine(local);
    fill(target, -1);
    shmem_barrier_all();
    shmemx_put_type_nbi(&target[0][1], &local[0][1], 3, colr, right);
    shmem_quiet();
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(target[i][j] == (j >= 1 && j <= 3 ? V(left, i, j) : -1),
                  "nbi columns [%d][%d] = %g", i, j, target[i][j]);
    double got[N][N];
    fill(got, -2);
    shmemx_ctx_get_type_nbi(SHMEM_CTX_DEFAULT, &got[0][2], &target[0][2], 2, colr, left);
    shmem_quiet();
    int ll = (left - 1 + npes) % npes; /* whose values the left neighbour holds */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(got[i][j] == (j == 2 || j == 3 ? V(ll, i, j) : -2), "get_nbi [%d][%d] = %g", i,
                  j, got[i][j]);
    shmem_barrier_all();
}

/* A 3x4 sub-block at (1,2), and a transpose: pack by columns, put contiguously. */
static void block_and_transpose(double (*target)[N], shmemx_datatype_t colr)
{
    double local[N][N], packed[N * N];
    shmemx_datatype_t block;
    shmemx_type_vector(3, 4, N, SHMEMX_DOUBLE, &block);
    shmemx_type_commit(&block);
    mine(local);
    fill(target, -1);
    shmem_barrier_all();
    shmemx_ctx_put_type(SHMEM_CTX_DEFAULT, &target[1][2], &local[1][2], 1, block, right);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(target[i][j] == (i >= 1 && i <= 3 && j >= 2 ? V(left, i, j) : -1),
                  "block [%d][%d] = %g", i, j, target[i][j]);
    shmem_barrier_all();
    size_t pos = 0;
    shmemx_pack(local, N, colr, packed, sizeof packed, &pos);
    CHECK_EQ_LONG(pos, sizeof packed, "pack position");
    shmemx_put_type(target, packed, N * N, SHMEMX_DOUBLE, right);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(target[i][j] == V(left, j, i), "transpose [%d][%d] = %g", i, j, target[i][j]);
    shmemx_type_free(&block);
    shmem_barrier_all();
}

/* Only the x and n[1] fields of an array of 5 structs. */
static void struct_fields(struct rec *target)
{
    shmemx_datatype_t fields, rec;
    int bl[2] = {1, 1};
    ptrdiff_t d[2] = {offsetof(struct rec, x), offsetof(struct rec, n[1])};
    shmemx_datatype_t ty[2] = {SHMEMX_DOUBLE, SHMEMX_INT};
    shmemx_type_create_struct(2, bl, d, ty, &fields);
    shmemx_type_create_resized(fields, 0, sizeof(struct rec), &rec);
    shmemx_type_commit(&rec);
    struct rec local[5];
    for (int k = 0; k < 5; k++)
        local[k] = (struct rec){'a', me + k * 0.5, {me, 10 * me + k, -me}};
    memset(target, 0, 5 * sizeof *target);
    shmem_barrier_all();
    shmemx_put_type(target, local, 5, rec, right);
    shmem_barrier_all();
    for (int k = 0; k < 5; k++) {
        CHECK(target[k].tag == 0 && target[k].n[0] == 0 && target[k].n[2] == 0,
              "struct %d: untouched fields written", k);
        CHECK(target[k].x == left + k * 0.5, "struct %d x = %g", k, target[k].x);
        CHECK_EQ_LONG(target[k].n[1], 10 * left + k, "struct n[1]");
    }
    shmemx_type_free(&fields);
    shmemx_type_free(&rec);
    shmem_barrier_all();
}

/* Pairs with padding: value and index arrive, the padding bytes are not written. */
static void pairs(void)
{
    shmemx_double_int_t *t = shmem_malloc(4 * sizeof *t);
    shmemx_double_int_t local[4];
    memset(t, 0xab, 4 * sizeof *t);
    for (int k = 0; k < 4; k++)
        local[k] = (shmemx_double_int_t){me * 1.5 + k, me * 10 + k};
    shmem_barrier_all();
    shmemx_put_type(t, local, 4, SHMEMX_DOUBLE_INT, right);
    shmem_barrier_all();
    for (int k = 0; k < 4; k++) {
        CHECK(t[k].value == left * 1.5 + k, "pair %d value %g", k, t[k].value);
        CHECK_EQ_LONG(t[k].index, left * 10 + k, "pair index");
        if (sizeof t[k] > sizeof(double) + sizeof(int))
            CHECK(((unsigned char *)&t[k])[sizeof(double) + sizeof(int)] == 0xab,
                  "pair %d padding written", k);
    }
    shmem_barrier_all();
    shmem_free(t);
}

static void mistakes(double (*target)[N])
{
    shmemx_datatype_t open;
    double local[N][N];
    mine(local);
    fill(target, -1);
    shmemx_type_vector(2, 1, 2, SHMEMX_DOUBLE, &open); /* not committed */
    shmem_barrier_all();
    CHECK_EQ_LONG(shmemx_put_type(target, local, 1, open, right), SHMEMX_ERR_TYPE, "uncommitted");
    CHECK_EQ_LONG(shmemx_get_type(local, target, 1, SHMEMX_DATATYPE_NULL, right),
                  SHMEMX_ERR_TYPE, "null type");
    CHECK_EQ_LONG(shmemx_put_type(target, local, 0, SHMEMX_DOUBLE, right), 0, "count 0");
    CHECK_EQ_LONG(shmemx_ctx_put_type(SHMEM_CTX_INVALID, target, local, 1, SHMEMX_DOUBLE, right),
                  SHMEMX_ERR_ARG, "invalid ctx");
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            CHECK(target[i][j] == -1, "a refused put wrote [%d][%d]", i, j);
    shmemx_type_free(&open);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me - 1 + npes) % npes;
    double (*hmat)[N] = shmem_malloc(sizeof(double[N][N]));
    struct rec *hrec = shmem_malloc(5 * sizeof *hrec);
    shmemx_datatype_t col, colr;
    shmemx_type_vector(N, 1, N, SHMEMX_DOUBLE, &col);
    shmemx_type_create_resized(col, 0, sizeof(double), &colr);
    shmemx_type_commit(&col);
    shmemx_type_commit(&colr);

    columns(hmat, col, "heap");
    columns(gmat, col, "global");
    many_columns_nbi(hmat, colr);
    many_columns_nbi(gmat, colr);
    block_and_transpose(hmat, colr);
    block_and_transpose(gmat, colr);
    struct_fields(hrec);
    struct_fields(grec);
    pairs();
    mistakes(hmat);

    shmemx_type_free(&col);
    shmemx_type_free(&colr);
    shmem_free(hrec);
    shmem_free(hmat);
    return check_finish();
}
