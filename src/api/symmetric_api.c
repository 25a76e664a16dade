/* symmetric_api.c: shmem_malloc and friends: collective over all PEs (barriers), so above the
 * collectives; shmem_ptr and the accessibility queries are src/heap/accessible.c. */
#include <string.h>

#include <shmem.h>
#include "coll/barrier.h"
#include "core/api_defs.h"
#include "core/debug_hooks.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/heap.h"

static void check_init(const char *call)
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized(call);
}

/* Allocate without the collective barrier; NULL (with a message) when the heap is full. */
static void *heap_get(size_t size, size_t align, const char *call)
{
    size_t off;
    sshmem_alloc_t *a = sshmem_heap_allocator();
    if (sshmem_alloc_get(a, size, align, &off) == 0)
        return (char *)sshmem.region[SSHMEM_REGION_HEAP].base + off;
    char req[32], fr[32], tot[32], big[32];
    sshmem_warn(call, "cannot allocate %s: the symmetric heap has %s free (largest piece %s) "
                "of %s. Raise SHMEM_SYMMETRIC_SIZE (e.g. SHMEM_SYMMETRIC_SIZE=1G), or free "
                "what you no longer need.",
                sshmem_human_bytes(size, req), sshmem_human_bytes(sshmem_alloc_free_bytes(a), fr),
                sshmem_human_bytes(sshmem_alloc_largest_free(a), big),
                sshmem_human_bytes(sshmem_heap_user_size(), tot));
    return NULL;
}

static size_t heap_offset(const void *ptr, const char *call)
{
    size_t off = (uintptr_t)ptr - sshmem.region[SSHMEM_REGION_HEAP].base;
    if (off >= sshmem.region[SSHMEM_REGION_HEAP].size ||
        !sshmem_alloc_size_of(sshmem_heap_allocator(), off))
        sshmem_fatal(call, "%p was not returned by shmem_malloc, shmem_calloc, shmem_align or "
                     "shmem_realloc (or was freed already). Pass the pointer the allocation "
                     "returned.", ptr);
    return off;
}

static void *collective_alloc(size_t size, size_t align, const char *call)
{
    check_init(call);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_alloc(call, size, align);
    if (size == 0)
        return NULL;
    void *p = align ? heap_get(size, align, call) : NULL; /* align 0: cannot be met */
    sshmem_barrier_world(1);
    return p;
}

SSHMEM_DEFINE(void *, shmem_malloc, (size_t size))
{
    return collective_alloc(size, 16, "shmem_malloc");
}

SSHMEM_DEFINE(void *, shmem_malloc_with_hints, (size_t size, long hints))
{
    return collective_alloc(size, 16, "shmem_malloc_with_hints");
}

SSHMEM_DEFINE(void *, shmem_align, (size_t alignment, size_t size))
{
    if (alignment == 0 || (alignment & (alignment - 1)))
        sshmem_fatal("shmem_align", "alignment %zu is not a power of two", alignment);
    /* The allocator aligns offsets; the heap's start is aligned to a power of two at least
     * its size (heap/heap.c), so an aligned offset is an aligned address up to that. */
    uintptr_t base = sshmem.region[SSHMEM_REGION_HEAP].base;
    if (sshmem.initialized && base && alignment > (base & -base)) {
        char a[32], h[32], b[32];
        sshmem_warn("shmem_align", "cannot align to %s: the symmetric heap (%s) starts at an "
                    "address aligned to %s only. Ask for a smaller alignment.",
                    sshmem_human_bytes(alignment, a),
                    sshmem_human_bytes(sshmem_heap_user_size(), h),
                    sshmem_human_bytes(base & -base, b));
        alignment = 0; /* nothing fits: collective_alloc returns NULL on every PE */
    }
    return collective_alloc(size, alignment, "shmem_align");
}

SSHMEM_DEFINE(void *, shmem_calloc, (size_t count, size_t size))
{
    if (size && count > (size_t)-1 / size)
        sshmem_fatal("shmem_calloc", "%zu elements of %zu bytes overflow size_t", count, size);
    check_init("shmem_calloc");
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_alloc("shmem_calloc", count * size, 16);
    if (count * size == 0)
        return NULL;
    void *p = heap_get(count * size, 16, "shmem_calloc");
    if (p)
        memset(p, 0, count * size);
    sshmem_barrier_world(1);
    return p;
}

SSHMEM_DEFINE(void, shmem_free, (void *ptr))
{
    check_init("shmem_free");
    if (!ptr)
        return;
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_alloc("shmem_free", heap_offset(ptr, "shmem_free"), 0);
    sshmem_barrier_world(1); /* nobody may still be using it */
    sshmem_alloc_put(sshmem_heap_allocator(), heap_offset(ptr, "shmem_free"));
}

SSHMEM_DEFINE(void *, shmem_realloc, (void *ptr, size_t size))
{
    check_init("shmem_realloc");
    if (!ptr)
        return pshmem_malloc(size);
    if (size == 0) {
        pshmem_free(ptr);
        return NULL;
    }
    size_t off = heap_offset(ptr, "shmem_realloc");
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_alloc("shmem_realloc", size, 16);
    sshmem_alloc_t *a = sshmem_heap_allocator();
    sshmem_barrier_world(1);
    void *result = ptr;
    if (sshmem_alloc_resize(a, off, size) != 0) {
        size_t old = sshmem_alloc_size_of(a, off);
        result = heap_get(size, 16, "shmem_realloc");
        if (result) {
            memcpy(result, ptr, old < size ? old : size);
            sshmem_alloc_put(a, off);
        }
    }
    sshmem_barrier_world(1);
    return result;
}

/* ------------------------------------------------------------------ deprecated names */
SSHMEM_DEFINE(void *, shmalloc, (size_t size)) { return pshmem_malloc(size); }
SSHMEM_DEFINE(void, shfree, (void *ptr)) { pshmem_free(ptr); }
SSHMEM_DEFINE(void *, shrealloc, (void *ptr, size_t size)) { return pshmem_realloc(ptr, size); }
SSHMEM_DEFINE(void *, shmemalign, (size_t a, size_t size)) { return pshmem_align(a, size); }
