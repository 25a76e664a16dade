/*
 * mpix_vcoll.c: gatherv, scatterv, allgatherv, alltoallv and their regular forms put every
 * PE's block exactly at its displacement (in extents of the type), in any order, with zero
 * counts and gaps between blocks left untouched, to every root; columns gathered into a
 * matrix interleave without overlapping (a resized column type); pairs keep their padding.
 * Small scatters go down a binomial tree (over tcp from 4 PEs, through UCX from 7) and
 * gathers up it (over tcp from 16 PEs; from 4 with SSHMEM_COLL_EXCHANGE=tree), tree.c: also
 * on teams of sizes that are not powers of two, and with more PEs than cores. With nodes of 2
 * PEs faked the allgathers take the node-aware steps on the direct path
 * (src/mpix/allgather_bruck.c).
 *
 * sshmem-test-env: np=5,6,7 paths=tcp
 * sshmem-test-env: np=4,7,8,13 paths=ucx,tcp SSHMEM_COLL_EXCHANGE=tree
 * sshmem-test-env: np=13 paths=direct
 * sshmem-test-env: np=17 paths=ucx,tcp
 * sshmem-test-env: np=8 paths=direct SSHMEM_PES_PER_NODE=2 UCX_TLS=tcp,self SSHMEM_COLL_EXCHANGE=tree
 * sshmem-test-env: np=4,6 SSHMEM_PES_PER_NODE=2
 */
#include <shmemx.h>

#include "check.h"

#define VAL(pe, k) (1000 * (pe) + (k))

static int me, npes;

/* PE i sends i % 3 elements (0 for PEs 0, 3, 6); blocks in reverse PE order, 1 gap before each. */
static void layout(size_t *counts, size_t *displs, size_t *total)
{
    size_t d = 0;
    for (int i = npes - 1; i >= 0; i--) {
        counts[i] = (size_t)(i % 3);
        displs[i] = d + 1;
        d = displs[i] + counts[i];
    }
    *total = d + 1;
}

/* What dest holds after every PE's block arrived: VAL(i, k) in block i, -1 in the gaps. */
static int expected(const size_t *counts, const size_t *displs, size_t pos)
{
    for (int i = 0; i < npes; i++)
        if (pos >= displs[i] && pos < displs[i] + counts[i])
            return VAL(i, (int)(pos - displs[i]));
    return -1;
}

static void gatherv_scatterv_allgatherv(void)
{
    size_t *counts = malloc(npes * sizeof *counts), *displs = malloc(npes * sizeof *displs), total;
    layout(counts, displs, &total);
    int *dest = shmem_malloc(total * sizeof *dest), src[3], *rsrc = malloc(total * sizeof *rsrc);
    for (int k = 0; k < 3; k++)
        src[k] = VAL(me, k);
    for (int root = 0; root < npes; root++) {
        for (size_t p = 0; p < total; p++)
            dest[p] = -1;
        shmemx_gatherv(SHMEM_TEAM_WORLD, dest, src, counts[me], me == root ? counts : NULL,
                       me == root ? displs : NULL, SHMEMX_INT, root);
        for (size_t p = 0; p < total; p++)
            CHECK_EQ_LONG(dest[p], me == root ? expected(counts, displs, p) : -1, "gatherv");
        /* scatterv: the root's source holds everything; each PE gets its block */
        for (size_t p = 0; p < total; p++)
            rsrc[p] = me == root ? expected(counts, displs, p) : -9;
        for (size_t p = 0; p < total; p++)
            dest[p] = -1;
        shmemx_scatterv(SHMEM_TEAM_WORLD, dest, rsrc, me == root ? counts : NULL,
                        me == root ? displs : NULL, counts[me], SHMEMX_INT, root);
        for (size_t p = 0; p < total; p++)
            CHECK_EQ_LONG(dest[p], p < counts[me] ? VAL(me, (int)p) : -1, "scatterv");
        shmem_barrier_all(); /* dest is reused: nobody may still be writing it */
    }
    for (size_t p = 0; p < total; p++)
        dest[p] = -1;
    shmemx_allgatherv(SHMEM_TEAM_WORLD, dest, src, counts[me], counts, displs, SHMEMX_INT);
    for (size_t p = 0; p < total; p++)
        CHECK_EQ_LONG(dest[p], expected(counts, displs, p), "allgatherv");
    shmem_barrier_all();
    shmem_free(dest);
    free(rsrc);
    free(counts);
    free(displs);
}

