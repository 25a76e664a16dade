/*
 * coll_messages.c: every native collective at 8 bytes per PE sends at most 2*ceil(log2 n) + 4
 * messages per call from each PE (issue 33), counted by the library (shmemx_messages_sent),
 * where every transfer is a UCX message (SSHMEM_LOCAL=ucx: the ucx and tcp paths). On
 * SHMEM_TEAM_WORLD, on a split team (every PE but PE 0, from 5 PEs) and on the active set of
 * every PE; every value is checked on every PE on every path. The team alltoall also moves
 * 256-byte blocks, more than a call's work space took at 16 PEs, and at 66 PEs the split
 * team has 65 members, more than it took 8-byte blocks for. PE 0 prints the largest count
 * over the PEs per collective.
 *
 * The active sets give no symmetric space besides pSync and dest: their collect takes a
 * message more per step for the length (3 ceil(log2 n) + 2 at most), and their alltoall and
 * alltoalls write to every other PE, whose blocks on their way through Bruck's steps would
 * need ceil(log2 n) regions of n / 2 blocks each: reported, not held to a bound.
 *
 * sshmem-test: np=1 2 3 4 8 16
 * sshmem-test-env: np=66 paths=ucx SHMEM_SYMMETRIC_SIZE=16M */
#include <shmemx.h>

#include "check.h"

#define CALLS 12
#define NCOLL 18
#define BIG 32 /* longs per block of the larger alltoall */

/* From the heap: on one host UCX reaches the globals by emulation, and a step whose data and
 * flag lie in different kinds of memory completes the data first (src/coll/engine.c), a
 * message more per peer. */
static long (*psync)[SHMEM_REDUCE_SYNC_SIZE], (*pwrk)[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
/* Each call its own source and destination: a PE may run a call ahead of another that still
 * checks what it received. */
static long *srcs, *dsts, *scalars, *bigsrcs, *bigdsts;
static int npes;
#define bigsrc (bigsrcs + (size_t)it * npes * BIG)
#define bigdst (bigdsts + (size_t)it * npes * BIG)
#define STRIDE 80 /* longs of one call's source and destination: 66 PEs, and some */
#define src (srcs + it * STRIDE)
#define dst (dsts + it * STRIDE)
#define one scalars[2 * it]
#define got scalars[2 * it + 1]
static uint64_t most[NCOLL];
static const char *names[NCOLL];
static int bounded[NCOLL];

static int ceil_log2(int n)
{
    int l = 0;
    while ((1 << l) < n)
        l++;
    return l;
}

static int counted(void)
{
    const char *l = getenv("SSHMEM_LOCAL"), *w = getenv("SSHMEM_WEAK");
    return l && !strcmp(l, "ucx") && !(w && *w && strcmp(w, "0") != 0);
}

/* The messages one call of `call` (index k) sends from this PE; the largest of CALLS calls. */
#define MEASURE(k, name, bound, call, check)                                                     \
    do {                                                                                         \
        names[k] = name;                                                                         \
        bounded[k] = bound;                                                                      \
        for (int it = 0; it < CALLS; it++) {                                                     \
            const int p = it & 1;                                                                \
            (void)p;                                                                             \
            prepare(it);                                                                         \
            const uint64_t before = shmemx_messages_sent();                                      \
            call;                                                                                \
            const uint64_t sent = shmemx_messages_sent() - before;                               \
            if (sent > most[k])                                                                  \
                most[k] = sent;                                                                  \
            check;                                                                               \
        }                                                                                        \
    } while (0)

static void prepare(int it)
{
    for (int i = 0; i < STRIDE; i++)
        src[i] = (long)it * 1000000 + shmem_my_pe() * 1000 + i;
    one = (long)it * 1000 + shmem_my_pe();
}

static long block(int it, int from, int to) { return (long)it * 1000000 + from * 1000 + to; }

static void check_all_blocks(int it, int n)
{
    for (int j = 0; j < n; j++)
        CHECK_EQ_LONG(dst[j], block(it, j, shmem_my_pe()), "alltoall block");
}

static void check_gathered(int it, int n)
{
    for (int j = 0; j < n; j++)
        CHECK_EQ_LONG(dst[j], (long)it * 1000 + j, "gathered block");
}

static void check_sum(int it, int n)
{
    CHECK_EQ_LONG(got, (long)it * 1000 * n + (long)n * (n - 1) / 2, "sum");
}

static void prepare_big(int it, int n)
{
    for (int j = 0; j < n * BIG; j++)
        bigsrc[j] = block(it, shmem_my_pe(), j / BIG) * 100 + j % BIG;
}

static void check_big(int it, int n)
{
    for (int j = 0; j < n * BIG; j++)
        CHECK_EQ_LONG(bigdst[j], block(it, j / BIG, shmem_my_pe()) * 100 + j % BIG, "big block");
}

/* Member i of team t (every PE but PE 0) is PE i + 1. */
static void check_split_blocks(int it, int tn, int tme)
{
    for (int j = 0; j < tn; j++)
        CHECK_EQ_LONG(dst[j], block(it, j + 1, tme + 1), "split alltoall block");
}

static void check_split_gathered(int it, int tn)
{
    for (int j = 0; j < tn; j++)
        CHECK_EQ_LONG(dst[j], (long)it * 1000 + j + 1, "split gathered block");
}

static void split_calls(void)
{
    shmem_team_t t = SHMEM_TEAM_INVALID;
    const int n = shmem_n_pes();
    if (n < 5)
        return;
    names[14] = "split alltoall"; /* PE 0, outside the team, prints them */
    bounded[14] = bounded[15] = bounded[16] = 1;
    names[15] = "split collect";
    names[16] = "split fcollect";
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n - 1, NULL, 0, &t);
    if (t != SHMEM_TEAM_INVALID) {
        const int tn = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
        /* src[j] of PE p is block(it, p, j): member j's block is at j + 1 */
        MEASURE(14, "split alltoall", 1, shmem_long_alltoall(t, dst, src + 1, 1),
                check_split_blocks(it, tn, tme));
        MEASURE(15, "split collect", 1, shmem_long_collect(t, dst, &one, 1),
                check_split_gathered(it, tn));
        MEASURE(16, "split fcollect", 1, shmem_long_fcollect(t, dst, &one, 1),
                check_split_gathered(it, tn));
        shmem_team_destroy(t);
    }
    shmem_barrier_all();
}

