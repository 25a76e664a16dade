/*
 * rdma_safety.c: what a job that reaches some PEs through UCX (maybe a NIC) must not lose.
 *
 * 1. Operand lifetime: bursts of non-fetching and _nbi atomics (more than the transport's
 *    operand ring holds) with the issuer's stack overwritten after every call, before the
 *    quiet: UCX may read an operand until its request completes, so an operand left on the
 *    stack would be sent as garbage. Every total and every fetched value is checked.
 * 2. One word, one atomicity domain: rounds of the counting collectives (broadcast, collect,
 *    alltoall: their flags are counted up by several PEs, some on this "node", some not) and
 *    mixed atomics on words that PEs of both kinds update. With SSHMEM_PES_PER_NODE=2 and
 *    UCX_TLS=tcp,self the off-node PEs use UCX atomics, so on-node ones must too; a lost
 *    update shows as a wrong count or a collective that hangs (the run's timeout).
 *
 * Without a progress thread, shutdown must still serve the peers that drain last.
 *
 * The rounds of part 2 come from argv[1] (default 60). By hand, the 10,000 rounds:
 *   SSHMEM_PES_PER_NODE=2 UCX_TLS=tcp,self oshrun -np 8 test/pe/rdma_safety 10000
 *
 * sshmem-test: np=1 2 3 4 8
 * sshmem-test-env: np=8 paths=direct SSHMEM_PES_PER_NODE=2 UCX_TLS=tcp,self
 * sshmem-test-env: np=4 paths=direct SSHMEM_PES_PER_NODE=2
 * sshmem-test-env: np=4 paths=direct,tcp SSHMEM_PES_PER_NODE=2 UCX_TLS=tcp,self SSHMEM_PROGRESS_THREAD=0
 */
#include "check.h"

#define BURST 600 /* > the 256-slot operand ring of a context */
#define NELEMS 4

/* Overwrite a stretch of stack below the caller's frame, where an operand would have been. */
__attribute__((noinline)) static void clobber_stack(void)
{
    volatile unsigned char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = 0xa5;
}

static void operand_lifetime(void)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long *sum = shmem_calloc(2, sizeof *sum);
    long *fetched = malloc(BURST * sizeof *fetched);
    shmem_barrier_all();
    int target = (me + 1) % npes;
    /* Non-fetching adds whose operands all differ: the total says whether each arrived. */
    for (long i = 1; i <= BURST; i++) {
        shmem_long_atomic_add(&sum[0], i, target);
        clobber_stack();
    }
    /* _nbi fetch-adds: the old values land at quiet, the stack is gone by then. */
    for (long i = 0; i < BURST; i++) {
        shmem_long_atomic_fetch_add_nbi(&fetched[i], &sum[1], 2, target);
        clobber_stack();
    }
    shmem_quiet();
    shmem_barrier_all();
    CHECK_EQ_LONG(sum[0], (long)BURST * (BURST + 1) / 2, "sum of non-fetching adds");
    CHECK_EQ_LONG(sum[1], 2L * BURST, "sum of _nbi fetch-adds");
    /* One issuer per target: its fetches saw 0, 2, 4, ... in some order, each once. */
    char *seen = calloc(BURST, 1);
    for (int i = 0; i < BURST; i++) {
        long v = fetched[i];
        CHECK(v >= 0 && v < 2L * BURST && v % 2 == 0, "fetch %d returned %ld", i, v);
        if (v >= 0 && v < 2L * BURST && v % 2 == 0) {
            CHECK(!seen[v / 2], "fetch %d returned %ld twice", i, v);
            seen[v / 2] = 1;
        }
    }
    free(seen);
    free(fetched);
    shmem_barrier_all();
    shmem_free(sum);
}

