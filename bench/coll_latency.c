/*
 * coll_latency: mean time of one collective call, every PE taking part, with the
 * active-set routines of OpenSHMEM 1.4 (so the same source builds with any implementation).
 *
 * Rows (label, microseconds per call):
 *   barrier_all            shmem_barrier_all
 *   barrier_activeset      shmem_barrier over all PEs (PE_start 0, logPE_stride 0)
 *   reduce_float_sum_8B    shmem_float_sum_to_all, 2 floats
 *   reduce_float_sum_1MiB  shmem_float_sum_to_all, 262144 floats (1 MiB per PE)
 *   bcast_8B, bcast_1MiB   shmem_broadcast64, 1 and 131072 elements; the root turns (call i
 *                          from PE i mod n), so no root can race ahead of its receivers
 *   collect_1MiB           shmem_collect64, 1 MiB from each PE
 *   fcollect_1MiB          shmem_fcollect64, 1 MiB from each PE
 *   alltoall_1MiB          shmem_alltoall64, 1 MiB from each PE to each PE
 *
 * --min-size/--max-size choose rows by their size (a barrier counts as 1 byte): --max-size 8
 * keeps the small rows, --min-size 1M the 1 MiB ones; the default runs them all.
 *
 * Calls run back to back, alternating two pSync (and pWrk) arrays as the specification
 * allows, so a row is the sustained time of one call. As in barrier_latency, all PEs run the
 * same number of calls: in batches, after each of which PE 0 tells everybody (untimed)
 * whether to go on. Each row's result is checked once, untimed, on every PE.
 */
#include <shmem.h>

#include <stdio.h>
#include <string.h>

