/*
 * wait.h: how sshmem waits. Poll briefly (lowest latency when every PE has a core), then
 * yield the CPU on every poll that moved nothing (when there are more PEs than cores, the PE
 * we wait for needs our core). While waiting, drive UCX progress if some peer is reached
 * through UCX, so that emulated operations aimed at us complete.
 */
#ifndef SSHMEM_WAIT_H
#define SSHMEM_WAIT_H

#include <sched.h>

#include "core/sshmem.h"
#include "sync/hang.h"
#include "sync/weak.h"
#include "transport/transport.h"

static inline void sshmem_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* One step of every wait loop of sshmem (the one policy of core/wait_policy.c); *polls counts
 * the polls made so far. Returns whether the wait is in its slow phase, where the caller
 * looks at hang reports (when they are on) with what names its wait. */
static inline int sshmem_wait_poll(unsigned *polls)
{
    /* A poll that moved messages keeps the CPU: the transfer it serves (a large block
     * arriving over tcp, in pieces that each need this PE) goes on at once. */
    const unsigned moved = sshmem.ucx_in_use ? sshmem_tx_progress() : 0;
    if (++*polls > sshmem.wait_spin) {
        if (!moved)
            sched_yield();
        return 1;
    }
    sshmem_cpu_relax();
    return 0;
}

/* One step of a wait loop in routine call on addr (for hang reports; addr may be NULL). */
static inline void sshmem_wait_step_at(unsigned *polls, const char *call, const void *addr)
{
    if (sshmem_wait_poll(polls) && SSHMEM_UNLIKELY(sshmem_hang_ns))
        sshmem_hang_poll(*polls - sshmem.wait_spin, call, addr, NULL, 0, 0);
}

static inline void sshmem_wait_step(unsigned *polls)
{
    sshmem_wait_step_at(polls, "a wait inside sshmem", NULL);
}

/* Before a wait of the program's (wait_until, signal_wait_until, the wait sets, locks): under
 * the weak-ordering mode, what this PE holds lands first, since the PE may wait for an answer
 * to it. At the wait's start, not at a poll: that is a point of the program, so the mode's
 * decisions stay the same from run to run (sync/weak.c). */
static inline void sshmem_wait_begin(void)
{
    if (SSHMEM_UNLIKELY(sshmem_env.weak))
        sshmem_weak_complete(NULL, NULL, 0);
}

/* After a wait loop: withdraw the "where I wait" record its slow phase published. */
static inline void sshmem_wait_done(unsigned polls)
{
    if (SSHMEM_UNLIKELY(sshmem_hang_ns) && polls > sshmem.wait_spin)
        sshmem_hang_leave();
}

/* Wait until cond (an expression re-read on every poll) holds; call and addr name the wait
 * in hang reports. */
#define SSHMEM_WAIT_UNTIL_AT(cond, call, addr)                                                   \
    do {                                                                                         \
        unsigned sshmem_polls_ = 0;                                                              \
        sshmem_wait_begin();                                                                     \
        while (!(cond))                                                                          \
            sshmem_wait_step_at(&sshmem_polls_, call, addr);                                     \
        sshmem_wait_done(sshmem_polls_);                                                         \
    } while (0)

#define SSHMEM_WAIT_UNTIL(cond) SSHMEM_WAIT_UNTIL_AT(cond, "a wait inside sshmem", NULL)

#endif
