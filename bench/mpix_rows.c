/*
 * mpix_rows.c: the rows, data, checks and timing loop of the MPI-style layer's benchmark,
 * shared by mpix_bench.c (sshmem) and mpix_mpi.c (MPI). See mpix_rows.h.
 *
 * No library is called here: everything collective goes through the backend's hooks.
 */
#define _POSIX_C_SOURCE 200809L
#include "mpix_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int mb_me = -1, mb_npes = 0;
const char *mb_program = "?";
const char *mb_library = "?";
void *mb_src, *mb_dst;
double *mb_packed, *mb_tmp;

static const struct mb_row rows[] = {
    {"allreduce_sum_8B", MB_ALLREDUCE_SUM, 8},
    {"allreduce_sum_1MiB", MB_ALLREDUCE_SUM, MB_MIB},
    {"allreduce_sum_1MiB_private", MB_ALLREDUCE_SUM_PRIVATE, MB_MIB},
    /* One (double, int) pair is 16 bytes with its padding: the smallest MAXLOC row. */
    {"allreduce_maxloc_16B", MB_ALLREDUCE_MAXLOC, 16},
    {"allreduce_maxloc_1MiB", MB_ALLREDUCE_MAXLOC, MB_MIB},
    {"reduce_userop_8B", MB_REDUCE_USEROP, 8},
    {"reduce_userop_1MiB", MB_REDUCE_USEROP, MB_MIB},
    {"allgatherv_8B", MB_ALLGATHERV, 8},
    /* Around the exchange's slot (blocks beyond it go by invitation) and up to streaming. */
    {"allgatherv_4KiB", MB_ALLGATHERV, 4 << 10},
    {"allgatherv_16KiB", MB_ALLGATHERV, 16 << 10},
    {"allgatherv_64KiB", MB_ALLGATHERV, 64 << 10},
    {"allgatherv_1MiB", MB_ALLGATHERV, MB_MIB},
    {"alltoallv_8B", MB_ALLTOALLV, 8},
    {"alltoallv_16KiB", MB_ALLTOALLV, 16 << 10},
    {"alltoallv_1MiB", MB_ALLTOALLV, MB_MIB},
    {"gatherv_8B", MB_GATHERV, 8},
    {"gatherv_1MiB", MB_GATHERV, MB_MIB},
    {"scatterv_8B", MB_SCATTERV, 8},
    {"scatterv_1MiB", MB_SCATTERV, MB_MIB},
    {"vector_put", MB_VECTOR_PUT, MB_VEC_COUNT * sizeof(double)},
    {"vector_get", MB_VECTOR_GET, MB_VEC_COUNT * sizeof(double)},
};
#define NROWS (sizeof rows / sizeof rows[0])

/* The layout of SHMEMX_DOUBLE_INT and MPI_DOUBLE_INT: the C struct, padded to 16 bytes. */
struct mb_pair {
    double value;
    int index;
};

/* ------------------------------------------------------------------ options */

static struct {
    int coll, vector; /* which parts run */
    const char *only; /* comma-separated row labels, or NULL for all */
    int rounds;
    double batch_time;
} opt = {1, 1, NULL, 9, 0.01};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [--part coll|vector|all] [--rows LIST] [--rounds N] [--batch-time SEC]\n"
            "  --part P        collectives, the vector case, or both (default all)\n"
            "  --rows LIST     only these rows (comma-separated labels, e.g. "
            "allreduce_sum_8B,vector_put)\n"
            "  --rounds N      timed rounds per row; the value printed is their median "
            "(default 9)\n"
            "  --batch-time S  each timed batch lasts about S seconds (default 0.01)\n"
            "Collectives run on 1 or more PEs, the vector rows need 2 (PE 0 and PE 1).\n",
            mb_program);
}

/* 0: fine, 1: --help, 2: a bad option (message printed by PE 0). */
static int parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            if (mb_me == 0)
                usage(stdout);
            return 1;
        }
        if (val == NULL) {
            bad = 1;
        } else if (!strcmp(a, "--part")) {
            opt.coll = !strcmp(val, "coll") || !strcmp(val, "all");
            opt.vector = !strcmp(val, "vector") || !strcmp(val, "all");
            bad = !opt.coll && !opt.vector;
        } else if (!strcmp(a, "--rows")) {
            opt.only = val;
        } else if (!strcmp(a, "--rounds")) {
            opt.rounds = atoi(val);
            bad = opt.rounds < 1 || opt.rounds > 1000;
        } else if (!strcmp(a, "--batch-time")) {
            opt.batch_time = strtod(val, NULL);
            bad = !(opt.batch_time > 0.0);
        } else {
            bad = 1;
        }
        if (bad) {
            if (mb_me == 0) {
                fprintf(stderr, "%s: bad option or value: %s%s%s\n", mb_program, a,
                        val ? " " : "", val ? val : "");
                usage(stderr);
            }
            return 2;
        }
        i++;
    }
    return 0;
}

