/*
 * op_kernels.c: the predefined operators on every basic kind MPI allows them on, expanded
 * from the type lists of shmemx.h by category. Items are read and written with memcpy so that
 * packed (unaligned) data works; compilers turn that into plain loads and stores.
 * Integer SUM and PROD wrap around modulo 2^bits (computed unsigned: no undefined overflow).
 */
#include <stdint.h>
#include <string.h>
#include <shmemx.h>

#include "mpix/op.h"

/* One kernel: b = EXPR(a, b) for every item, a from in, b from inout. */
#define KERNEL_(L, OP, T, EXPR)                                                                  \
    static void kern_##L##_##OP(const char *in, char *inout, size_t n, size_t stride,            \
                                size_t idx_off)                                                  \
    {                                                                                            \
        (void)idx_off;                                                                           \
        for (size_t i = 0; i < n; i++) {                                                         \
            T a, b;                                                                              \
            memcpy(&a, in + i * stride, sizeof a);                                               \
            memcpy(&b, inout + i * stride, sizeof b);                                            \
            b = (T)(EXPR);                                                                       \
            memcpy(inout + i * stride, &b, sizeof b);                                            \
        }                                                                                        \
    }

#define WRAP_SUM_ ((uintmax_t)a + (uintmax_t)b)
#define WRAP_PROD_ ((uintmax_t)a * (uintmax_t)b)
#define MIN_ (a < b ? a : b)
#define MAX_ (a > b ? a : b)
#define LAND_ ((a != 0) && (b != 0))
#define LOR_ ((a != 0) || (b != 0))
#define LXOR_ ((a != 0) != (b != 0))

/* The kernels of each category, and the row of the table they fill. */
#define KERNELS_INTEGER(T, L)                                                                    \
    KERNEL_(L, sum, T, WRAP_SUM_) KERNEL_(L, prod, T, WRAP_PROD_) KERNEL_(L, min, T, MIN_)       \
    KERNEL_(L, max, T, MAX_) KERNEL_(L, land, T, LAND_) KERNEL_(L, lor, T, LOR_)                 \
    KERNEL_(L, lxor, T, LXOR_) KERNEL_(L, band, T, a & b) KERNEL_(L, bor, T, a | b)              \
    KERNEL_(L, bxor, T, a ^ b)
#define ROW_INTEGER(L)                                                                           \
    [MPIX_OP_sum] = kern_##L##_sum, [MPIX_OP_prod] = kern_##L##_prod,                            \
    [MPIX_OP_min] = kern_##L##_min, [MPIX_OP_max] = kern_##L##_max,                              \
    [MPIX_OP_land] = kern_##L##_land, [MPIX_OP_lor] = kern_##L##_lor,                            \
    [MPIX_OP_lxor] = kern_##L##_lxor, [MPIX_OP_band] = kern_##L##_band,                          \
    [MPIX_OP_bor] = kern_##L##_bor, [MPIX_OP_bxor] = kern_##L##_bxor,

#define KERNELS_FLOATING(T, L)                                                                   \
    KERNEL_(L, sum, T, a + b) KERNEL_(L, prod, T, a * b) KERNEL_(L, min, T, MIN_)                \
    KERNEL_(L, max, T, MAX_)
#define ROW_FLOATING(L)                                                                          \
    [MPIX_OP_sum] = kern_##L##_sum, [MPIX_OP_prod] = kern_##L##_prod,                            \
    [MPIX_OP_min] = kern_##L##_min, [MPIX_OP_max] = kern_##L##_max,

#define KERNELS_COMPLEX(T, L) KERNEL_(L, sum, T, a + b) KERNEL_(L, prod, T, a * b)
#define ROW_COMPLEX(L) [MPIX_OP_sum] = kern_##L##_sum, [MPIX_OP_prod] = kern_##L##_prod,

#define KERNELS_LOGICAL(T, L)                                                                    \
    KERNEL_(L, land, T, LAND_) KERNEL_(L, lor, T, LOR_) KERNEL_(L, lxor, T, LXOR_)
