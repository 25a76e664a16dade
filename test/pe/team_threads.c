/*
 * team_threads.c: under SHMEM_THREAD_MULTIPLE, threads create and destroy teams on different
 * parent teams at once. Each of THREADS threads owns one parent, and the parents overlap
 * (SHMEM_TEAM_WORLD, a duplicate of it, the even PEs, every PE but 0), so the same PE splits
 * several parents at the same moment and every new team must still get a pool slot that no
 * other team of any of its members holds. Each round a thread splits its parent (the whole
 * parent, every other member, or a 2-D split), checks the new team's numbering, runs a
 * reduction and a broadcast on it, puts through a context made on it (every other round),
 * and destroys it; filler teams leave only a few slots free, so threads race for them. Two
 * teams on one slot would share flags and scratch: values go wrong or the job hangs (the
 * run's timeout ends it). Every element is checked on every PE. An optional argument runs
 * fewer threads (to narrow a failure down).
 *
 * sshmem-test: np=1 2 3 4 8
 */
#include <pthread.h>
#include <shmem.h>

#include "check.h"

#define THREADS 4
#define ROUNDS 30
#define N 64 /* elements per collective */
#define FILLERS 21 /* teams held while the threads run (see main) */

static int me, npes;
static pthread_mutex_t check_lock = PTHREAD_MUTEX_INITIALIZER; /* check.h counts in a plain int */

#define TCHECK(cond, ...)                                                                        \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            pthread_mutex_lock(&check_lock);                                                     \
            CHECK(cond, __VA_ARGS__);                                                            \
            pthread_mutex_unlock(&check_lock);                                                   \
        }                                                                                        \
    } while (0)

/* Symmetric buffers of one team's collectives. */
typedef struct {
    long *src, *dst, *bdst, *box; /* N, N, N, 1 */
} bufs_t;

typedef struct {
    int t;
    shmem_team_t parent;
    bufs_t axis[2]; /* [1] for the columns of a 2-D split, whose members may still be
                     * checking their rows' results */
} job_t;

static long value(int world_pe, int t, int r, int k) { return world_pe * 1000L + t * 100 + r + k; }

/* The world numbers of team's members, checked against the expected triplet of the parent. */
static void check_members(shmem_team_t team, const int *want, int n, int t, int r)
{
    TCHECK(shmem_team_n_pes(team) == n, "thread %d round %d: team has %d PEs, want %d", t, r,
           shmem_team_n_pes(team), n);
    int mine = -1;
    for (int i = 0; i < n; i++) {
        int w = shmem_team_translate_pe(team, i, SHMEM_TEAM_WORLD);
        TCHECK(w == want[i], "thread %d round %d: member %d is world PE %d, want %d", t, r, i, w,
               want[i]);
        if (want[i] == me)
            mine = i;
    }
    TCHECK(shmem_team_my_pe(team) == mine, "thread %d round %d: my index %d, want %d", t, r,
           shmem_team_my_pe(team), mine);
}

static void put_through_ctx(int t, bufs_t *b, shmem_team_t team, const int *members, int n,
                            int r);

/* A reduction, a broadcast and (use_ctx) a put through a context on team; members[] are the
 * world numbers of its n members. */
static void exercise(int t, bufs_t *j, shmem_team_t team, const int *members, int n, int r,
                     int use_ctx)
{
    check_members(team, members, n, t, r);
    for (int k = 0; k < N; k++)
        j->src[k] = value(me, t, r, k);
    shmem_long_sum_reduce(team, j->dst, j->src, N);
    int bad = 0, first = -1;
    long want_first = 0;
    for (int k = 0; k < N; k++) {
        long want = 0;
        for (int i = 0; i < n; i++)
            want += value(members[i], t, r, k);
        if (j->dst[k] != want && !bad++)
            first = k, want_first = want;
    }
    TCHECK(!bad, "thread %d round %d (team of %d): %d sums wrong, first [%d] = %ld, want %ld",
           t, r, n, bad, first, j->dst[first], want_first);
    int root = (r + t) % n;
    shmem_long_broadcast(team, j->bdst, j->src, N, root);
    bad = 0;
    for (int k = 0; k < N; k++)
        if (j->bdst[k] != value(members[root], t, r, k) && !bad++)
            first = k;
    TCHECK(!bad, "thread %d round %d (team of %d): %d broadcast elements wrong, first [%d] = "
           "%ld, want %ld", t, r, n, bad, first, j->bdst[first], value(members[root], t, r, first));
    if (use_ctx)
        put_through_ctx(t, j, team, members, n, r);
    /* The specification wants every member's dest ready before a collective writes it: the
     * next collective on a team sharing members reuses these buffers. */
    shmem_team_sync(team);
}

/* Each member puts one value to its successor through a context made on team. */
static void put_through_ctx(int t, bufs_t *j, shmem_team_t team, const int *members, int n,
                            int r)
{
    shmem_ctx_t ctx;
    if (shmem_team_create_ctx(team, 0, &ctx) != 0) {
        TCHECK(0, "thread %d round %d: shmem_team_create_ctx failed", t, r);
        return;
    }
    int my = shmem_team_my_pe(team), succ = (my + 1) % n, pred = (my + n - 1) % n;
    shmem_ctx_long_p(ctx, j->box, value(me, t, r, 0), succ); /* succ: a team number */
    shmem_ctx_quiet(ctx);
    shmem_team_sync(team);
    TCHECK(*j->box == value(members[pred], t, r, 0), "thread %d round %d: box = %ld, want %ld",
           t, r, *j->box, value(members[pred], t, r, 0));
    shmem_ctx_destroy(ctx);
}

