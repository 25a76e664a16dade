/*
 * reduce.c: reductions to all members or to one (shmem_TYPE_OP_reduce, _to_all, and the
 * MPI-style shmemx_allreduce and shmemx_reduce of src/mpix).
 *
 * Shared memory (every member mapped):
 *  - shm: each member publishes its source, a barrier, then each combines every member's copy
 *    in member order. One synchronization; for data that fits the work buffer.
 *  - shmrs: a barrier (sources ready), then member i combines slice i of every source into its
 *    own dest (reduce-scatter), writes it into every other member's dest (to a root: the root's
 *    only) and signals them. Two synchronizations, 1/n of the work each.
 *  - to a root, small (teams, also through UCX): every member's vector goes into the root's
 *    work space and the member leaves (coll_reduce_gather).
 * Message passing (any members):
 *  - rd: recursive doubling: each round, partners exchange their partial results and combine.
 *  - rsag: recursive halving (reduce-scatter), then recursive doubling of the owned ranges
 *    (allgather straight into dest; to a root, a binomial gather).
 * For n not a power of two, n - p adjacent pairs of members fold into one first (fold_of).
 * Both are one loop (reduce_rounds); every round's data lands in a place of its own
 * (coll_round_landing), so nobody signals that its buffer is free.
 *
 * Combining always puts the lower members' data on the left, and every partial result covers
 * a consecutive run of members, so all members compute the same bits and a non-commutative
 * operator (MPI-style user operators) gets x0 op ... op x(n-1) exactly, on every algorithm.
 */
#include <stdint.h>
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/hier.h"
#include "coll/slots.h"
#include "core/error.h"

/* ------------------------------------------------------------------ shared memory */

/* dest = every member's copy (at `at` of b) combined in member order. */
static void combine_all(const coll_t *c, char *dest, const coll_buf_t *b, size_t at,
                        size_t count, const coll_op_t *op)
{
    op->op3(op, dest, coll_peer(c, b, 0, at), coll_peer(c, b, 1, at), count);
    for (int j = 2; j < c->n; j++)
        op->acc(op, dest, coll_peer(c, b, j, at), count);
}

/* shm. On a team, a vector that fits a cache line goes into the member's own stamp line
 * (team/team.h) with the call number after it: no flag, no barrier. Not an early call: a member
 * leaves only once every stamp of this call is in, so all have entered it, and the line is
 * rewritten only nareas >= 2 calls later (engine.h, reuse rule). Else work buffer and barrier. */
static void reduce_shm(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                       const coll_op_t *op)
{
    const size_t nbytes = count * op->esize;
    if (!c->team || nbytes > COLL_STAMP_LINE_DATA) {
        memcpy(c->work.addr, src->addr, nbytes);
        coll_barrier(c);
        combine_all(c, dest->addr, &c->work, 0, count, op);
        return;
    }
    const uint64_t stamp = coll_stamp(c);
    char *mine = coll_stamp_line(c, c->me);
    memcpy(mine, src->addr, nbytes);
    coll_put_stamp(coll_stamp_of_line(mine), stamp);
    for (int d = 1; d < c->n; d++) /* all stamps first: their lines travel at once */
        coll_wait_stamp(c, coll_stamp_of_line(coll_stamp_line(c, coll_rel(c, d))), stamp);
    combine_all(c, dest->addr, &c->flags, SSHMEM_TEAM_STAMP_LINE_AT, count, op);
}

/* Slice i of count elements over n members: [*lo, *hi). */
static void slice_of(size_t count, int n, int i, size_t *lo, size_t *hi)
{
    *lo = count * (size_t)i / (size_t)n;
    *hi = count * (size_t)(i + 1) / (size_t)n;
}

/* out = x0 op ... op x(n-1) over [lo, hi) of the members' sources (src; ours at mine, which may
 * be out itself), in member order, starting from our own slice and growing it to both sides. */
