/*
 * set_shape.h: what the members of a set look like to the algorithm choice: whether this PE
 * maps every member's memory, whether the node-aware algorithms pay, and the set's groups
 * (runs of consecutive members on one node, coll/hier.h). Working it out reads every
 * member's node id, so it is done once: when a team is made (team/team.c), and for an active
 * set on its first use (set_cache.c). A collective call only reads it.
 */
#ifndef SSHMEM_COLL_SET_SHAPE_H
#define SSHMEM_COLL_SET_SHAPE_H

#include "core/team_math.h"

/* The groups of a set: first[g] is the first member of group g, first[count] the number of
 * members. Kept only where a node-aware algorithm may run (count 0 and first NULL where
 * none can): (count + 1) ints, one per node of the set with the usual block placement. */
typedef struct coll_groups {
    int count;
    int mine;   /* this PE's group */
    int *first;
} coll_groups_t;

typedef struct coll_set_shape {
    int direct;     /* this PE loads and stores every member's symmetric memory */
    int hier_worth; /* the set spans several groups and some group has several members */
    coll_groups_t groups;
} coll_set_shape_t;

/* Work out the shape of the set t, of which this PE is member me. */
void coll_set_shape_make(coll_set_shape_t *s, const sshmem_triplet_t *t, int me);
void coll_set_shape_free(coll_set_shape_t *s);

/* The shape of the active set t (this PE is member me), kept from an earlier call with the
 * same set where there is one: the pointer stays valid until this thread's next call. */
const coll_set_shape_t *coll_active_set_shape(const sshmem_triplet_t *t, int me);

/* Whether node mates may reach each other's symmetric memory with loads and stores, which
 * the node-aware algorithms need (the same answer on every PE: the job's settings). */
int coll_node_loads(void);

#endif
