/*
 * scatter_tree.c: a scatter down a binomial tree (exchange_slots.h has the slots it uses).
 *
 * Where every member is reached by messages (tcp), a scatter's root pays for each one in its
 * own CPU time (the kernel's send path, and on one host the receive path too): one message
 * per member makes it the bottleneck. So a root whose blocks are all small sends them down a
 * binomial tree instead: log2(n) messages of its own, each subtree's head passing on the
 * blocks of its subtree.
 *
 * The members learn it from the message itself: the 16 bytes before the header (where the
 * invitation lies, unused in a scatter's receiver) say the call number and the subtree's
 * size. They cannot be mistaken for a stale invitation, whose second word is an offset below
 * 2^48. Every member finds its block where it always does (its slot's header), and nothing
 * changes for a member that is not told. The message to the head q of a subtree of s members:
 *   tree_info_t {call number, TREE_MAGIC | s}, header_t {count of q, call number},
 *   q's packed data, the counts of q+1 .. q+s-1 (uint64_t each), their packed data.
 * It lands at q's slot and may run on into the slots after it, which nothing else writes in
 * a scatter. It fits: each block fits a slot with TREE_SLOT_EXTRA bytes to spare, and the
 * slots from q's to the last are n - q >= s.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll/engine.h"
#include "coll/slots.h"
#include "core/error.h"
#include "mpix/exchange_slots.h"

#define TREE_MIN_MEMBERS 4 /* at 3 the root sends 2 messages either way */
/* Where puts are one-sided a message costs the root little CPU time and every level of the
 * tree is a hop: the root sends down the tree only where its 2 (n - 1) UCX messages (data,
 * signal) would exceed 2 ceil(log2 n) + 4, from 7 members. */
#define TREE_MIN_ONE_SIDED 7
#define TREE_MAGIC (UINT64_C(0x7ee5) << 48)
#define TREE_SLOT_EXTRA (sizeof(tree_info_t) + sizeof(header_t) + sizeof(uint64_t))

typedef struct tree_info {
    uint64_t seq;  /* coll_stamp */
    uint64_t size; /* TREE_MAGIC | members in the subtree, its head included */
} tree_info_t;
_Static_assert(HEADER_AT - INVITE_AT == sizeof(tree_info_t), "tree info precedes the header");

/* The members below a subtree's head, as they travel: counts then packed data. */
typedef struct subtree {
    int head;              /* distance of the head from the root */
    int size;              /* members, the head included */
    const uint64_t *counts; /* counts[k]: member head + 1 + k (unaligned: read by memcpy) */
    const char *data;      /* their packed data, in order */
} subtree_t;

static uint64_t subtree_count(const subtree_t *t, int k)
{
    uint64_t v;
    memcpy(&v, (const char *)t->counts + (size_t)k * sizeof v, sizeof v);
    return v;
}

int xchg_tree_pattern(const xchg_t *x)
{
    const coll_t *c = &x->c;
    const mpix_side_t *s = x->send, *r = x->recv;
    const int root = s->peer == MPIX_X_ALL && r->peer == c->me;
    const int member = s->peer == MPIX_X_NONE && r->peer >= 0 && r->peer != c->me;
    return !c->direct && c->n >= TREE_MIN_MEMBERS && (root || member);
}

/* The scatter's root: this PE (it sends to all), or the one it receives from. */
static int scatter_root(const xchg_t *x)
{
    return x->send->peer == MPIX_X_ALL ? x->c.me : x->recv->peer;
}

/* Arrivals go up the binomial tree over distances from the root: distance d reports to
 * d without its lowest set bit, once every distance d + b (b a power of two below that bit,
 * d + b < n) has reported to it. */
void xchg_tree_arrivals(xchg_t *x)
{
    coll_t *c = &x->c;
    const int root = scatter_root(x), n = c->n;
    const int d = c->me >= root ? c->me - root : c->me - root + n;
    int below = 0;
    for (int b = 1; b < n && !(d & b); b <<= 1)
        below += d + b < n;
    if (below)
        coll_wait(c, SLOT_XCHG_TREE_ARRIVED, below);
    if (d == 0)
        return;
    const int up = root + (d & (d - 1));
    const int parent = up < n ? up : up - n;
    coll_reach(c, parent);
    coll_signal(c, parent, SLOT_XCHG_TREE_ARRIVED);
}

/* As the root: whether this scatter goes down the tree. */
static int tree_root(const xchg_t *x)
{
    const coll_t *c = &x->c;
    if (!xchg_tree_pattern(x) || x->send->peer != MPIX_X_ALL || x->slot_bytes < TREE_SLOT_EXTRA ||
        (!coll_team_messages(c->team) && c->n < TREE_MIN_ONE_SIDED))
        return 0;
    for (int d = 1; d < c->n; d++) {
        const int j = to_member(c, d);
        size_t bytes, count = mpix_side_count(x->send, j);
        if (__builtin_mul_overflow(count, x->type->size, &bytes) ||
            bytes > x->slot_bytes - TREE_SLOT_EXTRA || is_large(x, count))
            return 0;
    }
    return 1;
}

