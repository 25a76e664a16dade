/*
 * allgather_bruck.c: small allgathers (allgatherv, allgather) in ceil(log2 n) steps wherever
 * the members are not all on shared memory (exchange_slots.h has what it shares with
 * exchange.c).
 *
 * The exchange sends every block to every member: n - 1 messages per PE (three UCX puts each
 * where puts are one-sided: the header's count, the data, the call number), so a PE's
 * messages grow with the team. Here the blocks take the same steps as fcollect, on the
 * engine's own (coll_collect_bruck): each member packs its block behind a header (its count
 * and the call number: record_head_t) at the start of its work space, and the steps leave
 * every member's record in every member's work space in member order, at places following
 * from recvcounts, which every PE holds. Between nodes of several members they are fcollect's
 * node-aware steps (hier_worth, coll/hier.h), so each record enters a node once.
 * After the steps each PE checks every header against its own recvcounts (a sender whose
 * count differs, or recvcounts that differ between PEs, is reported) and unpacks the blocks
 * into dest.
 *
 * Every PE decides alike: the team is not all on shared memory (c->direct, the same on every
 * member), and everybody's blocks fit the work space, by recvcounts, which MPI requires to be
 * the same on every PE; hier_worth is the set's shape's. The work space is the team's steps
 * (coll_work_in_steps), which grow with the team.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/engine.h"
#include "coll/hier.h"
#include "core/error.h"
#include "mpix/coll.h"
#include "mpix/exchange_blocks.h"
#include "mpix/exchange_slots.h"

#define BRUCK_MIN_MEMBERS 4 /* at 2 and 3 members the exchange has as few messages */
#define OFFS_ON_STACK 256   /* members whose offsets need no malloc */

/* A record's header: the block's count and the call number's low 32 bits, 8 bytes, since
 * between nodes the records' bytes are the time (an 8-byte block in 16, not 24). A record
 * another call left at a place matches 2^32 calls later, and only where recvcounts differ. */
typedef struct record_head { uint32_t count, call; } record_head_t;

/* A block's room in the work space: its header, its data, padded to 8 bytes. */
static size_t record_bytes(size_t n) { return sizeof(record_head_t) + ((n + 7) & ~(size_t)7); }

/* Whether this is an allgather that fits; then offs[i] (offs not NULL) is where member i's
 * record starts in member order. */
static int layout(const xchg_t *x, size_t *offs)
{
    const coll_t *c = &x->c;
    const mpix_side_t *s = x->send, *r = x->recv;
    if (c->direct || c->n < BRUCK_MIN_MEMBERS ||
        s->peer != MPIX_X_ALL || s->counts || s->displs || s->regular || r->peer != MPIX_X_ALL)
        return 0;
    size_t at = 0;
    for (int i = 0; i < c->n; i++) {
        size_t bytes;
        if (__builtin_mul_overflow(mpix_side_count(r, i), x->type->size, &bytes) ||
            bytes > c->work_bytes || mpix_side_count(r, i) > UINT32_MAX)
            return 0;
        if (offs)
            offs[i] = at;
        at += record_bytes(bytes);
        if (at > c->work_bytes)
            return 0;
    }
    if (offs)
        offs[c->n] = at;
    return 1;
}

SSHMEM_COLD static void layouts_differ(const xchg_t *x, int i)
{
    sshmem_fatal(x->c.call, "the block of PE %d is not where this PE's %s put it: %s differs "
                 "between PEs, and they must agree: every PE passes the same %s", i,
                 x->recv->name, x->recv->name, x->recv->name);
}

int xchg_allgather_bruck_fits(const xchg_t *x) { return layout(x, NULL); }

void xchg_allgather_bruck(xchg_t *x)
{
    size_t buf[OFFS_ON_STACK + 1], n = (size_t)x->c.n + 1;
    size_t *offs = n <= OFFS_ON_STACK + 1 ? buf : malloc(n * sizeof *buf); /* NULL: no memory */
    if (!offs || !layout(x, offs))
        sshmem_fatal(x->c.call, "internal error: an allgather that does not fit Bruck's steps");
    coll_t *c = &x->c;
    xchg_self_block(x); /* first: it reports a sendcount that differs from our recvcounts */
    record_head_t *own = (record_head_t *)c->work.addr; /* first: coll_collect_bruck */
    own->count = (uint32_t)x->send->count;
    own->call = (uint32_t)coll_stamp(c);
    xchg_pack(x, own + 1, x->send->origin, x->send->count);
    coll_collect_bruck(c, &c->work, &c->work, offs, 0, hier_worth(c));
    for (int i = 0; i < c->n; i++) {
        if (i == c->me)
            continue;
        const record_head_t *h = (const record_head_t *)(c->work.addr + offs[i]);
        if (SSHMEM_UNLIKELY(h->call != (uint32_t)coll_stamp(c)))
            layouts_differ(x, i);
        xchg_take(x, i, h->count, h + 1); /* checks the count against this PE's */
    }
    if (offs != buf)
        free(offs);
    coll_all_entered(c); /* a block came from every member, inside this call */
}
