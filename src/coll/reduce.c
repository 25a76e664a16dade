/*
 * reduce.c: reductions to all members (shmem_TYPE_OP_reduce, shmem_TYPE_OP_to_all).
 *
 * Shared memory (every member mapped):
 *  - shm: each member copies its source into its work buffer, a barrier, then each reads
 *    every member's copy and combines them in member order. One synchronization; for data
 *    that fits the work buffer (small reductions).
 *  - shmrs: a barrier (sources ready), then member i combines slice i of every source into
 *    its own dest (reduce-scatter), writes that slice into every other member's dest and
 *    signals them (allgather). Two synchronizations, each member does 1/n of the work.
 * Message passing (any members):
 *  - rd: recursive doubling. Each round, partners exchange their partial results through
 *    each other's work buffer and combine. Data beyond the work buffer goes in chunks.
 *  - rsag: recursive halving (reduce-scatter: each round exchanges half of the remaining
 *    range) then recursive doubling of the owned ranges (allgather straight into dest).
 * For n not a power of two, n - p adjacent pairs of members fold into one first (fold_of).
 *
 * Work buffers are written only after their owner said they are free (a READY flag), since
 * one buffer serves every round. Combining always puts the lower members' data on the left,
 * and every partial result covers a consecutive run of members, so all members compute the
 * same bits and a non-commutative operator (MPI-style user operators) gets x0 op ... op
 * x(n-1) exactly, on every algorithm.
 */
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/hier.h"
#include "coll/reduce_handoff.h"
#include "coll/slots.h"
#include "core/error.h"

/* ------------------------------------------------------------------ shared memory */

static void reduce_shm(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                       const coll_op_t *op)
{
    memcpy(c->work.addr, src->addr, count * op->esize);
    coll_barrier(c);
    op->op3(op, dest->addr, coll_peer(c, &c->work, 0, 0), coll_peer(c, &c->work, 1, 0), count);
    for (int j = 2; j < c->n; j++)
        op->acc(op, dest->addr, coll_peer(c, &c->work, j, 0), count);
}

/* A vector that fits a cache line, on a team on shared memory: every member writes its
 * vector and then the call number into its own stamp line (team/team.h), waits for every
 * other member's stamp and combines the lines in member order where they are. One line moves
 * from each member to each other and nothing else: no flag, no barrier, no copy into a peer.
 * Not an early call: a member leaves only once every stamp of this call is in, so every member has
 * entered it, and the line is rewritten only nareas >= 2 calls later (engine.h, reuse rule). */
static void reduce_stamp(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                         const coll_op_t *op)
{
    const uint64_t stamp = coll_stamp(c);
    char *mine = coll_stamp_line(c, c->me);
    memcpy(mine, src->addr, count * op->esize);
    coll_put_stamp(coll_stamp_of_line(mine), stamp);
    for (int d = 1; d < c->n; d++) /* all stamps first: their lines travel at once */
        coll_wait_stamp(c, coll_stamp_of_line(coll_stamp_line(c, coll_rel(c, d))), stamp);
    op->op3(op, dest->addr, coll_stamp_line(c, 0), coll_stamp_line(c, 1), count);
    for (int j = 2; j < c->n; j++)
        op->acc(op, dest->addr, coll_stamp_line(c, j), count);
}

/* Slice i of count elements over n members: [*lo, *hi). */
static void slice_of(size_t count, int n, int i, size_t *lo, size_t *hi)
{
    *lo = count * (size_t)i / (size_t)n;
    *hi = count * (size_t)(i + 1) / (size_t)n;
}

/* out = x0 op ... op x(n-1) over [lo, hi) of the members' sources (src; this member's own
 * elements at mine, which may be out itself: in place), in member order, starting from our
 * own slice and growing it to both sides. */
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

/* The two halves of shmrs once every input is ready: combine our slice [lo, hi) of the
 * members' inputs (ours at mine) into out, copy it to the same place of every other member's
 * results, and wait until every member has done the same for us. */
