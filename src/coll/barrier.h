/* barrier.h: the world barrier the runtime itself uses (allocation, init, finalize). */
#ifndef SSHMEM_BARRIER_H
#define SSHMEM_BARRIER_H

/* Reserve the barrier's symmetric flags; during start-up, on every PE. */
void sshmem_barrier_init(void);
/* Dissemination barrier over all PEs; with quiet set, completes outstanding operations first
 * (shmem_barrier_all), without it only synchronizes (shmem_sync_all). */
void sshmem_barrier_world(int quiet);

#endif
