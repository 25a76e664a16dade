/*
 * scan.c: prefix reductions over the members in order (shmem_TYPE_sum_inscan / _exscan,
 * shmemx_scan / _exscan with any operator: both algorithms keep member order).
 *
 *  - shm: every member copies its source into its work buffer, a barrier, then member i
 *    combines the copies of members 0 .. i-1 (and its own for the inclusive scan).
 *  - rd: recursive doubling (Hillis-Steele). In round k member i sends its running sum to
 *    member i + 2^k, which adds it. Messages that would wrap around past the last member
 *    carry no data but are still sent, so that every member depends on every other (the
 *    engine's reuse rule). The work buffer holds the running sum and, where they fit, each
 *    round's incoming sum in a place of its own; else one incoming sum at a time, its place
 *    announced free by its receiver, and data beyond the work buffer goes in chunks.
 */
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/slots.h"
#include "core/error.h"

/* What an exclusive scan leaves in member 0's dest: zeros, or nothing written. */
static void no_prefix(char *dest, size_t count, const coll_op_t *op, enum coll_scan_kind kind)
{
    if (kind == COLL_SCAN_EXCLUSIVE)
        memset(dest, 0, count * op->esize);
}

/* dest = the copies (in the work buffers) of members 0 .. last, combined in order (last >=
 * 0). */
static void combine_prefix(coll_t *c, char *dest, int last, size_t count, const coll_op_t *op)
{
    if (last == 0)
        memcpy(dest, coll_peer(c, &c->work, 0, 0), count * op->esize);
    else
        op->op3(op, dest, coll_peer(c, &c->work, 0, 0), coll_peer(c, &c->work, 1, 0), count);
    for (int j = 2; j <= last; j++)
        op->acc(op, dest, coll_peer(c, &c->work, j, 0), count);
}

static void scan_shm(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                     const coll_op_t *op, enum coll_scan_kind kind, size_t cap)
{
    const size_t es = op->esize;
    const int last = kind == COLL_SCAN_INCLUSIVE ? c->me : c->me - 1;
    for (size_t off = 0, len; off < count; off += len) {
        len = count - off < cap ? count - off : cap;
        if (off) /* everybody has read the previous chunk out of our work buffer */
            coll_barrier(c);
        memcpy(c->work.addr, src->addr + off * es, len * es);
        coll_barrier(c);
        if (last < 0)
            no_prefix(dest->addr + off * es, len, op, kind);
        else
            combine_prefix(c, dest->addr + off * es, last, len, op);
    }
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

/* Data that fits the work buffer once per round and once more: each round's sum lands in a
 * place of its own, so nobody waits to be told that a place is free, and it travels with
 * its signal (one message over tcp, where the handshake and a put and a signal were four). */
static int rd_fits_rounds(const coll_t *c, size_t count, size_t es)
{
    int rounds = 0;
    while ((1 << rounds) < c->n)
        rounds++;
    const size_t slot = (count * es + 7) & ~(size_t)7;
    return slot * (size_t)(rounds + 1) <= c->work_bytes;
}

static void scan_rd_rounds(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                           size_t count, const coll_op_t *op, enum coll_scan_kind kind)
{
    const size_t es = op->esize, slot = (count * es + 7) & ~(size_t)7;
    char *running = c->work.addr, *out = dest->addr;
    int have_prefix = 0;
    memcpy(running, src->addr, count * es);
    for (int e = 0, d = 1; d < c->n; e++, d <<= 1) {
        const int from = c->me - d, to = c->me + d;
        const size_t at = (size_t)(e + 1) * slot;
        if (to < c->n)
            coll_put_signal(c, to, &c->work, at, running, count * es, SLOT_ROUND_DATA(e));
        else /* wrapped around: no data, but every member still depends on every other */
            coll_signal(c, coll_rel(c, d), SLOT_ROUND_DATA(e));
        coll_wait(c, SLOT_ROUND_DATA(e), 1);
        if (from >= 0)
            take_lower(op, running, out, c->work.addr + at, count, kind != COLL_SCAN_INCLUSIVE,
                       &have_prefix);
    }
    finish(out, running, count, op, kind, have_prefix);
}

static void scan_rd(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                    const coll_op_t *op, enum coll_scan_kind kind, size_t cap)
{
    const size_t es = op->esize, half = cap / 2;
    const int exclusive = kind != COLL_SCAN_INCLUSIVE;
    char *in = c->work.addr, *running = c->work.addr + half * es;
    if (rd_fits_rounds(c, count, es)) {
        scan_rd_rounds(c, dest, src, count, op, kind);
        return;
    }
    for (size_t off = 0, len; off < count; off += len) {
        len = count - off < half ? count - off : half;
        char *out = dest->addr + off * es;
        int have_prefix = 0; /* out holds the sum of the lower members seen so far */
        memcpy(running, src->addr + off * es, len * es);
        for (int e = 0, d = 1; d < c->n; e++, d <<= 1) {
            int from = c->me - d, to = c->me + d;
            if (from >= 0)
                coll_signal(c, from, SLOT_ROUND_FREE(e)); /* our incoming half is free */
            if (to < c->n) {
                coll_wait(c, SLOT_ROUND_FREE(e), 1);
                coll_put(c, to, &c->work, 0, running, len * es);
            }
            coll_signal(c, coll_rel(c, d), SLOT_ROUND_DATA(e));
            coll_wait(c, SLOT_ROUND_DATA(e), 1);
            if (from >= 0) /* else the wrapped-around message: no data */
                take_lower(op, running, out, in, len, exclusive, &have_prefix);
        }
        finish(out, running, len, op, kind, have_prefix);
    }
}

void coll_scan(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
               const coll_op_t *op, enum coll_scan_kind kind)
{
    if (count == 0)
        return;
    if (c->n == 1) {
        if (kind != COLL_SCAN_INCLUSIVE)
            no_prefix(dest->addr, count, op, kind);
        else if (dest->addr != src->addr)
            memmove(dest->addr, src->addr, count * op->esize);
        return;
    }
    size_t cap = c->work_bytes / op->esize;
    if (SSHMEM_UNLIKELY(cap < 2))
        sshmem_fatal(c->call, "one element of %zu bytes is too large for a scan: two must fit "
                     "the team's work buffer (%zu bytes); split the element into smaller ones",
                     op->esize, c->work_bytes);
    if (coll_algo_scan(c, count * op->esize) == COLL_SCAN_SHM)
        scan_shm(c, dest, src, count, op, kind, cap);
    else
        scan_rd(c, dest, src, count, op, kind, cap);
    coll_done(c);
}