static void share_own_slice(coll_t *c, const coll_buf_t *inputs, const char *mine, char *out,
                            const coll_buf_t *results, size_t lo, size_t hi, const coll_op_t *op)
{
    const size_t es = op->esize;
    if (hi > lo) {
        combine_slice(c, inputs, mine, out, lo, hi, op);
        for (int d = 1; d < c->n; d++)
            memcpy(coll_peer(c, results, coll_rel(c, d), lo * es), out, (hi - lo) * es);
    }
    for (int d = 1; d < c->n; d++)
        coll_signal(c, coll_rel(c, d), SLOT_SHMRS_DONE);
    coll_wait(c, SLOT_SHMRS_DONE, c->n - 1);
}

static void reduce_shmrs(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                         const coll_op_t *op)
{
    const size_t es = op->esize;
    size_t lo, hi;
    coll_barrier(c); /* every source is ready */
    slice_of(count, c->n, c->me, &lo, &hi);
    share_own_slice(c, src, src->addr + lo * es, dest->addr + lo * es, dest, lo, hi, op);
}

/*
 * Allreduce of vectors in memory only their owners see (an MPI code's malloc'd buffers), on
 * shared memory, through stage (symmetric, count elements): shmrs, except that a member's own
 * slice never goes through the stage. It copies in only what the others read (every slice
 * but its own), combines its slice from its own source straight into its own dest and into
 * the others' stages, and copies out only their slices: (n - 1) / n of the copies in and out
 * of a whole trip through the stage.
 */
void coll_reduce_staged(coll_t *c, const coll_buf_t *stage, char *dest, const char *src,
                        size_t count, const coll_op_t *op)
{
    const size_t es = op->esize;
    size_t lo, hi;
    slice_of(count, c->n, c->me, &lo, &hi);
    memcpy(stage->addr, src, lo * es);
    memcpy(stage->addr + hi * es, src + hi * es, (count - hi) * es);
    coll_barrier(c); /* every stage is ready */
    share_own_slice(c, stage, src + lo * es, dest + lo * es, stage, lo, hi, op);
    memcpy(dest, stage->addr, lo * es);
    memcpy(dest + hi * es, stage->addr + hi * es, (count - hi) * es);
    coll_done(c);
}

/*
 * Rooted reduce on shared memory (the MPI-style shmemx_reduce): the root tells every member
 * where its result goes (a "window": its dest when that is symmetric and apart from its
 * source, else the bounce buffer it was given, in pieces), then member i combines slice i of
 * every source straight into the root's window. The root copies a bounce piece out and frees
 * everybody for the next piece; after the last one the sources may be reused. Where a flat
 * barrier is the barrier of choice, the last piece ends with one instead: the members leave
 * as soon as all have combined, without waiting for the root's word. Only the root's dest is
 * written; other members' dest is not even looked at.
 */

/* The root's window; returns 1 when it is the bounce buffer. */
static int root_window(const coll_t *c, char *dest, const coll_buf_t *src, size_t bytes,
                       char *bounce, coll_buf_t *win)
{
    size_t off;
    int region = sshmem_region_of(dest, bytes, &off);
    int overlap = dest < src->addr + bytes && src->addr < dest + bytes;
    if (region >= 0 && !overlap) {
        *win = (coll_buf_t){dest, region, off};
        return 0;
    }
    coll_buf(win, bounce, 1, "bounce buffer", c);
    return 1;
}

/* The window as one flag value (offset, region, bounce bit), and back on a member. */
static long window_encode(const coll_buf_t *win, int bounced)
{
    return (long)(win->off << 3 | (size_t)win->region << 1 | (size_t)bounced);
}

static char *window_decode(const coll_t *c, int root, long v, int *bounced)
{
    *bounced = (int)(v & 1);
    return sshmem_peer(coll_pe(c, root))->direct[(v >> 1) & 3] + ((size_t)v >> 3);
}

