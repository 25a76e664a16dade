/*
 * contexts.c: communication contexts: creation with every option, the team of a context,
 * puts, gets and atomics on heap and globals through contexts, completion by
 * shmem_ctx_quiet and by shmem_ctx_destroy, many contexts alive at once, create/destroy
 * cycles, session hints, and a context left for shmem_finalize to clean up.
 */
#include "check.h"

#define N 16
#define NCTX 8
#define MAX_PES 64

static long gdata[MAX_PES][N]; /* gdata[src][i] on every PE, written by PE src */
static long gcount;
static long gordered[N];       /* written by the previous PE before its flag (fence) */

static const long options[] = {
    0,
    SHMEM_CTX_SERIALIZED,
    SHMEM_CTX_PRIVATE,
    SHMEM_CTX_NOSTORE,
    SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE,
    SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE,
    SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE,
};
#define NOPTIONS (sizeof options / sizeof options[0])

static long value(int src, int round, int i) { return src * 1000000L + round * 1000L + i; }

static void check_teams(void)
{
    shmem_team_t team = SHMEM_TEAM_INVALID;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team) == 0 && team == SHMEM_TEAM_WORLD,
          "the default context is on SHMEM_TEAM_WORLD");
    team = SHMEM_TEAM_WORLD;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &team) != 0, "SHMEM_CTX_INVALID: nonzero");
    CHECK(team == SHMEM_TEAM_INVALID, "SHMEM_CTX_INVALID gives SHMEM_TEAM_INVALID");
    for (size_t o = 0; o < NOPTIONS; o++) {
        shmem_ctx_t ctx = SHMEM_CTX_INVALID;
        CHECK(shmem_ctx_create(options[o], &ctx) == 0, "create with options %ld", options[o]);
        CHECK(ctx != SHMEM_CTX_INVALID && ctx != SHMEM_CTX_DEFAULT, "a new handle");
        team = SHMEM_TEAM_INVALID;
        CHECK(shmem_ctx_get_team(ctx, &team) == 0 && team == SHMEM_TEAM_WORLD,
              "a created context is on SHMEM_TEAM_WORLD");
        shmem_ctx_destroy(ctx);
    }
    shmem_ctx_destroy(SHMEM_CTX_INVALID); /* no operation */
}

/* Round r: every PE writes its row of `heap` and of gdata on every PE through ctx, adds to
 * the counters, and reads back what it wrote to check gets. Completion: ctx quiet. */
static void exchange(shmem_ctx_t ctx, long *heap, long *count, int round)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long src[N], back[N];
    for (int i = 0; i < N; i++)
        src[i] = value(me, round, i);
    for (int k = 0; k < npes; k++) {
        int pe = (me + k) % npes;
        shmem_ctx_long_put(ctx, &heap[me * N], src, N, pe);
        shmem_ctx_long_put_nbi(ctx, gdata[me], src, N - 1, pe);
        shmem_ctx_long_p(ctx, &gdata[me][N - 1], src[N - 1], pe);
        shmem_ctx_long_atomic_add(ctx, count, 1, pe);
        (void)shmem_ctx_long_atomic_fetch_add(ctx, &gcount, 2, pe);
    }
    shmem_ctx_quiet(ctx);
    for (int k = 0; k < npes; k++) {
        int pe = (me + k) % npes;
        shmem_ctx_long_get(ctx, back, &heap[me * N], N, pe);
        for (int i = 0; i < N; i++)
            CHECK_EQ_LONG(back[i], src[i], "get through a context from the heap");
        shmem_ctx_long_get_nbi(ctx, back, gdata[me], N, pe);
        shmem_ctx_quiet(ctx);
        for (int i = 0; i < N; i++)
            CHECK_EQ_LONG(back[i], src[i], "get_nbi through a context from globals");
    }
}

static void check_exchange(const long *heap, long count, int round, int rounds_done)
{
    int npes = shmem_n_pes();
    for (int s = 0; s < npes; s++)
        for (int i = 0; i < N; i++) {
            CHECK_EQ_LONG(heap[s * N + i], value(s, round, i), "heap row from a context put");
            CHECK_EQ_LONG(gdata[s][i], value(s, round, i), "global row from a context put");
        }
    CHECK_EQ_LONG(count, (long)npes * rounds_done, "atomic adds through contexts");
    CHECK_EQ_LONG(gcount, 2L * npes * rounds_done, "fetch-adds on a global through contexts");
}

