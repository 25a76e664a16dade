/*
 * misc.c: the remaining point-to-point routines: completion toward chosen PEs
 * (shmem_pe_quiet), shmem_pcontrol, and the legacy cache routines (no-ops: caches are
 * coherent on every machine sshmem runs on). Sessions are with the contexts (src/team).
 */
#include <stdarg.h>
#include <shmem.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "sync/weak.h"
#include "transport/transport.h"

/* ------------------------------------------------------------------ pe_quiet */

/* Completing toward a list of PEs: stores on the direct path are complete at a memory fence;
 * through UCX only the listed PEs' endpoints are flushed, in batches that flush in parallel
 * (no allocation). The whole list is checked first, so a bad entry is reported, not ignored. */
static void pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes, const char *call)
{
    enum { BATCH = 64 };
    if (SSHMEM_UNLIKELY(!ctx))
        sshmem_fatal(call, "ctx is SHMEM_CTX_INVALID; pass a context from shmem_ctx_create "
                     "or SHMEM_CTX_DEFAULT");
    if (npes == 0)
        return;
    if (SSHMEM_UNLIKELY(!target_pes))
        sshmem_fatal(call, "target_pes is NULL with npes %zu; pass an array of npes PE "
                     "numbers", npes);
    for (size_t i = 0; i < npes; i++)
        sshmem_target_pe(ctx, target_pes[i], call);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (!sshmem.ucx_in_use && !sshmem_env.weak)
        return;
    int world[BATCH];
    for (size_t i = 0; i < npes; i += BATCH) {
        size_t n = npes - i < BATCH ? npes - i : BATCH;
        for (size_t j = 0; j < n; j++)
            world[j] = sshmem_target_pe(ctx, target_pes[i + j], call);
        if (sshmem_env.weak)
            sshmem_weak_complete(ctx, world, n);
        if (sshmem.ucx_in_use)
            sshmem_tx_quiet_pes(ctx->tx, world, n);
    }
}

SSHMEM_DEFINE(void, shmem_pe_quiet, (const int *target_pes, size_t npes))
{
    pe_quiet(SHMEM_CTX_DEFAULT, target_pes, npes, "shmem_pe_quiet");
}

SSHMEM_DEFINE(void, shmem_ctx_pe_quiet, (shmem_ctx_t ctx, const int *target_pes, size_t npes))
{
    pe_quiet(ctx, target_pes, npes, "shmem_ctx_pe_quiet");
}

/* ------------------------------------------------------------------ profiling control */
/* Level 0 disables profiling, 1 is the default, 2 and up are tool-defined. sshmem has no
 * built-in profiler: the level is kept for a tool that intercepts shmem_pcontrol (through
 * the pshmem_ names) to read, and otherwise has no effect. */
static int pcontrol_level = 1;

SSHMEM_DEFINE(void, shmem_pcontrol, (const int level, ...)) { pcontrol_level = level; }

/* ------------------------------------------------------------------ legacy caches */
SSHMEM_DEFINE(void, shmem_clear_cache_inv, (void)) {}
SSHMEM_DEFINE(void, shmem_set_cache_inv, (void)) {}
SSHMEM_DEFINE(void, shmem_clear_cache_line_inv, (void *dest)) { (void)dest; }
SSHMEM_DEFINE(void, shmem_set_cache_line_inv, (void *dest)) { (void)dest; }
SSHMEM_DEFINE(void, shmem_udcflush, (void)) {}
SSHMEM_DEFINE(void, shmem_udcflush_line, (void *dest)) { (void)dest; }
