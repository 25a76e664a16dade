/*
 * quiet.c: ordering and completion. On the direct path a store is complete once it is
 * globally visible, so quiet is a full memory fence and fence a release fence; operations
 * that went through UCX are completed by a flush (quiet) or ordered by a UCX fence.
 */
#include <shmem.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "sync/weak.h"
#include "transport/transport.h"

static inline void plain_quiet(shmem_ctx_t ctx)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (sshmem.ucx_in_use)
        sshmem_tx_quiet(ctx->tx);
}

static inline void plain_fence(shmem_ctx_t ctx)
{
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (sshmem.ucx_in_use)
        sshmem_tx_fence(ctx->tx);
}

/* Under the weak-ordering mode (sync/weak.h): what the mode holds first. Apart, so that the
 * usual quiet and fence stay a fence and a test, with no stack frame for the mode's call. */
static SSHMEM_COLD void weak_quiet(shmem_ctx_t ctx)
{
    sshmem_weak_complete(ctx, NULL, 0);
    plain_quiet(ctx);
}

static SSHMEM_COLD void weak_fence(shmem_ctx_t ctx)
{
    sshmem_weak_fence(ctx);
    plain_fence(ctx);
}

static inline void ctx_quiet(shmem_ctx_t ctx)
{
    if (SSHMEM_UNLIKELY(sshmem_env.weak))
        weak_quiet(ctx);
    else
        plain_quiet(ctx);
}

static inline void ctx_fence(shmem_ctx_t ctx)
{
    if (SSHMEM_UNLIKELY(sshmem_env.weak))
        weak_fence(ctx);
    else
        plain_fence(ctx);
}

SSHMEM_DEFINE(void, shmem_quiet, (void)) { ctx_quiet(SHMEM_CTX_DEFAULT); }
SSHMEM_DEFINE(void, shmem_fence, (void)) { ctx_fence(SHMEM_CTX_DEFAULT); }

/* On SHMEM_CTX_INVALID both are no-ops, as the specification says: a team's context may fail
 * to be created (shmem_team_create_ctx leaves SHMEM_CTX_INVALID), and code that quiets every
 * context of its teams must not have to test for that first. */
SSHMEM_DEFINE(void, shmem_ctx_quiet, (shmem_ctx_t ctx))
{
    if (SSHMEM_UNLIKELY(ctx == SHMEM_CTX_INVALID))
        return;
    ctx_quiet(ctx);
}

SSHMEM_DEFINE(void, shmem_ctx_fence, (shmem_ctx_t ctx))
{
    if (SSHMEM_UNLIKELY(ctx == SHMEM_CTX_INVALID))
        return;
    ctx_fence(ctx);
}
