/*
 * bench_util.h: what every sshmem micro-benchmark shares.
 *
 * The benchmarks are plain OpenSHMEM programs (only <shmem.h>, OpenSHMEM 1.4 names), so the
 * same source builds against sshmem and against any other implementation, which is how
 * bench/compare.sh puts the two side by side.
 *
 * Every program prints one table, from PE 0 only:
 *
 *     # sshmem-bench put_latency          <- always the first line
 *     # library: ...   npes: 2   ...      <- any number of comment lines, all starting with '#'
 *     # size  latency_us                  <- the column names, last comment line
 *     1       0.412                       <- rows: "<size> <value>" or "<label> <value>"
 *
 * The unit in the value column's name tells which way is better: a name ending in "_us" is a
 * time (lower is better), anything else ("MB_per_s", "msgs_per_s") is a rate (higher is
 * better). bench/compare.sh relies on this.
 *
 * Command-line options understood by every program (all PEs parse the same argv):
 *   --min-size N   smallest message size (default 1; suffixes K, M allowed)
 *   --max-size N   largest message size (default 1M)
 *   --iters N      timed iterations at small sizes (default: per program); shrinks with size
 *   --window N     operations issued between two quiets in rate/bandwidth tests (default 64)
 *   --min-time S   time each row for at least S seconds (default 0.05), running more than
 *                  --iters iterations when they are fast: short runs are noisy
 *   --budget S     at most about S seconds of timed loop per row (default 0.25); a slow
 *                  implementation then reports fewer iterations instead of running forever
 *   -h, --help
 */
#ifndef SSHMEM_BENCH_UTIL_H
#define SSHMEM_BENCH_UTIL_H

#include <stddef.h>

/* Options after bench_init(); read-only for the programs. */
struct bench_opts {
    size_t min_size;   /* first message size of a size sweep */
    size_t max_size;   /* last message size of a size sweep (inclusive) */
    long iters;        /* timed iterations for small messages; 0 = program default */
    long window;       /* operations per quiet in rate and bandwidth tests */
    double min_time;   /* seconds each row is timed for at least (more iterations if needed) */
    double budget;     /* seconds of timed loop allowed per row */
};

extern struct bench_opts bench_opt;
extern int bench_me;      /* shmem_my_pe() */
extern int bench_npes;    /* shmem_n_pes() */

/*
 * Start the program: shmem_init(), parse argv, check there are at least 2 PEs when need_two
 * is non-zero, and print the first lines of the table (name, library, settings) from PE 0.
 * default_iters is used when --iters is not given.
 * Returns BENCH_CONTINUE to go on. Anything else is the exit code main must return at once
 * (0 after --help, 2 after a bad option or too few PEs); shmem_finalize was already called.
 */
#define BENCH_CONTINUE (-1)
int bench_init(int argc, char **argv, const char *name, long default_iters, int need_two);

/* Finish: shmem_finalize. Returns the exit status for main: non-zero when a data check failed
 * on this PE. (Each program calls its own final shmem_barrier_all and shmem_free first.) */
int bench_finish(void);

/* shmem_malloc(size) (collective: every PE calls it), exiting all PEs with an error message
 * when the symmetric heap cannot supply it. */
void *bench_shmalloc(size_t size);

/* Seconds since an arbitrary point, from clock_gettime(CLOCK_MONOTONIC). */
double bench_now(void);

/* Timed iterations to use for a message of `size` bytes: the base count up to 8 KiB, then
 * shrinking in proportion to the size, never below 20. */
long bench_iters_for(size_t size);

/*
 * The measuring loop. body(n, arg) must perform the measured operation n times in a row
 * (a tight loop inside body keeps the call overhead out of the measurement).
 * bench_measure first runs untimed warm-up repetitions (about iters/10 and min_time/5, at
 * most a quarter of the budget), then the timed ones in batches growing from 1 to about
 * iters/16: at least `iters` of them and for at least --min-time seconds, but stopping early
 * once the budget (--budget) is spent.
 * Returns the elapsed seconds of the timed part and stores the repetitions done in *done.
 */
typedef void (*bench_body_fn)(long n, void *arg);
double bench_measure(bench_body_fn body, void *arg, long iters, long *done);

/* Table output; everything prints only on PE 0. */
void bench_header(const char *first_col, const char *value_col); /* "# size  latency_us" */
void bench_comment(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bench_row_size(size_t size, double value);
void bench_row_label(const char *label, double value);

/* Record a failed data check (printed on stderr by any PE; makes bench_finish non-zero). */
void bench_check_failed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Fill / verify a buffer with a pattern that depends on a seed (the owning PE, the size). */
void bench_fill(void *buf, size_t len, unsigned seed);
int bench_verify(const void *buf, size_t len, unsigned seed); /* 1 when it matches */

#endif /* SSHMEM_BENCH_UTIL_H */
