/*
 * alltoall.c: personalized exchange. Pairwise: in step d each member writes its block for
 * member i + d straight into that member's dest, so at every step every member writes to a
 * different target; then one count of n - 1 signals. On shared memory the writes are copies
 * done by all CPUs at once. Small blocks on a team whose members all reach each other by
 * messages take Bruck's ceil(log2 n) steps instead (below; also the strided form's, packed, and
 * the MPI-style alltoallv's).
 */
#include <stdint.h>
#include <string.h>

#include "coll/coll.h"
#include "core/copy.h"
#include "core/error.h"

#define SLOT_BLOCK (COLL_SLOT_ALGO + 0)

/* ------------------------------------------------------------------ Bruck's steps
 *
 * Where every block is a message through its receiver's CPU (tcp), the pairwise exchange
 * costs n - 1 messages per member, each some microseconds of kernel time at both ends. Bruck's
 * index algorithm takes ceil(log2 n) steps instead: position k of a member holds the block on
 * its way to the member k further on; in step e every member sends the blocks of the
 * positions whose bit e is set to the member 2^e further on, which keeps them at the same
 * positions. After the last step position k holds the block from the member k below.
 *
 * The blocks may differ in size (the MPI-style alltoallv's), so each travels as a record: its
 * length, then its bytes, padded to 8. Everything lies in one space (bruck_space_t): a region
 * per step where that step's message lands and its records stay until they move on or are
 * taken, a region where this member builds the message it sends, and where each position's
 * record lies now. Where the members reach each other by messages the space is the team's
 * stage, which is not the call's sync area, so a member writes into another's only once that
 * one has entered this very call (coll_reach_this_call: a message is held by its target
 * until then). Elsewhere it is the call's own work space, which the engine's reach rule
 * already keeps for this call (coll_reach; waiting for a member to enter this very call
 * would read every member's progress word), and which holds fewer blocks.
 */
#define BRUCK_SLOT(e) (COLL_SLOT_ALGO + COLL_BRUCK_FIRST_SLOT + (e))
#define BRUCK_REGION_MAX (64u << 10) /* a held message (a gate still closed) is a copy */
#define BRUCK_OWN UINT32_MAX         /* a position that still holds this member's own block */

static size_t record_bytes(size_t block) { return sizeof(uint64_t) + ((block + 7) & ~(size_t)7); }

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

/* Where each position's record lies: n offsets at the end of the stage. */
static size_t bruck_table_bytes(int n) { return ((size_t)n * sizeof(uint32_t) + 63) & ~(size_t)63; }

/* Where the steps run: see above. */
typedef struct bruck_space {
    char *base;
    size_t bytes;
    int gated;
} bruck_space_t;

static bruck_space_t bruck_space(const coll_t *c)
{
    if (coll_team_messages(c->team))
        return (bruck_space_t){c->team->stage, c->team->stage_bytes, 1};
    return (bruck_space_t){c->work.addr, c->work_bytes, 0};
}

/* The bytes of one step's region: the steps' regions, then the one this member builds its
 * messages in, then the table. */
static size_t bruck_region(const coll_t *c)
{
    const size_t table = bruck_table_bytes(c->n), all = bruck_space(c).bytes;
    if (all <= table)
        return 0;
    const size_t region = (all - table) / (size_t)(bruck_steps(c->n) + 1);
    return (region < BRUCK_REGION_MAX ? region : BRUCK_REGION_MAX) & ~(size_t)63;
}

size_t coll_alltoall_bruck_room(const coll_t *c)
{
    if (!c->team || c->direct || c->n < COLL_BRUCK_MIN)
        return 0;
    const size_t per = (bruck_region(c) / (size_t)bruck_most_moved(c->n)) & ~(size_t)7;
    return per > sizeof(uint64_t) ? per - sizeof(uint64_t) : 0;
}

SSHMEM_COLD static void bruck_overflow(const coll_t *c, int member, size_t bytes, size_t room)
{
    sshmem_fatal(c->call, "internal error: a block of %zu bytes for member %d is larger than "
                 "the %zu Bruck's steps have room for", bytes, member, room);
}

/* The work space is the sync area's, whose stamps (a later call's call number, written
 * beside data) must never meet a stale word of the same value: its records and lengths go
 * back to zero, the first used bytes of each of its regions, before the call returns. */
static void clear_regions(char *base, size_t region, int regions, size_t used)
{
    for (int r = 0; r < regions; r++)
        memset(base + (size_t)r * region, 0, used);
}

/* Step e's message, built at msg: the records of the positions whose bit e is set, in
 * order. */
static size_t bruck_message(coll_t *c, const coll_blocks_t *b, const uint32_t *where, int d,
                            size_t room, const char *base, char *msg)
{
    size_t len = 0;
    for (int k = d; k < c->n; k++) {
        if (!(k & d))
            continue;
        char *rec = msg + len;
        uint64_t bytes;
        if (where[k] != BRUCK_OWN) { /* received in an earlier step: passed on as it came */
            const char *held = base + where[k];
            memcpy(&bytes, held, sizeof bytes);
            memcpy(rec, held, record_bytes(bytes));
        } else {
            bytes = b->write(b->ctx, coll_rel(c, k), rec + sizeof bytes);
            if (SSHMEM_UNLIKELY(bytes > room))
                bruck_overflow(c, coll_rel(c, k), bytes, room);
            memcpy(rec, &bytes, sizeof bytes);
        }
        len += record_bytes(bytes);
    }
    return len;
}

