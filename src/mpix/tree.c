/*
 * tree.c: the rooted exchanges over a binomial tree, a scatter down it and a gather up it
 * (exchange_slots.h has the slots they use). Where members are reached by messages (tcp), the
 * root pays CPU time for each message, so one per member makes it the bottleneck; over the tree
 * it sends or receives log2(n), and each subtree's head passes on its subtree's blocks.
 *
 * The tree, over distances from the root: the head of a range of s members keeps the first
 * ceil(s / 2), its child at offset ceil(s / 2) heads the rest, and so on down (tree_node).
 * A subtree's message, head q of s members:
 *   tree_info_t {call number, TREE_MAGIC | s}, header_t {count of q, call number},
 *   q's packed data, the counts of q+1 .. q+s-1 (uint64_t each), their packed data.
 * Where every block fits a slot's eager data, it fits s slots.
 *
 * Scatter: a root whose blocks all fit sends down the tree. A member learns it from the 16 bytes
 * before its header (the invitation's place, unused by a scatter's receiver), which no stale
 * invitation can match (its second word is an offset below 2^48). The message to q lands at q's
 * slot and may run on into the next ones, which nothing else writes in a scatter.
 *
 * Gather: every PE knows the tree, so all take it alike (xchg_tree_gathers). A member waits for
 * its children's messages and sends its block and theirs up as one message, into its parent's
 * slots from the child's offset k (k .. k + s - 1, which its children's subtrees tile). A block
 * too large for a slot goes by invitation straight into the root's dest; only its count
 * (| HEADER_LARGE) goes up, for the root to check. The root's invitation to distance t lands in
 * its slot n - t, past those of its subtree (s <= n - t).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll/engine.h"
#include "coll/slots.h"
#include "core/env.h"
#include "core/error.h"
#include "mpix/exchange_blocks.h"
#include "mpix/exchange_slots.h"

#define TREE_MIN_MEMBERS 4 /* at 3 the root sends 2 messages either way */
/* Where puts are one-sided a message costs the root little CPU and each tree level is a hop:
 * down the tree only where the root's 2 (n - 1) UCX messages exceed 2 ceil(log2 n) + 4. */
#define TREE_MIN_ONE_SIDED 7
/* Up the tree each member waits for its subtree, where a linear gather's return at once: the
 * root's n - 1 receives cost less than log2(n) hops up to about a dozen members over TCP, and
 * where puts are one-sided (no root CPU) up to some hundreds or thousands (bench/project.py). */
#define TREE_MIN_GATHER 16
#define TREE_MIN_GATHER_ONE_SIDED 1024
#define TREE_MAGIC (UINT64_C(0x7ee5) << 48)
#define TREE_SIZE_MASK ((UINT64_C(1) << 48) - 1)

typedef struct tree_info {
    uint64_t seq;  /* coll_stamp */
    uint64_t size; /* TREE_MAGIC | members in the subtree, its head included */
} tree_info_t;
_Static_assert(HEADER_AT - INVITE_AT == sizeof(tree_info_t), "tree info precedes the header");

/* The members below a subtree's head, as they travel: counts then packed data. */
typedef struct subtree {
    int head;               /* distance of the head from the root */
    int size;               /* members, the head included */
    const uint64_t *counts; /* counts[k]: member head + 1 + k (unaligned: read by memcpy) */
    const char *data;       /* their packed data, in order */
} subtree_t;

static uint64_t subtree_count(const subtree_t *t, int k)
{
    uint64_t v;
    memcpy(&v, (const char *)t->counts + (size_t)k * sizeof v, sizeof v);
    return v;
}

/* The bytes of a block in a message: none when it is large (it goes by invitation). */
static size_t block_bytes(const xchg_t *x, uint64_t count)
{
    return count & HEADER_LARGE ? 0 : count * x->type->size;
}

