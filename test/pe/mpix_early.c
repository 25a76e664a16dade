/*
 * mpix_early.c: the MPI-style rooted collectives return as early as MPI lets them (a gatherv
 * member once its block is delivered, a scatterv member once its block is in its dest, a
 * reduce member once its contribution is taken) and stay right when calls follow each other
 * at once. Back-to-back gatherv, scatterv, gather, scatter and reduce calls (and an allgatherv
 * among them), the root turning every call, nothing between the calls: fast members race
 * ahead into the next calls while a root still works on an older one (roots also dawdle on
 * purpose now and then). The data differs in every call, every PE rewrites its source the
 * moment a call returns (MPI: the buffer may be reused), and every element of every result
 * is checked on every PE right after the call that made it (other PEs' dest of a reduce must
 * stay untouched). Blocks small enough for the sync area and blocks far beyond it; a reduce
 * of one long, of a non-commutative user operator (ascending PE order), of a type with gaps
 * (the staged form) and of data above the small-reduce size. On the world team and on the
 * world backwards (member i is PE n-1-i).
 *
 * sshmem-test: np=1 2 3 4 8
 * sshmem-test-env: np=2,3,4,8 paths=direct SSHMEM_COLL_EXCHANGE=rendezvous
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_REDUCE=rd
 * sshmem-test-env: np=4,8 paths=direct SSHMEM_PES_PER_NODE=2
 * sshmem-test-env: np=4 paths=ucx,tcp SSHMEM_COLL_EXCHANGE=rendezvous
 * (over tcp a collective step is one message; SSHMEM_COLL_MESSAGES=0 runs its put + signal form)
 * sshmem-test-env: np=4 paths=tcp SSHMEM_COLL_MESSAGES=0
 * (small scatters over tcp go down a tree and gathers up it, src/mpix/tree.c: on teams of sizes
 * that are not powers of two, and with nodes of 2 PEs whose pairs inside a node are direct;
 * gathers over tcp from 16 PEs, or 4 with SSHMEM_COLL_EXCHANGE=tree; through UCX on teams above
 * MPIX_EARLY_UCX_MAX without early return)
 * sshmem-test-env: np=5,6,7 paths=tcp
 * sshmem-test-env: np=4,7,13 paths=ucx,tcp SSHMEM_COLL_EXCHANGE=tree
 * sshmem-test-env: np=6 paths=direct SSHMEM_PES_PER_NODE=2 UCX_TLS=tcp,self
 * (over tcp they return early on teams of any size, and the next call that is not
 * of the gather family begins with a barrier of gated messages: coll/engine.c)
 * sshmem-test-env: np=12 paths=tcp
 */
#include <shmemx.h>

#include "check.h"
#include "mat2.h"

#define ITERS 40
#define BIG 3000   /* ints: 12 KB, beyond the sync area's whole work space */
#define SMALL 3    /* ints at most in a small block */
#define MID 600    /* longs: 4.8 KB, above the small (gathered) reduce */
#define MAXPES 64

static int me, npes;
static int *gdest, *sdest; /* symmetric: gather dest (npes * BIG), scatter dest (BIG) */
static int *src;           /* local: npes * BIG */
static long *nsrc, *ndest; /* symmetric, for the native calls: MID, MAXPES + MID */
static shmemx_op_t matmul_op;
static shmemx_datatype_t m2gap; /* a matrix and a 5th double: a gap */

/* Element k of the block member i sends in call `call` of iteration it. */
static int val(int it, int call, int i, size_t k)
{
    return ((it * 10 + call) * MAXPES + i) * 4096 + (int)k;
}

/* Count of member i's block: small blocks of 0..SMALL ints, or big ones every 4th
 * iteration (members 0, 2, ... big, the others small: both paths in one call). */
static size_t count_of(int it, int i)
{
    if (it % 4 == 3 && i % 2 == 0)
        return BIG - (size_t)i;
    return (size_t)((it + i) % (SMALL + 1));
}

static int slow_member = -1; /* dawdles before every call (the slow phase) */

/* Roots sometimes dawdle, so the members leave and race ahead into the next calls. */
static void maybe_dawdle(int it, int t_me, int root)
{
    if (t_me != slow_member && (t_me != root || it % 3 != 0))
        return;
    volatile double x = 1;
    for (int k = 0; k < 20000; k++)
        x = x * 1.0000001 + 1e-9;
}

static void scribble(int *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        p[k] = -12345;
}

