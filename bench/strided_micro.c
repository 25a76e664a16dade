/*
 * strided_micro: one process, the inner loop of a strided copy of 8-byte runs, in the ways one
 * might write it, beside packing (the floor a typed put is compared with in mpix_bench).
 *
 * The case is mpix_bench's vector: N doubles STRIDE doubles apart, copied to the same layout
 * in a second region (what the direct path of shmemx_put_type does into a peer's mapped
 * memory). Variants:
 *   library      copy_strided of src/core/copy_plan.c (the loop sshmem runs)
 *   plain        one load and one store per run
 *   unroll4      four loads, then four stores
 *   pf_N         plain, with software prefetch of the source and (for writing) the
 *                destination N runs ahead
 *   unroll4_pfN  unroll4 with those prefetches
 *   chains2      two independent halves interleaved
 *   avx2_gather  four runs loaded by one AVX2 gather, stored one by one
 *   pack         the runs into a contiguous buffer, then memcpy to a contiguous destination
 *   gather_only  the strided loads alone (into a contiguous buffer)
 *   scatter_only the strided stores alone (from a contiguous buffer)
 * Each variant's best time over many batches of 50 calls is printed (the best, so other load
 * on the machine shows less), with MB/s of useful data. Every variant but the last three is
 * checked first on short counts (0..37: every unrolling remainder).
 *
 * Build: make (in the build tree) builds bench/strided_micro; run bench/strided_micro [N
 * [STRIDE [CALLS]]] (default 1000 24 20000).
 *
 * What it showed on this machine (AMD EPYC, 32 KiB L1, 1 MiB L2; see bench/README.md): with
 * the vector in L2 every loop takes the same ~1.12 us (7.1 GB/s): the 1,000 destination
 * lines come into L1 and go back out dirty, and that traffic, not the loop, sets the time;
 * scatter_only alone costs about as much as pack. In L1 (200 runs) four loads in flight
 * (unroll4, the library's form) halve plain's time.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/copy_plan.h"

static size_t n_runs = 1000, stride_doubles = 24;
static double *src, *dst, *tmp, *packed;

typedef void variant_fn(char *d, const char *s, ptrdiff_t st, size_t n);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void library(char *d, const char *s, ptrdiff_t st, size_t n)
{
    copy_strided(d, st, s, st, n, 8);
}

static inline void move8(char *d, const char *s)
{
    uint64_t v;
    memcpy(&v, s, 8);
    memcpy(d, &v, 8);
}

__attribute__((noinline)) static void plain(char *d, const char *s, ptrdiff_t st, size_t n)
{
    for (size_t i = 0; i < n; i++, d += st, s += st)
        move8(d, s);
}

/* Four loads, then four stores; PF runs ahead prefetched (0: none). */
static inline void unrolled(char *d, const char *s, ptrdiff_t st, size_t n, size_t pf)
{
    size_t i = 0;
    for (; i + 4 + pf <= n; i += 4, d += 4 * st, s += 4 * st) {
        if (pf) {
            for (size_t k = 0; k < 4; k++) {
                __builtin_prefetch(s + (ptrdiff_t)(pf + k) * st, 0, 3);
                __builtin_prefetch(d + (ptrdiff_t)(pf + k) * st, 1, 3);
            }
        }
        uint64_t v0, v1, v2, v3;
        memcpy(&v0, s, 8);
        memcpy(&v1, s + st, 8);
        memcpy(&v2, s + 2 * st, 8);
        memcpy(&v3, s + 3 * st, 8);
        memcpy(d, &v0, 8);
        memcpy(d + st, &v1, 8);
        memcpy(d + 2 * st, &v2, 8);
        memcpy(d + 3 * st, &v3, 8);
    }
    for (; i < n; i++, d += st, s += st)
        move8(d, s);
}

__attribute__((noinline)) static void unroll4(char *d, const char *s, ptrdiff_t st, size_t n)
{
    unrolled(d, s, st, n, 0);
}

__attribute__((noinline)) static void unroll4_pf16(char *d, const char *s, ptrdiff_t st,
                                                   size_t n)
{
    unrolled(d, s, st, n, 16);
}