static int is_vector(const struct mb_row *row)
{
    return row->kind == MB_VECTOR_PUT || row->kind == MB_VECTOR_GET;
}

/* Whether --part and --rows select this row. */
static int selected(const struct mb_row *row)
{
    if (!(is_vector(row) ? opt.vector : opt.coll))
        return 0;
    if (opt.only == NULL)
        return 1;
    size_t len = strlen(row->label);
    for (const char *p = opt.only; *p;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && !strncmp(p, row->label, n))
            return 1;
        p += n + (end != NULL);
    }
    return 0;
}

/* ------------------------------------------------------------------ data and checks */

size_t mb_buffer_bytes(int npes)
{
    size_t coll = (size_t)npes * MB_MIB, vec = MB_VEC_SPAN * sizeof(double);
    return coll > vec ? coll : vec;
}

/* Element i of PE pe's source doubles: exact in a double, and so are sums over PEs. */
static double val(int pe, size_t i)
{
    return (double)(pe + 1) * 1e7 + (double)i;
}

/* MAXLOC's input: values repeat across PEs, so the lowest index must win ties. */
static double pair_val(int pe, size_t i)
{
    return (double)((i + 3 * (size_t)pe) % (size_t)(mb_npes + 1));
}

void mb_user_sum(const double *in, double *inout, int n)
{
    for (int i = 0; i < n; i++)
        inout[i] += in[i];
}

void mb_pack_vector(double *packed, const double *strided)
{
    for (size_t i = 0; i < MB_VEC_COUNT; i++)
        packed[i] = strided[i * MB_VEC_STRIDE];
}

void mb_unpack_vector(double *strided, const double *packed)
{
    for (size_t i = 0; i < MB_VEC_COUNT; i++)
        strided[i * MB_VEC_STRIDE] = packed[i];
}

/* Every PE: sources hold the pattern, destinations -1, before a checked call. */
static void prepare(const struct mb_variant *v)
{
    size_t nbytes = mb_buffer_bytes(mb_npes);
    double *src = mb_src, *dst = mb_dst;
    if (v->result == MB_RES_MAXLOC) {
        struct mb_pair *p = mb_src;
        for (size_t i = 0; i < nbytes / sizeof *p; i++) {
            p[i].value = pair_val(mb_me, i);
            p[i].index = mb_me;
        }
    } else {
        for (size_t i = 0; i < nbytes / sizeof(double); i++)
            src[i] = val(mb_me, i);
    }
    for (size_t i = 0; i < nbytes / sizeof(double); i++)
        dst[i] = -1.0;
    for (size_t i = 0; i < MB_VEC_COUNT; i++)
        mb_packed[i] = val(mb_me, i * MB_VEC_STRIDE); /* what getmem + unpack reads */
}

/* Wrong elements in this PE's result. */
static size_t verify(const struct mb_row *row, const struct mb_variant *v)
{
    size_t n = row->bytes / sizeof(double), np = (size_t)mb_npes, bad = 0;
    const double *dst = mb_dst;
    switch (v->result) {
    case MB_RES_ROOTSUM:
        if (mb_me != 0)
            break;
        /* fall through */
    case MB_RES_ALLSUM:
        for (size_t i = 0; i < n; i++) {
            double want = 0;
            for (int pe = 0; pe < mb_npes; pe++)
                want += val(pe, i);
            bad += dst[i] != want;
        }
        break;
    case MB_RES_MAXLOC: {
        const struct mb_pair *d = mb_dst;
        for (size_t i = 0; i < row->bytes / sizeof *d; i++) {
            int best = 0;
            for (int pe = 1; pe < mb_npes; pe++)
                if (pair_val(pe, i) > pair_val(best, i))
                    best = pe;
            bad += d[i].value != pair_val(best, i) || d[i].index != best;
        }
        break;
    }
    case MB_RES_GATHER:
        if (mb_me != 0)
            break;
        /* fall through */
    case MB_RES_ALLGATHER:
        for (size_t pe = 0; pe < np; pe++)
            for (size_t i = 0; i < n; i++)
                bad += dst[pe * n + i] != val((int)pe, i);
        break;
    case MB_RES_ALLTOALL:
        for (size_t pe = 0; pe < np; pe++)
            for (size_t i = 0; i < n; i++)
                bad += dst[pe * n + i] != val((int)pe, (size_t)mb_me * n + i);
        break;
    case MB_RES_SCATTER:
        for (size_t i = 0; i < n; i++)
            bad += dst[i] != val(0, (size_t)mb_me * n + i);
        break;
    case MB_RES_PUT_STRIDED:
    case MB_RES_GET_STRIDED: {
        int target = v->result == MB_RES_PUT_STRIDED ? 1 : 0;
        if (mb_me != target)
            break;
        for (size_t i = 0; i < MB_VEC_SPAN; i++) {
            double want = i % MB_VEC_STRIDE ? -1.0 : val(1 - target, i);
            bad += dst[i] != want;
        }
        break;
    }
    case MB_RES_PUT_PACKED:
        if (mb_me != 1)
            break;
        for (size_t i = 0; i < MB_VEC_COUNT; i++)
            bad += mb_packed[i] != val(0, i * MB_VEC_STRIDE);
        break;
    }
    return bad;
}