/* The packed data of the members of t after its head. */
static size_t subtree_data_bytes(const xchg_t *x, const subtree_t *t)
{
    size_t bytes = 0;
    for (int k = 0; k < t->size - 1; k++)
        bytes += block_bytes(x, subtree_count(t, k));
    return bytes;
}

/* The subtree of `size` members, headed by distance head, of the message whose header is h. */
static subtree_t tree_parse(const xchg_t *x, const header_t *h, int head, int size)
{
    const char *counts = (const char *)(h + 1) + block_bytes(x, h->count);
    return (subtree_t){head, size, (const uint64_t *)counts,
                       counts + (size_t)(size - 1) * sizeof(uint64_t)};
}

/* The start of a message at buf: the tree info of a subtree of `size` members and its head's
 * header. Returns where the head's data goes. */
static char *tree_head(char *buf, const coll_t *c, int size, uint64_t count)
{
    const uint64_t seq = coll_stamp(c);
    const tree_info_t info = {seq, TREE_MAGIC | (uint64_t)size};
    const header_t h = {count, seq};
    memcpy(buf, &info, sizeof info);
    memcpy(buf + sizeof info, &h, sizeof h);
    return buf + sizeof info + sizeof h;
}

/* The member at distance d from root. */
static int member_at(const coll_t *c, int root, int d)
{
    return root + d < c->n ? root + d : root + d - c->n;
}

/* Whether a tree may pay, the same answer on every PE: on a team not all on shared memory,
 * from `least` members (from TREE_MIN_MEMBERS where SSHMEM_COLL_EXCHANGE=tree). */
static int tree_pays(const coll_t *c, int least)
{
    const int forced = sshmem_env.coll_exchange == COLL_EXCHANGE_TREE;
    return !c->direct && c->n >= (forced ? TREE_MIN_MEMBERS : least);
}

/* Whether `all` talks to every member and `one` to this PE only (the root's sides), or `all` to
 * nobody and `one` to another: a scatter with its send side first, a gather with its receive's. */
static int rooted(const mpix_side_t *all, const mpix_side_t *one, int me)
{
    return (all->peer == MPIX_X_ALL && one->peer == me) ||
           (all->peer == MPIX_X_NONE && one->peer >= 0 && one->peer != me);
}

int xchg_tree_pattern(const xchg_t *x)
{
    return rooted(x->send, x->recv, x->c.me) && tree_pays(&x->c, TREE_MIN_MEMBERS);
}

int xchg_tree_gathers(const xchg_t *x)
{
    const int least =
        coll_team_messages(x->c.team) ? TREE_MIN_GATHER : TREE_MIN_GATHER_ONE_SIDED;
    return rooted(x->recv, x->send, x->c.me) && tree_pays(&x->c, least);
}

/* This PE's node in the tree of root. */
typedef struct tree_node {
    int d;      /* distance from the root */
    int size;   /* members of its subtree, itself included */
    int parent; /* the parent's distance; -1 at the root */
} tree_node_t;

static tree_node_t tree_node(const coll_t *c, int root)
{
    const int d = c->me >= root ? c->me - root : c->me - root + c->n;
    tree_node_t t = {0, c->n, -1};
    while (t.d != d) {
        const int keep = (t.size + 1) / 2;
        if (d < t.d + keep) {
            t.size = keep;
        } else {
            t.parent = t.d;
            t.d += keep;
            t.size -= keep;
        }
    }
    return t;
}

/* This PE's node, once every child has reported up (with its subtree's message, if any). */
static tree_node_t tree_wait_below(coll_t *c, int root)
{
    const tree_node_t t = tree_node(c, root);
    int kids = 0;
    for (int s = t.size; s > 1; s = (s + 1) / 2)
        kids++;
    if (kids)
        coll_wait(c, SLOT_XCHG_TREE_ARRIVED, kids);
    return t;
}

/* The scatter's root: this PE (it sends to all), or the one it receives from. */
static int scatter_root(const xchg_t *x)
{
    return x->send->peer == MPIX_X_ALL ? x->c.me : x->recv->peer;
}

