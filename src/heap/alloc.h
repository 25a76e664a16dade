/*
 * alloc.h: the symmetric heap's allocator, on offsets only (no memory is touched), so it is
 * pure logic and unit-tested. Deterministic: the same sequence of calls gives the same offsets
 * on every PE, which is what makes shmem_malloc's results symmetric.
 *
 * First fit over an ordered list of blocks; freeing merges neighbours.
 */
#ifndef SSHMEM_ALLOC_H
#define SSHMEM_ALLOC_H
#include <stddef.h>

typedef struct sshmem_alloc sshmem_alloc_t;

sshmem_alloc_t *sshmem_alloc_create(size_t size);
void sshmem_alloc_destroy(sshmem_alloc_t *a);
/* Allocate size bytes aligned to align (a power of two); 0 and *offset, or -1 if no room. */
int sshmem_alloc_get(sshmem_alloc_t *a, size_t size, size_t align, size_t *offset);
/* Free the block that starts at offset; -1 if no allocated block starts there. */
int sshmem_alloc_put(sshmem_alloc_t *a, size_t offset);
/* Grow or shrink in place if the block can; 0 on success, -1 if it must move. */
int sshmem_alloc_resize(sshmem_alloc_t *a, size_t offset, size_t new_size);
/* Size of the allocated block at offset, or 0 if none starts there. */
size_t sshmem_alloc_size_of(const sshmem_alloc_t *a, size_t offset);
size_t sshmem_alloc_free_bytes(const sshmem_alloc_t *a);
size_t sshmem_alloc_largest_free(const sshmem_alloc_t *a);
size_t sshmem_alloc_total(const sshmem_alloc_t *a);

#endif
