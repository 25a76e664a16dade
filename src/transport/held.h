/*
 * held.h: messages a PE keeps because they arrived before it reached the call they belong
 * to (ucx_put_add.c, "Gates").
 *
 * Each message carries a gate: a word of the receiver (a team's progress word) and the value
 * that word must have reached before the message may be applied. Words only grow. A set
 * keeps one queue per word, a ring of buckets by gate (a calendar: one bucket per call
 * number, from the lowest gate held), so keeping a message and taking the next open one cost
 * the same however many are held. Messages with equal gates come out in the order they came
 * (a call's messages from one sender go to different places anyway); a sender's later calls
 * have higher gates, so its messages come out in the order it sent them.
 *
 * Pure bookkeeping, no transport: the caller allocates the entries (with its payload after
 * the sshmem_held_t it embeds first), serializes every call on one set, and frees what it
 * takes.
 */
#ifndef SSHMEM_HELD_H
#define SSHMEM_HELD_H

#include <stddef.h>

typedef struct sshmem_held {
    const long *word; /* the gate: applied once *word >= open_at */
    long open_at;
    struct sshmem_held *next; /* in its bucket (held.c) */
} sshmem_held_t;

typedef struct sshmem_held_bucket {
    sshmem_held_t *first, *last;
} sshmem_held_bucket_t;

typedef struct sshmem_held_queue {
    const long *word;
    sshmem_held_bucket_t *ring; /* cap buckets (a power of two); gate g's is at
                                 * (head + g - base) & (cap - 1) */
    size_t cap, head, size;     /* size: messages held */
    long base, end;             /* every message held has base <= gate < end */
} sshmem_held_queue_t;

typedef struct sshmem_held_set {
    sshmem_held_queue_t *queues; /* one per word ever seen (a team's progress word) */
    int nqueues, cap;
    size_t count; /* messages held */
} sshmem_held_set_t;

/* Whether m's gate is open now (an acquire load of its word: what the word's owner wrote
 * before raising it is visible after). */
static inline int sshmem_held_open(const sshmem_held_t *m)
{
    return __atomic_load_n(m->word, __ATOMIC_ACQUIRE) >= m->open_at;
}

/* Keep m (its word and open_at set). Returns 0, or -1 when no memory is left for the queue
 * (m is then not kept). */
int sshmem_held_add(sshmem_held_set_t *set, sshmem_held_t *m);
/* A kept message whose gate is open, removed from the set; NULL when there is none. Of one
 * word's messages, a lowest gate first. */
sshmem_held_t *sshmem_held_take_open(sshmem_held_set_t *set);
/* Free the queues; what the set still holds goes to drop (when not NULL), in no order. */
void sshmem_held_clear(sshmem_held_set_t *set, void (*drop)(sshmem_held_t *));

#endif
