/*
 * collect.c: concatenating every member's block on every member.
 *
 * fcollect (the same block size everywhere; SSHMEM_COLL_FCOLLECT):
 *  - linear: each member writes its block into every other member's dest, then signals it; one
 *    step. On shared memory these are plain copies, every CPU copying at once and reading its
 *    block once for all destinations (multicast_block).
 *  - bruck: ceil(log2 n) steps; in step k a member sends the min(2^k, n - 2^k) blocks it holds,
 *    starting with its own, to member i - 2^k, as one run, and rotates them into member order at
 *    the end (ring_bruck.c);
 *  - hier: the same steps between the nodes' leaders (hier_collect.c).
 * collect (a block size per member): on shared memory the offsets come from a prefix sum of the
 * sizes (recursive doubling, the sizes travelling in the flags themselves), then linear;
 * elsewhere recursive doubling over runs of members (collect_in_groups), which needs none.
 * coll_collect_bruck: bruck and hier, for fcollect's blocks and for blocks of sizes every member
 * knows already (the MPI-style allgatherv's, src/mpix/allgather_bruck.c).
 */
#include <stdint.h>
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/hier.h"
#include "coll/slots.h"
#include "core/copy.h"

/* Whether [a, a+n) and [b, b+n) share a byte. */
static int overlap(const char *a, const char *b, size_t n) { return a < b + n && b < a + n; }

static void own_block(const coll_buf_t *dest, size_t at, const coll_buf_t *src, size_t nbytes)
{
    char *to = dest->addr + at;
    if (to == src->addr)
        return;
    if (overlap(to, src->addr, nbytes))
        memmove(to, src->addr, nbytes);
    else
        sshmem_copy(to, src->addr, nbytes); /* streams when large (core/copy.h) */
}

/* On shared memory, the own block goes to every member's dest (ours too) piece by piece, each
 * piece copied to all while it sits in L1, so the source is read from memory once, not n times.
 * Only below the streaming size (streaming stores bypass the cache and end with a fence, so they
 * go whole, one destination at a time). */
static int multicast_fits(const coll_t *c, const coll_buf_t *dest, size_t at,
                          const coll_buf_t *src, size_t nbytes)
{
    char *to = dest->addr + at;
    return c->direct && nbytes < sshmem_copy_stream_min &&
           (to == src->addr || !overlap(to, src->addr, nbytes));
}

static void multicast_block(coll_t *c, const coll_buf_t *dest, size_t at, const coll_buf_t *src,
                            size_t nbytes)
{
    char *to[SSHMEM_COPY_MULTI_MAX];
    int k = 0;
    for (int d = 0; d < c->n; d++) { /* d = 0: this member's own dest */
        to[k++] = d ? coll_peer(c, dest, coll_rel(c, d), at) : dest->addr + at;
        if (k == SSHMEM_COPY_MULTI_MAX || d == c->n - 1) {
            sshmem_copy_multi(to, k, src->addr, nbytes);
            k = 0;
        }
    }
}

/* Every member writes its block at `at` of every other member's dest; wait for all. */
static void all_write_all(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t at,
                          size_t nbytes)
{
    c->stream = c->direct && sshmem_copy_streams_together((size_t)(c->n - 1) * nbytes, c->n);
    if (!c->stream && multicast_fits(c, dest, at, src, nbytes)) {
        multicast_block(c, dest, at, src, nbytes);
        for (int d = 1; d < c->n; d++)
            coll_signal(c, coll_rel(c, d), SLOT_COLLECT_BLOCK);
    } else {
        for (int d = 1; d < c->n; d++) {
            int j = coll_rel(c, d);
            coll_put_signal(c, j, dest, at, src->addr, nbytes, SLOT_COLLECT_BLOCK);
        }
        own_block(dest, at, src, nbytes);
    }
    c->stream = 0;
    coll_wait(c, SLOT_COLLECT_BLOCK, c->n - 1);
}

void coll_collect_bruck(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                        const size_t *offs, size_t nbytes, int hier)
{
    if (hier) {
        coll_hier_collect(c, dest, src, offs, nbytes);
        return;
    }
    const coll_ring_t r = {c->n, c->me, NULL, offs, nbytes};
    const size_t at = coll_block_at(offs, nbytes, c->me);
    own_block(dest, 0, src, coll_block_at(offs, nbytes, c->me + 1) - at); /* first */
    coll_ring_bruck(c, &r, dest, SLOT_COLLECT_STEP(0));
}

void coll_fcollect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes)
{
    if (c->n == 1) {
        own_block(dest, 0, src, nbytes);
        return;
    }
    const enum coll_fcollect_algo algo = coll_algo_fcollect(c);
    if (algo == COLL_FCOLLECT_LINEAR)
        all_write_all(c, dest, src, (size_t)c->me * nbytes, nbytes);
    else
        coll_collect_bruck(c, dest, src, NULL, nbytes, algo == COLL_FCOLLECT_HIER);
    coll_done(c);
}

/* Where this member's block starts: the sum of the sizes before it, by recursive doubling
 * (Hillis-Steele); the messages that wrap around carry nothing useful but keep every member
 * dependent on every other (the engine's reuse rule). */
