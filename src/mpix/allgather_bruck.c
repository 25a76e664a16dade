/*
 * allgather_bruck.c: small allgathers (allgatherv, allgather) in ceil(log2 n) steps wherever the
 * members are not all on shared memory (exchange_slots.h has what it shares with exchange.c).
 *
 * The exchange sends every block to every member: n - 1 messages per PE (three UCX puts each
 * where puts are one-sided: count, data, call number), growing with the team. Here the blocks
 * take fcollect's steps (coll_collect_bruck): each member packs its block behind a header (its
 * count and the call number: record_head_t) at the start of its work space, and the steps leave
 * every member's record in every member's work space in member order, at places following from
 * recvcounts, which every PE holds. Between nodes of several members they are fcollect's
 * node-aware steps (hier_worth, coll/hier.h), so each record enters a node once. Then each PE
 * checks every header against its own recvcounts (a sender whose count differs, or recvcounts
 * that differ between PEs, is reported) and unpacks the blocks into dest.
 *
 * Every PE decides alike: the team is not all on shared memory (c->direct), and everybody's
 * blocks fit the work space by recvcounts, which MPI requires to be the same on every PE;
 * hier_worth is the set's shape's. The work space is the team's steps (coll_work_in_steps).
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

/* A record's header, 4 bytes, since between nodes the records' bytes are the time (an 8-byte
 * block in 12, not 24): the block's count (below 2^COUNT_BITS, or the call takes the exchange)
 * and the call number's low bits. A record another call left at a place matches one call in
 * 2^(32 - COUNT_BITS), and only where recvcounts differ between PEs, which the counts then
 * mostly show. Records are read with memcpy: 4-byte alignment is enough. */
#define COUNT_BITS 20
typedef uint32_t record_head_t;

static record_head_t record_head(size_t count, uint64_t call)
{
    return (record_head_t)(count | (uint32_t)call << COUNT_BITS);
}

/* A block's room in the work space: its header, its data, padded to 4 bytes. */
static size_t record_bytes(size_t n)
{
    return sizeof(record_head_t) + ((n + 3) & ~(size_t)3);
}

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
            bytes > c->work_bytes || mpix_side_count(r, i) >> COUNT_BITS)
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
    const record_head_t own = record_head(x->send->count, coll_stamp(c));
    memcpy(c->work.addr, &own, sizeof own); /* first: coll_collect_bruck */
    xchg_pack(x, c->work.addr + sizeof own, x->send->origin, x->send->count);
    coll_collect_bruck(c, &c->work, &c->work, offs, 0, hier_worth(c));
    const record_head_t call = record_head(0, coll_stamp(c));
    for (int i = 0; i < c->n; i++) {
        if (i == c->me)
            continue;
        record_head_t h;
        memcpy(&h, c->work.addr + offs[i], sizeof h);
        if (SSHMEM_UNLIKELY(h >> COUNT_BITS != call >> COUNT_BITS))
            layouts_differ(x, i);
        /* checks the count against this PE's */
        xchg_take(x, i, h & ((1u << COUNT_BITS) - 1), c->work.addr + offs[i] + sizeof h);
    }
    if (offs != buf)
        free(offs);
    coll_all_entered(c); /* a block came from every member, inside this call */
}
