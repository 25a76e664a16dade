/*
 * pes_per_node.c: SSHMEM_PES_PER_NODE=k splits one host into groups of k consecutive PEs that
 * behave as separate nodes. Checks that shmem_ptr (heap and globals) is non-NULL exactly for
 * PEs of this PE's group, that puts and gets across groups deliver every element, and that
 * atomics from every PE on one word stay atomic when some come from inside the group and
 * some from outside (the job then uses UCX atomics for all of them).
 * Without the variable the whole host is one group. Run by pes-per-node-test.sh with k=1, 2.
 */
#include "check.h"

#define N 256
#define ROUNDS 40

static long global_word;

static int group_of(int pe, int k)
{
    return k ? pe / k : 0;
}

static int pes_per_node(void)
{
    const char *v = getenv("SSHMEM_PES_PER_NODE");
    return v && *v ? atoi(v) : 0;
}

static int direct_path(void)
{
    const char *v = getenv("SSHMEM_LOCAL");
    return !v || !*v || !strcmp(v, "direct");
}

/* The heap's view of a peer comes from UCX's shared memory: none when UCX_TLS leaves it out. */
static int ucx_shared_memory(void)
{
    const char *t = getenv("UCX_TLS");
    return !t || !*t || strstr(t, "sm") || strstr(t, "posix") || strstr(t, "sysv") ||
           strstr(t, "all");
}

static void check_pointers(long *heap, int k)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    for (int pe = 0; pe < npes; pe++) {
        /* A PE always addresses its own memory (SSHMEM_LOCAL=ucx too); others by the groups. */
        int expect = pe == me || (direct_path() && group_of(pe, k) == group_of(me, k));
        void *h = shmem_ptr(heap, pe), *g = shmem_ptr(&global_word, pe);
        int heap_known = !expect || pe == me || ucx_shared_memory();
        if (heap_known)
            CHECK((h != NULL) == expect, "shmem_ptr(heap, %d) = %p, expected %s (k=%d)", pe, h,
                  expect ? "non-NULL" : "NULL", k);
        CHECK((g != NULL) == expect, "shmem_ptr(global, %d) = %p, expected %s (k=%d)", pe, g,
              expect ? "non-NULL" : "NULL", k);
    }
}

/* Every PE puts a block to the next PE and gets one from the one after it. */
static void check_rma(long *heap)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long src[N], got[N];
    for (int i = 0; i < N; i++)
        src[i] = (long)me * 100000 + i;
    shmem_long_put(heap, src, N, right);
    shmem_long_p(&global_word, me + 7, right);
    shmem_barrier_all();
    for (int i = 0; i < N; i++)
        CHECK(heap[i] == (long)left * 100000 + i, "heap[%d] = %ld from PE %d", i, heap[i], left);
    CHECK_EQ_LONG(global_word, left + 7, "global_word");
    shmem_long_get(got, heap, N, right);
    for (int i = 0; i < N; i++)
        CHECK(got[i] == (long)me * 100000 + i, "get from PE %d: [%d] = %ld", right, i, got[i]);
    shmem_barrier_all();
}

/* All PEs hammer the same heap and global words on PE 0 and on the last PE. */
static void check_atomics(long *heap)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), last = npes - 1;
    heap[0] = 0;
    global_word = 0;
    shmem_barrier_all();
    long seen_max = -1;
    for (int i = 0; i < ROUNDS; i++) {
        long old = shmem_long_atomic_fetch_add(&heap[0], 1, 0);
        CHECK(old > seen_max, "fetch_add returned %ld after %ld", old, seen_max);
        seen_max = old;
        shmem_long_atomic_add(&global_word, 2, last);
        shmem_long_atomic_inc(&heap[0], last);
    }
    shmem_barrier_all();
    if (me == 0)
        CHECK_EQ_LONG(heap[0], (long)npes * ROUNDS * (last == 0 ? 2 : 1), "counter on PE 0");
    if (me == last) {
        CHECK_EQ_LONG(global_word, 2L * npes * ROUNDS, "global counter on last PE");
        if (last != 0)
            CHECK_EQ_LONG(heap[0], (long)npes * ROUNDS, "counter on last PE");
    }
    /* compare-and-swap: exactly one PE wins each slot. */
    shmem_barrier_all();
    heap[1] = -1;
    shmem_barrier_all();
    long prev = shmem_long_atomic_compare_swap(&heap[1], -1, me, 0);
    long winners = prev == -1;
    shmem_barrier_all();
    long *count = shmem_malloc(sizeof *count);
    *count = 0;
    shmem_barrier_all();
    shmem_long_atomic_add(count, winners, 0);
    shmem_barrier_all();
    if (me == 0) {
        CHECK_EQ_LONG(*count, 1, "compare_swap winners");
        CHECK(heap[1] >= 0 && heap[1] < npes, "compare_swap left %ld", heap[1]);
    }
    shmem_barrier_all();
    shmem_free(count);
}

int main(void)
{
    shmem_init();
    int k = pes_per_node();
    long *heap = shmem_calloc(N, sizeof *heap);
    check_pointers(heap, k);
    check_rma(heap);
    check_atomics(heap);
    shmem_free(heap);
    return check_finish();
}
