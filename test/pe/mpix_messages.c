/*
 * mpix_messages.c: the MPI-style collectives send O(log n) messages per PE and call. With 8
 * bytes per PE (longs, uneven counts, some zero) each of gatherv, scatterv, allgatherv and
 * alltoallv, their regular forms, reduce, allreduce and scan is called in a loop, the root
 * going round every PE; every element is checked on every PE after every call, and the UCX
 * messages a PE handed to the network (shmemx_messages_sent) in any one call may be at most
 * 2 ceil(log2 n) + 4. (What a call that returns early leaves to the team's next call counts
 * in that call.) On the direct path nothing goes through UCX and the bound holds trivially.
 * SSHMEM_TEST_PRINT_MESSAGES=1 prints each collective's figure on PE 0. Then alltoallv of
 * 512-byte blocks on SHMEM_TEAM_WORLD, more than a call's work space took at 16 PEs, and
 * 8-byte alltoallv and allgatherv on a split team of every PE but PE 0, which at 66 PEs has
 * more members than a call's work space took.
 *
 * Between faked nodes of 2 PEs the allgathers take the node-aware steps (leaders only send).
 *
 * sshmem-test: np=2 3 4 5 8 16
 * sshmem-test-env: np=66 paths=ucx SHMEM_SYMMETRIC_SIZE=16M
 * sshmem-test-env: np=8,16 paths=direct SSHMEM_PES_PER_NODE=2
 */
#include <shmemx.h>

#include "check.h"

#define CALLS 32 /* at least the largest PE count: every PE is a root */
#define VAL(from, to, k) (100000L * (from) + 100L * (to) + (k))

static int me, npes;
static long worst[1], scratch_worst[1];

/* Elements PE `from` sends PE `to`: 0, 1 or 2 (8 bytes per PE on average). */
static size_t count_of(int from, int to) { return (size_t)((from * 7 + to * 3 + 1) % 3); }

static int ceil_log2(int n)
{
    int l = 0;
    while ((1 << l) < n)
        l++;
    return l;
}

/* The most messages any PE sent in one call, this PE's most being mine. */
static long most_per_call(long mine)
{
    worst[0] = mine;
    shmem_barrier_all();
    shmem_long_max_reduce(SHMEM_TEAM_WORLD, scratch_worst, worst, 1);
    return scratch_worst[0];
}

static void report(const char *what, long per_call)
{
    const long bound = 2L * ceil_log2(npes) + 4;
    const char *print = getenv("SSHMEM_TEST_PRINT_MESSAGES");
    if (me == 0 && print && *print == '1')
        printf("messages %-10s np=%-3d %3ld per call (bound %ld)\n", what, npes, per_call, bound);
    CHECK(me != 0 || per_call <= bound, "%s: %ld messages per call, more than 2 ceil(log2 %d) + 4 = %ld",
          what, per_call, npes, bound);
}

/* Receive layout: counts[i] elements from PE i, in reverse PE order, one gap before each. */
static size_t layout(size_t *counts, size_t *displs, int to, int all_to)
{
    size_t d = 0;
    for (int i = npes - 1; i >= 0; i--) {
        counts[i] = count_of(i, all_to ? to : 0);
        displs[i] = d + 1;
        d = displs[i] + counts[i];
    }
    return d + 1;
}

static void fill(long *p, size_t n, long v)
{
    for (size_t i = 0; i < n; i++)
        p[i] = v;
}

/* dest (total elements) holds VAL(i, to, k) at displs[i] + k for every block, -1 in the gaps. */
static void check_blocks(const long *dest, size_t total, const size_t *counts,
                         const size_t *displs, int to, const char *what)
{
    for (size_t p = 0; p < total; p++) {
        long want = -1;
        for (int i = 0; i < npes; i++)
            if (p >= displs[i] && p < displs[i] + counts[i])
                want = VAL(i, to, (long)(p - displs[i]));
        CHECK_EQ_LONG(dest[p], want, what);
    }
}

typedef struct bufs {
    size_t *counts, *displs, *scounts, *sdispls, total;
    long *dest, *src;
} bufs_t;

static void gatherv(bufs_t *b, int root)
{
    const size_t total = layout(b->counts, b->displs, root, 0);
    for (int k = 0; k < 2; k++)
        b->src[k] = VAL(me, root, k);
    shmemx_gatherv(SHMEM_TEAM_WORLD, b->dest, b->src, count_of(me, 0), b->counts, b->displs,
                   SHMEMX_LONG, root);
    if (me == root) {
        check_blocks(b->dest, total, b->counts, b->displs, root, "gatherv");
        fill(b->dest, total, -1);
    }
}

