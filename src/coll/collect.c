/*
 * collect.c: concatenating every member's block on every member.
 *
 * fcollect (the same block size everywhere; SSHMEM_COLL_FCOLLECT):
 *  - linear: each member writes its block into every other member's dest, then signals it;
 *    one step. On shared memory these are plain copies and every CPU copies at once, each
 *    reading its block once for all destinations (multicast_block).
 *  - ring: n - 1 steps; in each, a member passes the block it got last to its right.
 *  - bruck: ceil(log2 n) steps; in step k a member sends the min(2^k, n - 2^k) blocks it
 *    holds, starting with its own, to member i - 2^k (at most two contiguous runs, written
 *    straight to their final place: no rotation afterwards).
 * collect (a block size per member): the offsets come from a prefix sum of the sizes
 * (recursive doubling, the sizes travelling in the flags themselves), then linear.
 * coll_collect_bruck: bruck's steps for blocks of sizes every member knows already (the
 * MPI-style allgatherv's small blocks, src/mpix/allgather_bruck.c).
 */
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/hier.h"
#include "core/copy.h"

#define SLOT_STEP(e) (COLL_SLOT_ALGO + (e)) /* bruck round e; offsets round e */
#define SLOT_BLOCK (COLL_SLOT_ALGO + 20)    /* linear and ring */

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

/* On shared memory, the own block goes to every member's dest (this member's too) piece by
 * piece: each piece is copied to all of them while it sits in the L1 cache, so the source is
 * read from memory once instead of n times. Measured here with 1 MiB blocks, one process: 17%
 * faster than n whole copies to 2 members, 30% to 4 (less when every CPU copies at once and
 * they share the cache's bandwidth). Only below the streaming size (streaming stores
 * bypass the cache and end with a fence, so they go whole, one destination at a time). */
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
            coll_signal(c, coll_rel(c, d), SLOT_BLOCK);
    } else {
        for (int d = 1; d < c->n; d++) {
            int j = coll_rel(c, d);
            coll_put_signal(c, j, dest, at, src->addr, nbytes, SLOT_BLOCK);
        }
        own_block(dest, at, src, nbytes);
    }
    c->stream = 0;
    coll_wait(c, SLOT_BLOCK, c->n - 1);
}

static void fcollect_ring(coll_t *c, const coll_buf_t *dest, size_t nbytes)
{
    const int right = coll_rel(c, 1);
    for (int s = 0; s < c->n - 1; s++) {
        size_t at = (size_t)coll_rel(c, -s) * nbytes; /* own block first, then the last one got */
        coll_put_signal(c, right, dest, at, dest->addr + at, nbytes, SLOT_BLOCK);
        coll_wait(c, SLOT_BLOCK, 1);
    }
}

/* Bruck's step with distance d sends member i's cnt blocks from block i on, wrapping past the
 * last one: one run, or two when they wrap. Each run carries its own signal (one message
 * each where UCX emulates RMA, coll_put_signal), so the receiver waits for that many. */
static int bruck_runs(const coll_t *c, int member, int cnt) { return cnt > c->n - member ? 2 : 1; }

/* Where member i's block lies in dest: offs[i] (blocks back to back in member order, offs[n]
 * the end), or i * nbytes when offs is NULL. */
static size_t block_at(const size_t *offs, size_t nbytes, int i)
{
    return offs ? offs[i] : (size_t)i * nbytes;
}

static void bruck(coll_t *c, const coll_buf_t *dest, const size_t *offs, size_t nbytes)
{
    const int n = c->n, me = c->me;
    for (int e = 0, d = 1; d < n; e++, d <<= 1) {
        int to = coll_rel(c, -d);
        int cnt = d < n - d ? d : n - d;
        int first = cnt < n - me ? cnt : n - me; /* blocks me .. n-1, then 0 .. */
        const size_t at = block_at(offs, nbytes, me);
        coll_reach(c, to);
        coll_put_signal(c, to, dest, at, dest->addr + at,
                        block_at(offs, nbytes, me + first) - at, SLOT_STEP(e));
        if (cnt > first)
            coll_put_signal(c, to, dest, 0, dest->addr,
                            block_at(offs, nbytes, cnt - first), SLOT_STEP(e));
        coll_wait(c, SLOT_STEP(e), bruck_runs(c, coll_rel(c, d), cnt));
    }
}

static void fcollect_bruck(coll_t *c, const coll_buf_t *dest, size_t nbytes)
{
    bruck(c, dest, NULL, nbytes);
}

void coll_collect_bruck(coll_t *c, const coll_buf_t *dest, const size_t *offs)
{
    bruck(c, dest, offs, 0);
}

void coll_fcollect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes)
{
    const size_t at = (size_t)c->me * nbytes;
    if (c->n == 1) {
        own_block(dest, 0, src, nbytes);
        return;
    }
    switch (coll_algo_fcollect(c, nbytes)) {
    case COLL_FCOLLECT_RING:
        own_block(dest, at, src, nbytes);
        fcollect_ring(c, dest, nbytes);
        break;
    case COLL_FCOLLECT_BRUCK:
        own_block(dest, at, src, nbytes);
        fcollect_bruck(c, dest, nbytes);
        break;
    case COLL_FCOLLECT_HIER:
        coll_hier_fcollect(c, dest, src, nbytes);
        break;
    default:
        all_write_all(c, dest, src, at, nbytes);
        break;
    }
    coll_done(c);
}

/* Where this member's block starts: the sum of the sizes of the members before it. Recursive
 * doubling (Hillis-Steele); the messages that wrap around carry nothing useful but keep every
 * member dependent on every other (the engine's reuse rule). */
static size_t collect_offset(coll_t *c, size_t nbytes)
{
    long partial = (long)nbytes;
    for (int e = 0, d = 1; d < c->n; e++, d <<= 1) {
        coll_send_value(c, coll_rel(c, d), SLOT_STEP(e), partial);
        long v = coll_recv_value(c, SLOT_STEP(e));
        if (c->me - d >= 0)
            partial += v;
    }
    return (size_t)partial - nbytes;
}

void coll_collect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes)
{
    if (c->n == 1) {
        own_block(dest, 0, src, nbytes);
        return;
    }
    size_t at = collect_offset(c, nbytes);
    all_write_all(c, dest, src, at, nbytes);
    coll_done(c);
}