/* gatherv to root: blocks in reverse member order, one int of gap before each. */
static void gatherv_call(shmem_team_t team, int t_me, int t_n, int it, int call, int root)
{
    size_t counts[MAXPES], displs[MAXPES], d = 0;
    for (int i = t_n - 1; i >= 0; i--) {
        counts[i] = count_of(it, i);
        displs[i] = d + 1;
        d = displs[i] + counts[i];
    }
    size_t mine = count_of(it, t_me);
    for (size_t k = 0; k < mine; k++)
        src[k] = val(it, call, t_me, k);
    if (t_me == root)
        scribble(gdest, d + 1);
    maybe_dawdle(it, t_me, root);
    shmemx_gatherv(team, gdest, src, mine, counts, displs, SHMEMX_INT, root);
    scribble(src, mine); /* reusable at once */
    if (t_me != root)
        return;
    for (int i = 0; i < t_n; i++) {
        CHECK(gdest[displs[i] - 1] == -12345, "it %d: gatherv gap before member %d: %d", it, i,
              gdest[displs[i] - 1]);
        for (size_t k = 0; k < counts[i]; k++)
            CHECK(gdest[displs[i] + k] == val(it, call, i, k),
                  "it %d: gatherv from member %d [%zu] = %d", it, i, k, gdest[displs[i] + k]);
    }
}

/* scatterv from root: member i's block at i * BIG of the root's source. */
static void scatterv_call(shmem_team_t team, int t_me, int t_n, int it, int call, int root)
{
    size_t counts[MAXPES], displs[MAXPES];
    for (int i = 0; i < t_n; i++) {
        counts[i] = count_of(it + 1, i);
        displs[i] = (size_t)i * BIG;
    }
    if (t_me == root)
        for (int i = 0; i < t_n; i++)
            for (size_t k = 0; k < counts[i]; k++)
                src[displs[i] + k] = val(it, call, i, k);
    size_t mine = count_of(it + 1, t_me);
    scribble(sdest, mine + 1);
    maybe_dawdle(it, t_me, root);
    shmemx_scatterv(team, sdest, src, counts, displs, mine, SHMEMX_INT, root);
    if (t_me == root)
        scribble(src, (size_t)t_n * BIG);
    for (size_t k = 0; k < mine; k++)
        CHECK(sdest[k] == val(it, call, t_me, k), "it %d: scatterv to member %d [%zu] = %d", it,
              t_me, k, sdest[k]);
    CHECK(sdest[mine] == -12345, "it %d: scatterv wrote past member %d's block", it, t_me);
}

/* The regular forms: SMALL ints per member (BIG every 4th iteration). */
static void gather_scatter_calls(shmem_team_t team, int t_me, int t_n, int it, int call,
                                 int root)
{
    size_t cnt = it % 4 == 3 ? BIG / 2 : SMALL;
    for (size_t k = 0; k < cnt; k++)
        src[k] = val(it, call, t_me, k);
    shmemx_gather(team, gdest, src, cnt, SHMEMX_INT, root);
    scribble(src, cnt);
    if (t_me == root)
        for (int i = 0; i < t_n; i++)
            for (size_t k = 0; k < cnt; k++)
                CHECK(gdest[(size_t)i * cnt + k] == val(it, call, i, k),
                      "it %d: gather from member %d [%zu] = %d", it, i, k,
                      gdest[(size_t)i * cnt + k]);
    int sroot = (root + 1) % t_n;
    if (t_me == sroot)
        for (int i = 0; i < t_n; i++)
            for (size_t k = 0; k < cnt; k++)
                src[(size_t)i * cnt + k] = val(it, call + 1, i, k);
    maybe_dawdle(it, t_me, sroot);
    shmemx_scatter(team, sdest, src, cnt, SHMEMX_INT, sroot);
    if (t_me == sroot)
        scribble(src, (size_t)t_n * cnt);
    for (size_t k = 0; k < cnt; k++)
        CHECK(sdest[k] == val(it, call + 1, t_me, k), "it %d: scatter to member %d [%zu] = %d",
              it, t_me, k, sdest[k]);
}

/* A sum of n longs to root (n = 1: the 8-byte case; MID: above the gathered size). */
static void reduce_sum_call(shmem_team_t team, int t_me, int t_n, int it, int call, int root,
                            size_t n)
{
    long *s = malloc(n * sizeof *s), *d = malloc(n * sizeof *d);
    for (size_t k = 0; k < n; k++) {
        s[k] = val(it, call, t_me, k);
        d[k] = -7;
    }
    maybe_dawdle(it, t_me, root);
    shmemx_reduce(team, d, s, n, SHMEMX_LONG, SHMEMX_SUM, root);
    for (size_t k = 0; k < n; k++)
        s[k] = -99; /* reusable at once */
    for (size_t k = 0; k < n; k++) {
        long want = -7;
        if (t_me == root) {
            want = 0;
            for (int i = 0; i < t_n; i++)
                want += val(it, call, i, k);
        }
        CHECK(d[k] == want, "it %d: reduce sum of %zu to member %d: [%zu] = %ld, want %ld", it,
              n, root, k, d[k], want);
    }
    free(s);
    free(d);
}

