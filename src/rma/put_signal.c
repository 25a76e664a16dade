/*
 * put_signal.c: put-with-signal. The data goes first, then the signal is updated with an
 * atomic (set or add on a uint64_t), and the signal must never be seen before the data:
 *
 *  - direct path: a copy into the peer's mapping (core/copy.h; a large one streams and
 *    ends with a store fence), then the CPU atomic on the signal, which is a release (set)
 *    or a full barrier (add), so the copy is visible first;
 *  - UCX path: put, then a flush of the context, then the signal atomic. A UCX fence is not
 *    enough on UCX 1.13: ucp_worker_fence there is the weak, per-interface fence, and a
 *    large put and an atomic can travel on different lanes (a zero-copy RMA lane and an
 *    active-message lane), so only a flush guarantees that the data has landed.
 *
 * The data and the flag are never packed into one transfer. The _nbi forms complete the
 * same way (the specification allows an _nbi routine to complete before it returns).
 * Every typed and sized routine below is GENERATED from the type table.
 */
#include <string.h>
#include <shmem.h>

#include "amo/amo.h"
#include "core/api_defs.h"
#include "rma/rma.h"
#include "sync/weak.h"
#include "transport/transport.h"

SSHMEM_NORETURN SSHMEM_COLD static void bad_sig_op(const char *call, int sig_op)
{
    sshmem_fatal(call, "sig_op is %d; pass SHMEM_SIGNAL_SET (%d) or SHMEM_SIGNAL_ADD (%d)",
                 sig_op, SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD);
}

SSHMEM_NORETURN SSHMEM_COLD static void bad_ctx(const char *call)
{
    sshmem_fatal(call, "ctx is SHMEM_CTX_INVALID; pass a context from shmem_ctx_create or "
                 "SHMEM_CTX_DEFAULT");
}

/* The load/store address of [addr, addr+len) on pe (heap or globals), or NULL. */
static char *direct_target(const void *addr, size_t len, int pe)
{
    size_t off;
    int r = sshmem_region_of(addr, len, &off);
    if (r < 0 || !sshmem_peer(pe)->direct[r])
        return NULL;
    return sshmem_peer(pe)->direct[r] + off;
}

/* Copy the data to pe so that it is delivered before anything issued after this returns. */
static void deliver_data(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe,
                         const char *call)
{
    char *d = sshmem_heap_direct(dest, len, pe);
    if (!d && len)
        d = direct_target(dest, len, pe);
    if (d) {
        sshmem_copy(d, src, len); /* a streaming copy ends with its store fence */
        __atomic_thread_fence(__ATOMIC_RELEASE); /* in case the signal goes through UCX */
        return;
    }
    if (len == 0)
        return;
    sshmem_put_slow(ctx, dest, src, len, pe, 0, call); /* reports a bad dest */
    sshmem_tx_quiet_pes(ctx->tx, &pe, 1); /* that PE's endpoint only */
}

/* Under the weak-ordering mode: the mode holds the data and the signal (sync/weak.h). */
static SSHMEM_COLD void weak_put_signal(shmem_ctx_t ctx, void *dest, const void *src,
                                        size_t len, uint64_t *sig_addr, uint64_t signal,
                                        int sig_op, int pe, const char *call)
{
    size_t off = 0, sig_off = 0;
    int r = sshmem_region_of(dest, len, &off);
    if (len && (r < 0 || !src))
        sshmem_put_slow(ctx, dest, src, len, pe, 0, call); /* reports what is wrong */
    int sr = sshmem_region_of(sig_addr, sizeof *sig_addr, &sig_off);
    if (sr < 0 || (uintptr_t)sig_addr % sizeof *sig_addr)
        sshmem_amo_slow(ctx, sig_addr, SSHMEM_AMO_SET, sizeof *sig_addr, 0, 0, 1, pe, call);
    sshmem_weak_put_signal(ctx, pe, r < 0 ? SSHMEM_REGION_HEAP : r, off, src, len, sr, sig_off,
                           sig_op == SHMEM_SIGNAL_ADD ? SSHMEM_AMO_ADD : SSHMEM_AMO_SET, signal);
}

