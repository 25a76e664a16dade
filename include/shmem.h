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

/* ------------------------------------------------------------------ the API families */
#include <shmem_ctx.h>   /* communication contexts */
#include <shmem_p2p.h>   /* RMA, atomics, signals, ordering, point-to-point synchronization, locks */
#include <shmem_coll.h>  /* teams and collectives */

/* ------------------------------------------------------------------ deprecated names */
SHMEM_DEPRECATED void start_pes(int npes);
SHMEM_DEPRECATED int _my_pe(void);
SHMEM_DEPRECATED int _num_pes(void);
SHMEM_DEPRECATED void *shmalloc(size_t size);
SHMEM_DEPRECATED void shfree(void *ptr);
SHMEM_DEPRECATED void *shrealloc(void *ptr, size_t size);
SHMEM_DEPRECATED void *shmemalign(size_t alignment, size_t size);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* C11 generic selections (shmem_put, shmem_atomic_fetch_add, ...); C11 and later, not C++. */
#include <shmem_generic.h>

#endif /* SHMEM_H */
