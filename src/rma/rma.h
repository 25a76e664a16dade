/*
 * rma.h: the size-generic put and get every typed RMA routine is a thin shell over.
 *
 * Fast path (inline): a heap address of a directly reachable peer is a copy (core/copy.h:
 * memcpy, or streaming stores for large ones). Everything
 * else (globals, UCX, zero length, errors) is the out-of-line slow path in rma.c. A NULL
 * local buffer also goes there, to be reported: one register test beside the range check,
 * against a memcpy that would otherwise end the PE with SIGSEGV.
 *
 * sshmem_put / sshmem_get are for API routines: they count the call in the traffic profile
 * (core/profile.h). The library's own transfers use the _world forms, which are never counted.
 */
#ifndef SSHMEM_RMA_H
#define SSHMEM_RMA_H

#include <string.h>
#include <shmem.h>

#include "core/copy.h"
#include "core/env.h"
#include "core/error.h"
#include "core/profile.h"

void sshmem_put_slow(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe,
                     int blocking, const char *call);
void sshmem_get_slow(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe,
                     int blocking, const char *call);
/* Strided (pe as the context numbers PEs): element i goes from src + i*sst*size to dest + i*dst*size, in blocks of bsize. */
void sshmem_iput(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                 size_t size, size_t bsize, size_t nblocks, int pe, const char *call);
void sshmem_iget(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                 size_t size, size_t bsize, size_t nblocks, int pe, const char *call);

/* The strided transfer (pe a world number) to a PE reached through UCX as packed messages
 * (strided_ucx.c), when that beats one transfer per block: returns 1 when done so. */
int sshmem_strided_staged(shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
                          ptrdiff_t sst, size_t size, size_t bsize, size_t nblocks, int pe,
                          int get);

/* pe is a world PE number, already checked (callers that translated a context's PE). */
static inline void sshmem_put_world(shmem_ctx_t ctx, void *dest, const void *src, size_t len,
                                    int pe, int blocking, const char *call)
{
    char *d = sshmem_heap_direct(dest, len, pe);
    if (SSHMEM_LIKELY(d && src)) {
        sshmem_copy(d, src, len);
        return;
    }
    sshmem_put_slow(ctx, dest, src, len, pe, blocking, call);
}

static inline void sshmem_get_world(shmem_ctx_t ctx, void *dest, const void *src, size_t len,
                                    int pe, int blocking, const char *call)
{
    const char *s = sshmem_heap_direct(src, len, pe);
    if (SSHMEM_LIKELY(s && dest)) {
        sshmem_copy(dest, s, len);
        return;
    }
    sshmem_get_slow(ctx, dest, src, len, pe, blocking, call);
}

/* A put of the library's own (a collective's block), pe a world number: never held by the
 * weak-ordering mode (sync/weak.h), which weakens what users send; the collectives order
 * their own transfers. */
void sshmem_put_unheld(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe,
                       int blocking, const char *call);
static inline void sshmem_put_own(shmem_ctx_t ctx, void *dest, const void *src, size_t len,
                                  int pe, int blocking, const char *call)
{
    if (SSHMEM_UNLIKELY(sshmem_env.weak))
        sshmem_put_unheld(ctx, dest, src, len, pe, blocking, call);
    else
        sshmem_put_world(ctx, dest, src, len, pe, blocking, call);
}

/* A user's put or get, pe as the context numbers PEs (world numbers, or team numbers for a
 * team's context): counted under its world PE, then the transfer. */
static inline void sshmem_put(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe,
                              int blocking, const char *call)
{
    pe = sshmem_target_pe(ctx, pe, call);
    SSHMEM_PROFILE_COUNT(PUT, pe, len);
    sshmem_put_world(ctx, dest, src, len, pe, blocking, call);
}

static inline void sshmem_get(shmem_ctx_t ctx, void *dest, const void *src, size_t len, int pe,
                              int blocking, const char *call)
{
    pe = sshmem_target_pe(ctx, pe, call);
    SSHMEM_PROFILE_COUNT(GET, pe, len);
    sshmem_get_world(ctx, dest, src, len, pe, blocking, call);
}

#endif
