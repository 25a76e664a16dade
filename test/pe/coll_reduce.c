/*
 * coll_reduce.c: the team reductions shmem_TYPE_OP_reduce for every type/operator pair of
 * the specification, and the scans shmem_TYPE_sum_inscan / _sum_exscan for every type, on
 * SHMEM_TEAM_WORLD and on a split team (every other PE, reversed order), every element
 * checked on every PE; sizes from 1 element to more than the team's work buffer holds
 * (and a long sum beyond its staging buffer);
 * in place; back-to-back calls without a barrier, each with new sources. Also the C11
 * generic forms (shmem_sum_reduce, shmem_sum_inscan, ...).
 *
 * sshmem-test: np=1 2 3 5 7 8
 * sshmem-test-env: np=2,3,8 paths=direct SSHMEM_COLL_REDUCE=shm
 * (stamp, the old name of shm, still picks it)
 * sshmem-test-env: np=2 paths=direct SSHMEM_COLL_REDUCE=stamp
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_REDUCE=shmrs
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_REDUCE=rd
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_REDUCE=rsag
 * sshmem-test-env: np=5 paths=tcp SSHMEM_COLL_REDUCE=rsag
 * (over tcp a collective step is one message; SSHMEM_COLL_MESSAGES=0 runs its put + signal form)
 * sshmem-test-env: np=3,5 paths=tcp SSHMEM_COLL_MESSAGES=0
 * sshmem-test-env: np=5 paths=tcp SSHMEM_PES_PER_NODE=2
 * sshmem-test-env: np=5,8 paths=direct SSHMEM_PES_PER_NODE=2
 * sshmem-test-env: np=3,4 paths=direct,ucx SHMEM_DEBUG=1
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_PES_PER_NODE=2 SSHMEM_COLL_REDUCE=hier
 */
#include <complex.h>

#include "check.h"

#define MAXN 2100 /* elements: 2100 x 8 B is more than a team's work buffer */
static const int sizes[] = {1, 7, 300, MAXN};
#define NSIZES 4
static int me, npes;

#include "reduce_values.h"

static void *src, *dst; /* symmetric, 2 x MAXN x 16 bytes each */

/* Team reduction test for one pair: the value of member k (team numbering) is VAL(world pe
 * of k + it, i); two calls back to back per size, the second in place for odd sizes. */
#define DEF_REDUCE_TEST_(T, N, OP, VAL)                                                          \
    static void reduce_##N##_##OP(shmem_team_t team)                                             \
    {                                                                                            \
        int n_t = shmem_team_n_pes(team);                                                        \
        T *s = src, *d = dst;                                                                    \
        for (int z = 0; z < NSIZES; z++) {                                                       \
            int n = sizes[z];                                                                    \
            for (int it = 0; it < 2; it++) {                                                     \
                int inplace = (z & 1) && it == 1;                                                \
                T *in = s + it * MAXN, *out = inplace ? in : d + it * MAXN;                      \
                for (int i = 0; i < n; i++)                                                      \
                    in[i] = (T)(VAL(me + it, i));                                                \
                int rc = shmem_##N##_##OP##_reduce(team, out, in, n);                            \
                int ok = rc == 0;                                                                \
                for (int i = 0; i < n && ok; i++) {                                              \
                    T want = (T)(VAL(shmem_team_translate_pe(team, 0, SHMEM_TEAM_WORLD) + it, i)); \
                    for (int k = 1; k < n_t; k++)                                                \
                        want = APPLY_##OP(                                                       \
                            want,                                                                \
                            (T)(VAL(shmem_team_translate_pe(team, k, SHMEM_TEAM_WORLD) + it, i))); \
                    ok = out[i] == want;                                                         \
                }                                                                                \
                CHECK(ok, "shmem_" #N "_" #OP "_reduce n=%d it %d%s (team of %d)", n, it,        \
                      inplace ? " in place" : "", n_t);                                          \
            }                                                                                    \
            shmem_team_sync(team);                                                               \
        }                                                                                        \
    }
