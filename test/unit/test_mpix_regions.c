/*
 * test_mpix_regions.c: the receive-region overlap check of the v-collectives: blocks that
 * touch are fine, blocks that share a byte are found (with their owners and the byte), zero
 * counts never overlap, interleaved columns are told apart exactly, and a type whose own
 * elements overlap is caught in a single region.
 */
#include "test_mpix.h"

#include "datatype/regions.h"

static void contiguous_blocks(void **state)
{
    size_t counts[4] = {2, 0, 3, 1}, displs[4] = {0, 1, 2, 5};
    int a, b;
    ptrdiff_t at;
    assert_int_equal(mpix_find_overlap(SHMEMX_INT, 4, counts, displs, &a, &b, &at), 0);
    displs[3] = 4; /* PE 3's element lands on PE 2's last one */
    assert_int_equal(mpix_find_overlap(SHMEMX_INT, 4, counts, displs, &a, &b, &at), 1);
    assert_int_equal(a, 2);
    assert_int_equal(b, 3);
    assert_int_equal(at, 4 * sizeof(int));
    /* reverse order, with gaps: fine */
    size_t c2[3] = {1, 1, 1}, d2[3] = {9, 5, 0};
    assert_int_equal(mpix_find_overlap(SHMEMX_DOUBLE, 3, c2, d2, &a, &b, &at), 0);
}

static void interleaved_columns(void **state)
{
    enum { N = 4, P = 3 };
    shmemx_datatype_t col, colr;
    shmemx_type_vector(N, 1, P, SHMEMX_INT, &col);
    shmemx_type_create_resized(col, 0, sizeof(int), &colr);
    shmemx_type_commit(&colr);
    size_t counts[P] = {1, 1, 1}, displs[P] = {0, 1, 2};
    int a, b;
    ptrdiff_t at;
    /* the spans overlap, the bytes do not */
    assert_int_equal(mpix_find_overlap(colr, P, counts, displs, &a, &b, &at), 0);
    displs[2] = 0;
    assert_int_equal(mpix_find_overlap(colr, P, counts, displs, &a, &b, &at), 1);
    assert_int_equal(a, 0);
    assert_int_equal(b, 2);
    /* two elements from one PE step one column each: PE 0 takes columns 0-1, PE 1 column 1 */
    size_t c2[2] = {2, 1}, d2[2] = {0, 1};
    assert_int_equal(mpix_find_overlap(colr, 2, c2, d2, &a, &b, &at), 1);
    shmemx_type_free(&col);
    shmemx_type_free(&colr);
}

static void self_overlap(void **state)
{
    shmemx_datatype_t t;
    /* 2 ints with an extent of 1 int: element 1 rewrites element 0's second int */
    shmemx_datatype_t two;
    shmemx_type_contiguous(2, SHMEMX_INT, &two);
    shmemx_type_create_resized(two, 0, sizeof(int), &t);
    shmemx_type_commit(&t);
    size_t counts[1] = {2}, displs[1] = {0};
    int a, b;
    ptrdiff_t at;
    assert_int_equal(mpix_find_overlap(t, 1, counts, displs, &a, &b, &at), 1);
    assert_int_equal(a, 0);
    assert_int_equal(b, 0);
    counts[0] = 1;
    assert_int_equal(mpix_find_overlap(t, 1, counts, displs, &a, &b, &at), 0);
    shmemx_type_free(&two);
    shmemx_type_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(contiguous_blocks),
        cmocka_unit_test(interleaved_columns),
        cmocka_unit_test(self_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
