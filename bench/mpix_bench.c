/*
 * mpix_bench: the MPI-style layer (shmemx.h) beside the native OpenSHMEM routine that moves
 * the same bytes, in one run. bench/mpix_mpi.c measures the same rows with MPI, and
 * bench/mpix_compare.sh puts the three side by side with ratios (see bench/README.md).
 *
 * Rows and variants (mpix_rows.c times, checks and prints them):
 *   allreduce_sum_*      shmemx     shmemx_allreduce SUM of doubles
 *                        native     shmem_double_sum_reduce
 *                        (_private: shmemx on malloc'd buffers, as MPI codes pass them;
 *                        native: what a program on the native API does with such buffers,
 *                        copy into symmetric ones, shmem_double_sum_reduce, copy out)
 *   allreduce_maxloc_*   shmemx     shmemx_allreduce MAXLOC of SHMEMX_DOUBLE_INT pairs
 *                        sum        shmemx_allreduce SUM of the same bytes as doubles
 *                        native     shmem_double_sum_reduce of the same bytes
 *   reduce_userop_*      shmemx     shmemx_reduce to PE 0, a commutative user operator (a sum)
 *                        sum        shmemx_reduce SUM to PE 0
 *                        native     shmem_double_sum_reduce (OpenSHMEM has no reduce-to-root)
 *   allgatherv_*         shmemx / native: shmemx_allgatherv / shmem_fcollectmem
 *   alltoallv_*          shmemx / native: shmemx_alltoallv / shmem_alltoallmem
 *   gatherv_*, scatterv_*  shmemx only (no native counterpart)
 *   vector_put           shmemx     shmemx_put_type of a vector type + shmem_quiet
 *                        iput       shmem_double_iput + shmem_quiet
 *                        pack       pack by hand + shmem_putmem + shmem_quiet
 *                        pack_unpack  the same result as shmemx: pack by hand, shmem_putmem_signal
 *                                   into one of two buffers at PE 1, which unpacks it there and
 *                                   acknowledges; PE 0 reuses a buffer once it is unpacked, and
 *                                   a batch ends when PE 1 has unpacked its last call
 *   vector_get           shmemx     shmemx_get_type of a vector type
 *                        iget       shmem_double_iget
 *                        pack       shmem_getmem + unpack by hand
 * "pack" leaves the data packed at the target (no unpacking there, which would need the
 * target's CPU): the floor issue 11 set a typed transfer. It moves less than the typed put:
 * the 1,000 doubles land on 125 cache lines, not the 1,000 of the strided layout.
 * "pack_unpack" ends with what shmemx_put_type ends with, the vector in its layout at PE 1,
 * the way a user without typed RMA gets it there (and MPI_Send / MPI_Recv do).
 *
 * Build: oshcc -O2 -o mpix_bench bench/mpix_bench.c bench/mpix_rows.c (make builds it too).
 * Run:   oshrun -np 2 ./mpix_bench [--part coll|vector|all] [--rounds N] [--batch-time S]
 */
#include <shmemx.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpix_rows.h"

static shmemx_datatype_t vector_type; /* MB_VEC_COUNT blocks of 1 double, MB_VEC_STRIDE apart */
static shmemx_op_t user_sum;          /* commutative */
static size_t *counts, *displs;       /* regular v-collective layout: n elements at i * n */
static void *private_src, *private_dst; /* allreduce_sum_1MiB_private's, malloc'd */
static long *bcast_cell;

