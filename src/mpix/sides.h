/*
 * sides.h: one side of an exchange of typed blocks (exchange.h): what a PE sends to, or
 * receives from, each member of the team.
 */
#ifndef SSHMEM_MPIX_SIDES_H
#define SSHMEM_MPIX_SIDES_H
#include <stddef.h>

/* Who a side talks to. */
#define MPIX_X_ALL (-1)  /* every member */
#define MPIX_X_NONE (-2) /* nobody (a non-root's receive side in gatherv, ...) */

/* One side of this PE: with member i it exchanges count(i) elements at origin + displ(i) *
 * extent. count(i) is counts[i], or `count` when counts is NULL; displ(i) is displs[i], or
 * i * count when `regular`, or 0 (the same block for everyone, or the one block of a root). */
typedef struct mpix_side {
    const char *origin;
    const size_t *counts, *displs;
    size_t count;
    int regular;
    int peer;          /* a member index, MPIX_X_ALL or MPIX_X_NONE */
    const char *name;  /* the count argument, for messages: "recvcounts" (then "[i]" is
                        * added) or "recvcount" */
    const char *peer_name; /* the partner's count argument as a format taking this PE's
                            * index: "sendcounts[%d]" or "sendcount" */
} mpix_side_t;

static inline int mpix_side_talks(const mpix_side_t *s, int member)
{
    return s->peer == MPIX_X_ALL || s->peer == member;
}
static inline size_t mpix_side_count(const mpix_side_t *s, int i)
{
    return s->counts ? s->counts[i] : s->count;
}
static inline size_t mpix_side_displ(const mpix_side_t *s, int i)
{
    return s->displs ? s->displs[i] : s->regular ? (size_t)i * s->count : 0;
}

#endif
