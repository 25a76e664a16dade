/*
 * mpix_rows.h: the rows of the MPI-style layer's benchmark and the timing loop that runs
 * them, shared by two programs that measure the same operations with two libraries:
 *
 *   mpix_bench.c  sshmem: the shmemx_ routines, beside the native OpenSHMEM routine moving
 *                 the same bytes (shmem_double_sum_reduce, shmem_fcollectmem, ...)
 *   mpix_mpi.c    MPI (Open MPI): MPI_Allreduce, MPI_Allgatherv, MPI_Send of a vector type, ...
 *
 * This file knows nothing of either library: a program ("backend") fills in the hooks at the
 * end (barrier, broadcast of a long, one batch of one variant) and this driver does the rest:
 * options, the data every row starts from and the check of its result, calibration, the
 * interleaved timed rounds, the median and the table. So both programs time and check in
 * exactly the same way, and bench/mpix_compare.sh can join their tables row by row.
 *
 * A row is one operation at one size (allreduce SUM of 8 bytes); a variant is one way of
 * doing it (shmemx_allreduce, shmem_double_sum_reduce, MPI_Allreduce). For every row, each
 * variant is first run once and its result checked on every PE (untimed; a wrong result
 * makes the program exit 1); then each variant is calibrated to a batch of calls lasting
 * about --batch-time; then --rounds rounds time one batch of every variant, alternating the
 * order, so a noisy machine slows all variants of a row alike. The printed value is the
 * median over the rounds, as timed on PE 0.
 *
 * Output (PE 0 only), one line per row and variant:
 *
 *     # sshmem-bench mpix_bench
 *     # ... comment lines ...
 *     # row                    variant     value  unit
 *     allreduce_sum_8B         shmemx      0.520  latency_us
 *     vector_put               shmemx    2660.0   MB_per_s
 *
 * latency_us: microseconds per call (lower is better); MB_per_s: useful bytes moved per
 * second, 1 MB = 10^6 B (higher is better).
 */
#ifndef SSHMEM_BENCH_MPIX_ROWS_H
#define SSHMEM_BENCH_MPIX_ROWS_H

#include <stddef.h>

#define MB_MIB ((size_t)1 << 20)

/* The vector case of the MPI datatype material: 1,000 doubles, 24 doubles apart. */
#define MB_VEC_COUNT 1000
#define MB_VEC_STRIDE 24
#define MB_VEC_SPAN ((size_t)((MB_VEC_COUNT - 1) * MB_VEC_STRIDE + 1)) /* doubles */

/* What one row does. The per-PE size is the row's `bytes`. */
enum mb_kind {
    MB_ALLREDUCE_SUM,    /* bytes/8 doubles, SUM, result everywhere */
    MB_ALLREDUCE_SUM_PRIVATE, /* the same on buffers of the PE's own (malloc'd), as MPI codes
                               * pass them: not symmetric in OpenSHMEM terms */
    MB_ALLREDUCE_MAXLOC, /* bytes/16 (double, int) pairs, MAXLOC, result everywhere */
    MB_REDUCE_USEROP,    /* bytes/8 doubles, a commutative user operator (a sum), to root 0 */
    MB_ALLGATHERV,       /* bytes from every PE to every PE (regular counts) */
    MB_ALLTOALLV,        /* bytes from every PE to every PE, a different block each */
    MB_GATHERV,          /* bytes from every PE to root 0 */
    MB_SCATTERV,         /* bytes from root 0 to every PE */
    MB_VECTOR_PUT,       /* the vector case, PE 0 -> PE 1 */
    MB_VECTOR_GET,       /* the vector case, PE 1 -> PE 0 (PE 0 reads) */
};

struct mb_row {
    const char *label;
    enum mb_kind kind;
    size_t bytes; /* per PE (alltoallv: per PE pair); vector rows: useful bytes moved */
};

/*
 * What a variant leaves behind, so the driver knows what to check. Data start out as
 * mb_prepare() lays them (see mpix_rows.c); "strided" is the vector layout, "packed" the
 * 1,000 doubles one after the other in the packed buffer.
 */
enum mb_result {
    MB_RES_ALLSUM,      /* dst = sum over PEs of src (doubles), on every PE */
    MB_RES_ROOTSUM,     /* the same on PE 0 only */
    MB_RES_MAXLOC,      /* dst = MAXLOC over PEs of src (pairs), on every PE */
    MB_RES_ALLGATHER,   /* dst = every PE's block in PE order, on every PE */
    MB_RES_ALLTOALL,    /* dst block j = PE j's block for this PE */
    MB_RES_GATHER,      /* MB_RES_ALLGATHER on PE 0 only */
    MB_RES_SCATTER,     /* dst = PE 0's src block for this PE */
    MB_RES_PUT_STRIDED, /* PE 1's dst = PE 0's src, strided; gaps untouched */
    MB_RES_PUT_PACKED,  /* PE 1's packed buffer = PE 0's strided src, packed */
    MB_RES_GET_STRIDED, /* PE 0's dst = PE 1's src, strided; gaps untouched */
};

struct mb_variant {
    const char *name; /* column of the table: "shmemx", "native", "sum", "iput", "mpi" ... */
    enum mb_result result;
    int call;         /* the backend's own code for the call to make; the driver ignores it */
};

/* ------------------------------------------------------------------ the backend's part */

/* Set by the backend before mb_main. */
extern int mb_me, mb_npes;
extern const char *mb_program; /* "mpix_bench" */
extern const char *mb_library; /* one line naming the library, for the header */

/*
 * Buffers, set by the backend before mb_main; remote ones must be reachable by the
 * library's one-sided calls (symmetric for OpenSHMEM, in a window for MPI):
 *   mb_src, mb_dst  mb_buffer_bytes() each
 *   mb_packed       MB_VEC_COUNT doubles, written and read remotely by the "pack by hand" rows
 *   mb_tmp          MB_VEC_COUNT doubles, scratch for packing by hand (symmetric in sshmem,
 *                   like every buffer of the benchmarks, so no registration is paid for)
 */
extern void *mb_src, *mb_dst;
extern double *mb_packed, *mb_tmp;
size_t mb_buffer_bytes(int npes);

/* The variants the backend measures for a kind, and how many (0: the row is skipped). */
int mb_variants(enum mb_kind kind, const struct mb_variant **variants);
/* Run a variant of a row n times back to back (every PE calls it with the same n). */
void mb_run(const struct mb_row *row, const struct mb_variant *v, long n);
void mb_barrier(void);
long mb_bcast_long(long value); /* PE 0's value, on every PE */

/* ------------------------------------------------------------------ the driver */

/*
 * Parse the options, run the selected rows and print the table. argv is the program's own
 * (the backend has already initialized its library). Returns the exit status: 0, 1 when a
 * result was wrong on this PE, 2 after a bad option; after --help, 0 with nothing run.
 */
int mb_main(int argc, char **argv);

/* A user operator's work: inout[i] += in[i] for n doubles (both libraries' wrappers call it). */
void mb_user_sum(const double *in, double *inout, int n);

/* Hand packing of the vector case: the reference every typed path is compared with. */
void mb_pack_vector(double *packed, const double *strided);
void mb_unpack_vector(double *strided, const double *packed);

#endif /* SSHMEM_BENCH_MPIX_ROWS_H */
