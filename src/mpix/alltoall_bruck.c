/*
 * alltoall_bruck.c: small alltoallv / alltoall blocks in ceil(log2 n) steps on every team not
 * all on shared memory (exchange_slots.h has what it shares with exchange.c).
 *
 * The exchange's n - 1 messages per PE (allgather_bruck.c) each cost, over TCP, kernel time at
 * sender and (on one host) receiver. Here the blocks take the engine's Bruck steps
 * (coll_alltoall_bruck in src/coll/alltoall.c, shmem_alltoallmem's too), each as its packed data
 * alone: the steps carry its size, which says its count, so every PE checks every count against
 * its recvcounts without a header (an 8-byte header would double what every step carries).
 *
 * A PE knows its own counts only, so the path cannot depend on them: on such a team every alltoall
 * takes the steps. A block too large for them goes beside them: its count still takes the steps
 * (marked, with HEADER_LARGE), and the block goes as the exchange's do (exchange.h, rendezvous),
 * invited at entry, put after the steps. A sender and receiver that disagree about a count disagree
 * about the path only then, and the receiver reports the mismatch from the count the steps carried.
 *
 * Work space (the team's steps, coll_work_in_steps): the invitation from member i at
 * i * INVITE_BYTES; Bruck's steps run in the rest of it, which steps_view gives them.
 */
#include <stdint.h>
#include <string.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "coll/engine.h"
#include "coll/slots.h"
#include "core/error.h"
#include "mpix/coll.h"
#include "mpix/exchange_blocks.h"
#include "mpix/exchange_slots.h"

/* Whether count elements go beside the steps (invited) rather than inside them: when they do
 * not fit, or SSHMEM_COLL_EXCHANGE=rendezvous says so for every block. */
static int beside(const xchg_t *x, size_t count, size_t room)
{
    size_t bytes;
    return __builtin_mul_overflow(count, x->type->size, &bytes) ||
           coll_algo_exchange(bytes, room) == COLL_EXCHANGE_RENDEZVOUS;
}

typedef struct bruck_call {
    xchg_t *x;
    size_t room; /* the steps' room for one block, its count included */
} bruck_call_t;

/* The block for member j: its packed data alone, whose size says its count; or, marked, its
 * count (| HEADER_LARGE when the data goes beside), where the size cannot say it. */
static size_t write_block(void *ctx, int j, char *to)
{
    const bruck_call_t *b = ctx;
    const xchg_t *x = b->x;
    const size_t count = mpix_side_count(x->send, j);
    const int large = beside(x, count, b->room);
    if (!large && x->type->size) {
        xchg_pack(x, to, xchg_send_origin(x, j), count);
        return count * x->type->size;
    }
    const uint64_t h = count | (large ? HEADER_LARGE : 0);
    memcpy(to, &h, sizeof h);
    return sizeof h | COLL_BLOCK_MARKED;
}

SSHMEM_COLD static void not_whole_elements(const xchg_t *x, int i, size_t bytes)
{
    sshmem_fatal(x->c.call, "PE %d sends this PE %zu bytes, not a whole number of elements of "
                 "this PE's type (%zu bytes each): every PE must pass the same type", i, bytes,
                 x->type->size);
}

/* The block from member i: its count checked against ours, the data unpacked. */
static void take_block(void *ctx, int i, const char *from, size_t bytes)
{
    const bruck_call_t *b = ctx;
    const size_t size = b->x->type->size;
    if (!(bytes & COLL_BLOCK_MARKED)) {
        if (SSHMEM_UNLIKELY(!size || bytes % size)) /* (a type of no bytes sends marked) */
            not_whole_elements(b->x, i, bytes);
        xchg_take(b->x, i, bytes / size, from);
        return;
    }
    uint64_t h;
    memcpy(&h, from, sizeof h);
    xchg_take(b->x, i, h & ~HEADER_LARGE, h & HEADER_LARGE ? NULL : from + sizeof h);
}

/* A receiver's invitation for member i lies at i * INVITE_BYTES of its work space. */
#define INVITE_BYTES sizeof(invitation_t)

/* The work space past the invitations (rounded to a cache line), for Bruck's steps: moved
 * there (apart = 1) or back (apart = -1). Every member moves alike. */
static void steps_view(coll_t *c, int apart)
{
    const size_t skip = ((size_t)c->n * INVITE_BYTES + 63) & ~(size_t)63;
    c->work.addr += apart * (ptrdiff_t)skip;
    c->work.off += apart * (ptrdiff_t)skip;
    c->work_bytes -= apart * (ptrdiff_t)skip;
}

/* The room of a block in Bruck's steps, with the invitations kept apart. */
static size_t steps_room(const coll_t *c)
{
    coll_t view = *c;
    steps_view(&view, 1);
    return coll_alltoall_bruck_room(&view);
}

int xchg_alltoall_bruck_fits(const xchg_t *x)
{
    const coll_t *c = &x->c;
    return !c->direct && x->send->peer == MPIX_X_ALL && x->recv->peer == MPIX_X_ALL &&
           (size_t)c->n * INVITE_BYTES < c->work_bytes && steps_room(c) > sizeof(uint64_t);
}

/* As a receiver: invite every sender whose block goes beside; how many. */
static int invite_large(xchg_t *x, size_t room)
{
    coll_t *c = &x->c;
    int invited = 0;
    for (int i = 0; i < c->n; i++) {
        if (i == c->me || !beside(x, mpix_side_count(x->recv, i), room))
            continue;
        invited++;
        const invitation_t a = xchg_invitation(x, i);
        coll_reach(c, i);
        coll_put_signal(c, i, &c->work, (size_t)c->me * INVITE_BYTES, &a, sizeof a, SLOT_XCHG_IN);
    }
    return invited;
}

/* As a sender: the blocks that go beside, once invited by all of their receivers. */
static void send_large(xchg_t *x, size_t room)
{
    coll_t *c = &x->c;
    int large = 0;
    for (int j = 0; j < c->n; j++)
        large += j != c->me && beside(x, mpix_side_count(x->send, j), room);
    if (!large)
        return;
    coll_wait(c, SLOT_XCHG_IN, large);
    for (int j = 0; j < c->n; j++) {
        const size_t count = mpix_side_count(x->send, j);
        if (j == c->me || !beside(x, count, room))
            continue;
        const invitation_t *a = (const invitation_t *)(c->work.addr + (size_t)j * INVITE_BYTES);
        const coll_buf_t tgt = {NULL, (int)a->region, (size_t)a->off};
        xchg_put_block_signal(x, j, &tgt, xchg_send_origin(x, j), count, SLOT_XCHG_LARGE_IN);
    }
}

void xchg_alltoall_bruck(xchg_t *x)
{
    coll_t *c = &x->c;
    const size_t room = steps_room(c);
    bruck_call_t b = {x, room};
    const coll_blocks_t blocks = {write_block, take_block, &b};
    const int large_in = invite_large(x, room);
    xchg_self_block(x);
    steps_view(c, 1);
    coll_alltoall_bruck(c, &blocks);
    steps_view(c, -1);
    send_large(x, room);
    if (large_in)
        coll_wait(c, SLOT_XCHG_LARGE_IN, large_in);
}
