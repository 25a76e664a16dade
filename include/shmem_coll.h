/*
 * shmem_coll.h: part of shmem.h (include <shmem.h>, not this file): teams and collectives.
 * The typed routines are declared by expanding the type lists of shmem_typetable.h.
 *
 * Two forms of every collective exist. The team forms (shmem_TYPE_broadcast(team, ...),
 * shmem_TYPE_OP_reduce(team, ...), the scans) are the current API. The active-set forms
 * (PE_start, logPE_stride, PE_size, pSync, and pWrk for reductions) are deprecated but still
 * part of OpenSHMEM 1.6, and work the same way over one collective engine.
 */
#ifndef SHMEM_COLL_H
#define SHMEM_COLL_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ teams */
/* Bits of the config_mask argument: which fields of shmem_team_config_t to use. */
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);

/* ------------------------------------------------------------------ synchronization */
void shmem_barrier_all(void);
void shmem_sync_all(void);
int shmem_team_sync(shmem_team_t team);
SHMEM_DEPRECATED void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
/* The active-set shmem_sync; C11 programs may also call shmem_sync(team) (see below). */
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

/* ------------------------------------------------------------------ team collectives, untyped */
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems);

/* ------------------------------------------------------------------ active-set collectives */
#define SHMEM_DECL_ACTIVE_SET_(BITS)                                                              \
    SHMEM_DEPRECATED void shmem_broadcast##BITS(void *dest, const void *source, size_t nelems,     \
                                                int PE_root, int PE_start, int logPE_stride,       \
                                                int PE_size, long *pSync);                         \
    SHMEM_DEPRECATED void shmem_collect##BITS(void *dest, const void *source, size_t nelems,       \
                                              int PE_start, int logPE_stride, int PE_size,         \
                                              long *pSync);                                        \
    SHMEM_DEPRECATED void shmem_fcollect##BITS(void *dest, const void *source, size_t nelems,      \
                                               int PE_start, int logPE_stride, int PE_size,        \
                                               long *pSync);                                       \
    SHMEM_DEPRECATED void shmem_alltoall##BITS(void *dest, const void *source, size_t nelems,      \
                                               int PE_start, int logPE_stride, int PE_size,        \
                                               long *pSync);                                       \
    SHMEM_DEPRECATED void shmem_alltoalls##BITS(void *dest, const void *source, ptrdiff_t dst,     \
                                                ptrdiff_t sst, size_t nelems, int PE_start,        \
                                                int logPE_stride, int PE_size, long *pSync);
SHMEM_DECL_ACTIVE_SET_(32)
SHMEM_DECL_ACTIVE_SET_(64)
#undef SHMEM_DECL_ACTIVE_SET_

/* ================================================================== GENERATED declarations
 * Each block below expands one family over its type list from shmem_typetable.h. */

/* shmem_TYPE_broadcast, collect, fcollect, alltoall, alltoalls: the standard RMA types. */
#define SHMEM_DECL_TEAM_DATA_(T, N)                                                               \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,          \
                              int PE_root);                                                        \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);           \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);          \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);          \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,          \
                              ptrdiff_t sst, size_t nelems);
SHMEM_RMA_TYPES(SHMEM_DECL_TEAM_DATA_)
#undef SHMEM_DECL_TEAM_DATA_

/* shmem_TYPE_OP_reduce (team) and shmem_TYPE_OP_to_all (active set). */
#define SHMEM_DECL_REDUCE_(T, N, OP)                                                              \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define SHMEM_DECL_TO_ALL_(T, N, OP)                                                              \
    SHMEM_DEPRECATED void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce,         \
                                                    int PE_start, int logPE_stride, int PE_size,   \
                                                    T *pWrk, long *pSync);
