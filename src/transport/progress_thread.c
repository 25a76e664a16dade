/*
 * progress_thread.c: a thread that serves operations UCX emulates on this PE while the PE
 * computes.
 *
 * Over tcp, and on memory UCX did not allocate (the global data) even on shared memory, UCX
 * carries puts, gets and atomics as messages that the TARGET's worker must process. Waits
 * drive that progress, but a PE busy computing (or spinning on plain loads of its own
 * variable) would stall every peer that talks to it. This thread sleeps on the default
 * worker's wake-up descriptor (where all incoming traffic lands: the peers' endpoints point at
 * that worker) and progresses it when a message arrives.
 *
 * Cost: nothing while idle: it sleeps in poll(2), it never spins. While it exists the default
 * worker is shared (ucx_tx.h): every call into it takes default_tx.lock, one atomic
 * exchange per operation on the UCX path (worker_lock.h: a pthread mutex cost more than half
 * again of a small put or atomic); the direct on-node path takes no lock.
 * Shutdown: finalize writes to an eventfd the thread also polls, then joins it.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "core/env.h"
#include "core/error.h"
#include "transport/ucx_tx.h"

#define PROGRESS_BATCH 64 /* progress calls per lock hold, so operations of other threads
                             get in between under a flood of incoming messages */
/* The longest nap while the program drives progress itself. Every wake-up of the thread
 * takes a core from a PE for a moment, which shorter naps paid on every UCX path of a host
 * with as many PEs as cores; with this one the thread costs as little as no thread at all
 * (doc/performance.md). The price: a PE that stops driving after a long run of waits (it
 * starts to compute) is served after up to NAP_MAX_US, once. */
#define NAP_MAX_US 8000

static pthread_t thread;
static int running;
static int stop_fd = -1;
static int worker_fd = -1;

/* Progress until idle, or PROGRESS_BATCH calls; returns 1 if there may be more to do. Held
 * messages whose gates are open go in too (sshmem_tx_gates_raised). */
static int progress_batch(ucp_worker_h worker)
{
    for (int i = 0; i < PROGRESS_BATCH; i++)
        if (ucp_worker_progress(worker) + sshmem_ucx_release_open() == 0)
            return 0;
    return 1;
}

/* Sleep until the stop descriptor, or the worker's when watch_worker, wakes us, or for at
 * most timeout_us (-1: no limit). Returns 1 when asked to stop. */
static int sleep_on_fds(int watch_worker, long timeout_us)
{
    struct pollfd fds[2] = {{.fd = stop_fd, .events = POLLIN},
                            {.fd = watch_worker ? worker_fd : -1, .events = POLLIN}};
    struct timespec limit = {.tv_sec = timeout_us / 1000000, .tv_nsec = timeout_us % 1000000 * 1000};
    if (ppoll(fds, 2, timeout_us < 0 ? NULL : &limit, NULL) < 0 && errno != EINTR)
        sshmem_fatal("progress thread", "poll failed: errno %d", errno);
    return (fds[0].revents & POLLIN) != 0;
}

/*
 * The loop. It stays out of the way of a program that drives progress itself:
 *  - if another thread holds the worker's lock, that thread is inside the worker; blocking
 *    on it (then a mutex) made the two threads hand the lock back and forth through the
 *    kernel at every message, ten times the cost of an emulated atomic;
 *  - if the program's waits progressed the worker since the thread last looked, a wait may
 *    be running and will serve the message itself; competing with it for the cores of a
 *    small machine tripled the latency of emulated atomics.
 * In both cases the thread naps (20 us, doubling to NAP_MAX_US) and looks again; once the
 * program has stopped driving (it computes) the thread serves, at most NAP_MAX_US after the
 * program's last wait. A PE that only computes pays nothing.
 */
static void *serve(void *arg)
{
    struct sshmem_tx *tx = arg;
    long nap_us = 20;
    unsigned idle_busy = 0; /* arm said "busy" although progress found nothing to do */
    unsigned seen = __atomic_load_n(&tx->driven, __ATOMIC_RELAXED);
    for (;;) {
        unsigned driven = __atomic_load_n(&tx->driven, __ATOMIC_RELAXED);
        if (driven != seen || !sshmem_worker_trylock(&tx->lock)) {
            seen = driven;
            if (sleep_on_fds(0, nap_us))
                return NULL;
            nap_us = nap_us < NAP_MAX_US / 2 ? 2 * nap_us : NAP_MAX_US;
            continue;
        }
        nap_us = 20;
        int more = progress_batch(tx->worker);
        ucs_status_t st = more ? UCS_ERR_BUSY : ucp_worker_arm(tx->worker);
        sshmem_worker_unlock(&tx->lock);
        if (st == UCS_OK) {
            idle_busy = 0;
            if (sleep_on_fds(1, -1))
                return NULL;
        } else if (st == UCS_ERR_BUSY) {
            /* Events are pending. Should arming keep failing with nothing to progress (a
             * transport busy with our own outgoing work), nap instead of spinning. */
            if (more)
                idle_busy = 0;
            else if (++idle_busy > 16 && sleep_on_fds(1, 1000))
                return NULL;
        } else {
            sshmem_warn("progress thread", "UCX worker arm failed (%s); the thread stops and "
                        "waits serve incoming operations alone", ucs_status_string(st));
            return NULL;
        }
    }
}

static int wanted(void)
{
    switch (sshmem_env.progress_thread) {
    case SSHMEM_PROGRESS_THREAD_ON: return 1;
    case SSHMEM_PROGRESS_THREAD_OFF: return 0;
    default: return sshmem.ucx_in_use;
    }
}

void sshmem_tx_progress_thread_init(void)
{
    if (!wanted())
        return;
    struct sshmem_tx *tx = sshmem_tx_default();
    ucs_status_t st = ucp_worker_get_efd(tx->worker, &worker_fd);
    if (st != UCS_OK) {
        sshmem_warn("shmem_init", "no progress thread: UCX gives no wake-up descriptor (%s); "
                    "a PE busy computing delays peers' emulated operations",
                    ucs_status_string(st));
        return;
    }
    stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (stop_fd < 0)
        sshmem_fatal("shmem_init", "eventfd for the progress thread failed: errno %d", errno);
    /* From here on two threads call into the default worker. Set before the thread exists. */
    tx->shared = 1;
    /* The thread takes no signals: they stay with the program's own threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&thread, NULL, serve, tx);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        sshmem_fatal("shmem_init", "cannot start the progress thread (error %d); set "
                     "SSHMEM_PROGRESS_THREAD=0 to run without it", rc);
    pthread_setname_np(thread, "sshmem-progress"); /* as top -H and /proc show it */
    running = 1;
}

void sshmem_ucx_progress_thread_stop(void)
{
    if (!running)
        return;
    uint64_t one = 1;
    ssize_t w = write(stop_fd, &one, sizeof one);
    (void)w;
    pthread_join(thread, NULL);
    close(stop_fd);
    stop_fd = -1;
    running = 0;
}
