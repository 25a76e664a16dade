/*
 * weak.h: the weak-ordering mode (oshrun --weak[=SEED], SSHMEM_WEAK=SEED): the user's puts,
 * put-with-signal, non-fetching atomics and _nbi operations to another PE land late, in pieces
 * and out of order, as far as the OpenSHMEM memory model allows and no further (weak.c says
 * how). A program that lacks a fence or a quiet then shows it on one host, as it would on an
 * RDMA network.
 *
 * The slow paths of put, get and atomics call in here when sshmem_env.weak is set; the inline
 * fast paths never get there in this mode, because the heap range they read is empty
 * (sshmem.fast_heap, core/sshmem.h). Off, nothing here runs.
 */
#ifndef SSHMEM_WEAK_H
#define SSHMEM_WEAK_H

#include <shmem.h>

#include "core/env.h"
#include "core/sshmem.h"
#include "transport/transport.h"

/* Whether an operation of this PE to pe is held back by the mode. */
static inline int sshmem_weak_holds(int pe)
{
    return SSHMEM_UNLIKELY(sshmem_env.weak) && pe != sshmem.my_pe;
}

/* Start (shmem_init, once the peers are known) and stop (shmem_finalize, before the
 * transport goes: every pending operation is delivered first). */
void sshmem_weak_init(void);
void sshmem_weak_finalize(void);

/* Hold an operation on region r at offset off of pe. A put copies src: the caller may reuse it
 * at once. An atomic with fetch_out NULL fetches nothing; otherwise the old value lands in
 * *fetch_out when it is delivered (by the next quiet at the latest). A get lands in dst. */
void sshmem_weak_put(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off, const void *src,
                     size_t len);
void sshmem_weak_get(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off, void *dst,
                     size_t len);
void sshmem_weak_amo(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off,
                     sshmem_amo_op_t op, size_t size, uint64_t operand, uint64_t compare,
                     void *fetch_out);
/* A put-with-signal: the data as a put, then the signal (an atomic of op on the 8-byte word at
 * sig_off of region sig_r), which lands only after every byte of the data. */
void sshmem_weak_put_signal(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off,
                            const void *src, size_t len, enum sshmem_region sig_r, size_t sig_off,
                            sshmem_amo_op_t op, uint64_t signal);

/* Before a blocking read of [off, off+len) in region r of pe (a get, a fetching atomic):
 * deliver this PE's pending writes to that range, so a PE always reads its own writes. */
void sshmem_weak_settle(int pe, enum sshmem_region r, size_t off, size_t len);

/* shmem_fence on ctx: what ctx sends to a PE later lands after what it sent to it before. */
void sshmem_weak_fence(shmem_ctx_t ctx);
/* Deliver every pending operation of ctx (NULL: of every context), or only those to the PEs
 * pes[0..n) (world numbers) when pes is not NULL. */
void sshmem_weak_complete(shmem_ctx_t ctx, const int *pes, size_t n);

#endif
