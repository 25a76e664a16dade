/*
 * team.h: the MPI-style collectives' view of a team: its size, this PE's index in it, and
 * the world PE of every index. The one place that knows how teams are represented.
 */
#ifndef SSHMEM_MPIX_TEAM_H
#define SSHMEM_MPIX_TEAM_H
#include <shmem.h>

typedef struct mpix_team {
    int n;      /* members */
    int me;     /* this PE's index */
    int start;  /* world PE of index 0 */
    int stride; /* world PEs between consecutive indices */
} mpix_team_t;

/* The view of team; a team this PE cannot use is a fatal error naming call. */
void mpix_team_view(shmem_team_t team, mpix_team_t *v, const char *call);

/* The team itself, for the collectives that run on src/coll's engine (its sync areas and
 * staging buffer); a team this PE cannot use is a fatal error naming call. */
struct sshmem_team;
struct sshmem_team *mpix_team_get(shmem_team_t team, const char *call);

static inline int mpix_pe(const mpix_team_t *t, int index) { return t->start + index * t->stride; }

#endif
