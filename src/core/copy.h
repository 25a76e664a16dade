/*
 * copy.h: the memory copy behind every direct-path transfer (put, get, put-with-signal, the
 * collectives' block copies into mapped peers).
 *
 * Below a threshold it is memcpy (glibc picks rep movsb or vector loops by size, and they are
 * the fastest there). From the threshold on -- copies too large for the last-level cache to
 * hold with their source -- it streams: non-temporal stores write whole lines to memory
 * without reading them in first (no read-for-ownership, so half the memory traffic) and
 * without evicting the working sets of the PEs that share the cache. glibc would do the same
 * only past its own estimate of the cache, which virtual machines report wrongly (here
 * 320 MiB for a 32 MiB cache), so sshmem decides itself.
 *
 * The threshold is chosen once at start-up (sshmem_copy_init: from the cache size, or
 * SSHMEM_STREAM_COPY_MIN), so a transfer pays one compare for it; transfers of a size known at
 * compile time below SSHMEM_COPY_STREAM_FLOOR (shmem_p, the sized puts of small elements) pay
 * nothing.
 *
 * Ordering. Streaming stores are weakly ordered: a later ordinary store (a signal, a
 * collective's flag) could become visible before them. sshmem_copy_stream therefore ends with
 * a store fence, so when it returns its stores are ordered like memcpy's, and quiet, fence,
 * barriers, put-with-signal and the collectives' flags need nothing extra.
 *
 * Streaming is x86-64 code; elsewhere the threshold stays at SIZE_MAX and every copy is memcpy.
 */
#ifndef SSHMEM_COPY_H
#define SSHMEM_COPY_H

#include <stddef.h>
#include <string.h>

#include "core/sshmem.h"

/* The smallest threshold accepted (smaller values are raised to it). */
#define SSHMEM_COPY_STREAM_FLOOR 256

/* One source copied to several destinations (a collective's block to every member) goes
 * piece by piece, each piece to all of them while it is in the L1 cache: a quarter of a
 * 32 KiB L1, so the piece and the destination lines it passes through both stay there
 * (measured best here among 2 to 64 KiB). */
#define SSHMEM_COPY_PIECE (8 << 10)

/* Copies of at least this many bytes stream; SIZE_MAX when streaming is off or unsupported.
 * Written once by sshmem_copy_init before any transfer. */
extern size_t sshmem_copy_stream_min;

/* CPUs this process may run on (set by sshmem_copy_init): PEs beyond it share their caches. */
extern unsigned sshmem_copy_cpus;

/* Choose the threshold (after sshmem_env_load and the boot layer: errors name the PE). */
void sshmem_copy_init(void);

/* Copy with non-temporal stores, then a store fence. Any size and alignment; no overlap. */
void sshmem_copy_stream(void *dest, const void *src, size_t len);

/* The copy of every direct-path transfer: memcpy, or streaming for large ones. */
static inline void sshmem_copy(void *dest, const void *src, size_t len)
{
    if (!(__builtin_constant_p(len) && len < SSHMEM_COPY_STREAM_FLOOR) &&
        SSHMEM_UNLIKELY(len >= sshmem_copy_stream_min)) {
        sshmem_copy_stream(dest, src, len);
        return;
    }
    memcpy(dest, src, len);
}

/* The most destinations sshmem_copy_multi takes at once. */
#define SSHMEM_COPY_MULTI_MAX 32

/* One source to ndst (<= SSHMEM_COPY_MULTI_MAX) destinations, SSHMEM_COPY_PIECE at a time:
 * each piece goes to all of them while it is in the L1 cache, so the source is read from
 * memory once, not ndst times. A destination equal to src is skipped; none may overlap src
 * otherwise. For copies below the streaming size (streaming stores bypass the cache: those
 * go whole, one destination at a time, sshmem_copy). */
void sshmem_copy_multi(char *const dst[], int ndst, const void *src, size_t len);

/* Whether a collective's copies should stream: each of `pes` PEs on one host writes
 * `per_pe` bytes at the same time, and PEs beyond the CPUs take turns on them, so one CPU's
 * share of the cache sees per_pe times the PEs per CPU (8 PEs writing 7 MiB each on 2 CPUs:
 * 28 MiB, where one 7 MiB put would stay under the threshold). */
static inline int sshmem_copy_streams_together(size_t per_pe, int pes)
{
    size_t per_cpu = (unsigned)pes > sshmem_copy_cpus ? (unsigned)pes / sshmem_copy_cpus : 1;
    return per_pe >= sshmem_copy_stream_min / per_cpu;
}

#endif
