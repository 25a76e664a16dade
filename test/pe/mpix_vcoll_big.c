/*
 * mpix_vcoll_big.c: the gather family with blocks too large for one eager message over tcp
 * (more than 256 KiB each), so that a PE has several of them in flight at once (up to 8 in
 * flight, then the oldest completed: the 10-PE runs go past that), each pair with its own
 * count. Every element of every dest is checked on every PE, after calls back to back with
 * the root and the contents changing every round (a block that arrived late, twice or in the
 * wrong place shows). The same with blocks of 16 KiB (too large for the exchange's slots,
 * small enough for one eager message), and both sizes again with one PE entering every call
 * late: over tcp the others' messages of the call (headers, and their invitations of its
 * large blocks) reach it before it has entered it, and it holds them until it has (a copy of
 * an eager one, UCX's descriptor of a rendezvous one).
 *
 * In nodes of 2 over tcp, a PE's peers on its node take invitations by load and store and
 * those on other nodes by messages, in the same calls.
 *
 * On a team of more than 120 PEs the exchange gives every distance a slot of the team's
 * steps, sized by the team (src/mpix/exchange.c): there blocks of 16 KB go by invitation,
 * and of 160 bytes through the slots. SSHMEM_TEST_TEAM=shared or split runs every call on
 * SHMEM_TEAM_SHARED or on a split team of every PE instead of SHMEM_TEAM_WORLD.
 *
 * sshmem-test: np=2 3 4 10
 * sshmem-test-env: np=6 paths=direct SSHMEM_PES_PER_NODE=2 UCX_TLS=tcp,self
 * sshmem-test-env: np=130 paths=direct,tcp
 * sshmem-test-env: np=130 paths=direct SSHMEM_TEST_TEAM=shared
 * sshmem-test-env: np=130 paths=tcp SSHMEM_TEST_TEAM=split
 */
#include <shmemx.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

#define MAXPES 160
#define WIDE 16 /* more PEs than this: only the smaller sizes (memory) */
#define BIG (66 * 1024) /* ints: 264 KiB, more than one eager message over tcp */
#define MEDIUM 4000     /* ints: 16 KB, beyond a slot, one eager message */
#define SMALL 40        /* ints: 160 bytes */
#define ROUNDS 3
#define LATE_NS 20000000L /* how late the late PE enters each call */

static int me, npes;
static size_t base = BIG; /* this pass's block size */
static int late_pe = -1;  /* this pass's late PE, or -1 */
static shmem_team_t team; /* every PE, in order: SSHMEM_TEST_TEAM's choice */

/* The block PE from sends to PE to: its element count and its element k. */
static size_t count_of(int from, int to) { return base + (size_t)((from * 13 + to * 7) % 97); }

/* After the barrier before a call: the late PE waits before it enters. */
static void maybe_late(void)
{
    if (me == late_pe) {
        struct timespec t = {0, LATE_NS};
        nanosleep(&t, NULL);
    }
}
static int val(int round, int from, int to, size_t k)
{
    return round * 100000000 + from * 1000000 + to * 10000 + (int)(k % 9973);
}

/* Blocks of count_of(i, ...) side by side, a gap of 3 elements before each. */
typedef struct layout {
    size_t counts[MAXPES], displs[MAXPES], total;
} layout_t;

static void make_layout(layout_t *l, int from_fixed, int to_fixed)
{
    l->total = 0;
    for (int i = 0; i < npes; i++) {
        l->counts[i] = from_fixed >= 0 ? count_of(from_fixed, i) : count_of(i, to_fixed);
        l->displs[i] = l->total + 3;
        l->total = l->displs[i] + l->counts[i];
    }
}

static int *dest, *source;
static size_t buf_ints;

static void fill(int *buf, int v)
{
    for (size_t k = 0; k < buf_ints; k++)
        buf[k] = v;
}

/* The gaps of dest around l's blocks were not written. */
static void check_gaps(const layout_t *l, const char *what, int round)
{
    size_t at = 0;
    for (int i = 0; i <= npes; i++) {
        const size_t end = i < npes ? l->displs[i] : l->total + 8;
        for (; at < end; at++)
            if (dest[at] != -1) {
                CHECK(0, "%s round %d: element %zu (a gap) is %d, expected -1", what, round, at,
                      dest[at]);
                return;
            }
        if (i < npes)
            at += l->counts[i];
    }
}

