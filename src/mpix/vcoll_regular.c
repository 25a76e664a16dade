/*
 * vcoll_regular.c: shmemx_gather, shmemx_scatter, shmemx_allgather, shmemx_alltoall: the
 * v-collectives with count elements per PE and PE i's block at i * count elements.
 */
#include <stdlib.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "mpix/coll.h"

/* counts[i] = count, displs[i] = i * count, for the n PEs of team (both arrays in one block). */
static size_t *regular(shmem_team_t team, size_t count, size_t **displs, const char *call)
{
    mpix_team_t t;
    mpix_team_view(team, &t, call);
    size_t *counts = malloc(2 * (size_t)t.n * sizeof *counts);
    if (!counts)
        sshmem_fatal(call, "out of memory for %d counts", t.n);
    *displs = counts + t.n;
    for (int i = 0; i < t.n; i++) {
        counts[i] = count;
        (*displs)[i] = (size_t)i * count;
    }
    return counts;
}

SSHMEM_DEFINE(int, shmemx_gather, (shmem_team_t team, void *dest, const void *source,
                                   size_t count, shmemx_datatype_t type, int root))
{
    size_t *displs, *counts = regular(team, count, &displs, "shmemx_gather");
    int rc = pshmemx_gatherv(team, dest, source, count, counts, displs, type, root);
    free(counts);
    return rc;
}

SSHMEM_DEFINE(int, shmemx_scatter, (shmem_team_t team, void *dest, const void *source,
                                    size_t count, shmemx_datatype_t type, int root))
{
    size_t *displs, *counts = regular(team, count, &displs, "shmemx_scatter");
    int rc = pshmemx_scatterv(team, dest, source, counts, displs, count, type, root);
    free(counts);
    return rc;
}

SSHMEM_DEFINE(int, shmemx_allgather, (shmem_team_t team, void *dest, const void *source,
                                      size_t count, shmemx_datatype_t type))
{
    size_t *displs, *counts = regular(team, count, &displs, "shmemx_allgather");
    int rc = pshmemx_allgatherv(team, dest, source, count, counts, displs, type);
    free(counts);
    return rc;
}

SSHMEM_DEFINE(int, shmemx_alltoall, (shmem_team_t team, void *dest, const void *source,
                                     size_t count, shmemx_datatype_t type))
{
    size_t *displs, *counts = regular(team, count, &displs, "shmemx_alltoall");
    int rc = pshmemx_alltoallv(team, dest, counts, displs, source, counts, displs, type);
    free(counts);
    return rc;
}
