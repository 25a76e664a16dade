/* exchange_blocks.c: the moves of blocks every path of the exchange makes (exchange_blocks.h). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <shmem.h>

#include "coll/engine.h"
#include "core/error.h"
#include "core/sshmem.h"
#include "mpix/coll.h"
#include "datatype/datatype.h"
#include "mpix/exchange_blocks.h"
#include "datatype/typed_rma.h"

void xchg_put_block_signal(xchg_t *x, int j, const coll_buf_t *tgt, const char *origin,
                           size_t count, int slot)
{
    coll_t *c = &x->c;
    if (count == 0 || x->type->size == 0) {
        coll_signal(c, j, slot);
        return;
    }
    if (x->contig) {
        coll_buf_t data = *tgt;
        data.off += (size_t)x->type->true_lb; /* may wrap for a negative lb: sums stay right */
        coll_put_signal_async(c, j, &data, 0, origin + x->type->true_lb, count * x->type->size,
                              slot);
        return;
    }
    char *mapped = sshmem_peer(coll_pe(c, j))->direct[tgt->region];
    if (mapped) {
        mpix_copy_elems(mapped + tgt->off, origin, count, x->type);
    } else {
        char *local = (char *)sshmem.region[tgt->region].base + tgt->off;
        mpix_put_elems(SHMEM_CTX_DEFAULT, local, origin, count, x->type, coll_pe(c, j), 1,
                       c->call);
        c->ucx_dirty |= 1 << tgt->region; /* the engine fences before the signal */
    }
    coll_signal(c, j, slot);
}

SSHMEM_COLD static void count_mismatch(const xchg_t *x, int i, uint64_t count)
{
    const mpix_side_t *r = x->recv;
    char mine[48], theirs[48];
    if (r->counts) /* "recvcounts[3]" or "recvcount", and "sendcounts[2]" (2 = this PE) */
        snprintf(mine, sizeof mine, "%s[%d]", r->name, i);
    else
        snprintf(mine, sizeof mine, "%s", r->name);
    snprintf(theirs, sizeof theirs, r->peer_name, x->c.me);
    mpix_count_mismatch(x->c.call, mine, mpix_side_count(r, i), i, theirs, (long long)count);
}

void xchg_take(const xchg_t *x, int i, uint64_t count, const void *data)
{
    if (SSHMEM_UNLIKELY(count != mpix_side_count(x->recv, i)))
        count_mismatch(x, i, count);
    if (data)
        xchg_unpack(x, xchg_recv_origin(x, i), data, count);
}

/* The block from this PE to itself. */
void xchg_self_block(xchg_t *x)
{
    const int me = x->c.me;
    if (!mpix_side_talks(x->send, me) || !mpix_side_talks(x->recv, me))
        return;
    const size_t n = mpix_side_count(x->send, me);
    xchg_take(x, me, n, NULL);
    const char *from = xchg_send_origin(x, me);
    char *to = xchg_recv_origin(x, me);
    if (from == to || n == 0)
        return;
    if (x->contig)
        memmove(to + x->type->true_lb, from + x->type->true_lb, n * x->type->size);
    else
        mpix_copy_elems(to, from, n, x->type);
}
