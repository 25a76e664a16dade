/*
 * mpix_mpi: the rows of mpix_bench measured with MPI, so bench/mpix_compare.sh can put an MPI
 * library's figures (Open MPI's, from Debian's libopenmpi-dev) beside the MPI-style layer's.
 * Same rows, data, checks, timing and output as mpix_bench (all in mpix_rows.c); only the
 * calls differ. Every row has one variant, "mpi":
 *
 *   allreduce_sum_*      MPI_Allreduce, MPI_SUM on MPI_DOUBLE
 *   allreduce_maxloc_*   MPI_Allreduce, MPI_MAXLOC on MPI_DOUBLE_INT
 *   reduce_userop_*      MPI_Reduce to rank 0, a commutative MPI_Op_create operator (a sum)
 *   allgatherv_*, alltoallv_*, gatherv_*, scatterv_*   MPI_Allgatherv, ... regular counts
 *   vector_put           mpi      MPI_Send of the vector type, MPI_Recv of the same type;
 *                                 a batch of sends ends with a 0-byte reply, so the time
 *                                 covers delivery (as a put's quiet does)
 *                        mpi_put  MPI_Put of the vector type + MPI_Win_flush (passive target)
 *   vector_get           mpi      MPI_Get of the vector type + MPI_Win_flush
 *
 * Build: mpicc -O2 -o mpix_mpi bench/mpix_mpi.c bench/mpix_rows.c
 * Run:   mpirun --allow-run-as-root --oversubscribe -np 2 ./mpix_mpi [mpix_bench's options]
 * Not built by make (MPI is optional): bench/mpix_compare.sh builds it when mpicc exists.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#include "mpix_rows.h"

static MPI_Datatype vector_type;
static MPI_Op user_sum;
static MPI_Win src_win, dst_win; /* mb_src and mb_dst, open for one-sided access */
static int *counts, *displs;     /* regular layout: n elements at i * n */

/* Every call this program times; a variant names one (struct mb_variant.call). */
enum call {
    ALLREDUCE_SUM,
    ALLREDUCE_MAXLOC,
    REDUCE_USER,
    ALLGATHERV,
    ALLTOALLV,
    GATHERV,
    SCATTERV,
    SEND_RECV, /* MPI_Send / MPI_Recv of the vector type, a reply ending each batch */
    PUT,       /* MPI_Put of the vector type + MPI_Win_flush */
    GET,       /* MPI_Get of the vector type + MPI_Win_flush */
};

static const struct mb_variant allreduce_sum[] = {{"mpi", MB_RES_ALLSUM, ALLREDUCE_SUM}};
static const struct mb_variant allreduce_maxloc[] = {{"mpi", MB_RES_MAXLOC, ALLREDUCE_MAXLOC}};
static const struct mb_variant reduce_userop[] = {{"mpi", MB_RES_ROOTSUM, REDUCE_USER}};
static const struct mb_variant allgatherv[] = {{"mpi", MB_RES_ALLGATHER, ALLGATHERV}};
static const struct mb_variant alltoallv[] = {{"mpi", MB_RES_ALLTOALL, ALLTOALLV}};
static const struct mb_variant gatherv[] = {{"mpi", MB_RES_GATHER, GATHERV}};
static const struct mb_variant scatterv[] = {{"mpi", MB_RES_SCATTER, SCATTERV}};
static const struct mb_variant vector_put[] = {{"mpi", MB_RES_PUT_STRIDED, SEND_RECV},
                                               {"mpi_put", MB_RES_PUT_STRIDED, PUT}};
static const struct mb_variant vector_get[] = {{"mpi", MB_RES_GET_STRIDED, GET}};

#define VARIANTS(a) (*variants = (a), (int)(sizeof(a) / sizeof((a)[0])))

