/*
 * rma_typed.c: GENERATED from the type table (include/shmem_typetable.h). Every typed and
 * sized RMA routine is a shell over sshmem_put / sshmem_get / sshmem_iput / sshmem_iget.
 */
#include <shmem.h>

#include "core/api_defs.h"
#include "rma/rma.h"

/* put, get, put_nbi, get_nbi, with and without a context. */
#define DEF_CONTIG_(T, N, OP, SUFFIX, BLOCKING)                                                  \
    SSHMEM_DEFINE(void, shmem_##N##_##OP##SUFFIX,                                                \
                  (T * dest, const T *source, size_t nelems, int pe))                            \
    {                                                                                            \
        sshmem_##OP(SHMEM_CTX_DEFAULT, dest, source, nelems * sizeof(T), pe, BLOCKING,           \
                    "shmem_" #N "_" #OP #SUFFIX);                                                \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_##N##_##OP##SUFFIX,                                            \
                  (shmem_ctx_t ctx, T * dest, const T *source, size_t nelems, int pe))           \
    {                                                                                            \
        sshmem_##OP(ctx, dest, source, nelems * sizeof(T), pe, BLOCKING,                         \
                    "shmem_ctx_" #N "_" #OP #SUFFIX);                                            \
    }

/* iput/iget (strided elements: blocks of one) and ibput/ibget (strided blocks). */
#define DEF_STRIDED_(T, N, OP)                                                                   \
    SSHMEM_DEFINE(void, shmem_##N##_i##OP,                                                       \
                  (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,       \
                   int pe))                                                                      \
    {                                                                                            \
        sshmem_i##OP(SHMEM_CTX_DEFAULT, dest, source, dst, sst, sizeof(T), 1, nelems, pe,        \
                     "shmem_" #N "_i" #OP);                                                      \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_##N##_i##OP,                                                   \
                  (shmem_ctx_t ctx, T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,     \
                   size_t nelems, int pe))                                                       \
    {                                                                                            \
        sshmem_i##OP(ctx, dest, source, dst, sst, sizeof(T), 1, nelems, pe,                      \
                     "shmem_ctx_" #N "_i" #OP);                                                  \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_##N##_ib##OP,                                                      \
                  (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,        \
                   size_t nblocks, int pe))                                                      \
    {                                                                                            \
        sshmem_i##OP(SHMEM_CTX_DEFAULT, dest, source, dst, sst, sizeof(T), bsize, nblocks, pe,   \
                     "shmem_" #N "_ib" #OP);                                                     \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_##N##_ib##OP,                                                  \
                  (shmem_ctx_t ctx, T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,     \
                   size_t bsize, size_t nblocks, int pe))                                        \
    {                                                                                            \
        sshmem_i##OP(ctx, dest, source, dst, sst, sizeof(T), bsize, nblocks, pe,                 \
                     "shmem_ctx_" #N "_ib" #OP);                                                 \
    }