static void combine_slice(coll_t *c, const coll_buf_t *src, const char *mine, char *out,
                          size_t lo, size_t hi, const coll_op_t *op)
{
    const size_t es = op->esize, n = hi - lo;
    int j;
    if (c->me > 0) { /* out = x(me-1) op x(me), then the lower ones onto the left */
        coll_op_apply(op, out, coll_peer(c, src, c->me - 1, lo * es), mine, n);
        for (j = c->me - 2; j >= 0; j--)
            op->racc(op, out, coll_peer(c, src, j, lo * es), n);
        j = c->me + 1;
    } else { /* out = x0 op x1 */
        coll_op_apply(op, out, mine, coll_peer(c, src, 1, lo * es), n);
        j = 2;
    }
    for (; j < c->n; j++)
        op->acc(op, out, coll_peer(c, src, j, lo * es), n);
}

/* shmrs once every source is ready: our slice [lo, hi) of the sources (ours at mine) combined
 * into out + lo and copied to the same place of `all` on every other member (root >= 0: on root
 * only), then a wait until every member has done the same, which also frees the sources. */
static void shmrs_slices(coll_t *c, const coll_buf_t *src, const char *mine, size_t count,
                         const coll_op_t *op, char *out, const coll_buf_t *all, int root)
{
    const size_t es = op->esize;
    size_t lo, hi;
    slice_of(count, c->n, c->me, &lo, &hi);
    if (hi > lo)
        combine_slice(c, src, mine + lo * es, out + lo * es, lo, hi, op);
    for (int d = 1; d < c->n && hi > lo; d++) {
        const int j = coll_rel(c, d);
        if (root < 0 || j == root)
            memcpy(coll_peer(c, all, j, lo * es), out + lo * es, (hi - lo) * es);
    }
    for (int d = 1; d < c->n; d++)
        coll_signal(c, coll_rel(c, d), SLOT_SHMRS_DONE);
    coll_wait(c, SLOT_SHMRS_DONE, c->n - 1);
}

static void reduce_shmrs(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                         const coll_op_t *op, int root)
{
    coll_barrier(c); /* every source is ready */
    shmrs_slices(c, src, src->addr, count, op, dest->addr, dest, root);
}

/* For an MPI code's malloc'd buffers: a copy in, the reduction in place, a copy out. In shmrs a
 * member's own slice, which nobody else reads, skips the stage both ways; rd and rsag read the
 * source on this PE only, so it need not go in. */
void coll_reduce_private(coll_t *c, const coll_buf_t *stage, char *dest, const char *src,
                         size_t count, const coll_op_t *op)
{
    const size_t es = op->esize, bytes = count * es;
    const enum coll_reduce_algo algo = coll_algo_reduce(c, bytes, bytes <= c->work_bytes);
    const coll_buf_t own = {(char *)src, -1, 0};
    size_t lo = 0, hi = 0;
    if (c->n > 1 && algo == COLL_REDUCE_SHMRS) {
        slice_of(count, c->n, c->me, &lo, &hi);
        memcpy(stage->addr, src, lo * es);
        memcpy(stage->addr + hi * es, src + hi * es, (count - hi) * es);
        coll_barrier(c); /* every stage is ready */
        shmrs_slices(c, stage, src, count, op, dest, stage, -1);
        coll_done(c);
    } else if (c->n > 1 && (algo == COLL_REDUCE_RD || algo == COLL_REDUCE_RSAG)) {
        coll_reduce(c, stage, &own, count, op);
    } else {
        memcpy(stage->addr, src, bytes);
        coll_reduce(c, stage, stage, count, op);
    }
    memcpy(dest, stage->addr, lo * es);
    memcpy(dest + hi * es, stage->addr + hi * es, (count - hi) * es);
}

/* Small rooted reduce, gathered (coll.h; MPI lets a non-root leave once its contribution is
 * taken). Member i's vector goes to slot i, stamped where the pair stamps, else with a signal in
 * one message. The root copies its own vector into its slot and grows it to both sides in member
 * order, taking each slot as its stamp or the signals show. Slot: the stamp, then the data at 16
 * (the alignment of every element kind), 64-byte lines. */
