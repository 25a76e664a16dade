/*
 * ops.c: GENERATED from the type table: the element loops of every reduction operator.
 * Three loops per operator (see ops.h); restrict lets the compiler vectorize them, which
 * matters for large reductions (they run at memory speed).
 */
#pragma GCC optimize("O3")
#include "coll/ops.h"

#define OP_and(a, b) ((a) & (b))
#define OP_or(a, b) ((a) | (b))
#define OP_xor(a, b) ((a) ^ (b))
#define OP_min(a, b) ((b) < (a) ? (b) : (a))
#define OP_max(a, b) ((b) > (a) ? (b) : (a))
#define OP_sum(a, b) ((a) + (b))
#define OP_prod(a, b) ((a) * (b))

#define DEF_OP_(T, N, OP)                                                                        \
    static void op3_##N##_##OP(void *restrict out, const void *restrict a,                       \
                               const void *restrict b, size_t n)                                 \
    {                                                                                            \
        T *restrict o = out;                                                                     \
        const T *restrict x = a, *restrict y = b;                                                \
        for (size_t i = 0; i < n; i++)                                                           \
            o[i] = OP_##OP(x[i], y[i]);                                                          \
    }                                                                                            \
    static void acc_##N##_##OP(void *restrict io, const void *restrict b, size_t n)              \
    {                                                                                            \
        T *restrict o = io;                                                                      \
        const T *restrict y = b;                                                                 \
        for (size_t i = 0; i < n; i++)                                                           \
            o[i] = OP_##OP(o[i], y[i]);                                                          \
    }                                                                                            \
    static void racc_##N##_##OP(void *restrict io, const void *restrict a, size_t n)             \
    {                                                                                            \
        T *restrict o = io;                                                                      \
        const T *restrict x = a;                                                                 \
        for (size_t i = 0; i < n; i++)                                                           \
            o[i] = OP_##OP(x[i], o[i]);                                                          \
    }                                                                                            \
    const coll_op_t coll_op_##N##_##OP = {op3_##N##_##OP, acc_##N##_##OP, racc_##N##_##OP,       \
                                          sizeof(T)};

#define DEF_AND_(T, N) DEF_OP_(T, N, and)
#define DEF_OR_(T, N) DEF_OP_(T, N, or)
#define DEF_XOR_(T, N) DEF_OP_(T, N, xor)
#define DEF_MIN_(T, N) DEF_OP_(T, N, min)
#define DEF_MAX_(T, N) DEF_OP_(T, N, max)
#define DEF_SUM_(T, N) DEF_OP_(T, N, sum)
#define DEF_PROD_(T, N) DEF_OP_(T, N, prod)
SHMEM_REDUCE_BITWISE_TYPES(DEF_AND_)
SHMEM_REDUCE_BITWISE_TYPES(DEF_OR_)
SHMEM_REDUCE_BITWISE_TYPES(DEF_XOR_)
SHMEM_REDUCE_MINMAX_TYPES(DEF_MIN_)
SHMEM_REDUCE_MINMAX_TYPES(DEF_MAX_)
SHMEM_REDUCE_ARITH_TYPES(DEF_SUM_)
SHMEM_REDUCE_ARITH_TYPES(DEF_PROD_)
