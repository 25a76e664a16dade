/*
 * coll_typed.c: GENERATED from the type table (include/shmem_typetable.h). Every typed
 * collective describes its call and hands it to the front end of api.h: the team data movers
 * (broadcast, collect, fcollect, alltoall, alltoalls), the team reductions and the scans to
 * coll_team_call, the active-set reductions (TYPE_OP_to_all) to coll_as_to_all.
 */
#include <shmem.h>

#include "coll/api.h"
#include "core/api_defs.h"

#define DEF_TEAM_MOVE_(T, N, NAME, KIND)                                                         \
    SSHMEM_DEFINE(int, shmem_##N##_##NAME,                                                       \
                  (shmem_team_t team, T * dest, const T *source, size_t nelems))                 \
    {                                                                                            \
        COLL_TEAM_CALL(team, KIND, dest, source, nelems, sizeof(T),                              \
                       .call = "shmem_" #N "_" #NAME);                                           \
    }
#define DEF_TEAM_DATA_(T, N)                                                                     \
    SSHMEM_DEFINE(int, shmem_##N##_broadcast,                                                    \
                  (shmem_team_t team, T * dest, const T *source, size_t nelems, int PE_root))    \
    {                                                                                            \
        COLL_TEAM_CALL(team, COLL_BROADCAST, dest, source, nelems, sizeof(T), PE_root,           \
                       .call = "shmem_" #N "_broadcast");                                        \
    }                                                                                            \
    DEF_TEAM_MOVE_(T, N, collect, COLL_COLLECT)                                                  \
    DEF_TEAM_MOVE_(T, N, fcollect, COLL_FCOLLECT)                                                \
    DEF_TEAM_MOVE_(T, N, alltoall, COLL_ALLTOALL)                                                \
    SSHMEM_DEFINE(int, shmem_##N##_alltoalls,                                                    \
                  (shmem_team_t team, T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,   \
                   size_t nelems))                                                               \
    {                                                                                            \
        COLL_TEAM_CALL(team, COLL_ALLTOALLS, dest, source, nelems, sizeof(T), .dst = dst,        \
                       .sst = sst, .call = "shmem_" #N "_alltoalls");                            \
    }
SHMEM_RMA_TYPES(DEF_TEAM_DATA_)

#define DEF_REDUCE_(T, N, OP)                                                                    \
    SSHMEM_DEFINE(int, shmem_##N##_##OP##_reduce,                                                \
                  (shmem_team_t team, T * dest, const T *source, size_t nreduce))                \
    {                                                                                            \
        COLL_TEAM_CALL(team, COLL_REDUCE, dest, source, nreduce, .op = COLL_OP(N, OP),           \
                       .call = "shmem_" #N "_" #OP "_reduce");                                   \
    }
#define DEF_TO_ALL_(T, N, OP)                                                                    \
    SSHMEM_DEFINE(void, shmem_##N##_##OP##_to_all,                                               \
                  (T * dest, const T *source, int nreduce, int PE_start, int logPE_stride,       \
                   int PE_size, T *pWrk, long *pSync))                                           \
    {                                                                                            \
        coll_as_to_all(dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync,      \
                       COLL_OP(N, OP), "shmem_" #N "_" #OP "_to_all");                          \
    }
#define DEF_SCAN_(T, N, NAME, KIND)                                                              \
    SSHMEM_DEFINE(int, shmem_##N##_##NAME,                                                       \
                  (shmem_team_t team, T * dest, const T *source, size_t nelems))                 \
    {                                                                                            \
        COLL_TEAM_CALL(team, COLL_SCAN, dest, source, nelems, .op = COLL_OP(N, sum),             \
                       .scan = KIND, .call = "shmem_" #N "_" #NAME);                             \
    }

/* Each operator class of the table: its reduce and to_all routines (and, for arithmetic, the
 * scans), over the types the table gives each form. */
#define DEF_REDUCE_BITWISE_(T, N)                                                                \
    DEF_REDUCE_(T, N, and) DEF_REDUCE_(T, N, or) DEF_REDUCE_(T, N, xor)
#define DEF_REDUCE_MINMAX_(T, N) DEF_REDUCE_(T, N, min) DEF_REDUCE_(T, N, max)
#define DEF_REDUCE_ARITH_(T, N)                                                                  \
    DEF_REDUCE_(T, N, sum) DEF_REDUCE_(T, N, prod)                                               \
    DEF_SCAN_(T, N, sum_inscan, COLL_SCAN_INCLUSIVE)                                             \
    DEF_SCAN_(T, N, sum_exscan, COLL_SCAN_EXCLUSIVE)
#define DEF_TO_ALL_BITWISE_(T, N)                                                                \
    DEF_TO_ALL_(T, N, and) DEF_TO_ALL_(T, N, or) DEF_TO_ALL_(T, N, xor)
#define DEF_TO_ALL_MINMAX_(T, N) DEF_TO_ALL_(T, N, min) DEF_TO_ALL_(T, N, max)
#define DEF_TO_ALL_ARITH_(T, N) DEF_TO_ALL_(T, N, sum) DEF_TO_ALL_(T, N, prod)
SHMEM_REDUCE_BITWISE_TYPES(DEF_REDUCE_BITWISE_)
SHMEM_REDUCE_MINMAX_TYPES(DEF_REDUCE_MINMAX_)
SHMEM_REDUCE_ARITH_TYPES(DEF_REDUCE_ARITH_)
SHMEM_TO_ALL_BITWISE_TYPES(DEF_TO_ALL_BITWISE_)
SHMEM_TO_ALL_MINMAX_TYPES(DEF_TO_ALL_MINMAX_)
SHMEM_TO_ALL_ARITH_TYPES(DEF_TO_ALL_ARITH_)
