/*
 * hier_reduce.c: the node-aware reduction to all (hier.h).
 *  1. node: each leader combines the sources of its group (read through shared memory, in
 *     member order) into its dest;
 *  2. leaders: recursive doubling over the groups' partial results, in chunks that land in
 *     the call's work space, a region per round and chunk parity (folding a non-power-of-two
 *     count of groups, as in reduce.c);
 *  3. node: the members copy the result from their leader's dest.
 * Every partial result covers a consecutive run of groups and so of members, and the lower
 * one is always on the left: a non-commutative operator gets x0 op ... op x(n-1), and every
 * PE gets the same bits.
 */
#include <string.h>

#include "coll/hier.h"
#include "coll/slots.h"
#include "core/error.h"

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

/* Recursive doubling among the leaders over acc[0, count), with the same folding of a
 * non-power-of-two number of groups as reduce.c: pairs (2k, 2k+1) of the first 2*(L-p)
 * groups fold into the even one. */
typedef struct lfold {
    int p2, rem, extra, partner, vme;
} lfold_t;

static lfold_t lfold_of(const hier_map_t *m)
{
    lfold_t f;
    const int L = m->nleaders, r = m->my_lrank;
    f.p2 = 1;
    while (f.p2 * 2 <= L)
        f.p2 *= 2;
    f.rem = L - f.p2;
    int paired = r < 2 * f.rem;
    f.extra = paired && (r & 1);
    f.partner = !paired ? -1 : f.extra ? r - 1 : r + 1;
    f.vme = paired ? r / 2 : r - f.rem;
    return f;
}

static int lfold_group(const lfold_t *f, int v) { return v < f->rem ? 2 * v : v + f->rem; }

/* The call's landing for the leaders: the team's steps where a team has them, else its work
 * space (a sync area's, or pWrk): areas in turn, which no leader still uses from the call two
 * back (engine.h, "Reuse rule"). */
static void landing(coll_t *c)
{
    if (c->team && c->team->steps_half > c->work_bytes)
        coll_work_in_steps(c);
}

/* The landing regions: the fold's, then one per round, and where the vector goes in more
 * than one chunk a second set of rounds, the chunks taking turns by parity. A leader sends
 * its chunk k + 1 of round e only once it has its partner's chunk k of round e, which the
 * partner sent after combining its chunk k - 1 of round e, the last one in the same region:
 * nobody says a region is free. (The fold needs no second set: the folded leader sends its
 * next chunk once the result of the last is back.) */
typedef struct rd_land {
    size_t region; /* bytes of one region, whole elements */
    int rounds, sets;
} rd_land_t;

static size_t land_at(const rd_land_t *l, int p, int e)
{
    return (e == l->rounds ? 0 : 1 + (size_t)p * (size_t)l->rounds + (size_t)e) * l->region;
}

static rd_land_t land_of(const coll_t *c, int p2, size_t nbytes, size_t es)
{
    rd_land_t l = {0, 0, 1};
    while ((1 << l.rounds) < p2)
        l.rounds++;
    l.region = c->work_bytes / (size_t)(1 + l.rounds) / es * es;
    if (l.region < nbytes) {
        l.sets = 2;
        l.region = c->work_bytes / (size_t)(1 + 2 * l.rounds) / es * es;
    }
    return l;
}

static void leaders_rd(coll_t *c, const hier_map_t *m, const coll_buf_t *dest, size_t count,
                       const coll_op_t *op)
{
    const lfold_t f = lfold_of(m);
    landing(c);
    const rd_land_t l = land_of(c, f.p2, count * op->esize, op->esize);
    const size_t es = op->esize, cap = l.region / es;
    if (SSHMEM_UNLIKELY(cap == 0))
        sshmem_fatal(c->call, "the work space (%zu bytes) that reductions between nodes go "
                     "through has no room for one element of %zu bytes in each of its %d "
                     "regions; pass a larger pWrk", c->work_bytes, es, 1 + 2 * l.rounds);
    const char *land = c->work.addr;
    for (size_t off = 0, len, k = 0; off < count; off += len, k++) {
        len = count - off < cap ? count - off : cap;
        const int p = (int)(k & 1) & (l.sets - 1);
        char *acc = dest->addr + off * es;
        const size_t fold_at = land_at(&l, 0, l.rounds);
        if (f.extra) { /* hand the chunk to the partner group, get the result back */
            int q = hier_leader(m, f.partner);
            coll_put_signal(c, q, &c->work, fold_at, acc, len * es, SLOT_HIER_FOLD_DATA);
            coll_wait(c, SLOT_HIER_FOLD_RESULT, 1);
            continue;
        }
        if (f.partner >= 0) { /* the partner group is the higher one: ours on the left */
            coll_wait(c, SLOT_HIER_FOLD_DATA, 1);
            op->acc(op, acc, land + fold_at, len);
        }
        for (int e = 0; e < l.rounds; e++) {
            int g = lfold_group(&f, f.vme ^ (1 << e)), q = hier_leader(m, g);
            const size_t at = land_at(&l, p, e);
            coll_put_signal(c, q, &c->work, at, acc, len * es, SLOT_HIER_ROUND(p, e));
            coll_wait(c, SLOT_HIER_ROUND(p, e), 1);
            if (g < m->my_lrank)
                op->racc(op, acc, land + at, len);
            else
                op->acc(op, acc, land + at, len);
        }
        if (f.partner >= 0) {
            int q = hier_leader(m, f.partner);
            coll_put_signal(c, q, dest, off * es, acc, len * es, SLOT_HIER_FOLD_RESULT);
        }
    }
}

void coll_hier_reduce(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                      const coll_op_t *op)
{
    hier_map_t m;
    hier_map_init(&m, c, -1);
    const size_t nbytes = count * op->esize;
    hier_node_arrive(c, &m, SLOT_NODE_ARRIVE);
    if (hier_is_leader(&m, c)) {
        node_combine(c, &m, dest->addr, src, count, op);
        if (m.nleaders > 1)
            leaders_rd(c, &m, dest, count, op);
        if (m.hi - m.lo > 1) {
            hier_node_release(c, &m, SLOT_NODE_RELEASE);
            hier_node_wait(c, SLOT_NODE_COPIED, m.hi - m.lo - 1);
        }
    } else {
        hier_node_release(c, &m, SLOT_NODE_RELEASE);
        memcpy(dest->addr, hier_node_view(c, dest, m.leader, 0), nbytes);
        hier_node_add(c, m.leader, SLOT_NODE_COPIED, 1);
    }
    coll_done(c);
}
