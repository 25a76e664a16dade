/*
 * coll_hier.c: the node-aware collectives (src/coll/hier.h) on sets that span nodes unevenly.
 * Under SSHMEM_PES_PER_NODE=k every k consecutive PEs form a node, so the teams below have
 * different numbers of members on each node (e.g. PEs 1..4 with k=4: three on one node, one
 * on the next) and strided ones skip PEs. On each set: barrier, broadcast from every root,
 * a sum, a non-commutative user operator of the MPI-style layer (composition of affine maps
 * modulo a prime: the result is wrong unless members are combined in order), and fcollect;
 * in team and active-set forms. Every element is checked on every PE. The runs with
 * UCX_TLS=tcp,self on the direct path map node mates' heaps for hier alone (UCX maps no heap
 * there: sshmem_peer_node_heap); those with SSHMEM_LOCAL=ucx check that hier falls back.
 *
 * sshmem-test: np=1 2 3 4 5 8
 * sshmem-test-env: paths=direct SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: paths=direct SSHMEM_PES_PER_NODE=1 SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: paths=direct SSHMEM_PES_PER_NODE=2 SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: paths=direct SSHMEM_PES_PER_NODE=3 SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: paths=direct SSHMEM_PES_PER_NODE=4 SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: np=5,8 paths=direct SSHMEM_PES_PER_NODE=3
 * sshmem-test-env: np=3,8 paths=ucx,tcp SSHMEM_PES_PER_NODE=4 SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: np=5,8 paths=direct SSHMEM_PES_PER_NODE=4 UCX_TLS=tcp,self,sysv
 * sshmem-test-env: paths=direct UCX_TLS=tcp,self SSHMEM_PES_PER_NODE=3 SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: np=4,5,8 paths=direct UCX_TLS=tcp,self SSHMEM_PES_PER_NODE=4 SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: np=3,8 paths=direct UCX_TLS=tcp,self SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_FCOLLECT=hier
 * sshmem-test-env: np=5,8 paths=direct UCX_TLS=tcp,self SSHMEM_PES_PER_NODE=2
 */
#include <shmem.h>
#include <shmemx.h>

#include "check.h"

#define N 7         /* elements per member */
#define PRIME 1000003L

typedef struct affine { long a, b; } affine; /* x -> a*x + b */

/* f o g = "f, then g": (a1*a2, b1*a2 + b2). Associative, not commutative. */
static affine compose(affine f, affine g)
{
    return (affine){f.a * g.a % PRIME, (f.b * g.a + g.b) % PRIME};
}

static void compose_fn(void *in, void *inout, int *len, shmemx_datatype_t *dt)
{
    (void)dt;
    affine *x = in, *y = inout;
    for (int i = 0; i < *len; i++)
        y[i] = compose(x[i], y[i]);
}

static affine affine_of(int pe, int k) { return (affine){2 + (pe * 7 + k) % 11, pe * 13 + k}; }

static long value_of(int pe, int k, int call) { return pe * 1000 + k * 10 + call; }

/* The members of a set, in world numbering. */
typedef struct set { int start, stride, size; } set_t;
static int member_pe(const set_t *s, int i) { return s->start + i * s->stride; }

static long *dst, *src, *all;
static affine *adst, *asrc;

static void check_team(shmem_team_t team, const set_t *s, shmemx_op_t op, shmemx_datatype_t at,
                       const char *what)
{
    int me = shmem_team_my_pe(team), n = s->size;
    CHECK_EQ_LONG(shmem_team_n_pes(team), n, what);
    for (int call = 0; call < 3; call++) {
        shmem_team_sync(team);
        for (int root = 0; root < n; root++) {
            for (int k = 0; k < N; k++) {
                src[k] = value_of(member_pe(s, me), k, call);
                dst[k] = -1;
            }
            shmem_team_sync(team); /* a root may write our dest as soon as it enters */
            shmem_long_broadcast(team, dst, src, N, root);
            for (int k = 0; k < N; k++)
                CHECK_EQ_LONG(dst[k], value_of(member_pe(s, root), k, call), what);
        }
        shmem_long_sum_reduce(team, dst, src, N);
        for (int k = 0; k < N; k++) {
            long want = 0;
            for (int i = 0; i < n; i++)
                want += value_of(member_pe(s, i), k, call);
            CHECK_EQ_LONG(dst[k], want, what);
        }
        shmem_long_fcollect(team, all, src, N);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < N; k++)
                CHECK_EQ_LONG(all[i * N + k], value_of(member_pe(s, i), k, call), what);
        for (int k = 0; k < N; k++)
            asrc[k] = affine_of(member_pe(s, me) + call, k);
        shmemx_allreduce(team, adst, asrc, N, at, op);
        for (int k = 0; k < N; k++) {
            affine want = affine_of(member_pe(s, 0) + call, k);
            for (int i = 1; i < n; i++)
                want = compose(want, affine_of(member_pe(s, i) + call, k));
            CHECK(adst[k].a == want.a && adst[k].b == want.b,
                  "%s: allreduce element %d: got (%ld,%ld), expected (%ld,%ld)", what, k,
                  adst[k].a, adst[k].b, want.a, want.b);
        }
    }
}

