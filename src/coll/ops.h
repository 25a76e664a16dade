/*
 * ops.h: the reduction operators: ONE table, keyed by (operator, basic kind), serving both the
 * OpenSHMEM reductions (shmem_TYPE_OP_reduce, _to_all, the scans) and the MPI-style layer
 * (shmemx_allreduce with a predefined operator, MINLOC/MAXLOC on the pair types).
 *
 * The kinds and operators are those of shmemx.h (SHMEMX_BASIC_TYPES, SHMEMX_PAIR_TYPES,
 * SHMEMX_PREDEFINED_OPS); an OpenSHMEM type reaches its kind through its name (COLL_OP(int32,
 * sum)). A user operator, or a predefined operator on a derived datatype, is just another
 * coll_op_t built by src/mpix with its own functions and a context: the algorithms see one form.
 */
#ifndef SSHMEM_COLL_OPS_H
#define SSHMEM_COLL_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <shmem.h>
#include <shmemx.h>

typedef struct coll_op coll_op_t;
struct coll_op {
    /* out[i] = a[i] OP b[i]; out, a, b distinct */
    void (*op3)(const coll_op_t *op, void *restrict out, const void *restrict a,
                const void *restrict b, size_t n);
    /* io[i] = io[i] OP b[i] */
    void (*acc)(const coll_op_t *op, void *restrict io, const void *restrict b, size_t n);
    /* io[i] = a[i] OP io[i] (io is the right operand) */
    void (*racc)(const coll_op_t *op, void *restrict io, const void *restrict a, size_t n);
    size_t esize;    /* bytes per element (a pair kind: its struct, padding included) */
    int commute;     /* 0: only algorithms that keep member order may run it */
    const void *ctx; /* what a built operator needs (user function, datatype); else NULL */
};

/* The kinds: one per predefined basic or pair type of shmemx.h, in the same order as
 * src/mpix's enum mpix_kind (both expand the same lists). */
enum coll_kind {
#define COLL_KIND_BASIC_(CT, NAME, L, CAT) COLL_KIND_##L,
    SHMEMX_BASIC_TYPES(COLL_KIND_BASIC_)
#undef COLL_KIND_BASIC_
#define COLL_KIND_PAIR_(VT, NAME, L) COLL_KIND_##L,
    SHMEMX_PAIR_TYPES(COLL_KIND_PAIR_)
#undef COLL_KIND_PAIR_
    COLL_NUM_KINDS
};

/* The operators, in the order of SHMEMX_PREDEFINED_OPS. */
enum coll_op_id {
#define COLL_OP_ENUM_(NAME, L) COLL_OP_##L,
    SHMEMX_PREDEFINED_OPS(COLL_OP_ENUM_)
#undef COLL_OP_ENUM_
    COLL_NUM_OPS
};
/* OpenSHMEM's names of the bitwise operators. */
#define COLL_OP_and COLL_OP_band
#define COLL_OP_or COLL_OP_bor
#define COLL_OP_xor COLL_OP_bxor

/* The table. An entry with op3 == NULL does not exist (say, SUM on a pair kind). The integer and
 * character kinds have every arithmetic, bitwise and logical operator (the OpenSHMEM routines need
 * char SUM); which of them the MPI-style layer accepts is its own rule (src/mpix/ops.c). */
extern const coll_op_t coll_ops[COLL_NUM_KINDS][COLL_NUM_OPS];

/* The operator OP (sum, and, ...) on the type of short name N: the OpenSHMEM type names
 * (int32, ulonglong, ...) are the kinds' names, but for the two complex types. */
#define COLL_KIND_complexf COLL_KIND_cfloat
#define COLL_KIND_complexd COLL_KIND_cdouble
#define COLL_OP(N, OP) (&coll_ops[COLL_KIND_##N][COLL_OP_##OP])

/* out = a OP b over n elements, where out may be a or b (but no partial overlap). */
static inline void coll_op_apply(const coll_op_t *op, void *out, const void *a, const void *b,
                                 size_t n)
{
    if (out == a)
        op->acc(op, out, b, n);
    else if (out == b)
        op->racc(op, out, a, n);
    else
        op->op3(op, out, a, b, n);
}

#endif