/* Every call this program times; a variant names one (struct mb_variant.call). */
enum call {
    SHMEMX_ALLREDUCE_SUM,    /* shmemx_allreduce, SHMEMX_SUM on doubles */
    SHMEMX_ALLREDUCE_PRIVATE, /* the same on malloc'd buffers (private_src, private_dst) */
    NATIVE_SUM_REDUCE_COPIES, /* those buffers through symmetric ones: copy, reduce, copy */
    SHMEMX_ALLREDUCE_MAXLOC, /* shmemx_allreduce, SHMEMX_MAXLOC on SHMEMX_DOUBLE_INT */
    SHMEMX_REDUCE_USER,      /* shmemx_reduce to PE 0, the user operator */
    SHMEMX_REDUCE_SUM,       /* shmemx_reduce to PE 0, SHMEMX_SUM */
    NATIVE_SUM_REDUCE,       /* shmem_double_sum_reduce */
    SHMEMX_ALLGATHERV,
    NATIVE_FCOLLECTMEM,
    SHMEMX_ALLTOALLV,
    NATIVE_ALLTOALLMEM,
    SHMEMX_GATHERV,
    SHMEMX_SCATTERV,
    PUT_TYPE,    /* shmemx_put_type of the vector type + quiet */
    IPUT,        /* shmem_double_iput + quiet */
    PACK_PUTMEM, /* pack by hand + shmem_putmem + quiet */
    PACK_UNPACK, /* pack by hand, put with signal, PE 1 unpacks and acknowledges */
    GET_TYPE,    /* shmemx_get_type of the vector type */
    IGET,        /* shmem_double_iget */
    GETMEM_UNPACK,             /* shmem_getmem + unpack by hand */
};

/* The variants of each row; the order is the order of the printed lines. */
static const struct mb_variant allreduce_sum[] = {
    {"shmemx", MB_RES_ALLSUM, SHMEMX_ALLREDUCE_SUM}, {"native", MB_RES_ALLSUM, NATIVE_SUM_REDUCE}};
static const struct mb_variant allreduce_private[] = {
    {"shmemx", MB_RES_ALLSUM, SHMEMX_ALLREDUCE_PRIVATE},
    {"native", MB_RES_ALLSUM, NATIVE_SUM_REDUCE_COPIES}};
static const struct mb_variant allreduce_maxloc[] = {
    {"shmemx", MB_RES_MAXLOC, SHMEMX_ALLREDUCE_MAXLOC},
    {"sum", MB_RES_ALLSUM, SHMEMX_ALLREDUCE_SUM},
    {"native", MB_RES_ALLSUM, NATIVE_SUM_REDUCE}};
static const struct mb_variant reduce_userop[] = {{"shmemx", MB_RES_ROOTSUM, SHMEMX_REDUCE_USER},
                                                  {"sum", MB_RES_ROOTSUM, SHMEMX_REDUCE_SUM},
                                                  {"native", MB_RES_ALLSUM, NATIVE_SUM_REDUCE}};
static const struct mb_variant allgatherv[] = {{"shmemx", MB_RES_ALLGATHER, SHMEMX_ALLGATHERV},
                                               {"native", MB_RES_ALLGATHER, NATIVE_FCOLLECTMEM}};
static const struct mb_variant alltoallv[] = {{"shmemx", MB_RES_ALLTOALL, SHMEMX_ALLTOALLV},
                                              {"native", MB_RES_ALLTOALL, NATIVE_ALLTOALLMEM}};
static const struct mb_variant gatherv[] = {{"shmemx", MB_RES_GATHER, SHMEMX_GATHERV}};
static const struct mb_variant scatterv[] = {{"shmemx", MB_RES_SCATTER, SHMEMX_SCATTERV}};
static const struct mb_variant vector_put[] = {{"shmemx", MB_RES_PUT_STRIDED, PUT_TYPE},
                                               {"iput", MB_RES_PUT_STRIDED, IPUT},
                                               {"pack", MB_RES_PUT_PACKED, PACK_PUTMEM},
                                               {"pack_unpack", MB_RES_PUT_STRIDED, PACK_UNPACK}};
static const struct mb_variant vector_get[] = {{"shmemx", MB_RES_GET_STRIDED, GET_TYPE},
                                               {"iget", MB_RES_GET_STRIDED, IGET},
                                               {"pack", MB_RES_GET_STRIDED, GETMEM_UNPACK}};

#define VARIANTS(a) (*variants = (a), (int)(sizeof(a) / sizeof((a)[0])))

