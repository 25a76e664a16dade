/*
 * test_mpix_datatype.c: datatype constructors and queries give exactly MPI's sizes, lower
 * bounds, extents and true extents (examples from the MPI standard's datatype chapter among
 * them), keep their representation compact, and refuse bad arguments with clear messages.
 */
#include "test_mpix.h"

#include "datatype/datatype.h"

#define I ((ptrdiff_t)sizeof(int))
#define D ((ptrdiff_t)sizeof(double))

static void predefined_basic(void **state)
{
#define CHECK_BASIC_(CT, NAME, L, CAT) ASSERT_BOUNDS(SHMEMX_##NAME, sizeof(CT), 0, sizeof(CT), 0, sizeof(CT));
    SHMEMX_BASIC_TYPES(CHECK_BASIC_)
    assert_ptr_equal(SHMEMX_LONG_LONG_INT, SHMEMX_LONG_LONG);
}

/* Pairs are laid out as the C struct {value; int index;}, padding included. */
static void predefined_pairs(void **state)
{
#define CHECK_PAIR_(VT, NAME, L)                                                                 \
    ASSERT_BOUNDS(SHMEMX_##NAME, sizeof(VT) + sizeof(int), 0, sizeof(shmemx_##L##_t), 0,         \
                  offsetof(shmemx_##L##_t, index) + sizeof(int));
    SHMEMX_PAIR_TYPES(CHECK_PAIR_)
    /* The MPI standard's numbers on x86-64: DOUBLE_INT size 12, extent 16. */
    ASSERT_BOUNDS(SHMEMX_DOUBLE_INT, 12, 0, 16, 0, 12);
    ASSERT_BOUNDS(SHMEMX_SHORT_INT, 6, 0, 8, 0, 8);
    ASSERT_BOUNDS(SHMEMX_2INT, 8, 0, 8, 0, 8);
}

static void contiguous(void **state)
{
    shmemx_datatype_t t;
    assert_int_equal(shmemx_type_contiguous(5, SHMEMX_INT, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 5 * I, 0, 5 * I, 0, 5 * I);
    assert_int_equal(t->nsegs, 1);
    assert_int_equal(shmemx_type_commit(&t), SHMEMX_SUCCESS);
    assert_true(t->flags & MPIX_CONTIG);
    assert_int_equal(shmemx_type_free(&t), SHMEMX_SUCCESS);
    assert_null(t);
    /* A huge count costs nothing: one segment. */
    assert_int_equal(shmemx_type_contiguous(100000000, SHMEMX_DOUBLE, &t), SHMEMX_SUCCESS);
    assert_int_equal(t->nsegs, 1);
    ASSERT_BOUNDS(t, 100000000 * D, 0, 100000000 * D, 0, 100000000 * D);
    shmemx_type_free(&t);
    assert_int_equal(shmemx_type_contiguous(0, SHMEMX_INT, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 0, 0, 0, 0, 0);
    shmemx_type_free(&t);
}

static void vector(void **state)
{
    shmemx_datatype_t t;
    /* The extent ends at the last element, not at the full stride. */
    assert_int_equal(shmemx_type_vector(3, 2, 4, SHMEMX_INT, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 6 * I, 0, 10 * I, 0, 10 * I);
    assert_int_equal(t->nsegs, 1); /* one strided segment */
    assert_int_equal(shmemx_type_commit(&t), SHMEMX_SUCCESS);
    assert_false(t->flags & MPIX_CONTIG);
    /* its plan: one piece, one loop of 3 runs of 2 ints, 4 ints apart */
    assert_int_equal(t->plan.npieces, 1);
    assert_int_equal(t->plan.pieces[0].run, 2 * I);
    assert_int_equal(t->plan.pieces[0].depth, 1);
    assert_int_equal(t->plan.pieces[0].loop[0].count, 3);
    assert_int_equal(t->plan.pieces[0].loop[0].stride, 4 * I);
    shmemx_type_free(&t);
    /* Negative stride: blocks go downwards, lb is negative. */
    assert_int_equal(shmemx_type_vector(3, 1, -2, SHMEMX_INT, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 3 * I, -4 * I, 5 * I, -4 * I, 5 * I);
    shmemx_type_free(&t);
    /* Stride equal to the block length: contiguous after all. */
    assert_int_equal(shmemx_type_vector(4, 2, 2, SHMEMX_INT, &t), SHMEMX_SUCCESS);
    shmemx_type_commit(&t);
    assert_true(t->flags & MPIX_CONTIG);
    shmemx_type_free(&t);
}

/* MPI standard, type {(double,0),(char,8)} of extent 16 as the old type. */
static shmemx_datatype_t double_char(void)
{
    shmemx_datatype_t t;
    int bl[2] = {1, 1};
    ptrdiff_t disp[2] = {0, 8};
    shmemx_datatype_t types[2] = {SHMEMX_DOUBLE, SHMEMX_CHAR};
    assert_int_equal(shmemx_type_create_struct(2, bl, disp, types, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 9, 0, 16, 0, 9); /* padded to the double's alignment */
    return t;
}

static void mpi_standard_examples(void **state)
{
    shmemx_datatype_t old = double_char(), t;
    /* MPI_TYPE_VECTOR(2, 3, 4, oldtype): blocks at 0 and 64, each 3 elements. */
    assert_int_equal(shmemx_type_vector(2, 3, 4, old, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 6 * 9, 0, 112, 0, 64 + 32 + 9);
    shmemx_type_free(&t);
    /* hvector(2, 3, 4 bytes): the two blocks overlap, which a type may do (not a receive). */
    assert_int_equal(shmemx_type_create_hvector(2, 3, 4, old, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 6 * 9, 0, 4 + 48, 0, 4 + 32 + 9);
    shmemx_type_free(&t);
    /* MPI_TYPE_INDEXED(2, B=(3,1), D=(4,0), oldtype). */
    int b[2] = {3, 1}, d[2] = {4, 0};
    assert_int_equal(shmemx_type_indexed(2, b, d, old, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 4 * 9, 0, 112, 0, 64 + 32 + 9);
    shmemx_type_free(&t);
    /* MPI_TYPE_CREATE_STRUCT(3, B=(2,1,3), D=(0,16,26), T=(FLOAT, type1, CHAR)). */
    int sb[3] = {2, 1, 3};
    ptrdiff_t sd[3] = {0, 16, 26};
    shmemx_datatype_t st[3] = {SHMEMX_FLOAT, old, SHMEMX_CHAR};
    assert_int_equal(shmemx_type_create_struct(3, sb, sd, st, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 8 + 9 + 3, 0, 32, 0, 29);
    shmemx_type_free(&t);
    shmemx_type_free(&old);
}

static void hvector_hindexed(void **state)
{
    shmemx_datatype_t t;
    assert_int_equal(shmemx_type_create_hvector(2, 3, 100, SHMEMX_DOUBLE, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 6 * D, 0, 100 + 3 * D, 0, 100 + 3 * D);
    shmemx_type_free(&t);
    int bl[3] = {2, 0, 1};
    ptrdiff_t disp[3] = {40, 0, -8};
    assert_int_equal(shmemx_type_create_hindexed(3, bl, disp, SHMEMX_INT, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 3 * I, -8, 40 + 2 * I + 8, -8, 40 + 2 * I + 8);
    shmemx_type_free(&t);
    int idisp[3] = {5, 1, 3};
    assert_int_equal(shmemx_type_create_indexed_block(3, 2, idisp, SHMEMX_SHORT, &t),
                     SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 12, 2, 12, 2, 12);
    shmemx_type_free(&t);
    ptrdiff_t bdisp[2] = {16, 0};
    assert_int_equal(shmemx_type_create_hindexed_block(2, 1, bdisp, SHMEMX_DOUBLE_INT, &t),
                     SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 24, 0, 32, 0, 28);
    shmemx_type_free(&t);
}

/* A struct type has the extent of the C struct it describes. */
static void struct_padding(void **state)
{
    struct a { int i; char c; };
    struct b { char c; double d; };
    struct c { double d; int i; short s; };
    shmemx_datatype_t t;
    int one[3] = {1, 1, 1};
    ptrdiff_t da[2] = {offsetof(struct a, i), offsetof(struct a, c)};
    shmemx_datatype_t ta[2] = {SHMEMX_INT, SHMEMX_CHAR};
    assert_int_equal(shmemx_type_create_struct(2, one, da, ta, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 5, 0, sizeof(struct a), 0, 5);
    shmemx_type_free(&t);
    ptrdiff_t db[2] = {offsetof(struct b, c), offsetof(struct b, d)};
    shmemx_datatype_t tb[2] = {SHMEMX_CHAR, SHMEMX_DOUBLE};
    assert_int_equal(shmemx_type_create_struct(2, one, db, tb, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 9, 0, sizeof(struct b), 0, sizeof(struct b));
    shmemx_type_free(&t);
    ptrdiff_t dc[3] = {offsetof(struct c, d), offsetof(struct c, i), offsetof(struct c, s)};
    shmemx_datatype_t tc[3] = {SHMEMX_DOUBLE, SHMEMX_INT, SHMEMX_SHORT};
    assert_int_equal(shmemx_type_create_struct(3, one, dc, tc, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, 14, 0, sizeof(struct c), 0, 14);
    shmemx_type_free(&t);
}

static void resized(void **state)
{
    shmemx_datatype_t t, u, col, cols;
    assert_int_equal(shmemx_type_create_resized(SHMEMX_INT, -4, 16, &t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(t, I, -4, 16, 0, I);
    /* contiguous of a resized type: elements 16 bytes apart. */
    assert_int_equal(shmemx_type_contiguous(3, t, &u), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(u, 3 * I, -4, 48, 0, 32 + I);
    shmemx_type_free(&u);
    /* Markers are sticky: a struct of the resized type and an int far away keeps lb, ub. */
    int bl[2] = {1, 1};
    ptrdiff_t disp[2] = {0, 100};
    shmemx_datatype_t types[2] = {t, SHMEMX_INT};
    assert_int_equal(shmemx_type_create_struct(2, bl, disp, types, &u), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(u, 2 * I, -4, 16, 0, 100 + I);
    shmemx_type_free(&u);
    shmemx_type_free(&t);
    /* The matrix column idiom: an N x N column resized to one double steps column by column. */
    enum { N = 5 };
    assert_int_equal(shmemx_type_vector(N, 1, N, SHMEMX_DOUBLE, &col), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(col, N * D, 0, ((N - 1) * N + 1) * D, 0, ((N - 1) * N + 1) * D);
    assert_int_equal(shmemx_type_create_resized(col, 0, D, &cols), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(cols, N * D, 0, D, 0, ((N - 1) * N + 1) * D);
    shmemx_type_free(&col);
    assert_int_equal(shmemx_type_commit(&cols), SHMEMX_SUCCESS);
    assert_false(cols->flags & MPIX_CONTIG);
    shmemx_type_free(&cols);
}

static void dup_commit_free(void **state)
{
    shmemx_datatype_t t, u, p = SHMEMX_INT;
    assert_int_equal(shmemx_type_vector(2, 1, 3, SHMEMX_FLOAT, &t), SHMEMX_SUCCESS);
    assert_int_equal(shmemx_type_commit(&t), SHMEMX_SUCCESS);
    assert_int_equal(shmemx_type_commit(&t), SHMEMX_SUCCESS); /* again: a no-op */
    assert_int_equal(shmemx_type_dup(t, &u), SHMEMX_SUCCESS);
    assert_true(u->flags & MPIX_COMMITTED);
    assert_int_equal(shmemx_type_free(&t), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(u, 8, 0, 16, 0, 16); /* independent of the freed original */
    assert_int_equal(shmemx_type_free(&u), SHMEMX_SUCCESS);
    assert_int_equal(shmemx_type_commit(&p), SHMEMX_SUCCESS); /* predefined: already committed */
    assert_int_equal(shmemx_type_dup(SHMEMX_DOUBLE_INT, &u), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(u, 12, 0, 16, 0, 12);
    assert_int_equal(shmemx_type_free(&u), SHMEMX_SUCCESS);
}

static void errors(void **state)
{
    shmemx_datatype_t t = SHMEMX_DATATYPE_NULL, p = SHMEMX_INT;
    forget_messages();
    assert_int_equal(shmemx_type_vector(-1, 1, 1, SHMEMX_INT, &t), SHMEMX_ERR_COUNT);
    MESSAGE_HAS("shmemx_type_vector", "count is -1", "0 or more");
    assert_int_equal(shmemx_type_vector(2, -3, 1, SHMEMX_INT, &t), SHMEMX_ERR_COUNT);
    MESSAGE_HAS("blocklength is -3");
    assert_int_equal(shmemx_type_contiguous(2, SHMEMX_DATATYPE_NULL, &t), SHMEMX_ERR_TYPE);
    MESSAGE_HAS("shmemx_type_contiguous", "oldtype is SHMEMX_DATATYPE_NULL");
    assert_int_equal(shmemx_type_contiguous(2, SHMEMX_INT, NULL), SHMEMX_ERR_ARG);
    MESSAGE_HAS("newtype is NULL");
    int bl[2] = {1, -1}, d[2] = {0, 1};
    assert_int_equal(shmemx_type_indexed(2, bl, d, SHMEMX_INT, &t), SHMEMX_ERR_COUNT);
    MESSAGE_HAS("shmemx_type_indexed", "blocklengths[1] is -1");
    assert_int_equal(shmemx_type_indexed(2, NULL, d, SHMEMX_INT, &t), SHMEMX_ERR_ARG);
    MESSAGE_HAS("blocklengths is NULL");
    assert_int_equal(shmemx_type_indexed(0, NULL, NULL, SHMEMX_INT, &t), SHMEMX_SUCCESS);
    shmemx_type_free(&t);
    shmemx_datatype_t types[2] = {SHMEMX_INT, SHMEMX_DATATYPE_NULL};
    ptrdiff_t bd[2] = {0, 8};
    int one[2] = {1, 1};
    assert_int_equal(shmemx_type_create_struct(2, one, bd, types, &t), SHMEMX_ERR_TYPE);
    MESSAGE_HAS("shmemx_type_create_struct", "types[1] is SHMEMX_DATATYPE_NULL");
    assert_int_equal(shmemx_type_free(&p), SHMEMX_ERR_TYPE);
    MESSAGE_HAS("shmemx_type_free", "SHMEMX_INT is predefined");
    assert_ptr_equal(p, SHMEMX_INT);
    assert_int_equal(shmemx_type_commit(NULL), SHMEMX_ERR_ARG);
    MESSAGE_HAS("shmemx_type_commit", "type is NULL");
    /* A stale or garbage handle is recognised. */
    struct sshmemx_datatype fake = {0};
    assert_int_equal(shmemx_type_commit(&(shmemx_datatype_t){&fake}), SHMEMX_ERR_TYPE);
    MESSAGE_HAS("is not a valid datatype", "freed");
    size_t size;
    assert_int_equal(shmemx_type_size(SHMEMX_INT, NULL), SHMEMX_ERR_ARG);
    assert_int_equal(shmemx_type_size(SHMEMX_DATATYPE_NULL, &size), SHMEMX_ERR_TYPE);
    assert_string_equal(shmemx_error_string(SHMEMX_ERR_TRUNCATE),
                        "SHMEMX_ERR_TRUNCATE: buffer too small");
}

/* Nested constructors keep few segments, and a vector of vectors is right. */
static void nested(void **state)
{
    shmemx_datatype_t row, plane;
    /* A 4x3 sub-block of a 10x10 int matrix, then 2 such planes 100 ints apart. */
    assert_int_equal(shmemx_type_vector(4, 3, 10, SHMEMX_INT, &row), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(row, 12 * I, 0, 33 * I, 0, 33 * I);
    assert_int_equal(shmemx_type_create_hvector(2, 1, 100 * I, row, &plane), SHMEMX_SUCCESS);
    ASSERT_BOUNDS(plane, 24 * I, 0, 133 * I, 0, 133 * I);
    assert_true(plane->nsegs <= 2);
    assert_int_equal(shmemx_type_commit(&plane), SHMEMX_SUCCESS);
    /* A vector of vectors is one piece of two loops: 2 planes x 4 rows of 3 ints. */
    assert_int_equal(plane->plan.npieces, 1);
    assert_int_equal(plane->plan.pieces[0].run, 3 * I);
    assert_int_equal(plane->plan.pieces[0].depth, 2);
    assert_int_equal(plane->plan.pieces[0].loop[0].count, 2);
    assert_int_equal(plane->plan.pieces[0].loop[0].stride, 100 * I);
    assert_int_equal(plane->plan.pieces[0].loop[1].count, 4);
    assert_int_equal(plane->plan.pieces[0].loop[1].stride, 10 * I);
    shmemx_type_free(&row);
    shmemx_type_free(&plane);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(predefined_basic), cmocka_unit_test(predefined_pairs),
        cmocka_unit_test(contiguous),       cmocka_unit_test(vector),
        cmocka_unit_test(mpi_standard_examples), cmocka_unit_test(hvector_hindexed),
        cmocka_unit_test(struct_padding),   cmocka_unit_test(resized),
        cmocka_unit_test(dup_commit_free),  cmocka_unit_test(errors),
        cmocka_unit_test(nested),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
