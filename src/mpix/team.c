/*
 * team.c: the team adapter of the MPI-style collectives.
 *
 * Until the teams layer (src/team) is part of the library, the collectives run on
 * SHMEM_TEAM_WORLD, whose index is the world PE number. When teams arrive, this is the only
 * file to change: read start/stride/size from struct sshmem_team.
 */
#include "core/error.h"
#include "mpix/team.h"

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