#define DEF_AND_(T, N) DEF_REDUCE_TEST_(T, N, and, VAL_and)
#define DEF_OR_(T, N) DEF_REDUCE_TEST_(T, N, or, VAL_or)
#define DEF_XOR_(T, N) DEF_REDUCE_TEST_(T, N, xor, VAL_xor)
#define DEF_MIN_(T, N) DEF_REDUCE_TEST_(T, N, min, VAL_min)
#define DEF_MAX_(T, N) DEF_REDUCE_TEST_(T, N, max, VAL_max)
#define DEF_SUM_(T, N) DEF_REDUCE_TEST_(T, N, sum, VAL_sum)
#define DEF_PROD_(T, N) DEF_REDUCE_TEST_(T, N, prod, VAL_prod)
#define DEF_CSUM_(T, N) DEF_REDUCE_TEST_(T, N, sum, CVAL_sum)
#define DEF_CPROD_(T, N) DEF_REDUCE_TEST_(T, N, prod, CVAL_prod)
SHMEM_REDUCE_BITWISE_TYPES(DEF_AND_)
SHMEM_REDUCE_BITWISE_TYPES(DEF_OR_)
SHMEM_REDUCE_BITWISE_TYPES(DEF_XOR_)
SHMEM_REDUCE_MINMAX_TYPES(DEF_MIN_)
SHMEM_REDUCE_MINMAX_TYPES(DEF_MAX_)
SHMEM_REDUCE_MINMAX_TYPES(DEF_SUM_) /* the real types: the RMA types */
SHMEM_REDUCE_MINMAX_TYPES(DEF_PROD_)
SHMEM_COMPLEX_TYPES(DEF_CSUM_)
SHMEM_COMPLEX_TYPES(DEF_CPROD_)

/* Scans: member k's element i is VAL_sum(world pe + it, i). */
#define DEF_SCAN_TEST_(T, N, VAL)                                                                \
    static void scan_##N(shmem_team_t team)                                                      \
    {                                                                                            \
        int tme = shmem_team_my_pe(team);                                                        \
        T *s = src, *d = dst;                                                                    \
        for (int z = 0; z < NSIZES; z++) {                                                       \
            int n = sizes[z];                                                                    \
            for (int it = 0; it < 4; it++) {                                                     \
                int excl = it & 1, inplace = (z & 1) && it >= 2;                                 \
                T *in = s + (it & 1) * MAXN, *out = inplace ? in : d + (it & 1) * MAXN;          \
                for (int i = 0; i < n; i++)                                                      \
                    in[i] = (T)(VAL(me + it, i));                                                \
                int rc = excl ? shmem_##N##_sum_exscan(team, out, in, n)                         \
                              : shmem_##N##_sum_inscan(team, out, in, n);                        \
                int ok = rc == 0;                                                                \
                for (int i = 0; i < n && ok; i++) {                                              \
                    T want = (T)0;                                                               \
                    for (int k = 0; k < tme + !excl; k++)                                        \
                        want += (T)(VAL(shmem_team_translate_pe(team, k, SHMEM_TEAM_WORLD) + it, i)); \
                    ok = out[i] == want;                                                         \
                }                                                                                \
                CHECK(ok, "shmem_" #N "_sum_%s n=%d%s (member %d)", excl ? "exscan" : "inscan",  \
                      n, inplace ? " in place" : "", tme);                                       \
                if (inplace)                                                                     \
                    shmem_team_sync(team); /* the next iteration rewrites the same sources */    \
            }                                                                                    \
            shmem_team_sync(team);                                                               \
        }                                                                                        \
    }
#define DEF_SCAN_(T, N) DEF_SCAN_TEST_(T, N, VAL_sum)
#define DEF_CSCAN_(T, N) DEF_SCAN_TEST_(T, N, CVAL_sum)
SHMEM_REDUCE_MINMAX_TYPES(DEF_SCAN_)
SHMEM_COMPLEX_TYPES(DEF_CSCAN_)

/* Beyond the team's staging buffer, which the message-passing reductions (rd, rsag) receive
 * in off shared memory (rsag takes twice the buffer per piece): 450,000 longs are two pieces
 * with the world team's 1.5 MiB and 55 with a split team's 32 KiB. Two calls back to back,
 * each with its own source and dest. */
#define BIGN 450000
static long *big_src, *big_dst; /* symmetric, 2 x BIGN longs each */