/* need bytes of scratch (the blocks of a subtree, which grow with the team). */
static char *scratch(size_t need, const coll_t *c)
{
    char *p = malloc(need);
    if (SSHMEM_UNLIKELY(!p))
        sshmem_fatal(c->call, "out of memory for a scatter's tree (%zu bytes)", need);
    return p;
}

/* The bytes of t's counts and data after its head's block. */
static size_t subtree_bytes(const xchg_t *x, const subtree_t *t)
{
    size_t bytes = (size_t)(t->size - 1) * sizeof(uint64_t);
    for (int k = 0; k < t->size - 1; k++)
        bytes += subtree_count(t, k) * x->type->size;
    return bytes;
}

/* To each child of the head of t (in root's tree; t has t->size members), the largest
 * subtree first: that subtree's message. */
static void tree_send_children(xchg_t *x, int root, const subtree_t *t)
{
    coll_t *c = &x->c;
    const size_t esize = x->type->size;
    char *const buf = scratch(TREE_SLOT_EXTRA + subtree_bytes(x, t), c);
    for (int s = t->size; s > 1;) {
        /* the head keeps members head .. head + keep - 1 of the range, the child heads the
         * others; member head + m is counts[m - 1] */
        const int keep = (s + 1) / 2, kids = s - keep;
        size_t skip = 0, len = 0;
        for (int k = 0; k < keep - 1; k++)
            skip += subtree_count(t, k) * esize;
        for (int k = keep - 1; k < keep - 1 + kids; k++)
            len += subtree_count(t, k) * esize;
        const uint64_t own = subtree_count(t, keep - 1), seq = coll_stamp(c);
        const size_t own_bytes = own * esize;
        tree_info_t info = {seq, TREE_MAGIC | (uint64_t)kids};
        header_t h = {own, seq};
        char *p = buf;
        memcpy(p, &info, sizeof info);
        memcpy(p += sizeof info, &h, sizeof h);
        memcpy(p += sizeof h, t->data + skip, own_bytes);
        memcpy(p += own_bytes, (const char *)t->counts + (size_t)keep * sizeof(uint64_t),
               (size_t)(kids - 1) * sizeof(uint64_t));
        memcpy(p += (size_t)(kids - 1) * sizeof(uint64_t), t->data + skip + own_bytes,
               len - own_bytes);
        p += len - own_bytes;
        const int d = t->head + keep;
        const int j = root + d < c->n ? root + d : root + d - c->n;
        coll_reach(c, j);
        coll_put_signal(c, j, &c->work, slot_at(x, d) + INVITE_AT, buf, (size_t)(p - buf),
                        SLOT_XCHG_IN);
        s = keep;
    }
    free(buf);
}

/* As the root of a tree scatter: every member's count and packed block, laid out as the
 * whole team's subtree, and down the tree with them. */
int xchg_tree_send(xchg_t *x)
{
    coll_t *c = &x->c;
    if (!tree_root(x))
        return 0;
    size_t need = (size_t)(c->n - 1) * sizeof(uint64_t);
    for (int d = 1; d < c->n; d++)
        need += mpix_side_count(x->send, to_member(c, d)) * x->type->size;
    char *const buf = scratch(need, c);
    char *data = buf + (size_t)(c->n - 1) * sizeof(uint64_t);
    size_t at = 0;
    for (int d = 1; d < c->n; d++) {
        const int j = to_member(c, d);
        const uint64_t count = mpix_side_count(x->send, j);
        memcpy(buf + (size_t)(d - 1) * sizeof count, &count, sizeof count);
        xchg_pack(x, data + at, xchg_send_origin(x, j), count);
        at += count * x->type->size;
    }
    const subtree_t t = {0, c->n, (const uint64_t *)buf, data};
    tree_send_children(x, c->me, &t);
    free(buf);
    return 1;
}

/* As a scatter's member at distance d from the root (its block comes as a message from the
 * root), with its block taken from header h: if the message says this PE heads a subtree,
 * pass the rest on. */
void xchg_tree_pass_on(xchg_t *x, int d, const header_t *h)
{
    const coll_t *c = &x->c;
    if (!xchg_tree_pattern(x) || x->send->peer != MPIX_X_NONE ||
        x->recv->peer != from_member(c, d))
        return;
    const size_t count = x->recv->count;
    const tree_info_t *info = (const tree_info_t *)((const char *)h - sizeof *info);
    const uint64_t low = (UINT64_C(1) << 48) - 1;
    if (info->seq != coll_stamp(c) || (info->size & ~low) != TREE_MAGIC)
        return;
    const uint64_t size = info->size & low;
    if (SSHMEM_UNLIKELY(size > (uint64_t)(c->n - d)))
        sshmem_fatal(c->call, "internal error: a scatter's tree message names %llu members "
                     "from distance %d of %d", (unsigned long long)size, d, c->n);
    const char *counts = (const char *)(h + 1) + count * x->type->size;
    const subtree_t t = {d, (int)size, (const uint64_t *)counts,
                         counts + (size_t)(size - 1) * sizeof(uint64_t)};
    tree_send_children(x, from_member(c, d), &t);
}
