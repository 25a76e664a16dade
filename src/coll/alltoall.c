/*
 * alltoall.c: personalized exchange. Pairwise: in step d each member writes its block for member
 * i + d straight into that member's dest, so at every step every member writes to a different
 * target; then one count of n - 1 signals. On shared memory all CPUs copy at once. Small blocks
 * on a team not all on shared memory take Bruck's ceil(log2 n) steps instead (below; also the
 * strided form's, packed, and the MPI-style alltoallv's).
 */
#include <stdint.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/slots.h"
#include "core/copy.h"
#include "core/error.h"

/* ------------------------------------------------------------------ Bruck's steps
 *
 * Pairwise costs n - 1 messages per member; Bruck's index algorithm takes ceil(log2 n) steps:
 * position k of a member holds the block on its way to the member k further on; in step e every
 * member sends the blocks of the positions whose bit e is set to the member 2^e further on, at
 * the same positions. After the last step position k holds the block from the member k below.
 *
 * Blocks may differ in size (the MPI-style alltoallv's), so each travels as a record: its length in
 * 4 bytes (with the caller's mark, COLL_BLOCK_MARKED), then its bytes, padded to 4 (records are
 * read with memcpy, so nothing needs more alignment; a block's bytes travel up to log2 n times).
 * All lies in the call's work space, made the team's steps by the caller (coll_work_in_steps;
 * nothing else writes there in this call): a region per step where its message lands and its
 * records stay until they move on or are taken (no receiver says a region is free), a region where
 * this member builds its message, and where each position's record lies now.
 */
#define BRUCK_SLOT(e) (COLL_SLOT_ALGO + COLL_BRUCK_FIRST_SLOT + (e))
#define BRUCK_OWN UINT32_MAX /* a position that still holds this member's own block */

typedef uint32_t record_len_t; /* a block's bytes | COLL_BLOCK_MARKED */

static size_t record_bytes(record_len_t len)
{
    const size_t block = len & ~COLL_BLOCK_MARKED;
    return sizeof(record_len_t) + ((block + 3) & ~(size_t)3);
}

static int bruck_steps(int n)
{
    int steps = 0;
    while ((1 << steps) < n)
        steps++;
    return steps;
}

/* The most positions 1 .. n-1 one step moves: those whose bit e is set, for the worst e. */
static int bruck_most_moved(int n)
{
    int most = 0;
    for (int e = 0, d = 1; d < n; e++, d <<= 1) {
        int moved = (n >> (e + 1)) << e; /* whole periods of 2d, d of each with the bit */
        int rest = (n & (2 * d - 1)) - d;
        moved += rest > 0 ? rest : 0;
        most = moved > most ? moved : most;
    }
    return most;
}

/* Where each position's record lies: n offsets at the end of the work space. */
static size_t bruck_table_bytes(int n) { return ((size_t)n * sizeof(uint32_t) + 63) & ~(size_t)63; }

/* The bytes of one step's region: the steps' regions, then the one this member builds its
 * messages in, then the table. */
static size_t bruck_region(const coll_t *c)
{
    const size_t table = bruck_table_bytes(c->n);
    if (c->work_bytes <= table)
        return 0;
    return ((c->work_bytes - table) / (size_t)(bruck_steps(c->n) + 1)) & ~(size_t)63;
}

size_t coll_alltoall_bruck_room(const coll_t *c)
{
    if (!c->team || c->direct || c->n < COLL_BRUCK_MIN)
        return 0;
    size_t per = (bruck_region(c) / (size_t)bruck_most_moved(c->n)) & ~(size_t)3;
    per = per < COLL_BLOCK_MARKED ? per : COLL_BLOCK_MARKED - 4;
    return per > sizeof(record_len_t) ? per - sizeof(record_len_t) : 0;
}

SSHMEM_COLD static void bruck_overflow(const coll_t *c, int member, size_t bytes, size_t room)
{
    sshmem_fatal(c->call, "internal error: a block of %zu bytes for member %d is larger than "
                 "the %zu Bruck's steps have room for", bytes, member, room);
}

/* Step e's message, built at msg: the records of the positions whose bit e is set, in order. */
static size_t bruck_message(coll_t *c, const coll_blocks_t *b, const uint32_t *where, int d,
                            size_t room, const char *base, char *msg)
{
    size_t len = 0;
    for (int k = d; k < c->n; k++) {
        if (!(k & d))
            continue;
        char *rec = msg + len;
        record_len_t rlen;
        if (where[k] != BRUCK_OWN) { /* received in an earlier step: passed on as it came */
            const char *held = base + where[k];
            memcpy(&rlen, held, sizeof rlen);
            memcpy(rec, held, record_bytes(rlen));
        } else {
            const size_t w = b->write(b->ctx, coll_rel(c, k), rec + sizeof rlen);
            if (SSHMEM_UNLIKELY((w & ~(size_t)COLL_BLOCK_MARKED) > room))
                bruck_overflow(c, coll_rel(c, k), w & ~(size_t)COLL_BLOCK_MARKED, room);
            rlen = (record_len_t)w;
            memcpy(rec, &rlen, sizeof rlen);
        }
        len += record_bytes(rlen);
    }
    return len;
}

