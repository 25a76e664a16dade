/*
 * coll_active.c: the active-set data collectives and barriers: shmem_barrier, shmem_sync,
 * shmem_broadcast32/64, shmem_collect32/64, shmem_fcollect32/64, shmem_alltoall32/64,
 * shmem_alltoalls32/64, on every active set shape (all PEs, logPE_stride 1 and 2, a subset
 * without PE 0), every value checked on every member, the dest of PEs outside the set
 * checked untouched, the root's dest of a broadcast untouched (active-set rule), sizes from
 * 0 to more than 16 KiB, and back-to-back calls alternating two pSync arrays.
 *
 * sshmem-test: np=1 2 3 5 7 8
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=linear SSHMEM_COLL_FCOLLECT=bruck SSHMEM_COLL_BARRIER=dissem
 * sshmem-test-env: np=5 paths=tcp SSHMEM_COLL_BCAST=linear SSHMEM_COLL_FCOLLECT=bruck SSHMEM_COLL_BARRIER=dissem
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=coop SSHMEM_COLL_FCOLLECT=linear SSHMEM_COLL_BARRIER=flat
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=binomial SSHMEM_COLL_FCOLLECT=bruck
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_BCAST=knomial SSHMEM_COLL_FCOLLECT=linear
 * sshmem-test-env: np=5 paths=tcp SSHMEM_COLL_BCAST=binomial SSHMEM_COLL_FCOLLECT=bruck
 * sshmem-test-env: np=5 paths=tcp SSHMEM_COLL_BCAST=knomial SSHMEM_COLL_FCOLLECT=linear
 * sshmem-test-env: np=3,4 paths=direct,ucx SHMEM_DEBUG=1
 * sshmem-test-env: np=5,8 paths=direct SSHMEM_PES_PER_NODE=3
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_PES_PER_NODE=3 SSHMEM_COLL_BCAST=hier SSHMEM_COLL_FCOLLECT=hier SSHMEM_COLL_BARRIER=hier
 */
#include <stdint.h>

#include "active_sets.h"
#include "check.h"

#define MAXE 5000 /* elements of 8 bytes per PE block */
#define SENT 0x5a5a5a5a5a5a5a5aLL

static long psync[2][SHMEM_BCAST_SYNC_SIZE]; /* every *_SYNC_SIZE is the same here */
static int me, npes;

/* The value of element i of the block member k contributes (32- or 64-bit). */
static uint64_t value(int k, size_t i, int it) { return (uint64_t)k * 1000003u + i * 7u + it; }

static uint64_t get_elem(const void *buf, size_t i, int bits)
{
    return bits == 32 ? ((const uint32_t *)buf)[i] : ((const uint64_t *)buf)[i];
}

static void set_elem(void *buf, size_t i, int bits, uint64_t v)
{
    if (bits == 32)
        ((uint32_t *)buf)[i] = (uint32_t)v;
    else
        ((uint64_t *)buf)[i] = v;
}

static uint64_t want(int bits, uint64_t v) { return bits == 32 ? (uint32_t)v : v; }

static char *src, *dst; /* symmetric: 2 iterations x (size x MAXE x 8) */
static size_t area;     /* bytes of one iteration's buffer */

static void fill_sentinel(void)
{
    for (size_t i = 0; i < 2 * area / 8; i++)
        ((long long *)dst)[i] = SENT;
}

static void check_untouched(const char *what, const aset_t *s)
{
    int ok = 1;
    for (size_t i = 0; i < 2 * area / 8 && ok; i++)
        ok = ((long long *)dst)[i] == SENT;
    CHECK(ok, "%s wrote the dest of PE %d outside the set (%d,%d,%d)", what, me, s->start,
          s->logs, s->size);
}

static void test_broadcast(const aset_t *s, int bits, size_t n)
{
    int idx = aset_member(s, me);
    fill_sentinel();
    shmem_barrier_all();
    for (int it = 0; idx >= 0 && it < 2; it++) {
        int root = (it + 1) % s->size;
        char *in = src + it * area, *out = dst + it * area;
        for (size_t i = 0; i < n; i++)
            set_elem(in, i, bits, value(idx, i, it));
        if (bits == 32)
            shmem_broadcast32(out, in, n, root, s->start, s->logs, s->size, psync[it]);
        else
            shmem_broadcast64(out, in, n, root, s->start, s->logs, s->size, psync[it]);
        int ok = 1;
        for (size_t i = 0; i < n && ok; i++)
            ok = idx == root ? ((long long *)out)[i * bits / 64] == SENT
                             : get_elem(out, i, bits) == want(bits, value(root, i, it));
        CHECK(ok, "shmem_broadcast%d n=%zu root %d set(%d,%d,%d) it %d", bits, n, root, s->start,
              s->logs, s->size, it);
    }
    shmem_barrier_all();
    if (idx < 0)
        check_untouched("shmem_broadcast", s);
}

