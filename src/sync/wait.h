/*
 * wait.h: how sshmem waits. Poll briefly (lowest latency when every PE has a core), then
 * yield the CPU on every poll (when there are more PEs than cores, the PE we wait for needs
 * our core). While waiting, drive UCX progress if some peer is reached through UCX, so that
 * emulated operations aimed at us complete.
 */
#ifndef SSHMEM_WAIT_H
#define SSHMEM_WAIT_H

#include <sched.h>

#include "core/env.h"
#include "core/sshmem.h"
#include "transport/transport.h"

static inline void sshmem_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* One step of a wait loop; *polls counts the polls made so far. */
static inline void sshmem_wait_step(unsigned *polls)
{
    if (sshmem.ucx_in_use)
        sshmem_tx_progress();
    if (++*polls > sshmem_env.spin)
        sched_yield();
    else
        sshmem_cpu_relax();
}

/* Wait until cond (an expression re-read on every poll) holds. */
#define SSHMEM_WAIT_UNTIL(cond)                                                                  \
    do {                                                                                         \
        unsigned sshmem_polls_ = 0;                                                              \
        while (!(cond))                                                                          \
            sshmem_wait_step(&sshmem_polls_);                                                    \
    } while (0)

#endif
