/*
 * held.c: the queues of held messages (held.h).
 *
 * A word's queue is a binary heap ordered by gate: members that run calls ahead of this PE
 * by different distances send interleaved gates (three members 5, 900 and 12,000 calls
 * ahead), and a list kept sorted walked over thousands of entries per insertion there (an
 * 8-byte gatherv at 4 PEs over tcp took 51 us instead of 15). A heap costs log2(held)
 * steps either way.
 */
#include <stdlib.h>

#include "transport/held.h"

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
    *q = (sshmem_held_queue_t){word, NULL, 0, 0};
    return q;
}

int sshmem_held_add(sshmem_held_set_t *set, sshmem_held_t *m)
{
    sshmem_held_queue_t *q = queue_of(set, m->word);
    if (!q)
        return -1;
    if (q->size == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 64;
        sshmem_held_t **heap = realloc(q->heap, cap * sizeof *heap);
        if (!heap)
            return -1;
        q->heap = heap;
        q->cap = cap;
    }
    size_t i = q->size++; /* sift up from the new leaf */
    while (i > 0 && q->heap[(i - 1) / 2]->open_at > m->open_at) {
        q->heap[i] = q->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->heap[i] = m;
    set->count++;
    return 0;
}

/* Remove the top of q: the last leaf sifts down from the root. */
static void pop_top(sshmem_held_queue_t *q)
{
    sshmem_held_t *last = q->heap[--q->size];
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= q->size)
            break;
        if (child + 1 < q->size && q->heap[child + 1]->open_at < q->heap[child]->open_at)
            child++;
        if (q->heap[child]->open_at >= last->open_at)
            break;
        q->heap[i] = q->heap[child];
        i = child;
    }
    if (q->size)
        q->heap[i] = last;
}

sshmem_held_t *sshmem_held_take_open(sshmem_held_set_t *set)
{
    for (int i = 0; i < set->nqueues; i++) {
        sshmem_held_queue_t *q = &set->queues[i];
        if (!q->size || !sshmem_held_open(q->heap[0]))
            continue;
        sshmem_held_t *m = q->heap[0];
        pop_top(q);
        set->count--;
        return m;
    }
    return NULL;
}

void sshmem_held_clear(sshmem_held_set_t *set, void (*drop)(sshmem_held_t *))
{
    for (int i = 0; i < set->nqueues; i++) {
        for (size_t k = 0; drop && k < set->queues[i].size; k++)
            drop(set->queues[i].heap[k]);
        free(set->queues[i].heap);
    }
    free(set->queues);
    *set = (sshmem_held_set_t){0};
}