/* Each PE's column 0 lands in column i of the root's N x npes matrix (resized column type). */
static void gather_columns(void)
{
    enum { N = 5 };
    shmemx_datatype_t col, colr;
    shmemx_type_vector(N, 1, npes, SHMEMX_INT, &col);
    shmemx_type_create_resized(col, 0, sizeof(int), &colr);
    shmemx_type_commit(&colr);
    int *m = shmem_malloc(N * npes * sizeof *m), *local = malloc(N * npes * sizeof *local);
    size_t *counts = malloc(npes * sizeof *counts), *displs = malloc(npes * sizeof *displs);
    for (int i = 0; i < npes; i++) {
        counts[i] = 1;
        displs[i] = (size_t)i;
    }
    for (int p = 0; p < N * npes; p++) {
        m[p] = -1;
        local[p] = p % npes == 0 ? VAL(me, p / npes) : -5; /* column 0 holds my values */
    }
    int root = npes - 1;
    shmemx_gatherv(SHMEM_TEAM_WORLD, m, local, 1, counts, displs, colr, root);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < npes; c++)
            CHECK_EQ_LONG(m[r * npes + c], me == root ? VAL(c, r) : -1, "gathered column");
    shmem_barrier_all();
    /* the same with the regular form and allgather */
    for (int p = 0; p < N * npes; p++)
        m[p] = -1;
    shmemx_allgather(SHMEM_TEAM_WORLD, m, local, 1, colr);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < npes; c++)
            CHECK_EQ_LONG(m[r * npes + c], VAL(c, r), "allgathered column");
    shmem_barrier_all();
    shmem_free(m);
    free(local);
    free(counts);
    free(displs);
    shmemx_type_free(&col);
    shmemx_type_free(&colr);
}

/* PE i sends (i + j) % 3 + (i == j) ints to PE j, packed in reverse j order; receivers keep
 * two ints of gap before each block. */
static size_t a2a_count(int i, int j) { return (size_t)((i + j) % 3 + (i == j)); }

static void alltoallv(void)
{
    int n = npes;
    size_t *sc = malloc(n * sizeof(size_t)), *sd = malloc(n * sizeof(size_t)),
           *rc = malloc(n * sizeof(size_t)), *rd = malloc(n * sizeof(size_t));
    size_t s = 0, r = 0;
    for (int j = n - 1; j >= 0; j--) {
        sc[j] = a2a_count(me, j);
        sd[j] = s;
        s += sc[j];
    }
    size_t rtotal_max = 0;
    for (int p = 0; p < n; p++) { /* the largest receive area of any PE: dest is symmetric */
        size_t t = 0;
        for (int j = 0; j < n; j++)
            t += 2 + a2a_count(j, p);
        rtotal_max = t > rtotal_max ? t : rtotal_max;
    }
    for (int j = 0; j < n; j++) {
        rc[j] = a2a_count(j, me);
        rd[j] = r + 2;
        r = rd[j] + rc[j];
    }
    int *src = malloc((s ? s : 1) * sizeof *src), *dest = shmem_malloc(rtotal_max * sizeof *dest);
    for (int j = 0; j < n; j++)
        for (size_t k = 0; k < sc[j]; k++)
            src[sd[j] + k] = 10000 * me + 100 * j + (int)k;
    for (size_t p = 0; p < rtotal_max; p++)
        dest[p] = -1;
    shmemx_alltoallv(SHMEM_TEAM_WORLD, dest, rc, rd, src, sc, sd, SHMEMX_INT);
    for (size_t p = 0; p < rtotal_max; p++) {
        int want = -1;
        for (int j = 0; j < n; j++)
            if (p >= rd[j] && p < rd[j] + rc[j])
                want = 10000 * j + 100 * me + (int)(p - rd[j]);
        CHECK_EQ_LONG(dest[p], want, "alltoallv");
    }
    shmem_barrier_all();
    shmem_free(dest);
    free(src);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
}

/* Regular forms on a padded pair type: gather, scatter, alltoall. */
static void regular_pairs(void)
{
    enum { C = 2 };
    shmemx_long_int_t *dest = shmem_malloc(C * npes * sizeof *dest), src[C];
    shmemx_long_int_t *all = malloc(C * npes * sizeof *all);
    for (int k = 0; k < C; k++)
        src[k] = (shmemx_long_int_t){VAL(me, k), -me};
    for (int i = 0; i < npes; i++)
        for (int k = 0; k < C; k++)
            all[i * C + k] = (shmemx_long_int_t){VAL(i, k) + 7, i};
    int root = npes > 1 ? 1 : 0;
    memset(dest, 0xcd, C * npes * sizeof *dest);
    shmemx_gather(SHMEM_TEAM_WORLD, dest, src, C, SHMEMX_LONG_INT, root);
    if (me == root)
        for (int i = 0; i < npes; i++)
            for (int k = 0; k < C; k++)
                CHECK(dest[i * C + k].value == VAL(i, k) && dest[i * C + k].index == -i,
                      "gather pair %d.%d", i, k);
    shmem_barrier_all();
    memset(dest, 0xcd, C * npes * sizeof *dest);
    shmemx_scatter(SHMEM_TEAM_WORLD, dest, all, C, SHMEMX_LONG_INT, root);
    for (int k = 0; k < C; k++)
        CHECK(dest[k].value == VAL(me, k) + 7 && dest[k].index == me, "scatter pair %d", k);
    shmem_barrier_all();
    for (int i = 0; i < npes; i++)
        for (int k = 0; k < C; k++)
            all[i * C + k] = (shmemx_long_int_t){100 * me + i, k};
    shmemx_alltoall(SHMEM_TEAM_WORLD, dest, all, C, SHMEMX_LONG_INT);
    for (int j = 0; j < npes; j++)
        for (int k = 0; k < C; k++)
            CHECK(dest[j * C + k].value == 100 * j + me && dest[j * C + k].index == k,
                  "alltoall pair %d.%d", j, k);
    shmem_barrier_all();
    shmem_free(dest);
    free(all);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    gatherv_scatterv_allgatherv();
    gather_columns();
    alltoallv();
    regular_pairs();
    return check_finish();
}
