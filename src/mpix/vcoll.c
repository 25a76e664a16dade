/*
 * vcoll.c: shmemx_gatherv, shmemx_scatterv, shmemx_allgatherv, shmemx_alltoallv and their
 * regular forms shmemx_gather, _scatter, _allgather, _alltoall (count elements per PE, PE i's
 * block at i * count elements): each routine's checks and its description as an exchange of
 * typed blocks (exchange.h). A regular form is its v-form with the layout computed instead of
 * read from arrays (sides.h): one function per pattern serves both.
 *
 * SHMEMX_IN_PLACE: the in-place PE's own block is already where it belongs (in dest for
 * gatherv's root and allgatherv, in source for scatterv's root): the exchange sends it from
 * there and skips the copy to itself.
 */
#include <stdlib.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "mpix/coll.h"
#include "mpix/exchange.h"
#include "team/team.h"

/* The origin of a side's block for member i. */
static const char *block_of(const mpix_side_t *s, int i, shmemx_datatype_t type)
{
    return s->origin + (ptrdiff_t)mpix_side_displ(s, i) * mpix_extent(type);
}

SSHMEM_COLD static void in_place_not_root(const char *call, const char *arg, int root)
{
    sshmem_fatal(call, "%s is SHMEMX_IN_PLACE on a PE that is not the root (%d); only the root "
                 "may pass it: the other PEs pass their own buffer", arg, root);
}

/* The receive regions of side r share no byte (displs_arg names its displacements). Regular
 * blocks overlap only where the type's elements do: only then are there arrays made to check. */
static void check_regions(const mpix_side_t *r, shmemx_datatype_t type, int n,
                          const char *displs_arg, const char *call)
{
    if (r->counts) {
        mpix_check_counts(r->counts, n, r->name, call);
        mpix_check_overlap(type, n, r->counts, r->displs, r->name, displs_arg, call);
        return;
    }
    if (type->flags & MPIX_CONTIG)
        return;
    size_t *counts = malloc(2 * (size_t)n * sizeof *counts);
    if (!counts)
        sshmem_fatal(call, "out of memory for %d counts", n);
    for (int i = 0; i < n; i++) {
        counts[i] = r->count;
        counts[n + i] = (size_t)i * r->count;
    }
    mpix_check_overlap(type, n, counts, counts + n, r->name, "displacement", call);
    free(counts);
}

/* The send side's blocks for every member may be read (a root's, or alltoallv's). */
static void check_sources(const mpix_side_t *s, shmemx_datatype_t type, int n,
                          const char *displs_arg, const char *call)
{
    if (s->counts) {
        mpix_check_counts(s->counts, n, s->name, call);
        mpix_check_counts(s->displs, n, displs_arg, call);
    }
    for (int i = 0; i < n; i++)
        mpix_check_buf(s->origin, mpix_side_count(s, i), type, "source", call);
}

/* Gather: recv describes the root's dest (its blocks from every member), count this PE's. */
static int gather(shmem_team_t team, mpix_side_t *recv, const void *source, size_t count,
                  shmemx_datatype_t type, int root, const char *call)
{
    const struct sshmem_team *t = mpix_coll_enter(team, type, count, recv->peer_name, call);
    mpix_check_root(t, root, call);
    mpix_side_t send = {source, NULL, NULL, count, 0, root, recv->peer_name, NULL};
    recv->peer = MPIX_X_NONE;
    if (t->my_index == root) {
        check_regions(recv, type, t->pes.size, "displs", call);
        recv->peer = MPIX_X_ALL;
        if (source == SHMEMX_IN_PLACE) {
            send.origin = block_of(recv, root, type);
            send.count = mpix_side_count(recv, root);
        }
    } else if (source == SHMEMX_IN_PLACE) {
        in_place_not_root(call, "source", root);
    }
    mpix_check_buf(send.origin, send.count, type, "source", call);
    mpix_exchange(team, &send, recv, type, 1, call);
    return SHMEMX_SUCCESS;
}

/* Scatter: send describes the root's source (its blocks for every member), count this PE's. */
static int scatter(shmem_team_t team, void *dest, mpix_side_t *send, size_t count,
                   shmemx_datatype_t type, int root, const char *peer_name, const char *call)
{
    const char *name = send->counts ? "recvcount" : "count";
    const struct sshmem_team *t = mpix_coll_enter(team, type, count, name, call);
    mpix_check_root(t, root, call);
    mpix_side_t recv = {dest, NULL, NULL, count, 0, root, name, peer_name};
    send->peer = MPIX_X_NONE;
    if (t->my_index == root) {
        check_sources(send, type, t->pes.size, "displs", call);
        send->peer = MPIX_X_ALL;
        if (dest == SHMEMX_IN_PLACE) {
            recv.origin = block_of(send, root, type);
            recv.count = mpix_side_count(send, root);
        }
    } else if (dest == SHMEMX_IN_PLACE) {
        in_place_not_root(call, "dest", root);
    }
    mpix_check_buf(recv.origin, recv.count, type, "dest", call);
    mpix_exchange(team, send, &recv, type, 1, call);
    return SHMEMX_SUCCESS;
}