static void test_collect(const aset_t *s, int bits, size_t n, int fixed)
{
    int idx = aset_member(s, me);
    fill_sentinel();
    shmem_barrier_all();
    for (int it = 0; idx >= 0 && it < 2; it++) {
        /* collect: member k gives n + k elements (n = 0 gives some empty blocks) */
        size_t mine = fixed ? n : n + (size_t)idx % 3;
        char *in = src + it * area, *out = dst + it * area;
        for (size_t i = 0; i < mine; i++)
            set_elem(in, i, bits, value(idx, i, it));
        if (fixed && bits == 32)
            shmem_fcollect32(out, in, n, s->start, s->logs, s->size, psync[it]);
        else if (fixed)
            shmem_fcollect64(out, in, n, s->start, s->logs, s->size, psync[it]);
        else if (bits == 32)
            shmem_collect32(out, in, mine, s->start, s->logs, s->size, psync[it]);
        else
            shmem_collect64(out, in, mine, s->start, s->logs, s->size, psync[it]);
        int ok = 1;
        size_t pos = 0;
        for (int k = 0; k < s->size && ok; k++) {
            size_t len = fixed ? n : n + (size_t)k % 3;
            for (size_t i = 0; i < len && ok; i++, pos++)
                ok = get_elem(out, pos, bits) == want(bits, value(k, i, it));
        }
        CHECK(ok, "shmem_%scollect%d n=%zu set(%d,%d,%d) it %d: wrong at element %zu",
              fixed ? "f" : "", bits, n, s->start, s->logs, s->size, it, pos - 1);
    }
    shmem_barrier_all();
    if (idx < 0)
        check_untouched(fixed ? "shmem_fcollect" : "shmem_collect", s);
}

static void test_alltoall(const aset_t *s, int bits, size_t n, ptrdiff_t dst_st, ptrdiff_t src_st)
{
    int idx = aset_member(s, me), strided = dst_st || src_st;
    ptrdiff_t ds = strided ? dst_st : 1, ss = strided ? src_st : 1;
    fill_sentinel();
    shmem_barrier_all();
    for (int it = 0; idx >= 0 && it < 2; it++) {
        char *in = src + it * area, *out = dst + it * area;
        /* block for member j: element e = value(me*64 + j, e) */
        for (int j = 0; j < s->size; j++)
            for (size_t e = 0; e < n; e++)
                set_elem(in, ((size_t)j * n + e) * (size_t)ss, bits, value(idx * 64 + j, e, it));
        if (!strided && bits == 32)
            shmem_alltoall32(out, in, n, s->start, s->logs, s->size, psync[it]);
        else if (!strided)
            shmem_alltoall64(out, in, n, s->start, s->logs, s->size, psync[it]);
        else if (bits == 32)
            shmem_alltoalls32(out, in, ds, ss, n, s->start, s->logs, s->size, psync[it]);
        else
            shmem_alltoalls64(out, in, ds, ss, n, s->start, s->logs, s->size, psync[it]);
        int ok = 1;
        for (int k = 0; k < s->size && ok; k++)
            for (size_t e = 0; e < n && ok; e++)
                ok = get_elem(out, ((size_t)k * n + e) * (size_t)ds, bits) ==
                     want(bits, value(k * 64 + idx, e, it));
        CHECK(ok, "shmem_alltoall%s%d n=%zu strides %td/%td set(%d,%d,%d) it %d",
              strided ? "s" : "", bits, n, ds, ss, s->start, s->logs, s->size, it);
    }
    shmem_barrier_all();
    if (idx < 0)
        check_untouched("shmem_alltoall", s);
}

static void test_barriers(const aset_t *s)
{
    int idx = aset_member(s, me);
    long *counter = shmem_calloc(1, sizeof(long));
    shmem_barrier_all();
    /* Rounds of: every member adds to member 0's counter, barrier, member 0 checks. The same
     * pSync is used for every barrier (allowed for back-to-back barriers on one set). */
    for (int round = 1; idx >= 0 && round <= 20; round++) {
        shmem_long_atomic_add(counter, 1, s->start);
        if (round % 2)
            shmem_barrier(s->start, s->logs, s->size, psync[0]);
        else {
            shmem_quiet();
            shmem_sync(s->start, s->logs, s->size, psync[0]);
        }
        if (idx == 0)
            CHECK_EQ_LONG(*counter, (long)round * s->size, "counter after barrier");
        shmem_sync(s->start, s->logs, s->size, psync[0]);
    }
    shmem_barrier_all();
    shmem_free(counter);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    area = (size_t)npes * MAXE * 8 * 2; /* room for strided layouts */
    src = shmem_malloc(2 * area);
    dst = shmem_malloc(2 * area);

    aset_t sets[4];
    int nsets = aset_list(sets, npes);
    const size_t sizes[] = {0, 1, 3, 2100, MAXE}; /* MAXE * 8 B: above the 16 KiB switch */
    for (int k = 0; k < nsets; k++) {
        const aset_t *s = &sets[k];
        test_barriers(s);
        for (int bits = 32; bits <= 64; bits += 32)
            for (int z = 0; z < 5; z++) {
                size_t n = sizes[z];
                test_broadcast(s, bits, n);
                test_collect(s, bits, n, 1);
                test_collect(s, bits, n, 0);
                test_alltoall(s, bits, n, 0, 0);
                if (z < 3)
                    test_alltoall(s, bits, n, 2, 3);
            }
    }
    shmem_free(dst);
    shmem_free(src);
    return check_finish();
}
