/*
 * coll_stage_share.c: calls that share a team's stage follow each other at once and stay
 * right. Over tcp a team's message-passing reductions receive in its stage, and from 4
 * members small alltoalls (shmem_alltoallmem, shmemx_alltoallv) take Bruck's steps through
 * the same stage (src/coll/alltoall.c). A member that has left a reduction may already send
 * its first step while another member still combines what it received there, so a step's
 * message must wait at its target until the target has entered the alltoall (the gate of
 * coll_reach_this_call). With that gate removed by hand, this test fails or crashes at 4, 6,
 * 8 and 12 PEs. On the world team and on a split copy of it (a smaller stage). Every element
 * of every result is checked on every PE.
 *
 * sshmem-test: np=1 2 3 4 8
 * sshmem-test-env: np=6,12,13 paths=tcp
 * (a small SSHMEM_COLL_HOLD: members that run ahead wait instead of having their steps held)
 * sshmem-test-env: np=4 paths=tcp SSHMEM_COLL_HOLD=4K
 * sshmem-test-env: np=6 paths=direct SSHMEM_PES_PER_NODE=2 UCX_TLS=tcp,self
 */
#include <shmemx.h>

#include "check.h"

#define ITERS 300
#define MID 600 /* longs: a reduction beyond the small sizes, received in pieces */
#define MAXPES 64

static long want_sum(int it, int n, int k)
{
    long w = 0;
    for (int i = 0; i < n; i++)
        w += (long)it * 7 + i * 3 + k;
    return w;
}

static long pair(int it, int from, int to) { return ((long)it << 20) + from * MAXPES + to; }

/* ITERS rounds on team (all PEs, in world order): reductions, alltoallmem, alltoallv. */
static void run(shmem_team_t team, long *s, long *r, long *a, long *b, int *v)
{
    const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    int vsrc[MAXPES * 4];
    size_t sc[MAXPES], sd[MAXPES], rc[MAXPES], rd[MAXPES];
    for (int it = 0; it < ITERS; it++) {
        for (int k = 0; k < MID; k++)
            s[k] = (long)it * 7 + me * 3 + k;
        shmem_long_sum_reduce(team, r, s, MID);
        for (int k = 0; k < MID; k++)
            CHECK(r[k] == want_sum(it, n, k), "it %d: sum_reduce [%d] = %ld, want %ld", it, k,
                  r[k], want_sum(it, n, k));
        for (int j = 0; j < n; j++)
            a[j] = pair(it, me, j);
        shmem_alltoallmem(team, b, a, sizeof(long));
        for (int i = 0; i < n; i++)
            CHECK(b[i] == pair(it, i, me), "it %d: alltoallmem from PE %d = %ld", it, i, b[i]);
        /* shmemx_alltoallv: 0..3 ints from PE i to PE j, at 4 * j in the source */
        for (int j = 0; j < n; j++) {
            sc[j] = (size_t)(it + me + 2 * j) % 4;
            rc[j] = (size_t)(it + j + 2 * me) % 4;
            sd[j] = rd[j] = 4 * (size_t)j;
            for (size_t k = 0; k < sc[j]; k++)
                vsrc[sd[j] + k] = (int)pair(it, me, j) + (int)k;
        }
        shmem_long_sum_reduce(team, r, s, MID);
        for (int k = 0; k < MID; k++)
            CHECK(r[k] == want_sum(it, n, k), "it %d: second sum_reduce [%d] = %ld", it, k, r[k]);
        shmemx_alltoallv(team, v, rc, rd, vsrc, sc, sd, SHMEMX_INT);
        for (int i = 0; i < n; i++)
            for (size_t k = 0; k < rc[i]; k++)
                CHECK(v[rd[i] + k] == (int)pair(it, i, me) + (int)k,
                      "it %d: alltoallv from PE %d [%zu] = %d", it, i, k, v[rd[i] + k]);
    }
}

int main(void)
{
    if (!check_start(MAXPES))
        return CHECK_SKIP;
    const int npes = shmem_n_pes();
    long *s = shmem_malloc(MID * sizeof *s), *r = shmem_malloc(MID * sizeof *r);
    long *a = shmem_malloc(MAXPES * sizeof *a), *b = shmem_malloc(MAXPES * sizeof *b);
    int *v = shmem_malloc(MAXPES * 4 * sizeof *v);
    run(SHMEM_TEAM_WORLD, s, r, a, b, v);
    /* a split team: its stage is smaller (32 KiB), so the steps' regions are too */
    shmem_team_t dup;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &dup);
    run(dup, s, r, a, b, v);
    shmem_team_destroy(dup);
    shmem_free(v);
    shmem_free(b);
    shmem_free(a);
    shmem_free(r);
    shmem_free(s);
    return check_finish();
}
