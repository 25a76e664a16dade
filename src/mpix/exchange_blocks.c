/* exchange_blocks.c: the moves of blocks every path of the exchange makes alike (see
 * exchange_blocks.h). */
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

/* "recvcounts[3]" or "recvcount", for messages. */
const char *xchg_count_name(char buf[48], const mpix_side_t *s, int i)
{
    if (s->counts)
        snprintf(buf, 48, "%s[%d]", s->name, i);
    else
        snprintf(buf, 48, "%s", s->name);
    return buf;
}

/* The partner's count argument, for messages: "sendcounts[2]" (2 = this PE). */
const char *xchg_their_name(char buf[48], const mpix_side_t *s, int me)
{
    snprintf(buf, 48, s->peer_name, me);
    return buf;
}

/* The block from this PE to itself. */
void xchg_self_block(xchg_t *x)
{
    const int me = x->c.me;
    if (!mpix_side_talks(x->send, me) || !mpix_side_talks(x->recv, me))
        return;
    size_t n = mpix_side_count(x->send, me), want = mpix_side_count(x->recv, me);
    if (SSHMEM_UNLIKELY(n != want)) {
        char mine[48], theirs[48];
        mpix_count_mismatch(x->c.call, xchg_count_name(mine, x->recv, me), want, me,
                            xchg_their_name(theirs, x->recv, me), (long long)n);
    }
    const char *from = x->send->origin + (ptrdiff_t)mpix_side_displ(x->send, me) * x->ext;
    char *to = (char *)x->recv->origin + (ptrdiff_t)mpix_side_displ(x->recv, me) * x->ext;
    if (from == to || n == 0)
        return;
    if (x->contig)
        memmove(to + x->type->true_lb, from + x->type->true_lb, n * x->type->size);
    else
        mpix_copy_elems(to, from, n, x->type);
}
