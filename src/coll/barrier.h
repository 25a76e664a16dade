/* barrier.h: what the rest of the runtime needs from the collectives: start-up, and the
 * world barrier (allocation, init, finalize). */
#ifndef SSHMEM_BARRIER_H
#define SSHMEM_BARRIER_H

/* Set up the teams and the collectives' symmetric state; during start-up, on every PE. */
void sshmem_barrier_init(void);
/* Barrier over all PEs (SHMEM_TEAM_WORLD); with quiet set, completes outstanding operations
 * first (shmem_barrier_all), without it only synchronizes (shmem_sync_all). */
void sshmem_barrier_world(int quiet);

#endif