static void large_sum(shmem_team_t team)
{
    const int n_t = shmem_team_n_pes(team);
    long base = 0; /* sum over the members k of (world pe of k) + 1 */
    for (int k = 0; k < n_t; k++)
        base += shmem_team_translate_pe(team, k, SHMEM_TEAM_WORLD) + 1;
    for (int it = 0; it < 2; it++) {
        long *in = big_src + it * BIGN, *out = big_dst + it * BIGN;
        for (int i = 0; i < BIGN; i++)
            in[i] = (long)(me + 1) * (i % 977 + it + 1);
        shmem_long_sum_reduce(team, out, in, BIGN);
        int bad = -1;
        for (int i = 0; i < BIGN && bad < 0; i++)
            if (out[i] != base * (i % 977 + it + 1))
                bad = i;
        CHECK(bad < 0, "shmem_long_sum_reduce of %d longs, call %d: element %d is %ld, want %ld "
              "(team of %d)", BIGN, it, bad, bad < 0 ? 0 : out[bad],
              bad < 0 ? 0 : base * (bad % 977 + it + 1), n_t);
    }
    shmem_team_sync(team);
}

static void run_team(shmem_team_t team)
{
#define CALL_AND_(T, N) reduce_##N##_and(team);
#define CALL_OR_(T, N) reduce_##N##_or(team);
#define CALL_XOR_(T, N) reduce_##N##_xor(team);
#define CALL_MIN_(T, N) reduce_##N##_min(team);
#define CALL_MAX_(T, N) reduce_##N##_max(team);
#define CALL_SUM_(T, N) reduce_##N##_sum(team);
#define CALL_PROD_(T, N) reduce_##N##_prod(team);
#define CALL_SCAN_(T, N) scan_##N(team);
    SHMEM_REDUCE_BITWISE_TYPES(CALL_AND_)
    SHMEM_REDUCE_BITWISE_TYPES(CALL_OR_)
    SHMEM_REDUCE_BITWISE_TYPES(CALL_XOR_)
    SHMEM_REDUCE_MINMAX_TYPES(CALL_MIN_)
    SHMEM_REDUCE_MINMAX_TYPES(CALL_MAX_)
    SHMEM_REDUCE_ARITH_TYPES(CALL_SUM_)
    SHMEM_REDUCE_ARITH_TYPES(CALL_PROD_)
    SHMEM_REDUCE_ARITH_TYPES(CALL_SCAN_)
    large_sum(team);
}

/* The C11 generic names pick the typed routines. */
static void generics(void)
{
    static double gs[4], gd[4];
    static int is[4], id[4];
    for (int i = 0; i < 4; i++) {
        gs[i] = me + i;
        is[i] = 1 << (me % 30);
    }
    shmem_sum_reduce(SHMEM_TEAM_WORLD, gd, gs, 4);
    CHECK(gd[3] == (double)npes * (npes - 1) / 2 + 3.0 * npes, "generic sum_reduce");
    shmem_or_reduce(SHMEM_TEAM_WORLD, (unsigned int *)id, (unsigned int *)is, 4);
    shmem_max_reduce(SHMEM_TEAM_WORLD, gd, gs, 4);
    CHECK(gd[0] == npes - 1, "generic max_reduce");
    shmem_sum_inscan(SHMEM_TEAM_WORLD, gd, gs, 4);
    CHECK(gd[1] == (double)me * (me + 1) / 2 + (me + 1), "generic sum_inscan");
    shmem_sum_exscan(SHMEM_TEAM_WORLD, gd, gs, 4);
    CHECK(gd[0] == (double)me * (me - 1) / 2, "generic sum_exscan");
    shmem_sync(SHMEM_TEAM_WORLD);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(2 * MAXN * 16);
    dst = shmem_malloc(2 * MAXN * 16);
    big_src = shmem_malloc(2 * BIGN * sizeof(long));
    big_dst = shmem_malloc(2 * BIGN * sizeof(long));
    run_team(SHMEM_TEAM_WORLD);
    shmem_team_t odd_rev;
    int n_odd = npes / 2;
    if (n_odd > 0) {
        /* PEs 2*n_odd-1, ..., 3, 1 */
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 2 * n_odd - 1, -2, n_odd, NULL, 0, &odd_rev);
        if (odd_rev != SHMEM_TEAM_INVALID) {
            run_team(odd_rev);
            shmem_team_destroy(odd_rev);
        }
    }
    generics();
    return check_finish();
}
