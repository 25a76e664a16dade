/*
 * exchange.c: typed blocks from senders to receivers on the collective engine (exchange.h has
 * the protocol).
 *
 * Work space layout: the peers at distance d = 1 .. n-1 (sender i = me - d writes to me,
 * receiver j = me + d is written by me) each own one slot of every member's work space (the
 * call's sync area, or the team's steps when the area has fewer slots than distances):
 *   bytes  0..15  invitation from the receiver at distance d: where a large block goes
 *   bytes 16..31  header from the sender at distance d: {count, large, call number}
 *   bytes 32..    eager data from the sender at distance d
 * The two writers of a slot are different PEs and write different bytes (header and data are
 * adjacent, so through UCX they travel as one put).
 *
 * A header is stamped where the pair stamps (coll_stamps_to; engine.h, stamps). There a block of
 * up to 16 bytes between members at most SSHMEM_TEAM_POST_DISTANCES apart goes, header and all,
 * into the receiver's post box for this call instead (team/team.h, "Posts"), where consecutive
 * calls share cache lines. Where UCX emulates puts (tcp), header and data travel with a signal
 * as one message (coll_put_signal), held by a receiver not yet in the call (coll/engine.h,
 * "Early return").
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/engine.h"
#include "coll/slots.h"
#include "core/error.h"
#include "core/sshmem.h"
#include "mpix/coll.h"
#include "datatype/datatype.h"
#include "mpix/exchange.h"
#include "mpix/exchange_blocks.h"
#include "mpix/exchange_slots.h"

/* Whether this PE and member `partner`, d apart, have a post box (see the top): where they stamp,
 * as both ends agree. And whether count elements go in it: the sender decides by its count; the
 * receiver watches box and slot, so a sender whose count differs is found out either way. */
static int post_pair(const xchg_t *x, int d, int partner)
{
    return d <= SSHMEM_TEAM_POST_DISTANCES && xchg_stamps_to(x, partner);
}
static int by_post(const xchg_t *x, int d, int partner, size_t count)
{
    size_t bytes;
    return post_pair(x, d, partner) && !__builtin_mul_overflow(count, x->type->size, &bytes) &&
           bytes <= SSHMEM_TEAM_POST_BYTES - sizeof(header_t) && !is_large(x, count);
}

/* As a sender at distance d: the header, and the data if small, into the receiver's post box
 * (by_post), else into its slot; stamped (coll_put_stamped never puts data over the stamp word,
 * which a late data put would set back) or with a signal. */
static void send_header(xchg_t *x, int d)
{
    const int j = to_member(&x->c, d);
    const size_t count = mpix_side_count(x->send, j);
    const char *origin = xchg_send_origin(x, j);
    const int large = is_large(x, count), stamps = xchg_stamps_to(x, j);
    const header_t h = {count | (large ? HEADER_LARGE : 0), coll_stamp(&x->c)};
    const size_t data_len = large ? 0 : count * x->type->size;
    const coll_buf_t *dst = &x->c.work;
    size_t at = slot_at(x, d) + HEADER_AT;
    if (by_post(x, d, j, count))
        dst = &x->c.flags, at = coll_post_at(&x->c, d);
    coll_reach(&x->c, j);
    char *mapped = sshmem_peer(coll_pe(&x->c, j))->direct[dst->region];
    if (stamps && mapped) {
        header_t *there = (header_t *)(mapped + dst->off + at);
        if (data_len)
            xchg_pack(x, there + 1, origin, count);
        there->count = h.count;
        coll_put_stamp(&there->seq, h.seq);
        return;
    }
    /* Reusable on return. A slot in the team's steps may outgrow the sync area's work space:
     * then the message is built on the heap. */
    char small[SSHMEM_TEAM_WORK_BYTES];
    const header_t wire = {h.count, stamps ? 0 : h.seq};
    char *buf = sizeof wire + data_len <= sizeof small ? small : malloc(sizeof wire + data_len);
    if (SSHMEM_UNLIKELY(!buf))
        sshmem_fatal(x->c.call, "out of memory for a block of %zu bytes", data_len);
    memcpy(buf, &wire, sizeof wire);
    if (data_len)
        xchg_pack(x, buf + sizeof wire, origin, count);
    if (stamps)
        coll_put_stamped(&x->c, j, dst, at, buf, sizeof wire + data_len,
                         at + offsetof(header_t, seq), h.seq);
    else
        coll_put_signal(&x->c, j, dst, at, buf, sizeof wire + data_len, SLOT_XCHG_IN);
    if (buf != small)
        free(buf);
}

