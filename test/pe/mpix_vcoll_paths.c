/*
 * mpix_vcoll_paths.c: every way a block of the shmemx gather family travels, checked element
 * by element on every PE: blocks small enough for the sync area next to blocks far beyond any
 * work buffer in the same call (both paths at once), zero counts, a strided type (every other
 * int) on both paths, SHMEMX_IN_PLACE for gather/gatherv (root), allgather/allgatherv
 * (everyone) and scatter/scatterv (root), a NULL dest on gatherv's non-roots and a local (not symmetric)
 * dest on scatterv's root, and all of it on a team of every other PE counted backwards.
 *
 * With several nodes faked (SSHMEM_PES_PER_NODE) the allgathers take the node-aware steps on
 * the direct path (src/mpix/allgather_bruck.c), Bruck's over the members on the others: nodes
 * of 2 and 3 members, one of a single member (5 PEs), tcp between the nodes' leaders, and on
 * the backward team nodes in reverse order.
 *
 * sshmem-test-env: np=2,3,8 SSHMEM_COLL_EXCHANGE=rendezvous
 * sshmem-test-env: np=4 paths=tcp SSHMEM_COLL_EXCHANGE=rendezvous
 * sshmem-test-env: np=4,5,8 SSHMEM_PES_PER_NODE=2
 * sshmem-test-env: np=6,8 SSHMEM_PES_PER_NODE=3
 * sshmem-test-env: np=6 paths=direct SSHMEM_PES_PER_NODE=3 UCX_TLS=tcp,self
 * (gatherv's tree, src/mpix/tree.c: small blocks up it, large ones beside it by invitation)
 * sshmem-test-env: np=4,7,13 paths=ucx,tcp SSHMEM_COLL_EXCHANGE=tree
 * sshmem-test-env: np=17 paths=tcp
 */
#include <shmemx.h>

#include "check.h"

#define MAXPES 64
#define BIG 3000 /* ints: 12 KB, more than a sync area's whole work space */

static int me, npes;
/* Symmetric memory for every case, allocated once on the world (shmem_malloc is a world
 * collective, so team-only code cannot call it): large enough for the world team. */
static int *pool;
static size_t pool_ints(int n) { return (2 * (size_t)BIG + 4) * (size_t)n + 16; }

static int val(int pe, size_t k) { return 100000 * (pe + 1) + (int)k; }

/* Team member i sends count_of(i): zero, small and big blocks side by side. */
static size_t count_of(int i) { return i % 3 == 0 ? 2 : i % 3 == 1 ? BIG : 0; }

typedef struct layout {
    size_t counts[MAXPES], displs[MAXPES], total;
} layout_t;

/* Blocks of count_of(i) elements in reverse member order, one element of gap before each. */
static void make_layout(layout_t *l, int n)
{
    l->total = 0;
    for (int i = n - 1; i >= 0; i--) {
        l->counts[i] = count_of(i);
        l->displs[i] = l->total + 1;
        l->total = l->displs[i] + l->counts[i];
    }
    l->total++;
}

/* What the gathered array holds at element p: member i's value k in its block, -1 in gaps. */
static int gathered(const layout_t *l, int n, size_t p)
{
    for (int i = 0; i < n; i++)
        if (p >= l->displs[i] && p < l->displs[i] + l->counts[i])
            return val(i, p - l->displs[i]);
    return -1;
}

