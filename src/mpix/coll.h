/*
 * coll.h: entry checks shared by the shmemx collectives. A mistake found here ends the job
 * with a message naming the PE, the call and the argument: one PE returning an error while
 * the others wait for it would hang the program instead.
 */
#ifndef SSHMEM_MPIX_COLL_H
#define SSHMEM_MPIX_COLL_H
#include <shmemx.h>

#include "datatype/datatype.h"

/* Rooted calls (the gather family, a reduce to a root) return early through UCX on teams of up
 * to this many PEs: the next call then reads every member's progress word with a UCX get
 * (coll/engine.h, "Early return"), which on larger teams costs more than the signals an early
 * return saves. Always on shared memory, and on any team whose members all reach each other by
 * messages (coll_team_messages: a barrier of gated messages instead of the gets). */
#define MPIX_EARLY_UCX_MAX 8

/* The team itself (src/team: its members, sync areas and staging buffer); a team this PE
 * cannot use is a fatal error naming call. */
struct sshmem_team;
struct sshmem_team *mpix_team_get(shmem_team_t team, const char *call);
/* A collective's entry: its team (as mpix_team_get), a committed type, a real count (count_arg). */
const struct sshmem_team *mpix_coll_enter(shmem_team_t team, shmemx_datatype_t type,
                                          size_t count, const char *count_arg, const char *call);
/* root is a team index. */
void mpix_check_root(const struct sshmem_team *t, int root, const char *call);
/* A buffer that will hold count elements is not NULL (unless there is no data). */
void mpix_check_buf(const void *buf, size_t count, shmemx_datatype_t type, const char *arg,
                    const char *call);
/* dest of a v-collective (written by other PEs) is symmetric, when given. */
void mpix_check_symmetric(const void *dest, const char *call);
/* A per-PE array of n counts (or displacements): present, none absurd (a negative number
 * converted to size_t). */
void mpix_check_counts(const size_t *counts, int n, const char *arg, const char *call);
/* Receive regions (counts[i] elements at displs[i] extents, i < n) share no byte. */
void mpix_check_overlap(shmemx_datatype_t type, int n, const size_t *counts, const size_t *displs,
                        const char *counts_arg, const char *displs_arg, const char *call);
/* A PE's count must equal what its partner expects: a clear message otherwise. */
void mpix_count_mismatch(const char *call, const char *mine, size_t my_count, int partner,
                         const char *theirs, long long their_count) __attribute__((noreturn));

/* The profiling names of the v-collectives, which the regular forms call. */
int pshmemx_gatherv(shmem_team_t team, void *dest, const void *source, size_t sendcount,
                    const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type,
                    int root);
int pshmemx_scatterv(shmem_team_t team, void *dest, const void *source, const size_t sendcounts[],
                     const size_t displs[], size_t recvcount, shmemx_datatype_t type, int root);
int pshmemx_allgatherv(shmem_team_t team, void *dest, const void *source, size_t sendcount,
                       const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type);
int pshmemx_alltoallv(shmem_team_t team, void *dest, const size_t recvcounts[],
                      const size_t rdispls[], const void *source, const size_t sendcounts[],
                      const size_t sdispls[], shmemx_datatype_t type);

#endif
