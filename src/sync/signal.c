/*
 * signal.c: the signal routines on a uint64_t signal word: remote set and add (atomics, so
 * they compose with put-with-signal and with each other), and the local fetch and wait.
 */
#include <shmem.h>

#include "amo/amo.h"
#include "core/api_defs.h"
#include "core/error.h"
#include "core/profile.h"
#include "sync/wait.h"
#include "sync/wait_set.h"

static void signal_update(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                          sshmem_amo_op_t op, int pe, const char *call)
{
    if (SSHMEM_UNLIKELY(!ctx))
        sshmem_fatal(call, "ctx is SHMEM_CTX_INVALID; pass a context from shmem_ctx_create "
                     "or SHMEM_CTX_DEFAULT");
    sshmem_amo(ctx, sig_addr, op, sizeof(uint64_t), signal, 0, 0, pe, call);
}

SSHMEM_DEFINE(void, shmem_signal_add, (uint64_t * sig_addr, uint64_t signal, int pe))
{
    signal_update(SHMEM_CTX_DEFAULT, sig_addr, signal, SSHMEM_AMO_ADD, pe, "shmem_signal_add");
}

SSHMEM_DEFINE(void, shmem_signal_set, (uint64_t * sig_addr, uint64_t signal, int pe))
{
    signal_update(SHMEM_CTX_DEFAULT, sig_addr, signal, SSHMEM_AMO_SET, pe, "shmem_signal_set");
}

SSHMEM_DEFINE(void, shmem_ctx_signal_add,
              (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe))
{
    signal_update(ctx, sig_addr, signal, SSHMEM_AMO_ADD, pe, "shmem_ctx_signal_add");
}

SSHMEM_DEFINE(void, shmem_ctx_signal_set,
              (shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal, int pe))
{
    signal_update(ctx, sig_addr, signal, SSHMEM_AMO_SET, pe, "shmem_ctx_signal_set");
}

/* The signal is local: an acquire load (the data it guards is read after it). Progress first,
 * so that a caller polling with fetch sees signals that need this PE's help to land. */
SSHMEM_DEFINE(uint64_t, shmem_signal_fetch, (const uint64_t *sig_addr))
{
    if (sshmem.ucx_in_use)
        sshmem_tx_progress();
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

SSHMEM_DEFINE(uint64_t, shmem_signal_wait_until, (uint64_t * sig_addr, int cmp, uint64_t cmp_value))
{
    const char *call = "shmem_signal_wait_until";
    sshmem_check_cmp(cmp, call);
    uint64_t seen, t0 = SSHMEM_PROFILE_START();
    SSHMEM_WAIT_UNTIL_AT(sshmem_compare_u64(seen = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE),
                                            cmp, cmp_value),
                         call, sig_addr);
    SSHMEM_PROFILE_STOP(WAIT, t0);
    return seen;
}