#define ROW_LOGICAL(L)                                                                           \
    [MPIX_OP_land] = kern_##L##_land, [MPIX_OP_lor] = kern_##L##_lor,                            \
    [MPIX_OP_lxor] = kern_##L##_lxor,

#define KERNELS_BYTE(T, L)                                                                       \
    KERNEL_(L, band, T, a & b) KERNEL_(L, bor, T, a | b) KERNEL_(L, bxor, T, a ^ b)
#define ROW_BYTE(L)                                                                              \
    [MPIX_OP_band] = kern_##L##_band, [MPIX_OP_bor] = kern_##L##_bor,                            \
    [MPIX_OP_bxor] = kern_##L##_bxor,

#define KERNELS_CHARACTER(T, L)
#define ROW_CHARACTER(L)

#define BASIC_KERNELS_(CT, NAME, L, CAT) KERNELS_##CAT(CT, L)
SHMEMX_BASIC_TYPES(BASIC_KERNELS_)

/*
 * MINLOC/MAXLOC on (value, index) pairs: (u,i) o (v,j) = (extreme(u,v), k) with k the index
 * of the strict winner, or min(i,j) on a tie: the first extreme wins.
 */
#define PAIR_KERNEL_(L, OP, VT, BETTER)                                                          \
    static void kern_##L##_##OP(const char *in, char *inout, size_t n, size_t stride,            \
                                size_t idx_off)                                                  \
    {                                                                                            \
        for (size_t i = 0; i < n; i++) {                                                         \
            const char *x = in + i * stride;                                                     \
            char *y = inout + i * stride;                                                        \
            VT u, v;                                                                             \
            int xi, yi;                                                                          \
            memcpy(&u, x, sizeof u);                                                             \
            memcpy(&v, y, sizeof v);                                                             \
            memcpy(&xi, x + idx_off, sizeof xi);                                                 \
            memcpy(&yi, y + idx_off, sizeof yi);                                                 \
            if (u BETTER v || (u == v && xi < yi)) {                                             \
                memcpy(y, &u, sizeof u);                                                         \
                memcpy(y + idx_off, &xi, sizeof xi);                                             \
            }                                                                                    \
        }                                                                                        \
    }
#define PAIR_KERNELS_(VT, NAME, L) PAIR_KERNEL_(L, minloc, VT, <) PAIR_KERNEL_(L, maxloc, VT, >)
SHMEMX_PAIR_TYPES(PAIR_KERNELS_)

static const mpix_kernel_t kernels[MPIX_NUM_KINDS][MPIX_NUM_OPS] = {
#define BASIC_ROW_(CT, NAME, L, CAT) [MPIX_KIND_##L] = {ROW_##CAT(L)},
    SHMEMX_BASIC_TYPES(BASIC_ROW_)
#define PAIR_ROW_(VT, NAME, L)                                                                   \
    [MPIX_KIND_##L] = {[MPIX_OP_minloc] = kern_##L##_minloc, [MPIX_OP_maxloc] = kern_##L##_maxloc},
    SHMEMX_PAIR_TYPES(PAIR_ROW_)
};

mpix_kernel_t mpix_kernel(int op_id, int kind) { return kernels[kind][op_id]; }

const char *mpix_op_domain(int op_id)
{
    switch (op_id) {
    case MPIX_OP_sum:
    case MPIX_OP_prod: return "integer, floating and complex types";
    case MPIX_OP_min:
    case MPIX_OP_max: return "integer and floating types";
    case MPIX_OP_land:
    case MPIX_OP_lor:
    case MPIX_OP_lxor: return "integer types and SHMEMX_C_BOOL";
    case MPIX_OP_band:
    case MPIX_OP_bor:
    case MPIX_OP_bxor: return "integer types and SHMEMX_BYTE";
    default: return "the pair types SHMEMX_FLOAT_INT, SHMEMX_DOUBLE_INT, SHMEMX_LONG_INT, "
                    "SHMEMX_2INT, SHMEMX_SHORT_INT and SHMEMX_LONG_DOUBLE_INT";
    }
}