/* Every PE sends count_of(me, j) elements to every j, and receives count_of(i, me). */
static void alltoallv(int round)
{
    layout_t out, in;
    make_layout(&out, me, -1);
    make_layout(&in, -1, me);
    for (int j = 0; j < npes; j++)
        for (size_t k = 0; k < out.counts[j]; k++)
            source[out.displs[j] + k] = val(round, me, j, k);
    fill(dest, -1);
    shmem_barrier_all();
    maybe_late();
    CHECK_EQ_LONG(shmemx_alltoallv(team, dest, in.counts, in.displs, source,
                                   out.counts, out.displs, SHMEMX_INT),
                  0, "alltoallv's return");
    for (int i = 0; i < npes; i++)
        for (size_t k = 0; k < in.counts[i]; k++)
            if (dest[in.displs[i] + k] != val(round, i, me, k)) {
                CHECK(0, "alltoallv round %d: element %zu from PE %d is %d, expected %d",
                      round, k, i, dest[in.displs[i] + k], val(round, i, me, k));
                break;
            }
    check_gaps(&in, "alltoallv", round);
}

/* Everybody's block (count_of(i, 0) elements from PE i) to root (gatherv) or to everyone
 * (allgatherv). */
static void gather(int round, int root, int all)
{
    layout_t in;
    make_layout(&in, -1, 0);
    const size_t mine = in.counts[me];
    for (size_t k = 0; k < mine; k++)
        source[k] = val(round, me, 0, k);
    fill(dest, -1);
    shmem_barrier_all();
    maybe_late();
    int rc = all ? shmemx_allgatherv(team, dest, source, mine, in.counts, in.displs,
                                     SHMEMX_INT)
                 : shmemx_gatherv(team, dest, source, mine, in.counts, in.displs,
                                  SHMEMX_INT, root);
    CHECK_EQ_LONG(rc, 0, all ? "allgatherv's return" : "gatherv's return");
    if (!all && me != root)
        return;
    for (int i = 0; i < npes; i++)
        for (size_t k = 0; k < in.counts[i]; k++)
            if (dest[in.displs[i] + k] != val(round, i, 0, k)) {
                CHECK(0, "%s round %d root %d: element %zu from PE %d is %d, expected %d",
                      all ? "allgatherv" : "gatherv", round, root, k, i,
                      dest[in.displs[i] + k], val(round, i, 0, k));
                break;
            }
    check_gaps(&in, all ? "allgatherv" : "gatherv", round);
}

/* Root sends count_of(root, j) elements to every j. */
static void scatterv(int round, int root)
{
    layout_t out;
    make_layout(&out, root, -1);
    if (me == root)
        for (int j = 0; j < npes; j++)
            for (size_t k = 0; k < out.counts[j]; k++)
                source[out.displs[j] + k] = val(round, root, j, k);
    fill(dest, -1);
    shmem_barrier_all();
    maybe_late();
    CHECK_EQ_LONG(shmemx_scatterv(team, dest, source, out.counts, out.displs,
                                  out.counts[me], SHMEMX_INT, root),
                  0, "scatterv's return");
    for (size_t k = 0; k < out.counts[me]; k++)
        if (dest[k] != val(round, root, me, k)) {
            CHECK(0, "scatterv round %d root %d: element %zu is %d, expected %d", round, root, k,
                  dest[k], val(round, root, me, k));
            break;
        }
    for (size_t k = out.counts[me]; k < out.counts[me] + 8; k++)
        CHECK(dest[k] == -1, "scatterv round %d: element %zu past the block is %d", round, k,
              dest[k]);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > MAXPES) {
        if (me == 0)
            fprintf(stderr, "mpix_vcoll_big: at most %d PEs\n", MAXPES);
        shmem_finalize();
        return 77;
    }
    const char *which = getenv("SSHMEM_TEST_TEAM");
    team = SHMEM_TEAM_WORLD;
    if (which && !strcmp(which, "shared"))
        team = SHMEM_TEAM_SHARED;
    if (which && !strcmp(which, "split"))
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &team);
    CHECK(shmem_team_n_pes(team) == npes, "the team has every PE (SSHMEM_TEST_TEAM=%s)", which);
    const int wide = npes > WIDE;
    buf_ints = (size_t)npes * ((wide ? MEDIUM : BIG) + 100);
    dest = shmem_malloc(buf_ints * sizeof *dest);
    source = shmem_malloc(buf_ints * sizeof *source);
    CHECK(dest && source, "shmem_malloc of 2 x %zu ints", buf_ints);
    if (!dest || !source)
        return check_finish();
    const size_t sizes[2] = {wide ? MEDIUM : BIG, wide ? SMALL : MEDIUM};
    for (int pass = 0; pass < 4; pass++) {
        base = sizes[pass % 2];
        for (int round = 0; round < ROUNDS; round++) {
            const int root = round % npes;
            late_pe = pass < 2 ? -1 : (root + 1) % npes; /* a receiver, not the root */
            alltoallv(round);
            gather(round, root, 0);
            gather(round, root, 1);
            scatterv(round, root);
            late_pe = root; /* the root late too */
            if (pass >= 2)
                gather(round, root, 0);
        }
    }
    shmem_free(source);
    shmem_free(dest);
    return check_finish();
}
