/* rma.c: the slow paths of put and get, strided transfers (iput/iget/ibput/ibget), and the
 * untyped API. */
#include <shmem.h>

#include "core/api_defs.h"
#include "core/copy_plan.h"
#include "rma/rma.h"
#include "sync/weak.h"
#include "transport/transport.h"

/* Region and offset of a remote range, or a clear error. */
static inline __attribute__((always_inline)) int
remote_region(shmem_ctx_t ctx, const void *addr, size_t len, size_t *off, const char *call)
{
    if (SSHMEM_UNLIKELY(!ctx))
        sshmem_fatal(call, "ctx is SHMEM_CTX_INVALID; pass a context from shmem_ctx_create "
                     "or SHMEM_CTX_DEFAULT");
    int r = sshmem_region_of(addr, len, off);
    if (SSHMEM_UNLIKELY(r < 0))
        sshmem_not_symmetric(call, addr, len);
    return r;
}

/* A NULL local buffer of a transfer of len > 0 bytes. */
static void SSHMEM_COLD null_local(const char *call, const char *what, size_t len, int pe)
{
    sshmem_fatal(call, "the %s is NULL (%zu bytes to %s PE %d). Pass the address of a local "
                 "buffer of at least %zu bytes.", what, len,
                 what[0] == 's' ? "put to" : "get from", pe, len);
}

/* The put itself, into pe's region r at off: a copy, or UCX. */
static inline __attribute__((always_inline)) void
put_region(shmem_ctx_t ctx, int r, size_t off, const void *src, size_t len, int pe, int blocking)
{
    char *direct = sshmem_peer(pe)->direct[r];
    if (direct)
        sshmem_copy(direct + off, src, len);
    else
        sshmem_tx_put(ctx->tx, pe, r, sshmem_peer(pe)->remote[r] + off, src, len, blocking);
}

/* may_hold: the weak-ordering mode may hold it (a user's put, not the library's own). Both
 * helpers are inlined: the put to a global is one function, as fast as before the mode. */
static inline __attribute__((always_inline)) void
put_checked(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe, int blocking,
            const char *call, int may_hold)
{
    size_t off;
    if (len == 0)
        return;
    if (SSHMEM_UNLIKELY(!src))
        null_local(call, "source", len, pe);
    int r = remote_region(ctx, dest, len, &off, call);
    if (may_hold && sshmem_weak_holds(pe))
        sshmem_weak_put(ctx, pe, r, off, src, len);
    else
        put_region(ctx, r, off, src, len, pe, blocking);
}

void sshmem_put_slow(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe,
                     int blocking, const char *call)
{
    put_checked(ctx, dest, src, len, pe, blocking, call, 1);
}

void sshmem_put_unheld(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe,
                       int blocking, const char *call)
{
    put_checked(ctx, dest, src, len, pe, blocking, call, 0);
}

void sshmem_get_slow(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe,
                     int blocking, const char *call)
{
    size_t off;
    if (len == 0)
        return;
    if (SSHMEM_UNLIKELY(!dest))
        null_local(call, "destination", len, pe);
    int r = remote_region(ctx, src, len, &off, call);
    if (sshmem_weak_holds(pe)) {
        if (!blocking) {
            sshmem_weak_get(ctx, pe, r, off, dest, len);
            return;
        }
        sshmem_weak_settle(pe, r, off, len); /* then read as usual */
    }
    const char *direct = sshmem_peer(pe)->direct[r];
    if (direct)
        sshmem_copy(dest, direct + off, len);
    else
        sshmem_tx_get(ctx->tx, pe, r, sshmem_peer(pe)->remote[r] + off, dest, len, blocking);
}

/* ------------------------------------------------------------------ strided transfers */
/*
 * A strided layout: nblocks blocks of bsize elements of size bytes, block starts stride
 * elements apart. To a peer that maps every byte of it, a strided transfer is one tight loop
 * (copy_strided, the copy plans' inner loop) straight between the two layouts. Through UCX,
 * many short blocks travel packed (strided_ucx.c); otherwise each block is a non-blocking
 * put or get and one completion ends the call.
 */

/* Where the layout starting at remote lies in our address space when pe maps all of it
 * directly (on-node), else NULL. */
static char *strided_direct(const void *remote, ptrdiff_t stride, size_t size, size_t bsize,
                            size_t nblocks, int pe)
{
    ptrdiff_t reach = (ptrdiff_t)(nblocks - 1) * stride * (ptrdiff_t)size;
    ptrdiff_t lo = reach < 0 ? reach : 0, hi = (reach > 0 ? reach : 0) + (ptrdiff_t)(bsize * size);
    size_t off;
    int r = sshmem_region_of((const char *)remote + lo, (size_t)(hi - lo), &off);
    if (r < 0 || !sshmem_peer(pe)->direct[r])
        return NULL;
    return sshmem_peer(pe)->direct[r] + off - lo;
}

