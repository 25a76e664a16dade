/*
 * ops.c: GENERATED from the type lists of shmemx.h: the element loops of every predefined
 * reduction operator on every basic and pair kind, and the table of ops.h that holds them.
 * Three loops per entry (see ops.h); restrict lets the compiler vectorize them, which matters
 * for large reductions (they run at memory speed). Integer arithmetic wraps around modulo
 * 2^bits (-fwrapv below: MPI and OpenSHMEM users both expect it, and it is never undefined).
 */
#pragma GCC optimize("O3", "wrapv")
#include "coll/ops.h"

#define OP_sum(a, b) ((a) + (b))
#define OP_prod(a, b) ((a) * (b))
#define OP_min(a, b) ((b) < (a) ? (b) : (a))
#define OP_max(a, b) ((b) > (a) ? (b) : (a))
#define OP_band(a, b) ((a) & (b))
#define OP_bor(a, b) ((a) | (b))
#define OP_bxor(a, b) ((a) ^ (b))
#define OP_land(a, b) ((a) != 0 && (b) != 0)
#define OP_lor(a, b) ((a) != 0 || (b) != 0)
#define OP_lxor(a, b) (((a) != 0) != ((b) != 0))
/* MINLOC/MAXLOC on (value, index) pairs: the strict winner, or on a tie the smaller index
 * (the first extreme wins, as MPI defines it). */
#define OP_minloc(a, b) (LOC_BETTER_(b, a, <) ? (b) : (a))
#define OP_maxloc(a, b) (LOC_BETTER_(b, a, >) ? (b) : (a))
#define LOC_BETTER_(x, y, CMP)                                                                   \
    ((x).value CMP (y).value || ((x).value == (y).value && (x).index < (y).index))

#define DEF_OP_GEN_(T, L, OP, CAST)                                                              \
    static void op3_##L##_##OP(const coll_op_t *op, void *restrict out, const void *restrict a,  \
                               const void *restrict b, size_t n)                                 \
    {                                                                                            \
        (void)op;                                                                                \
        T *restrict o = out;                                                                     \
        const T *restrict x = a, *restrict y = b;                                                \
        for (size_t i = 0; i < n; i++)                                                           \
            o[i] = CAST OP_##OP(x[i], y[i]);                                                     \
    }                                                                                            \
    static void acc_##L##_##OP(const coll_op_t *op, void *restrict io, const void *restrict b,   \
                               size_t n)                                                         \
    {                                                                                            \
        (void)op;                                                                                \
        T *restrict o = io;                                                                      \
        const T *restrict y = b;                                                                 \
        for (size_t i = 0; i < n; i++)                                                           \
            o[i] = CAST OP_##OP(o[i], y[i]);                                                     \
    }                                                                                            \
    static void racc_##L##_##OP(const coll_op_t *op, void *restrict io, const void *restrict a,  \
                                size_t n)                                                        \
    {                                                                                            \
        (void)op;                                                                                \
        T *restrict o = io;                                                                      \
        const T *restrict x = a;                                                                 \
        for (size_t i = 0; i < n; i++)                                                           \
            o[i] = CAST OP_##OP(x[i], o[i]);                                                     \
    }

#define DEF_OP_(T, L, OP) DEF_OP_GEN_(T, L, OP, (T))
#define DEF_PAIR_OP_(T, L, OP) DEF_OP_GEN_(T, L, OP, ) /* a struct: no cast */

/* The operators of each category (ops.h: integer and character kinds take them all). */
#define OPS_INTEGER(X, T, L)                                                                     \
    X(T, L, sum) X(T, L, prod) X(T, L, min) X(T, L, max) X(T, L, land) X(T, L, band)             \
    X(T, L, lor) X(T, L, bor) X(T, L, lxor) X(T, L, bxor)
#define OPS_CHARACTER OPS_INTEGER
#define OPS_FLOATING(X, T, L) X(T, L, sum) X(T, L, prod) X(T, L, min) X(T, L, max)
#define OPS_COMPLEX(X, T, L) X(T, L, sum) X(T, L, prod)
#define OPS_LOGICAL(X, T, L) X(T, L, land) X(T, L, lor) X(T, L, lxor)
#define OPS_BYTE(X, T, L) X(T, L, band) X(T, L, bor) X(T, L, bxor)
#define OPS_PAIR(X, T, L) X(T, L, minloc) X(T, L, maxloc)

#define BASIC_KERNELS_(CT, NAME, L, CAT) OPS_##CAT(DEF_OP_, CT, L)
SHMEMX_BASIC_TYPES(BASIC_KERNELS_)
#define PAIR_KERNELS_(VT, NAME, L) OPS_PAIR(DEF_PAIR_OP_, shmemx_##L##_t, L)
SHMEMX_PAIR_TYPES(PAIR_KERNELS_)

#define ENTRY_(T, L, OP)                                                                         \
    [COLL_OP_##OP] = {op3_##L##_##OP, acc_##L##_##OP, racc_##L##_##OP, sizeof(T), 1, NULL},
const coll_op_t coll_ops[COLL_NUM_KINDS][COLL_NUM_OPS] = {
#define BASIC_ROW_(CT, NAME, L, CAT) [COLL_KIND_##L] = {OPS_##CAT(ENTRY_, CT, L)},
    SHMEMX_BASIC_TYPES(BASIC_ROW_)
#define PAIR_ROW_(VT, NAME, L) [COLL_KIND_##L] = {OPS_PAIR(ENTRY_, shmemx_##L##_t, L)},
    SHMEMX_PAIR_TYPES(PAIR_ROW_)
};
