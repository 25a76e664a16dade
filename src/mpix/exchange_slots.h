/*
 * exchange_slots.h: what the exchange's parts share (exchange.c runs it, tree.c a scatter down
 * a tree and a gather up it, allgather_bruck.c and alltoall_bruck.c small allgathers and
 * alltoalls in log2(n) steps, exchange_blocks.c the blocks they have in common): the layout of a
 * member's work space, the headers, and the state of one exchange. Private to src/mpix.
 */
#ifndef SSHMEM_MPIX_EXCHANGE_SLOTS_H
#define SSHMEM_MPIX_EXCHANGE_SLOTS_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coll/algo.h"
#include "coll/engine.h"
#include "coll/slots.h"
#include "datatype/datatype.h"
#include "mpix/sides.h"

/* Invitations, and the headers (with eager data) of pairs that do not stamp, arrive on one flag:
 * a PE waits once for what it receives and the invitations for what it sends. */

#define SLOT_MIN 64   /* the smallest slot: invitation, header, a little data */
#define SLOT_MAX ((size_t)(64u << 10) + SLOT_MIN) /* the largest: eager up to 64 KiB */
#define INVITE_AT 0   /* where the invitation lies in a slot */
#define HEADER_AT 16  /* where the header lies */
#define DATA_AT 32    /* where eager data starts: right after the header */

/* The count first: one polling for the call number on shared memory finds it sooner second. */
typedef struct header {
    uint64_t count; /* elements, | HEADER_LARGE when the block follows by rendezvous */
    uint64_t seq;   /* coll_stamp: tells this call's header from an older one */
} header_t;
#define HEADER_LARGE (UINT64_C(1) << 63) /* counts are checked to be <= PTRDIFF_MAX */

_Static_assert(DATA_AT - HEADER_AT == sizeof(header_t), "eager data follows its header");

typedef struct invitation {
    uint64_t region;
    uint64_t off; /* of the block's origin in that region */
} invitation_t;

typedef struct xchg {
    coll_t c;
    const mpix_side_t *send, *recv;
    shmemx_datatype_t type;
    ptrdiff_t ext;
    int contig;
    coll_buf_t dest;   /* the receive side's origin, when this PE receives */
    size_t slot_bytes; /* the work space's room per distance */
    int flags_only;    /* every header travels with a signal, none with a stamp: a scatter
                        * that may go down the tree (xchg_tree_pattern), or an exchange in
                        * the team's steps */
} xchg_t;

/* Whether the header between this PE and member announces itself by its stamp (the pair stamps,
 * and this exchange does not signal every header); the same answer at both ends. */
static inline int xchg_stamps_to(const xchg_t *x, int member)
{
    return !x->flags_only && coll_stamps_to(&x->c, member);
}

/* ------------------------------------------------------------------ moving elements */

static inline void xchg_pack(const xchg_t *x, void *out, const char *origin, size_t count)
{
    if (x->contig)
        memcpy(out, origin + x->type->true_lb, count * x->type->size);
    else
        mpix_pack_elems(origin, count, x->type, out);
}

static inline void xchg_unpack(const xchg_t *x, char *origin, const void *in, size_t count)
{
    if (x->contig)
        memcpy(origin + x->type->true_lb, in, count * x->type->size);
    else
        mpix_unpack_elems(in, count, x->type, origin);
}

/* ------------------------------------------------------------------ slots */

/* The receiver at distance d (0 < d < n) and the sender: me + d and me - d, wrapped without
 * a division (this runs several times per peer in every call). */
static inline int to_member(const coll_t *c, int d)
{
    return c->me + d < c->n ? c->me + d : c->me + d - c->n;
}
static inline int from_member(const coll_t *c, int d)
{
    return c->me >= d ? c->me - d : c->me - d + c->n;
}

static inline size_t slot_at(const xchg_t *x, int d) { return (size_t)(d - 1) * x->slot_bytes; }

/* Whether count elements go by rendezvous (large) rather than through the slot. */
static inline int is_large(const xchg_t *x, size_t count)
{
    size_t bytes;
    if (__builtin_mul_overflow(count, x->type->size, &bytes))
        return 1; /* more than memory holds: the put will tell */
    return coll_algo_exchange(bytes, x->slot_bytes - DATA_AT) == COLL_EXCHANGE_RENDEZVOUS;
}

/* The origin of this PE's block for member j, and of member i's block in this PE's dest. */
static inline const char *xchg_send_origin(const xchg_t *x, int j)
{
    return x->send->origin + (ptrdiff_t)mpix_side_displ(x->send, j) * x->ext;
}
static inline char *xchg_recv_origin(const xchg_t *x, int i)
{
    return (char *)x->recv->origin + (ptrdiff_t)mpix_side_displ(x->recv, i) * x->ext;
}
/* Where member i's block goes in this PE's dest (its first byte of data). */
static inline char *xchg_block_at(const xchg_t *x, int i)
{
    return xchg_recv_origin(x, i) + x->type->true_lb;
}

/* The invitation this PE, receiving, sends member i: where i's block goes in its dest. */
static inline invitation_t xchg_invitation(const xchg_t *x, int i)
{
    const size_t displ = mpix_side_displ(x->recv, i);
    return (invitation_t){(uint64_t)x->dest.region,
                          x->dest.off + (size_t)((ptrdiff_t)displ * x->ext)};
}

/* ------------------------------------------------------------------ Bruck's steps */

/* In the team's steps (allgather_bruck.c, alltoall_bruck.c); "fits": whether they apply (every PE
 * decides alike). An allgather whose blocks all fit, on members not all on shared memory. */
int xchg_allgather_bruck_fits(const xchg_t *x);
void xchg_allgather_bruck(xchg_t *x);
/* An alltoall on members not all on shared memory, large blocks beside the steps. */
int xchg_alltoall_bruck_fits(const xchg_t *x);
void xchg_alltoall_bruck(xchg_t *x);

/* ------------------------------------------------------------------ tree scatter, gather */

/* Whether this exchange is a scatter that the root may send down the tree: then every member
 * waits for its header by a signal (flags_only), whichever way it comes; alike on every PE. */
int xchg_tree_pattern(const xchg_t *x);
/* A scatter that may go down the tree, before anything is sent: every member has entered the
 * call once the root returns from this (arrivals up the tree: one signal per member). */
void xchg_tree_arrivals(xchg_t *x);
/* As the root: if this scatter goes down the tree, every member's block down it (returns 1). */
int xchg_tree_send(xchg_t *x);
/* As a scatter's member at distance d from the root, its block taken from header h: if the
 * root's message says this PE heads a subtree, pass the rest on. */
void xchg_tree_pass_on(xchg_t *x, int d, const header_t *h);
/* Whether this exchange is a gather that goes up the tree (the same answer on every PE). */
int xchg_tree_gathers(const xchg_t *x);
/* A gather up the tree, after the root's invitations for large blocks: the root takes every block
 * not large; a member sends its own and its subtree's up, and returns whether its own is large
 * (then it follows by invitation, exchange.c's send_large). */
int xchg_tree_gather(xchg_t *x);

#endif