int mb_variants(enum mb_kind kind, const struct mb_variant **variants)
{
    switch (kind) {
    case MB_ALLREDUCE_SUM: return VARIANTS(allreduce_sum);
    case MB_ALLREDUCE_SUM_PRIVATE: return VARIANTS(allreduce_private);
    case MB_ALLREDUCE_MAXLOC: return VARIANTS(allreduce_maxloc);
    case MB_REDUCE_USEROP: return VARIANTS(reduce_userop);
    case MB_ALLGATHERV: return VARIANTS(allgatherv);
    case MB_ALLTOALLV: return VARIANTS(alltoallv);
    case MB_GATHERV: return VARIANTS(gatherv);
    case MB_SCATTERV: return VARIANTS(scatterv);
    case MB_VECTOR_PUT: return VARIANTS(vector_put);
    case MB_VECTOR_GET: return VARIANTS(vector_get);
    }
    return 0;
}

/* A shmemx call that fails has printed why; the benchmark cannot go on. */
static void ok(int rc)
{
    if (rc != SHMEMX_SUCCESS) {
        fprintf(stderr, "mpix_bench: PE %d: a shmemx call failed: %s\n", mb_me,
                shmemx_error_string(rc));
        shmem_global_exit(1);
    }
}

static void user_sum_fn(void *in, void *inout, int *len, shmemx_datatype_t *type)
{
    (void)type;
    mb_user_sum(in, inout, *len);
}

/* One call of a collective on `bytes` per PE (per PE pair for alltoallv). */
static void coll_call(enum call call, size_t bytes)
{
    shmem_team_t world = SHMEM_TEAM_WORLD;
    size_t n = bytes / sizeof(double);
    void *dst = mb_dst, *src = mb_src;
    switch (call) {
    case SHMEMX_ALLREDUCE_SUM:
        ok(shmemx_allreduce(world, dst, src, n, SHMEMX_DOUBLE, SHMEMX_SUM));
        break;
    case SHMEMX_ALLREDUCE_MAXLOC:
        ok(shmemx_allreduce(world, dst, src, bytes / sizeof(shmemx_double_int_t),
                            SHMEMX_DOUBLE_INT, SHMEMX_MAXLOC));
        break;
    case SHMEMX_REDUCE_USER:
        ok(shmemx_reduce(world, dst, src, n, SHMEMX_DOUBLE, user_sum, 0));
        break;
    case SHMEMX_REDUCE_SUM:
        ok(shmemx_reduce(world, dst, src, n, SHMEMX_DOUBLE, SHMEMX_SUM, 0));
        break;
    case NATIVE_SUM_REDUCE: shmem_double_sum_reduce(world, dst, src, n); break;
    case SHMEMX_ALLGATHERV:
        ok(shmemx_allgatherv(world, dst, src, n, counts, displs, SHMEMX_DOUBLE));
        break;
    case NATIVE_FCOLLECTMEM: shmem_fcollectmem(world, dst, src, bytes); break;
    case SHMEMX_ALLTOALLV:
        ok(shmemx_alltoallv(world, dst, counts, displs, src, counts, displs, SHMEMX_DOUBLE));
        break;
    case NATIVE_ALLTOALLMEM: shmem_alltoallmem(world, dst, src, bytes); break;
    case SHMEMX_GATHERV:
        ok(shmemx_gatherv(world, dst, src, n, counts, displs, SHMEMX_DOUBLE, 0));
        break;
    case SHMEMX_SCATTERV:
        ok(shmemx_scatterv(world, dst, src, counts, displs, n, SHMEMX_DOUBLE, 0));
        break;
    default: break;
    }
}

/* pack_unpack: two buffers of MB_VEC_COUNT doubles at PE 1, the number of the last call
 * delivered there (its signal) and unpacked (PE 0's acknowledgement), and the calls so far
 * (counted alike on both PEs: every PE runs every batch). */
static double *unpack_bufs;
static uint64_t *unpack_delivered, *unpack_done;
static uint64_t unpack_calls;

static double *unpack_buf(uint64_t call) { return unpack_bufs + (call % 2) * MB_VEC_COUNT; }

