/*
 * test_mpix_subarray.c: shmemx_type_create_subarray against hand-computed layouts: the bounds
 * (lb 0, extent the whole array), the packed order of a 2D block in C and Fortran order, 3D
 * and 4D blocks against an index walk, counts of whole arrays, the whole array as one run,
 * and the refusals.
 */
#include "test_mpix.h"

#include <stdlib.h>

#include "datatype/datatype.h"

static shmemx_datatype_t subarray(int ndims, const int *sizes, const int *sub, const int *starts,
                                  int order)
{
    shmemx_datatype_t t;
    assert_int_equal(shmemx_type_create_subarray(ndims, sizes, sub, starts, order, SHMEMX_INT,
                                                 &t),
                     SHMEMX_SUCCESS);
    assert_int_equal(shmemx_type_commit(&t), SHMEMX_SUCCESS);
    return t;
}

/* A 2x3 block at (1, 2) of a 5x7 C array: rows 1..2, columns 2..4, row by row. */
static void c_order_2d(void **state)
{
    int a[5][7], packed[6];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            a[i][j] = 100 * i + j;
    shmemx_datatype_t t = subarray(2, (int[]){5, 7}, (int[]){2, 3}, (int[]){1, 2},
                                   SHMEMX_ORDER_C);
    ptrdiff_t lb, extent, tlb, textent;
    size_t size;
    shmemx_type_size(t, &size);
    shmemx_type_get_extent(t, &lb, &extent);
    shmemx_type_get_true_extent(t, &tlb, &textent);
    assert_int_equal(size, 6 * sizeof(int));
    assert_int_equal(lb, 0);
    assert_int_equal(extent, sizeof a);
    assert_int_equal(tlb, (1 * 7 + 2) * sizeof(int));
    assert_int_equal(textent, (1 * 7 + 3) * sizeof(int));
    /* one piece: two rows of 3 ints, a row apart */
    assert_int_equal(t->plan.npieces, 1);
    assert_int_equal(t->plan.pieces[0].run, 3 * sizeof(int));
    assert_int_equal(t->plan.pieces[0].depth, 1);
    assert_int_equal(t->plan.pieces[0].loop[0].stride, 7 * sizeof(int));
    size_t pos = 0;
    assert_int_equal(shmemx_pack(a, 1, t, packed, sizeof packed, &pos), SHMEMX_SUCCESS);
    const int want[6] = {102, 103, 104, 202, 203, 204};
    assert_memory_equal(packed, want, sizeof want);
    shmemx_type_free(&t);
}

/* The same block in Fortran order: a(i, j) lies at i + 5 j; i runs fastest. */
static void fortran_order_2d(void **state)
{
    int a[7 * 5], packed[6];
    for (int j = 0; j < 7; j++)
        for (int i = 0; i < 5; i++)
            a[i + 5 * j] = 100 * i + j;
    shmemx_datatype_t t = subarray(2, (int[]){5, 7}, (int[]){2, 3}, (int[]){1, 2},
                                   SHMEMX_ORDER_FORTRAN);
    size_t pos = 0;
    assert_int_equal(shmemx_pack(a, 1, t, packed, sizeof packed, &pos), SHMEMX_SUCCESS);
    const int want[6] = {102, 202, 103, 203, 104, 204};
    assert_memory_equal(packed, want, sizeof want);
    ptrdiff_t lb, extent;
    shmemx_type_get_extent(t, &lb, &extent);
    assert_int_equal(extent, sizeof a);
    shmemx_type_free(&t);
}

/* The offsets (in ints) of the block's elements in memory order, by walking the indices. */
static size_t block_offsets(int ndims, const int *sizes, const int *sub, const int *starts,
                            int order, int *out)
{
    int idx[8] = {0};
    size_t n = 0;
    for (;;) {
        int off = 0;
        for (int k = 0; k < ndims; k++) { /* slowest dimension first */
            int d = order == SHMEMX_ORDER_C ? k : ndims - 1 - k;
            off = off * sizes[d] + starts[d] + idx[d];
        }
        out[n++] = off;
        int k = 0;
        for (; k < ndims; k++) { /* advance the fastest dimension */
            int d = order == SHMEMX_ORDER_C ? ndims - 1 - k : k;
            if (++idx[d] < sub[d])
                break;
            idx[d] = 0;
        }
        if (k == ndims)
            return n;
    }
}

static void check_block(int ndims, const int *sizes, const int *sub, const int *starts,
                        int order)
{
    size_t total = 1, nsub = 1;
    for (int d = 0; d < ndims; d++) {
        total *= (size_t)sizes[d];
        nsub *= (size_t)sub[d];
    }
    int *a = malloc(2 * total * sizeof *a), *packed = malloc(2 * nsub * sizeof *packed);
    int *back = calloc(2 * total, sizeof *back), *offs = malloc(nsub * sizeof *offs);
    for (size_t i = 0; i < 2 * total; i++)
        a[i] = (int)i + 1;
    assert_int_equal(block_offsets(ndims, sizes, sub, starts, order, offs), nsub);
    shmemx_datatype_t t = subarray(ndims, sizes, sub, starts, order);
    /* two elements: the block of two consecutive whole arrays */
    size_t pos = 0;
    assert_int_equal(shmemx_pack(a, 2, t, packed, 2 * nsub * sizeof *packed, &pos),
                     SHMEMX_SUCCESS);
    for (size_t e = 0; e < 2; e++)
        for (size_t k = 0; k < nsub; k++)
            assert_int_equal(packed[e * nsub + k], a[e * total + (size_t)offs[k]]);
    pos = 0;
    assert_int_equal(shmemx_unpack(packed, 2 * nsub * sizeof *packed, &pos, back, 2, t),
                     SHMEMX_SUCCESS);
    size_t touched = 0;
    for (size_t i = 0; i < 2 * total; i++)
        if (back[i]) {
            assert_int_equal(back[i], a[i]);
            touched++;
        }
    assert_int_equal(touched, 2 * nsub);
    shmemx_type_free(&t);
    free(a);
    free(packed);
    free(back);
    free(offs);
}

