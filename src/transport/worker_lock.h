/*
 * worker_lock.h: the lock of a UCX worker that several threads call into (ucx_tx.h, "shared":
 * the progress thread, or application threads under SHMEM_THREAD_MULTIPLE).
 *
 * Held only around calls into the worker and our bookkeeping beside them, never across a
 * wait, so a thread that finds it taken spins a little and then yields (worker_lock.c)
 * rather than sleeping in the kernel. Taking it is one atomic exchange; giving it back is a
 * plain release store. A pthread mutex gives it back with a second atomic (it must look for
 * sleepers), and every atomic drains the store buffer: on a put path that first writes into
 * a peer's memory (UCX's shared memory), the drain waits for those lines to move between
 * cores, a quarter of a small gatherv through UCX's shared memory when the cores are far
 * apart.
 */
#ifndef SSHMEM_WORKER_LOCK_H
#define SSHMEM_WORKER_LOCK_H

typedef struct sshmem_worker_lock {
    int held;
} sshmem_worker_lock_t;

/* Take it if it is free at once: 1, else 0. */
static inline int sshmem_worker_trylock(sshmem_worker_lock_t *l)
{
    return __atomic_load_n(&l->held, __ATOMIC_RELAXED) == 0 &&
           __atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE) == 0;
}

/* Spin, then yield, until it is taken (worker_lock.c). */
void sshmem_worker_lock_wait(sshmem_worker_lock_t *l);

static inline void sshmem_worker_lock(sshmem_worker_lock_t *l)
{
    if (__atomic_exchange_n(&l->held, 1, __ATOMIC_ACQUIRE) != 0)
        sshmem_worker_lock_wait(l);
}

static inline void sshmem_worker_unlock(sshmem_worker_lock_t *l)
{
    __atomic_store_n(&l->held, 0, __ATOMIC_RELEASE);
}

#endif