static void pack_unpack(long calls)
{
    const size_t bytes = MB_VEC_COUNT * sizeof(double);
    const uint64_t first = unpack_calls + 1, last = unpack_calls + (uint64_t)calls;
    unpack_calls = last;
    for (uint64_t c = first; c <= last; c++) {
        if (mb_me == 0) { /* the buffer of call c held call c - 2: wait until it is unpacked */
            if (c > 2)
                shmem_uint64_wait_until(unpack_done, SHMEM_CMP_GE, c - 2);
            mb_pack_vector(mb_tmp, mb_src);
            shmem_putmem_signal(unpack_buf(c), mb_tmp, bytes, unpack_delivered, c,
                                SHMEM_SIGNAL_SET, 1);
        } else if (mb_me == 1) {
            shmem_uint64_wait_until(unpack_delivered, SHMEM_CMP_GE, c);
            mb_unpack_vector(mb_dst, unpack_buf(c));
            shmem_uint64_atomic_set(unpack_done, c, 0);
        }
    }
    if (mb_me == 0) /* like put + quiet: done when the last vector is in place at PE 1 */
        shmem_uint64_wait_until(unpack_done, SHMEM_CMP_GE, last);
}

/* One move of the vector between PE 0 (the caller) and PE 1. */
static void vector_call(enum call call)
{
    double *dst = mb_dst, *src = mb_src;
    const size_t bytes = MB_VEC_COUNT * sizeof(double);
    switch (call) {
    case PUT_TYPE: ok(shmemx_put_type(dst, src, 1, vector_type, 1)); break;
    case IPUT:
        shmem_double_iput(dst, src, MB_VEC_STRIDE, MB_VEC_STRIDE, MB_VEC_COUNT, 1);
        break;
    case PACK_PUTMEM:
        mb_pack_vector(mb_tmp, src);
        shmem_putmem(mb_packed, mb_tmp, bytes, 1);
        break;
    case GET_TYPE: ok(shmemx_get_type(dst, src, 1, vector_type, 1)); break;
    case IGET:
        shmem_double_iget(dst, src, MB_VEC_STRIDE, MB_VEC_STRIDE, MB_VEC_COUNT, 1);
        break;
    case GETMEM_UNPACK:
        shmem_getmem(mb_tmp, mb_packed, bytes, 1);
        mb_unpack_vector(dst, mb_tmp);
        break;
    default: break;
    }
    if (call == PUT_TYPE || call == IPUT || call == PACK_PUTMEM)
        shmem_quiet(); /* a put counts once its data is at PE 1 */
}

/* An allreduce of buffers of this PE's own, as an MPI code passes them: shmemx_allreduce
 * takes them as they are; the native routine takes symmetric buffers only, so a program on the
 * native API copies its data into them and the result out. The driver lays the data out in
 * mb_src and checks mb_dst, so a batch starts and ends with a copy (1 MiB each way, about 1%
 * of a batch); the native form's copies use them as its symmetric buffers. */
static void private_allreduce(enum call call, size_t bytes, long calls)
{
    const size_t n = bytes / sizeof(double);
    memcpy(private_src, mb_src, bytes);
    for (long c = 0; c < calls; c++) {
        if (call == SHMEMX_ALLREDUCE_PRIVATE) {
            ok(shmemx_allreduce(SHMEM_TEAM_WORLD, private_dst, private_src, n, SHMEMX_DOUBLE,
                                SHMEMX_SUM));
            continue;
        }
        memcpy(mb_src, private_src, bytes);
        shmem_double_sum_reduce(SHMEM_TEAM_WORLD, mb_dst, mb_src, n);
        memcpy(private_dst, mb_dst, bytes);
    }
    memcpy(mb_dst, private_dst, bytes);
}

void mb_run(const struct mb_row *row, const struct mb_variant *v, long calls)
{
    if (v->call == SHMEMX_ALLREDUCE_PRIVATE || v->call == NATIVE_SUM_REDUCE_COPIES) {
        private_allreduce((enum call)v->call, row->bytes, calls);
        return;
    }
    if (v->call == PACK_UNPACK) { /* PE 1 takes part */
        pack_unpack(calls);
        return;
    }
    if (row->kind == MB_VECTOR_PUT || row->kind == MB_VECTOR_GET) {
        /* PE 0 moves the vector to or from PE 1; the other PEs have nothing to do. */
        for (long c = 0; mb_me == 0 && c < calls; c++)
            vector_call((enum call)v->call);
        return;
    }
    size_t n = row->bytes / sizeof(double); /* regular layout: n doubles at i * n */
    for (int i = 0; i < mb_npes; i++) {
        counts[i] = n;
        displs[i] = (size_t)i * n;
    }
    for (long c = 0; c < calls; c++)
        coll_call((enum call)v->call, row->bytes);
}