static void three_and_four_dims(void **state)
{
    for (int order = SHMEMX_ORDER_C; order <= SHMEMX_ORDER_FORTRAN; order++) {
        check_block(3, (int[]){4, 5, 6}, (int[]){2, 3, 4}, (int[]){1, 1, 2}, order);
        check_block(3, (int[]){4, 5, 6}, (int[]){4, 1, 6}, (int[]){0, 4, 0}, order); /* face */
        check_block(3, (int[]){4, 5, 6}, (int[]){1, 5, 1}, (int[]){3, 0, 5}, order); /* edge */
        check_block(4, (int[]){3, 4, 5, 6}, (int[]){2, 2, 3, 2}, (int[]){1, 2, 1, 3}, order);
        check_block(1, (int[]){9}, (int[]){4}, (int[]){5}, order);
    }
}

/* The whole array is one run; a block of whole rows is one run too. */
static void whole_array(void **state)
{
    shmemx_datatype_t t = subarray(2, (int[]){3, 4}, (int[]){3, 4}, (int[]){0, 0},
                                   SHMEMX_ORDER_C);
    assert_true(t->flags & MPIX_CONTIG);
    shmemx_type_free(&t);
    t = subarray(2, (int[]){3, 4}, (int[]){2, 4}, (int[]){1, 0}, SHMEMX_ORDER_C);
    assert_int_equal(t->plan.npieces, 1);
    assert_int_equal(t->plan.pieces[0].depth, 0);
    assert_int_equal(t->plan.pieces[0].disp, 4 * sizeof(int));
    assert_int_equal(t->plan.pieces[0].run, 8 * sizeof(int));
    shmemx_type_free(&t);
}

static void refusals(void **state)
{
    shmemx_datatype_t t;
    const int sizes[2] = {5, 7}, sub[2] = {2, 3}, starts[2] = {1, 2};
    forget_messages();
    assert_int_equal(shmemx_type_create_subarray(0, sizes, sub, starts, SHMEMX_ORDER_C,
                                                 SHMEMX_INT, &t), SHMEMX_ERR_ARG);
    MESSAGE_HAS("shmemx_type_create_subarray", "ndims is 0");
    assert_int_equal(shmemx_type_create_subarray(2, sizes, (int[]){2, 8}, starts,
                                                 SHMEMX_ORDER_C, SHMEMX_INT, &t),
                     SHMEMX_ERR_ARG);
    MESSAGE_HAS("subsizes[1] is 8", "sizes[1] (7)");
    assert_int_equal(shmemx_type_create_subarray(2, sizes, sub, (int[]){1, 5}, SHMEMX_ORDER_C,
                                                 SHMEMX_INT, &t), SHMEMX_ERR_ARG);
    MESSAGE_HAS("starts[1] is 5", "between 0 and 4");
    assert_int_equal(shmemx_type_create_subarray(2, sizes, sub, (int[]){-1, 0}, SHMEMX_ORDER_C,
                                                 SHMEMX_INT, &t), SHMEMX_ERR_ARG);
    MESSAGE_HAS("starts[0] is -1");
    assert_int_equal(shmemx_type_create_subarray(2, sizes, sub, starts, 0, SHMEMX_INT, &t),
                     SHMEMX_ERR_ARG);
    MESSAGE_HAS("order is 0", "SHMEMX_ORDER_C", "SHMEMX_ORDER_FORTRAN");
    assert_int_equal(shmemx_type_create_subarray(2, NULL, sub, starts, SHMEMX_ORDER_C,
                                                 SHMEMX_INT, &t), SHMEMX_ERR_ARG);
    MESSAGE_HAS("sizes is NULL");
    assert_int_equal(shmemx_type_create_subarray(2, sizes, sub, starts, SHMEMX_ORDER_C,
                                                 SHMEMX_DATATYPE_NULL, &t), SHMEMX_ERR_TYPE);
    MESSAGE_HAS("oldtype is SHMEMX_DATATYPE_NULL");
    assert_int_equal(shmemx_type_create_subarray(2, sizes, sub, starts, SHMEMX_ORDER_C,
                                                 SHMEMX_INT, NULL), SHMEMX_ERR_ARG);
    MESSAGE_HAS("newtype is NULL");
    /* An array larger than memory is refused, not wrapped around. */
    const int huge[3] = {1 << 30, 1 << 30, 1 << 30}, one[3] = {1, 1, 1}, zero[3] = {0};
    assert_int_equal(shmemx_type_create_subarray(3, huge, one, zero, SHMEMX_ORDER_C,
                                                 SHMEMX_DOUBLE, &t), SHMEMX_ERR_COUNT);
    MESSAGE_HAS("more bytes than memory holds");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(c_order_2d),  cmocka_unit_test(fortran_order_2d),
        cmocka_unit_test(three_and_four_dims), cmocka_unit_test(whole_array),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
