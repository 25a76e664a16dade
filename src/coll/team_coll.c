/*
 * team_coll.c: the team form of the collectives (see api.h) and the untyped routines
 * (shmem_broadcastmem, ...), whose elements are bytes. Each call synchronizes through the
 * team's next sync area.
 */
#include <shmem.h>

#include "coll/api.h"
#include "core/api_defs.h"

int coll_team_call(shmem_team_t team, const coll_call_t *k)
{
    coll_t c;
    coll_check_strides(k);
    coll_setup_team(&c, sshmem_team_check(team, k->call), k->call);
    coll_run(&c, k);
    return 0;
}

/* ------------------------------------------------------------------ untyped routines */

SSHMEM_DEFINE(int, shmem_broadcastmem,
              (shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root))
{
    COLL_TEAM_CALL(team, COLL_BROADCAST, dest, source, nelems, 1, PE_root,
                   .call = "shmem_broadcastmem");
}

SSHMEM_DEFINE(int, shmem_collectmem,
              (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    COLL_TEAM_CALL(team, COLL_COLLECT, dest, source, nelems, 1, .call = "shmem_collectmem");
}

SSHMEM_DEFINE(int, shmem_fcollectmem,
              (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    COLL_TEAM_CALL(team, COLL_FCOLLECT, dest, source, nelems, 1, .call = "shmem_fcollectmem");
}

SSHMEM_DEFINE(int, shmem_alltoallmem,
              (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    COLL_TEAM_CALL(team, COLL_ALLTOALL, dest, source, nelems, 1, .call = "shmem_alltoallmem");
}

SSHMEM_DEFINE(int, shmem_alltoallsmem,
              (shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
               size_t nelems))
{
    COLL_TEAM_CALL(team, COLL_ALLTOALLS, dest, source, nelems, 1, .dst = dst, .sst = sst,
                   .call = "shmem_alltoallsmem");
}
