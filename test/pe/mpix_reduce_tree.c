/*
 * mpix_reduce_tree.c: reductions to a root of large vectors (more than 8 KiB; through UCX
 * reduce-scatter, then a gather to the root, coll_reduce_to): into the root's dest apart from
 * its source or in place, larger than the landing (in pieces, as an allreduce); with a
 * non-commutative operator to root 0 and to the last PE; on a team split off the world (a
 * small landing); with the root or its first child entering every call late; and sizes
 * changing from call to call. Every
 * element of the root's result is checked, and a non-root's dest stays untouched; then calls
 * back to back, without a barrier between them. On the other paths the same calls run their
 * own algorithms and are checked alike.
 *
 * sshmem-test: np=2 3 4 5 8
 */
#include <shmemx.h>
#include <time.h>

#include "check.h"
#include "mat2.h"

#define MAXN (300 * 1024) /* doubles: 2.4 MB, beyond a 1.5 MiB landing buffer */
#define LATE_NS 20000000L

static int me, npes;
static double *src, *dest;
static int late_pe = -1;

static double val(int pe, size_t k, int round) { return pe * 1000 + (double)((k + round) % 977); }

static void maybe_late(void)
{
    if (me == late_pe) {
        struct timespec t = {0, LATE_NS};
        nanosleep(&t, NULL);
    }
}

/* SUM of n doubles to root on team (of tn members, this PE member tme), from src apart
 * from dest or in place, checked on every element. */
static void sum_to_root(shmem_team_t team, int tme, int tn, size_t n, int root, int in_place,
                        int round, const char *what)
{
    for (size_t k = 0; k < n; k++) {
        src[k] = val(tme, k, round);
        dest[k] = -1;
    }
    const int at_root = tme == root;
    shmem_barrier_all();
    maybe_late();
    if (in_place && at_root)
        shmemx_reduce(team, src, SHMEMX_IN_PLACE, n, SHMEMX_DOUBLE, SHMEMX_SUM, root);
    else
        shmemx_reduce(team, dest, src, n, SHMEMX_DOUBLE, SHMEMX_SUM, root);
    const double *got = in_place && at_root ? src : dest;
    int bad = 0;
    for (size_t k = 0; k < n && bad < 5; k++) {
        const double want =
            at_root ? 1000.0 * tn * (tn - 1) / 2 + (double)tn * (double)((k + round) % 977) : -1;
        if (got[k] != want) {
            bad++;
            CHECK(0, "%s: %zu doubles to root %d%s, element %zu = %g, want %g", what, n, root,
                  in_place ? " in place" : "", k, got[k], want);
        }
    }
}

/* Integer matrices with entries below 4: their products are exact in doubles. */
static mat2 mat_at(int pe, size_t k) { return (mat2){1 + (pe + k) % 3, 1, 1, (double)(k % 2)}; }

static void matmul_to_root(size_t n, int root)
{
    shmemx_op_t op;
    shmemx_datatype_t m2;
    shmemx_op_create(matmul, 0, &op);
    shmemx_type_contiguous(4, SHMEMX_DOUBLE, &m2);
    shmemx_type_commit(&m2);
    mat2 *s = (mat2 *)src, *d = (mat2 *)dest;
    for (size_t k = 0; k < n; k++) {
        s[k] = mat_at(me, k);
        d[k] = (mat2){-1, -1, -1, -1};
    }
    shmem_barrier_all();
    maybe_late();
    shmemx_reduce(SHMEM_TEAM_WORLD, d, s, n, m2, op, root);
    int bad = 0;
    for (size_t k = 0; k < n && bad < 5; k++) {
        mat2 want = me == root ? mat_at(0, k) : (mat2){-1, -1, -1, -1};
        for (int p = 1; me == root && p < npes; p++)
            want = mul(want, mat_at(p, k));
        if (d[k].a != want.a || d[k].b != want.b || d[k].c != want.c || d[k].d != want.d) {
            bad++;
            CHECK(0, "matmul of %zu to root %d: [%zu] = [%g %g; %g %g], want [%g %g; %g %g]", n,
                  root, k, d[k].a, d[k].b, d[k].c, d[k].d, want.a, want.b, want.c, want.d);
        }
    }
    shmemx_type_free(&m2);
    shmemx_op_free(&op);
}

/* Every size and form on the world, each to the first and the last PE. */
static void world_pass(int round)
{
    static const size_t sizes[] = {1500, 20000, 131072, MAXN, 40000};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int root = 0; root < npes; root += npes > 1 ? npes - 1 : 1) {
            sum_to_root(SHMEM_TEAM_WORLD, me, npes, sizes[i], root, 0, round, "sum");
            sum_to_root(SHMEM_TEAM_WORLD, me, npes, sizes[i], root, 1, round, "sum");
        }
    matmul_to_root(40000, 0);
    if (npes > 1)
        matmul_to_root(40000, npes - 1);
}

/* Calls back to back, no barrier between them: the root turns, sizes change, and a member
 * that leaves early (its block sent) runs into the next call while its root is still in
 * this one, so blocks wait at their roots, held; one PE pauses now and then. The sources
 * change with every call (a block of an earlier call taken for a later one shows). */
static void back_to_back(void)
{
    static const size_t sizes[] = {131072, 20000, MAXN, 1500};
    enum { CALLS = 24 };
    for (int call = 0; call < CALLS; call++) {
        const size_t n = sizes[call % 4];
        const int root = call % npes;
        for (size_t k = 0; k < n; k++) /* the last call is done with src: it returned */
            src[k] = val(me, k, call);
        if (me == (call * 7) % npes && call % 3 == 0) {
            struct timespec t = {0, 2000000L};
            nanosleep(&t, NULL);
        }
        shmemx_reduce(SHMEM_TEAM_WORLD, dest, src, n, SHMEMX_DOUBLE, SHMEMX_SUM, root);
        if (me != root)
            continue;
        for (size_t k = 0; k < n; k++) {
            const double want = 1000.0 * npes * (npes - 1) / 2 + (double)npes * ((k + call) % 977);
            if (dest[k] != want) {
                CHECK(0, "back to back, call %d: %zu doubles to root %d, element %zu = %g, "
                      "want %g", call, n, root, k, dest[k], want);
                break;
            }
        }
    }
    shmem_barrier_all();
}

/* A team of the even PEs (a split team's landing buffer is small). */
static void split_pass(void)
{
    shmem_team_t evens;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    if (evens != SHMEM_TEAM_INVALID) {
        const int tme = shmem_team_my_pe(evens), tn = shmem_team_n_pes(evens);
        for (int root = 0; root < tn; root++) {
            sum_to_root(evens, tme, tn, 131072, root, 0, 7, "split sum");
            sum_to_root(evens, tme, tn, 131072, root, 1, 7, "split sum");
        }
    } else {
        for (int root = 0; root < (npes + 1) / 2; root++)
            for (int twice = 0; twice < 2; twice++)
                shmem_barrier_all(); /* the barriers the evens' calls hold */
    }
    shmem_barrier_all();
    if (evens != SHMEM_TEAM_INVALID)
        shmem_team_destroy(evens);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    src = shmem_malloc(MAXN * sizeof(double));
    dest = shmem_malloc(MAXN * sizeof(double));
    world_pass(0);
    late_pe = 0; /* the root of half the calls: blocks wait for it */
    world_pass(1);
    late_pe = npes > 1 ? 1 : -1; /* the first child of root 0 */
    world_pass(2);
    late_pe = -1;
    back_to_back();
    split_pass();
    shmem_free(dest);
    shmem_free(src);
    return check_finish();
}
