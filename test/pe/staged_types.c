/*
 * staged_types.c: typed RMA (shmemx_put_type, shmemx_get_type, their _nbi and ctx forms) of
 * derived types with many runs: through UCX they travel packed with the type's plan and the
 * target unpacks them (src/transport/ucx_staging.c). Types: the vector of doubles
 * (stride 24), a vector of int pairs resized so that elements interleave, an indexed type of
 * irregular blocks (a plan of several pieces) and fields of an array of structs.
 *
 * Every byte of the target's span is checked: the type's bytes hold the sender's values,
 * every other byte keeps its sentinel. Which bytes are the type's comes from packing and
 * unpacking a marker locally (shmemx_pack/unpack, tested on their own), not from the path
 * under test. Puts: put, quiet (or fence), then a flag; the target checks as soon as the flag
 * is set (data in place after quiet, ordered by fence). Gets: checked as soon as a blocking
 * get returns, or after quiet for an _nbi one.
 *
 * sshmem-test-env: paths=ucx,tcp SSHMEM_STAGE_PIECE=4K
 * (Without the progress thread only at 2 PEs: at 3 over tcp shmem_finalize itself can hang,
 * whatever the test does: test/pe/put_get too.)
 * sshmem-test-env: np=2 paths=ucx,tcp SSHMEM_PROGRESS_THREAD=0
 * (Messages also on one host: not through UCX's shared-memory mapping.)
 * sshmem-test-env: np=2,3 paths=ucx SSHMEM_STAGE_MAPPED=0 SSHMEM_STAGE_MIN_RUNS_SHM=2
 * sshmem-test-env: np=2 paths=ucx SSHMEM_STAGE_MAPPED=0 SSHMEM_STAGE_PIECE=4K
 */
#include <shmemx.h>
#include <stdint.h>

#include "check.h"

#define MAX_SPAN (4u << 20) /* bytes of the largest element span used */
#define SENTINEL 0xEE

static long flag;
static int me, npes, right, left;
static long round_no;
static unsigned char *mask;   /* 1 where a byte belongs to the type's elements */
static unsigned char *local;  /* the local side: any memory */

static unsigned char byte_of(int pe, size_t i, long r)
{
    uint32_t h = (uint32_t)i * 2654435761u + (uint32_t)pe * 40503u + (uint32_t)r * 977u;
    return (unsigned char)(h >> 13);
}

/* mask[0..span) = which bytes count elements of type touch (its span starts at lb = 0). */
static size_t make_mask(shmemx_datatype_t type, size_t count)
{
    ptrdiff_t lb, extent, tlb, textent;
    size_t packed;
    shmemx_type_get_extent(type, &lb, &extent);
    shmemx_type_get_true_extent(type, &tlb, &textent);
    size_t span = (size_t)(tlb + (ptrdiff_t)(count - 1) * extent + textent);
    shmemx_pack_size(count, type, &packed);
    unsigned char *ones = malloc(span), *buf = malloc(packed);
    size_t pos = 0;
    memset(ones, 1, span);
    memset(mask, 0, span);
    shmemx_pack(ones, count, type, buf, packed, &pos);
    pos = 0;
    shmemx_unpack(buf, packed, &pos, mask, count, type);
    free(ones);
    free(buf);
    return span;
}

static void check_span(const unsigned char *got, size_t span, int from, long r, int gaps,
                       const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < span; i++) {
        int want = mask[i] ? byte_of(from, i, r) : gaps;
        if (want >= 0 && got[i] != want && bad++ < 3)
            CHECK(0, "%s round %ld: byte %zu is %#x, expected %#x (%s)", what, r, i, got[i],
                  want, mask[i] ? "data" : "gap");
    }
    CHECK(bad == 0, "%s round %ld: %zu wrong bytes of %zu", what, r, bad, span);
}

enum how { PUT_QUIET, PUT_FENCE, PUT_NBI, CTX_PUT, GET, GET_NBI, CTX_GET };

