/*
 * coll_dest_alternate.c: back-to-back team collectives with nothing between them but the
 * check of each result, their dest arrays two used alternately (doc/collectives.md: a PE
 * may still read its result of one call while a faster PE already writes its next one, so
 * one dest reused at once needs a sync between; two alternately need none). fcollect,
 * collect, broadcast from a root that moves, alltoall and a small sum, each many times in a
 * row, on the world team and on a split copy of it; every element checked on every PE.
 *
 * sshmem-test: np=1 2 3 4 8
 * sshmem-test-env: np=6 paths=tcp
 * sshmem-test-env: np=6 paths=direct SSHMEM_PES_PER_NODE=2 UCX_TLS=tcp,self
 * sshmem-test-env: np=8 paths=direct,tcp SSHMEM_PES_PER_NODE=3 SSHMEM_COLL_FCOLLECT=hier
 */
#include <shmem.h>

#include "check.h"

#define ITERS 200
#define MAXPES 64
#define BLOCK 4 /* longs per PE */

static long value(int it, int from, int k) { return ((long)it << 24) + from * 64 + k; }

static void fcollects(shmem_team_t team, long *dest[2], long *src)
{
    const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    for (int it = 0; it < ITERS; it++) {
        long *d = dest[it & 1];
        for (int k = 0; k < BLOCK; k++)
            src[k] = value(it, me, k);
        shmem_long_fcollect(team, d, src, BLOCK);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < BLOCK; k++)
                CHECK(d[i * BLOCK + k] == value(it, i, k), "fcollect it %d: [%d][%d] = %ld",
                      it, i, k, d[i * BLOCK + k]);
    }
}

/* PE i gives (i + it) % 3 + 1 longs. */
static int given(int it, int i) { return (i + it) % 3 + 1; }

static void collects(shmem_team_t team, long *dest[2], long *src)
{
    const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    for (int it = 0; it < ITERS; it++) {
        long *d = dest[it & 1];
        for (int k = 0; k < given(it, me); k++)
            src[k] = value(it, me, k);
        shmem_long_collect(team, d, src, (size_t)given(it, me));
        for (int i = 0, at = 0; i < n; at += given(it, i), i++)
            for (int k = 0; k < given(it, i); k++)
                CHECK(d[at + k] == value(it, i, k), "collect it %d: PE %d's [%d] = %ld", it, i,
                      k, d[at + k]);
    }
}

static void broadcasts(shmem_team_t team, long *dest[2], long *src)
{
    const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    for (int it = 0; it < ITERS; it++) {
        long *d = dest[it & 1];
        const int root = it % n;
        for (int k = 0; k < BLOCK; k++)
            src[k] = value(it, me, k);
        shmem_long_broadcast(team, d, src, BLOCK, root);
        for (int k = 0; k < BLOCK; k++)
            CHECK(d[k] == value(it, root, k), "broadcast it %d from %d: [%d] = %ld", it, root,
                  k, d[k]);
    }
}

static void alltoalls(shmem_team_t team, long *dest[2], long *src)
{
    const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    for (int it = 0; it < ITERS; it++) {
        long *d = dest[it & 1];
        for (int j = 0; j < n; j++)
            src[2 * j] = value(it, me, j), src[2 * j + 1] = -value(it, me, j);
        shmem_long_alltoall(team, d, src, 2);
        for (int i = 0; i < n; i++)
            CHECK(d[2 * i] == value(it, i, me) && d[2 * i + 1] == -value(it, i, me),
                  "alltoall it %d: from PE %d = %ld, %ld", it, i, d[2 * i], d[2 * i + 1]);
    }
}

static void sums(shmem_team_t team, long *dest[2], long *src)
{
    const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    for (int it = 0; it < ITERS; it++) {
        long *d = dest[it & 1];
        for (int k = 0; k < BLOCK; k++)
            src[k] = value(it, me, k);
        shmem_long_sum_reduce(team, d, src, BLOCK);
        for (int k = 0; k < BLOCK; k++) {
            long want = 0;
            for (int i = 0; i < n; i++)
                want += value(it, i, k);
            CHECK(d[k] == want, "sum it %d: [%d] = %ld, want %ld", it, k, d[k], want);
        }
    }
}

static void run(shmem_team_t team, long *dest[2], long *src)
{
    fcollects(team, dest, src);
    collects(team, dest, src);
    broadcasts(team, dest, src);
    alltoalls(team, dest, src);
    sums(team, dest, src);
}

int main(void)
{
    if (!check_start(MAXPES))
        return CHECK_SKIP;
    const size_t room = (size_t)MAXPES * BLOCK * sizeof(long);
    long *dest[2] = {shmem_malloc(room), shmem_malloc(room)};
    long *src = shmem_malloc(room);
    run(SHMEM_TEAM_WORLD, dest, src);
    shmem_team_t dup;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &dup);
    shmem_barrier_all(); /* the world calls' last writes are in before dup's first ones */
    run(dup, dest, src);
    shmem_team_destroy(dup);
    shmem_free(src);
    shmem_free(dest[1]);
    shmem_free(dest[0]);
    return check_finish();
}
