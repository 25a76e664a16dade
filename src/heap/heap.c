/* heap.c: creating the symmetric heap and carving the library's internal part. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/env.h"
#include "core/error.h"
#include "heap/heap.h"
#include "heap/memfile.h"
#include "transport/transport.h"

static sshmem_alloc_t *allocator;
static sshmem_space_layout_t space; /* the library's part, at the start of the heap */
static int heap_fd = -1;

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

/* This host's memory and swap in bytes, from /proc/meminfo; 0 if unknown. */
static size_t host_memory(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[128];
    unsigned long long kib, total = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &kib) == 1 ||
            sscanf(line, "SwapTotal: %llu kB", &kib) == 1)
            total += kib * 1024;
    fclose(f);
    return (size_t)total;
}

/* A heap larger than the host's memory and swap can never be backed: say so at once, rather
 * than let the PEs fill memory until something gives. */
static void check_fits(size_t user_size, size_t total)
{
    size_t host = host_memory();
    if (host && total > host) {
        char want[32], have[32];
        sshmem_fatal("shmem_init", "SHMEM_SYMMETRIC_SIZE asks for a symmetric heap of %s per "
                     "PE, but this host has %s of memory and swap in all: it cannot fit. Lower "
                     "SHMEM_SYMMETRIC_SIZE (the default is 256M; each PE of a host needs its "
                     "own heap).", sshmem_human_bytes(user_size, want),
                     sshmem_human_bytes(host, have));
    }
}

/* An address range of `size` bytes aligned to `align`, reserved (PROT_NONE, no memory behind
 * it): a reservation of size + align bytes trimmed to the aligned part. The heap's file is
 * mapped over it (MAP_FIXED replaces the reservation), so no other thread's mapping can land
 * in the range meanwhile. NULL if there is no such room. */
static void *free_aligned_range(size_t size, size_t align)
{
    void *r = mmap(NULL, size + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (r == MAP_FAILED)
        return NULL;
    uintptr_t start = (uintptr_t)r, at = (start + align - 1) & ~(uintptr_t)(align - 1);
    if (at > start)
        munmap(r, at - start);
    munmap((void *)(at + size), start + align - at);
    return (void *)at;
}

/* The heap's memory: a memory file (heap/memfile.h), so that node mates map it as they map
 * the global data and nothing of it outlives the job; at an address aligned to `align` when
 * there is room (else anywhere: shmem_align then reaches only the page alignment). UCX only
 * registers it (for peers of other hosts): UCX allocating it would make it a SysV segment,
 * or with its posix allocator touch every page at start-up.
 * SSHMEM_LOCAL=ucx is the exception: that path stands in for a network with RDMA, where puts,
 * gets and atomics are one-sided, and UCX's shared-memory transports are one-sided only on
 * memory UCX allocated itself (on a memory file they only registered, atomics become
 * messages that wait for the target's progress). There UCX allocates the heap. */
static void *heap_backing(size_t size, size_t align)
{
    if (sshmem_env.local)
        return sshmem_tx_heap_alloc(free_aligned_range(size, align), size);
    char why[512];
    heap_fd = sshmem_memfile_create("sshmem-heap", size, "symmetric heap", why, sizeof why);
    if (heap_fd < 0)
        sshmem_fatal("shmem_init", "%s", why);
    void *at = free_aligned_range(size, align);
    void *base = sshmem_memfile_map(heap_fd, size, at, "symmetric heap", why, sizeof why);
    if (!base && at) {
        munmap(at, size); /* give the reservation back */
        base = sshmem_memfile_map(heap_fd, size, NULL, "symmetric heap", why, sizeof why);
    }
    if (!base)
        sshmem_fatal("shmem_init", "%s", why);
    return base;
}

void sshmem_heap_init(size_t user_size, const sshmem_space_layout_t *layout)
{
    space = *layout;
    size_t total = user_size + space.total;
    check_fits(user_size, total);
    void *base = heap_backing(total, heap_alignment(total));
    if (heap_fd >= 0) /* UCX registers the memory file; what it allocated is registered */
        sshmem_tx_register(SSHMEM_REGION_HEAP, base, total);
    sshmem.region[SSHMEM_REGION_HEAP].base = (uintptr_t)base;
    sshmem.region[SSHMEM_REGION_HEAP].size = total;
    if (!sshmem_env.weak) /* the mode sends every transfer down the slow path */
        sshmem.fast_heap = sshmem.region[SSHMEM_REGION_HEAP];
    allocator = sshmem_alloc_create(total);
    size_t off;
    if (!allocator || sshmem_alloc_get(allocator, space.total, SSHMEM_SPACE_PAGE, &off) || off)
        sshmem_fatal("shmem_init", "cannot set up the heap allocator");
}

size_t sshmem_heap_user_size(void)
{
    return sshmem.region[SSHMEM_REGION_HEAP].size - space.total;
}

void *sshmem_heap_space(sshmem_space_part_t part)
{
    if (!space.part[part].size)
        return NULL;
    return (char *)sshmem.region[SSHMEM_REGION_HEAP].base + space.part[part].offset;
}

const sshmem_space_layout_t *sshmem_heap_space_layout(void) { return &space; }

int sshmem_heap_fd(void) { return heap_fd; }

sshmem_alloc_t *sshmem_heap_allocator(void) { return allocator; }

void sshmem_heap_finalize(void)
{
    sshmem_alloc_destroy(allocator);
    allocator = NULL;
    /* The mapping stays: the program may still read what its heap held; the file goes with
     * the process (and with the last node mate's mapping of it). */
}
