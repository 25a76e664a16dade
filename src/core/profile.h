/*
 * profile.h: the traffic profile (SSHMEM_PROFILE=path, oshrun --profile).
 *
 * Per PE: count and bytes of the puts, gets and atomics the program asked for, the time it
 * spent in barriers/syncs and in waits, and per target PE the operations and bytes it sent
 * there. At shmem_finalize PE 0 gathers every PE's row and writes path.csv, path-matrix.csv
 * and path.svg (src/watch/profile_gather.c, profile_report.c).
 *
 * This header is the counting side only, so every layer may count: the row, the hooks and
 * the clock (src/core/profile_counters.c). Starting the profile and gathering it use the
 * heap, RMA and barriers, so that part sits above them, in src/watch (watch.h).
 *
 * What counts is decided at the API layer: every user call of a put (p, put, iput, _nbi,
 * put_signal, shmemx_put_type), get or atomic (signal_add/set included) counts once, with its
 * data bytes. The library's own traffic (barrier and collective flags, lock words, the
 * signal word of a put_signal, the gather of the profile itself) goes through the *_world
 * forms of rma.h and amo.h and is never counted.
 *
 * Cost: off, each hook is one load of sshmem_profile.on and a branch predicted not taken
 * (no call, no lock). On, four plain adds into this PE's row; under SHMEM_THREAD_MULTIPLE
 * (threads of one PE share one row) relaxed atomic adds instead, so counts stay exact.
 */
#ifndef SSHMEM_PROFILE_H
#define SSHMEM_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/sshmem.h"

enum sshmem_profile_kind { SSHMEM_PROFILE_PUT, SSHMEM_PROFILE_GET, SSHMEM_PROFILE_AMO,
                           SSHMEM_PROFILE_KINDS };
enum sshmem_profile_clock { SSHMEM_PROFILE_BARRIER, SSHMEM_PROFILE_WAIT, SSHMEM_PROFILE_CLOCKS };

/* One target PE's column of this PE's row. */
typedef struct sshmem_profile_cell {
    uint64_t ops;
    uint64_t bytes;
} sshmem_profile_cell_t;

/* This PE's row; lives in the library's symmetric scratch so PE 0 can read it at the end. */
typedef struct sshmem_profile_row {
    uint64_t ops[SSHMEM_PROFILE_KINDS];
    uint64_t bytes[SSHMEM_PROFILE_KINDS];
    uint64_t ns[SSHMEM_PROFILE_CLOCKS];
    sshmem_profile_cell_t to[]; /* n_pes entries */
} sshmem_profile_row_t;

struct sshmem_profile {
    int on;
    int threads; /* SHMEM_THREAD_MULTIPLE: several threads may count at once */
    sshmem_profile_row_t *row;
};
extern struct sshmem_profile sshmem_profile;

/* Monotonic nanoseconds. */
uint64_t sshmem_profile_now(void);

/* The body of the hook, when profiling is on. */
static inline void sshmem_profile_add(int kind, int pe, size_t nbytes)
{
    sshmem_profile_row_t *row = sshmem_profile.row;
    if (!sshmem_profile.threads) { /* one thread at a time: plain adds are exact */
        row->ops[kind]++;
        row->bytes[kind] += nbytes;
        row->to[pe].ops++;
        row->to[pe].bytes += nbytes;
        return;
    }
    __atomic_fetch_add(&row->ops[kind], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&row->bytes[kind], nbytes, __ATOMIC_RELAXED);
    __atomic_fetch_add(&row->to[pe].ops, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&row->to[pe].bytes, nbytes, __ATOMIC_RELAXED);
}

/* Count one user operation of `kind` (PUT, GET, AMO) of nbytes to pe (already checked). */
#define SSHMEM_PROFILE_COUNT(kind, pe, nbytes)                                                    \
    do {                                                                                          \
        if (SSHMEM_UNLIKELY(sshmem_profile.on))                                                   \
            sshmem_profile_add(SSHMEM_PROFILE_##kind, (pe), (nbytes));                            \
    } while (0)

/* Time a blocking routine: t0 = SSHMEM_PROFILE_START(); ...; SSHMEM_PROFILE_STOP(WAIT, t0). */
#define SSHMEM_PROFILE_START() (SSHMEM_UNLIKELY(sshmem_profile.on) ? sshmem_profile_now() : 0)
#define SSHMEM_PROFILE_STOP(clock, t0)                                                            \
    do {                                                                                          \
        if (SSHMEM_UNLIKELY(t0))                                                                  \
            __atomic_fetch_add(&sshmem_profile.row->ns[SSHMEM_PROFILE_##clock],                   \
                               sshmem_profile_now() - (t0), __ATOMIC_RELAXED);                    \
    } while (0)

#endif
