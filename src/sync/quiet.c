/*
 * quiet.c: ordering and completion. On the direct path a store is complete once it is
 * globally visible, so quiet is a full memory fence and fence a release fence; operations
 * that went through UCX are completed by a flush (quiet) or ordered by a UCX fence.
 */
#include <shmem.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "transport/transport.h"

static inline void ctx_quiet(shmem_ctx_t ctx)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (sshmem.ucx_in_use)
        sshmem_tx_quiet(ctx->tx);
}

static inline void ctx_fence(shmem_ctx_t ctx)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (sshmem.ucx_in_use)
        sshmem_tx_fence(ctx->tx);
}

SSHMEM_DEFINE(void, shmem_quiet, (void)) { ctx_quiet(SHMEM_CTX_DEFAULT); }
SSHMEM_DEFINE(void, shmem_fence, (void)) { ctx_fence(SHMEM_CTX_DEFAULT); }

SSHMEM_DEFINE(void, shmem_ctx_quiet, (shmem_ctx_t ctx))
{
    if (SSHMEM_UNLIKELY(!ctx))
        sshmem_fatal("shmem_ctx_quiet", "ctx is SHMEM_CTX_INVALID; pass a context from "
                     "shmem_ctx_create or SHMEM_CTX_DEFAULT");
    ctx_quiet(ctx);
}

SSHMEM_DEFINE(void, shmem_ctx_fence, (shmem_ctx_t ctx))
{
    if (SSHMEM_UNLIKELY(!ctx))
        sshmem_fatal("shmem_ctx_fence", "ctx is SHMEM_CTX_INVALID; pass a context from "
                     "shmem_ctx_create or SHMEM_CTX_DEFAULT");
    ctx_fence(ctx);
}
