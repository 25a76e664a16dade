/*
 * shmem_ctx.h: part of shmem.h (include <shmem.h>, not this file): communication contexts
 * and sessions. (The options SHMEM_CTX_SERIALIZED, _PRIVATE, _NOSTORE, the handles
 * SHMEM_CTX_DEFAULT and SHMEM_CTX_INVALID are in shmem.h.)
 */
#ifndef SHMEM_CTX_H
#define SHMEM_CTX_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ contexts */
int shmem_ctx_create(long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* ------------------------------------------------------------------ sessions (hints) */
#define SHMEM_CTX_SESSION_BATCH     1L
#define SHMEM_CTX_SESSION_TOTAL_OPS 1L

typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;

void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                             const shmem_ctx_session_config_t *config, long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
