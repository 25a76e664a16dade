/* worker_lock.c: the slow path of the worker lock (worker_lock.h). */
#include <sched.h>

#include "transport/worker_lock.h"

/* Polls between yields: a holder is inside one UCX call, usually well under a microsecond. */
#define SPINS_BEFORE_YIELD 256

void sshmem_worker_lock_wait(sshmem_worker_lock_t *l)
{
    for (;;) {
        for (int i = 0; i < SPINS_BEFORE_YIELD; i++) {
            if (sshmem_worker_trylock(l))
                return;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#elif defined(__aarch64__)
            __asm__ __volatile__("yield");
#endif
        }
        sched_yield(); /* the holder may be waiting for our CPU */
    }
}