__attribute__((noinline)) static void unroll4_pf32(char *d, const char *s, ptrdiff_t st,
                                                   size_t n)
{
    unrolled(d, s, st, n, 32);
}

static inline void prefetched(char *d, const char *s, ptrdiff_t st, size_t n, size_t pf)
{
    size_t i = 0;
    for (; i + pf < n; i++, d += st, s += st) {
        __builtin_prefetch(s + (ptrdiff_t)pf * st, 0, 3);
        __builtin_prefetch(d + (ptrdiff_t)pf * st, 1, 3);
        move8(d, s);
    }
    for (; i < n; i++, d += st, s += st)
        move8(d, s);
}

__attribute__((noinline)) static void pf_16(char *d, const char *s, ptrdiff_t st, size_t n)
{
    prefetched(d, s, st, n, 16);
}

__attribute__((noinline)) static void pf_32(char *d, const char *s, ptrdiff_t st, size_t n)
{
    prefetched(d, s, st, n, 32);
}

__attribute__((noinline)) static void chains2(char *d, const char *s, ptrdiff_t st, size_t n)
{
    size_t h = n / 2;
    ptrdiff_t o = (ptrdiff_t)h * st;
    for (size_t i = 0; i < h; i++, d += st, s += st) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + o, 8);
        memcpy(d, &a, 8);
        memcpy(d + o, &b, 8);
    }
    if (n & 1)
        move8(d + o, s + o);
}

/* two halves, each unrolled by two: four loads (two per stream), then four stores */
__attribute__((noinline)) static void chains2_unroll2(char *d, const char *s, ptrdiff_t st,
                                                      size_t n)
{
    size_t h = n / 2, i = 0;
    ptrdiff_t o = (ptrdiff_t)h * st;
    for (; i + 2 <= h; i += 2, d += 2 * st, s += 2 * st) {
        uint64_t a0, a1, b0, b1;
        memcpy(&a0, s, 8);
        memcpy(&a1, s + st, 8);
        memcpy(&b0, s + o, 8);
        memcpy(&b1, s + o + st, 8);
        memcpy(d, &a0, 8);
        memcpy(d + st, &a1, 8);
        memcpy(d + o, &b0, 8);
        memcpy(d + o + st, &b1, 8);
    }
    for (; i < h; i++, d += st, s += st) {
        move8(d, s);
        move8(d + o, s + o);
    }
    if (n & 1)
        move8(d + o, s + o);
}

__attribute__((noinline, target("avx2"))) static void avx2_gather(char *d, const char *s,
                                                                  ptrdiff_t st, size_t n)
{
    __m256i idx = _mm256_set_epi64x(3 * st, 2 * st, st, 0);
    size_t i = 0;
    for (; i + 4 <= n; i += 4, d += 4 * st, s += 4 * st) {
        __m256i v = _mm256_i64gather_epi64((const long long *)(const void *)s, idx, 1);
        __m128d lo = _mm256_castpd256_pd128(_mm256_castsi256_pd(v));
        __m128d hi = _mm256_extractf128_pd(_mm256_castsi256_pd(v), 1);
        _mm_storel_pd((double *)(void *)d, lo);
        _mm_storeh_pd((double *)(void *)(d + st), lo);
        _mm_storel_pd((double *)(void *)(d + 2 * st), hi);
        _mm_storeh_pd((double *)(void *)(d + 3 * st), hi);
    }
    for (; i < n; i++, d += st, s += st)
        move8(d, s);
}

__attribute__((noinline)) static void gather_only(char *d, const char *s, ptrdiff_t st,
                                                  size_t n)
{
    (void)d;
    for (size_t i = 0; i < n; i++, s += st)
        memcpy(&tmp[i], s, 8);
}

__attribute__((noinline)) static void scatter_only(char *d, const char *s, ptrdiff_t st,
                                                   size_t n)
{
    (void)s;
    for (size_t i = 0; i < n; i++, d += st)
        memcpy(d, &tmp[i], 8);
}

