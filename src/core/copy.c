/*
 * copy.c: choosing when direct-path copies stream (see copy.h), and the streaming copy.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/copy.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/size_parse.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

size_t sshmem_copy_stream_min = SIZE_MAX;

/* ------------------------------------------------------------------ the cache size */

/* The size in bytes of cache index idx of cpu 0 when it is a data or unified cache, its level
 * in *level; 0 when there is no such index. sysfs is what the kernel learned from the CPU;
 * glibc's sysconf answers from its own reading of cpuid, wrong in some virtual machines. */
static size_t sysfs_cache(int idx, int *level)
{
    char path[96], type[32] = "";
    unsigned long kib = 0;
    int lvl = 0;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", idx);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fscanf(f, "%d", &lvl) == 1;
    fclose(f);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", idx);
    if (ok && (f = fopen(path, "r"))) {
        ok = fscanf(f, "%31s", type) == 1;
        fclose(f);
    }
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", idx);
    if (ok && (f = fopen(path, "r"))) {
        ok = fscanf(f, "%luK", &kib) == 1;
        fclose(f);
    }
    if (!ok || !strcmp(type, "Instruction"))
        return 0;
    *level = lvl;
    return (size_t)kib << 10;
}

/* Bytes of the last-level cache, 0 if unknown. */
static size_t last_level_cache(void)
{
    size_t best = 0;
    int best_level = 0;
    for (int idx = 0; idx < 16; idx++) {
        int level = 0;
        size_t size = sysfs_cache(idx, &level);
        if (size && level >= best_level) {
            best = size;
            best_level = level;
        }
    }
    if (best)
        return best;
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return l3 > 0 ? (size_t)l3 : l2 > 0 ? (size_t)l2 : 0;
}

/* ------------------------------------------------------------------ the threshold */

#if defined(__x86_64__)
/* A copy streams when it would not fit in the cache together with its source and leave room
 * for the rest of the working set: half the last-level cache, measured best on this machine
 * (see bench/README.md, "Large transfers"). Unknown cache: no streaming. */
static size_t auto_threshold(void)
{
    size_t llc = last_level_cache();
    return llc ? llc / 2 : SIZE_MAX;
}
#else
static size_t auto_threshold(void) { return SIZE_MAX; } /* streaming is x86-64 code */
#endif

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
    sshmem_copy_stream_min = min;
}

/* ------------------------------------------------------------------ the streaming copy */

#if defined(__x86_64__)
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
    for (size_t i = 0; i < body; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a);
        _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
    /* Order the streaming stores before every later store (copy.h, "Ordering"). */
    _mm_sfence();
    memcpy(d + body, s + body, len - body);
}
#else
void sshmem_copy_stream(void *dest, const void *src, size_t len) { memcpy(dest, src, len); }
#endif