static void scatterv(bufs_t *b, int root)
{
    /* the root's source: PE i's block of count_of(0, i) elements at sdispls[i] */
    size_t at = 0;
    for (int i = 0; i < npes; i++) {
        b->scounts[i] = count_of(0, i);
        b->sdispls[i] = at;
        for (size_t k = 0; k < b->scounts[i]; k++)
            b->src[at + k] = me == root ? VAL(root, i, (long)k) : -9;
        at += b->scounts[i] + 1;
    }
    shmemx_scatterv(SHMEM_TEAM_WORLD, b->dest, b->src, b->scounts, b->sdispls, count_of(0, me),
                    SHMEMX_LONG, root);
    for (size_t k = 0; k < 3; k++)
        CHECK_EQ_LONG(b->dest[k], k < count_of(0, me) ? VAL(root, me, (long)k) : -1, "scatterv");
    fill(b->dest, 3, -1);
}

static void allgatherv(bufs_t *b)
{
    const size_t total = layout(b->counts, b->displs, 0, 0);
    for (int k = 0; k < 2; k++)
        b->src[k] = VAL(me, 0, k);
    shmemx_allgatherv(SHMEM_TEAM_WORLD, b->dest, b->src, count_of(me, 0), b->counts, b->displs,
                      SHMEMX_LONG);
    check_blocks(b->dest, total, b->counts, b->displs, 0, "allgatherv");
    fill(b->dest, total, -1);
}

static void alltoallv(bufs_t *b)
{
    const size_t total = layout(b->counts, b->displs, me, 1);
    size_t at = 0;
    for (int j = 0; j < npes; j++) {
        b->scounts[j] = count_of(me, j);
        b->sdispls[j] = at + 1;
        for (size_t k = 0; k < b->scounts[j]; k++)
            b->src[at + 1 + k] = VAL(me, j, (long)k);
        at += b->scounts[j] + 1;
    }
    shmemx_alltoallv(SHMEM_TEAM_WORLD, b->dest, b->counts, b->displs, b->src, b->scounts,
                     b->sdispls, SHMEMX_LONG);
    check_blocks(b->dest, total, b->counts, b->displs, me, "alltoallv");
    fill(b->dest, total, -1);
}

/* The regular forms, one long per PE. */
static void regular(bufs_t *b, int root, const char *what)
{
    const long mine = VAL(me, 0, 0);
    if (!strcmp(what, "gather")) {
        shmemx_gather(SHMEM_TEAM_WORLD, b->dest, &mine, 1, SHMEMX_LONG, root);
        for (int i = 0; me == root && i < npes; i++)
            CHECK_EQ_LONG(b->dest[i], VAL(i, 0, 0), what);
    } else if (!strcmp(what, "scatter")) {
        for (int i = 0; i < npes; i++)
            b->src[i] = VAL(root, i, 0);
        shmemx_scatter(SHMEM_TEAM_WORLD, b->dest, b->src, 1, SHMEMX_LONG, root);
        CHECK_EQ_LONG(b->dest[0], VAL(root, me, 0), what);
    } else if (!strcmp(what, "allgather")) {
        shmemx_allgather(SHMEM_TEAM_WORLD, b->dest, &mine, 1, SHMEMX_LONG);
        for (int i = 0; i < npes; i++)
            CHECK_EQ_LONG(b->dest[i], VAL(i, 0, 0), what);
    } else {
        for (int j = 0; j < npes; j++)
            b->src[j] = VAL(me, j, 0);
        shmemx_alltoall(SHMEM_TEAM_WORLD, b->dest, b->src, 1, SHMEMX_LONG);
        for (int i = 0; i < npes; i++)
            CHECK_EQ_LONG(b->dest[i], VAL(i, me, 0), what);
    }
}

/* reduce to a root, allreduce, scan: one long, sum. */
static void reduction(bufs_t *b, int root, const char *what)
{
    const long mine = me + 1, all = (long)npes * (npes + 1) / 2;
    if (!strcmp(what, "reduce")) {
        shmemx_reduce(SHMEM_TEAM_WORLD, b->dest, &mine, 1, SHMEMX_LONG, SHMEMX_SUM, root);
        if (me == root)
            CHECK_EQ_LONG(b->dest[0], all, what);
    } else if (!strcmp(what, "allreduce")) {
        shmemx_allreduce(SHMEM_TEAM_WORLD, b->dest, &mine, 1, SHMEMX_LONG, SHMEMX_SUM);
        CHECK_EQ_LONG(b->dest[0], all, what);
    } else {
        shmemx_scan(SHMEM_TEAM_WORLD, b->dest, &mine, 1, SHMEMX_LONG, SHMEMX_SUM);
        CHECK_EQ_LONG(b->dest[0], (long)(me + 1) * (me + 2) / 2, what);
    }
}

