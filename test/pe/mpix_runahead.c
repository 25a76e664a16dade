/*
 * mpix_runahead.c: members run hundreds of MPI-style rooted calls ahead of a slow root, and
 * every result is still right.
 *
 * A gatherv member, a scatterv root and a reduce member leave a call as soon as their own part
 * is through (coll/engine.h, "Early return"). Here the calls follow each other with nothing
 * between them, and one PE (the root of the gathers and reduces, a member of the scatters)
 * stops for a millisecond every PAUSE_EVERY calls, so the others race far beyond the team's
 * 64 sync areas. Over tcp their messages then reach the slow PE before it gets to their
 * calls, and it holds them (transport/ucx_put_add.c, "Gates"); with a small SSHMEM_COLL_HOLD
 * the fast PEs also hit the limit and wait; with 0 they wait as on shared memory. Every call
 * carries data of its own, every source is rewritten the moment the call returns, and the
 * slow PE checks every element of every call. Then gathervs on two teams in turn, each with
 * its own slow root.
 *
 * sshmem-test: np=2 3 4 8
 * sshmem-test-env: np=2,4 paths=tcp SSHMEM_COLL_HOLD=4K
 * sshmem-test-env: np=3 paths=tcp SSHMEM_COLL_HOLD=0
 * sshmem-test-env: np=12 paths=tcp
 * (gathers up the tree, src/mpix/tree.c: a member's message waits at its parent, not the root)
 * sshmem-test-env: np=4,13 paths=ucx,tcp SSHMEM_COLL_EXCHANGE=tree
 * sshmem-test-env: np=4 paths=tcp SSHMEM_COLL_EXCHANGE=tree SSHMEM_COLL_HOLD=4K
 */
#include <shmemx.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

#define CALLS 1500     /* of each kind, back to back */
#define PAUSE_EVERY 250
#define MAXPES 64
#define BLOCK 2        /* ints per member: the 8-byte case */

static int me, npes;
static int *gdest, *sdest; /* symmetric */

static int val(int call, int kind, int i, int k)
{
    return ((call * 8 + kind) * MAXPES + i) * 8 + k;
}

static void pause_now_and_then(int call, int slow)
{
    if (me == slow && call % PAUSE_EVERY == PAUSE_EVERY - 1) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

/* gatherv to PE 0 (the slow one): BLOCK ints from each, in member order. */
static void gathervs(void)
{
    size_t counts[MAXPES], displs[MAXPES];
    int src[BLOCK];
    for (int i = 0; i < npes; i++) {
        counts[i] = BLOCK;
        displs[i] = (size_t)i * BLOCK;
    }
    for (int call = 0; call < CALLS; call++) {
        for (int k = 0; k < BLOCK; k++)
            src[k] = val(call, 0, me, k);
        pause_now_and_then(call, 0);
        shmemx_gatherv(SHMEM_TEAM_WORLD, gdest, src, BLOCK, counts, displs, SHMEMX_INT, 0);
        src[0] = src[1] = -1; /* reusable at once */
        if (me != 0)
            continue;
        for (int i = 0; i < npes; i++)
            for (int k = 0; k < BLOCK; k++)
                CHECK(gdest[i * BLOCK + k] == val(call, 0, i, k),
                      "gatherv %d: from PE %d [%d] = %d", call, i, k, gdest[i * BLOCK + k]);
    }
}

/* gatherv on two teams in turn: the world to PE 0, the world backwards to its member 0 (PE
 * npes - 1). Both roots pause now and then, so each PE holds messages for two teams (two
 * progress words) at once. */
static void two_teams(shmem_team_t back)
{
    size_t counts[MAXPES], displs[MAXPES];
    int src[BLOCK];
    const int me_back = shmem_team_my_pe(back);
    for (int i = 0; i < npes; i++) {
        counts[i] = BLOCK;
        displs[i] = (size_t)i * BLOCK;
    }
    for (int call = 0; call < CALLS; call++) {
        const int kind = 4 + call % 2;
        shmem_team_t team = call % 2 ? back : SHMEM_TEAM_WORLD;
        const int t_me = call % 2 ? me_back : me;
        for (int k = 0; k < BLOCK; k++)
            src[k] = val(call, kind, t_me, k);
        pause_now_and_then(call, 0);
        pause_now_and_then(call + PAUSE_EVERY / 2, npes - 1);
        shmemx_gatherv(team, gdest, src, BLOCK, counts, displs, SHMEMX_INT, 0);
        src[0] = src[1] = -1;
        if (t_me != 0)
            continue;
        for (int i = 0; i < npes; i++)
            for (int k = 0; k < BLOCK; k++)
                CHECK(gdest[i * BLOCK + k] == val(call, kind, i, k),
                      "gatherv %d on team %s: from member %d [%d] = %d", call,
                      call % 2 ? "backwards" : "world", i, k, gdest[i * BLOCK + k]);
    }
}

/* scatterv from the last PE: the fast root runs ahead of PE 0, which pauses. */
static void scattervs(void)
{
    const int root = npes - 1;
    size_t counts[MAXPES], displs[MAXPES];
    int src[MAXPES * BLOCK];
    for (int i = 0; i < npes; i++) {
        counts[i] = BLOCK;
        displs[i] = (size_t)(npes - 1 - i) * BLOCK; /* reversed */
    }
    for (int call = 0; call < CALLS; call++) {
        if (me == root)
            for (int i = 0; i < npes; i++)
                for (int k = 0; k < BLOCK; k++)
                    src[displs[i] + k] = val(call, 1, i, k);
        sdest[0] = sdest[1] = sdest[2] = -5;
        pause_now_and_then(call, 0);
        shmemx_scatterv(SHMEM_TEAM_WORLD, sdest, src, counts, displs, BLOCK, SHMEMX_INT, root);
        if (me == root)
            for (int i = 0; i < npes * BLOCK; i++)
                src[i] = -1;
        for (int k = 0; k < BLOCK; k++)
            CHECK(sdest[k] == val(call, 1, me, k), "scatterv %d: to PE %d [%d] = %d", call, me,
                  k, sdest[k]);
        CHECK(sdest[BLOCK] == -5, "scatterv %d: wrote past PE %d's block", call, me);
    }
}

/* A sum of one long to PE 0 (the small reduce gathered at the root). */
static void reduces(void)
{
    for (int call = 0; call < CALLS; call++) {
        long s = val(call, 2, me, 0), d = -7;
        pause_now_and_then(call, 0);
        shmemx_reduce(SHMEM_TEAM_WORLD, &d, &s, 1, SHMEMX_LONG, SHMEMX_SUM, 0);
        long want = -7;
        if (me == 0) {
            want = 0;
            for (int i = 0; i < npes; i++)
                want += val(call, 2, i, 0);
        }
        CHECK(d == want, "reduce %d on PE %d: %ld, want %ld", call, me, d, want);
    }
}

int main(void)
{
    if (!check_start(MAXPES))
        return CHECK_SKIP;
    me = shmem_my_pe();
    npes = shmem_n_pes();
    gdest = shmem_malloc(MAXPES * BLOCK * sizeof(int));
    sdest = shmem_malloc(8 * sizeof(int));
    gathervs();
    scattervs();
    reduces();
    gathervs(); /* again, right after the reduces: mixed kinds of calls in flight */
    shmem_team_t back;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &back) == 0,
          "split of the world backwards");
    two_teams(back);
    shmem_team_destroy(back);
    shmem_barrier_all();
    shmem_free(gdest);
    shmem_free(sdest);
    int rc = check_finish();
    shmem_finalize();
    return rc;
}
