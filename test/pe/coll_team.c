/*
 * coll_team.c: teams. The predefined teams; shmem_team_split_strided with positive,
 * negative and zero strides (and invalid triplets, which must fail on every PE with
 * SHMEM_TEAM_INVALID); splits of splits; shmem_team_translate_pe; shmem_team_split_2d
 * (every PE finds its x and y coordinates); get_config; team_ptr; team_sync; destroy, and
 * creating and destroying many teams (pool slots are reused), up to running out of them.
 * Each new team runs a collective whose result depends on its exact membership.
 *
 * sshmem-test: np=1 2 3 5 7 8
 * sshmem-test-env: np=5,8 paths=direct SSHMEM_PES_PER_NODE=2
 * sshmem-test-env: np=3,4 paths=direct,ucx SHMEM_DEBUG=1
 * sshmem-test-env: np=5,8 paths=direct SSHMEM_PES_PER_NODE=3 SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 */
#include "check.h"

static int me, npes;

/* Sum of the world PE numbers of a team, by a reduction on it, checked against expect. */
static void check_membership(shmem_team_t team, long expect, const char *what)
{
    static long src, dst;
    src = me;
    shmem_long_sum_reduce(team, &dst, &src, 1);
    CHECK_EQ_LONG(dst, expect, what);
    shmem_team_sync(team);
}

static void predefined(void)
{
    CHECK_EQ_LONG(shmem_team_my_pe(SHMEM_TEAM_WORLD), me, "team_my_pe(WORLD)");
    CHECK_EQ_LONG(shmem_team_n_pes(SHMEM_TEAM_WORLD), npes, "team_n_pes(WORLD)");
    int shared_n = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    int shared_me = shmem_team_my_pe(SHMEM_TEAM_SHARED);
    long *x = shmem_malloc(sizeof(long));
    /* SHARED: the PEs shmem_ptr reaches (every PE on one host with the direct path, a group
     * with SSHMEM_PES_PER_NODE, only this PE when every access goes through UCX). */
    int mapped = 0;
    for (int p = 0; p < npes; p++)
        mapped += shmem_ptr(x, p) != NULL;
    CHECK_EQ_LONG(shared_n, mapped ? mapped : 1, "team_n_pes(SHARED)");
    CHECK(shared_me >= 0 && shared_me < shared_n, "team_my_pe(SHARED) = %d", shared_me);
    CHECK_EQ_LONG(shmem_team_translate_pe(SHMEM_TEAM_SHARED, shared_me, SHMEM_TEAM_WORLD), me,
                  "translate SHARED -> WORLD");
    for (int p = 0; p < shared_n; p++) {
        int wpe = shmem_team_translate_pe(SHMEM_TEAM_SHARED, p, SHMEM_TEAM_WORLD);
        CHECK(shmem_team_ptr(SHMEM_TEAM_SHARED, x, p) != NULL || !mapped,
              "team_ptr(SHARED, %d) is NULL", p);
        CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, x, wpe) == shmem_ptr(x, wpe),
              "team_ptr(WORLD) differs from shmem_ptr");
    }
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, x, npes) == NULL, "team_ptr past the team");
    shmem_free(x);
    shmem_team_config_t cfg = {.num_contexts = 77};
    CHECK_EQ_LONG(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg), 0,
                  "get_config(WORLD)");
    CHECK_EQ_LONG(cfg.num_contexts, 0, "WORLD num_contexts");
    /* SHMEM_TEAM_INVALID answers -1 / NULL everywhere */
    CHECK_EQ_LONG(shmem_team_my_pe(SHMEM_TEAM_INVALID), -1, "my_pe(INVALID)");
    CHECK_EQ_LONG(shmem_team_n_pes(SHMEM_TEAM_INVALID), -1, "n_pes(INVALID)");
    CHECK_EQ_LONG(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1,
                  "translate from INVALID");
    CHECK_EQ_LONG(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID), -1,
                  "translate to INVALID");
    CHECK_EQ_LONG(shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes, SHMEM_TEAM_WORLD), -1,
                  "translate out of range");
    CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, &cfg, 0) == NULL, "team_ptr(INVALID)");
    shmem_team_t t = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0 &&
              t == SHMEM_TEAM_INVALID,
          "split of INVALID");
    shmem_team_destroy(SHMEM_TEAM_INVALID); /* a no-op */
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0 && ctx == SHMEM_CTX_INVALID,
          "team_create_ctx(INVALID)");
    check_membership(SHMEM_TEAM_WORLD, (long)npes * (npes - 1) / 2, "WORLD membership");
}

/* Split (start, stride, size) of parent (whose members are world PEs pstart + i*pstride) and
 * check everything about the result on every PE of the parent. */