/* Run the variant once on fresh data and check the result on every PE. Returns 1 if wrong. */
static int check(const struct mb_row *row, const struct mb_variant *v)
{
    prepare(v);
    mb_barrier();
    mb_run(row, v, 1);
    mb_barrier();
    size_t bad = verify(row, v);
    if (bad)
        fprintf(stderr, "%s: PE %d: data check failed: %s, variant %s: %zu wrong elements\n",
                mb_program, mb_me, row->label, v->name, bad);
    mb_barrier(); /* nobody writes into dst again before everybody has checked */
    return bad != 0;
}

/* ------------------------------------------------------------------ timing */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds for n calls of variant v, on this PE's clock, all PEs starting together. */
static double timed_batch(const struct mb_row *row, const struct mb_variant *v, long n)
{
    mb_barrier();
    double t0 = now();
    mb_run(row, v, n);
    return now() - t0;
}

/*
 * Calls per batch so that a batch lasts about --batch-time on PE 0: grow from 1 call, at most
 * 16x per step, PE 0 deciding for everybody. The growing batches are the warm-up too
 * (connections, registration caches, page faults).
 */
static long calibrate(const struct mb_row *row, const struct mb_variant *v)
{
    const long max_calls = 1L << 24;
    long n = 1;
    for (;;) {
        double t = timed_batch(row, v, n);
        long next = 0;
        if (mb_me == 0 && t < opt.batch_time && n < max_calls) {
            double grow = t > 0 ? opt.batch_time / t * 1.2 : 16.0;
            grow = grow < 2.0 ? 2.0 : grow > 16.0 ? 16.0 : grow;
            next = (long)((double)n * grow);
        }
        next = mb_bcast_long(next);
        if (next == 0)
            return n;
        n = next;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Time every variant of one row and print a line for each. */
static void measure_row(const struct mb_row *row, const struct mb_variant *vs, int nv)
{
    long calls[nv];
    double value[nv][opt.rounds];
    for (int v = 0; v < nv; v++)
        calls[v] = calibrate(row, &vs[v]);
    for (int r = 0; r < opt.rounds; r++) {
        for (int k = 0; k < nv; k++) {
            int v = r % 2 ? nv - 1 - k : k; /* alternate the order: no variant always first */
            double t = timed_batch(row, &vs[v], calls[v]);
            value[v][r] = is_vector(row) ? (double)row->bytes * (double)calls[v] / t / 1e6
                                         : t / (double)calls[v] * 1e6;
        }
    }
    if (mb_me != 0)
        return;
    for (int v = 0; v < nv; v++)
        printf("%-24s %-8s %12.3f  %s\n", row->label, vs[v].name, median(value[v], opt.rounds),
               is_vector(row) ? "MB_per_s" : "latency_us");
    fflush(stdout);
}

int mb_main(int argc, char **argv)
{
    int rc = parse_args(argc, argv);
    if (rc != 0)
        return rc == 1 ? 0 : rc;
    if (mb_me == 0) {
        printf("# sshmem-bench %s\n", mb_program);
        printf("# library: %s  npes: %d\n", mb_library, mb_npes);
        printf("# rounds: %d  batch-time: %.3fs; value: median over the rounds of one batch, "
               "PE 0's clock; the variants of a row alternate\n",
               opt.rounds, opt.batch_time);
        printf("# collectives: microseconds per call, all PEs, root 0; size per PE (alltoallv: "
               "per PE pair); vector_*: %d doubles %d apart, PE 0 <-> PE 1, MB/s of useful data\n",
               MB_VEC_COUNT, MB_VEC_STRIDE);
        printf("# %-22s %-8s %12s  %s\n", "row", "variant", "value", "unit");
        fflush(stdout);
    }
    int failed = 0;
    for (size_t r = 0; r < NROWS; r++) {
        const struct mb_row *row = &rows[r];
        const struct mb_variant *vs;
        int nv = mb_variants(row->kind, &vs);
        if (!selected(row) || nv == 0 || (is_vector(row) && mb_npes < 2))
            continue;
        for (int v = 0; v < nv; v++)
            failed |= check(row, &vs[v]);
        measure_row(row, vs, nv);
    }
    return failed;
}
