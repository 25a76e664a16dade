/*
 * vcoll.c: shmemx_gatherv, shmemx_scatterv, shmemx_allgatherv, shmemx_alltoallv: the checks
 * of each routine and its description as an exchange of typed blocks (exchange.h), which runs
 * on the collective engine.
 *
 * SHMEMX_IN_PLACE: the in-place PE's own block is already where it belongs (in dest for
 * gatherv's root and allgatherv, in source for scatterv's root): the exchange sends it from
 * there and skips the copy to itself.
 */
#include <shmemx.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "mpix/coll.h"
#include "mpix/exchange.h"

static const char *at(const void *base, size_t displ, shmemx_datatype_t type)
{
    return (const char *)base + (ptrdiff_t)displ * mpix_extent(type);
}

SSHMEM_COLD static void in_place_not_root(const char *call, const char *arg, int root)
{
    sshmem_fatal(call, "%s is SHMEMX_IN_PLACE on a PE that is not the root (%d); only the root "
                 "may pass it: the other PEs pass their own buffer", arg, root);
}

SSHMEM_DEFINE(int, shmemx_gatherv,
              (shmem_team_t team, void *dest, const void *source, size_t sendcount,
               const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type,
               int root))
{
    const char *call = "shmemx_gatherv";
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, sendcount, "sendcount", call);
    mpix_check_root(&t, root, call);
    mpix_side_t send = {source, NULL, NULL, sendcount, 0, root, "sendcount", NULL};
    mpix_side_t recv = {dest, recvcounts, displs, 0, 0, MPIX_X_NONE, "recvcounts", "sendcount"};
    if (t.me == root) {
        mpix_check_counts(recvcounts, t.n, "recvcounts", call);
        mpix_check_overlap(type, t.n, recvcounts, displs, "recvcounts", "displs", call);
        recv.peer = MPIX_X_ALL;
        if (source == SHMEMX_IN_PLACE) {
            send.origin = at(dest, displs[root], type);
            send.count = recvcounts[root];
        }
    } else if (source == SHMEMX_IN_PLACE) {
        in_place_not_root(call, "source", root);
    }
    mpix_check_buf(send.origin, send.count, type, "source", call);
    mpix_exchange(team, &send, &recv, type, 1, call);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_scatterv,
              (shmem_team_t team, void *dest, const void *source, const size_t sendcounts[],
               const size_t displs[], size_t recvcount, shmemx_datatype_t type, int root))
{
    const char *call = "shmemx_scatterv";
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, recvcount, "recvcount", call);
    mpix_check_root(&t, root, call);
    mpix_side_t send = {source, sendcounts, displs, 0, 0, MPIX_X_NONE, "sendcounts", NULL};
    mpix_side_t recv = {dest, NULL, NULL, recvcount, 0, root, "recvcount", "sendcounts[%d]"};
    if (t.me == root) {
        mpix_check_counts(sendcounts, t.n, "sendcounts", call);
        mpix_check_counts(displs, t.n, "displs", call);
        for (int i = 0; i < t.n; i++)
            mpix_check_buf(source, sendcounts[i], type, "source", call);
        send.peer = MPIX_X_ALL;
        if (dest == SHMEMX_IN_PLACE) {
            recv.origin = at(source, displs[root], type);
            recv.count = sendcounts[root];
        }
    } else if (dest == SHMEMX_IN_PLACE) {
        in_place_not_root(call, "dest", root);
    }
    mpix_check_buf(recv.origin, recv.count, type, "dest", call);
    mpix_exchange(team, &send, &recv, type, 1, call);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_allgatherv,
              (shmem_team_t team, void *dest, const void *source, size_t sendcount,
               const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type))
{
    const char *call = "shmemx_allgatherv";
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, sendcount, "sendcount", call);
    mpix_check_counts(recvcounts, t.n, "recvcounts", call);
    mpix_check_overlap(type, t.n, recvcounts, displs, "recvcounts", "displs", call);
    mpix_side_t send = {source, NULL, NULL, sendcount, 0, MPIX_X_ALL, "sendcount", NULL};
    mpix_side_t recv = {dest, recvcounts, displs, 0, 0, MPIX_X_ALL, "recvcounts", "sendcount"};
    if (source == SHMEMX_IN_PLACE) {
        send.origin = at(dest, displs[t.me], type);
        send.count = recvcounts[t.me];
    }
    mpix_check_buf(send.origin, send.count, type, "source", call);
    mpix_exchange(team, &send, &recv, type, 0, call);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_alltoallv,
              (shmem_team_t team, void *dest, const size_t recvcounts[], const size_t rdispls[],
               const void *source, const size_t sendcounts[], const size_t sdispls[],
               shmemx_datatype_t type))
{
    const char *call = "shmemx_alltoallv";
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, 0, "count", call);
    mpix_check_counts(sendcounts, t.n, "sendcounts", call);
    mpix_check_counts(sdispls, t.n, "sdispls", call);
    mpix_check_counts(recvcounts, t.n, "recvcounts", call);
    mpix_check_overlap(type, t.n, recvcounts, rdispls, "recvcounts", "rdispls", call);
    for (int i = 0; i < t.n; i++)
        mpix_check_buf(source, sendcounts[i], type, "source", call);
    mpix_side_t send = {source, sendcounts, sdispls, 0, 0, MPIX_X_ALL, "sendcounts", NULL};
    mpix_side_t recv = {dest, recvcounts, rdispls, 0, 0, MPIX_X_ALL, "recvcounts",
                        "sendcounts[%d]"};
    mpix_exchange(team, &send, &recv, type, 0, call);
    return SHMEMX_SUCCESS;
}
