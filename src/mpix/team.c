/*
 * team.c: the team adapter of the MPI-style collectives: size, my index, world PE of index i.
 *
 * With the teams layer (src/team) every valid team works: its members are a triplet of world
 * PEs. Built without it (before that layer is part of the library), only SHMEM_TEAM_WORLD is
 * known, whose index is the world PE number. This is the only file that knows either way.
 */
#include "core/error.h"
#include "mpix/team.h"

#if __has_include("team/team.h")
#include "team/team.h"

void mpix_team_view(shmem_team_t team, mpix_team_t *v, const char *call)
{
    const struct sshmem_team *t = sshmem_team_check(team, call);
    v->n = t->pes.size;
    v->me = t->my_index;
    v->start = t->pes.start;
    v->stride = t->pes.stride;
}

#else

void mpix_team_view(shmem_team_t team, mpix_team_t *v, const char *call)
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized(call);
    if (team == SHMEM_TEAM_INVALID)
        sshmem_fatal(call, "team is SHMEM_TEAM_INVALID; pass SHMEM_TEAM_WORLD or a team made by "
                     "shmem_team_split_strided or shmem_team_split_2d");
    if (team != SHMEM_TEAM_WORLD)
        sshmem_fatal(call, "this build of the shmemx collectives runs on SHMEM_TEAM_WORLD only "
                     "(teams made by a split come with the teams layer); pass SHMEM_TEAM_WORLD");
    v->n = sshmem.n_pes;
    v->me = sshmem.my_pe;
    v->start = 0;
    v->stride = 1;
}

#endif

#if __has_include("team/team.h")
struct sshmem_team *mpix_team_get(shmem_team_t team, const char *call)
{
    return sshmem_team_check(team, call);
}
#endif