void coll_reduce_root(coll_t *c, char *dest, const coll_buf_t *src, size_t count,
                      const coll_op_t *op, int root, char *bounce, size_t bounce_elems)
{
    const size_t es = op->esize;
    coll_buf_t win;
    char *base = NULL;
    int bounced = 0;
    if (count == 0)
        return;
    if (c->n == 1) {
        if (dest != src->addr)
            memmove(dest, src->addr, count * es);
        return;
    }
    if (c->me == root) {
        bounced = root_window(c, dest, src, count * es, bounce, &win);
        base = win.addr;
        for (int d = 1; d < c->n; d++)
            coll_send_value(c, coll_rel(c, d), SLOT_ROOT_WHERE, window_encode(&win, bounced));
    }
    coll_barrier(c); /* every source is ready */
    if (c->me != root)
        base = window_decode(c, root, coll_recv_value(c, SLOT_ROOT_WHERE), &bounced);
    const size_t cap = bounced ? bounce_elems : count;
    if (SSHMEM_UNLIKELY(cap == 0))
        sshmem_fatal(c->call, "one element (%zu bytes) does not fit the bounce buffer; pass a "
                     "symmetric dest on the root", es);
    for (size_t at = 0, len; at < count; at += len) {
        len = count - at < cap ? count - at : cap;
        size_t lo, hi;
        slice_of(len, c->n, c->me, &lo, &hi);
        coll_buf_t piece = *src;
        piece.addr += at * es;
        piece.off += at * es;
        if (hi > lo)
            combine_slice(c, &piece, piece.addr + lo * es, base + lo * es, lo, hi, op);
        if (at + len == count && coll_algo_barrier(c) == COLL_BARRIER_FLAT) {
            /* The last piece: once every member has combined (one flat barrier: a single
             * wait), every source is free and the window complete. The members leave at
             * once; only the root stays, to copy a bounced piece out. */
            coll_barrier(c);
            if (c->me == root && bounced)
                memcpy(dest + at * es, base, len * es);
            break;
        }
        if (c->me != root) {
            coll_signal(c, root, SLOT_ROOT_DONE);
            coll_wait(c, SLOT_ROOT_FREE, 1);
            continue;
        }
        coll_wait(c, SLOT_ROOT_DONE, c->n - 1);
        if (bounced)
            memcpy(dest + at * es, base, len * es);
        for (int d = 1; d < c->n; d++)
            coll_signal(c, coll_rel(c, d), SLOT_ROOT_FREE);
    }
}

/*
 * Small rooted reduce, gathered (teams; MPI's rule for a reduce non-root: it may leave once
 * its contribution is taken). Member i writes its vector into slot i of the root's work space
 * and leaves at once. Where the pair stamps (coll_stamps_to: shared memory, UCX with
 * one-sided puts) it stamps the slot (coll_put_stamped: the vector's own cache line says it
 * has arrived, no flag); where UCX emulates RMA the vector and a signal go together as one
 * message (coll_put_signal). The root copies its own vector into
 * its slot and grows it to both sides in member order, taking each member's slot as its stamp
 * shows, or once all have signalled (x0 op ... op x(n-1), as every algorithm here). Slot: the
 * stamp, then the data at 16 (the alignment of every element kind), 64-byte lines.
 */
#define GATHER_DATA_AT 16

static size_t gather_slot(size_t nbytes) { return (GATHER_DATA_AT + nbytes + 63) & ~(size_t)63; }

int coll_reduce_gather_fits(int n, size_t nbytes, size_t work_bytes)
{
    return nbytes <= work_bytes && (size_t)n * gather_slot(nbytes) <= work_bytes;
}

/* The root: member j's data, once it is there (its stamp says so, or it has signalled
 * before). The stamp stays: no later call's stamp matches it, and leaving it saves the line
 * a trip back to the root (coll_stamp). */
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

/*
 * Folding n members onto p (the largest power of two <= n) so that each of the p keeps a
 * consecutive range of members, in order: the first 2*(n-p) members pair up (2k, 2k+1), the
 * odd one of a pair hands its data to the even one and gets the result back at the end; the
 * rest stand alone. The p survivors, numbered 0..p-1 in member order, run the power-of-two
 * algorithm; a survivor's range lies below the next one's, so "lower on the left" keeps the
 * order of any operator.
 */
typedef struct fold {
    int p2;      /* largest power of two <= n */
    int extra;   /* this member hands its data to its partner (me - 1) and waits */
    int partner; /* the extra member's partner, or the survivor's extra (me + 1), or -1 */
    int vme;     /* a survivor's number among the p2 */
    int rem;     /* n - p2: the pairs */
} fold_t;

