/*
 * vcoll.c: shmemx_gatherv, shmemx_scatterv, shmemx_allgatherv, shmemx_alltoallv.
 *
 * Data moves one-sided, straight into the symmetric destination with the type's layout
 * (typed puts, no staging copy). Small control messages on the channels (channel.h) carry
 * what only one side knows (the root's displacement for a PE, a receiver's count), tell a
 * sender that its receiver has entered the call (so dest is written only while its owner is
 * inside, as in MPI), and say "done": a channel message is ordered after the puts to the same
 * PE (mpix_settle), so no flush of all outstanding operations is needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "mpix/channel.h"
#include "mpix/coll.h"
#include "mpix/typed_rma.h"

static char *at(void *base, int64_t displ, shmemx_datatype_t type)
{
    return (char *)base + (ptrdiff_t)displ * mpix_extent(type);
}

static const char *cat(const void *base, int64_t displ, shmemx_datatype_t type)
{
    return (const char *)base + (ptrdiff_t)displ * mpix_extent(type);
}

/* "counts[3]" for messages. */
static const char *index_name(char buf[32], const char *array, int i)
{
    snprintf(buf, 32, "%s[%d]", array, i);
    return buf;
}

/* Dissemination barrier over the team on the channels (empty messages). */
static void team_barrier(const mpix_team_t *t)
{
    for (int d = 1; d < t->n; d <<= 1)
        mpix_sendrecv(mpix_pe(t, (t->me + d) % t->n), NULL, 0,
                      mpix_pe(t, (t->me - d + t->n) % t->n), NULL, 0);
}

