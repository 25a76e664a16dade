/*
 * mpix_subarray.c: halo and tile exchanges with subarray types (shmemx_type_create_subarray)
 * through shmemx_put_type / get_type, on 2D and 3D grids in C and Fortran order.
 *
 * Every PE holds a grid whose outermost layer is halo. For each dimension D:
 *   put: my last interior slab (index size-2 along D) goes into the right neighbour's first
 *        halo slab (index 0): the face type starts at the halo, the source is shifted;
 *   get: the right neighbour's first interior slab (index 1) comes into my last halo slab.
 * Then every element of every grid is checked (the halo from the neighbours, the rest
 * untouched). Also an interior tile: get_type into a local buffer (the rest of it untouched)
 * and put_type_nbi of two whole grids' tiles at once, complete after shmem_quiet.
 */
#include <shmemx.h>

#include "check.h"

#define MAXD 3
#define V(pe, off) ((double)(pe) * 100000.0 + (double)(off))

static int me, npes, right, left;

typedef struct grid {
    int nd, order;
    int sizes[MAXD];
    size_t total;
} grid_t;

/* Element offset of index idx in the grid (C: last index fastest; Fortran: first). */
static size_t offset(const grid_t *g, const int *idx)
{
    size_t off = 0;
    for (int k = 0; k < g->nd; k++) {
        int d = g->order == SHMEMX_ORDER_C ? k : g->nd - 1 - k;
        off = off * (size_t)g->sizes[d] + (size_t)idx[d];
    }
    return off;
}

/* Step idx through the whole grid (any order of visiting is fine for checks). */
static int next(const grid_t *g, int *idx)
{
    for (int d = g->nd - 1; d >= 0; d--) {
        if (++idx[d] < g->sizes[d])
            return 1;
        idx[d] = 0;
    }
    return 0;
}

/* Element offset of one step along dimension D. */
static size_t step(const grid_t *g, int D)
{
    int idx[MAXD] = {0};
    idx[D] = 1;
    return offset(g, idx);
}

static shmemx_datatype_t subarray(const grid_t *g, const int *sub, const int *start)
{
    shmemx_datatype_t t;
    CHECK_EQ_LONG(shmemx_type_create_subarray(g->nd, g->sizes, sub, start, g->order,
                                              SHMEMX_DOUBLE, &t), 0, "create_subarray rc");
    CHECK_EQ_LONG(shmemx_type_commit(&t), 0, "commit rc");
    return t;
}

static void mine(const grid_t *g, double *a, int pe)
{
    for (size_t i = 0; i < g->total; i++)
        a[i] = V(pe, i);
}

/* Faces perpendicular to dimension D, both directions; then every element checked. */
static void faces(const grid_t *g, double *a, int D, const char *what)
{
    int sub[MAXD], halo[MAXD] = {0}, inner[MAXD] = {0};
    for (int d = 0; d < g->nd; d++)
        sub[d] = g->sizes[d];
    sub[D] = 1;
    inner[D] = 1;
    shmemx_datatype_t face0 = subarray(g, sub, halo), face1 = subarray(g, sub, inner);
    size_t shift = (size_t)(g->sizes[D] - 2) * step(g, D);
    mine(g, a, me);
    shmem_barrier_all();
    /* my slab size-2 -> right's slab 0; right's slab 1 -> my slab size-1 */
    CHECK_EQ_LONG(shmemx_put_type(a, a + shift, 1, face0, right), 0, "put_type rc");
    CHECK_EQ_LONG(shmemx_get_type(a + shift, a, 1, face1, right), 0, "get_type rc");
    shmem_barrier_all();
    int idx[MAXD] = {0};
    do {
        int at = idx[D], from[MAXD];
        memcpy(from, idx, sizeof from);
        double want;
        if (at == 0) {
            from[D] = g->sizes[D] - 2;
            want = V(left, offset(g, from));
        } else if (at == g->sizes[D] - 1) {
            from[D] = 1;
            want = V(right, offset(g, from));
        } else {
            want = V(me, offset(g, idx));
        }
        double got = a[offset(g, idx)];
        CHECK(got == want, "%s face D=%d at (%d,%d,%d): %g, expected %g", what, D, idx[0],
              idx[1], g->nd > 2 ? idx[2] : 0, got, want);
    } while (next(g, idx));
    shmemx_type_free(&face0);
    shmemx_type_free(&face1);
    shmem_barrier_all();
}

