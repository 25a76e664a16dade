/*
 * team.c: the team adapter of the MPI-style collectives: size, my index, world PE of index i.
 * Every valid team works: its members are a triplet of world PEs (src/team).
 */
#include "core/error.h"
#include "mpix/team.h"
#include "team/team.h"

void mpix_team_view(shmem_team_t team, mpix_team_t *v, const char *call)
{
    const struct sshmem_team *t = sshmem_team_check(team, call);
    v->n = t->pes.size;
    v->me = t->my_index;
    v->start = t->pes.start;
    v->stride = t->pes.stride;
}

struct sshmem_team *mpix_team_get(shmem_team_t team, const char *call)
{
    return sshmem_team_check(team, call);
}
