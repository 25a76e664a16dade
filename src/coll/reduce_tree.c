/*
 * reduce_tree.c: a reduction to one root by binomial tree, for teams without shared memory
 * (coll.h, coll_reduce_tree).
 */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/reduce_handoff.h"
#include "coll/slots.h"
#include "core/error.h"

/*
 * Reduce to a root by binomial tree, for teams without shared memory (coll.h). In virtual
 * numbering v (the root is 0: v = me - root mod n for a commutative op, else v = me with the
 * root at member 0 of the tree), member v takes in the vectors of v + 1, v + 2, v + 4, ...
 * below its lowest set bit, each combined on the right (they hold higher members), and sends
 * its accumulator to v minus that bit. So each vector crosses the network once, as in MPI's
 * reduce, where an allreduce to everybody moved it twice. The data goes in pieces of the
 * landing buffer; a child writes into its parent's landing once the parent asks (the parent
 * combines one child at a time). A leaf sends straight from its source. Where the transfers
 * are messages, the parent's first child, and the member that hands a non-commutative result
 * to the root, write straight into the piece's final place instead (the parent's dest or
 * accumulator, named in the request: recv_in_place), and no copy moves it there.
 */
static int tree_parent(int v)
{
    return v - (v & -v);
}

int coll_reduce_tree_needs_acc(int n, const coll_op_t *op, int root)
{
    return n >= 4 || (!op->commute && root != 0); /* member 2 of 4 takes in 3 */
}

/*
 * The root's first child, placed. In the tree rooted at the call's root (a commutative op,
 * or root 0), the root's first child is member v = 1, a leaf: it sends its source and
 * nothing else. Where the two reach each other by messages, that vector goes at once as one
 * placed block (engine.h, "Placed blocks") into its final place at the root, recorded before
 * the call is announced (coll_reduce_tree_place), where a request and then the data cost a
 * round trip more. One block, not pieces combined as they land: the root polls nothing
 * while it combines. The
 * block carries a note, the child's byte count and the call number, so a root that expects
 * another count says so instead of waiting for a block it dropped.
 */
#define RECORD_AT 0
#define NOTE_AT sizeof(sshmem_tx_placement_t)

static int tree_shift(const coll_op_t *op, int root) { return op->commute ? root : 0; }

/* Whether the root's first child goes placed in this call: the same answer on both of them
 * (on the others it does not matter). The record and the note lie in the root's work space,
 * which the tree leaves alone where it lands pieces elsewhere (a lent landing buffer). */
static int first_child_placed(coll_t *c, const coll_op_t *op, int root, size_t count)
{
    const int first = (root + 1) % c->n;
    if (!c->team || c->n < 2 || count == 0 || tree_shift(op, root) != root ||
        c->work_bytes < NOTE_AT + 2 * sizeof(uint64_t) ||
        !coll_messages_to(c, c->me == root ? first : root))
        return 0;
    coll_buf_t land;
    coll_landing(c, &land);
    return land.addr != c->work.addr;
}

void coll_reduce_tree_place(coll_t *c, coll_tree_plan_t *plan, char *dest, const char *src,
                            size_t count, const coll_op_t *op, int root)
{
    const size_t bytes = count * op->esize;
    memset(plan, 0, sizeof *plan);
    const int first = (root + 1) % c->n;
    if ((c->me != root && c->me != first) || !first_child_placed(c, op, root, count))
        return;
    plan->placed = 1;
    if (c->me != root)
        return;
    /* Our own source must survive the child's block: where it overlaps dest, the block lands
     * in the landing buffer if it fits, else in memory of our own. */
    plan->into = dest;
    if (!(dest + bytes <= src || src + bytes <= dest)) {
        coll_buf_t land;
        const size_t land_bytes = coll_landing(c, &land);
        plan->into = land.addr;
        if (bytes > land_bytes && !(plan->into = plan->scratch = malloc(bytes)))
            sshmem_fatal(c->call, "out of memory for %zu bytes that the reduction's root "
                         "takes in; free memory or reduce in smaller parts", bytes);
    }
    coll_place(c, RECORD_AT, plan->into, bytes);
}

/* As the root: dest = src op (the first child's vector), once it has landed. */
static void take_placed(coll_t *c, const coll_tree_plan_t *plan, char *dest, const char *src,
                        size_t count, const coll_op_t *op, int root)
{
    const size_t bytes = count * op->esize;
    if (plan->into != dest && dest != src)
        memmove(dest, src, bytes); /* they overlap */
    coll_wait(c, SLOT_TREE_PLACED, 1);
    const uint64_t *note = (const uint64_t *)(c->work.addr + NOTE_AT);
    if (SSHMEM_UNLIKELY(note[0] != bytes || note[1] != c->seq))
        sshmem_fatal(c->call, "team PE %d passes %llu bytes to this reduction, its root (team "
                     "PE %d) %zu: every PE must pass the same count and type",
                     (root + 1) % c->n, (unsigned long long)note[0], root, bytes);
    if (plan->into == dest)
        op->racc(op, dest, src, count); /* ours on the left: the child's member is higher */
    else
        op->acc(op, dest, plan->into, count);
}