static const char *const names[] = {"gatherv", "scatterv", "allgatherv", "alltoallv",
                                    "gather",  "scatter",  "allgather",  "alltoall",
                                    "reduce",  "allreduce", "scan"};

static void one_call(bufs_t *b, int which, int root)
{
    switch (which) {
    case 0: gatherv(b, root); break;
    case 1: scatterv(b, root); break;
    case 2: allgatherv(b); break;
    case 3: alltoallv(b); break;
    case 4: case 5: case 6: case 7: regular(b, root, names[which]); break;
    default: reduction(b, root, names[which]); break;
    }
}

#define BIG 64 /* longs per block of the larger alltoallv */

/* alltoallv on team (tn members, this PE tme, member i is PE i + first) of k longs per pair,
 * or allgatherv of k longs per member (all): every value checked; the messages of the call. */
static long team_call(shmem_team_t team, int first, size_t k, int all, long *dest, long *src,
                      size_t *counts, size_t *displs)
{
    const int tn = shmem_team_n_pes(team), tme = shmem_team_my_pe(team);
    for (int i = 0; i < tn; i++) {
        counts[i] = k;
        displs[i] = (size_t)i * k;
        for (size_t e = 0; e < k; e++)
            src[displs[i] + e] = VAL(tme + first, all ? 0 : i + first, (long)e);
    }
    const uint64_t m0 = shmemx_messages_sent();
    if (all)
        shmemx_allgatherv(team, dest, src, k, counts, displs, SHMEMX_LONG);
    else
        shmemx_alltoallv(team, dest, counts, displs, src, counts, displs, SHMEMX_LONG);
    const long sent = (long)(shmemx_messages_sent() - m0);
    for (int i = 0; i < tn; i++)
        for (size_t e = 0; e < k; e++)
            CHECK_EQ_LONG(dest[displs[i] + e], VAL(i + first, all ? 0 : tme + first, (long)e),
                          all ? "team allgatherv" : "team alltoallv");
    return sent;
}

static void larger_calls(void)
{
    long *dest = shmem_malloc((size_t)npes * BIG * sizeof(long));
    long *src = malloc((size_t)npes * BIG * sizeof(long));
    size_t *counts = malloc(2 * (size_t)npes * sizeof(size_t)), *displs = counts + npes;
    long mine = 0;
    for (int call = 0; call < 4; call++) {
        const long sent = team_call(SHMEM_TEAM_WORLD, 0, BIG, 0, dest, src, counts, displs);
        mine = call && sent > mine ? sent : mine; /* the first meets its peers */
    }
    if (npes <= 16) /* within the steps' room there */
        report("alltoallv 512 B", most_per_call(mine));
    shmem_team_t t = SHMEM_TEAM_INVALID;
    if (npes >= 5)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes - 1, NULL, 0, &t);
    long v = 0, g = 0;
    if (t != SHMEM_TEAM_INVALID) {
        for (int call = 0; call < 4; call++) {
            const long sv = team_call(t, 1, 1, 0, dest, src, counts, displs);
            const long sg = team_call(t, 1, 1, 1, dest, src, counts, displs);
            v = call && sv > v ? sv : v;
            g = call && sg > g ? sg : g;
        }
        shmem_team_destroy(t);
    }
    if (npes >= 5) {
        report("split alltoallv", most_per_call(v));
        report("split allgatherv", most_per_call(g));
    }
    shmem_barrier_all();
    shmem_free(dest);
    free(src);
    free(counts);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    bufs_t b;
    b.counts = malloc(4 * (size_t)npes * sizeof(size_t));
    b.displs = b.counts + npes;
    b.scounts = b.displs + npes;
    b.sdispls = b.scounts + npes;
    b.total = 4 * (size_t)npes + 4;
    b.dest = shmem_malloc(b.total * sizeof(long));
    b.src = malloc(b.total * sizeof(long));
    fill(b.dest, b.total, -1);
    for (int which = 0; which < (int)(sizeof names / sizeof *names); which++) {
        one_call(&b, which, 0); /* first contact with every peer is not counted */
        shmem_barrier_all();
        long mine = 0; /* every PE is the root of a rooted call at least once */
        for (int call = 0; call < CALLS; call++) {
            const uint64_t m0 = shmemx_messages_sent();
            one_call(&b, which, call % npes);
            const long sent = (long)(shmemx_messages_sent() - m0);
            mine = sent > mine ? sent : mine;
        }
        report(names[which], most_per_call(mine));
        shmem_barrier_all();
    }
    larger_calls();
    shmem_free(b.dest);
    free(b.src);
    free(b.counts);
    return check_finish();
}