/* Member i's matrix in call `call` of iteration it: products of these do not commute. */
static mat2 mat_of(int it, int call, int i) { return (mat2){i + 1 + it % 3, 1, 1, call % 2}; }

/* Two matrices with a gap after each (m2gap, the staged form), non-commutative, to root. */
static void reduce_matmul_call(shmem_team_t team, int t_me, int t_n, int it, int call,
                               int root)
{
    double s[2][5], d[2][5];
    for (int e = 0; e < 2; e++) {
        mat2 m = mat_of(it, call + e, t_me);
        memcpy(s[e], &m, sizeof m);
        s[e][4] = 555;
        for (int k = 0; k < 5; k++)
            d[e][k] = -7;
    }
    maybe_dawdle(it, t_me, root);
    shmemx_reduce(team, d, s, 2, m2gap, matmul_op, root);
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 5; k++)
            s[e][k] = -99;
    for (int e = 0; e < 2; e++) {
        mat2 want = mat_of(it, call + e, 0);
        for (int i = 1; i < t_n; i++)
            want = mul(want, mat_of(it, call + e, i));
        const double *w = &want.a;
        for (int k = 0; k < 4; k++)
            CHECK(d[e][k] == (t_me == root ? w[k] : -7), "it %d: matmul to member %d [%d][%d] "
                  "= %g", it, root, e, k, d[e][k]);
        CHECK(d[e][4] == -7, "it %d: matmul wrote the gap [%d]: %g", it, e, d[e][4]);
    }
}

/* allgatherv among the rooted calls: SMALL ints or fewer from each member. */
static void allgatherv_call(shmem_team_t team, int t_me, int t_n, int it, int call)
{
    size_t counts[MAXPES], displs[MAXPES], d = 0;
    for (int i = 0; i < t_n; i++) {
        counts[i] = (size_t)((it + 2 * i) % (SMALL + 1));
        displs[i] = d;
        d += counts[i];
    }
    for (size_t k = 0; k < counts[t_me]; k++)
        src[k] = val(it, call, t_me, k);
    shmemx_allgatherv(team, gdest, src, counts[t_me], counts, displs, SHMEMX_INT);
    scribble(src, counts[t_me]);
    for (int i = 0; i < t_n; i++)
        for (size_t k = 0; k < counts[i]; k++)
            CHECK(gdest[displs[i] + k] == val(it, call, i, k),
                  "it %d: allgatherv from member %d [%zu] = %d", it, i, k, gdest[displs[i] + k]);
}

/* alltoallv among the rooted calls: SMALL ints or fewer from each member to each, and in
 * some iterations BIG ints from member 0 to the last one (over tcp from 4 members the small
 * blocks take Bruck's steps through the team's stage, and a large one goes beside them). */
static size_t pair_count(int it, int from, int to, int t_n)
{
    if (it % 5 == 0 && from == 0 && to == t_n - 1)
        return BIG;
    return (size_t)((it + from + 2 * to) % (SMALL + 1));
}

/* Element k of the block from member `from` to member `to`. */
static int pair_val(int it, int call, int from, int to, size_t k)
{
    return val(it, call, from, k) + to * 1000003;
}

static void alltoallv_call(shmem_team_t team, int t_me, int t_n, int it, int call)
{
    size_t sc[MAXPES] = {0}, sd[MAXPES] = {0}, rc[MAXPES] = {0}, rd[MAXPES] = {0};
    for (int i = 0; i < t_n; i++) {
        sc[i] = pair_count(it, t_me, i, t_n);
        rc[i] = pair_count(it, i, t_me, t_n);
        sd[i] = rd[i] = (size_t)i * BIG;
        for (size_t k = 0; k < sc[i]; k++)
            src[sd[i] + k] = pair_val(it, call, t_me, i, k);
    }
    shmemx_alltoallv(team, gdest, rc, rd, src, sc, sd, SHMEMX_INT);
    for (int i = 0; i < t_n; i++)
        scribble(src + sd[i], sc[i]);
    for (int i = 0; i < t_n; i++)
        for (size_t k = 0; k < rc[i]; k++)
            CHECK(gdest[rd[i] + k] == pair_val(it, call, i, t_me, k),
                  "it %d: alltoallv from member %d [%zu] = %d", it, i, k, gdest[rd[i] + k]);
}

/* Native calls among them: shmem_alltoallmem (Bruck's steps too, in the same stage) and a
 * sum reduction of MID longs (whose message-passing forms receive in that stage). Their
 * buffers are theirs alone: a native collective may write into a member's dest before that
 * member enters it, so the dests of the early calls above (still being checked) would not
 * do, and each call has its own dest too. */
