/*
 * heap.h: the symmetric heap. One region per PE, a memory file (heap/memfile.h) that on-node
 * peers map as they map the global data, registered with UCX for the others; a deterministic
 * allocator hands out the same offsets on every PE.
 * The first bytes are the library's own symmetric space (team state, lock nodes and the like),
 * laid out from the PE count (core/space.h); the user's SHMEM_SYMMETRIC_SIZE follows.
 */
#ifndef SSHMEM_HEAP_H
#define SSHMEM_HEAP_H
#include <stddef.h>

#include "core/space.h"
#include "heap/alloc.h"

/* Allocate the heap: the library's internal space first (laid out by space, the same on
 * every PE), then user_size bytes for shmem_malloc (all of them: the size the user set is
 * the user's). Sets region[HEAP]. */
void sshmem_heap_init(size_t user_size, const sshmem_space_layout_t *space);
/* The bytes shmem_malloc and friends may use: SHMEM_SYMMETRIC_SIZE. */
size_t sshmem_heap_user_size(void);
/* A part of the internal space (symmetric: the same offset on every PE); NULL when the part
 * has no bytes in this job. */
void *sshmem_heap_space(sshmem_space_part_t part);
/* The internal space's layout (for SHMEM_INFO). */
const sshmem_space_layout_t *sshmem_heap_space_layout(void);
sshmem_alloc_t *sshmem_heap_allocator(void);
/* The heap's memory file, which node mates map (its number goes in this PE's card). */
int sshmem_heap_fd(void);
void sshmem_heap_finalize(void);

#endif