struct words {
    long counter;          /* every PE: add 1, inc, fetch_add 2, fetch_inc_nbi per round */
    unsigned long bits;    /* every PE ORs its bit in per round; the owner clears it */
    long bcast[NELEMS];
    long collect[NELEMS * 8 * 64]; /* up to 4 per PE */
    long a2a_src[NELEMS * 1024];
    long a2a_dst[NELEMS * 1024];
    long src[NELEMS];
};

static void one_round(struct words *w, long r)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();

    /* broadcast from a moving root */
    int root = (int)(r % npes);
    for (int k = 0; k < NELEMS; k++)
        w->src[k] = r * 1000 + root * 10 + k;
    shmem_long_broadcast(SHMEM_TEAM_WORLD, w->bcast, w->src, NELEMS, root);
    for (int k = 0; k < NELEMS; k++)
        CHECK_EQ_LONG(w->bcast[k], r * 1000 + root * 10 + k, "broadcast element");

    /* collect: PE p gives p % 4 + 1 elements */
    int mine = me % 4 + 1;
    for (int k = 0; k < mine; k++)
        w->src[k] = r * 1000 + me * 10 + k;
    shmem_long_collect(SHMEM_TEAM_WORLD, w->collect, w->src, mine);
    size_t at = 0;
    for (int p = 0; p < npes; p++)
        for (int k = 0; k < p % 4 + 1; k++)
            CHECK_EQ_LONG(w->collect[at++], r * 1000 + p * 10 + k, "collect element");

    /* alltoall */
    for (int p = 0; p < npes; p++)
        for (int k = 0; k < NELEMS; k++)
            w->a2a_src[p * NELEMS + k] = r * 100000 + me * 100 + p * 4 + k;
    shmem_long_alltoall(SHMEM_TEAM_WORLD, w->a2a_dst, w->a2a_src, NELEMS);
    for (int p = 0; p < npes; p++)
        for (int k = 0; k < NELEMS; k++)
            CHECK_EQ_LONG(w->a2a_dst[p * NELEMS + k], r * 100000 + p * 100 + me * 4 + k,
                          "alltoall element");

    /* mixed atomics on every PE's words, on-node and off-node issuers at once */
    long nbi_old[64];
    for (int p = 0; p < npes; p++) {
        shmem_long_atomic_add(&w->counter, 1, p);
        shmem_long_atomic_inc(&w->counter, p);
        long old = shmem_long_atomic_fetch_add(&w->counter, 2, p);
        CHECK(old >= r * 5L * npes && old < (r + 1) * 5L * npes, "fetch_add old %ld", old);
        shmem_long_atomic_fetch_inc_nbi(&nbi_old[p], &w->counter, p);
        shmem_ulong_atomic_or(&w->bits, 1UL << (me % 64), p);
    }
    shmem_quiet();
    for (int p = 0; p < npes; p++)
        CHECK(nbi_old[p] >= r * 5L * npes && nbi_old[p] < (r + 1) * 5L * npes,
              "fetch_inc_nbi old %ld", nbi_old[p]);
    shmem_barrier_all();
    CHECK_EQ_LONG(w->counter, (r + 1) * 5L * npes, "counter after the round");
    unsigned long all = npes >= 64 ? ~0UL : (1UL << npes) - 1;
    CHECK(w->bits == all, "bits %#lx, expected %#lx", w->bits, all);
    w->bits = 0; /* nobody ORs again before the next barrier */
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    shmem_init();
    long rounds = argc > 1 ? atol(argv[1]) : 60;
    if (shmem_n_pes() > 64) {
        if (shmem_my_pe() == 0)
            printf("rdma_safety: at most 64 PEs\n");
        shmem_finalize();
        return 0;
    }
    operand_lifetime();
    struct words *w = shmem_calloc(1, sizeof *w);
    shmem_barrier_all();
    for (long r = 0; r < rounds; r++)
        one_round(w, r);
    shmem_free(w);
    if (shmem_my_pe() == 0 && check_failures == 0)
        printf("rdma_safety: %ld rounds, nothing lost\n", rounds);
    return check_finish();
}
