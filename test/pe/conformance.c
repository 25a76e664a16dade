/*
 * conformance.c: specification points that once failed here, each checked by value on every
 * PE and every path:
 *  - shmem_ctx_quiet and shmem_ctx_fence on SHMEM_CTX_INVALID do nothing (and return);
 *  - shmem_ptr(p, my_pe) and shmem_team_ptr(team, p, my_index) give p, also when
 *    SSHMEM_LOCAL=ucx sends this PE's own puts through UCX;
 *  - shmem_align(a, n) returns an address aligned to a, for every power of two a up to a
 *    quarter of the heap, at the same place on every PE;
 *  - one shmem_malloc of all of SHMEM_SYMMETRIC_SIZE succeeds: the library's own symmetric
 *    space comes on top of the size the user set.
 */
#include <stdint.h>

#include "check.h"

static long gvalue; /* a global: symmetric too */

static void invalid_ctx(void)
{
    shmem_ctx_quiet(SHMEM_CTX_INVALID);
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    CHECK(1, "quiet and fence on SHMEM_CTX_INVALID returned");
}

static void own_address(int me)
{
    long *heap = shmem_malloc(sizeof *heap);
    CHECK(shmem_ptr(heap, me) == heap, "shmem_ptr(heap, my_pe) is the heap address");
    CHECK(shmem_ptr(&gvalue, me) == &gvalue, "shmem_ptr(global, my_pe) is the global's address");
    int wi = shmem_team_my_pe(SHMEM_TEAM_WORLD), si = shmem_team_my_pe(SHMEM_TEAM_SHARED);
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, heap, wi) == heap, "team_ptr(WORLD, heap, my index)");
    CHECK(si >= 0 && shmem_team_ptr(SHMEM_TEAM_SHARED, heap, si) == heap,
          "team_ptr(SHARED, heap, my index %d)", si);
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &gvalue, wi) == &gvalue, "team_ptr(WORLD, global)");
    shmem_free(heap);
}

/* Every power of two from 1 byte to 64 MiB: aligned, and symmetric (the right neighbour's
 * put lands in this PE's block). Between two alignments a small block shifts the next one. */
static void align(int me, int npes)
{
    int left = (me + npes - 1) % npes, right = (me + 1) % npes;
    for (size_t a = 1; a <= ((size_t)64 << 20); a <<= 1) {
        char *pad = shmem_malloc(24);
        long *p = shmem_align(a, 2 * sizeof(long));
        CHECK(p != NULL, "shmem_align(%zu) gave memory", a);
        if (!p)
            break;
        CHECK((uintptr_t)p % a == 0, "shmem_align(%zu): %p is aligned", a, (void *)p);
        p[0] = -1;
        shmem_barrier_all();
        shmem_long_p(&p[0], me, right);
        shmem_barrier_all();
        CHECK_EQ_LONG(p[0], left, "the left PE's put into shmem_align's block");
        shmem_free(p);
        shmem_free(pad);
    }
}

/* SHMEM_SYMMETRIC_SIZE as the library reads it (only the forms the test runs use). */
static size_t symmetric_size(void)
{
    const char *s = getenv("SHMEM_SYMMETRIC_SIZE");
    if (!s)
        return (size_t)256 << 20; /* the documented default */
    char *end;
    size_t n = strtoull(s, &end, 10);
    switch (*end) {
    case 'K': case 'k': return n << 10;
    case 'M': case 'm': return n << 20;
    case 'G': case 'g': return n << 30;
    default: return n;
    }
}

static void whole_heap(int me, int npes)
{
    size_t size = symmetric_size();
    int left = (me + npes - 1) % npes, right = (me + 1) % npes;
    char *p = shmem_malloc(size);
    CHECK(p != NULL, "one shmem_malloc of all of SHMEM_SYMMETRIC_SIZE (%zu bytes)", size);
    if (!p)
        return;
    p[0] = p[size - 1] = -1;
    shmem_barrier_all();
    shmem_char_p(&p[0], (char)me, right);
    shmem_char_p(&p[size - 1], (char)(me + 1), right);
    shmem_barrier_all();
    CHECK_EQ_LONG(p[0], (char)left, "first byte of the whole heap, from the left PE");
    CHECK_EQ_LONG(p[size - 1], (char)(left + 1), "last byte of the whole heap, from the left PE");
    shmem_free(p);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    invalid_ctx();
    own_address(me);
    align(me, npes);
    whole_heap(me, npes);
    return check_finish();
}
/* sshmem-test-env: np=1,2,4 SHMEM_SYMMETRIC_SIZE=64M */
