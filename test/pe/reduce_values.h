/*
 * reduce_values.h: the values every PE contributes to the reduction tests (coll_reduce.c,
 * coll_to_all.c) and the operators that combine them, so expected results can be computed
 * serially. Values are small enough that every sum and product is exact in every type
 * (char included).
 */
#ifndef SSHMEM_TEST_REDUCE_VALUES_H
#define SSHMEM_TEST_REDUCE_VALUES_H

#define VAL_and(pe, i) (~(1 << (((pe) + (i)) % 7)) & 0x7f)
#define VAL_or(pe, i) (1 << (((pe) + (i)) % 7))
#define VAL_xor(pe, i) ((((pe) + 1) * ((i) + 3)) & 0x7f)
#define VAL_min(pe, i) (((pe)*3 + (i)) % 11 + 1)
#define VAL_max(pe, i) (((pe)*5 + (i)) % 13 + 1)
#define VAL_sum(pe, i) (((pe) + (i)) % 7)
#define VAL_prod(pe, i) ((((pe) + (i)) % 3 == 0) ? 2 : 1)
#define CVAL_sum(pe, i) (VAL_sum(pe, i) + ((pe) % 3) * I)
#define CVAL_prod(pe, i) ((((pe) + (i)) % 4 == 1) ? (0.0 + 1.0 * I) : 1.0)
#define APPLY_and(a, b) ((a) & (b))
#define APPLY_or(a, b) ((a) | (b))
#define APPLY_xor(a, b) ((a) ^ (b))
#define APPLY_min(a, b) ((b) < (a) ? (b) : (a))
#define APPLY_max(a, b) ((b) > (a) ? (b) : (a))
#define APPLY_sum(a, b) ((a) + (b))
#define APPLY_prod(a, b) ((a) * (b))

#endif