__attribute__((noinline)) static void pack(char *d, const char *s, ptrdiff_t st, size_t n)
{
    gather_only(d, s, st, n);
    memcpy(packed, tmp, n * 8);
}

static const struct {
    variant_fn *fn;
    const char *name;
    int checked; /* leaves the strided copy in dst */
} variants[] = {
    {library, "library", 1},      {plain, "plain", 1},
    {unroll4, "unroll4", 1},      {pf_16, "pf_16", 1},
    {pf_32, "pf_32", 1},          {unroll4_pf16, "unroll4_pf16", 1},
    {unroll4_pf32, "unroll4_pf32", 1}, {chains2, "chains2", 1},
    {chains2_unroll2, "chains2_unroll2", 1},
    {avx2_gather, "avx2_gather", 1}, {pack, "pack", 0},
    {gather_only, "gather_only", 0}, {scatter_only, "scatter_only", 0},
};
enum { NVARIANTS = sizeof variants / sizeof variants[0] };

static size_t span(void)
{
    return (n_runs - 1) * stride_doubles + 1;
}

static int check(int v)
{
    ptrdiff_t st = (ptrdiff_t)(stride_doubles * 8);
    for (size_t n = 0; n <= 37 && n <= n_runs; n++) {
        for (size_t i = 0; i < span(); i++) {
            src[i] = (double)i + 0.5;
            dst[i] = -1;
        }
        variants[v].fn((char *)dst, (const char *)src, st, n);
        for (size_t i = 0; i < span(); i++) {
            int data = i % stride_doubles == 0 && i / stride_doubles < n;
            if (dst[i] != (data ? (double)i + 0.5 : -1)) {
                fprintf(stderr, "strided_micro: %s, %zu runs: double %zu is wrong\n",
                        variants[v].name, n, i);
                return 1;
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        n_runs = strtoul(argv[1], NULL, 0);
    if (argc > 2)
        stride_doubles = strtoul(argv[2], NULL, 0);
    long calls = argc > 3 ? strtol(argv[3], NULL, 0) : 20000;
    if (n_runs < 1 || stride_doubles < 1 || calls < 50) {
        fprintf(stderr, "usage: strided_micro [N >= 1 [STRIDE >= 1 [CALLS >= 50]]]\n");
        return 2;
    }
    size_t bytes = (span() * 8 + 4095) & ~(size_t)4095;
    src = aligned_alloc(4096, bytes);
    dst = aligned_alloc(4096, bytes);
    tmp = aligned_alloc(4096, (n_runs * 8 + 4095) & ~(size_t)4095);
    packed = aligned_alloc(4096, (n_runs * 8 + 4095) & ~(size_t)4095);
    if (!src || !dst || !tmp || !packed) {
        fprintf(stderr, "strided_micro: out of memory\n");
        return 1;
    }
    for (int v = 0; v < NVARIANTS; v++)
        if (variants[v].checked && check(v))
            return 1;
    double best[NVARIANTS];
    for (int v = 0; v < NVARIANTS; v++)
        best[v] = 1e9;
    ptrdiff_t st = (ptrdiff_t)(stride_doubles * 8);
    for (long round = 0; round < calls / 50; round++)
        for (int v = 0; v < NVARIANTS; v++) { /* variants alternate: drifts hit them all */
            double t0 = now();
            for (int c = 0; c < 50; c++) {
                variants[v].fn((char *)dst, (const char *)src, st, n_runs);
                __asm__ volatile("" ::: "memory");
            }
            double t = (now() - t0) / 50;
            if (t < best[v])
                best[v] = t;
        }
    printf("# strided_micro: %zu doubles %zu apart, best of %ld batches of 50 calls\n", n_runs,
           stride_doubles, calls / 50);
    printf("# %-14s %10s %10s\n", "variant", "us", "MB_per_s");
    for (int v = 0; v < NVARIANTS; v++)
        printf("%-16s %10.3f %10.0f\n", variants[v].name, best[v] * 1e6,
               (double)(n_runs * 8) / best[v] / 1e6);
    return 0;
}