/* The world numbers of parent's members start, start+stride, ... (size of them). */
static void compose(shmem_team_t parent, int start, int stride, int size, int *out)
{
    for (int i = 0; i < size; i++)
        out[i] = shmem_team_translate_pe(parent, start + i * stride, SHMEM_TEAM_WORLD);
}

static void *worker(void *arg)
{
    job_t *j = arg;
    const int t = j->t;
    int pn = shmem_team_n_pes(j->parent), pme = shmem_team_my_pe(j->parent);
    int *members = malloc((size_t)npes * sizeof *members);
    for (int r = 0; r < ROUNDS; r++) {
        shmem_team_t child = SHMEM_TEAM_INVALID;
        int kind = r % 3;
        if (kind == 0 || (kind == 1 && pn < 2)) { /* the whole parent */
            TCHECK(shmem_team_split_strided(j->parent, 0, 1, pn, NULL, 0, &child) == 0,
                   "thread %d round %d: split failed", t, r);
            compose(j->parent, 0, 1, pn, members);
            exercise(t, &j->axis[0], child, members, pn, r, r % 2 == 0);
            shmem_team_destroy(child);
        } else if (kind == 1) { /* every other member, from 0 or 1 */
            int start = (r / 3) % 2, size = (pn - start + 1) / 2;
            TCHECK(shmem_team_split_strided(j->parent, start, 2, size, NULL, 0, &child) == 0,
                   "thread %d round %d: split failed", t, r);
            int in = pme >= start && (pme - start) % 2 == 0;
            TCHECK((child != SHMEM_TEAM_INVALID) == in, "thread %d round %d: membership %d",
                   t, r, child != SHMEM_TEAM_INVALID);
            if (child != SHMEM_TEAM_INVALID) {
                compose(j->parent, start, 2, size, members);
                exercise(t, &j->axis[0], child, members, size, r, r % 2 == 0);
            }
            shmem_team_destroy(child); /* SHMEM_TEAM_INVALID: nothing to do */
        } else { /* 2-D: rows of 2, then columns */
            shmem_team_t x, y;
            TCHECK(shmem_team_split_2d(j->parent, 2, NULL, 0, &x, NULL, 0, &y) == 0,
                   "thread %d round %d: split_2d failed", t, r);
            int row = pme / 2, col = pme % 2, xsize = pn - row * 2 < 2 ? pn - row * 2 : 2;
            int ysize = (pn - col + 1) / 2;
            compose(j->parent, row * 2, 1, xsize, members);
            exercise(t, &j->axis[0], x, members, xsize, r, 1);
            compose(j->parent, col, 2, ysize, members);
            exercise(t, &j->axis[1], y, members, ysize, r, 0);
            shmem_team_destroy(x);
            shmem_team_destroy(y);
        }
    }
    free(members);
    return NULL;
}

int main(int argc, char **argv)
{
    int nthreads = argc > 1 ? atoi(argv[1]) : THREADS; /* fewer: to narrow a failure down */
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
    /* The parents, made in the same order on every PE before the threads start. */
    shmem_team_t parents[THREADS] = {SHMEM_TEAM_WORLD};
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &parents[1]);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &parents[2]);
    if (npes > 1)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, npes - 1, NULL, 0, &parents[3]);
    else
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &parents[3]);
    /* Filler teams make slots scarce, so that the threads contend for the same few: the pool
     * has 32 slots (src/team/team.h); the parents take 3 and the fillers leave 8, the most
     * the threads hold at once (two each during a 2-D split), so no split runs out of slots
     * but two threads often pick the same one. A larger pool only lowers the contention. */
    shmem_team_t fillers[FILLERS];
    for (int f = 0; f < FILLERS; f++)
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &fillers[f]) == 0,
              "filler team %d: split failed", f);
    job_t jobs[THREADS];
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t].t = t;
        jobs[t].parent = parents[t];
        for (int a = 0; a < 2; a++) {
            bufs_t *b = &jobs[t].axis[a];
            b->src = shmem_malloc(N * sizeof(long));
            b->dst = shmem_malloc(N * sizeof(long));
            b->bdst = shmem_malloc(N * sizeof(long));
            b->box = shmem_malloc(sizeof(long));
        }
    }
    int started = 0;
    for (int t = 0; t < THREADS; t++)
        if (t < nthreads && parents[t] != SHMEM_TEAM_INVALID) { /* its parent's PEs run it */
            int rc = pthread_create(&th[t], NULL, worker, &jobs[t]);
            CHECK(rc == 0, "pthread_create: %d", rc);
            started |= (rc == 0) << t;
        }
    for (int t = 0; t < THREADS; t++)
        if (started & (1 << t))
            pthread_join(th[t], NULL);
    shmem_barrier_all();
    for (int t = 0; t < THREADS; t++) {
        for (int a = 0; a < 2; a++) {
            shmem_free(jobs[t].axis[a].src);
            shmem_free(jobs[t].axis[a].dst);
            shmem_free(jobs[t].axis[a].bdst);
            shmem_free(jobs[t].axis[a].box);
        }
    }
    for (int t = 1; t < THREADS; t++)
        shmem_team_destroy(parents[t]);
    for (int f = 0; f < FILLERS; f++)
        shmem_team_destroy(fillers[f]);
    return check_finish();
}
