/*
 * lock.c: shmem_set_lock / shmem_test_lock / shmem_clear_lock.
 *  1. contention: every PE increments a plain (non-atomic) counter on PE 0 with a get and a
 *     put inside the critical section, many times; the total is exact only if no two PEs
 *     were ever inside at once and clear_lock completed the put first;
 *  2. two locks at once: nested (A then B) and B alone, each guarding its own counter;
 *  3. test_lock: 1 while another PE (or this one) holds the lock, never blocks; 0 when free;
 *     a test_lock loop as the only way in still gives an exact count;
 *  4. first come, first served: while PE 0 holds the lock the others queue one at a time,
 *     in a known order; they must get it in that order.
 */
#include "check.h"

static long lock_a, lock_b, lock_c, lock_d; /* globals: symmetric, zero before first use */

static void contention(int me, int npes, long *counter, int iters)
{
    for (int i = 0; i < iters; i++) {
        shmem_set_lock(&lock_a);
        long v = shmem_long_g(counter, 0);
        shmem_long_p(counter, v + 1, 0);
        shmem_clear_lock(&lock_a);
    }
    shmem_barrier_all();
    CHECK_EQ_LONG(shmem_long_g(counter, 0), (long)npes * iters, "contention: counter on PE 0");
    shmem_barrier_all();
}

static void two_locks(int me, int npes, long *counters, int iters)
{
    for (int i = 0; i < iters; i++) {
        shmem_set_lock(&lock_a);
        shmem_set_lock(&lock_b); /* nested: this PE holds two locks */
        long a = shmem_long_g(&counters[1], 0), b = shmem_long_g(&counters[2], 0);
        shmem_long_p(&counters[1], a + 1, 0);
        shmem_long_p(&counters[2], b + 10, 0);
        shmem_clear_lock(&lock_b);
        shmem_clear_lock(&lock_a);
        shmem_set_lock(&lock_b); /* B alone, racing the nested sections of other PEs */
        b = shmem_long_g(&counters[2], 0);
        shmem_long_p(&counters[2], b + 1, 0);
        shmem_clear_lock(&lock_b);
    }
    shmem_barrier_all();
    CHECK_EQ_LONG(shmem_long_g(&counters[1], 0), (long)npes * iters, "two locks: counter A");
    CHECK_EQ_LONG(shmem_long_g(&counters[2], 0), 11L * npes * iters, "two locks: counter B");
    shmem_barrier_all();
}

static void test_lock(int me, int npes, long *counter, int iters)
{
    if (me == 0)
        CHECK(shmem_test_lock(&lock_c) == 0, "test_lock on a free lock must take it");
    shmem_barrier_all();
    CHECK(shmem_test_lock(&lock_c) == 1, "test_lock while PE 0 holds the lock must return 1");
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(&lock_c);
    shmem_barrier_all();
    /* Only test_lock to get in. */
    for (int i = 0; i < iters; i++) {
        while (shmem_test_lock(&lock_c) != 0)
            ;
        long v = shmem_long_g(counter, 0);
        shmem_long_p(counter, v + 1, 0);
        shmem_clear_lock(&lock_c);
    }
    shmem_barrier_all();
    CHECK_EQ_LONG(shmem_long_g(counter, 0), (long)npes * iters, "test_lock: counter on PE 0");
    shmem_barrier_all();
}

/* PE 0 holds the lock; PEs 1..n-1 queue in that order: PE 0 lets PE k start only after PE
 * k-1 has joined the queue, which PE 0 sees in the lock word (this test knows the layout of
 * src/sync/lock.c: the word on PE 0 names the last PE in the queue as (pe + 1) << 16 | node).
 * Each PE appends its number to a list on PE 0 when it gets in; the list must be 1, ..., n-1. */
static void fifo(int me, int npes, long *order, int *go)
{
    long *next_slot = &order[npes];
    if (me == 0) {
        shmem_set_lock(&lock_d);
        for (int k = 1; k < npes; k++) {
            shmem_int_atomic_set(go, 1, k);
            shmem_long_wait_until(&lock_d, SHMEM_CMP_GE, (long)(k + 1) << 16);
        }
        CHECK(shmem_test_lock(&lock_d) == 1, "test_lock by the holder must return 1");
        shmem_clear_lock(&lock_d);
    } else {
        shmem_int_wait_until(go, SHMEM_CMP_EQ, 1);
        shmem_set_lock(&lock_d);
        long slot = shmem_long_atomic_fetch_inc(next_slot, 0);
        shmem_long_p(&order[slot], me, 0);
        shmem_clear_lock(&lock_d);
    }
    shmem_barrier_all();
    if (me == 0)
        for (int i = 0; i < npes - 1; i++)
            CHECK_EQ_LONG(order[i], i + 1, "FIFO: the i-th PE to get the lock");
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long *counters = shmem_calloc(4, sizeof *counters);
    long *order = shmem_calloc((size_t)npes + 1, sizeof *order);
    int *go = shmem_calloc(1, sizeof *go);
    shmem_barrier_all();
    /* Through UCX the lock word (a global) is served by software emulation on PE 0: every
     * operation is a round trip that needs PE 0's progress, so fewer rounds there. */
    const char *local = getenv("SSHMEM_LOCAL");
    int iters = on_tcp() ? 6 : local && !strcmp(local, "ucx") ? 10 : 200;

    contention(me, npes, &counters[0], iters);
    two_locks(me, npes, counters, iters / 2);
    test_lock(me, npes, &counters[3], iters / 2);
    fifo(me, npes, order, go);

    shmem_free(counters);
    shmem_free(order);
    shmem_free(go);
    return check_finish();
}