#define SHMEM_DECL_REDUCE_AND_(T, N) SHMEM_DECL_REDUCE_(T, N, and)
#define SHMEM_DECL_REDUCE_OR_(T, N) SHMEM_DECL_REDUCE_(T, N, or)
#define SHMEM_DECL_REDUCE_XOR_(T, N) SHMEM_DECL_REDUCE_(T, N, xor)
#define SHMEM_DECL_REDUCE_MIN_(T, N) SHMEM_DECL_REDUCE_(T, N, min)
#define SHMEM_DECL_REDUCE_MAX_(T, N) SHMEM_DECL_REDUCE_(T, N, max)
#define SHMEM_DECL_REDUCE_SUM_(T, N) SHMEM_DECL_REDUCE_(T, N, sum)
#define SHMEM_DECL_REDUCE_PROD_(T, N) SHMEM_DECL_REDUCE_(T, N, prod)
SHMEM_REDUCE_BITWISE_TYPES(SHMEM_DECL_REDUCE_AND_)
SHMEM_REDUCE_BITWISE_TYPES(SHMEM_DECL_REDUCE_OR_)
SHMEM_REDUCE_BITWISE_TYPES(SHMEM_DECL_REDUCE_XOR_)
SHMEM_REDUCE_MINMAX_TYPES(SHMEM_DECL_REDUCE_MIN_)
SHMEM_REDUCE_MINMAX_TYPES(SHMEM_DECL_REDUCE_MAX_)
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DECL_REDUCE_SUM_)
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DECL_REDUCE_PROD_)
#define SHMEM_DECL_TO_ALL_AND_(T, N) SHMEM_DECL_TO_ALL_(T, N, and)
#define SHMEM_DECL_TO_ALL_OR_(T, N) SHMEM_DECL_TO_ALL_(T, N, or)
#define SHMEM_DECL_TO_ALL_XOR_(T, N) SHMEM_DECL_TO_ALL_(T, N, xor)
#define SHMEM_DECL_TO_ALL_MIN_(T, N) SHMEM_DECL_TO_ALL_(T, N, min)
#define SHMEM_DECL_TO_ALL_MAX_(T, N) SHMEM_DECL_TO_ALL_(T, N, max)
#define SHMEM_DECL_TO_ALL_SUM_(T, N) SHMEM_DECL_TO_ALL_(T, N, sum)
#define SHMEM_DECL_TO_ALL_PROD_(T, N) SHMEM_DECL_TO_ALL_(T, N, prod)
SHMEM_TO_ALL_BITWISE_TYPES(SHMEM_DECL_TO_ALL_AND_)
SHMEM_TO_ALL_BITWISE_TYPES(SHMEM_DECL_TO_ALL_OR_)
SHMEM_TO_ALL_BITWISE_TYPES(SHMEM_DECL_TO_ALL_XOR_)
SHMEM_TO_ALL_MINMAX_TYPES(SHMEM_DECL_TO_ALL_MIN_)
SHMEM_TO_ALL_MINMAX_TYPES(SHMEM_DECL_TO_ALL_MAX_)
SHMEM_TO_ALL_ARITH_TYPES(SHMEM_DECL_TO_ALL_SUM_)
SHMEM_TO_ALL_ARITH_TYPES(SHMEM_DECL_TO_ALL_PROD_)

/* shmem_TYPE_sum_inscan, shmem_TYPE_sum_exscan (OpenSHMEM 1.6). */
#define SHMEM_DECL_SCAN_(T, N)                                                                    \
    int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems);        \
    int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems);
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DECL_SCAN_)
#undef SHMEM_DECL_SCAN_

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ================================================================== C11 generic selections
 * shmem_broadcast(team, dest, source, nelems, root), shmem_sum_reduce(team, dest, source, n),
 * shmem_sum_inscan, ...: chosen by the type of dest. Also shmem_sync(team) next to the
 * active-set shmem_sync(PE_start, logPE_stride, PE_size, pSync), told apart by the number of
 * arguments. C11 and later, not C++. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)