static void round_trip(shmem_ctx_t ctx, unsigned char *remote, shmemx_datatype_t type,
                       size_t count, enum how how, const char *what)
{
    long r = ++round_no;
    size_t span = make_mask(type, count);
    int put = how <= CTX_PUT;
    shmem_ctx_t c = how == CTX_PUT || how == CTX_GET ? ctx : SHMEM_CTX_DEFAULT;
    for (size_t i = 0; i < span; i++) {
        local[i] = put ? byte_of(me, i, r) : SENTINEL;
        remote[i] = put ? SENTINEL : byte_of(me, i, r);
    }
    shmem_barrier_all();
    if (put) {
        int rc = how == PUT_NBI ? shmemx_put_type_nbi(remote, local, count, type, right)
                                : shmemx_ctx_put_type(c, remote, local, count, type, right);
        CHECK_EQ_LONG(rc, SHMEMX_SUCCESS, what);
        memset(local, 0, span); /* reusable on return (the _nbi form: packed already) */
        if (how == PUT_FENCE)
            shmem_fence();
        else
            shmem_ctx_quiet(c);
        shmem_long_p(&flag, r, right);
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
        check_span(remote, span, left, r, SENTINEL, what);
    } else {
        int rc = how == GET_NBI ? shmemx_get_type_nbi(local, remote, count, type, right)
                                : shmemx_ctx_get_type(c, local, remote, count, type, right);
        CHECK_EQ_LONG(rc, SHMEMX_SUCCESS, what);
        if (how == GET_NBI)
            shmem_quiet();
        check_span(local, span, right, r, SENTINEL, what);
    }
    shmem_barrier_all();
}

static void all_ways(shmem_ctx_t ctx, unsigned char *remote, shmemx_datatype_t type,
                     size_t count, const char *name)
{
    static const char *ways[] = {"put_type, quiet", "put_type, fence", "put_type_nbi, quiet",
                                 "ctx put_type", "get_type", "get_type_nbi, quiet",
                                 "ctx get_type"};
    char what[128];
    for (int h = PUT_QUIET; h <= CTX_GET; h++) {
        snprintf(what, sizeof what, "%s x %zu: %s", name, count, ways[h]);
        round_trip(ctx, remote, type, count, (enum how)h, what);
    }
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    unsigned char *remote = shmem_malloc(MAX_SPAN);
    static unsigned char gremote[64 * 1024]; /* a global target */
    mask = malloc(MAX_SPAN);
    local = malloc(MAX_SPAN);
    shmem_ctx_t ctx;
    if (shmem_ctx_create(0, &ctx) != 0)
        ctx = SHMEM_CTX_DEFAULT;

    /* The case: n doubles at a stride of 24 doubles, one element. */
    static const int ns[] = {8, 16, 1000, 20000};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        shmemx_datatype_t vec;
        shmemx_type_vector(ns[k], 1, 24, SHMEMX_DOUBLE, &vec);
        shmemx_type_commit(&vec);
        all_ways(ctx, remote, vec, 1, "vector of doubles");
        shmemx_type_free(&vec);
    }
    /* Pairs of ints, 5 ints apart, 300 of them; resized to 8 bytes so 3 elements interleave. */
    shmemx_datatype_t pairs, inter;
    shmemx_type_vector(300, 2, 5, SHMEMX_INT, &pairs);
    shmemx_type_create_resized(pairs, 0, 8, &inter);
    shmemx_type_commit(&inter);
    all_ways(ctx, remote, inter, 2, "interleaved int pairs");
    /* Irregular blocks: a plan of several pieces, 700 elements of a 16-double extent. */
    static const int lens[] = {1, 3, 2}, displs[] = {0, 4, 11};
    shmemx_datatype_t idx, idx16;
    shmemx_type_indexed(3, lens, displs, SHMEMX_DOUBLE, &idx);
    shmemx_type_create_resized(idx, 0, 16 * sizeof(double), &idx16);
    shmemx_type_commit(&idx16);
    all_ways(ctx, remote, idx16, 700, "indexed blocks");
    /* Two fields of an array of 5,000 structs of 24 bytes. */
    static const int one[] = {1, 1};
    static const ptrdiff_t at[] = {0, 12};
    shmemx_datatype_t fields[2] = {SHMEMX_DOUBLE, SHMEMX_INT}, st, st24;
    shmemx_type_create_struct(2, one, at, fields, &st);
    shmemx_type_create_resized(st, 0, 24, &st24);
    shmemx_type_commit(&st24);
    all_ways(ctx, remote, st24, 5000, "struct fields");
    all_ways(ctx, gremote, st24, 2000, "struct fields of a global");

    shmemx_type_free(&st24);
    shmemx_type_free(&st);
    shmemx_type_free(&idx16);
    shmemx_type_free(&idx);
    shmemx_type_free(&inter);
    shmemx_type_free(&pairs);
    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(remote);
    free(mask);
    free(local);
    return check_finish();
}
