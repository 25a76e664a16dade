/*
 * active_set.c: the active-set form of the collectives (PE_start, logPE_stride, PE_size,
 * pSync, pWrk): deprecated in OpenSHMEM 1.6 but required, and what old codes and many courses
 * use. logPE_stride becomes a stride here; the caller's pSync holds the engine's flags and pWrk
 * is its work buffer (see coll/engine.h). PEs outside the set are never touched.
 */
#include <shmem.h>

#include "coll/api.h"
#include "core/api_defs.h"

/* The pSync size the specification gives each kind: all the engine may assume. */
static const int psync_longs[COLL_NKINDS] = {
    [COLL_BROADCAST] = SHMEM_BCAST_SYNC_SIZE,     [COLL_COLLECT] = SHMEM_COLLECT_SYNC_SIZE,
    [COLL_FCOLLECT] = SHMEM_COLLECT_SYNC_SIZE,    [COLL_ALLTOALL] = SHMEM_ALLTOALL_SYNC_SIZE,
    [COLL_ALLTOALLS] = SHMEM_ALLTOALLS_SYNC_SIZE, [COLL_REDUCE] = SHMEM_REDUCE_SYNC_SIZE,
    [COLL_SYNC] = SHMEM_BARRIER_SYNC_SIZE,        [COLL_BARRIER] = SHMEM_BARRIER_SYNC_SIZE,
};

void coll_as_call(const coll_call_t *k, int PE_start, int logPE_stride, int PE_size,
                  long *pSync)
{
    coll_t c;
    coll_check_strides(k);
    coll_setup_active_set(&c, PE_start, logPE_stride, PE_size, pSync, psync_longs[k->kind],
                          NULL, 0, k->call);
    coll_run(&c, k);
}

void coll_as_to_all(void *dest, const void *source, int nreduce, int PE_start, int logPE_stride,
                    int PE_size, void *pWrk, long *pSync, const coll_op_t *op, const char *call)
{
    coll_t c;
    if (SSHMEM_UNLIKELY(nreduce < 0))
        sshmem_fatal(call, "nreduce is %d; it must be 0 or more", nreduce);
    if (SSHMEM_UNLIKELY(!pWrk))
        sshmem_fatal(call, "pWrk is NULL; pass a symmetric work array of max(nreduce/2 + 1, "
                     "SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements");
    /* The size the specification asks the caller for, and all we may assume. */
    size_t wrk = (size_t)nreduce / 2 + 1;
    if (wrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
        wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    coll_setup_active_set(&c, PE_start, logPE_stride, PE_size, pSync, SHMEM_REDUCE_SYNC_SIZE,
                          pWrk, wrk * op->esize, call);
    coll_run(&c, &(const coll_call_t){COLL_REDUCE, dest, source, (size_t)nreduce, .op = op,
                                      .call = call});
}

/* ------------------------------------------------------------------ the sized routines */
#define AS_ARGS_ int PE_start, int logPE_stride, int PE_size, long *pSync
#define AS_CALL_(...)                                                                            \
    coll_as_call(&(const coll_call_t){__VA_ARGS__}, PE_start, logPE_stride, PE_size, pSync)
#define DEF_AS_MOVE_(NAME, KIND, BITS)                                                           \
    SSHMEM_DEFINE(void, shmem_##NAME##BITS,                                                      \
                  (void *dest, const void *source, size_t nelems, AS_ARGS_))                     \
    {                                                                                            \
        AS_CALL_(KIND, dest, source, nelems, BITS / 8, .call = "shmem_" #NAME #BITS);            \
    }
#define DEF_ACTIVE_SET_(BITS)                                                                    \
    SSHMEM_DEFINE(void, shmem_broadcast##BITS,                                                   \
                  (void *dest, const void *source, size_t nelems, int PE_root, AS_ARGS_))        \
    {                                                                                            \
        AS_CALL_(COLL_BROADCAST, dest, source, nelems, BITS / 8, PE_root,                        \
                 .call = "shmem_broadcast" #BITS);                                               \
    }                                                                                            \
    DEF_AS_MOVE_(collect, COLL_COLLECT, BITS)                                                    \
    DEF_AS_MOVE_(fcollect, COLL_FCOLLECT, BITS)                                                  \
    DEF_AS_MOVE_(alltoall, COLL_ALLTOALL, BITS)                                                  \
    SSHMEM_DEFINE(void, shmem_alltoalls##BITS,                                                   \
                  (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,  \
                   AS_ARGS_))                                                                    \
    {                                                                                            \
        AS_CALL_(COLL_ALLTOALLS, dest, source, nelems, BITS / 8, .dst = dst, .sst = sst,         \
                 .call = "shmem_alltoalls" #BITS);                                               \
    }
DEF_ACTIVE_SET_(32)
DEF_ACTIVE_SET_(64)