/* p and g: one element. */
#define DEF_SINGLE_(T, N)                                                                        \
    SSHMEM_DEFINE(void, shmem_##N##_p, (T * dest, T value, int pe))                              \
    {                                                                                            \
        sshmem_put(SHMEM_CTX_DEFAULT, dest, &value, sizeof(T), pe, 1, "shmem_" #N "_p");         \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_##N##_p, (shmem_ctx_t ctx, T * dest, T value, int pe))         \
    {                                                                                            \
        sshmem_put(ctx, dest, &value, sizeof(T), pe, 1, "shmem_ctx_" #N "_p");                   \
    }                                                                                            \
    SSHMEM_DEFINE(T, shmem_##N##_g, (const T *source, int pe))                                   \
    {                                                                                            \
        T value;                                                                                 \
        sshmem_get(SHMEM_CTX_DEFAULT, &value, source, sizeof(T), pe, 1, "shmem_" #N "_g");       \
        return value;                                                                            \
    }                                                                                            \
    SSHMEM_DEFINE(T, shmem_ctx_##N##_g, (shmem_ctx_t ctx, const T *source, int pe))              \
    {                                                                                            \
        T value;                                                                                 \
        sshmem_get(ctx, &value, source, sizeof(T), pe, 1, "shmem_ctx_" #N "_g");                 \
        return value;                                                                            \
    }

#define DEF_RMA_(T, N)                                                                           \
    DEF_CONTIG_(T, N, put, , 1)                                                                  \
    DEF_CONTIG_(T, N, get, , 1)                                                                  \
    DEF_CONTIG_(T, N, put, _nbi, 0)                                                              \
    DEF_CONTIG_(T, N, get, _nbi, 0)                                                              \
    DEF_STRIDED_(T, N, put)                                                                      \
    DEF_STRIDED_(T, N, get)                                                                      \
    DEF_SINGLE_(T, N)
SHMEM_RMA_TYPES(DEF_RMA_)

/* Sized routines: shmem_put8 .. shmem_put128 and their strided and ctx forms. */
#define DEF_SIZED_CONTIG_(BITS, BYTES, OP, SUFFIX, BLOCKING)                                     \
    SSHMEM_DEFINE(void, shmem_##OP##BITS##SUFFIX,                                                \
                  (void *dest, const void *source, size_t nelems, int pe))                       \
    {                                                                                            \
        sshmem_##OP(SHMEM_CTX_DEFAULT, dest, source, nelems * BYTES, pe, BLOCKING,               \
                    "shmem_" #OP #BITS #SUFFIX);                                                 \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_##OP##BITS##SUFFIX,                                            \
                  (shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe))      \
    {                                                                                            \
        sshmem_##OP(ctx, dest, source, nelems * BYTES, pe, BLOCKING,                             \
                    "shmem_ctx_" #OP #BITS #SUFFIX);                                             \
    }
#define DEF_SIZED_STRIDED_(BITS, BYTES, OP)                                                      \
    SSHMEM_DEFINE(void, shmem_i##OP##BITS,                                                       \
                  (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,  \
                   int pe))                                                                      \
    {                                                                                            \
        sshmem_i##OP(SHMEM_CTX_DEFAULT, dest, source, dst, sst, BYTES, 1, nelems, pe,            \
                     "shmem_i" #OP #BITS);                                                       \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_i##OP##BITS,                                                   \
                  (shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,               \
                   ptrdiff_t sst, size_t nelems, int pe))                                        \
    {                                                                                            \
        sshmem_i##OP(ctx, dest, source, dst, sst, BYTES, 1, nelems, pe, "shmem_ctx_i" #OP #BITS);\
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ib##OP##BITS,                                                      \
                  (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,   \
                   size_t nblocks, int pe))                                                      \
    {                                                                                            \
        sshmem_i##OP(SHMEM_CTX_DEFAULT, dest, source, dst, sst, BYTES, bsize, nblocks, pe,       \
                     "shmem_ib" #OP #BITS);                                                      \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_ib##OP##BITS,                                                  \
                  (shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,               \
                   ptrdiff_t sst, size_t bsize, size_t nblocks, int pe))                         \
    {                                                                                            \
        sshmem_i##OP(ctx, dest, source, dst, sst, BYTES, bsize, nblocks, pe,                     \
                     "shmem_ctx_ib" #OP #BITS);                                                  \
    }
#define DEF_SIZED_(BITS, BYTES)                                                                  \
    DEF_SIZED_CONTIG_(BITS, BYTES, put, , 1)                                                     \
    DEF_SIZED_CONTIG_(BITS, BYTES, get, , 1)                                                     \
    DEF_SIZED_CONTIG_(BITS, BYTES, put, _nbi, 0)                                                 \
    DEF_SIZED_CONTIG_(BITS, BYTES, get, _nbi, 0)                                                 \
    DEF_SIZED_STRIDED_(BITS, BYTES, put)                                                         \
    DEF_SIZED_STRIDED_(BITS, BYTES, get)
SHMEM_RMA_SIZES(DEF_SIZED_)