/* Allgather: recv describes every PE's dest, count this PE's block. */
static int allgather(shmem_team_t team, mpix_side_t *recv, const void *source, size_t count,
                     shmemx_datatype_t type, const char *call)
{
    const struct sshmem_team *t = mpix_coll_enter(team, type, count, recv->peer_name, call);
    check_regions(recv, type, t->pes.size, "displs", call);
    mpix_side_t send = {source, NULL, NULL, count, 0, MPIX_X_ALL, recv->peer_name, NULL};
    if (source == SHMEMX_IN_PLACE) {
        send.origin = block_of(recv, t->my_index, type);
        send.count = mpix_side_count(recv, t->my_index);
    }
    mpix_check_buf(send.origin, send.count, type, "source", call);
    mpix_exchange(team, &send, recv, type, 0, call);
    return SHMEMX_SUCCESS;
}

static int alltoall(shmem_team_t team, const mpix_side_t *recv, const mpix_side_t *send,
                    shmemx_datatype_t type, const char *call)
{
    const struct sshmem_team *t = mpix_coll_enter(team, type, send->count, "count", call);
    check_sources(send, type, t->pes.size, "sdispls", call);
    check_regions(recv, type, t->pes.size, "rdispls", call);
    mpix_exchange(team, send, recv, type, 0, call);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_gatherv,
              (shmem_team_t team, void *dest, const void *source, size_t sendcount,
               const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type,
               int root))
{
    mpix_side_t recv = {dest, recvcounts, displs, 0, 0, 0, "recvcounts", "sendcount"};
    return gather(team, &recv, source, sendcount, type, root, "shmemx_gatherv");
}

SSHMEM_DEFINE(int, shmemx_gather, (shmem_team_t team, void *dest, const void *source,
                                   size_t count, shmemx_datatype_t type, int root))
{
    mpix_side_t recv = {dest, NULL, NULL, count, 1, 0, "count", "count"};
    return gather(team, &recv, source, count, type, root, "shmemx_gather");
}

SSHMEM_DEFINE(int, shmemx_scatterv,
              (shmem_team_t team, void *dest, const void *source, const size_t sendcounts[],
               const size_t displs[], size_t recvcount, shmemx_datatype_t type, int root))
{
    mpix_side_t send = {source, sendcounts, displs, 0, 0, 0, "sendcounts", NULL};
    return scatter(team, dest, &send, recvcount, type, root, "sendcounts[%d]",
                   "shmemx_scatterv");
}

SSHMEM_DEFINE(int, shmemx_scatter, (shmem_team_t team, void *dest, const void *source,
                                    size_t count, shmemx_datatype_t type, int root))
{
    mpix_side_t send = {source, NULL, NULL, count, 1, 0, "count", NULL};
    return scatter(team, dest, &send, count, type, root, "count", "shmemx_scatter");
}

SSHMEM_DEFINE(int, shmemx_allgatherv,
              (shmem_team_t team, void *dest, const void *source, size_t sendcount,
               const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type))
{
    mpix_side_t recv = {dest, recvcounts, displs, 0, 0, MPIX_X_ALL, "recvcounts", "sendcount"};
    return allgather(team, &recv, source, sendcount, type, "shmemx_allgatherv");
}

SSHMEM_DEFINE(int, shmemx_allgather, (shmem_team_t team, void *dest, const void *source,
                                      size_t count, shmemx_datatype_t type))
{
    mpix_side_t recv = {dest, NULL, NULL, count, 1, MPIX_X_ALL, "count", "count"};
    return allgather(team, &recv, source, count, type, "shmemx_allgather");
}

SSHMEM_DEFINE(int, shmemx_alltoallv,
              (shmem_team_t team, void *dest, const size_t recvcounts[], const size_t rdispls[],
               const void *source, const size_t sendcounts[], const size_t sdispls[],
               shmemx_datatype_t type))
{
    const mpix_side_t send = {source, sendcounts, sdispls, 0, 0, MPIX_X_ALL, "sendcounts", NULL};
    const mpix_side_t recv = {dest, recvcounts, rdispls, 0, 0, MPIX_X_ALL, "recvcounts",
                              "sendcounts[%d]"};
    return alltoall(team, &recv, &send, type, "shmemx_alltoallv");
}

SSHMEM_DEFINE(int, shmemx_alltoall, (shmem_team_t team, void *dest, const void *source,
                                     size_t count, shmemx_datatype_t type))
{
    const mpix_side_t send = {source, NULL, NULL, count, 1, MPIX_X_ALL, "count", NULL};
    const mpix_side_t recv = {dest, NULL, NULL, count, 1, MPIX_X_ALL, "count", "count"};
    return alltoall(team, &recv, &send, type, "shmemx_alltoall");
}
