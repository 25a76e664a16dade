/*
 * hang.h: hang reports (SSHMEM_HANG_TIMEOUT). When a wait of sshmem has made no progress for
 * that many seconds, the PE prints where every PE is waiting (and, for a barrier or another
 * collective, which PEs have not arrived) and ends the job.
 *
 * Cost: nothing on fast paths. Waits call sshmem_hang_poll only in their slow phase (after
 * the spin polls, where they already yield the CPU) and only when the timeout is set; it
 * publishes "where I wait" once, then reads the clock every few hundred yields.
 */
#ifndef SSHMEM_HANG_H
#define SSHMEM_HANG_H

#include <stdint.h>

#include "core/sshmem.h"
#include "core/team_math.h"

/* The timeout in nanoseconds; 0 = hang reports are off. */
extern uint64_t sshmem_hang_ns;

/* Bytes of this PE's record: its part of the internal space (core/space.h). */
#define SSHMEM_HANG_AREA_BYTES 256

/* Start-up, on every PE: takes this PE's record from the internal symmetric space. */
void sshmem_hang_init(void);

/* One slow-phase poll (slow_polls counts from 1) of a wait in routine call on addr (may be
 * NULL); set is the collective's set, seq its call number on its team (1 = first; 0 for an
 * active set) and world says the team is SHMEM_TEAM_WORLD (set NULL outside collectives). */
SSHMEM_COLD void sshmem_hang_poll(unsigned slow_polls, const char *call, const void *addr,
                                  const sshmem_triplet_t *set, unsigned long seq, int world);
/* The wait whose slow phase published a record has finished. */
SSHMEM_COLD void sshmem_hang_leave(void);
/* This PE entered its n-th collective on SHMEM_TEAM_WORLD (barrier_all, sync_all, ...). */
void sshmem_hang_world_entered(unsigned long n);

#endif
