/*
 * ctx.h: communication contexts inside the library: creation on a given team (for
 * shmem_ctx_create and shmem_team_create_ctx) and clean-up of contexts left alive.
 */
#ifndef SSHMEM_TEAM_CTX_H
#define SSHMEM_TEAM_CTX_H

#include <shmem.h>

#include "core/sshmem.h"

/* Create a context associated with team (shmem_ctx_create passes SHMEM_TEAM_WORLD). Local:
 * no other PE takes part. Returns 0 and sets *ctx, or nonzero (out of resources; *ctx is
 * untouched) as shmem_ctx_create does. options are checked by the caller's entry point. */
int sshmem_ctx_create_on(struct sshmem_team *team, long options, shmem_ctx_t *ctx);

/* Quiet and destroy one context made by sshmem_ctx_create_on; call names the caller. */
void sshmem_ctx_destroy(shmem_ctx_t ctx, const char *call);

/* Quiet and destroy every context still alive on team, or on any team when team is NULL
 * (shmem_finalize: before its barrier, so their operations complete while peers listen). */
void sshmem_ctx_destroy_all(struct sshmem_team *team);

/* The options shmem_ctx_create accepts; a fatal error names any other bit. */
void sshmem_ctx_check_options(long options, const char *call);

#endif