/* Every distance an equal slot of the work space. */
static void set_slots(xchg_t *x)
{
    const size_t slot = x->c.work_bytes / (size_t)(x->c.n - 1);
    x->slot_bytes = (slot < SLOT_MAX ? slot : SLOT_MAX) & ~(size_t)(SLOT_MIN - 1);
}

/* As a receiver at distance d, before any header: invite a sender whose block this PE expects to
 * be large, saying where it goes (and that this PE is inside the call); whether it did. */
static int invite(xchg_t *x, int d)
{
    const mpix_side_t *r = x->recv;
    const int i = from_member(&x->c, d);
    if (!mpix_side_talks(r, i) || !is_large(x, mpix_side_count(r, i)))
        return 0;
    const invitation_t a = xchg_invitation(x, i);
    coll_reach(&x->c, i);
    coll_put_signal(&x->c, i, &x->c.work, slot_at(x, d) + INVITE_AT, &a, sizeof a, SLOT_XCHG_IN);
    return 1;
}

/* As a receiver at distance d: check the header's count against ours (equal counts mean the
 * same choice of path on both sides), and take small data. */
static void take_header(xchg_t *x, int d)
{
    const int i = from_member(&x->c, d);
    const header_t *h = (const header_t *)(x->c.work.addr + slot_at(x, d) + HEADER_AT);
    if (post_pair(x, d, i)) { /* box or slot, as the sender's count chose: checked below */
        const header_t *box = (const header_t *)(x->c.flags.addr + coll_post_at(&x->c, d));
        if (coll_wait_stamps(&x->c, &box->seq, &h->seq, coll_stamp(&x->c)))
            h = box;
    } else if (xchg_stamps_to(x, i)) {
        coll_wait_stamp(&x->c, &h->seq, coll_stamp(&x->c));
    }
    /* Only a sender and receiver that disagree about a count make a stray invitation count
     * as a header (that receiver reports the mistake): wait for the real one meanwhile. */
    while (SSHMEM_UNLIKELY(__atomic_load_n(&h->seq, __ATOMIC_ACQUIRE) != coll_stamp(&x->c)))
        coll_wait(&x->c, SLOT_XCHG_IN, 1);
    xchg_take(x, i, h->count & ~HEADER_LARGE, h->count & HEADER_LARGE ? NULL : h + 1);
    if (x->flags_only) /* a tree scatter's member among others */
        xchg_tree_pass_on(x, d, h);
    /* A header stays as it is (its stamp never matches a later call's): setting it back would
     * make its line travel back and forth once more per call. */
}

/* As a sender at distance d, invited: the large block itself, straight into dest. */
static void send_large(xchg_t *x, int d)
{
    const mpix_side_t *s = x->send;
    const int j = to_member(&x->c, d);
    const invitation_t *a = (const invitation_t *)(x->c.work.addr + slot_at(x, d) + INVITE_AT);
    coll_buf_t tgt = {NULL, (int)a->region, (size_t)a->off};
    xchg_put_block_signal(x, j, &tgt, xchg_send_origin(x, j), mpix_side_count(s, j),
                          SLOT_XCHG_LARGE_IN);
}

/* ------------------------------------------------------------------ the exchange */

/* The receive side must have somewhere to put what it is sent. */
static void check_dest(const xchg_t *x)
{
    const mpix_side_t *r = x->recv;
    if (r->origin || !x->type->size)
        return;
    for (int i = 0; i < x->c.n; i++)
        if (mpix_side_talks(r, i) && mpix_side_count(r, i))
            sshmem_fatal(x->c.call, "dest is NULL but %zu elements of %s from PE %d go there",
                         mpix_side_count(r, i), mpix_type_name(x->type), i);
}

/* Invitations for large blocks and headers (with small blocks) go out, then one wait for both
 * kinds coming in; then the large blocks, and their "done". */
static void run_distances(xchg_t *x)
{
    coll_t *c = &x->c;
    const int end = c->n;
    int flagged = 0, large_in = 0, large_out = 0;
    for (int d = 1; d < end; d++)
        large_in += invite(x, d);
    const int gathers = xchg_tree_gathers(x);
    if (!gathers && !xchg_tree_send(x)) {
        for (int d = 1; d < end; d++) {
            int j = to_member(c, d);
            if (!mpix_side_talks(x->send, j))
                continue;
            send_header(x, d);
            large_out += is_large(x, mpix_side_count(x->send, j));
        }
    }
    xchg_self_block(x); /* while the peers work on theirs */
    if (gathers)
        large_out = xchg_tree_gather(x);
    for (int d = 1; d < end && !gathers; d++) {
        const int i = from_member(c, d);
        flagged += mpix_side_talks(x->recv, i) && !xchg_stamps_to(x, i);
    }
    if (flagged)
        coll_wait(c, SLOT_XCHG_IN, flagged + large_out);
    for (int d = 1; d < end && !gathers; d++)
        if (mpix_side_talks(x->recv, from_member(c, d)))
            take_header(x, d);
    if (!flagged && large_out)
        coll_wait(c, SLOT_XCHG_IN, large_out); /* the invitations only */
    for (int d = 1; d < end && large_out; d++) {
        int j = to_member(c, d);
        if (mpix_side_talks(x->send, j) && is_large(x, mpix_side_count(x->send, j)))
            send_large(x, d);
    }
    if (large_in)
        coll_wait(c, SLOT_XCHG_LARGE_IN, large_in);
}