void coll_alltoall_bruck(coll_t *c, const coll_blocks_t *b)
{
    const int n = c->n, steps = bruck_steps(n);
    const size_t region = bruck_region(c), room = coll_alltoall_bruck_room(c);
    char *const base = c->work.addr;
    char *const msg = base + (size_t)steps * region;
    uint32_t *const where = (uint32_t *)(msg + region);
    for (int k = 0; k < n; k++)
        where[k] = BRUCK_OWN;
    for (int e = 0, d = 1; d < n; e++, d <<= 1) {
        const size_t len = bruck_message(c, b, where, d, room, base, msg),
                     at = (size_t)e * region;
        const int to = coll_rel(c, d);
        coll_reach(c, to);
        coll_put_signal(c, to, &c->work, at, msg, len, BRUCK_SLOT(e));
        coll_wait(c, BRUCK_SLOT(e), 1);
        size_t rec = at;
        for (int k = d; k < n; k++) {
            if (!(k & d))
                continue;
            record_len_t rlen;
            memcpy(&rlen, base + rec, sizeof rlen);
            where[k] = (uint32_t)rec;
            rec += record_bytes(rlen);
        }
    }
    for (int k = 1; k < n; k++) {
        const char *held = base + where[k];
        record_len_t rlen;
        memcpy(&rlen, held, sizeof rlen);
        b->take(b->ctx, coll_rel(c, -k), held + sizeof rlen, rlen);
    }
    coll_all_entered(c); /* every member's blocks are in */
}

/* Whether Bruck's steps may run on this call: then its work space is the team's steps. */
static size_t steps_room(coll_t *c)
{
    if (!c->team || c->direct || c->n < COLL_BRUCK_MIN)
        return 0;
    coll_work_in_steps(c);
    return coll_alltoall_bruck_room(c);
}

/* The alltoall's blocks: nelems elements of esize a stride apart (the plain alltoall's one
 * element of the whole block), packed for Bruck's steps. */
typedef struct strided_blocks {
    const char *src;
    char *dest;
    size_t sblock, dblock;  /* bytes from one member's block to the next */
    ptrdiff_t sst, dst;     /* strides, in bytes */
    size_t nelems, esize;
} strided_blocks_t;

static size_t write_strided(void *ctx, int member, char *to)
{
    const strided_blocks_t *s = ctx;
    const char *from = s->src + (size_t)member * s->sblock;
    for (size_t k = 0; k < s->nelems; k++)
        memcpy(to + k * s->esize, from + (ptrdiff_t)k * s->sst, s->esize);
    return s->nelems * s->esize;
}

static void take_strided(void *ctx, int member, const char *from, size_t bytes)
{
    const strided_blocks_t *s = ctx;
    char *to = s->dest + (size_t)member * s->dblock;
    (void)bytes;
    for (size_t k = 0; k < s->nelems; k++)
        memcpy(to + (ptrdiff_t)k * s->dst, from + k * s->esize, s->esize);
}

/* The block from member `me` to itself, stride to stride. */
static void own_strided(const strided_blocks_t *s, int me)
{
    char *to = s->dest + (size_t)me * s->dblock;
    const char *from = s->src + (size_t)me * s->sblock;
    for (size_t k = 0; k < s->nelems; k++)
        memmove(to + (ptrdiff_t)k * s->dst, from + (ptrdiff_t)k * s->sst, s->esize);
}

void coll_alltoalls(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t esize)
{
    /* Block j of the source starts at element j*nelems*sst; block i of dest at i*nelems*dst. */
    strided_blocks_t b = {src->addr, dest->addr, nelems * (size_t)sst * esize,
                          nelems * (size_t)dst * esize, sst * (ptrdiff_t)esize,
                          dst * (ptrdiff_t)esize, nelems, esize};
    const size_t bytes = nelems * esize, room = steps_room(c);
    const int bruck = room && bytes <= room; /* over tcp each strided put was a message */
    const int run = sst == 1 && dst == 1;    /* a block is one run of bytes at both ends */
    c->stream = run && c->direct && sshmem_copy_streams_together((size_t)(c->n - 1) * bytes, c->n);
    for (int d = 1; d < c->n && !bruck; d++) {
        const int j = coll_rel(c, d);
        const size_t at = (size_t)c->me * b.dblock;
        const char *from = src->addr + (size_t)j * b.sblock;
        if (run) {
            coll_put_signal(c, j, dest, at, from, bytes, SLOT_ALLTOALL_BLOCK);
        } else {
            coll_put_strided(c, j, dest, at, dst, from, sst, nelems, esize);
            coll_signal(c, j, SLOT_ALLTOALL_BLOCK);
        }
    }
    own_strided(&b, c->me);
    c->stream = 0;
    if (bruck) {
        const coll_blocks_t blocks = {write_strided, take_strided, &b};
        coll_alltoall_bruck(c, &blocks);
    } else if (c->n > 1) {
        coll_wait(c, SLOT_ALLTOALL_BLOCK, c->n - 1);
    }
    coll_done(c);
}

void coll_alltoall(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes)
{
    coll_alltoalls(c, dest, src, 1, 1, 1, nbytes); /* one element of nbytes per member */
}
