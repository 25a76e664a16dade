/*
 * bench_util.c: option parsing, timing, the measuring loop and table printing shared by the
 * sshmem micro-benchmarks. See bench_util.h for the conventions.
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"

#include <shmem.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bench_opts bench_opt = {
    .min_size = 1,
    .max_size = 1 << 20,
    .iters = 0,
    .window = 64,
    .budget = 0.25,
    .min_time = 0.05,
};
int bench_me = -1;
int bench_npes = 0;

/* Width of the first column of a row. */
#define SIZE_WIDTH 12
#define LABEL_WIDTH 20

static const char *bench_name = "?";
static int check_failures = 0;

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Parse "123", "4K", "2M", "1G" (binary multiples) into *out. Returns 0 on success. */
static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s)
        return -1;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    default: return -1;
    }
    if (*end == 'i' || *end == 'B') /* accept "KiB", "KB", "MiB" */
        end++;
    if (*end == 'B')
        end++;
    if (*end != '\0')
        return -1;
    *out = (size_t)v;
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [--min-size N] [--max-size N] [--iters N] [--window N]\n"
            "       [--min-time SEC] [--budget SEC]\n"
            "  --min-size N   smallest message size in bytes (default 1; K/M suffixes allowed)\n"
            "  --max-size N   largest message size in bytes (default 1M)\n"
            "  --iters N      timed iterations for small messages (shrinks with size)\n"
            "  --window N     operations between two quiets in rate/bandwidth tests (default 64)\n"
            "  --min-time SEC time each row for at least SEC seconds (default 0.05)\n"
            "  --budget SEC   at most about SEC seconds of timing per row (default 0.25)\n"
            "Run under oshrun with 2 or more PEs; PE 0 measures, PE 1 is the target.\n",
            bench_name);
}

/* Returns 0 when argv is fine, 1 for --help, 2 for an error (message printed by PE 0). */
static int parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
        int bad = 0;

        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            if (bench_me == 0)
                usage(stdout);
            return 1;
        }
        if (val == NULL) {
            bad = 1;
        } else if (!strcmp(a, "--min-size")) {
            bad = parse_size(val, &bench_opt.min_size) != 0 || bench_opt.min_size == 0;
        } else if (!strcmp(a, "--max-size")) {
            bad = parse_size(val, &bench_opt.max_size) != 0 || bench_opt.max_size == 0;
        } else if (!strcmp(a, "--iters")) {
            bench_opt.iters = strtol(val, NULL, 10);
            bad = bench_opt.iters <= 0;
        } else if (!strcmp(a, "--window")) {
            bench_opt.window = strtol(val, NULL, 10);
            bad = bench_opt.window <= 0;
        } else if (!strcmp(a, "--min-time")) {
            bench_opt.min_time = strtod(val, NULL);
            bad = !(bench_opt.min_time >= 0.0);
        } else if (!strcmp(a, "--budget")) {
            bench_opt.budget = strtod(val, NULL);
            bad = !(bench_opt.budget > 0.0);
        } else {
            bad = 1;
        }
        if (bad) {
            if (bench_me == 0) {
                fprintf(stderr, "%s: bad option or value: %s%s%s\n", bench_name, a,
                        val ? " " : "", val ? val : "");
                usage(stderr);
            }
            return 2;
        }
        i++; /* the value */
    }
    if (bench_opt.min_size > bench_opt.max_size) {
        if (bench_me == 0)
            fprintf(stderr, "%s: --min-size is larger than --max-size\n", bench_name);
        return 2;
    }
    return 0;
}

int bench_init(int argc, char **argv, const char *name, long default_iters, int need_two)
{
    bench_name = name;
    shmem_init();
    bench_me = shmem_my_pe();
    bench_npes = shmem_n_pes();

    /* Every PE parses the same argv, so every PE reaches the same verdict. */
    int rc = parse_args(argc, argv);
    if (rc == 0 && need_two && bench_npes < 2) {
        if (bench_me == 0)
            fprintf(stderr, "%s: needs at least 2 PEs (run it with oshrun -np 2)\n", name);
        rc = 2;
    }
    if (rc != 0) {
        shmem_finalize();
        return rc == 1 ? 0 : rc; /* --help: success; anything else: usage error */
    }
    if (bench_opt.iters == 0)
        bench_opt.iters = default_iters;

    if (bench_me == 0) {
        char lib[SHMEM_MAX_NAME_LEN + 1] = "";
        int major = 0, minor = 0;
        shmem_info_get_name(lib);
        shmem_info_get_version(&major, &minor);
        printf("# sshmem-bench %s\n", name);
        printf("# library: %s (OpenSHMEM %d.%d)  npes: %d\n", lib, major, minor, bench_npes);
        printf("# iters: %ld  window: %ld  min-time: %.3fs  budget: %.3fs per row\n",
               bench_opt.iters, bench_opt.window, bench_opt.min_time, bench_opt.budget);
        fflush(stdout);
    }
    return BENCH_CONTINUE;
}