/* The one routine behind every put-with-signal spelling. */
static void sshmem_put_signal(shmem_ctx_t ctx, void *dest, const void *src, size_t len,
                              uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                              const char *call)
{
    if (SSHMEM_UNLIKELY(!ctx))
        bad_ctx(call);
    pe = sshmem_target_pe(ctx, pe, call);
    if (SSHMEM_UNLIKELY(sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD))
        bad_sig_op(call, sig_op);
    SSHMEM_PROFILE_COUNT(PUT, pe, len); /* one put of the data; the signal word is ours */
    if (sshmem_weak_holds(pe)) {
        weak_put_signal(ctx, dest, src, len, sig_addr, signal, sig_op, pe, call);
        return;
    }
    deliver_data(ctx, dest, src, len, pe, call);
    sshmem_amo_world(ctx, sig_addr,
                     sig_op == SHMEM_SIGNAL_ADD ? SSHMEM_AMO_ADD : SSHMEM_AMO_SET,
                     sizeof(uint64_t), signal, 0, 0, pe, call);
}

/* ------------------------------------------------------------------ GENERATED spellings */
#define SIG_PARAMS_ uint64_t *sig_addr, uint64_t signal, int sig_op, int pe

/* One spelling in its four forms: plain, _nbi, and their ctx versions. */
#define DEF_PUT_SIGNAL_(NAME, CTXNAME, T, ELEM_SIZE)                                             \
    SSHMEM_DEFINE(void, NAME, (T * dest, const T *source, size_t nelems, SIG_PARAMS_))           \
    {                                                                                            \
        sshmem_put_signal(SHMEM_CTX_DEFAULT, dest, source, nelems * (ELEM_SIZE), sig_addr,       \
                          signal, sig_op, pe, #NAME);                                            \
    }                                                                                            \
    SSHMEM_DEFINE(void, NAME##_nbi, (T * dest, const T *source, size_t nelems, SIG_PARAMS_))     \
    {                                                                                            \
        sshmem_put_signal(SHMEM_CTX_DEFAULT, dest, source, nelems * (ELEM_SIZE), sig_addr,       \
                          signal, sig_op, pe, #NAME "_nbi");                                     \
    }                                                                                            \
    SSHMEM_DEFINE(void, CTXNAME,                                                                 \
                  (shmem_ctx_t ctx, T * dest, const T *source, size_t nelems, SIG_PARAMS_))      \
    {                                                                                            \
        sshmem_put_signal(ctx, dest, source, nelems * (ELEM_SIZE), sig_addr, signal, sig_op,     \
                          pe, #CTXNAME);                                                         \
    }                                                                                            \
    SSHMEM_DEFINE(void, CTXNAME##_nbi,                                                           \
                  (shmem_ctx_t ctx, T * dest, const T *source, size_t nelems, SIG_PARAMS_))      \
    {                                                                                            \
        sshmem_put_signal(ctx, dest, source, nelems * (ELEM_SIZE), sig_addr, signal, sig_op,     \
                          pe, #CTXNAME "_nbi");                                                  \
    }

#define DEF_TYPED_(T, N) DEF_PUT_SIGNAL_(shmem_##N##_put_signal, shmem_ctx_##N##_put_signal, T, sizeof(T))
SHMEM_RMA_TYPES(DEF_TYPED_)

#define DEF_SIZED_(BITS, BYTES)                                                                  \
    DEF_PUT_SIGNAL_(shmem_put##BITS##_signal, shmem_ctx_put##BITS##_signal, void, BYTES)
SHMEM_RMA_SIZES(DEF_SIZED_)

DEF_PUT_SIGNAL_(shmem_putmem_signal, shmem_ctx_putmem_signal, void, 1)