void mb_barrier(void)
{
    shmem_barrier_all();
}

long mb_bcast_long(long value)
{
    if (mb_me == 0)
        *bcast_cell = value;
    shmem_barrier_all();
    long v = mb_me == 0 ? value : shmem_long_g(bcast_cell, 0);
    shmem_barrier_all(); /* PE 0 may overwrite the cell only after everybody read it */
    return v;
}

static void *alloc_symmetric(size_t bytes)
{
    void *p = shmem_malloc(bytes);
    if (p == NULL) {
        fprintf(stderr, "mpix_bench: PE %d: shmem_malloc(%zu) failed; raise "
                "SHMEM_SYMMETRIC_SIZE (e.g. SHMEM_SYMMETRIC_SIZE=256M)\n", mb_me, bytes);
        shmem_global_exit(1);
    }
    return p;
}

int main(int argc, char **argv)
{
    shmem_init();
    mb_me = shmem_my_pe();
    mb_npes = shmem_n_pes();
    mb_program = "mpix_bench";

    static char library[SHMEM_MAX_NAME_LEN + 128];
    char name[SHMEM_MAX_NAME_LEN + 1] = "";
    const char *local = getenv("SSHMEM_LOCAL"), *tls = getenv("UCX_TLS");
    shmem_info_get_name(name);
    snprintf(library, sizeof library, "%s, shmemx.h; SSHMEM_LOCAL=%s UCX_TLS=%s", name,
             local ? local : "(unset: direct path on a host)", tls ? tls : "(unset)");
    mb_library = library;

    size_t bytes = mb_buffer_bytes(mb_npes);
    mb_src = alloc_symmetric(bytes);
    mb_dst = alloc_symmetric(bytes);
    mb_packed = alloc_symmetric(MB_VEC_COUNT * sizeof(double));
    bcast_cell = alloc_symmetric(sizeof(long));
    /* The local pack buffer is symmetric too, so hand packing pays no registration of
     * private memory on the UCX paths (as in the other benchmarks). */
    mb_tmp = alloc_symmetric(MB_VEC_COUNT * sizeof(double));
    unpack_bufs = alloc_symmetric(2 * MB_VEC_COUNT * sizeof(double));
    unpack_delivered = alloc_symmetric(2 * sizeof(uint64_t));
    unpack_done = unpack_delivered + 1;
    *unpack_delivered = *unpack_done = 0;
    counts = malloc((size_t)mb_npes * sizeof *counts);
    displs = malloc((size_t)mb_npes * sizeof *displs);
    private_src = malloc(MB_MIB);
    private_dst = malloc(MB_MIB);
    if (counts == NULL || displs == NULL || private_src == NULL || private_dst == NULL) {
        fprintf(stderr, "mpix_bench: PE %d: out of memory\n", mb_me);
        shmem_global_exit(1);
    }
    ok(shmemx_type_vector(MB_VEC_COUNT, 1, MB_VEC_STRIDE, SHMEMX_DOUBLE, &vector_type));
    ok(shmemx_type_commit(&vector_type));
    ok(shmemx_op_create(user_sum_fn, 1, &user_sum));

    int rc = mb_main(argc, argv);

    shmem_barrier_all();
    shmemx_op_free(&user_sum);
    shmemx_type_free(&vector_type);
    free(private_dst);
    free(private_src);
    free(displs);
    free(counts);
    shmem_free(unpack_delivered);
    shmem_free(unpack_bufs);
    shmem_free(mb_tmp);
    shmem_free(bcast_cell);
    shmem_free(mb_packed);
    shmem_free(mb_dst);
    shmem_free(mb_src);
    shmem_finalize();
    return rc;
}
