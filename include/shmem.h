/*
 * shmem.h: the OpenSHMEM 1.6 API of sshmem.
 *
 * The typed routines (shmem_TYPE_put, shmem_TYPE_atomic_fetch_add, ...) are declared by
 * expanding the type lists of shmem_typetable.h; see the "GENERATED" sections below.
 * Routine documentation: the OpenSHMEM specification, and doc/ in the sshmem sources.
 */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>
#include <shmem_typetable.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ library constants */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "sshmem 0.1.0"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE     0
#define SHMEM_THREAD_FUNNELED   1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE   3

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

#define SHMEM_MALLOC_ATOMICS_REMOTE 1L
#define SHMEM_MALLOC_SIGNAL_REMOTE  2L

#define SHMEM_CTX_SERIALIZED 1L
#define SHMEM_CTX_PRIVATE    2L
#define SHMEM_CTX_NOSTORE    4L

/* Active-set collectives: sizes of the pSync/pWrk arrays the caller provides. */
#define SHMEM_SYNC_VALUE (-1L)
#define SHMEM_BCAST_SYNC_SIZE 64
#define SHMEM_COLLECT_SYNC_SIZE 64
#define SHMEM_REDUCE_SYNC_SIZE 64
#define SHMEM_BARRIER_SYNC_SIZE 64
#define SHMEM_ALLTOALL_SYNC_SIZE 64
#define SHMEM_ALLTOALLS_SYNC_SIZE 64
#define SHMEM_SYNC_SIZE 64
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 16
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ------------------------------------------------------------------ handles */
typedef struct sshmem_ctx *shmem_ctx_t;
typedef struct sshmem_team *shmem_team_t;

extern struct sshmem_ctx sshmem_ctx_default;
#define SHMEM_CTX_DEFAULT (&sshmem_ctx_default)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

extern struct sshmem_team sshmem_team_world, sshmem_team_shared;
#define SHMEM_TEAM_WORLD  (&sshmem_team_world)
#define SHMEM_TEAM_SHARED (&sshmem_team_shared)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)

typedef struct {
    int num_contexts;
} shmem_team_config_t;

#if defined(__GNUC__)
#define SHMEM_DEPRECATED __attribute__((deprecated))
#else
#define SHMEM_DEPRECATED
#endif

/* ------------------------------------------------------------------ library setup, query */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
int shmem_query_initialized(int *initialized);
int shmem_query_finalized(int *finalized);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

/* ------------------------------------------------------------------ symmetric memory */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
void *shmem_malloc_with_hints(size_t size, long hints);

/* ------------------------------------------------------------------ untyped RMA */
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe);

/* ------------------------------------------------------------------ ordering, completion */
void shmem_fence(void);
void shmem_quiet(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_ctx_quiet(shmem_ctx_t ctx);

/* ------------------------------------------------------------------ collectives */
void shmem_barrier_all(void);
void shmem_sync_all(void);

/* ================================================================== GENERATED declarations
 * Each block below expands one family over its type list from shmem_typetable.h. */

#define SHMEM_DECL_RMA_(T, N)                                                                    \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                         \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                         \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);                     \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);                     \
    void shmem_##N##_p(T *dest, T value, int pe);                                                  \
    T shmem_##N##_g(const T *source, int pe);                                                      \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                          int pe);                                                                 \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                          int pe);                                                                 \
    void shmem_##N##_ibput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,   \
                           size_t nblocks, int pe);                                                \
    void shmem_##N##_ibget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,   \
                           size_t nblocks, int pe);                                                \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);    \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);    \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);\
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe);\
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe);                             \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);                                 \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,            \
                              ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,            \
                              ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_ctx_##N##_ibput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,           \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);               \
    void shmem_ctx_##N##_ibget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,           \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
SHMEM_RMA_TYPES(SHMEM_DECL_RMA_)
#undef SHMEM_DECL_RMA_

#define SHMEM_DECL_SIZED_RMA_(BITS, BYTES)                                                       \
    void shmem_put##BITS(void *dest, const void *source, size_t nelems, int pe);                   \
    void shmem_get##BITS(void *dest, const void *source, size_t nelems, int pe);                   \
    void shmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);             \
    void shmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe);             \
    void shmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,            \
                          size_t nelems, int pe);                                                  \
    void shmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,            \
                          size_t nelems, int pe);                                                  \
    void shmem_ibput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,           \
                           size_t bsize, size_t nblocks, int pe);                                  \
    void shmem_ibget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,           \
                           size_t bsize, size_t nblocks, int pe);                                  \
    void shmem_ctx_put##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,       \
                             int pe);                                                              \
    void shmem_ctx_get##BITS(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,       \
                             int pe);                                                              \
    void shmem_ctx_put##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source,                \
                                   size_t nelems, int pe);                                         \
    void shmem_ctx_get##BITS##_nbi(shmem_ctx_t ctx, void *dest, const void *source,                \
                                   size_t nelems, int pe);                                         \
    void shmem_ctx_iput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,      \
                              ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_ctx_iget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,      \
                              ptrdiff_t sst, size_t nelems, int pe);                               \
    void shmem_ctx_ibput##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,     \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);               \
    void shmem_ctx_ibget##BITS(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,     \
                               ptrdiff_t sst, size_t bsize, size_t nblocks, int pe);