#define GATHER_DATA_AT 16

static size_t gather_slot(size_t nbytes) { return (GATHER_DATA_AT + nbytes + 63) & ~(size_t)63; }

int coll_reduce_gather_fits(int n, size_t nbytes, size_t work_bytes)
{
    return nbytes <= work_bytes && (size_t)n * gather_slot(nbytes) <= work_bytes;
}

/* The root: member j's data, once its stamp says so (or it has signalled before). The stamp
 * stays: no later call's stamp matches it, and leaving it saves the line a trip to the root. */
static const char *gather_take(coll_t *c, size_t slot, int j)
{
    uint64_t *stamp = (uint64_t *)(c->work.addr + (size_t)j * slot);
    if (coll_stamps_to(c, j))
        coll_wait_stamp(c, stamp, coll_stamp(c));
    return (const char *)stamp + GATHER_DATA_AT;
}

void coll_reduce_gather(coll_t *c, char *dest, const char *src, size_t count,
                        const coll_op_t *op, int root)
{
    const size_t nbytes = count * op->esize, slot = gather_slot(nbytes);
    coll_mark_early(c);
    if (c->me != root) {
        const size_t mine = (size_t)c->me * slot;
        coll_reach(c, root);
        if (coll_stamps_to(c, root))
            coll_put_stamped(c, root, &c->work, mine + GATHER_DATA_AT, src, nbytes, mine,
                             coll_stamp(c));
        else
            coll_put_signal(c, root, &c->work, mine + GATHER_DATA_AT, src, nbytes,
                            SLOT_GATHERED);
        return;
    }
    char *out = c->work.addr + (size_t)root * slot + GATHER_DATA_AT;
    memmove(out, src, nbytes);
    int flagged = 0;
    for (int j = 0; !c->direct && j < c->n; j++)
        flagged += j != root && !coll_stamps_to(c, j);
    if (flagged)
        coll_wait(c, SLOT_GATHERED, flagged);
    for (int j = root - 1; j >= 0; j--)
        op->racc(op, out, gather_take(c, slot, j), count);
    for (int j = root + 1; j < c->n; j++)
        op->acc(op, out, gather_take(c, slot, j), count);
    memmove(dest, out, nbytes);
}

/* ------------------------------------------------------------------ message passing */

/* Where a partner's data lands: a place of its own for each round (and for the fold), so nobody
 * says its place is free. Across calls the areas in turn keep them apart: a small vector lands in
 * the call's work space (a team's sync area, or an active set's pWrk, which the caller alternates),
 * a larger one on a team in the steps of this call's parity (team/team.h, "Steps"), last used two
 * calls back, which every member has left. Inside a call a round's place is written once per chunk,
 * and a partner starts the next chunk only after this member's data of the last one has reached it
 * (rsag: its allgather; the fold: the result), so a chunk never overwrites one not yet taken. */
size_t coll_round_landing(const coll_t *c, size_t need, coll_buf_t *land)
{
    const struct sshmem_team *t = c->team;
    if (need <= c->work_bytes || !t || t->steps_half <= c->work_bytes) {
        *land = c->work;
        return c->work_bytes;
    }
    coll_buf(land, t->steps + (c->seq & 1) * t->steps_half, t->steps_half, "team steps", c);
    return t->steps_half;
}

/* Folding n places (the members, or a node-aware call's leaders: hier.h) onto p (the largest
 * power of two <= n), each of the p keeping a consecutive range of places in order: the first
 * 2*(n-p) places pair up (2k, 2k+1), the odd one hands its data to the even one and gets the
 * result back at the end; the rest stand alone. The p survivors, numbered 0..p-1 in place order,
 * run the power-of-two algorithm, so "lower on the left" keeps the order of any operator. */