/* The v-forms with a contiguous type, on team (my index ti of n), in place or not. */
static void v_forms(shmem_team_t team, int ti, int n, int in_place, const char *what)
{
    layout_t l;
    make_layout(&l, n);
    int *dest = pool; /* l.total ints are used, the same on every member */
    int *src = malloc((BIG + 1) * sizeof(int)), *all = malloc(l.total * sizeof(int));
    for (size_t k = 0; k < count_of(ti); k++)
        src[k] = val(ti, k);
    for (size_t p = 0; p < l.total; p++)
        all[p] = gathered(&l, n, p);
    for (int root = 0; root < n; root++) {
        /* gatherv: in place, the root's own block is already in dest */
        for (size_t p = 0; p < l.total; p++)
            dest[p] = in_place && ti == root ? all[p] : -1;
        const void *s = in_place && ti == root ? SHMEMX_IN_PLACE : (const void *)src;
        int *d0 = ti != root && ti % 2 ? NULL : dest; /* a non-root's dest is not used */
        shmemx_gatherv(team, d0, s, count_of(ti), l.counts, l.displs, SHMEMX_INT, root);
        for (size_t p = 0; p < l.total; p++)
            CHECK_EQ_LONG(dest[p], ti == root ? all[p] : -1, what);
        shmem_team_sync(team);
        /* scatterv: in place, the root keeps its block in source and dest is untouched */
        for (size_t p = 0; p < l.total; p++)
            dest[p] = -1;
        /* the root's own dest need not be symmetric: local memory here */
        int *local = malloc((BIG + 1) * sizeof(int));
        void *d = ti != root ? dest : in_place ? SHMEMX_IN_PLACE : local;
        shmemx_scatterv(team, d, all, l.counts, l.displs, count_of(ti), SHMEMX_INT, root);
        for (size_t p = 0; p < l.total; p++)
            CHECK_EQ_LONG(dest[p], ti != root && p < count_of(ti) ? val(ti, p) : -1, what);
        if (ti == root && !in_place)
            for (size_t p = 0; p < count_of(ti); p++)
                CHECK_EQ_LONG(local[p], val(ti, p), what);
        free(local);
        shmem_team_sync(team);
    }
    for (size_t p = 0; p < l.total; p++) { /* in place: my own block is already in dest */
        int mine = p >= l.displs[ti] && p < l.displs[ti] + l.counts[ti];
        dest[p] = in_place && mine ? all[p] : -1;
    }
    shmemx_allgatherv(team, dest, in_place ? SHMEMX_IN_PLACE : (const void *)src, count_of(ti),
                      l.counts, l.displs, SHMEMX_INT);
    for (size_t p = 0; p < l.total; p++)
        CHECK_EQ_LONG(dest[p], all[p], what);
    shmem_team_sync(team);
    free(src);
    free(all);
}

/* alltoallv: member i sends a2a(i, j) ints to member j (small, big or none). */
static size_t a2a(int i, int j) { return (i + 2 * j) % 3 == 0 ? 0 : (i + 2 * j) % 3 == 1 ? 3 : BIG; }

static void alltoallv(shmem_team_t team, int ti, int n)
{
    size_t sc[MAXPES], sd[MAXPES], rc[MAXPES], rd[MAXPES], s = 0, r = 0, rmax = 0;
    for (int j = 0; j < n; j++) {
        sc[j] = a2a(ti, j), sd[j] = s, s += sc[j];
        rc[j] = a2a(j, ti), rd[j] = r + 1, r = rd[j] + rc[j];
    }
    for (int p = 0; p < n; p++) { /* dest is symmetric: the largest receive area */
        size_t t = 0;
        for (int j = 0; j < n; j++)
            t += 1 + a2a(j, p);
        rmax = t > rmax ? t : rmax;
    }
    int *src = malloc((s + 1) * sizeof(int)), *dest = pool;
    for (int j = 0; j < n; j++)
        for (size_t k = 0; k < sc[j]; k++)
            src[sd[j] + k] = val(ti, k) + 7 * j;
    for (size_t p = 0; p < rmax; p++)
        dest[p] = -1;
    shmemx_alltoallv(team, dest, rc, rd, src, sc, sd, SHMEMX_INT);
    for (size_t p = 0; p < rmax; p++) {
        int want = -1;
        for (int j = 0; j < n; j++)
            if (p >= rd[j] && p < rd[j] + rc[j])
                want = val(j, p - rd[j]) + 7 * ti;
        CHECK_EQ_LONG(dest[p], want, "alltoallv");
    }
    shmem_team_sync(team);
    free(src);
}

/* allgather of a strided type (every other int of the source, lands every other int): the
 * small path at 1 element, the large one at BIG elements. */