/* Member v's children (v + b for the bits b below top, from b0) combined into piece, with
 * this member's own len elements from `from` on the left. The first child sends straight
 * into piece where it can (recv_in_place), and our data is combined in from the left (racc):
 * that saves copying our data into piece first, while the child's data waits on it. */
static void combine_children(coll_t *c, int v, int top, int b0, int shift, char *piece,
                             const char *from, size_t len, const coll_op_t *op)
{
    const size_t bytes = len * op->esize;
    const int apart = piece + bytes <= from || from + bytes <= piece;
    int first = 1;
    for (int b = b0; b < top && v + b < c->n; b <<= 1, first = 0) {
        const int child = (v + b + shift) % c->n;
        if (first && apart &&
            recv_in_place(c, child, SLOT_ROUND_FREE(0), SLOT_ROUND_DATA(0), piece)) {
            op->racc(op, piece, from, len); /* ours on the left: the child's members are higher */
            continue;
        }
        if (first && piece != from)
            memmove(piece, from, bytes);
        recv_in_work(c, child, SLOT_ROUND_FREE(0), SLOT_ROUND_DATA(0));
        op->acc(op, piece, c->land.addr, len); /* the child's members are higher */
    }
}

void coll_reduce_tree(coll_t *c, coll_tree_plan_t *plan, char *dest, const char *src,
                      size_t count, const coll_op_t *op, int root, char *acc, size_t acc_elems)
{
    const size_t es = op->esize;
    const int n = c->n, me = c->me;
    if (n == 1 || count == 0) {
        if (n == 1 && dest != src)
            memmove(dest, src, count * es);
        return;
    }
    const int shift = tree_shift(op, root); /* tree root at member `shift` */
    const int v = ((me - shift) % n + n) % n;
    const int top = v ? (v & -v) : 1 << 30; /* children below this bit */
    int leaf = 1;
    for (int b = 1; b < top && v + b < n; b <<= 1)
        leaf = 0;
    c->land_bytes = coll_landing(c, &c->land);
    const int tree_root = v == 0;
    if (plan->placed && v == 1) { /* a leaf: its source at once, with its note */
        const uint64_t note[2] = {count * es, c->seq};
        coll_put_signal_placed(c, root, RECORD_AT, note, NOTE_AT, src, count * es,
                               SLOT_TREE_PLACED);
        coll_done(c);
        return;
    }
    int b0 = 1; /* the first child to take in by request */
    if (plan->placed && tree_root) {
        take_placed(c, plan, dest, src, count, op, root);
        src = dest;
        b0 = 2;
        leaf = n == 2;
    }
    char *mine = tree_root && me == root ? dest : acc; /* where this member accumulates */
    size_t cap = c->land_bytes / es; /* the same on every member: pieces must match */
    if (coll_reduce_tree_needs_acc(n, op, root) && acc_elems < cap)
        cap = acc_elems;
    if (SSHMEM_UNLIKELY(cap == 0))
        sshmem_fatal(c->call, "one element (%zu bytes) does not fit the landing buffer", es);
    for (size_t at = 0, len; at < count && !(tree_root && leaf); at += len) {
        len = count - at < cap ? count - at : cap;
        char *piece = mine + (mine == dest ? at * es : 0);
        const char *from = src + at * es;
        if (!leaf) {
            combine_children(c, v, top, b0, shift, piece, from, len, op);
            from = piece;
        }
        if (!tree_root)
            send_to_work(c, (tree_parent(v) + shift) % n, SLOT_ROUND_FREE(0), SLOT_ROUND_DATA(0), from,
                         len * es);
        else if (me != root) /* a non-commutative op: member 0 hands the result on */
            send_to_work(c, root, SLOT_ROUND_FREE(1), SLOT_ROUND_DATA(1), from, len * es);
        if (me == root && !tree_root &&
            !recv_in_place(c, shift, SLOT_ROUND_FREE(1), SLOT_ROUND_DATA(1), dest + at * es)) {
            recv_in_work(c, shift, SLOT_ROUND_FREE(1), SLOT_ROUND_DATA(1));
            memcpy(dest + at * es, c->land.addr, len * es);
        }
    }
    free(plan->scratch);
    plan->scratch = NULL;
    coll_done(c);
}