typedef struct fold {
    const hier_map_t *m; /* the places: NULL for the members */
    int p2;      /* largest power of two <= n */
    int levels;  /* log2(p2): rounds of the doubling */
    int extra;   /* this place hands its data to its partner (me - 1) and waits */
    int partner; /* the member of the extra place's partner, or the survivor's extra, or -1 */
    int vme;     /* a survivor's number among the p2 */
    int rem;     /* n - p2: the pairs */
} fold_t;

static fold_t fold_of(const coll_t *c, const hier_map_t *m)
{
    const int n = hier_places(c, m), me = hier_my_place(c, m);
    fold_t f;
    f.m = m;
    f.p2 = 1;
    f.levels = 0;
    while (f.p2 * 2 <= n) {
        f.p2 *= 2;
        f.levels++;
    }
    f.rem = n - f.p2;
    int paired = me < 2 * f.rem;
    f.extra = paired && (me & 1);
    f.partner = !paired ? -1 : hier_place_member(m, f.extra ? me - 1 : me + 1);
    f.vme = paired ? me / 2 : me - f.rem;
    return f;
}

/* The member of survivor v. */
static int fold_member(const fold_t *f, int v)
{
    return hier_place_member(f->m, v < f->rem ? 2 * v : v + f->rem);
}

/* out = mine op theirs, or theirs op mine where theirs is from lower members; out may be mine. */
static void combine_into(const coll_op_t *op, char *out, const char *mine, const char *theirs,
                         size_t n, int theirs_left)
{
    if (theirs_left)
        coll_op_apply(op, out, theirs, mine, n);
    else
        coll_op_apply(op, out, mine, theirs, n);
}

typedef struct range {
    size_t lo, hi;
} range_t;

/* Bytes of landing reduce-scatter needs for len elements: the fold's place (len) and each
 * round's half (rounded up: the upper member keeps the larger one). */
static size_t rsag_need(const fold_t *f, size_t len, size_t es)
{
    size_t need = f->rem ? len : 0, s = len;
    for (int e = 0; e < f->levels; e++) {
        s = (s + 1) / 2;
        need += s;
    }
    return need * es;
}

