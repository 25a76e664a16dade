/*
 * mpix_large.c: typed RMA over byte spans past 4 GiB (offsets are size_t / ptrdiff_t all the
 * way down, on every path).
 *
 * Each PE reserves a symmetric array of 4 GiB + 64 KiB (a 5 GiB symmetric heap, set below
 * unless the environment sets one; only touched pages become memory) and a local one of the
 * same size. Two types reach past 4 GiB: doubles 4 GiB + 4104 bytes apart (a resized double,
 * count 2) and one element of two blocks of 3 ints 4 GiB + 24 bytes apart (an hvector). Each
 * goes to the right neighbour by put_type and comes back from it by get_type; the elements
 * and sentinels around them are checked on every PE.
 */
#include <shmemx.h>
#include <stdint.h>
#include <sys/mman.h>

#include "check.h"

#define GIB ((size_t)1 << 30)
#define SPAN (4 * GIB + 65536)
#define FAR ((ptrdiff_t)(4 * GIB + 4104))
#define BLOCKS ((ptrdiff_t)(4 * GIB + 24))

static int me, npes, right, left;

static char *reserve(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    return p;
}

static double dv(int pe, int i) { return pe * 10.0 + i + 0.5; }
static int iv(int pe, int b, int k) { return pe * 100 + b * 10 + k + 1; }

/* Two doubles FAR apart: element i at i * FAR. */
static void resized_doubles(char *sym, char *local, char *got)
{
    shmemx_datatype_t far;
    CHECK_EQ_LONG(shmemx_type_create_resized(SHMEMX_DOUBLE, 0, FAR, &far), 0, "resized rc");
    CHECK_EQ_LONG(shmemx_type_commit(&far), 0, "commit rc");
    for (int i = 0; i < 2; i++) {
        *(double *)(local + i * FAR) = dv(me, i);
        double *at = (double *)(sym + i * FAR); /* the target and sentinels around it */
        at[0] = -1;
        at[1] = -7;
        if (i)
            at[-1] = -7;
    }
    shmem_barrier_all();
    CHECK_EQ_LONG(shmemx_put_type(sym, local, 2, far, right), 0, "put_type rc");
    shmem_barrier_all();
    for (int i = 0; i < 2; i++) {
        char *at = sym + i * FAR;
        CHECK(*(double *)at == dv(left, i), "put element %d at %td: %g", i, i * FAR,
              *(double *)at);
        CHECK(*(double *)(at + 8) == -7 && (i == 0 || *(double *)(at - 8) == -7),
              "put element %d: a neighbouring double was written", i);
    }
    CHECK_EQ_LONG(shmemx_get_type(got, sym, 2, far, right), 0, "get_type rc");
    for (int i = 0; i < 2; i++) /* right's array holds my values now */
        CHECK(*(double *)(got + i * FAR) == dv(me, i), "get element %d: %g", i,
              *(double *)(got + i * FAR));
    shmemx_type_free(&far);
    shmem_barrier_all();
}

/* One element: 3 ints at 0 and 3 ints at BLOCKS (past the doubles above). */
static void hvector_ints(char *sym, char *local, char *got)
{
    shmemx_datatype_t blocks;
    CHECK_EQ_LONG(shmemx_type_create_hvector(2, 3, BLOCKS, SHMEMX_INT, &blocks), 0,
                  "hvector rc");
    CHECK_EQ_LONG(shmemx_type_commit(&blocks), 0, "commit rc");
    const ptrdiff_t base = 64; /* clear of the doubles at 0 and FAR */
    for (int b = 0; b < 2; b++) {
        int *at = (int *)(sym + base + b * BLOCKS);
        at[-1] = at[3] = -7; /* sentinels around the target */
        for (int k = 0; k < 3; k++) {
            ((int *)(local + base + b * BLOCKS))[k] = iv(me, b, k);
            at[k] = -1;
        }
    }
    shmem_barrier_all();
    CHECK_EQ_LONG(shmemx_put_type(sym + base, local + base, 1, blocks, right), 0,
                  "put_type rc");
    shmem_barrier_all();
    for (int b = 0; b < 2; b++) {
        int *at = (int *)(sym + base + b * BLOCKS);
        for (int k = 0; k < 3; k++)
            CHECK(at[k] == iv(left, b, k), "put block %d int %d: %d", b, k, at[k]);
        CHECK(at[-1] == -7 && at[3] == -7, "put block %d: a neighbouring int was written", b);
    }
    CHECK_EQ_LONG(shmemx_get_type_nbi(got + base, sym + base, 1, blocks, right), 0,
                  "get_type_nbi rc");
    shmem_quiet();
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 3; k++)
            CHECK(((int *)(got + base + b * BLOCKS))[k] == iv(me, b, k), "get block %d int %d",
                  b, k);
    shmemx_type_free(&blocks);
    shmem_barrier_all();
}

int main(void)
{
    /* A heap that holds the 4 GiB span (reserved, not committed: only touched pages count). */
    setenv("SHMEM_SYMMETRIC_SIZE", "5G", 0);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    char *sym = shmem_malloc(SPAN);
    if (!sym) {
        fprintf(stderr, "PE %d: cannot allocate %zu symmetric bytes; skipped\n", me, SPAN);
        shmem_finalize();
        return 77;
    }
    char *local = reserve(SPAN), *got = reserve(SPAN);
    resized_doubles(sym, local, got);
    hvector_ints(sym, local, got);
    shmem_free(sym);
    munmap(local, SPAN);
    munmap(got, SPAN);
    return check_finish();
}