/* The exchange between distinct members, and how the call ends. */
static void run_exchange(xchg_t *x, int rooted, int early)
{
    coll_t *c = &x->c;
    /* A scatter that may go down the tree and does not return early: the root sends once every
     * member has entered (arrivals up the tree), so nobody leaves before all have entered,
     * without a barrier at the end. */
    const int arrivals = rooted && !early && xchg_tree_pattern(x);
    if (arrivals)
        xchg_tree_arrivals(x);
    run_distances(x);
    if (rooted && !early && !arrivals && c->n > 1)
        coll_barrier(c);
    if ((!rooted || arrivals) && c->n > 1)
        coll_all_entered(c); /* a header came from every member, inside this call, or from
                              * the root once all had entered */
}

void mpix_exchange(shmem_team_t team, const mpix_side_t *send, const mpix_side_t *recv,
                   shmemx_datatype_t type, int rooted, const char *call)
{
    xchg_t x;
    coll_t *c = &x.c;
    /* Announced once the path is chosen: how depends on it. */
    coll_prepare_team(c, sshmem_team_check(team, call), call);
    x.send = send;
    x.recv = recv;
    x.type = type;
    x.ext = mpix_extent(type);
    x.contig = (type->flags & MPIX_CONTIG) != 0;
    /* More members than the sync area has slots: the team's steps (sized by the team) give every
     * distance a slot; what other calls left there could meet a stamp, so headers signal. Where
     * members reach each other by messages (tcp), an allgatherv's or alltoallv's blocks take the
     * steps' larger slots too: a block of up to SLOT_MAX then goes with its header as one message,
     * where an invitation first would be a second message in a row. */
    const int in_steps = (size_t)(c->n - 1) > c->work_bytes / SLOT_MIN ||
                         (!rooted && coll_team_messages(c->team));
    if (in_steps)
        coll_work_in_steps(c);
    x.slot_bytes = 0;
    if (c->n > 1)
        set_slots(&x);
    x.flags_only = in_steps || xchg_tree_pattern(&x);
    x.dest = (coll_buf_t){(char *)recv->origin, 0, 0};
    if (recv->origin && (recv->peer == MPIX_X_ALL || (recv->peer >= 0 && recv->peer != c->me))) {
        x.dest.region = sshmem_region_of(recv->origin, 1, &x.dest.off);
        if (SSHMEM_UNLIKELY(x.dest.region < 0))
            mpix_check_symmetric(recv->origin, call); /* others write into it: an error */
    }
    check_dest(&x);
    enum { LINEAR, ALLGATHER_BRUCK, ALLTOALL_BRUCK } path = LINEAR;
    if (!rooted && c->n >= COLL_BRUCK_MIN && !c->direct) {
        const coll_buf_t work = c->work;
        const size_t work_bytes = c->work_bytes;
        coll_work_in_steps(c); /* the log-step paths' work space */
        path = xchg_allgather_bruck_fits(&x)  ? ALLGATHER_BRUCK
               : xchg_alltoall_bruck_fits(&x) ? ALLTOALL_BRUCK
                                              : LINEAR;
        if (path == LINEAR)
            c->work = work, c->work_bytes = work_bytes;
    }
    /* In the steps, in step: the steps' half of this parity is free (coll_work_in_steps). */
    coll_announce(c, path == LINEAR && !in_steps);
    /* A rooted pattern returns early where mpix/coll.h's MPIX_EARLY_UCX_MAX says. */
    const int early = rooted && c->n > 1 &&
                      (c->direct || c->n <= MPIX_EARLY_UCX_MAX || coll_team_messages(c->team));
    if (early)
        coll_mark_early(c);
    if (c->n == 1)
        xchg_self_block(&x);
    else if (path == ALLGATHER_BRUCK)
        xchg_allgather_bruck(&x);
    else if (path == ALLTOALL_BRUCK)
        xchg_alltoall_bruck(&x);
    else
        run_exchange(&x, rooted, early);
    coll_done(c);
}
