/* heap.c: creating the symmetric heap and carving the library's internal part. */
#include <stdint.h>

#include "core/error.h"
#include "heap/heap.h"
#include "transport/transport.h"

static sshmem_alloc_t *allocator;
static size_t internal_size; /* the library's part, at the start of the heap */
static size_t internal_used;

/* The heap's alignment: the smallest power of two (at least 2 MiB) that holds it all. The
 * heap starts at such an address on every PE, so an offset aligned to any power of two up to
 * it is an address aligned to it on every PE (shmem_align's promise). Costs address space
 * only. */
static size_t heap_alignment(size_t total)
{
    size_t a = (size_t)2 << 20;
    while (a < total && a < ((size_t)1 << 62))
        a <<= 1;
    return a;
}

void sshmem_heap_init(size_t user_size, size_t internal)
{
    internal_size = (internal + 4095) & ~(size_t)4095;
    size_t total = user_size + internal_size;
    void *base = sshmem_tx_heap_alloc(total, heap_alignment(total));
    sshmem.region[SSHMEM_REGION_HEAP].base = (uintptr_t)base;
    sshmem.region[SSHMEM_REGION_HEAP].size = total;
    allocator = sshmem_alloc_create(total);
    size_t off;
    if (!allocator || sshmem_alloc_get(allocator, internal_size, 4096, &off) || off)
        sshmem_fatal("shmem_init", "cannot set up the heap allocator");
}

size_t sshmem_heap_user_size(void) { return sshmem.region[SSHMEM_REGION_HEAP].size - internal_size; }

void *sshmem_heap_internal(size_t size)
{
    size = (size + 63) & ~(size_t)63; /* cache-line multiples: no false sharing */
    if (internal_used + size > internal_size)
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