static void team_calls(int n)
{
    const shmem_team_t w = SHMEM_TEAM_WORLD;
    MEASURE(0, "team barrier", 1, shmem_team_sync(w), (void)0);
    MEASURE(1, "team broadcast", 1, shmem_long_broadcast(w, &got, &one, 1, it % n),
            CHECK_EQ_LONG(got, (long)it * 1000 + it % n, "broadcast"));
    MEASURE(2, "team reduce", 1, shmem_long_sum_reduce(w, &got, &one, 1), check_sum(it, n));
    MEASURE(3, "team fcollect", 1, shmem_long_fcollect(w, dst, &one, 1), check_gathered(it, n));
    MEASURE(4, "team collect", 1, shmem_long_collect(w, dst, &one, 1), check_gathered(it, n));
    MEASURE(5, "team alltoall", 1, shmem_long_alltoall(w, dst, src, 1), check_all_blocks(it, n));
    MEASURE(6, "team alltoalls", 1, shmem_long_alltoalls(w, dst, src, 1, 1, 1),
            check_all_blocks(it, n));
    MEASURE(17, "team alltoall 256 B", 1,
            (prepare_big(it, n), shmem_long_alltoall(w, bigdst, bigsrc, BIG)), check_big(it, n));
}

static void active_set_calls(int n)
{
    MEASURE(7, "active-set barrier", 1, shmem_barrier(0, 0, n, psync[p]), (void)0);
    MEASURE(8, "active-set broadcast", 1, shmem_broadcast64(&got, &one, 1, it % n, 0, 0, n,
                                                            psync[p]),
            if (shmem_my_pe() != it % n) CHECK_EQ_LONG(got, (long)it * 1000 + it % n, "bcast"));
    MEASURE(9, "active-set reduce", 1,
            shmem_long_sum_to_all(&got, &one, 1, 0, 0, n, pwrk[p], psync[p]), check_sum(it, n));
    MEASURE(10, "active-set fcollect", 1, shmem_fcollect64(dst, &one, 1, 0, 0, n, psync[p]),
            check_gathered(it, n));
    MEASURE(11, "active-set collect", 2, shmem_collect64(dst, &one, 1, 0, 0, n, psync[p]),
            check_gathered(it, n));
    MEASURE(12, "active-set alltoall", 0, shmem_alltoall64(dst, src, 1, 0, 0, n, psync[p]),
            check_all_blocks(it, n));
    MEASURE(13, "active-set alltoalls", 0,
            shmem_alltoalls64(dst, src, 1, 1, 1, 0, 0, n, psync[p]), check_all_blocks(it, n));
}

static uint64_t all_most[NCOLL];

int main(void)
{
    if (!check_start(66))
        return CHECK_SKIP;
    const int n = shmem_n_pes(), me = shmem_my_pe();
    psync = shmem_malloc(2 * sizeof *psync);
    pwrk = shmem_malloc(2 * sizeof *pwrk);
    srcs = shmem_malloc(CALLS * STRIDE * sizeof(long));
    dsts = shmem_malloc(CALLS * STRIDE * sizeof(long));
    scalars = shmem_malloc(CALLS * 2 * sizeof(long));
    npes = n;
    bigsrcs = shmem_malloc(CALLS * (size_t)n * BIG * sizeof(long));
    bigdsts = shmem_malloc(CALLS * (size_t)n * BIG * sizeof(long));
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            psync[p][i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    team_calls(n);
    split_calls();
    active_set_calls(n);
    shmem_barrier_all();
    const uint64_t l = (uint64_t)ceil_log2(n), bound = 2 * l + 4;
    const uint64_t collect_bound = 3 * l + 2 > bound ? 3 * l + 2 : bound;
    for (int k = 0; k < NCOLL; k++) {
        const uint64_t b = bounded[k] == 2 ? collect_bound : bound;
        if (counted() && bounded[k])
            CHECK(most[k] <= b, "%s sent %llu messages in one call at %d PEs; at most %llu",
                  names[k], (unsigned long long)most[k], n, (unsigned long long)b);
    }
    shmem_uint64_max_reduce(SHMEM_TEAM_WORLD, all_most, most, NCOLL);
    if (me == 0 && counted()) {
        printf("# messages per PE per call (most over PEs and calls), %d PEs, bound %llu\n", n,
               (unsigned long long)bound);
        for (int k = 0; k < NCOLL; k++)
            if (names[k])
                printf("%-22s %llu%s\n", names[k], (unsigned long long)all_most[k],
                       bounded[k] ? "" : " (not bounded)");
    }
    return check_finish();
}
