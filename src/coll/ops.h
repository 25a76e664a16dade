/*
 * ops.h: the reduction operators, one per (type, operator) pair of the specification,
 * generated from the type table: coll_op_<TYPENAME>_<op>, e.g. coll_op_float_sum.
 */
#ifndef SSHMEM_COLL_OPS_H
#define SSHMEM_COLL_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <shmem.h>

typedef struct coll_op {
    /* out[i] = a[i] OP b[i]; out, a, b distinct */
    void (*op3)(void *restrict out, const void *restrict a, const void *restrict b, size_t n);
    /* io[i] = io[i] OP b[i] */
    void (*acc)(void *restrict io, const void *restrict b, size_t n);
    /* io[i] = a[i] OP io[i] (io is the right operand) */
    void (*racc)(void *restrict io, const void *restrict a, size_t n);
    size_t esize; /* bytes per element */
} coll_op_t;

/* out = a OP b over n elements, where out may be a or b (but no partial overlap). The left
 * operand is always the lower member's data: every member then computes the same bits. */
static inline void coll_op_apply(const coll_op_t *op, void *out, const void *a, const void *b,
                                 size_t n)
{
    if (out == a)
        op->acc(out, b, n);
    else if (out == b)
        op->racc(out, a, n);
    else
        op->op3(out, a, b, n);
}

#define COLL_OP_DECL_(T, N, OP) extern const coll_op_t coll_op_##N##_##OP;
#define COLL_OP_DECL_AND_(T, N) COLL_OP_DECL_(T, N, and)
#define COLL_OP_DECL_OR_(T, N) COLL_OP_DECL_(T, N, or)
#define COLL_OP_DECL_XOR_(T, N) COLL_OP_DECL_(T, N, xor)
#define COLL_OP_DECL_MIN_(T, N) COLL_OP_DECL_(T, N, min)
#define COLL_OP_DECL_MAX_(T, N) COLL_OP_DECL_(T, N, max)
#define COLL_OP_DECL_SUM_(T, N) COLL_OP_DECL_(T, N, sum)
#define COLL_OP_DECL_PROD_(T, N) COLL_OP_DECL_(T, N, prod)
SHMEM_REDUCE_BITWISE_TYPES(COLL_OP_DECL_AND_)
SHMEM_REDUCE_BITWISE_TYPES(COLL_OP_DECL_OR_)
SHMEM_REDUCE_BITWISE_TYPES(COLL_OP_DECL_XOR_)
SHMEM_REDUCE_MINMAX_TYPES(COLL_OP_DECL_MIN_)
SHMEM_REDUCE_MINMAX_TYPES(COLL_OP_DECL_MAX_)
SHMEM_REDUCE_ARITH_TYPES(COLL_OP_DECL_SUM_)
SHMEM_REDUCE_ARITH_TYPES(COLL_OP_DECL_PROD_)

/* Bitwise OR of 64-bit words, for the library's own agreements (team pool slots). */
#define coll_op_bor64 coll_op_uint64_or

#endif