static void iput_blocks(shmem_ctx_t ctx, char *d, const char *s, ptrdiff_t dst, ptrdiff_t sst,
                        size_t size, size_t bsize, size_t nblocks, int pe, const char *call)
{
    /* Many short blocks through UCX: packed messages (strided_ucx.c). */
    if (sshmem_strided_staged(ctx, d, s, dst, sst, size, bsize, nblocks, pe, 0))
        return;
    /* Every block goes out non-blocking; one completion at the end (not a round trip each). */
    for (size_t b = 0; b < nblocks; b++)
        sshmem_put_world(ctx, d + (ptrdiff_t)b * dst * (ptrdiff_t)size,
                   s + (ptrdiff_t)b * sst * (ptrdiff_t)size, bsize * size, pe, 0, call);
    if (sshmem.ucx_in_use)
        sshmem_tx_quiet_pes(ctx->tx, &pe, 1); /* that PE's endpoint, not the context */
}

static void iget_blocks(shmem_ctx_t ctx, char *d, const char *s, ptrdiff_t dst, ptrdiff_t sst,
                        size_t size, size_t bsize, size_t nblocks, int pe, const char *call)
{
    /* Many short blocks through UCX: packed messages (strided_ucx.c). */
    if (sshmem_strided_staged(ctx, d, s, dst, sst, size, bsize, nblocks, pe, 1))
        return;
    /* Every block goes out non-blocking; one completion at the end (not a round trip each).
     * The weak-ordering mode would hold non-blocking gets until a quiet: blocking ones there. */
    const int blocking = sshmem_weak_holds(pe);
    for (size_t b = 0; b < nblocks; b++)
        sshmem_get_world(ctx, d + (ptrdiff_t)b * dst * (ptrdiff_t)size,
                   s + (ptrdiff_t)b * sst * (ptrdiff_t)size, bsize * size, pe, blocking, call);
    if (sshmem.ucx_in_use)
        sshmem_tx_quiet_pes(ctx->tx, &pe, 1); /* that PE's endpoint, not the context */
}

void sshmem_iput(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                 size_t size, size_t bsize, size_t nblocks, int pe, const char *call)
{
    pe = sshmem_target_pe(ctx, pe, call);
    SSHMEM_PROFILE_COUNT(PUT, pe, nblocks * bsize * size); /* one call, however many blocks */
    /* Under the weak-ordering mode every block is a put the mode holds (iput_blocks). */
    char *direct = nblocks && bsize && !sshmem_weak_holds(pe)
                       ? strided_direct(dest, dst, size, bsize, nblocks, pe) : NULL;
    if (direct)
        copy_strided(direct, dst * (ptrdiff_t)size, src, sst * (ptrdiff_t)size, nblocks,
                     bsize * size);
    else
        iput_blocks(ctx, dest, src, dst, sst, size, bsize, nblocks, pe, call);
}

void sshmem_iget(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                 size_t size, size_t bsize, size_t nblocks, int pe, const char *call)
{
    pe = sshmem_target_pe(ctx, pe, call);
    SSHMEM_PROFILE_COUNT(GET, pe, nblocks * bsize * size); /* one call, however many blocks */
    const char *direct = nblocks && bsize ? strided_direct(src, sst, size, bsize, nblocks, pe)
                                          : NULL;
    if (direct)
        copy_strided(dest, dst * (ptrdiff_t)size, direct, sst * (ptrdiff_t)size, nblocks,
                     bsize * size);
    else
        iget_blocks(ctx, dest, src, dst, sst, size, bsize, nblocks, pe, call);
}

/* ------------------------------------------------------------------ untyped API */
#define SSHMEM_DEF_MEM_(SUFFIX, OP, BLOCKING)                                                    \
    SSHMEM_DEFINE(void, shmem_##OP##mem##SUFFIX,                                                 \
                  (void *dest, const void *source, size_t nelems, int pe))                       \
    {                                                                                            \
        sshmem_##OP(SHMEM_CTX_DEFAULT, dest, source, nelems, pe, BLOCKING,                       \
                    "shmem_" #OP "mem" #SUFFIX);                                                 \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_ctx_##OP##mem##SUFFIX,                                             \
                  (shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe))      \
    {                                                                                            \
        sshmem_##OP(ctx, dest, source, nelems, pe, BLOCKING, "shmem_ctx_" #OP "mem" #SUFFIX);     \
    }
SSHMEM_DEF_MEM_(, put, 1)
SSHMEM_DEF_MEM_(, get, 1)
SSHMEM_DEF_MEM_(_nbi, put, 0)
SSHMEM_DEF_MEM_(_nbi, get, 0)
