/*
 * cpu_amo.h: the atomic operations sshmem carries, and one of them done by this CPU on memory
 * it can load and store. The atomics' fast path (amo/amo.h) and the weak-ordering mode's
 * deliveries (sync/weak.c) do them this way; the transport carries the same operations
 * through UCX (transport/transport.h).
 */
#ifndef SSHMEM_CPU_AMO_H
#define SSHMEM_CPU_AMO_H

#include <stddef.h>
#include <stdint.h>

/* The atomic operations (UCX's set, with fetch as a flag). */
typedef enum {
    SSHMEM_AMO_ADD,
    SSHMEM_AMO_AND,
    SSHMEM_AMO_OR,
    SSHMEM_AMO_XOR,
    SSHMEM_AMO_SWAP,
    SSHMEM_AMO_CSWAP,
    SSHMEM_AMO_FETCH, /* carried as an add of 0 that fetches */
    SSHMEM_AMO_SET,   /* carried as a swap whose old value is dropped */
} sshmem_amo_op_t;

#define SSHMEM_CPU_AMO_(TYPE, p, op, operand, compare)                                           \
    do {                                                                                         \
        TYPE *a_ = (TYPE *)(p), v_ = (TYPE)(operand), c_ = (TYPE)(compare);                      \
        switch (op) {                                                                            \
        case SSHMEM_AMO_ADD: return __atomic_fetch_add(a_, v_, __ATOMIC_SEQ_CST);                \
        case SSHMEM_AMO_AND: return __atomic_fetch_and(a_, v_, __ATOMIC_SEQ_CST);                \
        case SSHMEM_AMO_OR: return __atomic_fetch_or(a_, v_, __ATOMIC_SEQ_CST);                  \
        case SSHMEM_AMO_XOR: return __atomic_fetch_xor(a_, v_, __ATOMIC_SEQ_CST);                \
        case SSHMEM_AMO_SWAP: return __atomic_exchange_n(a_, v_, __ATOMIC_SEQ_CST);              \
        case SSHMEM_AMO_CSWAP:                                                                   \
            __atomic_compare_exchange_n(a_, &c_, v_, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);     \
            return c_;                                                                           \
        case SSHMEM_AMO_FETCH: return __atomic_load_n(a_, __ATOMIC_ACQUIRE);                     \
        case SSHMEM_AMO_SET: __atomic_store_n(a_, v_, __ATOMIC_RELEASE); return 0;               \
        }                                                                                        \
    } while (0)

/* One CPU atomic on memory we can load and store; returns the old value (bits, zero-extended). */
static inline __attribute__((always_inline)) uint64_t
sshmem_cpu_amo(void *p, sshmem_amo_op_t op, size_t size, uint64_t operand, uint64_t compare)
{
    if (size == 4)
        SSHMEM_CPU_AMO_(uint32_t, p, op, operand, compare);
    else
        SSHMEM_CPU_AMO_(uint64_t, p, op, operand, compare);
    return 0;
}

#endif