/* The interior tile: got from the right neighbour into a local buffer; then put (nbi) as two
 * consecutive grids at once into the right neighbour's pair of grids. */
static void tiles(const grid_t *g, double *pair, const char *what)
{
    int sub[MAXD], start[MAXD];
    for (int d = 0; d < g->nd; d++) {
        sub[d] = g->sizes[d] - 2;
        start[d] = 1;
    }
    shmemx_datatype_t tile = subarray(g, sub, start);
    double *local = malloc(2 * g->total * sizeof *local);
    mine(g, pair, me);
    mine(g, pair + g->total, me + npes);
    for (size_t i = 0; i < 2 * g->total; i++)
        local[i] = -1;
    shmem_barrier_all();
    CHECK_EQ_LONG(shmemx_get_type(local, pair, 1, tile, right), 0, "get_type tile rc");
    int idx[MAXD] = {0};
    do {
        int inside = 1;
        for (int d = 0; d < g->nd; d++)
            inside &= idx[d] >= 1 && idx[d] <= g->sizes[d] - 2;
        size_t o = offset(g, idx);
        double want = inside ? V(right, o) : -1;
        CHECK(local[o] == want, "%s tile get at %zu: %g, expected %g", what, o, local[o], want);
    } while (next(g, idx));
    shmem_barrier_all();
    /* the tiles of two local grids (my values) into the right neighbour's two grids: the
     * source is not the target array, which the left neighbour is writing meanwhile */
    mine(g, local, me);
    mine(g, local + g->total, me + npes);
    CHECK_EQ_LONG(shmemx_put_type_nbi(pair, local, 2, tile, right), 0, "put_type_nbi rc");
    shmem_quiet();
    shmem_barrier_all();
    for (int e = 0; e < 2; e++) {
        memset(idx, 0, sizeof idx);
        do {
            int inside = 1;
            for (int d = 0; d < g->nd; d++)
                inside &= idx[d] >= 1 && idx[d] <= g->sizes[d] - 2;
            size_t o = offset(g, idx);
            double want = inside ? V(left + e * npes, o) : V(me + e * npes, o);
            double got = pair[e * g->total + o];
            CHECK(got == want, "%s tile put grid %d at %zu: %g, expected %g", what, e, o, got,
                  want);
        } while (next(g, idx));
    }
    free(local);
    shmemx_type_free(&tile);
    shmem_barrier_all();
}

static void run(int nd, const int *sizes, int order, const char *what)
{
    grid_t g = {nd, order, {0}, 1};
    for (int d = 0; d < nd; d++) {
        g.sizes[d] = sizes[d];
        g.total *= (size_t)sizes[d];
    }
    double *a = shmem_malloc(2 * g.total * sizeof *a);
    for (int D = 0; D < nd; D++)
        faces(&g, a, D, what);
    tiles(&g, a, what);
    shmem_free(a);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    run(2, (int[]){6, 8}, SHMEMX_ORDER_C, "2D C");
    run(2, (int[]){6, 8}, SHMEMX_ORDER_FORTRAN, "2D Fortran");
    run(3, (int[]){4, 5, 6}, SHMEMX_ORDER_C, "3D C");
    run(3, (int[]){4, 5, 6}, SHMEMX_ORDER_FORTRAN, "3D Fortran");
    run(3, (int[]){3, 40, 50}, SHMEMX_ORDER_C, "3D C large");
    return check_finish();
}
