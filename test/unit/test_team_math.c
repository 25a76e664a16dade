/* test_team_math.c: the arithmetic of teams: strided splits (parent-relative, negative
 * stride, stride 0), composition to world numbering, 2-D splits, translation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/team_math.h"

static void split_validity(void **state)
{
    assert_int_equal(sshmem_split_valid(8, 0, 1, 8), 0);
    assert_int_equal(sshmem_split_valid(8, 0, 2, 4), 0);
    assert_int_equal(sshmem_split_valid(8, 1, 2, 4), 0);
    assert_int_equal(sshmem_split_valid(8, 1, 2, 5), -1);  /* 9 is past the end */
    assert_int_equal(sshmem_split_valid(8, 7, -1, 8), 0);  /* reversed */
    assert_int_equal(sshmem_split_valid(8, 7, -3, 3), 0);  /* 7 4 1 */
    assert_int_equal(sshmem_split_valid(8, 7, -3, 4), -1); /* -2 */
    assert_int_equal(sshmem_split_valid(8, 3, 0, 1), 0);   /* stride 0 with size 1 */
    assert_int_equal(sshmem_split_valid(8, 3, 0, 2), -1);  /* stride 0 needs size 1 */
    assert_int_equal(sshmem_split_valid(8, 0, 1, 0), -1);  /* empty */
    assert_int_equal(sshmem_split_valid(8, -1, 1, 1), -1);
    assert_int_equal(sshmem_split_valid(8, 8, 1, 1), -1);
    assert_int_equal(sshmem_split_valid(1, 0, 5, 1), 0);   /* any stride with size 1 */
    assert_int_equal(sshmem_split_valid(8, 0, 1 << 30, 3), -1); /* no overflow */
}

static void composition(void **state)
{
    sshmem_triplet_t world = {0, 1, 8};
    sshmem_triplet_t odd = sshmem_split_compose(&world, 1, 2, 4); /* 1 3 5 7 */
    assert_int_equal(odd.start, 1);
    assert_int_equal(odd.stride, 2);
    assert_int_equal(odd.size, 4);
    /* a split of a split is relative to its parent: members 3, 2, 1 of odd = 7 5 3 */
    sshmem_triplet_t rev = sshmem_split_compose(&odd, 3, -1, 3);
    assert_int_equal(rev.start, 7);
    assert_int_equal(rev.stride, -2);
    assert_int_equal(sshmem_triplet_pe(&rev, 2), 3);
    assert_int_equal(sshmem_triplet_index(&rev, 5), 1);
    assert_int_equal(sshmem_triplet_index(&rev, 1), -1);
    assert_int_equal(sshmem_triplet_index(&rev, 4), -1);
    assert_int_equal(sshmem_triplet_index(&rev, 9), -1);
    /* stride 0, size 1 */
    sshmem_triplet_t one = sshmem_split_compose(&odd, 2, 0, 1);
    assert_int_equal(one.start, 5);
    assert_int_equal(one.size, 1);
    assert_int_equal(sshmem_triplet_index(&one, 5), 0);
    assert_int_equal(sshmem_triplet_index(&one, 7), -1);
}

static void translation(void **state)
{
    sshmem_triplet_t world = {0, 1, 8}, even = {0, 2, 4}, rev = {7, -1, 8};
    assert_int_equal(sshmem_triplet_translate(&even, 3, &world), 6);
    assert_int_equal(sshmem_triplet_translate(&world, 6, &even), 3);
    assert_int_equal(sshmem_triplet_translate(&world, 5, &even), -1);
    assert_int_equal(sshmem_triplet_translate(&even, 4, &world), -1); /* out of range */
    assert_int_equal(sshmem_triplet_translate(&even, -1, &world), -1);
    assert_int_equal(sshmem_triplet_translate(&even, 1, &rev), 5);
}

/* The 10-PE, xrange 3 grid of the specification: rows of 3 (the last has 1), columns of 4/3. */
static void split_2d_grid(void **state)
{
    sshmem_triplet_t x, y;
    assert_int_equal(sshmem_split_2d(10, 3, 4, &x, &y), 0);
    assert_int_equal(x.start, 3);
    assert_int_equal(x.size, 3);
    assert_int_equal(x.stride, 1);
    assert_int_equal(y.start, 1);
    assert_int_equal(y.stride, 3);
    assert_int_equal(y.size, 3); /* 1 4 7 */
    assert_int_equal(sshmem_triplet_index(&x, 4), 1); /* my x coordinate */
    assert_int_equal(sshmem_triplet_index(&y, 4), 1); /* my y coordinate */
    assert_int_equal(sshmem_split_2d(10, 3, 9, &x, &y), 0);
    assert_int_equal(x.start, 9);
    assert_int_equal(x.size, 1);
    assert_int_equal(y.start, 0);
    assert_int_equal(y.size, 4); /* 0 3 6 9 */
    assert_int_equal(sshmem_triplet_index(&y, 9), 3);
    assert_int_equal(sshmem_split_2d(10, 3, 8, &x, &y), 0);
    assert_int_equal(y.size, 3); /* 2 5 8 */
    /* xrange larger than the team: one row, columns of one */
    assert_int_equal(sshmem_split_2d(4, 6, 2, &x, &y), 0);
    assert_int_equal(x.start, 0);
    assert_int_equal(x.size, 4);
    assert_int_equal(y.start, 2);
    assert_int_equal(y.size, 1);
    /* xrange 1: rows of one, one column */
    assert_int_equal(sshmem_split_2d(5, 1, 3, &x, &y), 0);
    assert_int_equal(x.size, 1);
    assert_int_equal(y.size, 5);
    assert_int_equal(y.stride, 1);
    assert_int_equal(sshmem_split_2d(5, 0, 3, &x, &y), -1);
    assert_int_equal(sshmem_split_2d(5, -2, 3, &x, &y), -1);
}

static void from_list(void **state)
{
    sshmem_triplet_t t;
    int a[] = {2, 4, 6, 8}, b[] = {1, 2, 4}, c[] = {5};
    assert_int_equal(sshmem_triplet_from_list(a, 4, &t), 0);
    assert_int_equal(t.start, 2);
    assert_int_equal(t.stride, 2);
    assert_int_equal(t.size, 4);
    assert_int_equal(sshmem_triplet_from_list(b, 3, &t), -1);
    assert_int_equal(sshmem_triplet_from_list(c, 1, &t), 0);
    assert_int_equal(t.start, 5);
    assert_int_equal(t.size, 1);
    assert_int_equal(sshmem_triplet_from_list(c, 0, &t), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_validity), cmocka_unit_test(composition),
        cmocka_unit_test(translation), cmocka_unit_test(split_2d_grid),
        cmocka_unit_test(from_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
