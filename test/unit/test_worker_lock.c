/* test_worker_lock.c: the lock of a shared UCX worker (src/transport/worker_lock.h): trylock
 * fails while it is held and succeeds once it is given back, and threads that all take it
 * (more threads than this machine has cores, so holders are preempted and waiters reach the
 * yielding slow path) never overlap: a plain counter incremented under it loses nothing, and
 * a flag set inside never finds another holder there. */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "transport/worker_lock.h"

static void trylock_and_unlock(void **state)
{
    (void)state;
    sshmem_worker_lock_t l = {0};
    assert_true(sshmem_worker_trylock(&l));
    assert_false(sshmem_worker_trylock(&l)); /* held */
    sshmem_worker_unlock(&l);
    assert_true(sshmem_worker_trylock(&l));
    sshmem_worker_unlock(&l);
    sshmem_worker_lock(&l); /* free: the fast path */
    assert_false(sshmem_worker_trylock(&l));
    sshmem_worker_unlock(&l);
}

#define THREADS 8
#define ROUNDS 20000

static sshmem_worker_lock_t shared_lock;
static long counter; /* plain: only the lock keeps the increments apart */
static int inside;   /* holders at once */
static int overlaps;

static void *hammer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        sshmem_worker_lock(&shared_lock);
        if (__atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED) != 1)
            __atomic_add_fetch(&overlaps, 1, __ATOMIC_RELAXED);
        long v = counter;
        if (i % 64 == 0)
            sched_yield(); /* a holder preempted inside: waiters must yield their way through */
        counter = v + 1;
        __atomic_sub_fetch(&inside, 1, __ATOMIC_RELAXED);
        sshmem_worker_unlock(&shared_lock);
    }
    return NULL;
}

static void threads_never_overlap(void **state)
{
    (void)state;
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, hammer, NULL), 0);
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    assert_int_equal(overlaps, 0);
    assert_int_equal(counter, (long)THREADS * ROUNDS);
    assert_true(sshmem_worker_trylock(&shared_lock)); /* given back by the last holder */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trylock_and_unlock),
        cmocka_unit_test(threads_never_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