SHMEM_RMA_SIZES(SHMEM_DECL_SIZED_RMA_)
#undef SHMEM_DECL_SIZED_RMA_

/* Atomics on the extended AMO types: fetch, set, swap. */
#define SHMEM_DECL_EXT_AMO_(T, N)                                                                \
    T shmem_##N##_atomic_fetch(const T *source, int pe);                                           \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                         \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe);                                           \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                          \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);                          \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe);                      \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe);                    \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);                      \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe);     \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);     \
    SHMEM_DEPRECATED T shmem_##N##_fetch(const T *source, int pe);                                 \
    SHMEM_DEPRECATED void shmem_##N##_set(T *dest, T value, int pe);                               \
    SHMEM_DEPRECATED T shmem_##N##_swap(T *dest, T value, int pe);
SHMEM_EXT_AMO_TYPES(SHMEM_DECL_EXT_AMO_)
#undef SHMEM_DECL_EXT_AMO_

/* Atomics on the standard AMO types: arithmetic and compare-and-swap. */
#define SHMEM_DECL_STD_AMO_(T, N)                                                                \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                           \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                               \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                                  \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                                      \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                         \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);          \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                              \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);                     \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe);      \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe);                          \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe);                             \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe);                 \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);                    \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond,       \
                                                 T value, int pe);                                 \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe);         \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe);\
    SHMEM_DEPRECATED T shmem_##N##_cswap(T *dest, T cond, T value, int pe);                        \
    SHMEM_DEPRECATED T shmem_##N##_finc(T *dest, int pe);                                          \
    SHMEM_DEPRECATED void shmem_##N##_inc(T *dest, int pe);                                        \
    SHMEM_DEPRECATED T shmem_##N##_fadd(T *dest, T value, int pe);                                 \
    SHMEM_DEPRECATED void shmem_##N##_add(T *dest, T value, int pe);
SHMEM_STD_AMO_TYPES(SHMEM_DECL_STD_AMO_)
#undef SHMEM_DECL_STD_AMO_

/* Bitwise atomics. */
#define SHMEM_DECL_BITWISE_AMO_OP_(T, N, OP)                                                     \
    T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe);                                     \
    void shmem_##N##_atomic_##OP(T *dest, T value, int pe);                                        \
    void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, int pe);                  \
    T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);                \
    void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, int pe);                   \
    void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,      \
                                                 int pe);
#define SHMEM_DECL_BITWISE_AMO_(T, N)                                                            \
    SHMEM_DECL_BITWISE_AMO_OP_(T, N, and)                                                          \
    SHMEM_DECL_BITWISE_AMO_OP_(T, N, or) SHMEM_DECL_BITWISE_AMO_OP_(T, N, xor)
SHMEM_BITWISE_AMO_TYPES(SHMEM_DECL_BITWISE_AMO_)
#undef SHMEM_DECL_BITWISE_AMO_
#undef SHMEM_DECL_BITWISE_AMO_OP_

/* Point-to-point synchronization. */
#define SHMEM_DECL_SYNC_(T, N)                                                                   \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                                    \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                           \
    SHMEM_DEPRECATED void shmem_##N##_wait(T *ivar, T cmp_value);
SHMEM_SYNC_TYPES(SHMEM_DECL_SYNC_)
#undef SHMEM_DECL_SYNC_

/* ------------------------------------------------------------------ deprecated names */
SHMEM_DEPRECATED void start_pes(int npes);
SHMEM_DEPRECATED int _my_pe(void);
SHMEM_DEPRECATED int _num_pes(void);
SHMEM_DEPRECATED void *shmalloc(size_t size);
SHMEM_DEPRECATED void shfree(void *ptr);
SHMEM_DEPRECATED void *shrealloc(void *ptr, size_t size);
SHMEM_DEPRECATED void *shmemalign(size_t alignment, size_t size);
SHMEM_DEPRECATED void shmem_wait_until(long *ivar, int cmp, long cmp_value);
SHMEM_DEPRECATED void shmem_wait(long *ivar, long cmp_value);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SHMEM_H */
