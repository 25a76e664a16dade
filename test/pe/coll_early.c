/*
 * coll_early.c: collectives whose PEs return as soon as their own part is done (a broadcast
 * root, a member that has its data) stay right when calls follow each other at once. Many
 * back-to-back broadcasts and reductions, the root turning every call, the data different
 * every call, every PE rewriting its source the moment a call returns, and every element of
 * every result checked on every PE right after the call that made it:
 *  - active sets (shmem_broadcast64, shmem_long_sum_to_all) alternating two pSync (and pWrk)
 *    arrays and two dest buffers; a pSync is used again only after a shmem_barrier on
 *    another pSync, exactly as the specification allows (the reductions also without it,
 *    which the engine allows for every algorithm that does not return early: engine.h);
 *    then one pSync for every call, with a barrier between;
 *  - teams (shmem_long_broadcast, shmem_long_sum_reduce, shmem_long_fcollect) on the world
 *    team and on a team of every other PE, back to back with nothing between the calls (the
 *    team's sync areas alternate inside the library), dest alternating between two buffers.
 * Sizes: 1 and 3 elements (the linear and shared-memory paths) and 2100 elements (above the
 * 16 KiB switch to the large-data algorithms).
 *
 * sshmem-test: np=1 2 3 4 5 8
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=linear SSHMEM_COLL_REDUCE=shm SSHMEM_COLL_BARRIER=dissem
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=coop SSHMEM_COLL_REDUCE=shmrs SSHMEM_COLL_BARRIER=flat
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=binomial SSHMEM_COLL_REDUCE=rd SSHMEM_COLL_FCOLLECT=bruck
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=knomial SSHMEM_COLL_REDUCE=rsag SSHMEM_COLL_FCOLLECT=bruck
 * sshmem-test-env: np=4 paths=ucx,tcp SSHMEM_COLL_BCAST=linear SSHMEM_COLL_REDUCE=rd SSHMEM_COLL_BARRIER=flat
 * sshmem-test-env: np=5 paths=tcp SSHMEM_COLL_BCAST=knomial SSHMEM_COLL_REDUCE=rsag SSHMEM_COLL_FCOLLECT=linear
 * sshmem-test-env: np=5,8 paths=direct SSHMEM_PES_PER_NODE=3
 */
#include <stdint.h>

#include "check.h"


#define ITERS 40
#define MAXN 2100

static long psync[2][SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[2][MAXN / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long spare_psync[SHMEM_BARRIER_SYNC_SIZE];
static int me, npes;
static long *src, *dst; /* symmetric: src MAXN, dst 2 x npes x MAXN */

/* Element i that member k contributes to call it of a test (tag keeps tests apart). */
static long value(int tag, int it, int k, size_t i)
{
    return (long)tag * 100000000L + (long)it * 100000L + (long)k * 1000L + (long)(i % 997);
}

static void fill_source(int tag, int it, int k, size_t n)
{
    for (size_t i = 0; i < n; i++)
        src[i] = value(tag, it, k, i);
}

/* Sum over members 0..m-1 of value(tag, it, k, i). */
static long sum_of(int tag, int it, int m, size_t i)
{
    long s = 0;
    for (int k = 0; k < m; k++)
        s += value(tag, it, k, i);
    return s;
}

/* ------------------------------------------------------------------ active sets */

static void as_broadcast(size_t n, int same_psync)
{
    int tag = same_psync ? 2 : 1;
    fill_source(tag, 0, me, n);
    shmem_barrier_all();
    for (int it = 0; it < ITERS; it++) {
        int root = it % npes, k = same_psync ? 0 : it & 1;
        long *out = dst + (size_t)(it & 1) * MAXN;
        shmem_broadcast64(out, src, n, root, 0, 0, npes, psync[k]);
        fill_source(tag, it + 1, me, n); /* the source may be reused at once */
        for (size_t i = 0; me != root && i < n; i++)
            CHECK_EQ_LONG(out[i], value(tag, it, root, i), "active-set broadcast");
        /* Before a pSync is used again, every call that used it must have completed on
         * every PE (the specification's rule; the early broadcast relies on it). */
        if (same_psync || (it & 1))
            shmem_barrier(0, 0, npes, spare_psync);
    }
    shmem_barrier_all();
}

static void as_reduce(size_t n, int same_psync)
{
    int tag = same_psync ? 4 : 3;
    fill_source(tag, 0, me, n);
    shmem_barrier_all();
    for (int it = 0; it < ITERS; it++) {
        int k = same_psync ? 0 : it & 1;
        long *out = dst + (size_t)(it & 1) * MAXN;
        shmem_long_sum_to_all(out, src, (int)n, 0, 0, npes, pwrk[k], psync[k]);
        fill_source(tag, it + 1, me, n);
        for (size_t i = 0; i < n; i++)
            CHECK_EQ_LONG(out[i], sum_of(tag, it, npes, i), "active-set sum_to_all");
        if (same_psync)
            shmem_barrier(0, 0, npes, spare_psync);
    }
    shmem_barrier_all();
}

/* ------------------------------------------------------------------ teams */

static void team_calls(shmem_team_t team, size_t n)
{
    if (team == SHMEM_TEAM_INVALID)
        return;
    int tme = shmem_team_my_pe(team), tn = shmem_team_n_pes(team);
    fill_source(5, 0, tme, n);
    shmem_team_sync(team);
    for (int it = 0, call = 0; it < ITERS; it++) {
        long *out;
        for (int b = 0; b < 3; b++) { /* early calls back to back: only the library paces them */
            int root = (it * 3 + b) % tn;
            out = dst + (size_t)(call++ & 1) * npes * MAXN;
            shmem_long_broadcast(team, out, src, n, root);
            fill_source(b < 2 ? 5 : 6, b < 2 ? it * 3 + b + 1 : it, tme, n);
            for (size_t i = 0; i < n; i++)
                CHECK_EQ_LONG(out[i], value(5, it * 3 + b, root, i), "team broadcast");
        }
        out = dst + (size_t)(call++ & 1) * npes * MAXN;
        shmem_long_sum_reduce(team, out, src, n);
        fill_source(7, it, tme, n);
        for (size_t i = 0; i < n; i++)
            CHECK_EQ_LONG(out[i], sum_of(6, it, tn, i), "team sum_reduce");
        out = dst + (size_t)(call++ & 1) * npes * MAXN;
        shmem_long_fcollect(team, out, src, n);
        fill_source(5, it * 3 + 3, tme, n);
        for (int k = 0; k < tn; k++)
            for (size_t i = 0; i < n; i++)
                CHECK_EQ_LONG(out[(size_t)k * n + i], value(7, it, k, i), "team fcollect");
    }
    shmem_team_sync(team);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        spare_psync[i] = SHMEM_SYNC_VALUE;
    src = shmem_malloc(MAXN * sizeof(long));
    dst = shmem_malloc(2 * (size_t)npes * MAXN * sizeof(long));
    shmem_team_t half = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &half);
    shmem_barrier_all(); /* every pSync initialised */

    const size_t sizes[] = {1, 3, MAXN};
    for (int z = 0; z < 3; z++) {
        size_t n = sizes[z];
        as_broadcast(n, 0);
        as_reduce(n, 0);
        as_broadcast(n, 1);
        as_reduce(n, 1);
        team_calls(SHMEM_TEAM_WORLD, n);
        team_calls(half, n);
        shmem_barrier_all();
    }
    if (half != SHMEM_TEAM_INVALID)
        shmem_team_destroy(half);
    shmem_free(dst);
    shmem_free(src);
    return check_finish();
}
