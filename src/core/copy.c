/*
 * copy.c: choosing when direct-path copies stream (see copy.h), and the streaming copy.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/copy.h"
#include "core/env.h"
#include "core/error.h"
#include "core/size_parse.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

size_t sshmem_copy_stream_min = SIZE_MAX;
unsigned sshmem_copy_cpus = 1;

/* ------------------------------------------------------------------ the cache size */

/* The first line of /sys/devices/system/cpu/cpu0/cache/index<idx>/<name> into buf; 0 if none.
 * sysfs is what the kernel learned from the CPU; glibc's sysconf answers from its own reading
 * of cpuid, wrong in some virtual machines (320 MiB for this machine's 32 MiB). */
static int cache_attr(int idx, const char *name, char *buf, int size)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", idx, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(buf, size, f) != NULL;
    fclose(f);
    return ok;
}

/* How many CPUs a list like "0-3,8-11" names. */
static unsigned cpus_in_list(const char *list)
{
    unsigned n = 0, a, b;
    for (const char *p = list; *p;) {
        int used = 0;
        if (sscanf(p, "%u-%u%n", &a, &b, &used) == 2 && b >= a)
            n += b - a + 1;
        else if (sscanf(p, "%u%n", &a, &used) == 1)
            n += 1;
        else
            break;
        p += used;
        if (*p != ',')
            break;
        p++;
    }
    return n;
}

/* Bytes of the last-level data cache and how many CPUs share it (1 if unknown); 0 bytes if
 * the size is unknown. */
static size_t last_level_cache(unsigned *sharing)
{
    size_t best = 0;
    int best_level = 0;
    *sharing = 1;
    for (int idx = 0; idx < 16; idx++) {
        char level[16], type[32], size[32], cpus[256];
        unsigned long kib;
        if (!cache_attr(idx, "level", level, sizeof level))
            break; /* the indexes are numbered without gaps */
        if (!cache_attr(idx, "type", type, sizeof type) ||
            !cache_attr(idx, "size", size, sizeof size) || !strncmp(type, "Instruction", 11) ||
            sscanf(size, "%luK", &kib) != 1 || atoi(level) < best_level)
            continue;
        best = (size_t)kib << 10;
        best_level = atoi(level);
        unsigned n = cache_attr(idx, "shared_cpu_list", cpus, sizeof cpus) ? cpus_in_list(cpus) : 0;
        *sharing = n ? n : 1;
    }
    if (best)
        return best;
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l3 > 0 ? (size_t)l3 : l2 > 0 ? (size_t)l2 : 0;
}

/* ------------------------------------------------------------------ the threshold */

#if defined(__x86_64__)
/* A copy streams once its source and destination would crowd this CPU's share of the
 * last-level cache: from 3/4 of (cache / CPUs sharing it), 12 MiB on this machine (32 MiB
 * shared by 2 CPUs). Measured (bench/README.md, "Large transfers"): with the cache free
 * memcpy is ahead below that, streaming above it (and from half of it when other processes
 * use the cache). Never below 1 MiB;
 * unknown cache: no streaming. */
static size_t auto_threshold(void)
{
    unsigned sharing;
    size_t llc = last_level_cache(&sharing);
    if (!llc)
        return SIZE_MAX;
    size_t t = llc / sharing / 4 * 3;
    return t < (1u << 20) ? (1u << 20) : t;
}
#else
static size_t auto_threshold(void) { return SIZE_MAX; } /* streaming is x86-64 code */
#endif

static void choose_stream_body(void); /* AVX2 or SSE2, below */

void sshmem_copy_init(void)
{
    const char *v = sshmem_env.stream_copy_min;
    size_t min;
    if (!*v || !strcasecmp(v, "auto"))
        min = auto_threshold();
    else if (!strcasecmp(v, "off"))
        min = SIZE_MAX;
    else if (sshmem_parse_size(v, &min) != 0)
        sshmem_fatal("shmem_init", "SSHMEM_STREAM_COPY_MIN='%s' is not valid: expected auto, off "
                     "or " SSHMEM_SIZE_SYNTAX, v);
#if !defined(__x86_64__)
    min = SIZE_MAX;
#endif
    if (min < SSHMEM_COPY_STREAM_FLOOR)
        min = SSHMEM_COPY_STREAM_FLOOR;
    choose_stream_body();
    sshmem_copy_stream_min = min;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    sshmem_copy_cpus = cpus > 0 ? (unsigned)cpus : 1;
}

/* ------------------------------------------------------------------ the streaming copy */

#if defined(__x86_64__)
/* The body of a streaming copy: n (a multiple of 64) bytes to a 64-byte aligned d. Two
 * versions, chosen once by sshmem_copy_init: 32-byte AVX2 accesses move memory-bound copies
 * (source and destination beyond the cache) faster than the 16-byte SSE2 ones
 * every x86-64 CPU has; within the cache both run at the same speed. */
static void stream_body_sse2(char *d, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a);
        _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
}

__attribute__((target("avx2"))) static void stream_body_avx2(char *d, const char *s, size_t n)
{
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64));
        __m256i e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
        _mm256_stream_si256((__m256i *)(d + i), a);
        _mm256_stream_si256((__m256i *)(d + i + 32), b);
        _mm256_stream_si256((__m256i *)(d + i + 64), c);
        _mm256_stream_si256((__m256i *)(d + i + 96), e);
    }
    if (i < n) { /* one 64-byte line left */
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        _mm256_stream_si256((__m256i *)(d + i), a);
        _mm256_stream_si256((__m256i *)(d + i + 32), b);
    }
}

static void (*stream_body)(char *d, const char *s, size_t n) = stream_body_sse2;

static void choose_stream_body(void)
{
    __builtin_cpu_init();
    stream_body = __builtin_cpu_supports("avx2") ? stream_body_avx2 : stream_body_sse2;
}

void sshmem_copy_stream(void *dest, const void *src, size_t len)
{
    char *d = dest;
    const char *s = src;
    /* Up to the next cache line of dest with ordinary stores: the streaming stores below then
     * fill whole, aligned lines (a partial line would be written to memory in pieces). */
    size_t head = (size_t)(-(uintptr_t)d & 63);
    if (head > len)
        head = len;
    memcpy(d, s, head);
    d += head;
    s += head;
    len -= head;
    size_t body = len & ~(size_t)63;
    stream_body(d, s, body);
    /* Order the streaming stores before every later store (copy.h, "Ordering"). */
    _mm_sfence();
    memcpy(d + body, s + body, len - body);
}
#else
static void choose_stream_body(void) {}
void sshmem_copy_stream(void *dest, const void *src, size_t len) { memcpy(dest, src, len); }
#endif

void sshmem_copy_multi(char *const dst[], int ndst, const void *src, size_t len)
{
    const char *s = src;
    for (size_t lo = 0; lo < len; lo += SSHMEM_COPY_PIECE) {
        size_t piece = len - lo < SSHMEM_COPY_PIECE ? len - lo : SSHMEM_COPY_PIECE;
        for (int i = 0; i < ndst; i++)
            if (dst[i] != s)
                memcpy(dst[i] + lo, s + lo, piece);
    }
}