static fold_t fold_of(const coll_t *c)
{
    fold_t f;
    f.p2 = 1;
    while (f.p2 * 2 <= c->n)
        f.p2 *= 2;
    f.rem = c->n - f.p2;
    int paired = c->me < 2 * f.rem;
    f.extra = paired && (c->me & 1);
    f.partner = !paired ? -1 : f.extra ? c->me - 1 : c->me + 1;
    f.vme = paired ? c->me / 2 : c->me - f.rem;
    return f;
}

/* The member of survivor v. */
static int fold_member(const fold_t *f, int v) { return v < f->rem ? 2 * v : v + f->rem; }

/* Both at once with partner q in round e: our data into q's work, q's into ours; or, where
 * q is reached by messages (coll_messages_to), q's straight into `into` (any memory of ours;
 * NULL: our work). Each side reads what the other asked for (send_to_work), so the two ends
 * may choose differently. */
static void exchange(coll_t *c, int q, int e, const void *data, size_t len, char *into)
{
    if (into)
        coll_send_value(c, q, SLOT_ROUND_FREE(e), (long)(uintptr_t)into);
    else
        coll_signal(c, q, SLOT_ROUND_FREE(e));
    send_to_work(c, q, SLOT_ROUND_FREE(e), SLOT_ROUND_DATA(e), data, len);
    coll_wait(c, SLOT_ROUND_DATA(e), 1);
}

/* acc = from op acc where from_left, else acc op from. */
static void combine_ordered(const coll_op_t *op, char *acc, const char *from, size_t count,
                            int from_left)
{
    if (from_left)
        op->racc(op, acc, from, count);
    else
        op->acc(op, acc, from, count);
}

/* Combine what partner q left at `from` (in our landing or work buffer) into acc, the lower
 * member on the left. */
static void combine_from(const coll_t *c, int q, char *acc, const char *from, size_t count,
                         const coll_op_t *op)
{
    combine_ordered(op, acc, from, count, q < c->me);
}

static void combine_work(const coll_t *c, int q, char *acc, size_t count, const coll_op_t *op)
{
    combine_from(c, q, acc, c->land.addr, count, op);
}

/* An extra member hands its chunk to its partner, in pieces of the work buffer's size. */
static void fold_send(coll_t *c, const fold_t *f, const char *data, size_t count, size_t cap,
                      size_t es)
{
    for (size_t done = 0, piece; done < count; done += piece) {
        piece = count - done < cap ? count - done : cap;
        send_to_work(c, f->partner, SLOT_FOLD_FREE, SLOT_FOLD_DATA, data + done * es,
                     piece * es);
    }
}

/* Its partner takes the pieces in (the extra member is higher: our data on the left). */
static void fold_recv(coll_t *c, const fold_t *f, char *acc, size_t count, size_t cap,
                      const coll_op_t *op)
{
    for (size_t done = 0, piece; done < count; done += piece) {
        piece = count - done < cap ? count - done : cap;
        recv_in_work(c, f->partner, SLOT_FOLD_FREE, SLOT_FOLD_DATA);
        op->acc(op, acc + done * op->esize, c->land.addr, piece);
    }
}

/* The result of a chunk goes back to the extra member, straight into its dest. */
static void fold_result(coll_t *c, const fold_t *f, const coll_buf_t *dest, size_t at,
                        size_t len)
{
    coll_put_signal(c, f->partner, dest, at, dest->addr + at, len, SLOT_FOLD_RESULT);
}

static size_t work_elems(const coll_t *c, const coll_op_t *op)
{
    size_t cap = c->land_bytes / op->esize;
    if (SSHMEM_UNLIKELY(cap == 0 && !c->team))
        sshmem_fatal(c->call, "the work array holds no element; pass a pWrk of at least "
                     "max(nreduce/2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements");
    if (SSHMEM_UNLIKELY(cap == 0))
        sshmem_fatal(c->call, "one element of %zu bytes does not fit the team's work buffer "
                     "(%zu bytes) that reductions between PEs without shared memory go "
                     "through; split the element into smaller ones", op->esize, c->land_bytes);
    return cap;
}

/* Rounds of the doubling (log2 of the survivors). */
static int rounds_of(const fold_t *f)
{
    int levels = 0;
    while ((1 << levels) < f->p2)
        levels++;
    return levels;
}

