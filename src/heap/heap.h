/*
 * heap.h: the symmetric heap. One region per PE, allocated by UCX so that on-node peers map
 * it truly one-sided; a deterministic allocator hands out the same offsets on every PE.
 * The first bytes are the library's own symmetric scratch (barrier flags and the like).
 */
#ifndef SSHMEM_HEAP_H
#define SSHMEM_HEAP_H
#include <stddef.h>

#include "heap/alloc.h"

/* Scratch the library keeps for itself on top of SHMEM_SYMMETRIC_SIZE (flags, mailboxes);
 * start-up adds the room of the fixed-size internal tables (the team pool). */
#define SSHMEM_HEAP_INTERNAL_SIZE (1u << 20)

/* Allocate the heap: internal_size bytes for the library first, then user_size bytes for
 * shmem_malloc (all of them: the size the user set is the user's). Sets region[HEAP]. */
void sshmem_heap_init(size_t user_size, size_t internal_size);
/* The bytes shmem_malloc and friends may use: SHMEM_SYMMETRIC_SIZE. */
size_t sshmem_heap_user_size(void);
/* Carve a symmetric buffer for the library during start-up (same order on every PE). */
void *sshmem_heap_internal(size_t size);
sshmem_alloc_t *sshmem_heap_allocator(void);
void sshmem_heap_finalize(void);

#endif
