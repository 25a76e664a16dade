/*
 * vcoll_regular.c: shmemx_gather, shmemx_scatter, shmemx_allgather, shmemx_alltoall: count
 * elements per PE, PE i's block at i * count elements. The same exchange as the v-forms
 * (exchange.h), with the regular layout computed instead of read from arrays.
 */
#include <stdlib.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "mpix/coll.h"
#include "mpix/exchange.h"

/* Regular blocks cannot overlap unless the type's elements do: only then is there anything
 * to check (as the v-forms check it, on arrays). */
static void check_regular(shmemx_datatype_t type, const mpix_team_t *t, size_t count,
                          const char *call)
{
    if (type->flags & MPIX_CONTIG)
        return;
    size_t *counts = malloc(2 * (size_t)t->n * sizeof *counts);
    if (!counts)
        sshmem_fatal(call, "out of memory for %d counts", t->n);
    size_t *displs = counts + t->n;
    for (int i = 0; i < t->n; i++) {
        counts[i] = count;
        displs[i] = (size_t)i * count;
    }
    mpix_check_overlap(type, t->n, counts, displs, "count", "displacement", call);
    free(counts);
}

static const char *block(const void *base, int i, size_t count, shmemx_datatype_t type)
{
    return (const char *)base + (ptrdiff_t)((size_t)i * count) * mpix_extent(type);
}

SSHMEM_DEFINE(int, shmemx_gather, (shmem_team_t team, void *dest, const void *source,
                                   size_t count, shmemx_datatype_t type, int root))
{
    const char *call = "shmemx_gather";
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, count, "count", call);
    mpix_check_root(&t, root, call);
    mpix_side_t send = {source, NULL, NULL, count, 0, root, "count", NULL};
    mpix_side_t recv = {dest, NULL, NULL, count, 1, MPIX_X_NONE, "count", "count"};
    if (t.me == root) {
        check_regular(type, &t, count, call);
        recv.peer = MPIX_X_ALL;
        if (source == SHMEMX_IN_PLACE)
            send.origin = block(dest, root, count, type);
    } else if (source == SHMEMX_IN_PLACE) {
        sshmem_fatal(call, "source is SHMEMX_IN_PLACE on a PE that is not the root (%d); only "
                     "the root may pass it", root);
    }
    mpix_check_buf(send.origin, count, type, "source", call);
    mpix_check_buf(recv.origin, t.me == root ? count : 0, type, "dest", call);
    mpix_exchange(team, &send, &recv, type, 1, call);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_scatter, (shmem_team_t team, void *dest, const void *source,
                                    size_t count, shmemx_datatype_t type, int root))
{
    const char *call = "shmemx_scatter";
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, count, "count", call);
    mpix_check_root(&t, root, call);
    mpix_side_t send = {source, NULL, NULL, count, 1, MPIX_X_NONE, "count", NULL};
    mpix_side_t recv = {dest, NULL, NULL, count, 0, root, "count", "count"};
    if (t.me == root) {
        send.peer = MPIX_X_ALL;
        mpix_check_buf(source, count, type, "source", call);
        if (dest == SHMEMX_IN_PLACE)
            recv.origin = block(source, root, count, type);
    } else if (dest == SHMEMX_IN_PLACE) {
        sshmem_fatal(call, "dest is SHMEMX_IN_PLACE on a PE that is not the root (%d); only "
                     "the root may pass it", root);
    }
    mpix_check_buf(recv.origin, count, type, "dest", call);
    mpix_exchange(team, &send, &recv, type, 1, call);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_allgather, (shmem_team_t team, void *dest, const void *source,
                                      size_t count, shmemx_datatype_t type))
{
    const char *call = "shmemx_allgather";
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, count, "count", call);
    check_regular(type, &t, count, call);
    mpix_side_t send = {source, NULL, NULL, count, 0, MPIX_X_ALL, "count", NULL};
    mpix_side_t recv = {dest, NULL, NULL, count, 1, MPIX_X_ALL, "count", "count"};
    if (source == SHMEMX_IN_PLACE)
        send.origin = block(dest, t.me, count, type);
    mpix_check_buf(send.origin, count, type, "source", call);
    mpix_check_buf(dest, count, type, "dest", call);
    mpix_exchange(team, &send, &recv, type, 0, call);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_alltoall, (shmem_team_t team, void *dest, const void *source,
                                     size_t count, shmemx_datatype_t type))
{
    const char *call = "shmemx_alltoall";
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, count, "count", call);
    check_regular(type, &t, count, call);
    mpix_side_t send = {source, NULL, NULL, count, 1, MPIX_X_ALL, "count", NULL};
    mpix_side_t recv = {dest, NULL, NULL, count, 1, MPIX_X_ALL, "count", "count"};
    mpix_check_buf(source, count, type, "source", call);
    mpix_check_buf(dest, count, type, "dest", call);
    mpix_exchange(team, &send, &recv, type, 0, call);
    return SHMEMX_SUCCESS;
}