/*
 * Recursive doubling of a vector small enough that every round has a slot of its own in the
 * work space of the call's sync area (slot e + 1 for round e; slot 0 stays the fold's): a
 * partner writes into it without asking first, since nothing else writes there in this call
 * and every member has left the call that last used the area (engine.h, reuse rule). One
 * message per round instead of a "ready" and then the data: on a network that halves the
 * latency of each round.
 */
static int rd_slots_fit(const coll_t *c, const fold_t *f, size_t bytes)
{
    return (size_t)(rounds_of(f) + 1) * bytes <= c->work_bytes;
}

static void rd_rounds_in_slots(coll_t *c, const fold_t *f, char *acc, size_t count,
                               const coll_op_t *op)
{
    const size_t bytes = count * op->esize;
    for (int e = 0; (1 << e) < f->p2; e++) {
        int q = fold_member(f, f->vme ^ (1 << e));
        const size_t slot = (size_t)(e + 1) * bytes;
        coll_put_signal(c, q, &c->work, slot, acc, bytes, SLOT_ROUND_DATA(e));
        coll_wait(c, SLOT_ROUND_DATA(e), 1);
        combine_from(c, q, acc, c->work.addr + slot, count, op);
    }
}

static void reduce_rd(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                      const coll_op_t *op)
{
    const size_t es = op->esize, cap = work_elems(c, op);
    const fold_t f = fold_of(c);
    if (rd_slots_fit(c, &f, count * es)) {
        if (f.extra) {
            fold_send(c, &f, src->addr, count, cap, es);
            coll_wait(c, SLOT_FOLD_RESULT, 1);
            return;
        }
        if (dest->addr != src->addr)
            memcpy(dest->addr, src->addr, count * es);
        if (f.partner >= 0)
            fold_recv(c, &f, dest->addr, count, cap, op);
        rd_rounds_in_slots(c, &f, dest->addr, count, op);
        if (f.partner >= 0)
            fold_result(c, &f, dest, 0, count * es);
        return;
    }
    for (size_t off = 0, len; off < count; off += len) {
        len = count - off < cap ? count - off : cap;
        if (f.extra) {
            fold_send(c, &f, src->addr + off * es, len, cap, es);
            coll_wait(c, SLOT_FOLD_RESULT, 1);
            continue;
        }
        char *acc = dest->addr + off * es;
        if (dest->addr != src->addr)
            memcpy(acc, src->addr + off * es, len * es);
        if (f.partner >= 0)
            fold_recv(c, &f, acc, len, cap, op);
        for (int e = 0; (1 << e) < f.p2; e++) {
            int q = fold_member(&f, f.vme ^ (1 << e));
            exchange(c, q, e, acc, len * es, NULL);
            combine_work(c, q, acc, len, op);
        }
        if (f.partner >= 0)
            fold_result(c, &f, dest, off * es, len * es);
    }
}

typedef struct range {
    size_t lo, hi;
} range_t;

/* Whether reduce-scatter's first round takes the partner's half straight into dest (its
 * final place) and our own data from the source, so that the source is never copied into
 * dest first: where the partner is reached by messages (exchange), dest is not the
 * source, and no earlier step (a fold) needs our data in dest. A 1 MiB allreduce at 2 PEs
 * over TCP then copies 1 MiB less per call. */
static int rsag_first_in_place(const coll_t *c, const fold_t *f, int levels, const char *acc,
                               const char *mine, size_t bytes)
{
    if (levels == 0 || f->partner >= 0 || !(acc + bytes <= mine || mine + bytes <= acc))
        return 0;
    return coll_messages_to(c, fold_member(f, f->vme ^ 1));
}