SSHMEM_DEFINE(int, shmemx_gatherv,
              (shmem_team_t team, void *dest, const void *source, size_t sendcount,
               const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type,
               int root))
{
    const char *call = "shmemx_gatherv";
    char name[32];
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, sendcount, "sendcount", call);
    mpix_check_symmetric(dest, call);
    mpix_check_root(&t, root, call);
    mpix_check_buf(source, sendcount, type, "source", call);
    if (t.me != root) {
        /* Wait for the root: it is inside the call and says where our block goes. */
        mpix_ctl_t ctl;
        mpix_recv(mpix_pe(&t, root), &ctl, sizeof ctl);
        if ((int64_t)sendcount != ctl.count)
            mpix_count_mismatch(call, "sendcount", sendcount, root,
                                index_name(name, "recvcounts", t.me), ctl.count);
        mpix_check_buf(dest, sendcount, type, "dest", call);
        char *there = at(dest, ctl.displ, type);
        mpix_put_elems(SHMEM_CTX_DEFAULT, there, source, sendcount, type, mpix_pe(&t, root), 1,
                       call);
        mpix_settle(mpix_pe(&t, root), there);
        mpix_send(mpix_pe(&t, root), NULL, 0);
        return SHMEMX_SUCCESS;
    }
    mpix_check_counts(recvcounts, t.n, "recvcounts", call);
    mpix_check_overlap(type, t.n, recvcounts, displs, "recvcounts", "displs", call);
    if (sendcount != recvcounts[root])
        mpix_count_mismatch(call, "sendcount", sendcount, root, index_name(name, "recvcounts", root),
                            (long long)recvcounts[root]);
    for (int i = 0; i < t.n; i++)
        if (i != root) {
            mpix_ctl_t ctl = {(int64_t)displs[i], (int64_t)recvcounts[i]};
            mpix_send(mpix_pe(&t, i), &ctl, sizeof ctl);
        }
    mpix_check_buf(dest, sendcount, type, "dest", call);
    mpix_copy_elems(at(dest, displs[root], type), source, sendcount, type);
    for (int i = 0; i < t.n; i++)
        if (i != root)
            mpix_recv(mpix_pe(&t, i), NULL, 0);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_scatterv,
              (shmem_team_t team, void *dest, const void *source, const size_t sendcounts[],
               const size_t displs[], size_t recvcount, shmemx_datatype_t type, int root))
{
    const char *call = "shmemx_scatterv";
    char name[32];
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, recvcount, "recvcount", call);
    mpix_check_symmetric(dest, call);
    mpix_check_root(&t, root, call);
    mpix_check_buf(dest, recvcount, type, "dest", call);
    if (t.me != root) {
        /* Tell the root we are inside (dest may be written) and how much we expect. */
        mpix_ctl_t ctl = {0, (int64_t)recvcount};
        mpix_send(mpix_pe(&t, root), &ctl, sizeof ctl);
        mpix_recv(mpix_pe(&t, root), NULL, 0);
        return SHMEMX_SUCCESS;
    }
    mpix_check_counts(sendcounts, t.n, "sendcounts", call);
    mpix_check_counts(displs, t.n, "displs", call);
    if (recvcount != sendcounts[root])
        mpix_count_mismatch(call, "recvcount", recvcount, root, index_name(name, "sendcounts", root),
                            (long long)sendcounts[root]);
    for (int i = 0; i < t.n; i++)
        mpix_check_buf(source, sendcounts[i], type, "source", call);
    for (int i = 0; i < t.n; i++) {
        if (i == root)
            continue;
        mpix_ctl_t ctl;
        mpix_recv(mpix_pe(&t, i), &ctl, sizeof ctl);
        if ((size_t)ctl.count != sendcounts[i])
            mpix_count_mismatch(call, index_name(name, "sendcounts", i), sendcounts[i], i,
                                "recvcount", ctl.count);
        mpix_put_elems(SHMEM_CTX_DEFAULT, dest, cat(source, displs[i], type),
                       sendcounts[i], type, mpix_pe(&t, i), 1, call);
        mpix_settle(mpix_pe(&t, i), dest);
        mpix_send(mpix_pe(&t, i), NULL, 0);
    }
    mpix_copy_elems(dest, cat(source, displs[root], type), recvcount, type);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_allgatherv,
              (shmem_team_t team, void *dest, const void *source, size_t sendcount,
               const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type))
{
    const char *call = "shmemx_allgatherv";
    char name[32];
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, sendcount, "sendcount", call);
    mpix_check_symmetric(dest, call);
    mpix_check_buf(source, sendcount, type, "source", call);
    mpix_check_counts(recvcounts, t.n, "recvcounts", call);
    mpix_check_overlap(type, t.n, recvcounts, displs, "recvcounts", "displs", call);
    if (sendcount != recvcounts[t.me])
        mpix_count_mismatch(call, "sendcount", sendcount, t.me,
                            index_name(name, "recvcounts", t.me), (long long)recvcounts[t.me]);
    mpix_check_buf(dest, sendcount, type, "dest", call);
    team_barrier(&t); /* everyone is inside: every dest may be written */
    char *mine = at(dest, displs[t.me], type);
    for (int k = 1; k < t.n; k++) { /* start with the next PE: not all at PE 0 at once */
        int pe = mpix_pe(&t, (t.me + k) % t.n);
        mpix_put_elems(SHMEM_CTX_DEFAULT, mine, source, sendcount, type, pe, 1, call);
        mpix_settle(pe, mine);
        mpix_send(pe, NULL, 0); /* done */
    }
    mpix_copy_elems(mine, source, sendcount, type);
    for (int k = 1; k < t.n; k++)
        mpix_recv(mpix_pe(&t, (t.me - k + t.n) % t.n), NULL, 0);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_alltoallv,
              (shmem_team_t team, void *dest, const size_t recvcounts[], const size_t rdispls[],
               const void *source, const size_t sendcounts[], const size_t sdispls[],
               shmemx_datatype_t type))
{
    const char *call = "shmemx_alltoallv";
    char name[32], theirs[32];
    mpix_team_t t;
    mpix_coll_enter(team, &t, type, 0, "count", call);
    mpix_check_symmetric(dest, call);
    mpix_check_counts(sendcounts, t.n, "sendcounts", call);
    mpix_check_counts(recvcounts, t.n, "recvcounts", call);
    mpix_check_counts(sdispls, t.n, "sdispls", call);
    mpix_check_overlap(type, t.n, recvcounts, rdispls, "recvcounts", "rdispls", call);
    for (int i = 0; i < t.n; i++) {
        mpix_check_buf(source, sendcounts[i], type, "source", call);
        mpix_check_buf(dest, recvcounts[i], type, "dest", call);
    }
    if (sendcounts[t.me] != recvcounts[t.me])
        mpix_count_mismatch(call, index_name(name, "sendcounts", t.me), sendcounts[t.me], t.me,
                            index_name(theirs, "recvcounts", t.me), (long long)recvcounts[t.me]);
    /* Tell every sender where its block goes here (and that we are inside the call). */
    for (int k = 1; k < t.n; k++) {
        int j = (t.me + k) % t.n;
        mpix_ctl_t ctl = {(int64_t)rdispls[j], (int64_t)recvcounts[j]};
        mpix_send(mpix_pe(&t, j), &ctl, sizeof ctl);
    }
    for (int k = 1; k < t.n; k++) {
        int j = (t.me - k + t.n) % t.n;
        mpix_ctl_t ctl;
        mpix_recv(mpix_pe(&t, j), &ctl, sizeof ctl);
        if ((size_t)ctl.count != sendcounts[j])
            mpix_count_mismatch(call, index_name(name, "sendcounts", j), sendcounts[j],
                                j, index_name(theirs, "recvcounts", t.me), ctl.count);
        char *there = at(dest, ctl.displ, type);
        mpix_put_elems(SHMEM_CTX_DEFAULT, there, cat(source, sdispls[j], type),
                       sendcounts[j], type, mpix_pe(&t, j), 1, call);
        mpix_settle(mpix_pe(&t, j), there);
    }
    mpix_copy_elems(at(dest, rdispls[t.me], type), cat(source, sdispls[t.me], type),
                    sendcounts[t.me], type);
    /* "done" only after every control message is in: a done sent to j waits until j has read
     * our control message, and j reads them all before sending any done itself. */
    for (int k = 1; k < t.n; k++)
        mpix_send(mpix_pe(&t, (t.me - k + t.n) % t.n), NULL, 0);
    for (int k = 1; k < t.n; k++)
        mpix_recv(mpix_pe(&t, (t.me - k + t.n) % t.n), NULL, 0);
    return SHMEMX_SUCCESS;
}
