/*
 * channel.c: message slots in the symmetric scratch (see channel.h).
 *
 * Per PE, in the library's part of the heap: full[n] (written by senders: chunks deposited),
 * freed[n] (written by receivers: chunks consumed), slots[n][slot_size] (slot s is written
 * only by PE s). Counters only grow. A slot has DEPTH halves used in turn, so a sender fills
 * the next chunk while the receiver drains the previous one. On-node peers get memcpy and a
 * release store; others a UCX put, a UCX fence, then the counter put.
 */
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

#include "core/error.h"
#include "heap/heap.h"
#include "mpix/channel.h"
#include "rma/rma.h"
#include "sync/wait.h"
#include "transport/transport.h"

/* Scratch for all slots together; a slot gets its share, within these limits. */
#define POOL_BYTES (128u << 10)
#define SLOT_MIN 256u
#define SLOT_MAX (64u << 10)
#define DEPTH 2 /* chunks in flight per pair */

static uint64_t *full, *freed; /* symmetric, n each */
static char *slots;            /* symmetric, n * slot_size */
static size_t slot_size, chunk_size; /* chunk_size = slot_size / DEPTH */
static uint64_t *sent, *received; /* local, n each: chunks sent to / received from each PE */

void sshmem_mpix_init(void)
{
    size_t n = (size_t)sshmem.n_pes;
    slot_size = POOL_BYTES / n;
    slot_size = slot_size < SLOT_MIN ? SLOT_MIN : slot_size > SLOT_MAX ? SLOT_MAX : slot_size;
    slot_size &= ~(size_t)(64 * DEPTH - 1);
    chunk_size = slot_size / DEPTH;
    full = sshmem_heap_internal(n * sizeof *full);
    freed = sshmem_heap_internal(n * sizeof *freed);
    slots = sshmem_heap_internal(n * slot_size);
    free(sent);
    free(received);
    sent = calloc(n, sizeof *sent);
    received = calloc(n, sizeof *received);
    if (!sent || !received)
        sshmem_fatal("shmem_init", "out of memory for the shmemx message counters of %zu PEs", n);
}

/* Store value into the counter at `flag` (our copy's address) on pe, after earlier puts. */
static void put_counter(int pe, uint64_t *flag, uint64_t value)
{
    size_t off = (uintptr_t)flag - sshmem.region[SSHMEM_REGION_HEAP].base;
    char *direct = sshmem.peers[pe].direct[SSHMEM_REGION_HEAP];
    if (direct) {
        __atomic_store_n((uint64_t *)(direct + off), value, __ATOMIC_RELEASE);
        return;
    }
    sshmem_tx_fence(sshmem_tx_default());
    sshmem_tx_put(sshmem_tx_default(), pe, SSHMEM_REGION_HEAP,
                  sshmem.peers[pe].remote[SSHMEM_REGION_HEAP] + off, &value, sizeof value, 1);
}

static void send_chunk(int pe, const char *buf, size_t len)
{
    const int me = sshmem.my_pe;
    uint64_t k = ++sent[pe];
    if (k > DEPTH)
        SSHMEM_WAIT_UNTIL(__atomic_load_n(&freed[pe], __ATOMIC_ACQUIRE) >= k - DEPTH);
    if (len)
        sshmem_put_world(SHMEM_CTX_DEFAULT,
                         slots + (size_t)me * slot_size + (k % DEPTH) * chunk_size, buf, len, pe,
                         1, "shmemx collective");
    put_counter(pe, &full[me], k);
}

static void recv_chunk(int pe, char *buf, size_t len)
{
    uint64_t k = ++received[pe];
    SSHMEM_WAIT_UNTIL(__atomic_load_n(&full[pe], __ATOMIC_ACQUIRE) >= k);
    if (len)
        memcpy(buf, slots + (size_t)pe * slot_size + (k % DEPTH) * chunk_size, len);
    put_counter(pe, &freed[sshmem.my_pe], k);
}

static size_t chunks(size_t len) { return len ? (len + chunk_size - 1) / chunk_size : 1; }

static size_t chunk_len(size_t len, size_t c)
{
    size_t rest = len - c * chunk_size;
    return rest < chunk_size ? rest : chunk_size;
}

void mpix_send(int pe, const void *buf, size_t len)
{
    for (size_t c = 0, nc = chunks(len); c < nc; c++)
        send_chunk(pe, (const char *)buf + c * chunk_size, chunk_len(len, c));
}

void mpix_recv(int pe, void *buf, size_t len)
{
    for (size_t c = 0, nc = chunks(len); c < nc; c++)
        recv_chunk(pe, (char *)buf + c * chunk_size, chunk_len(len, c));
}

void mpix_sendrecv(int to, const void *sbuf, size_t slen, int from, void *rbuf, size_t rlen)
{
    size_t ns = chunks(slen), nr = chunks(rlen);
    for (size_t c = 0; c < ns || c < nr; c++) {
        if (c < ns)
            send_chunk(to, (const char *)sbuf + c * chunk_size, chunk_len(slen, c));
        if (c < nr)
            recv_chunk(from, (char *)rbuf + c * chunk_size, chunk_len(rlen, c));
    }
}

void mpix_quiet(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (sshmem.ucx_in_use)
        sshmem_tx_quiet(sshmem_tx_default());
}
