/* heap.c: creating the symmetric heap and carving the library's internal part. */
#include <stdint.h>

#include "core/error.h"
#include "heap/heap.h"
#include "transport/transport.h"

static sshmem_alloc_t *allocator;
static size_t internal_used;

void sshmem_heap_init(size_t user_size)
{
    size_t total = user_size + SSHMEM_HEAP_INTERNAL_SIZE;
    void *base = sshmem_tx_heap_alloc(total);
    sshmem.region[SSHMEM_REGION_HEAP].base = (uintptr_t)base;
    sshmem.region[SSHMEM_REGION_HEAP].size = total;
    allocator = sshmem_alloc_create(total);
    size_t off;
    if (!allocator || sshmem_alloc_get(allocator, SSHMEM_HEAP_INTERNAL_SIZE, 4096, &off) || off)
        sshmem_fatal("shmem_init", "cannot set up the heap allocator");
}

void *sshmem_heap_internal(size_t size)
{
    size = (size + 63) & ~(size_t)63; /* cache-line multiples: no false sharing */
    if (internal_used + size > SSHMEM_HEAP_INTERNAL_SIZE)
        sshmem_fatal("shmem_init", "internal symmetric scratch exhausted (%zu bytes asked)", size);
    void *p = (char *)sshmem.region[SSHMEM_REGION_HEAP].base + internal_used;
    internal_used += size;
    return p;
}

sshmem_alloc_t *sshmem_heap_allocator(void) { return allocator; }

void sshmem_heap_finalize(void)
{
    sshmem_alloc_destroy(allocator);
    allocator = NULL;
    internal_used = 0;
}
