/*
 * api.h: the size-generic front ends every typed collective routine is a thin shell over.
 * They check the arguments (fatal errors name the PE, the call and the fix), describe the
 * call for the engine and run it. `call` is the API routine's name, for messages.
 */
#ifndef SSHMEM_COLL_API_H
#define SSHMEM_COLL_API_H

#include <stddef.h>
#include <shmem.h>

#include "coll/ops.h"

/* Team forms (return 0). */
int coll_team_broadcast(shmem_team_t team, void *dest, const void *source, size_t nbytes,
                        int root, const char *call);
int coll_team_collect(shmem_team_t team, void *dest, const void *source, size_t nbytes,
                      const char *call);
int coll_team_fcollect(shmem_team_t team, void *dest, const void *source, size_t nbytes,
                       const char *call);
int coll_team_alltoall(shmem_team_t team, void *dest, const void *source, size_t nbytes,
                       const char *call);
int coll_team_alltoalls(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                        ptrdiff_t sst, size_t nelems, size_t esize, const char *call);
int coll_team_reduce(shmem_team_t team, void *dest, const void *source, size_t nreduce,
                     const coll_op_t *op, const char *call);
int coll_team_scan(shmem_team_t team, void *dest, const void *source, size_t nelems,
                   const coll_op_t *op, int kind, const char *call);

/* Active-set forms. */
void coll_as_broadcast(void *dest, const void *source, size_t nbytes, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync, const char *call);
void coll_as_collect(void *dest, const void *source, size_t nbytes, int PE_start,
                     int logPE_stride, int PE_size, long *pSync, const char *call);
void coll_as_fcollect(void *dest, const void *source, size_t nbytes, int PE_start,
                      int logPE_stride, int PE_size, long *pSync, const char *call);
void coll_as_alltoall(void *dest, const void *source, size_t nbytes, int PE_start,
                      int logPE_stride, int PE_size, long *pSync, const char *call);
void coll_as_alltoalls(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, size_t esize, int PE_start, int logPE_stride, int PE_size,
                       long *pSync, const char *call);
void coll_as_to_all(void *dest, const void *source, int nreduce, int PE_start, int logPE_stride,
                    int PE_size, void *pWrk, long *pSync, const coll_op_t *op, const char *call);

#endif
