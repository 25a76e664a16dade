/*
 * alltoall_bruck.c: small alltoallv / alltoall blocks in ceil(log2 n) steps where the members
 * all reach each other by messages (exchange_slots.h has what it shares with exchange.c).
 *
 * The exchange sends a block to every member: n - 1 messages per PE, and over TCP each costs
 * its sender and (on one host) its receiver kernel time. Here the blocks take the engine's
 * Bruck steps (coll_alltoall_bruck in src/coll/alltoall.c, shmem_alltoallmem's too), each
 * packed behind a header (its count and the call number), so every PE can check every count
 * against its own recvcounts.
 *
 * A PE knows its own counts only, so the choice of path cannot depend on them: on such a team
 * every alltoall takes the steps. A block too large for them goes as in the exchange: its
 * header still takes the steps (with HEADER_LARGE), the receiver, judging from its recvcount,
 * invites the sender at entry (where the block goes in its dest), and the sender puts it
 * straight there once invited. A sender and receiver that disagree about a count disagree
 * about the path only then, and the receiver reports the mismatch from the header.
 *
 * Work space: the invitation from member i at i * sizeof(invitation_t).
 */
#include <stdint.h>
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/engine.h"
#include "core/error.h"
#include "mpix/coll.h"
#include "mpix/exchange_slots.h"

/* Whether count elements go beside the steps (invited) rather than inside them: when they do
 * not fit, or SSHMEM_COLL_EXCHANGE=rendezvous says so for every block. */
static int beside(const xchg_t *x, size_t count, size_t room)
{
    size_t bytes;
    return __builtin_mul_overflow(count, x->type->size, &bytes) ||
           coll_algo_exchange(bytes, room - sizeof(header_t)) == COLL_EXCHANGE_RENDEZVOUS;
}

typedef struct bruck_call {
    xchg_t *x;
    size_t room; /* the steps' room for one block, header included */
} bruck_call_t;

/* The block for member j: its header, and its data unless it goes beside. */
static size_t write_block(void *ctx, int j, char *to)
{
    const bruck_call_t *b = ctx;
    const xchg_t *x = b->x;
    const size_t count = mpix_side_count(x->send, j);
    const int large = beside(x, count, b->room);
    const header_t h = {count | (large ? HEADER_LARGE : 0), coll_stamp(&x->c)};
    memcpy(to, &h, sizeof h);
    if (large)
        return sizeof h;
    xchg_pack(x, to + sizeof h, x->send->origin + (ptrdiff_t)mpix_side_displ(x->send, j) * x->ext,
              count);
    return sizeof h + count * x->type->size;
}

/* The block from member i: its count checked against ours, the data unpacked. */
static void take_block(void *ctx, int i, const char *from, size_t bytes)
{
    (void)bytes; /* the header's count says as much */
    const bruck_call_t *b = ctx;
    const xchg_t *x = b->x;
    const size_t want = mpix_side_count(x->recv, i);
    header_t h;
    memcpy(&h, from, sizeof h);
    const uint64_t count = h.count & ~HEADER_LARGE;
    if (SSHMEM_UNLIKELY(count != want)) {
        char mine[48], theirs[48];
        mpix_count_mismatch(x->c.call, xchg_count_name(mine, x->recv, i), want, i,
                            xchg_their_name(theirs, x->recv, x->c.me), (long long)count);
    }
    if (!(h.count & HEADER_LARGE))
        xchg_unpack(x, (char *)x->recv->origin + (ptrdiff_t)mpix_side_displ(x->recv, i) * x->ext,
                    from + sizeof h, want);
}

/* As a receiver: invite every sender whose block goes beside; how many. */
static int invite_large(xchg_t *x, size_t room)
{
    coll_t *c = &x->c;
    int invited = 0;
    for (int i = 0; i < c->n; i++) {
        const size_t count = mpix_side_count(x->recv, i);
        if (i == c->me || !beside(x, count, room))
            continue;
        const invitation_t a = xchg_invitation(x, i);
        coll_reach(c, i);
        coll_put_signal(c, i, &c->work, (size_t)c->me * sizeof a, &a, sizeof a, SLOT_IN);
        invited++;
    }
    return invited;
}

/* As a sender, once invited by all of them: the blocks that go beside. */
static void send_large(xchg_t *x, size_t room)
{
    coll_t *c = &x->c;
    int large = 0;
    for (int j = 0; j < c->n; j++)
        large += j != c->me && beside(x, mpix_side_count(x->send, j), room);
    if (!large)
        return;
    coll_wait(c, SLOT_IN, large);
    for (int j = 0; j < c->n; j++) {
        const size_t count = mpix_side_count(x->send, j);
        if (j == c->me || !beside(x, count, room))
            continue;
        const invitation_t *a = (const invitation_t *)(c->work.addr + (size_t)j * sizeof *a);
        const coll_buf_t tgt = {NULL, (int)a->region, (size_t)a->off};
        xchg_put_block_signal(x, j, &tgt,
                              x->send->origin + (ptrdiff_t)mpix_side_displ(x->send, j) * x->ext,
                              count, SLOT_DONE);
    }
}

int xchg_alltoall_bruck(xchg_t *x)
{
    coll_t *c = &x->c;
    if (x->send->peer != MPIX_X_ALL || x->recv->peer != MPIX_X_ALL ||
        (size_t)c->n * sizeof(invitation_t) > c->work_bytes)
        return 0;
    const size_t room = coll_alltoall_bruck_room(c);
    if (room <= sizeof(header_t))
        return 0;
    bruck_call_t b = {x, room};
    const coll_blocks_t blocks = {write_block, take_block, &b};
    const int large_in = invite_large(x, room);
    xchg_self_block(x);
    coll_alltoall_bruck(c, &blocks);
    send_large(x, room);
    if (large_in)
        coll_wait(c, SLOT_DONE, large_in);
    return 1;
}
