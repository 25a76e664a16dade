/*
 * ring_bruck.c: Bruck's steps over a ring of positions (members, or a node's run of members
 * for hier_collect.c), each position's blocks kept after the own ones, and the rotation that
 * puts them in member order at the end (coll.h).
 */
#include <string.h>

#include "coll/coll.h"

static int ring_member(const coll_ring_t *r, int p) { return r->first ? r->first[p] : p; }

/* Where position p's blocks start in dest, in member order (at size: the end). */
static size_t ring_at(const coll_ring_t *r, int p)
{
    return coll_block_at(r->offs, r->nbytes, ring_member(r, p));
}

/* Where position m's blocks lie in position q's dest during the steps (coll.h). Each step sends
 * one run from the start of the sender's dest and lands it as one run (in member order a run that
 * wraps would be two messages, and over tcp each costs kernel time at both ends). */
static size_t rotated_at(const coll_ring_t *r, int q, int m)
{
    const size_t at = ring_at(r, m), from = ring_at(r, q);
    return m >= q ? at - from : at + ring_at(r, r->size) - from;
}

/* The step with distance d sends the min(d, size - d) positions' blocks this PE holds (its own and
 * those after it) to position me - d, which keeps them after its own d - 1 following ones. */
void coll_ring_bruck(coll_t *c, const coll_ring_t *r, const coll_buf_t *dest, int slot0)
{
    const int n = r->size, me = r->me;
    for (int e = 0, d = 1; d < n; e++, d <<= 1) {
        const int to = (me - d + n) % n;
        const int cnt = d < n - d ? d : n - d;
        const size_t len = rotated_at(r, me, (me + cnt) % n);
        coll_reach(c, ring_member(r, to));
        coll_put_signal(c, ring_member(r, to), dest, rotated_at(r, to, me), dest->addr, len,
                        slot0 + e);
        coll_wait(c, slot0 + e, 1);
    }
    const size_t at = ring_at(r, me);
    coll_rotate(dest->addr, ring_at(r, n) - at, at); /* member order */
}

/* Exchange the n bytes at a and at b (apart), through a small buffer. */
static void swap_bytes(char *a, char *b, size_t n)
{
    char t[256];
    while (n) {
        const size_t k = n < sizeof t ? n : sizeof t;
        memcpy(t, a, k);
        memcpy(a, b, k);
        memcpy(b, t, k);
        a += k;
        b += k;
        n -= k;
    }
}

void coll_rotate(char *p, size_t l, size_t r)
{
    while (l && r) {
        if (l <= r) { /* [L | R1 | R2], |R2| = l  ->  [R2 | R1 | L] */
            swap_bytes(p, p + r, l);
            r -= l;
        } else {      /* [L1 | L2 | R], |L1| = r  ->  [R | L2 | L1] */
            swap_bytes(p, p + l, r);
            p += r;
            l -= r;
        }
    }
}
