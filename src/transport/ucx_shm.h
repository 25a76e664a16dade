/* ucx_shm.h: the shared memory behind the symmetric heap: which host limit stops it, and
 * what of it stays real (src/transport only). */
#ifndef SSHMEM_UCX_SHM_H
#define SSHMEM_UCX_SHM_H
#include <stddef.h>
#include <ucp/api/ucp.h>

#include "core/sshmem.h"

/* End the job at once, naming the directory and how to make room, when the filesystem that
 * will hold a heap of `size` bytes (UCX's posix domain, when sshmem chose it) has less room
 * than that. */
void sshmem_ucx_shm_check_room(size_t size);

/* End the job after UCX could not allocate the heap, naming each host limit that stands in
 * the way (room for shared memory, open files, locked memory) and how to raise it. */
SSHMEM_NORETURN void sshmem_ucx_shm_alloc_failed(size_t size, ucs_status_t st);

/* Take this PE's turn among the job's PEs to allocate a heap UCX makes real while it does
 * (see ucx_shm.c); returns what sshmem_ucx_shm_end_turn takes (-1: no turns here). */
int sshmem_ucx_shm_take_turn(void);
void sshmem_ucx_shm_end_turn(int turn);

/* Give back the memory of the heap's pages that nobody has used yet (see ucx_shm.c). */
void sshmem_ucx_shm_release_untouched(void *base, size_t size);

#endif