int bench_finish(void)
{
    shmem_finalize();
    return check_failures ? 1 : 0;
}

void *bench_shmalloc(size_t size)
{
    void *p = shmem_malloc(size);
    if (p == NULL) {
        fprintf(stderr, "%s: PE %d: shmem_malloc(%zu) failed; a larger symmetric heap "
                "(SHMEM_SYMMETRIC_SIZE) or a smaller --max-size may help\n",
                bench_name, bench_me, size);
        shmem_global_exit(1);
    }
    return p;
}

long bench_iters_for(size_t size)
{
    const size_t knee = 8192;
    long n = bench_opt.iters;
    if (size > knee)
        n = (long)((double)n * (double)knee / (double)size);
    return n < 20 ? 20 : n;
}

/*
 * Run body() in batches that start at 1 and double up to `max_batch`, until at least `count`
 * repetitions are done and at least `min_time` seconds have passed since `start`, but stop
 * as soon as more than `limit` seconds have passed. The small first batches let a very slow
 * implementation stop early; the large later ones keep clock reads rare.
 * Returns the repetitions done; *elapsed gets the time from `start` to the end.
 */
static long run_batches(bench_body_fn body, void *arg, long count, long max_batch,
                        double start, double min_time, double limit, double *elapsed)
{
    long n = 0, k = 1;
    *elapsed = 0.0;
    while (n < count || *elapsed < min_time) {
        long m = (n < count && count - n < k) ? count - n : k;
        body(m, arg);
        n += m;
        *elapsed = bench_now() - start;
        if (*elapsed > limit)
            break;
        if (k < max_batch)
            k *= 2;
    }
    return n;
}

double bench_measure(bench_body_fn body, void *arg, long iters, long *done)
{
    long max_batch = iters / 16 > 0 ? iters / 16 : 1;
    double elapsed;

    /* Warm-up (untimed): connections, registration caches, page faults and the cpu clock
     * settle. About iters/10 repetitions and a fifth of --min-time, at most a quarter of
     * the budget. */
    long warm = iters / 10 > 2 ? iters / 10 : 2;
    run_batches(body, arg, warm, max_batch, bench_now(), bench_opt.min_time / 5,
                bench_opt.budget / 4, &elapsed);

    /* Timed part: iters repetitions and --min-time seconds, at most the budget. */
    *done = run_batches(body, arg, iters, max_batch, bench_now(), bench_opt.min_time,
                        bench_opt.budget, &elapsed);
    return elapsed;
}

void bench_header(const char *first_col, const char *value_col)
{
    if (bench_me != 0)
        return;
    /* Line the names up with the rows: sizes are printed 12 wide, labels 20 wide. */
    int width = strcmp(first_col, "size") == 0 ? SIZE_WIDTH : LABEL_WIDTH;
    printf("# %-*s %s\n", width - 2, first_col, value_col);
    fflush(stdout);
}

void bench_comment(const char *fmt, ...)
{
    if (bench_me != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    fflush(stdout);
}

/* Values span 0.1 us .. 1e8 msgs/s: keep 3 significant decimals for small numbers. */
static void print_value(double v)
{
    if (v >= 1e5)
        printf("%.0f\n", v);
    else
        printf("%.3f\n", v);
}

void bench_row_size(size_t size, double value)
{
    if (bench_me != 0)
        return;
    printf("%-*zu ", SIZE_WIDTH, size);
    print_value(value);
    fflush(stdout);
}

void bench_row_label(const char *label, double value)
{
    if (bench_me != 0)
        return;
    printf("%-*s ", LABEL_WIDTH, label);
    print_value(value);
    fflush(stdout);
}

void bench_check_failed(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: PE %d: data check failed: ", bench_name, bench_me);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    check_failures++;
}

/* A cheap byte pattern: different for every seed and every offset within a 251-byte cycle. */
static unsigned char pattern_byte(size_t i, unsigned seed)
{
    return (unsigned char)((i % 251) * 7u + seed * 31u + 1u);
}

void bench_fill(void *buf, size_t len, unsigned seed)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < len; i++)
        p[i] = pattern_byte(i, seed);
}

int bench_verify(const void *buf, size_t len, unsigned seed)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < len; i++)
        if (p[i] != pattern_byte(i, seed))
            return 0;
    return 1;
}
