/*
 * mpix_reduce_latency: microseconds per call of the MPI-style reductions beside the native
 * routine on the same bytes, every PE taking part, symmetric buffers:
 *   native_sum        shmem_double_sum_reduce
 *   shmemx_sum        shmemx_allreduce SHMEMX_DOUBLE SHMEMX_SUM
 *   shmemx_maxloc     shmemx_allreduce SHMEMX_DOUBLE_INT SHMEMX_MAXLOC (16-byte pairs)
 *   shmemx_user_sum   shmemx_allreduce SHMEMX_DOUBLE, a commutative user operator (a sum)
 *   shmemx_reduce_user shmemx_reduce to PE 0 with that user operator
 * for 8 bytes (one pair for MAXLOC) and 1 MiB. The variants run interleaved, ROUNDS times;
 * the table gives the median of the rounds (PE 0's clock, after a barrier).
 *
 * Build and run: oshcc -O3 bench/mpix_reduce_latency.c -o mpix_reduce_latency &&
 *                oshrun -np 2 ./mpix_reduce_latency
 */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 9
#define MIB (1 << 20)

enum { NATIVE, SUM, MAXLOC, USER, REDUCE_USER, NVAR };
static const char *names[NVAR] = {"native_sum", "shmemx_sum", "shmemx_maxloc", "shmemx_user_sum",
                                  "shmemx_reduce_user"};

static double *dsrc, *ddst;
static shmemx_double_int_t *psrc, *pdst;
static shmemx_op_t user_sum;

/* The user operator, written as a user who cares writes it (restrict: the loop vectorizes). */
static void add(void *in, void *inout, int *len, shmemx_datatype_t *type)
{
    (void)type;
    const double *restrict x = in;
    double *restrict y = inout;
    for (int i = 0; i < *len; i++)
        y[i] += x[i];
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void call(int v, size_t bytes)
{
    size_t nd = bytes / sizeof(double), np = bytes < 16 ? 1 : bytes / 16;
    switch (v) {
    case NATIVE: shmem_double_sum_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, nd); break;
    case SUM: shmemx_allreduce(SHMEM_TEAM_WORLD, ddst, dsrc, nd, SHMEMX_DOUBLE, SHMEMX_SUM); break;
    case MAXLOC:
        shmemx_allreduce(SHMEM_TEAM_WORLD, pdst, psrc, np, SHMEMX_DOUBLE_INT, SHMEMX_MAXLOC);
        break;
    case USER: shmemx_allreduce(SHMEM_TEAM_WORLD, ddst, dsrc, nd, SHMEMX_DOUBLE, user_sum); break;
    default: shmemx_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, nd, SHMEMX_DOUBLE, user_sum, 0); break;
    }
}

/* Microseconds per call of variant v (PE 0's view). */
static double time_one(int v, size_t bytes)
{
    long iters = bytes <= 64 ? 2000 : 40;
    for (int i = 0; i < 3; i++)
        call(v, bytes);
    shmem_barrier_all();
    double t0 = now();
    for (long i = 0; i < iters; i++)
        call(v, bytes);
    double t = (now() - t0) / iters * 1e6;
    shmem_barrier_all();
    return t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    dsrc = shmem_malloc(MIB);
    ddst = shmem_malloc(MIB);
    psrc = shmem_malloc(MIB);
    pdst = shmem_malloc(MIB);
    for (size_t i = 0; i < MIB / sizeof(double); i++)
        dsrc[i] = me + i;
    for (size_t i = 0; i < MIB / 16; i++)
        psrc[i] = (shmemx_double_int_t){(double)((me + i) % 5), me};
    shmemx_op_create(add, 1, &user_sum);
    if (me == 0)
        printf("# sshmem-bench mpix_reduce_latency\n# npes: %d   median of %d interleaved rounds\n"
               "# row  latency_us\n", shmem_n_pes(), ROUNDS);
    size_t sizes[2] = {8, MIB};
    for (int s = 0; s < 2; s++) {
        double t[NVAR][ROUNDS];
        for (int r = 0; r < ROUNDS; r++)
            for (int v = 0; v < NVAR; v++)
                t[v][r] = time_one(v, sizes[s]);
        for (int v = 0; v < NVAR; v++) {
            qsort(t[v], ROUNDS, sizeof(double), cmp);
            if (me == 0)
                printf("%s_%s %.2f\n", names[v], s ? "1MiB" : "8B", t[v][ROUNDS / 2]);
        }
    }
    shmemx_op_free(&user_sum);
    shmem_free(dsrc);
    shmem_free(ddst);
    shmem_free(psrc);
    shmem_free(pdst);
    shmem_finalize();
    return 0;
}
