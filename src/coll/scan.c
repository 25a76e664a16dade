/*
 * scan.c: prefix reductions over the members in order (shmem_TYPE_sum_inscan / _exscan,
 * shmemx_scan / _exscan with any operator: member order is kept), by recursive doubling
 * (Hillis-Steele). In round k member i sends its running sum to member i + 2^k, which puts it on
 * the left of its own. Messages that would wrap around past the last member carry no data but are
 * still sent, so every member depends on every other: the engine's reuse rule holds, and inside a
 * call nobody starts a chunk before every member has finished the one before it. Each round's sum
 * lands in a place of its own (coll_round_landing), one set of places per parity of the chunk: no
 * receiver says its place is free, and the sum travels with its signal as one message.
 */
#include <string.h>

#include "coll/coll.h"
#include "coll/slots.h"
#include "core/error.h"

/* What an exclusive scan leaves in member 0's dest: zeros, or nothing written. */
static void no_prefix(char *dest, size_t count, const coll_op_t *op, enum coll_scan_kind kind)
{
    if (kind == COLL_SCAN_EXCLUSIVE)
        memset(dest, 0, count * op->esize);
}

/* Member me - d's running sum `in` has arrived: it goes on the left of ours, and for an
 * exclusive scan into out too. */
static void take_lower(const coll_op_t *op, char *running, char *out, const char *in,
                       size_t len, int exclusive, int *have_prefix)
{
    op->racc(op, running, in, len); /* the lower members' sum goes on the left */
    if (!exclusive)
        return;
    if (*have_prefix)
        op->racc(op, out, in, len);
    else
        memcpy(out, in, len * op->esize);
    *have_prefix = 1;
}

static void finish(char *out, const char *running, size_t len, const coll_op_t *op,
                   enum coll_scan_kind kind, int have_prefix)
{
    if (kind == COLL_SCAN_INCLUSIVE)
        memcpy(out, running, len * op->esize);
    else if (!have_prefix)
        no_prefix(out, len, op, kind);
}

/* One chunk of len elements from in: the running sum at the landing's start, round e's
 * incoming sum at first + e * slot. */
static void scan_chunk(coll_t *c, const coll_buf_t *land, size_t first, size_t slot, char *out,
                       const char *in, size_t len, const coll_op_t *op, enum coll_scan_kind kind)
{
    char *running = land->addr;
    int have_prefix = 0; /* out holds the sum of the lower members seen so far */
    memcpy(running, in, len * op->esize);
    for (int e = 0, d = 1; d < c->n; e++, d <<= 1) {
        const size_t at = first + (size_t)e * slot;
        if (c->me + d < c->n)
            coll_put_signal(c, c->me + d, land, at, running, len * op->esize, SLOT_ROUND_DATA(e));
        else /* wrapped around: no data, but every member still depends on every other */
            coll_signal(c, coll_rel(c, d), SLOT_ROUND_DATA(e));
        coll_wait(c, SLOT_ROUND_DATA(e), 1);
        if (c->me - d >= 0) /* else the wrapped-around message: no data */
            take_lower(op, running, out, land->addr + at, len, kind != COLL_SCAN_INCLUSIVE,
                       &have_prefix);
    }
    finish(out, running, len, op, kind, have_prefix);
}

void coll_scan(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
               const coll_op_t *op, enum coll_scan_kind kind)
{
    const size_t es = op->esize;
    if (count == 0)
        return;
    if (c->n == 1) {
        if (kind != COLL_SCAN_INCLUSIVE)
            no_prefix(dest->addr, count, op, kind);
        else if (dest->addr != src->addr)
            memmove(dest->addr, src->addr, count * es);
        return;
    }
    size_t rounds = 0, chunk = count, slot = (count * es + 7) & ~(size_t)7;
    while (((size_t)1 << rounds) < (size_t)c->n)
        rounds++;
    coll_buf_t land;
    const size_t cap = coll_round_landing(c, (rounds + 1) * slot, &land);
    if ((rounds + 1) * slot > cap) { /* chunks: a set of places for each parity */
        chunk = (cap / (1 + 2 * rounds) & ~(size_t)7) / es;
        slot = (chunk * es + 7) & ~(size_t)7;
    }
    if (SSHMEM_UNLIKELY(chunk == 0))
        sshmem_fatal(c->call, "one element of %zu bytes is too large for a scan: %zu must fit "
                     "the team's landing (%zu bytes); split the element into smaller ones", es,
                     1 + 2 * rounds, cap);
    for (size_t off = 0, k = 0, len; off < count; off += len, k++) {
        len = count - off < chunk ? count - off : chunk;
        scan_chunk(c, &land, (1 + (k & 1) * rounds) * slot, slot, dest->addr + off * es,
                   src->addr + off * es, len, op, kind);
    }
    coll_done(c);
}
