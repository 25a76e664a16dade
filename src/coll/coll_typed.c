/*
 * coll_typed.c: GENERATED from the type table (include/shmem_typetable.h). Every typed
 * collective is a shell over the size-generic front ends of api.h: the team data movers
 * (broadcast, collect, fcollect, alltoall, alltoalls), the team reductions, the active-set
 * reductions (TYPE_OP_to_all) and the scans.
 */
#include <shmem.h>

#include "coll/api.h"
#include "coll/coll.h"
#include "core/api_defs.h"

#define DEF_TEAM_DATA_(T, N)                                                                     \
    SSHMEM_DEFINE(int, shmem_##N##_broadcast,                                                    \
                  (shmem_team_t team, T * dest, const T *source, size_t nelems, int PE_root))    \
    {                                                                                            \
        return coll_team_broadcast(team, dest, source, nelems * sizeof(T), PE_root,              \
                                   "shmem_" #N "_broadcast");                                    \
    }                                                                                            \
    SSHMEM_DEFINE(int, shmem_##N##_collect,                                                      \
                  (shmem_team_t team, T * dest, const T *source, size_t nelems))                 \
    {                                                                                            \
        return coll_team_collect(team, dest, source, nelems * sizeof(T), "shmem_" #N "_collect"); \
    }                                                                                            \
    SSHMEM_DEFINE(int, shmem_##N##_fcollect,                                                     \
                  (shmem_team_t team, T * dest, const T *source, size_t nelems))                 \
    {                                                                                            \
        return coll_team_fcollect(team, dest, source, nelems * sizeof(T),                        \
                                  "shmem_" #N "_fcollect");                                      \
    }                                                                                            \
    SSHMEM_DEFINE(int, shmem_##N##_alltoall,                                                     \
                  (shmem_team_t team, T * dest, const T *source, size_t nelems))                 \
    {                                                                                            \
        return coll_team_alltoall(team, dest, source, nelems * sizeof(T),                        \
                                  "shmem_" #N "_alltoall");                                      \
    }                                                                                            \
    SSHMEM_DEFINE(int, shmem_##N##_alltoalls,                                                    \
                  (shmem_team_t team, T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,   \
                   size_t nelems))                                                               \
    {                                                                                            \
        return coll_team_alltoalls(team, dest, source, dst, sst, nelems, sizeof(T),              \
                                   "shmem_" #N "_alltoalls");                                    \
    }
SHMEM_RMA_TYPES(DEF_TEAM_DATA_)

#define DEF_REDUCE_(T, N, OP)                                                                    \
    SSHMEM_DEFINE(int, shmem_##N##_##OP##_reduce,                                                \
                  (shmem_team_t team, T * dest, const T *source, size_t nreduce))                \
    {                                                                                            \
        return coll_team_reduce(team, dest, source, nreduce, COLL_OP(N, OP),                      \
                                "shmem_" #N "_" #OP "_reduce");                                  \
    }
#define DEF_TO_ALL_(T, N, OP)                                                                    \
    SSHMEM_DEFINE(void, shmem_##N##_##OP##_to_all,                                               \
                  (T * dest, const T *source, int nreduce, int PE_start, int logPE_stride,       \
                   int PE_size, T *pWrk, long *pSync))                                           \
    {                                                                                            \
        coll_as_to_all(dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync,      \
                       COLL_OP(N, OP), "shmem_" #N "_" #OP "_to_all");                          \
    }
#define DEF_REDUCE_AND_(T, N) DEF_REDUCE_(T, N, and)
#define DEF_REDUCE_OR_(T, N) DEF_REDUCE_(T, N, or)
#define DEF_REDUCE_XOR_(T, N) DEF_REDUCE_(T, N, xor)
#define DEF_REDUCE_MIN_(T, N) DEF_REDUCE_(T, N, min)
#define DEF_REDUCE_MAX_(T, N) DEF_REDUCE_(T, N, max)
#define DEF_REDUCE_SUM_(T, N) DEF_REDUCE_(T, N, sum)
#define DEF_REDUCE_PROD_(T, N) DEF_REDUCE_(T, N, prod)
SHMEM_REDUCE_BITWISE_TYPES(DEF_REDUCE_AND_)
SHMEM_REDUCE_BITWISE_TYPES(DEF_REDUCE_OR_)
SHMEM_REDUCE_BITWISE_TYPES(DEF_REDUCE_XOR_)
SHMEM_REDUCE_MINMAX_TYPES(DEF_REDUCE_MIN_)
SHMEM_REDUCE_MINMAX_TYPES(DEF_REDUCE_MAX_)
SHMEM_REDUCE_ARITH_TYPES(DEF_REDUCE_SUM_)
SHMEM_REDUCE_ARITH_TYPES(DEF_REDUCE_PROD_)
#define DEF_TO_ALL_AND_(T, N) DEF_TO_ALL_(T, N, and)
#define DEF_TO_ALL_OR_(T, N) DEF_TO_ALL_(T, N, or)
#define DEF_TO_ALL_XOR_(T, N) DEF_TO_ALL_(T, N, xor)
#define DEF_TO_ALL_MIN_(T, N) DEF_TO_ALL_(T, N, min)
#define DEF_TO_ALL_MAX_(T, N) DEF_TO_ALL_(T, N, max)
#define DEF_TO_ALL_SUM_(T, N) DEF_TO_ALL_(T, N, sum)
#define DEF_TO_ALL_PROD_(T, N) DEF_TO_ALL_(T, N, prod)
SHMEM_TO_ALL_BITWISE_TYPES(DEF_TO_ALL_AND_)
SHMEM_TO_ALL_BITWISE_TYPES(DEF_TO_ALL_OR_)
SHMEM_TO_ALL_BITWISE_TYPES(DEF_TO_ALL_XOR_)
SHMEM_TO_ALL_MINMAX_TYPES(DEF_TO_ALL_MIN_)
SHMEM_TO_ALL_MINMAX_TYPES(DEF_TO_ALL_MAX_)
SHMEM_TO_ALL_ARITH_TYPES(DEF_TO_ALL_SUM_)
SHMEM_TO_ALL_ARITH_TYPES(DEF_TO_ALL_PROD_)

#define DEF_SCAN_(T, N)                                                                          \
    SSHMEM_DEFINE(int, shmem_##N##_sum_inscan,                                                   \
                  (shmem_team_t team, T * dest, const T *source, size_t nelems))                 \
    {                                                                                            \
        return coll_team_scan(team, dest, source, nelems, COLL_OP(N, sum), COLL_SCAN_INCLUSIVE, \
                              "shmem_" #N "_sum_inscan");                                        \
    }                                                                                            \
    SSHMEM_DEFINE(int, shmem_##N##_sum_exscan,                                                   \
                  (shmem_team_t team, T * dest, const T *source, size_t nelems))                 \
    {                                                                                            \
        return coll_team_scan(team, dest, source, nelems, COLL_OP(N, sum), COLL_SCAN_EXCLUSIVE, \
                              "shmem_" #N "_sum_exscan");                                        \
    }
SHMEM_REDUCE_ARITH_TYPES(DEF_SCAN_)