/* Arrivals go up the tree: a member reports to its parent once its children have. */
void xchg_tree_arrivals(xchg_t *x)
{
    coll_t *c = &x->c;
    const int root = scatter_root(x);
    const tree_node_t t = tree_wait_below(c, root);
    if (t.parent < 0)
        return;
    const int parent = member_at(c, root, t.parent);
    coll_reach(c, parent);
    coll_signal(c, parent, SLOT_XCHG_TREE_ARRIVED);
}

/* As the root: whether this scatter goes down the tree. */
static int tree_root(const xchg_t *x)
{
    const coll_t *c = &x->c;
    if (!xchg_tree_pattern(x) || x->send->peer != MPIX_X_ALL ||
        !tree_pays(c, coll_team_messages(c->team) ? TREE_MIN_MEMBERS : TREE_MIN_ONE_SIDED))
        return 0;
    for (int d = 1; d < c->n; d++)
        if (is_large(x, mpix_side_count(x->send, to_member(c, d))))
            return 0;
    return 1;
}

/* need bytes of scratch (the blocks of a subtree, which grow with the team). */
static char *scratch(size_t need, const coll_t *c)
{
    char *p = malloc(need);
    if (SSHMEM_UNLIKELY(!p))
        sshmem_fatal(c->call, "out of memory for a tree's blocks (%zu bytes)", need);
    return p;
}

/* To each child of the head of t (in root's tree; t has t->size members), largest subtree first:
 * that subtree's message. */
static void tree_send_children(xchg_t *x, int root, const subtree_t *t)
{
    coll_t *c = &x->c;
    const size_t esize = x->type->size;
    char *const buf = scratch((size_t)t->size * x->slot_bytes, c); /* fits (the top) */
    for (int s = t->size; s > 1;) {
        /* the head keeps members head .. head + keep - 1 of the range, the child heads the
         * others; member head + m is counts[m - 1] */
        const int keep = (s + 1) / 2, kids = s - keep;
        size_t skip = 0, len = 0;
        for (int k = 0; k < keep - 1; k++)
            skip += subtree_count(t, k) * esize;
        for (int k = keep - 1; k < keep - 1 + kids; k++)
            len += subtree_count(t, k) * esize;
        const uint64_t own = subtree_count(t, keep - 1);
        const size_t own_bytes = own * esize;
        char *p = tree_head(buf, c, kids, own);
        memcpy(p, t->data + skip, own_bytes);
        memcpy(p += own_bytes, (const char *)t->counts + (size_t)keep * sizeof(uint64_t),
               (size_t)(kids - 1) * sizeof(uint64_t));
        memcpy(p += (size_t)(kids - 1) * sizeof(uint64_t), t->data + skip + own_bytes,
               len - own_bytes);
        p += len - own_bytes;
        const int d = t->head + keep, j = member_at(c, root, d);
        coll_reach(c, j);
        coll_put_signal(c, j, &c->work, slot_at(x, d) + INVITE_AT, buf, (size_t)(p - buf),
                        SLOT_XCHG_IN);
        s = keep;
    }
    free(buf);
}

/* As the root of a tree scatter: every member's count and packed block, laid out as the whole
 * team's subtree, and down the tree with them. */
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

/* As a scatter's member at distance d from the root (exchange_slots.h): pass the rest on if the
 * root's message says this PE heads a subtree. */
void xchg_tree_pass_on(xchg_t *x, int d, const header_t *h)
{
    const coll_t *c = &x->c;
    if (!xchg_tree_pattern(x) || x->send->peer != MPIX_X_NONE ||
        x->recv->peer != from_member(c, d))
        return;
    const tree_info_t *info = (const tree_info_t *)((const char *)h - sizeof *info);
    if (info->seq != coll_stamp(c) || (info->size & ~TREE_SIZE_MASK) != TREE_MAGIC)
        return;
    const uint64_t size = info->size & TREE_SIZE_MASK;
    if (SSHMEM_UNLIKELY(size > (uint64_t)(c->n - d)))
        sshmem_fatal(c->call, "internal error: a scatter's tree message names %llu members "
                     "from distance %d of %d", (unsigned long long)size, d, c->n);
    const subtree_t t = tree_parse(x, h, d, (int)size);
    tree_send_children(x, from_member(c, d), &t);
}