static shmem_team_t split_and_check(shmem_team_t parent, int pstart, int pstride, int start,
                                    int stride, int size)
{
    shmem_team_t t;
    shmem_team_config_t cfg = {.num_contexts = 3};
    int rc = shmem_team_split_strided(parent, start, stride, size, &cfg,
                                      SHMEM_TEAM_NUM_CONTEXTS, &t);
    CHECK_EQ_LONG(rc, 0, "split_strided return");
    int pme = shmem_team_my_pe(parent);
    int mine = -1; /* my index in the new team, from the definition */
    long sum = 0;
    for (int i = 0; i < size; i++) {
        int ppe = start + i * stride;
        if (ppe == pme)
            mine = i;
        sum += pstart + (long)ppe * pstride;
    }
    CHECK_EQ_LONG(shmem_team_my_pe(t), mine, "my_pe in the split");
    if (mine < 0) {
        CHECK(t == SHMEM_TEAM_INVALID, "a non-member got a team");
        return t;
    }
    CHECK_EQ_LONG(shmem_team_n_pes(t), size, "n_pes of the split");
    for (int i = 0; i < size; i++) {
        CHECK_EQ_LONG(shmem_team_translate_pe(t, i, parent), start + i * stride,
                      "translate to parent");
        CHECK_EQ_LONG(shmem_team_translate_pe(parent, start + i * stride, t), i,
                      "translate from parent");
        CHECK_EQ_LONG(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD),
                      pstart + (start + i * stride) * pstride, "translate to world");
    }
    shmem_team_config_t got = {0};
    CHECK_EQ_LONG(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &got), 0, "get_config");
    CHECK_EQ_LONG(got.num_contexts, 3, "num_contexts of the split");
    check_membership(t, sum, "split membership");
    return t;
}

static void strided_splits(void)
{
    shmem_team_t even = split_and_check(SHMEM_TEAM_WORLD, 0, 1, 0, 2, (npes + 1) / 2);
    shmem_team_t rev = split_and_check(SHMEM_TEAM_WORLD, 0, 1, npes - 1, -1, npes);
    shmem_team_t last = split_and_check(SHMEM_TEAM_WORLD, 0, 1, npes - 1, 0, 1);
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    if (npes > 1)
        odd = split_and_check(SHMEM_TEAM_WORLD, 0, 1, 1, 2, npes / 2);
    /* a split of a split is relative to its parent: the odd PEs, reversed */
    if (odd != SHMEM_TEAM_INVALID) {
        int n = shmem_team_n_pes(odd);
        shmem_team_t t = split_and_check(odd, 1, 2, n - 1, -1, n);
        shmem_team_destroy(t);
    }
    /* a split of the reversed world: every second one from its start (PEs n-1, n-3, ...) */
    shmem_team_t rr = split_and_check(rev, npes - 1, -1, 0, 2, (npes + 1) / 2);
    shmem_team_destroy(rr);

    /* invalid triplets: nonzero and SHMEM_TEAM_INVALID on every PE */
    shmem_team_t bad = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 0, 2, NULL, 0, &bad) != 0 &&
              bad == SHMEM_TEAM_INVALID, "stride 0 with size 2 accepted");
    bad = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, 1, 2, NULL, 0, &bad) != 0 &&
              bad == SHMEM_TEAM_INVALID, "wrap-around accepted");
    bad = SHMEM_TEAM_WORLD;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 0, NULL, 0, &bad) != 0 &&
              bad == SHMEM_TEAM_INVALID, "size 0 accepted");
    shmem_team_destroy(odd);
    shmem_team_destroy(last);
    shmem_team_destroy(rev);
    shmem_team_destroy(even);
}

static void split_2d(int xrange)
{
    shmem_team_t xt, yt;
    int rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, xrange, NULL, 0, &xt, NULL, 0, &yt);
    CHECK_EQ_LONG(rc, 0, "split_2d return");
    int x = me % xrange, y = me / xrange;
    CHECK_EQ_LONG(shmem_team_my_pe(xt), x, "x coordinate");
    CHECK_EQ_LONG(shmem_team_my_pe(yt), y, "y coordinate");
    int row = npes - y * xrange < xrange ? npes - y * xrange : xrange;
    int col = (npes - x + xrange - 1) / xrange;
    CHECK_EQ_LONG(shmem_team_n_pes(xt), row, "x team size");
    CHECK_EQ_LONG(shmem_team_n_pes(yt), col, "y team size");
    long rsum = 0, csum = 0;
    for (int i = 0; i < row; i++)
        rsum += y * xrange + i;
    for (int j = 0; j < col; j++)
        csum += x + j * xrange;
    check_membership(xt, rsum, "x team membership");
    check_membership(yt, csum, "y team membership");
    /* a 2-D split of a 2-D result: the y team split again into rows of 2 */
    shmem_team_t xx, yy;
    CHECK_EQ_LONG(shmem_team_split_2d(yt, 2, NULL, 0, &xx, NULL, 0, &yy), 0, "nested split_2d");
    CHECK_EQ_LONG(shmem_team_my_pe(xx), y % 2, "nested x coordinate");
    CHECK_EQ_LONG(shmem_team_my_pe(yy), y / 2, "nested y coordinate");
    shmem_team_destroy(yy);
    shmem_team_destroy(xx);
    shmem_team_destroy(yt);
    shmem_team_destroy(xt);
}