static size_t collect_offset(coll_t *c, size_t nbytes)
{
    long partial = (long)nbytes;
    for (int e = 0, d = 1; d < c->n; e++, d <<= 1) {
        coll_send_value(c, coll_rel(c, d), SLOT_COLLECT_STEP(e), partial);
        long v = coll_recv_value(c, SLOT_COLLECT_STEP(e));
        if (c->me - d >= 0)
            partial += v;
    }
    return (size_t)partial - nbytes;
}

/* Recursive doubling over runs of members, for sets whose members do not all map each other. The
 * members form a power of two of groups, consecutive pairs first, then single members, so every
 * group, and every aligned block of groups, is a run of consecutive members. A group's second
 * member hands its block to the first; the first members then double their runs, exchanging
 * with group g ^ d in the step with distance d. Nobody knows where its run ends up, so each keeps
 * its run at the start of its dest and the partner's joins it: a run that fits a region of the
 * work space (the team's steps, a region per step: nobody says one is free) lands there with its
 * length in the flag and is copied behind; a larger one sends its length first, learns the
 * partner's from its message, and goes straight behind the partner's run in its dest. The lower
 * group's run goes first (a rotation). At the end every first member holds the whole from 0 and
 * gives its second member all. */
typedef struct collect_groups {
    int count;  /* a power of two */
    int pairs;  /* groups 0 .. pairs-1 are pairs of members, the others single members */
} collect_groups_t;

static collect_groups_t groups_of(int n)
{
    int count = 1;
    while (count * 2 <= n)
        count *= 2;
    return (collect_groups_t){count, n - count};
}

static int group_first(const collect_groups_t *g, int group)
{
    return group < g->pairs ? 2 * group : group + g->pairs;
}

static int group_of(const collect_groups_t *g, int member)
{
    return member < 2 * g->pairs ? member / 2 : member - g->pairs;
}


/* A run's message: its length, and whether it comes by itself (large) or in region r. */
static void send_run(coll_t *c, int to, const char *run, size_t len, size_t region, int r,
                     int slot)
{
    if (len && len <= region)
        coll_put_add(c, to, &c->work, (size_t)r * region, run, len, slot, (long)(len << 1) + 1);
    else
        coll_send_value(c, to, slot, (long)(len << 1 | (len > region)));
}

/* The partner's run after this PE's own (len bytes at the start of dest): from region r, or
 * straight from the partner (data_slot); returns its length. */
static size_t take_run(coll_t *c, long msg, const coll_buf_t *dest, size_t len, size_t region,
                       int r, int data_slot)
{
    const size_t got = (size_t)msg >> 1;
    if (msg & 1)
        coll_wait(c, data_slot, 1);
    else
        memcpy(dest->addr + len, c->work.addr + (size_t)r * region, got);
    return got;
}

static void collect_in_groups(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                              size_t nbytes)
{
    const collect_groups_t g = groups_of(c->n);
    const int mine = group_of(&g, c->me), first = group_first(&g, mine);
    const int paired = mine < g.pairs;
    int rounds = 1; /* the pair's, then the doubling steps */
    for (int d = 1; d < g.count; d <<= 1)
        rounds++;
    if (c->team)
        coll_work_in_steps(c);
    const size_t region = (c->work_bytes / (size_t)rounds) & ~(size_t)63;
    if (paired && c->me != first) { /* the second of a pair: the whole comes back to it */
        send_run(c, first, src->addr, nbytes, region, 0, SLOT_COLLECT_BLOCK);
        if (nbytes > region) {
            /* the first's block */
            const size_t at = (size_t)coll_recv_value(c, SLOT_COLLECT_STEP(0));
            coll_put_signal(c, first, dest, at, src->addr, nbytes, SLOT_COLLECT_PAIR_DATA);
        }
        coll_wait(c, SLOT_COLLECT_BLOCK, 1);
        return;
    }
    own_block(dest, 0, src, nbytes);
    size_t len = nbytes;
    if (paired) {
        const long msg = coll_recv_value(c, SLOT_COLLECT_BLOCK);
        if (msg & 1)
            coll_send_value(c, c->me + 1, SLOT_COLLECT_STEP(0), (long)len);
        len += take_run(c, msg, dest, len, region, 0, SLOT_COLLECT_PAIR_DATA);
    }
    for (int e = 0, d = 1; d < g.count; e++, d <<= 1) {
        const int other = mine ^ d, to = group_first(&g, other);
        send_run(c, to, dest->addr, len, region, e + 1, SLOT_COLLECT_STEP(e));
        const long msg = coll_recv_value(c, SLOT_COLLECT_STEP(e));
        if (len > region) /* behind the partner's run, in its dest */
            coll_put_signal(c, to, dest, (size_t)msg >> 1, dest->addr, len,
                            SLOT_COLLECT_RUN_DATA(e));
        const size_t got = take_run(c, msg, dest, len, region, e + 1, SLOT_COLLECT_RUN_DATA(e));
        if (other < mine)
            coll_rotate(dest->addr, len, got);
        len += got;
    }
    if (paired)
        coll_put_signal(c, c->me + 1, dest, 0, dest->addr, len, SLOT_COLLECT_BLOCK);
}

void coll_collect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes)
{
    if (c->n == 1) {
        own_block(dest, 0, src, nbytes);
        return;
    }
    if (c->direct)
        all_write_all(c, dest, src, collect_offset(c, nbytes), nbytes);
    else
        collect_in_groups(c, dest, src, nbytes);
    coll_done(c);
}