#define SHMEM_GEN_ENTRY_(T, N, FAMILY) T * : shmem_##N##_##FAMILY,
#define SHMEM_GEN_BROADCAST_(T, N) SHMEM_GEN_ENTRY_(T, N, broadcast)
#define SHMEM_GEN_COLLECT_(T, N) SHMEM_GEN_ENTRY_(T, N, collect)
#define SHMEM_GEN_FCOLLECT_(T, N) SHMEM_GEN_ENTRY_(T, N, fcollect)
#define SHMEM_GEN_ALLTOALL_(T, N) SHMEM_GEN_ENTRY_(T, N, alltoall)
#define SHMEM_GEN_ALLTOALLS_(T, N) SHMEM_GEN_ENTRY_(T, N, alltoalls)
#define SHMEM_GEN_AND_(T, N) SHMEM_GEN_ENTRY_(T, N, and_reduce)
#define SHMEM_GEN_OR_(T, N) SHMEM_GEN_ENTRY_(T, N, or_reduce)
#define SHMEM_GEN_XOR_(T, N) SHMEM_GEN_ENTRY_(T, N, xor_reduce)
#define SHMEM_GEN_MIN_(T, N) SHMEM_GEN_ENTRY_(T, N, min_reduce)
#define SHMEM_GEN_MAX_(T, N) SHMEM_GEN_ENTRY_(T, N, max_reduce)
#define SHMEM_GEN_SUM_(T, N) SHMEM_GEN_ENTRY_(T, N, sum_reduce)
#define SHMEM_GEN_PROD_(T, N) SHMEM_GEN_ENTRY_(T, N, prod_reduce)
#define SHMEM_GEN_INSCAN_(T, N) SHMEM_GEN_ENTRY_(T, N, sum_inscan)
#define SHMEM_GEN_EXSCAN_(T, N) SHMEM_GEN_ENTRY_(T, N, sum_exscan)

/* The first argument is the team; the second (dest) chooses the routine. */
#define SHMEM_GEN_SECOND_(a, b, ...) b
#define SHMEM_GEN_SELECT_(LIST, ENTRY, ...)                                                      \
    _Generic(SHMEM_GEN_SECOND_(__VA_ARGS__, 0), LIST(ENTRY) default : shmem_generic_bad_type_)
void shmem_generic_bad_type_(void); /* never defined: a compile/link error names the misuse */

#define shmem_broadcast(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_RMA_TYPES, SHMEM_GEN_BROADCAST_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_collect(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_RMA_TYPES, SHMEM_GEN_COLLECT_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_fcollect(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_RMA_TYPES, SHMEM_GEN_FCOLLECT_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_alltoall(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_RMA_TYPES, SHMEM_GEN_ALLTOALL_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_alltoalls(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_RMA_TYPES, SHMEM_GEN_ALLTOALLS_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_and_reduce(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_REDUCE_BITWISE_TYPES, SHMEM_GEN_AND_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_or_reduce(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_REDUCE_BITWISE_TYPES, SHMEM_GEN_OR_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_xor_reduce(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_REDUCE_BITWISE_TYPES, SHMEM_GEN_XOR_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_min_reduce(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_REDUCE_MINMAX_TYPES, SHMEM_GEN_MIN_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_max_reduce(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_REDUCE_MINMAX_TYPES, SHMEM_GEN_MAX_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_sum_reduce(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_REDUCE_ARITH_TYPES, SHMEM_GEN_SUM_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_prod_reduce(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_REDUCE_ARITH_TYPES, SHMEM_GEN_PROD_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_sum_inscan(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_REDUCE_ARITH_TYPES, SHMEM_GEN_INSCAN_, __VA_ARGS__)(__VA_ARGS__)
#define shmem_sum_exscan(...) SHMEM_GEN_SELECT_(SHMEM_GENERIC_REDUCE_ARITH_TYPES, SHMEM_GEN_EXSCAN_, __VA_ARGS__)(__VA_ARGS__)

/* shmem_sync(team) or shmem_sync(PE_start, logPE_stride, PE_size, pSync). */
#define SHMEM_GEN_FIFTH_(a, b, c, d, e, ...) e
#define shmem_sync(...)                                                                          \
    SHMEM_GEN_FIFTH_(__VA_ARGS__, shmem_sync, shmem_generic_bad_type_, shmem_generic_bad_type_,  \
                     shmem_team_sync, 0)(__VA_ARGS__)

#endif /* C11 */

#endif
