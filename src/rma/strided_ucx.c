/*
 * strided_ucx.c: iput/iget/ibput/ibget to a PE reached through UCX, as packed messages.
 *
 * One UCX put per block costs a fixed overhead each (more over tcp than on shared memory),
 * so strided doubles one put each go at a few MB/s. When the
 * transport says staging pays (many short blocks), both layouts become one-piece copy plans
 * (copy_plan_strided: nblocks elements of bsize*size bytes, a stride apart) and the transport
 * ships the packed data in one message per piece (src/transport/ucx_staging.c); the target
 * unpacks it. Otherwise the caller keeps its one-transfer-per-block loop.
 */
#include "core/copy_plan.h"
#include "core/error.h"
#include "rma/rma.h"
#include "sync/weak.h"
#include "transport/transport.h"

/* The remote range's address in pe's own space when pe is reached through UCX (no direct
 * mapping); 0 when it is mapped directly or not symmetric (the per-block loop then copies or
 * reports it). */
static uint64_t ucx_target(const char *remote, ptrdiff_t stride, size_t run, size_t nblocks,
                           int pe, int *region)
{
    ptrdiff_t last = (ptrdiff_t)(nblocks - 1) * stride;
    ptrdiff_t lo = last < 0 ? last : 0, hi = (last > 0 ? last : 0) + (ptrdiff_t)run;
    size_t off;
    int r = sshmem_region_of(remote + lo, (size_t)(hi - lo), &off);
    if (r < 0 || sshmem_peer(pe)->direct[r])
        return 0;
    *region = r;
    return sshmem_peer(pe)->remote[r] + off - (uint64_t)lo;
}

int sshmem_strided_staged(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
                          ptrdiff_t sst, size_t size, size_t bsize, size_t nblocks, int pe,
                          int get)
{
    if (!sshmem.ucx_in_use || nblocks == 0 || bsize == 0)
        return 0;
    if (!get && sshmem_weak_holds(pe)) /* the weak-ordering mode holds each block as a put */
        return 0;
    size_t run = bsize * size;
    ptrdiff_t dstride = dst * (ptrdiff_t)size, sstride = sst * (ptrdiff_t)size;
    int r;
    uint64_t raddr = get ? ucx_target(src, sstride, run, nblocks, pe, &r)
                         : ucx_target(dest, dstride, run, nblocks, pe, &r);
    if (!raddr)
        return 0;
    copy_plan_t dplan, splan;
    copy_piece_t dpiece, spiece;
    copy_plan_strided(&dplan, &dpiece, run, dstride);
    copy_plan_strided(&splan, &spiece, run, sstride);
    if (!sshmem_tx_staging_pays(pe, r, get ? &dplan : &splan, get ? &splan : &dplan, nblocks))
        return 0;
    if (get)
        sshmem_tx_get_plan(ctx->tx, pe, r, raddr, &splan, dest, &dplan, nblocks, 1);
    else
        sshmem_tx_put_plan(ctx->tx, pe, r, raddr, &dplan, src, &splan, nblocks);
    return 1;
}
