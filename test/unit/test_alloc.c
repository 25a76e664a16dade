/* test_alloc.c: the symmetric heap allocator: determinism, alignment, merging, exhaustion. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "heap/alloc.h"

#define MB (1u << 20)

/* A fixed pseudo-random script of allocations and frees, replayed on two allocators. */
static void replay(sshmem_alloc_t *a, size_t *offs, int n)
{
    unsigned seed = 12345;
    size_t live[64] = {0};
    int used[64] = {0};
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245 + 12345;
        int slot = (seed >> 8) % 64;
        if (used[slot]) {
            assert_int_equal(sshmem_alloc_put(a, live[slot]), 0);
            used[slot] = 0;
            offs[i] = (size_t)-1;
        } else {
            size_t size = 1 + (seed >> 12) % 5000, align = (size_t)16 << ((seed >> 20) % 5);
            assert_int_equal(sshmem_alloc_get(a, size, align, &live[slot]), 0);
            assert_int_equal(live[slot] % align, 0);
            used[slot] = 1;
            offs[i] = live[slot];
        }
    }
}

static void deterministic(void **state)
{
    enum { N = 2000 };
    size_t *o1 = malloc(N * sizeof *o1), *o2 = malloc(N * sizeof *o2);
    sshmem_alloc_t *a = sshmem_alloc_create(64 * MB), *b = sshmem_alloc_create(64 * MB);
    replay(a, o1, N);
    replay(b, o2, N);
    assert_memory_equal(o1, o2, N * sizeof *o1);
    sshmem_alloc_destroy(a);
    sshmem_alloc_destroy(b);
    free(o1);
    free(o2);
}

static void no_overlap_and_merge(void **state)
{
    sshmem_alloc_t *a = sshmem_alloc_create(1 * MB);
    size_t x, y, z;
    assert_int_equal(sshmem_alloc_get(a, 100, 16, &x), 0);
    assert_int_equal(sshmem_alloc_get(a, 100, 16, &y), 0);
    assert_int_equal(sshmem_alloc_get(a, 100, 16, &z), 0);
    assert_true(y >= x + 100 && z >= y + 100);
    assert_int_equal(sshmem_alloc_size_of(a, y), 112);
    assert_int_equal(sshmem_alloc_put(a, y), 0);
    assert_int_equal(sshmem_alloc_put(a, y), -1); /* double free is refused */
    assert_int_equal(sshmem_alloc_put(a, x + 1), -1); /* not a block start */
    assert_int_equal(sshmem_alloc_put(a, x), 0);
    assert_int_equal(sshmem_alloc_put(a, z), 0);
    /* everything merged back into one free block */
    assert_int_equal(sshmem_alloc_free_bytes(a), 1 * MB);
    assert_int_equal(sshmem_alloc_largest_free(a), 1 * MB);
    sshmem_alloc_destroy(a);
}

static void exhaustion(void **state)
{
    sshmem_alloc_t *a = sshmem_alloc_create(1 * MB);
    size_t x, y;
    assert_int_equal(sshmem_alloc_get(a, 2 * MB, 16, &x), -1);
    assert_int_equal(sshmem_alloc_get(a, 768 * 1024, 16, &x), 0);
    assert_int_equal(sshmem_alloc_get(a, 512 * 1024, 16, &y), -1);
    assert_int_equal(sshmem_alloc_free_bytes(a), 256 * 1024);
    assert_int_equal(sshmem_alloc_get(a, 256 * 1024, 16, &y), 0);
    assert_int_equal(sshmem_alloc_free_bytes(a), 0);
    assert_int_equal(sshmem_alloc_get(a, 1, 16, &y), -1);
    assert_int_equal(sshmem_alloc_get(a, 0, 16, &y), -1);
    sshmem_alloc_destroy(a);
}

static void resize_in_place(void **state)
{
    sshmem_alloc_t *a = sshmem_alloc_create(1 * MB);
    size_t x, y;
    assert_int_equal(sshmem_alloc_get(a, 1000, 16, &x), 0);
    assert_int_equal(sshmem_alloc_resize(a, x, 5000), 0); /* grows into the free tail */
    assert_int_equal(sshmem_alloc_size_of(a, x), 5008);
    assert_int_equal(sshmem_alloc_get(a, 100, 16, &y), 0);
    assert_true(y >= x + 5000);
    assert_int_equal(sshmem_alloc_resize(a, x, 6000), -1); /* y is in the way */
    assert_int_equal(sshmem_alloc_resize(a, x, 64), 0);    /* shrink */
    assert_int_equal(sshmem_alloc_size_of(a, x), 64);
    assert_int_equal(sshmem_alloc_resize(a, x, 5000), 0);  /* and grow back */
    sshmem_alloc_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deterministic),
        cmocka_unit_test(no_overlap_and_merge),
        cmocka_unit_test(exhaustion),
        cmocka_unit_test(resize_in_place),
    };
    return cmocka_run_group_tests_name("alloc", tests, NULL, NULL);
}