void coll_alltoall_bruck(coll_t *c, const coll_blocks_t *b)
{
    const int n = c->n, steps = bruck_steps(n);
    const size_t region = bruck_region(c), room = coll_alltoall_bruck_room(c);
    const bruck_space_t sp = bruck_space(c);
    char *const stage_at = sp.base;
    char *const msg = stage_at + (size_t)steps * region;
    uint32_t *const where = (uint32_t *)(msg + region);
    coll_buf_t stage;
    coll_buf(&stage, stage_at, sp.bytes, "Bruck's space", c);
    for (int k = 0; k < n; k++)
        where[k] = BRUCK_OWN;
    if (sp.gated) {
        coll_reach_this_call(c);
        c->gate_senders = steps; /* one message a step */
    }
    size_t used = 0; /* of the steps' regions and the message region, to clear at the end */
    for (int e = 0, d = 1; d < n; e++, d <<= 1) {
        const size_t len = bruck_message(c, b, where, d, room, stage_at, msg),
                     at = (size_t)e * region;
        used = len > used ? len : used;
        const int to = coll_rel(c, d);
        coll_reach(c, to);
        coll_put_signal(c, to, &stage, at, msg, len, BRUCK_SLOT(e));
        coll_wait(c, BRUCK_SLOT(e), 1);
        size_t rec = at;
        for (int k = d; k < n; k++) {
            if (!(k & d))
                continue;
            uint64_t bytes;
            memcpy(&bytes, stage_at + rec, sizeof bytes);
            where[k] = (uint32_t)rec;
            rec += record_bytes(bytes);
        }
        used = rec - at > used ? rec - at : used;
    }
    for (int k = 1; k < n; k++) {
        const char *held = stage_at + where[k];
        uint64_t bytes;
        memcpy(&bytes, held, sizeof bytes);
        b->take(b->ctx, coll_rel(c, -k), held + sizeof bytes, bytes);
    }
    if (!sp.gated)
        clear_regions(stage_at, region, steps + 1, used);
    coll_all_entered(c); /* every member's blocks are in */
}

/* The native alltoall's blocks for Bruck's steps: nbytes each, in member order. */
typedef struct even_blocks {
    const char *src;
    char *dest;
    size_t nbytes;
} even_blocks_t;

static size_t write_even(void *ctx, int member, char *to)
{
    const even_blocks_t *e = ctx;
    memcpy(to, e->src + (size_t)member * e->nbytes, e->nbytes);
    return e->nbytes;
}

static void take_even(void *ctx, int member, const char *from, size_t bytes)
{
    const even_blocks_t *e = ctx;
    memcpy(e->dest + (size_t)member * e->nbytes, from, bytes);
}

void coll_alltoall(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes)
{
    const size_t mine = (size_t)c->me * nbytes, room = coll_alltoall_bruck_room(c);
    const int bruck = room && nbytes <= room;
    c->stream = c->direct && sshmem_copy_streams_together((size_t)(c->n - 1) * nbytes, c->n);
    for (int d = 1; d < c->n && !bruck; d++) {
        int j = coll_rel(c, d);
        coll_put_signal(c, j, dest, mine, src->addr + (size_t)j * nbytes, nbytes, SLOT_BLOCK);
    }
    if (dest->addr != src->addr)
        memmove(dest->addr + mine, src->addr + mine, nbytes);
    c->stream = 0;
    if (bruck) {
        even_blocks_t e = {src->addr, dest->addr, nbytes};
        const coll_blocks_t b = {write_even, take_even, &e};
        coll_alltoall_bruck(c, &b);
    } else if (c->n > 1) {
        coll_wait(c, SLOT_BLOCK, c->n - 1);
    }
    coll_done(c);
}

/* The strided alltoall's blocks: nelems elements of esize a stride apart, packed for Bruck's
 * steps. */
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
    const size_t room = coll_alltoall_bruck_room(c);
    const int bruck = room && nelems * esize <= room; /* over tcp each strided put was a message */
    for (int d = 1; d < c->n && !bruck; d++) {
        int j = coll_rel(c, d);
        coll_put_strided(c, j, dest, (size_t)c->me * b.dblock, dst,
                         src->addr + (size_t)j * b.sblock, sst, nelems, esize);
        coll_signal(c, j, SLOT_BLOCK);
    }
    own_strided(&b, c->me);
    if (bruck) {
        const coll_blocks_t blocks = {write_strided, take_strided, &b};
        coll_alltoall_bruck(c, &blocks);
    } else if (c->n > 1) {
        coll_wait(c, SLOT_BLOCK, c->n - 1);
    }
    coll_done(c);
}