/* One pSync per collective of a round: each call is over before its array comes back. */
static long psync[4][SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[2][SHMEM_REDUCE_MIN_WRKDATA_SIZE + N];

/* The active-set forms on (start, 2^log, size); only members call. */
static void check_active(const set_t *s, int log, const char *what)
{
    int me = shmem_my_pe(), n = s->size;
    for (int call = 0; call < 4; call++) {
        int root = call % n;
        for (int k = 0; k < N; k++) {
            src[k] = value_of(me, k, call);
            dst[k] = -1;
        }
        shmem_barrier(s->start, log, n, psync[0]); /* a root may write our dest at once */
        shmem_broadcast64(dst, src, N, root, s->start, log, n, psync[1]);
        for (int k = 0; k < N; k++)
            CHECK_EQ_LONG(dst[k], me == member_pe(s, root) ? -1 : value_of(member_pe(s, root), k, call),
                          what);
        shmem_long_sum_to_all(dst, src, N, s->start, log, n, pwrk[call & 1], psync[2]);
        for (int k = 0; k < N; k++) {
            long want = 0;
            for (int i = 0; i < n; i++)
                want += value_of(member_pe(s, i), k, call);
            CHECK_EQ_LONG(dst[k], want, what);
        }
        shmem_fcollect64(all, src, N, s->start, log, n, psync[3]);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < N; k++)
                CHECK_EQ_LONG(all[i * N + k], value_of(member_pe(s, i), k, call), what);
    }
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            psync[j][i] = SHMEM_SYNC_VALUE;
    dst = shmem_malloc(N * sizeof(long));
    src = shmem_malloc(N * sizeof(long));
    all = shmem_malloc((size_t)npes * N * sizeof(long));
    adst = shmem_malloc(N * sizeof(affine));
    asrc = shmem_malloc(N * sizeof(affine));
    shmemx_op_t op;
    shmemx_datatype_t at;
    shmemx_op_create(compose_fn, 0, &op);
    shmemx_type_contiguous(2, SHMEMX_LONG, &at);
    shmemx_type_commit(&at);
    shmem_barrier_all();

    /* Teams: the world, the PEs from 1 on, every other PE, and the last three backwards
     * would need a negative stride in the world numbering: the PEs from npes-3 on instead. */
    set_t sets[] = {{0, 1, npes}, {1, 1, npes - 1}, {0, 2, (npes + 1) / 2},
                    {npes > 3 ? npes - 3 : 0, 1, npes > 3 ? 3 : npes}, {1, 3, (npes + 1) / 3}};
    const char *names[] = {"world", "from PE 1", "every other PE", "the last three",
                           "stride 3 from PE 1"};
    for (int t = 0; t < (int)(sizeof sets / sizeof sets[0]); t++) {
        set_t *s = &sets[t];
        if (s->size < 1)
            continue;
        shmem_team_t team = SHMEM_TEAM_WORLD;
        if (t > 0)
            shmem_team_split_strided(SHMEM_TEAM_WORLD, s->start, s->stride, s->size, NULL, 0,
                                     &team);
        if (team != SHMEM_TEAM_INVALID)
            check_team(team, s, op, at, names[t]);
        if (t > 0 && team != SHMEM_TEAM_INVALID)
            shmem_team_destroy(team);
        shmem_barrier_all();
        int log = s->stride == 1 ? 0 : s->stride == 2 ? 1 : -1;
        if (log >= 0 && (me - s->start) % s->stride == 0 && me >= s->start &&
            (me - s->start) / s->stride < s->size)
            check_active(s, log, names[t]);
        shmem_barrier_all();
    }
    shmemx_op_free(&op);
    shmemx_type_free(&at);
    return check_finish();
}