/* A context made on a team: RMA through it numbers PEs within the team (the team here is
 * the world reversed, so team PE i is world PE npes-1-i), its team, and a team destroyed
 * with a context still alive (the context goes with it). */
static void team_contexts(void)
{
    shmem_team_t rev;
    long *slot = shmem_calloc(4, sizeof(long));
    uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
    shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &rev);
    shmem_ctx_t ctx = SHMEM_CTX_INVALID, ctx2 = SHMEM_CTX_INVALID;
    CHECK_EQ_LONG(shmem_team_create_ctx(rev, 0, &ctx), 0, "team_create_ctx");
    CHECK(ctx != SHMEM_CTX_INVALID, "team_create_ctx gave SHMEM_CTX_INVALID");
    shmem_team_t got = SHMEM_TEAM_INVALID;
    CHECK_EQ_LONG(shmem_ctx_get_team(ctx, &got), 0, "ctx_get_team");
    CHECK(got == rev, "ctx_get_team gave another team");
    int tme = shmem_team_my_pe(rev), right = (tme + 1) % npes, left = (tme + npes - 1) % npes;
    CHECK_EQ_LONG(tme, npes - 1 - me, "my number in the reversed team");
    /* p, put, atomic and put_signal, each to a team-numbered PE */
    shmem_ctx_long_p(ctx, &slot[0], tme + 1, right);
    long mine = 100 + tme;
    shmem_ctx_long_put(ctx, &slot[1], &mine, 1, left);
    shmem_ctx_long_atomic_add(ctx, &slot[2], tme + 1, 0);
    shmem_ctx_long_put_signal(ctx, &slot[3], &mine, 1, sig, 1, SHMEM_SIGNAL_ADD, right);
    long fetched = shmem_ctx_long_atomic_fetch(ctx, &slot[2], 0);
    CHECK(fetched >= 1, "fetch through the team context");
    shmem_ctx_quiet(ctx);
    shmem_team_sync(rev);
    CHECK_EQ_LONG(slot[0], left + 1, "p through a team context comes from my left team PE");
    CHECK_EQ_LONG(slot[1], 100 + right, "put through a team context comes from my right");
    CHECK_EQ_LONG(slot[2], tme == 0 ? (long)npes * (npes + 1) / 2 : 0,
                  "atomic adds through a team context land on team PE 0 (world PE npes-1)");
    CHECK_EQ_LONG(slot[3], 100 + left, "put_signal data through a team context");
    CHECK_EQ_LONG((long)*sig, 1, "put_signal signal through a team context");
    long back = shmem_ctx_long_g(ctx, &slot[1], right); /* right's slot[1] came from its right */
    CHECK_EQ_LONG(back, 100 + (right + 1) % npes, "g through a team context");
    shmem_ctx_destroy(ctx);
    CHECK_EQ_LONG(shmem_team_create_ctx(rev, SHMEM_CTX_PRIVATE, &ctx2), 0, "second context");
    shmem_team_destroy(rev); /* ctx2 is destroyed with it */
    shmem_barrier_all();
    shmem_free(sig);
    shmem_free(slot);
}

static void many_teams(void)
{
    /* create and destroy again and again: the slots come back, and a reduction on each new
     * team sees only its own call's values (nothing the last team left in the slot: a
     * one-line reduction's stamps are zeroed when a team is destroyed) */
    static long mine, sum;
    for (int i = 0; i < 100; i++) {
        shmem_team_t t;
        CHECK_EQ_LONG(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t), 0,
                      "split in a loop");
        shmem_team_sync(t);
        mine = 1000L * i + me;
        shmem_long_sum_reduce(t, &sum, &mine, 1);
        long want = 1000L * i * npes + (long)npes * (npes - 1) / 2;
        CHECK(sum == want, "sum on the new team of round %d: %ld, want %ld", i, sum, want);
        shmem_team_destroy(t);
    }
    /* keep creating: it must fail cleanly (nonzero, INVALID) at some point, on every PE */
    shmem_team_t teams[100];
    int made = 0, rc = 0;
    while (made < 100) {
        rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &teams[made]);
        if (rc != 0)
            break;
        made++;
    }
    CHECK(rc != 0 && made >= 16, "%d teams made before the pool ran out (rc %d)", made, rc);
    CHECK(teams[made] == SHMEM_TEAM_INVALID, "a failed split gave a team");
    check_membership(teams[made - 1], (long)npes * (npes - 1) / 2, "last team made");
    while (made > 0)
        shmem_team_destroy(teams[--made]);
    shmem_team_t again;
    CHECK_EQ_LONG(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &again), 0,
                  "split after destroying all");
    check_membership(again, (long)npes * (npes - 1) / 2, "team after the pool refilled");
    shmem_team_destroy(again);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    predefined();
    strided_splits();
    int xr[] = {1, 2, 3, npes + 1};
    for (int i = 0; i < 4; i++)
        split_2d(xr[i]);
    team_contexts();
    many_teams();
    return check_finish();
}
