/*
 * shmem_ctx.h: part of shmem.h (include <shmem.h>, not this file): communication contexts.
 */
#ifndef SHMEM_CTX_H
#define SHMEM_CTX_H

#ifdef __cplusplus
extern "C" {
#endif

/* shmem_ctx_create, shmem_ctx_destroy, shmem_ctx_get_team: issue 3. */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