static void reduce_rsag(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                        const coll_op_t *op)
{
    const size_t es = op->esize, cap = work_elems(c, op);
    const fold_t f = fold_of(c);
    const int levels = rounds_of(&f);
    for (size_t off = 0, len; off < count; off += len) {
        len = count - off < 2 * cap ? count - off : 2 * cap; /* a half fits the work buffer */
        if (f.extra) {
            fold_send(c, &f, src->addr + off * es, len, cap, es);
            coll_wait(c, SLOT_FOLD_RESULT, 1);
            continue;
        }
        char *acc = dest->addr + off * es;
        const char *mine = src->addr + off * es;
        const int first_in_place = rsag_first_in_place(c, &f, levels, acc, mine, len * es);
        if (dest->addr != src->addr && !first_in_place)
            memcpy(acc, mine, len * es);
        if (f.partner >= 0)
            fold_recv(c, &f, acc, len, cap, op);

        /* Reduce-scatter by halving, nearest survivor first (so each combined range is a
         * consecutive run of members): before round e we hold held[e]; we keep one half. */
        range_t held[COLL_MAX_ROUNDS], cur = {0, len};
        for (int e = 0; e < levels; e++) {
            int q = fold_member(&f, f.vme ^ (1 << e));
            size_t mid = cur.lo + (cur.hi - cur.lo) / 2;
            int upper = (f.vme >> e) & 1;
            range_t keep = upper ? (range_t){mid, cur.hi} : (range_t){cur.lo, mid};
            range_t give = upper ? (range_t){cur.lo, mid} : (range_t){mid, cur.hi};
            const size_t give_bytes = (give.hi - give.lo) * es, keep_n = keep.hi - keep.lo;
            held[e] = cur;
            if (e == 0 && first_in_place) { /* q's half straight into acc, ours from source */
                exchange(c, q, e, mine + give.lo * es, give_bytes, acc + keep.lo * es);
                /* acc holds q's half now: ours goes on the left when we are the lower */
                combine_ordered(op, acc + keep.lo * es, mine + keep.lo * es, keep_n, c->me < q);
            } else {
                exchange(c, q, e, acc + give.lo * es, give_bytes, NULL);
                combine_work(c, q, acc + keep.lo * es, keep_n, op);
            }
            cur = keep;
        }
        /* Allgather by doubling, in the reverse order: our range goes straight into the
         * partner's dest. */
        for (int e = levels - 1; e >= 0; e--) {
            int q = fold_member(&f, f.vme ^ (1 << e));
            coll_put_signal(c, q, dest, (off + cur.lo) * es, acc + cur.lo * es,
                            (cur.hi - cur.lo) * es, SLOT_ROUND_DATA(e));
            coll_wait(c, SLOT_ROUND_DATA(e), 1);
            cur = held[e];
        }
        if (f.partner >= 0)
            fold_result(c, &f, dest, off * es, len * es);
    }
}

/* ------------------------------------------------------------------ entry */

int coll_reduce_staged_pays(const coll_t *c, size_t nbytes)
{
    return c->direct && c->n > 1 &&
           coll_algo_reduce(c, nbytes, nbytes <= c->work_bytes) == COLL_REDUCE_SHMRS;
}

int coll_reduce_src_local(const coll_t *c, size_t nbytes)
{
    const int algo = coll_algo_reduce(c, nbytes, nbytes <= c->work_bytes);
    return c->n > 1 && (algo == COLL_REDUCE_RSAG || algo == COLL_REDUCE_RD);
}

void coll_reduce(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                 const coll_op_t *op)
{
    const size_t nbytes = count * op->esize;
    if (count == 0)
        return;
    if (c->n == 1) {
        if (dest->addr != src->addr)
            memmove(dest->addr, src->addr, nbytes);
        return;
    }
    switch (coll_algo_reduce(c, nbytes, nbytes <= c->work_bytes)) {
    case COLL_REDUCE_STAMP:
        reduce_stamp(c, dest, src, count, op);
        break;
    case COLL_REDUCE_SHM:
        reduce_shm(c, dest, src, count, op);
        break;
    case COLL_REDUCE_SHMRS:
        reduce_shmrs(c, dest, src, count, op);
        break;
    case COLL_REDUCE_RSAG:
        c->land_bytes = coll_landing(c, &c->land);
        reduce_rsag(c, dest, src, count, op);
        break;
    case COLL_REDUCE_HIER:
        c->land_bytes = coll_landing(c, &c->land);
        coll_hier_reduce(c, dest, src, count, op);
        break;
    default:
        c->land_bytes = coll_landing(c, &c->land);
        reduce_rd(c, dest, src, count, op);
        break;
    }
    coll_done(c);
}
