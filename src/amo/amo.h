/*
 * amo.h: the size-generic atomic every typed atomic routine is a thin shell over.
 *
 * Fast path (inline): a heap address of a directly reachable peer is one CPU atomic
 * instruction on the mapped memory; op and size are constants at every call site, so the
 * switch folds away. Everything else goes to the out-of-line slow path in amo.c, also a
 * misaligned address (reported there, as on the UCX path): one test of the address's low bits
 * (size is a constant), where a CPU would otherwise take a split-locked, non-atomic access.
 *
 * sshmem_amo / sshmem_amo_nbi are for API routines: they count the call in the traffic
 * profile (core/profile.h). The library's own atomics (locks, the signal word of a
 * put_signal) use sshmem_amo_world, which is never counted.
 */
#ifndef SSHMEM_AMO_H
#define SSHMEM_AMO_H

#include <shmem.h>

#include "core/error.h"
#include "core/profile.h"
#include "transport/transport.h"

uint64_t sshmem_amo_slow(shmem_ctx_t ctx, void *dest, sshmem_amo_op_t op, size_t size,
                         uint64_t operand, uint64_t compare, int fetch, int pe,
                         const char *call);
void sshmem_amo_nbi_slow(shmem_ctx_t ctx, void *fetch, void *dest, sshmem_amo_op_t op,
                         size_t size, uint64_t operand, uint64_t compare, int pe,
                         const char *call);

/* pe is a world PE number, already checked. */
static inline __attribute__((always_inline)) uint64_t
sshmem_amo_world(shmem_ctx_t ctx, void *dest, sshmem_amo_op_t op, size_t size,
                 uint64_t operand, uint64_t compare, int fetch, int pe, const char *call)
{
    char *d = sshmem_heap_direct(dest, size, pe);
    if (SSHMEM_LIKELY(d && sshmem.amo_cpu && !((uintptr_t)d & (size - 1))))
        return sshmem_cpu_amo(d, op, size, operand, compare);
    return sshmem_amo_slow(ctx, dest, op, size, operand, compare, fetch, pe, call);
}

/* pe as the context numbers PEs (world numbers, or team numbers for a team's context). */
static inline __attribute__((always_inline)) uint64_t
sshmem_amo(shmem_ctx_t ctx, void *dest, sshmem_amo_op_t op, size_t size, uint64_t operand,
           uint64_t compare, int fetch, int pe, const char *call)
{
    pe = sshmem_target_pe(ctx, pe, call);
    SSHMEM_PROFILE_COUNT(AMO, pe, size);
    return sshmem_amo_world(ctx, dest, op, size, operand, compare, fetch, pe, call);
}

/* The _nbi fetching forms: the old value lands in *fetch by the next quiet. */
static inline __attribute__((always_inline)) void
sshmem_amo_nbi(shmem_ctx_t ctx, void *fetch, void *dest, sshmem_amo_op_t op, size_t size,
               uint64_t operand, uint64_t compare, int pe, const char *call)
{
    pe = sshmem_target_pe(ctx, pe, call);
    SSHMEM_PROFILE_COUNT(AMO, pe, size);
    char *d = sshmem_heap_direct(dest, size, pe);
    if (SSHMEM_LIKELY(d && sshmem.amo_cpu && !((uintptr_t)d & (size - 1)))) {
        uint64_t old = sshmem_cpu_amo(d, op, size, operand, compare);
        if (size == 4)
            *(uint32_t *)fetch = (uint32_t)old;
        else
            *(uint64_t *)fetch = old;
        return;
    }
    sshmem_amo_nbi_slow(ctx, fetch, dest, op, size, operand, compare, pe, call);
}

#endif