/* The most elements a chunk of reduce-scatter takes with cap bytes of landing. */
static size_t rsag_chunk(const fold_t *f, size_t count, size_t es, size_t cap)
{
    size_t lo = 0, hi = count;
    while (lo < hi) { /* the largest len <= count with rsag_need(len) <= cap */
        size_t mid = hi - (hi - lo) / 2;
        if (rsag_need(f, mid, es) <= cap)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The survivor that holds a member's result: the member's own, or its partner's. */
static int survivor_of(const fold_t *f, int member)
{
    return member < 2 * f->rem ? member / 2 : member - f->rem;
}

/* A member's first message in a reduction carries its vector's size (coll_sized), so a partner
 * passing another count or type is reported instead of combined. Later messages only count. */
static void put_counted(coll_t *c, int q, const coll_buf_t *dst, size_t at, const void *src,
                        size_t len, int slot, size_t total, int first)
{
    coll_put_add(c, q, dst, at, src, len, slot, first ? coll_sized((long)total) : 1);
}

SSHMEM_COLD static void count_differs(const coll_t *c, int q, long theirs, size_t mine)
{
    sshmem_fatal(c->call, "team PE %d passes %ld bytes to this reduction, this PE (team PE %d) "
                 "%zu: every PE must pass the same count and type", q, theirs, c->me, mine);
}

static void wait_counted(coll_t *c, int slot, int q, size_t total, int first)
{
    if (!first) {
        coll_wait(c, slot, 1);
        return;
    }
    long v = coll_wait_sized(c, slot);
    if (SSHMEM_UNLIKELY(v != (long)total))
        count_differs(c, q, v, total);
}

/* rd (halving 0) or rsag: halving rounds, nearest survivor first (each combined range is a
 * consecutive run of members), then doubling of the owned ranges in reverse order into dest: an
 * allgather (rv < 0), or a binomial gather to survivor rv, where a survivor sends once, in the
 * round of the highest bit in which it differs from rv. Round e's data lands after the places of
 * the rounds before it, which this member and its partner of round e have kept alike. */
static void rounds(coll_t *c, const fold_t *f, const coll_buf_t *land, const coll_buf_t *dest,
                   size_t off, const char *mine, size_t len, const coll_op_t *op, int halving,
                   int rv, size_t total)
{
    const size_t es = op->esize;
    char *acc = dest->addr + off * es;
    range_t held[COLL_MAX_ROUNDS], cur = {0, len};
    size_t at = f->rem ? len * es : 0;
    for (int e = 0; e < f->levels; e++) {
        const int q = fold_member(f, f->vme ^ (1 << e));
        range_t keep = cur, give = cur; /* doubling: the whole range both ways */
        if (halving) {
            const size_t mid = cur.lo + (cur.hi - cur.lo) / 2;
            const int upper = (f->vme >> e) & 1;
            keep = upper ? (range_t){mid, cur.hi} : (range_t){cur.lo, mid};
            give = upper ? (range_t){cur.lo, mid} : (range_t){mid, cur.hi};
        }
        held[e] = cur;
        const int first = off == 0 && e == 0;
        put_counted(c, q, land, at, mine + give.lo * es, (give.hi - give.lo) * es,
                    SLOT_ROUND_DATA(e), total, first);
        wait_counted(c, SLOT_ROUND_DATA(e), q, total, first);
        combine_into(op, acc + keep.lo * es, mine + keep.lo * es, land->addr + at,
                     keep.hi - keep.lo, (f->vme >> e) & 1);
        at += (keep.hi - keep.lo) * es;
        mine = acc;
        cur = keep;
    }
    const int rel = rv < 0 ? 0 : f->vme ^ rv;
    for (int e = f->levels - 1; halving && e >= 0 && !(rel >> (e + 1)); e--) {
        const int q = fold_member(f, f->vme ^ (1 << e));
        if (rv < 0 || rel >> e)
            coll_put_signal(c, q, dest, (off + cur.lo) * es, acc + cur.lo * es,
                            (cur.hi - cur.lo) * es, SLOT_ROUND_DATA(e));
        if (rv < 0 || !(rel >> e))
            coll_wait(c, SLOT_ROUND_DATA(e), 1);
        cur = held[e];
    }
}

SSHMEM_COLD static void landing_too_small(const coll_t *c, size_t es, size_t cap)
{
    if (!c->team)
        sshmem_fatal(c->call, "the work array holds too few elements; pass a pWrk of at least "
                     "max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements");
    sshmem_fatal(c->call, "one element of %zu bytes does not fit the team's landing (%zu bytes) "
                 "that reductions between PEs without shared memory go through; split the "
                 "element into smaller ones", es, cap);
}

/* rd (where every round's vector has its place in the landing, else rsag) or rsag, in chunks of
 * what the landing holds. root: the member needing the result, or -1 for all (rd gives all). */
static void reduce_rounds(coll_t *c, const hier_map_t *m, const coll_buf_t *dest,
                          const coll_buf_t *src, size_t count, const coll_op_t *op, int halving,
                          int root)
{
    const size_t es = op->esize;
    const fold_t f = fold_of(c, m);
    const size_t rd_need = (size_t)((f.rem ? 1 : 0) + f.levels) * count * es;
    coll_buf_t land;
    const size_t cap = coll_round_landing(c, halving ? rsag_need(&f, count, es) : rd_need, &land);
    halving = halving || rd_need > cap;
    const size_t chunk = halving ? rsag_chunk(&f, count, es, cap) : count;
    /* To a root in one chunk only: a chunk's places are used once per call. */
    const int rv = halving && root >= 0 && chunk == count ? survivor_of(&f, root) : -1;
    const int fold_back = rv < 0 || f.partner == root; /* the extra member gets the result */
    if (SSHMEM_UNLIKELY(chunk == 0))
        landing_too_small(c, es, cap);
    for (size_t off = 0, len; off < count; off += len) {
        len = count - off < chunk ? count - off : chunk;
        const char *mine = src->addr + off * es;
        if (f.extra) { /* our chunk to the partner's fold place; the result comes back */
            put_counted(c, f.partner, &land, 0, mine, len * es, SLOT_FOLD_DATA, count * es,
                        off == 0);
            coll_wait(c, SLOT_FOLD_RESULT, 1);
            continue;
        }
        char *acc = dest->addr + off * es;
        if (f.partner >= 0) { /* the extra member is higher: ours on the left */
            wait_counted(c, SLOT_FOLD_DATA, f.partner, count * es, off == 0);
            coll_op_apply(op, acc, mine, land.addr, len);
            mine = acc;
        }
        rounds(c, &f, &land, dest, off, mine, len, op, halving, rv, count * es);
        if (f.partner >= 0 && fold_back)
            coll_put_signal(c, f.partner, dest, off * es, acc, len * es, SLOT_FOLD_RESULT);
        else if (f.partner >= 0) /* only that all have entered the call (the reuse rule) */
            coll_signal(c, f.partner, SLOT_FOLD_RESULT);
    }
}

/* ------------------------------------------------------------------ node-aware (hier.h) */

/* The group's sources combined into acc (the leader's dest), in member order. */
static void node_combine(coll_t *c, const hier_map_t *m, char *acc, const coll_buf_t *src,
                         size_t count, const coll_op_t *op)
{
    if (m->hi - m->lo == 1) {
        if (acc != src->addr)
            memcpy(acc, src->addr, count * op->esize);
        return;
    }
    coll_op_apply(op, acc, src->addr, hier_node_view(c, src, m->lo + 1, 0), count);
    for (int j = m->lo + 2; j < m->hi; j++)
        op->acc(op, acc, hier_node_view(c, src, j, 0), count);
}

/* Each leader combines its group's sources (through shared memory) into its dest, the leaders
 * run rd or rsag over the groups' results, and the members copy the result from their leader's
 * dest. Every partial result covers a consecutive run of groups and so of members, the lower on
 * the left. */
static void reduce_hier(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                        const coll_op_t *op)
{
    hier_map_t m;
    hier_map_init(&m, c, -1);
    hier_node_arrive(c, &m, SLOT_NODE_ARRIVE);
    if (hier_is_leader(&m, c)) {
        node_combine(c, &m, dest->addr, src, count, op);
        if (m.nleaders > 1)
            reduce_rounds(c, &m, dest, dest, count, op, 0, -1);
        if (m.hi - m.lo > 1) {
            hier_node_release(c, &m, SLOT_NODE_RELEASE);
            hier_node_wait(c, SLOT_NODE_COPIED, m.hi - m.lo - 1);
        }
    } else {
        hier_node_release(c, &m, SLOT_NODE_RELEASE);
        memcpy(dest->addr, hier_node_view(c, dest, m.leader, 0), count * op->esize);
        hier_node_add(c, m.leader, SLOT_NODE_COPIED, 1);
    }
}

/* ------------------------------------------------------------------ entry */

void coll_reduce_to(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                    const coll_op_t *op, int root)
{
    const size_t nbytes = count * op->esize;
    if (count == 0)
        return;
    if (c->n == 1) {
        if (dest->addr != src->addr)
            memmove(dest->addr, src->addr, nbytes);
        return;
    }
    const enum coll_reduce_algo algo = coll_algo_reduce(c, nbytes, nbytes <= c->work_bytes);
    switch (algo) {
    case COLL_REDUCE_SHM:
        reduce_shm(c, dest, src, count, op);
        break;
    case COLL_REDUCE_SHMRS:
        reduce_shmrs(c, dest, src, count, op, root);
        break;
    case COLL_REDUCE_HIER:
        reduce_hier(c, dest, src, count, op);
        break;
    default:
        reduce_rounds(c, NULL, dest, src, count, op, algo == COLL_REDUCE_RSAG, root);
        break;
    }
    coll_done(c);
}

void coll_reduce(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                 const coll_op_t *op)
{
    coll_reduce_to(c, dest, src, count, op, -1);
}