int mb_variants(enum mb_kind kind, const struct mb_variant **variants)
{
    switch (kind) {
    case MB_ALLREDUCE_SUM: /* MPI's buffers are its own either way */
    case MB_ALLREDUCE_SUM_PRIVATE: return VARIANTS(allreduce_sum);
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

static void user_sum_fn(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    mb_user_sum(in, inout, *len);
}

/* One call of a collective on `bytes` per rank (per rank pair for alltoallv). */
static void coll_call(enum call call, size_t bytes)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    int n = (int)(bytes / sizeof(double));
    void *dst = mb_dst, *src = mb_src;
    switch (call) {
    case ALLREDUCE_SUM: MPI_Allreduce(src, dst, n, MPI_DOUBLE, MPI_SUM, comm); break;
    case ALLREDUCE_MAXLOC:
        MPI_Allreduce(src, dst, (int)(bytes / 16), MPI_DOUBLE_INT, MPI_MAXLOC, comm);
        break;
    case REDUCE_USER: MPI_Reduce(src, dst, n, MPI_DOUBLE, user_sum, 0, comm); break;
    case ALLGATHERV:
        MPI_Allgatherv(src, n, MPI_DOUBLE, dst, counts, displs, MPI_DOUBLE, comm);
        break;
    case ALLTOALLV:
        MPI_Alltoallv(src, counts, displs, MPI_DOUBLE, dst, counts, displs, MPI_DOUBLE, comm);
        break;
    case GATHERV:
        MPI_Gatherv(src, n, MPI_DOUBLE, dst, counts, displs, MPI_DOUBLE, 0, comm);
        break;
    case SCATTERV:
        MPI_Scatterv(src, counts, displs, MPI_DOUBLE, dst, n, MPI_DOUBLE, 0, comm);
        break;
    default: break;
    }
}

/* A stream of sends from rank 0 to rank 1, then a 0-byte reply: the time covers delivery. */
static void send_recv(long calls)
{
    if (mb_me == 0) {
        for (long c = 0; c < calls; c++)
            MPI_Send(mb_src, 1, vector_type, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (mb_me == 1) {
        for (long c = 0; c < calls; c++)
            MPI_Recv(mb_dst, 1, vector_type, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    }
}

/* Rank 0 alone moves the vector to or from rank 1 (passive target, no call on rank 1). */
static void one_sided(enum call call, long calls)
{
    for (long c = 0; mb_me == 0 && c < calls; c++) {
        if (call == PUT) {
            MPI_Put(mb_src, 1, vector_type, 1, 0, 1, vector_type, dst_win);
            MPI_Win_flush(1, dst_win);
        } else {
            MPI_Get(mb_dst, 1, vector_type, 1, 0, 1, vector_type, src_win);
            MPI_Win_flush(1, src_win);
        }
    }
}

void mb_run(const struct mb_row *row, const struct mb_variant *v, long calls)
{
    enum call call = (enum call)v->call;
    switch (call) {
    case SEND_RECV: send_recv(calls); return;
    case PUT:
    case GET: one_sided(call, calls); return;
    default: break;
    }
    int n = (int)(row->bytes / sizeof(double)); /* regular layout: n doubles at i * n */
    for (int i = 0; i < mb_npes; i++) {
        counts[i] = n;
        displs[i] = i * n;
    }
    for (long c = 0; c < calls; c++)
        coll_call(call, row->bytes);
}

void mb_barrier(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

long mb_bcast_long(long value)
{
    MPI_Bcast(&value, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    return value;
}

/* Memory in a window every rank can reach with MPI_Put / MPI_Get, locked for the whole run. */
static void *window_buffer(size_t bytes, MPI_Win *win)
{
    void *base = NULL;
    MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, *win);
    return base;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mb_me);
    MPI_Comm_size(MPI_COMM_WORLD, &mb_npes);
    mb_program = "mpix_mpi";

    static char library[MPI_MAX_LIBRARY_VERSION_STRING + 32];
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(version, &len);
    for (int i = 0; version[i]; i++)
        if (version[i] == '\n' || version[i] == ',') { /* the first clause, one line */
            version[i] = '\0';
            break;
        }
    snprintf(library, sizeof library, "%s (MPI)", version);
    mb_library = library;

    size_t bytes = mb_buffer_bytes(mb_npes);
    mb_src = window_buffer(bytes, &src_win);
    mb_dst = window_buffer(bytes, &dst_win);
    mb_packed = malloc(MB_VEC_COUNT * sizeof(double));
    mb_tmp = malloc(MB_VEC_COUNT * sizeof(double));
    counts = malloc((size_t)mb_npes * sizeof *counts);
    displs = malloc((size_t)mb_npes * sizeof *displs);
    if (!mb_packed || !mb_tmp || !counts || !displs) {
        fprintf(stderr, "mpix_mpi: rank %d: out of memory\n", mb_me);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Type_vector(MB_VEC_COUNT, 1, MB_VEC_STRIDE, MPI_DOUBLE, &vector_type);
    MPI_Type_commit(&vector_type);
    MPI_Op_create(user_sum_fn, 1, &user_sum);

    int rc = mb_main(argc, argv);

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Op_free(&user_sum);
    MPI_Type_free(&vector_type);
    MPI_Win_unlock_all(dst_win);
    MPI_Win_unlock_all(src_win);
    MPI_Win_free(&dst_win);
    MPI_Win_free(&src_win);
    free(displs);
    free(counts);
    free(mb_tmp);
    free(mb_packed);
    MPI_Finalize();
    return rc;
}