static void strided(shmem_team_t team, int ti, int n)
{
    shmemx_datatype_t every2; /* one int, the next element two ints further */
    shmemx_type_create_resized(SHMEMX_INT, 0, 2 * sizeof(int), &every2);
    shmemx_type_commit(&every2);
    const size_t counts[] = {1, BIG};
    for (int c = 0; c < 2; c++) {
        size_t count = counts[c], len = 2 * count * (size_t)n;
        int *dest = pool, *src = malloc(2 * count * sizeof(int));
        for (size_t k = 0; k < 2 * count; k++)
            src[k] = k % 2 ? -5 : val(ti, k / 2);
        for (size_t p = 0; p < len; p++)
            dest[p] = -1;
        shmemx_allgather(team, dest, src, count, every2);
        for (int i = 0; i < n; i++)
            for (size_t k = 0; k < 2 * count; k++)
                CHECK_EQ_LONG(dest[2 * count * (size_t)i + k], k % 2 ? -1 : val(i, k / 2),
                              "strided allgather");
        shmem_team_sync(team);
        /* in place: my own block is already there */
        for (size_t p = 0; p < len; p++)
            dest[p] = -1;
        for (size_t k = 0; k < count; k++)
            dest[2 * count * (size_t)ti + 2 * k] = val(ti, k);
        shmemx_allgather(team, dest, SHMEMX_IN_PLACE, count, every2);
        for (int i = 0; i < n; i++)
            for (size_t k = 0; k < 2 * count; k++)
                CHECK_EQ_LONG(dest[2 * count * (size_t)i + k], k % 2 ? -1 : val(i, k / 2),
                              "strided allgather in place");
        shmem_team_sync(team);
        free(src);
    }
    shmemx_type_free(&every2);
}

/* The regular rooted forms in place. */
static void regular_in_place(shmem_team_t team, int ti, int n)
{
    enum { C = 3 };
    long *dest = (long *)pool, src[C];
    long *all = malloc(C * (size_t)n * sizeof(long));
    for (int k = 0; k < C; k++)
        src[k] = val(ti, k);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < C; k++)
            all[i * C + k] = val(i, k);
    int root = n - 1;
    for (int p = 0; p < C * n; p++)
        dest[p] = ti == root ? (p / C == root ? all[p] : -1) : -2;
    shmemx_gather(team, dest, ti == root ? SHMEMX_IN_PLACE : (const void *)src, C, SHMEMX_LONG,
                  root);
    for (int p = 0; p < C * n; p++)
        CHECK_EQ_LONG(dest[p], ti == root ? all[p] : -2, "gather in place");
    shmem_team_sync(team);
    for (int p = 0; p < C * n; p++)
        dest[p] = -3;
    shmemx_scatter(team, ti == root ? SHMEMX_IN_PLACE : (void *)dest, all, C, SHMEMX_LONG, root);
    for (int p = 0; p < C * n; p++)
        CHECK_EQ_LONG(dest[p], ti != root && p < C ? all[ti * C + p] : -3, "scatter in place");
    shmem_team_sync(team);
    free(all);
}

static void everything(shmem_team_t team)
{
    int ti = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    v_forms(team, ti, n, 0, "v-forms");
    v_forms(team, ti, n, 1, "v-forms in place");
    alltoallv(team, ti, n);
    strided(team, ti, n);
    regular_in_place(team, ti, n);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    pool = shmem_malloc(pool_ints(npes) * sizeof(int));
    everything(SHMEM_TEAM_WORLD);
    /* every other PE from the highest down: team index i is world PE top - 2i */
    int top = npes - 1, size = (top + 2) / 2;
    shmem_team_t back = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, top - 2 * (size - 1), 2, size, NULL, 0, &back);
    shmem_team_t rev = SHMEM_TEAM_INVALID;
    if (back != SHMEM_TEAM_INVALID)
        shmem_team_split_strided(back, size - 1, -1, size, NULL, 0, &rev);
    if (rev != SHMEM_TEAM_INVALID) {
        CHECK_EQ_LONG(shmem_team_my_pe(rev), (top - me) / 2, "index in the backward team");
        everything(rev);
        shmem_team_destroy(rev);
    }
    if (back != SHMEM_TEAM_INVALID)
        shmem_team_destroy(back);
    shmem_barrier_all();
    shmem_free(pool);
    return check_finish();
}
