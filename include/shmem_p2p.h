/*
 * shmem_p2p.h: part of shmem.h (include <shmem.h>, not this file): point-to-point routines: RMA, atomics, ordering, waits.
 * The typed routines are declared by expanding the type lists of shmem_typetable.h.
 */
#ifndef SHMEM_P2P_H
#define SHMEM_P2P_H

#ifdef __cplusplus
extern "C" {
#endif

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

/* ------------------------------------------------------------------ deprecated waits (1.3) */
SHMEM_DEPRECATED void shmem_wait_until(long *ivar, int cmp, long cmp_value);
SHMEM_DEPRECATED void shmem_wait(long *ivar, long cmp_value);

/* ================================================================== signals (put-with-signal) */
/* sig_op is SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD; the signal becomes visible only after the
 * data it follows. */
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);

#define SHMEM_DECL_PUT_SIGNAL_(T, N)                                                             \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,       \
                                uint64_t signal, int sig_op, int pe);                              \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,   \
                                    uint64_t signal, int sig_op, int pe);                          \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,      \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);      \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,  \
                                        uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
SHMEM_RMA_TYPES(SHMEM_DECL_PUT_SIGNAL_)
#undef SHMEM_DECL_PUT_SIGNAL_

#define SHMEM_DECL_SIZED_PUT_SIGNAL_(BITS, BYTES)                                                \
    void shmem_put##BITS##_signal(void *dest, const void *source, size_t nelems,                   \
                                  uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);        \
    void shmem_put##BITS##_signal_nbi(void *dest, const void *source, size_t nelems,               \
                                      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);    \
    void shmem_ctx_put##BITS##_signal(shmem_ctx_t ctx, void *dest, const void *source,             \
                                      size_t nelems, uint64_t *sig_addr, uint64_t signal,          \
                                      int sig_op, int pe);                                         \
    void shmem_ctx_put##BITS##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,         \
                                          size_t nelems, uint64_t *sig_addr, uint64_t signal,      \
                                          int sig_op, int pe);
SHMEM_RMA_SIZES(SHMEM_DECL_SIZED_PUT_SIGNAL_)
#undef SHMEM_DECL_SIZED_PUT_SIGNAL_

uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ================================================================== wait and test on sets
 * status (may be NULL): entries set to non-zero are left out of the set. */
#define SHMEM_DECL_WAIT_SET_(T, N)                                                               \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,           \
                                    T cmp_value);                                                  \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,         \
                                      T cmp_value);                                                \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,                   \
                                       const int *status, int cmp, T cmp_value);                   \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,    \
                                           const T *cmp_values);                                   \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp,  \
                                             const T *cmp_values);                                 \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,            \
                                              const int *status, int cmp, const T *cmp_values);    \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);    \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,               \
                                T cmp_value);                                                      \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status,      \
                                 int cmp, T cmp_value);                                            \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,           \
                                    const T *cmp_values);                                          \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,        \
                                       const T *cmp_values);                                       \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,                  \
                                        const int *status, int cmp, const T *cmp_values);
SHMEM_SYNC_TYPES(SHMEM_DECL_WAIT_SET_)
#undef SHMEM_DECL_WAIT_SET_

/* ================================================================== distributed locks */
/* lock: a symmetric long, 0 on every PE before first use, touched only by these routines. */
void shmem_set_lock(long *lock);
int shmem_test_lock(long *lock);
void shmem_clear_lock(long *lock);

/* ================================================================== completion per PE */
void shmem_pe_quiet(const int *target_pes, size_t npes);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);

/* ================================================================== profiling, legacy caches */
void shmem_pcontrol(const int level, ...);
SHMEM_DEPRECATED void shmem_clear_cache_inv(void);
SHMEM_DEPRECATED void shmem_set_cache_inv(void);
SHMEM_DEPRECATED void shmem_clear_cache_line_inv(void *dest);
SHMEM_DEPRECATED void shmem_set_cache_line_inv(void *dest);
SHMEM_DEPRECATED void shmem_udcflush(void);
SHMEM_DEPRECATED void shmem_udcflush_line(void *dest);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
