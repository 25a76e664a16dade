/*
 * mpix_threads.c: under SHMEM_THREAD_MULTIPLE, MPI-style reductions on different teams from
 * different threads at once are correct. Each of THREADS threads owns one duplicate of
 * SHMEM_TEAM_WORLD (made in the same order on every PE before the threads start) and runs
 * ROUNDS rounds of allreduce SUM, MAXLOC and a non-commutative user operator, on symmetric
 * buffers (the engine works on them in place) and on local ones (through its team's staging
 * buffer), then scan. Every element is checked on every PE.
 *
 * sshmem-test-env: np=4 paths=direct SSHMEM_PES_PER_NODE=2
 */
#include <pthread.h>
#include <shmemx.h>

#include "check.h"

#define THREADS 4
#define ROUNDS 20
#define N 1000 /* elements per call: a few pieces of the staging buffer for the matrices */

static int me, npes;
static shmem_team_t teams[THREADS];
static shmemx_datatype_t pair_type; /* two longs */
static shmemx_op_t affine_op;

/* Affine maps x -> a*x + b composed (modulo a prime): associative, not commutative. */
#define PRIME 10007
static void compose(void *invec, void *inoutvec, int *len, shmemx_datatype_t *type)
{
    (void)type;
    long *f = invec, *g = inoutvec; /* g := f then g: x -> g.a*(f.a*x + f.b) + g.b */
    for (int i = 0; i < *len; i++) {
        long a = f[2 * i] * g[2 * i] % PRIME, b = (g[2 * i] * f[2 * i + 1] + g[2 * i + 1]) % PRIME;
        g[2 * i] = a;
        g[2 * i + 1] = b;
    }
}

static long aff_a(int p, int t, int r, int k) { return (p + t + r + k) % 13 + 1; }
static long aff_b(int p, int t, int r, int k) { return (p * 7 + t * 3 + r + k) % 11; }

/* x0 o x1 o ... o x(last) applied as compose does: in(f) then inout(g). */
static void affine_want(int last, int t, int r, int k, long *a, long *b)
{
    long ca = 1, cb = 0; /* identity */
    for (int p = 0; p <= last; p++) { /* (c o x_p): c first, then x_p */
        long xa = aff_a(p, t, r, k), xb = aff_b(p, t, r, k);
        cb = (xa * cb + xb) % PRIME;
        ca = ca * xa % PRIME;
    }
    *a = ca;
    *b = cb;
}

typedef struct {
    int t;
    long *sym_src, *sym_dst;             /* symmetric, N pairs */
    shmemx_double_int_t *max_src, *max_dst; /* symmetric, N: MAXLOC */
} job_t;

static void *worker(void *arg)
{
    job_t *j = arg;
    const int t = j->t;
    shmem_team_t team = teams[t];
    long *lsrc = malloc(2 * N * sizeof *lsrc), *ldst = malloc(2 * N * sizeof *ldst);
    for (int r = 0; r < ROUNDS; r++) {
        int sym = r % 2;
        long *src = sym ? j->sym_src : lsrc, *dst = sym ? j->sym_dst : ldst;
        for (int k = 0; k < N; k++)
            src[k] = me + t * 100 + r + k;
        shmemx_allreduce(team, dst, src, N, SHMEMX_LONG, SHMEMX_SUM);
        for (int k = 0; k < N; k++)
            CHECK_EQ_LONG(dst[k], npes * (t * 100L + r + k) + npes * (npes - 1L) / 2,
                          "thread sum");
        for (int k = 0; k < N; k++)
            j->max_src[k] = (shmemx_double_int_t){(double)((me + k + t) % 4), 50 - me};
        shmemx_allreduce(team, j->max_dst, j->max_src, N, SHMEMX_DOUBLE_INT, SHMEMX_MAXLOC);
        for (int k = 0; k < N; k++) {
            double vmax = -1;
            int imax = 1 << 30;
            for (int p = 0; p < npes; p++) {
                double v = (double)((p + k + t) % 4);
                if (v > vmax || (v == vmax && 50 - p < imax))
                    vmax = v, imax = 50 - p;
            }
            CHECK(j->max_dst[k].value == vmax && j->max_dst[k].index == imax,
                  "thread %d maxloc [%d] = (%g, %d), want (%g, %d)", t, k, j->max_dst[k].value,
                  j->max_dst[k].index, vmax, imax);
        }
        for (int k = 0; k < N; k++) {
            src[2 * k] = aff_a(me, t, r, k);
            src[2 * k + 1] = aff_b(me, t, r, k);
        }
        int scan = r % 4 >= 2;
        if (scan)
            shmemx_scan(team, dst, src, N, pair_type, affine_op);
        else
            shmemx_allreduce(team, dst, src, N, pair_type, affine_op);
        for (int k = 0; k < N; k++) {
            long a, b;
            affine_want(scan ? me : npes - 1, t, r, k, &a, &b);
            CHECK(dst[2 * k] == a && dst[2 * k + 1] == b,
                  "thread %d round %d %s [%d] = (%ld, %ld), want (%ld, %ld)", t, r,
                  scan ? "scan" : "allreduce", k, dst[2 * k], dst[2 * k + 1], a, b);
        }
    }
    free(lsrc);
    free(ldst);
    return NULL;
}

int main(void)
{
    int provided;
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (provided != SHMEM_THREAD_MULTIPLE) {
        if (me == 0)
            fprintf(stderr, "SHMEM_THREAD_MULTIPLE not provided (%d)\n", provided);
        shmem_finalize();
        return 1;
    }
    shmemx_type_contiguous(2, SHMEMX_LONG, &pair_type);
    shmemx_type_commit(&pair_type);
    shmemx_op_create(compose, 0, &affine_op);
    job_t jobs[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &teams[t]);
        jobs[t].t = t;
        jobs[t].sym_src = shmem_malloc(2 * N * sizeof(long));
        jobs[t].sym_dst = shmem_malloc(2 * N * sizeof(long));
        jobs[t].max_src = shmem_malloc(N * sizeof(shmemx_double_int_t));
        jobs[t].max_dst = shmem_malloc(N * sizeof(shmemx_double_int_t));
    }
    for (int t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, &jobs[t]);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    for (int t = 0; t < THREADS; t++) {
        shmem_free(jobs[t].sym_src);
        shmem_free(jobs[t].sym_dst);
        shmem_free(jobs[t].max_src);
        shmem_free(jobs[t].max_dst);
        shmem_team_destroy(teams[t]);
    }
    shmemx_op_free(&affine_op);
    shmemx_type_free(&pair_type);
    return check_finish();
}
