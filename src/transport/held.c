/*
 * held.c: the queues of held messages (held.h).
 *
 * Members that run calls ahead of this PE by different distances send interleaved gates
 * (three members 5, 900 and 12,000 calls ahead), thousands of messages held at once. A list
 * kept sorted walked over thousands of entries per insertion, which tripled a small gatherv
 * over tcp; a binary heap of the entries cost log2(held) steps, each a pointer to an entry
 * far from the last, a visible share of a gatherv root's time. Gates are call numbers, so a queue is a calendar instead: a ring with a
 * bucket per call number from the lowest gate held (base) to the highest, each bucket a list
 * in arrival order. A message goes to the tail of its bucket; the next open one is at the
 * head of the first bucket that is not empty, and an empty bucket is passed once. The ring
 * spans the gates held at once, which the senders' budget bounds (SSHMEM_COLL_HOLD: about
 * as many calls as members run ahead); it doubles when a gate falls outside it.
 */
#include <stdlib.h>

#include "transport/held.h"

#define RING_MIN 64

static sshmem_held_queue_t *queue_of(sshmem_held_set_t *set, const long *word)
{
    for (int i = 0; i < set->nqueues; i++)
        if (set->queues[i].word == word)
            return &set->queues[i];
    if (set->nqueues == set->cap) {
        int cap = set->cap ? 2 * set->cap : 4;
        sshmem_held_queue_t *q = realloc(set->queues, (size_t)cap * sizeof *q);
        if (!q)
            return NULL;
        set->queues = q;
        set->cap = cap;
    }
    sshmem_held_queue_t *q = &set->queues[set->nqueues++];
    *q = (sshmem_held_queue_t){.word = word};
    return q;
}

static sshmem_held_bucket_t *bucket_of(const sshmem_held_queue_t *q, long gate)
{
    return &q->ring[(q->head + (size_t)(gate - q->base)) & (q->cap - 1)];
}

/* Room for the gates from base to end - 1: a larger ring, its buckets in gate order from
 * index 0. Returns -1 when there is no memory (q unchanged). */
static int make_room(sshmem_held_queue_t *q, long base, long end)
{
    const size_t span = (size_t)(end - base);
    if (span <= q->cap)
        return 0;
    size_t cap = q->cap ? q->cap : RING_MIN;
    while (cap < span)
        cap *= 2;
    sshmem_held_bucket_t *ring = calloc(cap, sizeof *ring);
    if (!ring)
        return -1;
    if (q->size) /* the old buckets, gates q->base .. q->end - 1, where base puts them */
        for (long g = q->base; g < q->end; g++)
            ring[g - base] = *bucket_of(q, g);
    free(q->ring);
    q->ring = ring;
    q->cap = cap;
    q->head = q->size ? (size_t)(q->base - base) : 0;
    q->base = q->size ? q->base : base;
    return 0;
}

int sshmem_held_add(sshmem_held_set_t *set, sshmem_held_t *m)
{
    sshmem_held_queue_t *q = queue_of(set, m->word);
    if (!q)
        return -1;
    const long g = m->open_at;
    if (!q->size) { /* empty: the ring starts at this gate */
        if (make_room(q, g, g + 1) != 0)
            return -1;
        q->base = g;
        q->end = g + 1;
    } else if (g < q->base || g >= q->end) {
        const long base = g < q->base ? g : q->base, end = g >= q->end ? g + 1 : q->end;
        if (make_room(q, base, end) != 0)
            return -1;
        if (g < q->base) { /* the ring's head moves back: those buckets lay past end, empty */
            q->head = (q->head - (size_t)(q->base - g)) & (q->cap - 1);
            q->base = g;
        }
        q->end = end;
    }
    sshmem_held_bucket_t *b = bucket_of(q, g);
    m->next = NULL;
    if (b->last)
        b->last->next = m;
    else
        b->first = m;
    b->last = m;
    q->size++;
    set->count++;
    return 0;
}

/* The first message of q, if its gate is open at word value w. */
static sshmem_held_t *take_from(sshmem_held_queue_t *q, long w)
{
    while (q->size && q->base <= w) {
        sshmem_held_bucket_t *b = &q->ring[q->head];
        sshmem_held_t *m = b->first;
        if (m) {
            b->first = m->next;
            if (!b->first)
                b->last = NULL;
            q->size--;
            return m;
        }
        q->head = (q->head + 1) & (q->cap - 1); /* an empty bucket: passed once */
        q->base++;
    }
    return NULL;
}

sshmem_held_t *sshmem_held_take_open(sshmem_held_set_t *set)
{
    for (int i = 0; i < set->nqueues; i++) {
        sshmem_held_queue_t *q = &set->queues[i];
        if (!q->size)
            continue;
        sshmem_held_t *m = take_from(q, __atomic_load_n(q->word, __ATOMIC_ACQUIRE));
        if (m) {
            set->count--;
            return m;
        }
    }
    return NULL;
}

void sshmem_held_clear(sshmem_held_set_t *set, void (*drop)(sshmem_held_t *))
{
    for (int i = 0; i < set->nqueues; i++) {
        sshmem_held_queue_t *q = &set->queues[i];
        for (size_t k = 0; drop && q->size && k < q->cap; k++)
            for (sshmem_held_t *m = q->ring[k].first, *next; m; m = next) {
                next = m->next;
                drop(m);
            }
        free(q->ring);
    }
    free(set->queues);
    *set = (sshmem_held_set_t){0};
}