/* Fence on a context orders its puts to one PE: data (globals), fence, flag (heap). */
static void check_fence(void)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), prev = (me + npes - 1) % npes;
    long src[N], *flag = shmem_calloc(1, sizeof(long));
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "create");
    for (int i = 0; i < N; i++)
        src[i] = value(me, 77, i);
    shmem_ctx_long_put_nbi(ctx, gordered, src, N, (me + 1) % npes);
    shmem_ctx_fence(ctx);
    shmem_ctx_long_atomic_set(ctx, flag, 1, (me + 1) % npes);
    shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
    for (int i = 0; i < N; i++)
        CHECK_EQ_LONG(gordered[i], value(prev, 77, i), "data put before a fence, seen once "
                      "the flag put after it arrived");
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    shmem_free(flag);
}

int main(void)
{
    shmem_init();
    int npes = shmem_n_pes(), me = shmem_my_pe();
    if (npes > MAX_PES) {
        if (me == 0)
            printf("SKIP: at most %d PEs\n", MAX_PES);
        shmem_finalize();
        return 77;
    }
    int prev = (me + npes - 1) % npes;
    long *heap = shmem_calloc((size_t)npes * N, sizeof(long));
    long *count = shmem_calloc(1, sizeof(long));
    check_teams();

    /* One round per option set, completed by shmem_ctx_quiet; the last by destroy. */
    int round = 0;
    for (size_t o = 0; o < NOPTIONS; o++, round++) {
        shmem_ctx_t ctx;
        CHECK(shmem_ctx_create(options[o], &ctx) == 0, "create");
        exchange(ctx, heap, count, round);
        shmem_barrier_all();
        check_exchange(heap, *count, round, round + 1);
        shmem_barrier_all();
        shmem_ctx_destroy(ctx);
    }

    /* Many contexts alive at once, each carrying part of the traffic; destroy completes. */
    shmem_ctx_t ctxs[NCTX];
    for (int c = 0; c < NCTX; c++)
        CHECK(shmem_ctx_create(c % 2 ? SHMEM_CTX_PRIVATE : 0, &ctxs[c]) == 0, "create");
    for (int c = 0; c < NCTX; c++)
        shmem_ctx_long_atomic_add(ctxs[c], count, 1, (me + c) % npes);
    for (int c = NCTX - 1; c >= 0; c--)
        shmem_ctx_destroy(ctxs[c]);
    shmem_barrier_all();
    CHECK_EQ_LONG(*count, (long)npes * round + NCTX, "adds completed by shmem_ctx_destroy");
    shmem_barrier_all();

    /* Create/destroy cycles: nothing leaks, peers keep working. */
    for (int cycle = 0; cycle < 30; cycle++) {
        shmem_ctx_t ctx;
        CHECK(shmem_ctx_create(0, &ctx) == 0, "create in cycle %d", cycle);
        shmem_ctx_long_p(ctx, &heap[me * N], value(me, cycle, 0), (me + 1) % npes);
        shmem_ctx_destroy(ctx);
    }
    shmem_barrier_all();
    CHECK_EQ_LONG(heap[prev * N], value(prev, 29, 0), "put from the last cycle");

    check_fence();

    /* Session hints do not change results. */
    shmem_ctx_t ctx;
    shmem_ctx_session_config_t config = {.total_ops = 100};
    CHECK(shmem_ctx_create(0, &ctx) == 0, "create");
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &config, SHMEM_CTX_SESSION_TOTAL_OPS);
    shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    for (int k = 0; k < npes; k++)
        shmem_ctx_long_atomic_inc(ctx, count, k);
    shmem_ctx_session_stop(ctx);
    shmem_ctx_session_stop(ctx); /* stopping twice has no effect */
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    CHECK_EQ_LONG(*count, (long)npes * round + NCTX + npes, "increments within a session");
    shmem_barrier_all();

    /* A context the program leaves alive, with an operation in flight: finalize's job. */
    shmem_ctx_long_atomic_inc(ctx, count, (me + 1) % npes);
    return check_finish();
}