/* ------------------------------------------------------------------ the tree gather */

/* The header of the message from this PE's child at offset k (in its work space). */
static const header_t *child_header(const xchg_t *x, int k)
{
    return (const header_t *)(x->c.work.addr + slot_at(x, k) + HEADER_AT);
}

/* As a gather's member at node t of root's tree: its own block (its count alone when large)
 * and its children's subtrees in order, in one message up to its parent. */
static void gather_up(xchg_t *x, int root, const tree_node_t *t)
{
    coll_t *c = &x->c;
    const uint64_t count = mpix_side_count(x->send, root);
    const uint64_t sent = count | (is_large(x, count) ? HEADER_LARGE : 0);
    char *const buf = scratch((size_t)t->size * x->slot_bytes, c);
    char *counts = tree_head(buf, c, t->size, sent);
    if (!(sent & HEADER_LARGE))
        xchg_pack(x, counts, xchg_send_origin(x, root), count);
    counts += block_bytes(x, sent);
    char *data = counts + (size_t)(t->size - 1) * sizeof(uint64_t);
    int kid[32], kids = 0; /* the children's offsets, the nearest last */
    for (int s = t->size; s > 1; s = (s + 1) / 2)
        kid[kids++] = (s + 1) / 2;
    while (kids--) {
        const int k = kid[kids], size = (kids ? kid[kids - 1] : t->size) - k;
        const header_t *h = child_header(x, k);
        const subtree_t s = tree_parse(x, h, t->d + k, size);
        const size_t head = block_bytes(x, h->count), rest = subtree_data_bytes(x, &s);
        memcpy(counts, &h->count, sizeof h->count);
        memcpy(counts + sizeof h->count, s.counts, (size_t)(size - 1) * sizeof(uint64_t));
        counts += (size_t)size * sizeof(uint64_t);
        memcpy(data, h + 1, head);
        memcpy(data + head, s.data, rest);
        data += head + rest;
    }
    const int parent = member_at(c, root, t->parent);
    coll_reach(c, parent);
    coll_put_signal(c, parent, &c->work, slot_at(x, t->d - t->parent) + INVITE_AT, buf,
                    (size_t)(data - buf), SLOT_XCHG_TREE_ARRIVED);
    free(buf);
}

/* As the gather's root: the block (or the count of a large one) of member d. */
static void take_block(xchg_t *x, int d, uint64_t count, const char *data)
{
    xchg_take(x, member_at(&x->c, x->c.me, d), count & ~HEADER_LARGE,
              count & HEADER_LARGE ? NULL : data);
}

/* As the gather's root: every member's block from its children's messages. */
static void gather_take(xchg_t *x, const tree_node_t *t)
{
    for (int s = t->size, k; s > 1; s = k) {
        k = (s + 1) / 2;
        const header_t *h = child_header(x, k);
        const subtree_t sub = tree_parse(x, h, k, s - k);
        take_block(x, k, h->count, (const char *)(h + 1));
        const char *data = sub.data;
        for (int m = 0; m < sub.size - 1; m++) {
            const uint64_t v = subtree_count(&sub, m);
            take_block(x, k + 1 + m, v, data);
            data += block_bytes(x, v);
        }
    }
}

int xchg_tree_gather(xchg_t *x)
{
    const int root = x->send->peer;
    const tree_node_t t = tree_wait_below(&x->c, root);
    if (t.parent < 0) {
        gather_take(x, &t);
        return 0;
    }
    gather_up(x, root, &t);
    return is_large(x, mpix_side_count(x->send, root));
}
