/*
 * heap_alloc.c: shmem_malloc and friends give the same addresses on every PE, align,
 * zero, grow and free correctly, and report exhaustion with NULL.
 * sshmem-test-env: np=2,4 paths=direct,ucx SHMEM_DEBUG=1
 */
#include "check.h"

static char *first; /* the first allocation: offsets are measured from it */

/* Every PE sends p's offset in the heap to PE 0, which checks they are all equal. The
 * specification promises equal offsets, not equal virtual addresses. */
static void check_symmetric(void *p, const char *what)
{
    static uintptr_t addrs[1024];
    int me = shmem_my_pe(), npes = shmem_n_pes();
    uintptr_t mine = (uintptr_t)((char *)p - first);
    shmem_barrier_all();
    shmem_putmem(&addrs[me], &mine, sizeof mine, 0);
    shmem_barrier_all();
    if (me == 0)
        for (int pe = 0; pe < npes; pe++)
            CHECK(addrs[pe] == addrs[0], "%s: PE %d got %#lx, PE 0 %#lx", what, pe,
                  (unsigned long)addrs[pe], (unsigned long)addrs[0]);
    shmem_barrier_all();
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    void *ptrs[50];
    for (int i = 0; i < 50; i++) {
        ptrs[i] = shmem_malloc(16 + (size_t)i * 24);
        CHECK(ptrs[i] != NULL, "malloc %d", i);
        if (i == 0)
            first = ptrs[0];
        check_symmetric(ptrs[i], "shmem_malloc");
    }
    for (int i = 0; i < 50; i += 2)
        shmem_free(ptrs[i]);
    void *a = shmem_align(4096, 1000);
    CHECK(((uintptr_t)a % 4096) == 0, "shmem_align(4096) gave %p", a);
    check_symmetric(a, "shmem_align");
    int *z = shmem_calloc(1000, sizeof(int));
    int zeros = 1;
    for (int i = 0; i < 1000; i++)
        zeros &= z[i] == 0;
    CHECK(zeros, "shmem_calloc memory is zero");
    check_symmetric(z, "shmem_calloc");
    for (int i = 0; i < 1000; i++)
        z[i] = i + me;
    z = shmem_realloc(z, 100000 * sizeof(int));
    check_symmetric(z, "shmem_realloc");
    for (int i = 0; i < 1000; i++)
        CHECK(z[i] == i + me, "realloc kept element %d", i);
    /* the grown part is usable remotely */
    shmem_int_p(&z[99999], me, (me + 1) % npes);
    shmem_barrier_all();
    CHECK_EQ_LONG(z[99999], (me + npes - 1) % npes, "put into the grown part");

    CHECK(shmem_malloc(0) == NULL, "shmem_malloc(0) returns NULL");
    void *huge = shmem_malloc((size_t)1 << 40); /* 1 TiB: more than the heap */
    CHECK(huge == NULL, "shmem_malloc(1 TiB) must return NULL");
    void *after = shmem_malloc(64);
    CHECK(after != NULL, "the heap still works after an exhausted request");
    check_symmetric(after, "shmem_malloc after exhaustion");
    shmem_free(after);
    shmem_free(z);
    shmem_free(a);
    for (int i = 1; i < 50; i += 2)
        shmem_free(ptrs[i]);
    CHECK(shmem_ptr(ptrs[0], me) == ptrs[0], "shmem_ptr to self is the address itself (every path)");
    return check_finish();
}