static void native_calls(shmem_team_t team, int t_me, int t_n, int it, int call)
{
    long *s = nsrc, *d = ndest, *r = ndest + MAXPES;
    for (int j = 0; j < t_n; j++)
        s[j] = pair_val(it, call, t_me, j, 0);
    shmem_alltoallmem(team, d, s, sizeof(long));
    for (int i = 0; i < t_n; i++)
        CHECK(d[i] == pair_val(it, call, i, t_me, 0), "it %d: alltoallmem from member %d "
              "= %ld", it, i, d[i]);
    for (size_t k = 0; k < MID; k++)
        s[k] = val(it, call + 1, t_me, k);
    shmem_long_sum_reduce(team, r, s, MID);
    d = r;
    for (size_t k = 0; k < MID; k++) {
        long want = 0;
        for (int i = 0; i < t_n; i++)
            want += val(it, call + 1, i, k);
        CHECK(d[k] == want, "it %d: sum_reduce [%zu] = %ld, want %ld", it, k, d[k], want);
    }
}

static void run_team(shmem_team_t team)
{
    int t_me = shmem_team_my_pe(team), t_n = shmem_team_n_pes(team);
    for (int it = 0; it < ITERS; it++) {
        int r = it % t_n;
        gatherv_call(team, t_me, t_n, it, 0, r);
        scatterv_call(team, t_me, t_n, it, 1, (r + 1) % t_n);
        reduce_sum_call(team, t_me, t_n, it, 2, (r + 2) % t_n, 1);
        reduce_matmul_call(team, t_me, t_n, it, 3, (r + 3) % t_n);
        gather_scatter_calls(team, t_me, t_n, it, 5, (r + 1) % t_n);
        reduce_sum_call(team, t_me, t_n, it, 7, r, it % 2 ? MID : 64);
        allgatherv_call(team, t_me, t_n, it, 8);
        scatterv_call(team, t_me, t_n, it, 9, r);
        alltoallv_call(team, t_me, t_n, it, 10);
        gatherv_call(team, t_me, t_n, it, 11, r);
        native_calls(team, t_me, t_n, it, 12);
    }
}

/* One member dawdles before every call, and it is the root of every gathering call and a
 * receiver of every scatterv: the others leave each call at once and run ahead as far as
 * the team's sync areas allow (more calls than the areas: a member that ran too far would
 * overwrite what the slow one has not read yet). */
static void run_slow_phase(shmem_team_t team)
{
    int t_me = shmem_team_my_pe(team), t_n = shmem_team_n_pes(team);
    slow_member = t_n - 1;
    for (int it = 0; it < 24; it++) {
        gatherv_call(team, t_me, t_n, it, 0, slow_member);
        reduce_sum_call(team, t_me, t_n, it, 2, slow_member, 1);
        reduce_matmul_call(team, t_me, t_n, it, 3, slow_member);
        scatterv_call(team, t_me, t_n, it, 1, 0);
    }
    slow_member = -1;
}

int main(void)
{
    if (!check_start(MAXPES))
        return CHECK_SKIP;
    me = shmem_my_pe();
    npes = shmem_n_pes();
    gdest = shmem_malloc((size_t)npes * BIG * sizeof *gdest + 64);
    sdest = shmem_malloc((BIG + 1) * sizeof *sdest);
    nsrc = shmem_malloc(MID * sizeof *nsrc);
    ndest = shmem_malloc((MAXPES + MID) * sizeof *ndest);
    src = malloc((size_t)npes * BIG * sizeof *src);
    shmemx_op_create(matmul, 0, &matmul_op);
    shmemx_datatype_t m2;
    shmemx_type_contiguous(4, SHMEMX_DOUBLE, &m2);
    shmemx_type_create_resized(m2, 0, 5 * sizeof(double), &m2gap);
    shmemx_type_commit(&m2gap);
    shmemx_type_free(&m2);

    run_team(SHMEM_TEAM_WORLD);
    run_slow_phase(SHMEM_TEAM_WORLD);
    shmem_team_t back;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, npes > 1 ? -1 : 0, npes, NULL, 0,
                             &back);
    run_team(back);
    run_slow_phase(back);
    shmem_team_destroy(back);
    run_team(SHMEM_TEAM_WORLD); /* after the destroy: the world team's progress still right */

    shmemx_type_free(&m2gap);
    shmemx_op_free(&matmul_op);
    free(src);
    shmem_free(ndest);
    shmem_free(nsrc);
    shmem_free(sdest);
    shmem_free(gdest);
    return check_finish();
}
