/* amo.c: the slow path of atomics: globals, UCX, errors. */
#include "amo/amo.h"
#include "sync/weak.h"

/* Region and offset of an atomic's target, with the errors a user can make. */
static int amo_target(shmem_ctx_t ctx, void *dest, size_t size, size_t *off, const char *call)
{
    if (SSHMEM_UNLIKELY(!ctx))
        sshmem_fatal(call, "ctx is SHMEM_CTX_INVALID; pass a context from shmem_ctx_create "
                     "or SHMEM_CTX_DEFAULT");
    int r = sshmem_region_of(dest, size, off);
    if (SSHMEM_UNLIKELY(r < 0))
        sshmem_not_symmetric(call, dest, size);
    if (SSHMEM_UNLIKELY((uintptr_t)dest % size))
        sshmem_fatal(call, "address %p is not aligned to %zu bytes; atomics need naturally "
                     "aligned variables: pass a variable of the routine's type (shmem_malloc "
                     "and global variables of that type are aligned), not a byte offset into "
                     "one", dest, size);
    return r;
}

uint64_t sshmem_amo_slow(shmem_ctx_t ctx, void *dest, sshmem_amo_op_t op, size_t size,
                         uint64_t operand, uint64_t compare, int fetch, int pe,
                         const char *call)
{
    size_t off;
    int r = amo_target(ctx, dest, size, &off, call);
    if (sshmem_weak_holds(pe)) {
        if (!fetch) {
            sshmem_weak_amo(ctx, pe, r, off, op, size, operand, compare, NULL);
            return 0;
        }
        sshmem_weak_settle(pe, r, off, size); /* then as usual */
    }
    char *direct = sshmem_peer(pe)->direct[r];
    if (direct && sshmem.amo_cpu)
        return sshmem_cpu_amo(direct + off, op, size, operand, compare);
    return sshmem_tx_amo(ctx->tx, pe, r, sshmem_peer(pe)->remote[r] + off, op, size, operand,
                         compare, fetch);
}

void sshmem_amo_nbi_slow(shmem_ctx_t ctx, void *fetch, void *dest, sshmem_amo_op_t op,
                         size_t size, uint64_t operand, uint64_t compare, int pe,
                         const char *call)
{
    size_t off;
    int r = amo_target(ctx, dest, size, &off, call);
    if (sshmem_weak_holds(pe)) {
        sshmem_weak_amo(ctx, pe, r, off, op, size, operand, compare, fetch);
        return;
    }
    char *direct = sshmem_peer(pe)->direct[r];
    if (direct && sshmem.amo_cpu) {
        uint64_t old = sshmem_cpu_amo(direct + off, op, size, operand, compare);
        if (size == 4)
            *(uint32_t *)fetch = (uint32_t)old;
        else
            *(uint64_t *)fetch = old;
        return;
    }
    sshmem_tx_amo_nbi(ctx->tx, pe, r, sshmem_peer(pe)->remote[r] + off, op, size, operand,
                      compare, fetch);
}