/* The active-set routines are deprecated in OpenSHMEM 1.6 headers; they are what every
 * implementation has, so this program uses them on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include "bench_util.h"

#define MIB (1 << 20)

static long psync[2][SHMEM_REDUCE_SYNC_SIZE]; /* the largest *_SYNC_SIZE */
static float pwrk_f[2][MIB / 4 / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static float *fsrc, *fdst;
static long *lsrc, *ldst, *go;

enum op { BARRIER_ALL, BARRIER_AS, REDUCE, BCAST, COLLECT, FCOLLECT, ALLTOALL };

static void run(enum op op, size_t bytes, long n)
{
    for (long i = 0; i < n; i++) {
        long *ps = psync[i & 1];
        switch (op) {
        case BARRIER_ALL: shmem_barrier_all(); break;
        case BARRIER_AS: shmem_barrier(0, 0, bench_npes, ps); break;
        case REDUCE:
            shmem_float_sum_to_all(fdst, fsrc, (int)(bytes / 4), 0, 0, bench_npes, pwrk_f[i & 1],
                                   ps);
            break;
        case BCAST:
            shmem_broadcast64(ldst, lsrc, bytes / 8, (int)(i % bench_npes), 0, 0, bench_npes, ps);
            break;
        case COLLECT: shmem_collect64(ldst, lsrc, bytes / 8, 0, 0, bench_npes, ps); break;
        case FCOLLECT: shmem_fcollect64(ldst, lsrc, bytes / 8, 0, 0, bench_npes, ps); break;
        case ALLTOALL: shmem_alltoall64(ldst, lsrc, bytes / 8, 0, 0, bench_npes, ps); break;
        }
    }
}

/* Microseconds per call: batches until PE 0 has --iters calls and --min-time, or --budget. */
static double time_op(enum op op, size_t bytes)
{
    long iters = bench_iters_for(bytes);
    long batch = iters / 16 > 0 ? iters / 16 : 1, done = 0;
    double elapsed = 0.0;
    run(op, bytes, iters / 10 > 2 ? iters / 10 : 2); /* warm-up */
    shmem_barrier_all();
    for (;;) {
        double t0 = bench_now();
        run(op, bytes, batch);
        elapsed += bench_now() - t0;
        done += batch;
        if (bench_me == 0) {
            long verdict = (done < iters || elapsed < bench_opt.min_time) &&
                           elapsed < bench_opt.budget;
            for (int pe = 0; pe < bench_npes; pe++)
                shmem_long_p(go, verdict, pe);
            shmem_quiet();
        }
        shmem_barrier_all();
        long verdict = *go;
        shmem_barrier_all();
        if (!verdict)
            break;
    }
    return elapsed / (double)done * 1e6;
}

/* Untimed: the data of one more call is right on this PE. */
static void check(enum op op, size_t bytes)
{
    size_t n = bytes / 8, np = (size_t)bench_npes, me = (size_t)bench_me;
    for (size_t i = 0; i < n * np; i++)
        lsrc[i] = (long)(me * 1000003 + i);
    for (size_t i = 0; i < bytes / 4; i++)
        fsrc[i] = (float)((me + i) % 8);
    shmem_barrier_all();
    run(op, bytes, 1);
    shmem_barrier_all();
    size_t bad = 0;
    switch (op) {
    case REDUCE:
        for (size_t i = 0; i < bytes / 4; i++) {
            float want = 0;
            for (size_t k = 0; k < np; k++)
                want += (float)((k + i) % 8);
            bad += fdst[i] != want;
        }
        break;
    case BCAST:
        for (size_t i = 0; me != 0 && i < n; i++)
            bad += ldst[i] != (long)i;
        break;
    case COLLECT:
    case FCOLLECT:
        for (size_t k = 0; k < np; k++)
            for (size_t i = 0; i < n; i++)
                bad += ldst[k * n + i] != (long)(k * 1000003 + i);
        break;
    case ALLTOALL:
        for (size_t k = 0; k < np; k++)
            for (size_t i = 0; i < n; i++)
                bad += ldst[k * n + i] != (long)(k * 1000003 + me * n + i);
        break;
    default:
        break;
    }
    if (bad)
        bench_check_failed("coll_latency: %zu wrong elements after op %d (%zu bytes)", bad,
                           (int)op, bytes);
    shmem_barrier_all(); /* nobody writes into dest again before everybody has checked */
}

/* Whether --min-size/--max-size keep a row of this size (a barrier counts as 1 byte). */
static int row_selected(size_t bytes)
{
    size_t b = bytes > 0 ? bytes : 1;
    return b >= bench_opt.min_size && b <= bench_opt.max_size;
}

int main(int argc, char **argv)
{
    int rc = bench_init(argc, argv, "coll_latency", 2000, 0);
    if (rc != BENCH_CONTINUE)
        return rc;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    size_t np = (size_t)bench_npes;
    go = bench_shmalloc(sizeof(long));
    fsrc = bench_shmalloc(MIB);
    fdst = bench_shmalloc(MIB);
    lsrc = bench_shmalloc(MIB * np);
    ldst = bench_shmalloc(MIB * np);
    memset(lsrc, 0, MIB * np);
    memset(fsrc, 0, MIB);
    shmem_barrier_all();

    static const struct {
        const char *label;
        enum op op;
        size_t bytes;
    } rows[] = {
        {"barrier_all", BARRIER_ALL, 0},
        {"barrier_activeset", BARRIER_AS, 0},
        {"reduce_float_sum_8B", REDUCE, 8},
        {"reduce_float_sum_1MiB", REDUCE, MIB},
        {"bcast_8B", BCAST, 8},
        {"bcast_1MiB", BCAST, MIB},
        {"collect_1MiB", COLLECT, MIB},
        {"fcollect_1MiB", FCOLLECT, MIB},
        {"alltoall_1MiB", ALLTOALL, MIB},
    };
    double us[sizeof rows / sizeof rows[0]];
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        if (!row_selected(rows[r].bytes))
            continue;
        us[r] = time_op(rows[r].op, rows[r].bytes);
        check(rows[r].op, rows[r].bytes);
    }
    bench_comment("active-set collectives over all %d PEs, back to back (two pSync arrays), "
                  "timed on PE 0; 1MiB = per PE (alltoall: per PE pair)", bench_npes);
    bench_header("op", "latency_us");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        if (row_selected(rows[r].bytes))
            bench_row_label(rows[r].label, us[r]);

    shmem_barrier_all();
    shmem_free(ldst);
    shmem_free(lsrc);
    shmem_free(fdst);
    shmem_free(fsrc);
    shmem_free(go);
    return bench_finish();
}
