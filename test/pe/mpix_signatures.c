/*
 * mpix_signatures.c (compiled with -Wall -Wextra -Werror, as C and, through
 * mpix_signatures_cxx.cc, as C++): a program written against the v-collective interface as it
 * was fixed compiles without a warning and runs. Each routine is bound to a pointer of exactly
 * the fixed type (any other parameter type or order is a diagnostic, an error here), then
 * called with size_t count and displacement arrays, alltoallv with the receive side before
 * the send side; every element is checked on every PE.
 */
#include <shmemx.h>

#include "check.h"

/* The interface, word for word. */
typedef int gatherv_fn(shmem_team_t team, void *dest, const void *source, size_t sendcount,
                       const size_t recvcounts[], const size_t displs[], shmemx_datatype_t type,
                       int root);
typedef int scatterv_fn(shmem_team_t team, void *dest, const void *source,
                        const size_t sendcounts[], const size_t displs[], size_t recvcount,
                        shmemx_datatype_t type, int root);
typedef int allgatherv_fn(shmem_team_t team, void *dest, const void *source, size_t sendcount,
                          const size_t recvcounts[], const size_t displs[],
                          shmemx_datatype_t type);
typedef int alltoallv_fn(shmem_team_t team, void *dest, const size_t recvcounts[],
                         const size_t rdispls[], const void *source, const size_t sendcounts[],
                         const size_t sdispls[], shmemx_datatype_t type);

static gatherv_fn *const gatherv = shmemx_gatherv;
static scatterv_fn *const scatterv = shmemx_scatterv;
static allgatherv_fn *const allgatherv = shmemx_allgatherv;
static alltoallv_fn *const alltoallv = shmemx_alltoallv;

enum { MAXPES = 64 };

/* PE i's value k in block i: distinct everywhere. */
static long val(int pe, size_t k) { return 1000L * pe + (long)k; }

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (npes > MAXPES) {
        fprintf(stderr, "mpix_signatures: at most %d PEs\n", MAXPES);
        return 1;
    }
    /* PE i has i + 1 elements; blocks in PE order, packed. */
    size_t counts[MAXPES], displs[MAXPES], total = 0;
    for (int i = 0; i < npes; i++) {
        counts[i] = (size_t)i + 1;
        displs[i] = total;
        total += counts[i];
    }
    long *dest = (long *)shmem_malloc(total * sizeof(long));
    long *all = (long *)malloc(total * sizeof(long)), src[MAXPES];
    for (size_t k = 0; k < counts[me]; k++)
        src[k] = val(me, k);
    for (int i = 0; i < npes; i++)
        for (size_t k = 0; k < counts[i]; k++)
            all[displs[i] + k] = val(i, k);

    int root = npes - 1;
    for (size_t p = 0; p < total; p++)
        dest[p] = -1;
    CHECK_EQ_LONG(gatherv(SHMEM_TEAM_WORLD, dest, src, counts[me], counts, displs, SHMEMX_LONG,
                          root), SHMEMX_SUCCESS, "gatherv status");
    for (size_t p = 0; p < total; p++)
        CHECK_EQ_LONG(dest[p], me == root ? all[p] : -1, "gatherv");
    shmem_barrier_all();

    for (size_t p = 0; p < total; p++)
        dest[p] = -1;
    CHECK_EQ_LONG(scatterv(SHMEM_TEAM_WORLD, dest, all, counts, displs, counts[me], SHMEMX_LONG,
                           root), SHMEMX_SUCCESS, "scatterv status");
    for (size_t p = 0; p < total; p++)
        CHECK_EQ_LONG(dest[p], p < counts[me] ? val(me, p) : -1, "scatterv");
    shmem_barrier_all();

    for (size_t p = 0; p < total; p++)
        dest[p] = -1;
    CHECK_EQ_LONG(allgatherv(SHMEM_TEAM_WORLD, dest, src, counts[me], counts, displs,
                             SHMEMX_LONG), SHMEMX_SUCCESS, "allgatherv status");
    for (size_t p = 0; p < total; p++)
        CHECK_EQ_LONG(dest[p], all[p], "allgatherv");
    shmem_barrier_all();

    /* alltoallv: one element to every PE (value 100 * me + j for PE j), received in reverse
     * PE order; the receive arrays come first. */
    size_t one[MAXPES], sd[MAXPES], rd[MAXPES];
    long a2a[MAXPES];
    for (int j = 0; j < npes; j++) {
        one[j] = 1;
        sd[j] = (size_t)j;
        rd[j] = (size_t)(npes - 1 - j);
        a2a[j] = 100L * me + j;
    }
    for (size_t p = 0; p < total; p++)
        dest[p] = -1;
    CHECK_EQ_LONG(alltoallv(SHMEM_TEAM_WORLD, dest, one, rd, a2a, one, sd, SHMEMX_LONG),
                  SHMEMX_SUCCESS, "alltoallv status");
    for (int j = 0; j < npes; j++)
        CHECK_EQ_LONG(dest[rd[j]], 100L * j + me, "alltoallv");
    for (size_t p = (size_t)npes; p < total; p++)
        CHECK_EQ_LONG(dest[p], -1, "alltoallv: beyond the received blocks");
    shmem_barrier_all();
    shmem_free(dest);
    free(all);
    return check_finish();
}
