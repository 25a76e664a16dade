/*
 * amo_typed.c: GENERATED from the type table (include/shmem_typetable.h). Every typed atomic
 * is a shell over sshmem_amo / sshmem_amo_nbi on the value's bits (4 or 8 bytes).
 */
#include <string.h>
#include <shmem.h>

#include "amo/amo.h"
#include "core/api_defs.h"

/* A value's bits in a uint64_t and back (floats included; little-endian low bytes). */
#define BITS_(T, v) ({ uint64_t b_ = 0; T v_ = (v); memcpy(&b_, &v_, sizeof(T)); b_; })
#define VALUE_(T, bits) ({ uint64_t b_ = (bits); T v_; memcpy(&v_, &b_, sizeof(T)); v_; })

/* A fetching atomic in its four spellings: plain, ctx, and (if DEPR is given) deprecated. */
#define DEF_AMO_(T, N, NAME, PARAMS, ARGS, OP, OPERAND, COMPARE, FETCH)                          \
    SSHMEM_DEFINE(T, shmem_##N##_atomic_##NAME, PARAMS)                                          \
    {                                                                                            \
        shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;                                                     \
        return VALUE_(T, sshmem_amo(ctx, dest, OP, sizeof(T), OPERAND, COMPARE, FETCH, pe,       \
                                    "shmem_" #N "_atomic_" #NAME));                              \
    }                                                                                            \
    SSHMEM_DEFINE(T, shmem_ctx_##N##_atomic_##NAME, (shmem_ctx_t ctx, DEF_UNPAREN_ PARAMS))      \
    {                                                                                            \
        return VALUE_(T, sshmem_amo(ctx, dest, OP, sizeof(T), OPERAND, COMPARE, FETCH, pe,       \
                                    "shmem_ctx_" #N "_atomic_" #NAME));                          \
    }
#define DEF_UNPAREN_(...) __VA_ARGS__

/* A non-fetching atomic (void result). */
#define DEF_AMO_VOID_(T, N, NAME, PARAMS, OP, OPERAND)                                           \
    SSHMEM_DEFINE(void, shmem_##N##_atomic_##NAME, PARAMS)                                       \
    {                                                                                            \
        sshmem_amo(SHMEM_CTX_DEFAULT, dest, OP, sizeof(T), OPERAND, 0, 0, pe,                    \
                   "shmem_" #N "_atomic_" #NAME);                                                \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_##N##_atomic_##NAME, (shmem_ctx_t ctx, DEF_UNPAREN_ PARAMS))   \
    {                                                                                            \
        sshmem_amo(ctx, dest, OP, sizeof(T), OPERAND, 0, 0, pe,                                  \
                   "shmem_ctx_" #N "_atomic_" #NAME);                                            \
    }

/* A fetching atomic's _nbi form: the old value lands in *fetch. */
#define DEF_AMO_NBI_(T, N, NAME, PARAMS, OP, OPERAND, COMPARE)                                   \
    SSHMEM_DEFINE(void, shmem_##N##_atomic_##NAME##_nbi, PARAMS)                                 \
    {                                                                                            \
        sshmem_amo_nbi(SHMEM_CTX_DEFAULT, fetch, dest, OP, sizeof(T), OPERAND, COMPARE, pe,      \
                       "shmem_" #N "_atomic_" #NAME "_nbi");                                     \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_##N##_atomic_##NAME##_nbi,                                     \
                  (shmem_ctx_t ctx, DEF_UNPAREN_ PARAMS))                                        \
    {                                                                                            \
        sshmem_amo_nbi(ctx, fetch, dest, OP, sizeof(T), OPERAND, COMPARE, pe,                    \
                       "shmem_ctx_" #N "_atomic_" #NAME "_nbi");                                 \
    }

/* Extended AMO types: fetch, set, swap. fetch takes a const source: cast it for the core. */
#define DEF_EXT_AMO_(T, N)                                                                       \
    SSHMEM_DEFINE(T, shmem_##N##_atomic_fetch, (const T *source, int pe))                        \
    {                                                                                            \
        return VALUE_(T, sshmem_amo(SHMEM_CTX_DEFAULT, (void *)source, SSHMEM_AMO_FETCH,         \
                                    sizeof(T), 0, 0, 1, pe, "shmem_" #N "_atomic_fetch"));       \
    }                                                                                            \
    SSHMEM_DEFINE(T, shmem_ctx_##N##_atomic_fetch, (shmem_ctx_t ctx, const T *source, int pe))   \
    {                                                                                            \
        return VALUE_(T, sshmem_amo(ctx, (void *)source, SSHMEM_AMO_FETCH, sizeof(T), 0, 0, 1,   \
                                    pe, "shmem_ctx_" #N "_atomic_fetch"));                       \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_##N##_atomic_fetch_nbi, (T * fetch, const T *source, int pe))      \
    {                                                                                            \
        sshmem_amo_nbi(SHMEM_CTX_DEFAULT, fetch, (void *)source, SSHMEM_AMO_FETCH, sizeof(T), 0, \
                       0, pe, "shmem_" #N "_atomic_fetch_nbi");                                  \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_##N##_atomic_fetch_nbi,                                        \
                  (shmem_ctx_t ctx, T * fetch, const T *source, int pe))                         \
    {                                                                                            \
        sshmem_amo_nbi(ctx, fetch, (void *)source, SSHMEM_AMO_FETCH, sizeof(T), 0, 0, pe,        \
                       "shmem_ctx_" #N "_atomic_fetch_nbi");                                     \
    }                                                                                            \
    DEF_AMO_VOID_(T, N, set, (T * dest, T value, int pe), SSHMEM_AMO_SET, BITS_(T, value))       \
    DEF_AMO_(T, N, swap, (T * dest, T value, int pe), , SSHMEM_AMO_SWAP, BITS_(T, value), 0, 1)  \
    DEF_AMO_NBI_(T, N, swap, (T * fetch, T * dest, T value, int pe), SSHMEM_AMO_SWAP,            \
                 BITS_(T, value), 0)                                                             \
    SSHMEM_DEFINE(T, shmem_##N##_fetch, (const T *source, int pe))                               \
    {                                                                                            \
        return pshmem_##N##_atomic_fetch(source, pe);                                            \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_##N##_set, (T * dest, T value, int pe))                            \
    {                                                                                            \
        pshmem_##N##_atomic_set(dest, value, pe);                                                \
    }                                                                                            \
    SSHMEM_DEFINE(T, shmem_##N##_swap, (T * dest, T value, int pe))                              \
    {                                                                                            \
        return pshmem_##N##_atomic_swap(dest, value, pe);                                        \
    }
SHMEM_EXT_AMO_TYPES(DEF_EXT_AMO_)

/* Standard AMO types: compare_swap, fetch_inc, inc, fetch_add, add (+ nbi, deprecated). */
#define DEF_STD_AMO_(T, N)                                                                       \
    DEF_AMO_(T, N, compare_swap, (T * dest, T cond, T value, int pe), , SSHMEM_AMO_CSWAP,        \
             BITS_(T, value), BITS_(T, cond), 1)                                                 \
    DEF_AMO_(T, N, fetch_inc, (T * dest, int pe), , SSHMEM_AMO_ADD, BITS_(T, 1), 0, 1)           \
    DEF_AMO_(T, N, fetch_add, (T * dest, T value, int pe), , SSHMEM_AMO_ADD, BITS_(T, value), 0, \
             1)                                                                                  \
    DEF_AMO_VOID_(T, N, inc, (T * dest, int pe), SSHMEM_AMO_ADD, BITS_(T, 1))                    \
    DEF_AMO_VOID_(T, N, add, (T * dest, T value, int pe), SSHMEM_AMO_ADD, BITS_(T, value))       \
    DEF_AMO_NBI_(T, N, compare_swap, (T * fetch, T * dest, T cond, T value, int pe),             \
                 SSHMEM_AMO_CSWAP, BITS_(T, value), BITS_(T, cond))                              \
    DEF_AMO_NBI_(T, N, fetch_inc, (T * fetch, T * dest, int pe), SSHMEM_AMO_ADD, BITS_(T, 1), 0) \
    DEF_AMO_NBI_(T, N, fetch_add, (T * fetch, T * dest, T value, int pe), SSHMEM_AMO_ADD,        \
                 BITS_(T, value), 0)                                                             \
    SSHMEM_DEFINE(T, shmem_##N##_cswap, (T * dest, T cond, T value, int pe))                     \
    {                                                                                            \
        return pshmem_##N##_atomic_compare_swap(dest, cond, value, pe);                          \
    }                                                                                            \
    SSHMEM_DEFINE(T, shmem_##N##_finc, (T * dest, int pe))                                       \
    {                                                                                            \
        return pshmem_##N##_atomic_fetch_inc(dest, pe);                                          \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_##N##_inc, (T * dest, int pe)) { pshmem_##N##_atomic_inc(dest, pe); } \
    SSHMEM_DEFINE(T, shmem_##N##_fadd, (T * dest, T value, int pe))                              \
    {                                                                                            \
        return pshmem_##N##_atomic_fetch_add(dest, value, pe);                                   \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_##N##_add, (T * dest, T value, int pe))                            \
    {                                                                                            \
        pshmem_##N##_atomic_add(dest, value, pe);                                                \
    }
SHMEM_STD_AMO_TYPES(DEF_STD_AMO_)

/* Bitwise AMO types: and, or, xor, fetching or not. */
#define DEF_BITWISE_OP_(T, N, NAME, OP)                                                          \
    DEF_AMO_(T, N, fetch_##NAME, (T * dest, T value, int pe), , OP, BITS_(T, value), 0, 1)       \
    DEF_AMO_VOID_(T, N, NAME, (T * dest, T value, int pe), OP, BITS_(T, value))                  \
    DEF_AMO_NBI_(T, N, fetch_##NAME, (T * fetch, T * dest, T value, int pe), OP, BITS_(T, value), \
                 0)
#define DEF_BITWISE_AMO_(T, N)                                                                   \
    DEF_BITWISE_OP_(T, N, and, SSHMEM_AMO_AND)                                                   \
    DEF_BITWISE_OP_(T, N, or, SSHMEM_AMO_OR)                                                     \
    DEF_BITWISE_OP_(T, N, xor, SSHMEM_AMO_XOR)
SHMEM_BITWISE_AMO_TYPES(DEF_BITWISE_AMO_)
