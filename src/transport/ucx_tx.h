/*
 * ucx_tx.h: the transport's private view of one communication context (src/transport only).
 *
 * A context's transport state (struct sshmem_tx) is one UCP worker with an endpoint and the
 * unpacked rkeys per peer. The default context's worker is the one whose address every peer
 * has (the card), so all incoming emulated traffic lands there; a context made later has a
 * worker of its own whose endpoints are wired to the peers' default workers on first use.
 *
 * Threads. A worker that several threads may touch at once (the default one under a progress
 * thread or SHMEM_THREAD_MULTIPLE, a shareable context under SHMEM_THREAD_MULTIPLE) is
 * "shared": every call into it, and our bookkeeping, happen under tx->lock, and the worker itself
 * is created UCS_THREAD_MODE_SERIALIZED (UCX's own term for "one thread at a time, any
 * thread"). UCX's MULTI mode would take UCX's lock inside every call on top of the lock we
 * need anyway for our own state: two locks where one does (MPICH's UCX layer does the same).
 * A worker used by one thread at a time has no lock at all.
 */
#ifndef SSHMEM_UCX_TX_H
#define SSHMEM_UCX_TX_H

#include <pthread.h>
#include <stdint.h>
#include <ucp/api/ucp.h>

#include "transport/transport.h"
#include "transport/worker_lock.h"

enum { TOUCHED_OPS = 1, TOUCHED_EMULATED = 2 };

/* Active message ids: staged transfers (ucx_staging.c), a collective's put with its signal
 * (ucx_put_add.c). */
enum { AM_STAGED_PUT = 1, AM_STAGED_ACK, AM_STAGED_GET, AM_STAGED_DATA, AM_PUT_ADD };

/* Operands of the atomics whose requests nobody waits for (non-fetching, _nbi), a ring per
 * context: ucp.h says the operand buffer must stay unmodified until the request completes,
 * so it cannot be the issuer's stack. A slot is taken again once its request is done
 * (quiet releases finished ones; a full ring waits for its oldest). A power of two. */
enum { SSHMEM_UCX_OPERANDS = 256 };
struct ucx_operand {
    uint64_t value;
    void *req; /* the request still reading `value`, or NULL */
};

/* What a context holds for one peer. Made with the rest of its chunk (SSHMEM_PEER_CHUNK
 * consecutive PEs, core/sshmem.h) when the context first reaches one of them, so a context
 * costs a peer it never reaches only a share of one chunk pointer. */
struct tx_peer {
    ucp_ep_h ep;                          /* NULL until first use */
    ucp_rkey_h rkey[SSHMEM_NUM_REGIONS];  /* unpacked with the endpoint */
    uint8_t touched; /* since the last quiet: TOUCHED_OPS, | TOUCHED_EMULATED for global data */
};

struct sshmem_tx {
    ucp_worker_h worker;
    /* sshmem_peer_chunks(n_pes) pointers; a chunk is made under `lock` (if shared), published
     * with a release store, and lives as long as the tx. */
    struct tx_peer **peer_chunks;
    int n_reached; /* peers with an endpoint: bounds every list below */
    /* Completion bookkeeping: the peers this context sent operations to since the last quiet
     * (touched != 0, listed in pending_pes), which quiet flushes one endpoint each. Not a
     * worker-wide flush: that would also wait on the endpoints that the peers' contexts
     * opened towards this worker, and only those contexts' own progress completes them
     * (measured: a hang over tcp). The lists grow with the peers reached, never with the job:
     * pending_pes when an operation lists one more peer, the quiet's own lists in the quiet's
     * turn (a running quiet reads them without `lock`). */
    int *pending_pes;
    int pending_cap;
    int n_pending;
    int n_emulated; /* how many of them have TOUCHED_EMULATED: a fence asks in O(1) */
    /* The running quiet's share: the list it took, which of those need a probe, requests. */
    int *quieting;
    int quieting_cap;
    uint8_t *quieting_flags; /* scratch_cap entries, as reqs */
    void **reqs;
    int scratch_cap;
    int shared; /* several threads call into the worker (application threads or the progress
                   thread): hold `lock` for every access to it and to the fields above */
    int multi;  /* several application threads at once (SHMEM_THREAD_MULTIPLE): quiets also
                   take turns on quiet_lock (sshmem_tx_quiet) */
    sshmem_worker_lock_t lock; /* worker_lock.h */
    pthread_mutex_t quiet_lock;
    /* Bumped by every wait poll that progresses this worker: tells the progress thread that
     * the program is driving progress itself (progress_thread.c). Lost bumps do not matter. */
    unsigned driven;
    /* Staged transfers (ucx_staging.c), counted by completion epoch: a staged put piece or
     * _nbi get counts in stage_pending[stage_epoch] from its issue to its acknowledgement
     * (get: its last data). A quiet switches the epoch (under `lock`) and waits for the old
     * one to drain: exactly what was issued before it, even with other threads issuing
     * meanwhile. Quiets (and fences) on a context take turns, so two epochs suffice. */
    unsigned stage_epoch;
    uint64_t stage_pending[2]; /* atomics: handlers decrement them */
    struct stage_buf *stage_free; /* the pool of staging buffers (lock held) */
    unsigned stage_n_free;
    unsigned stage_out;       /* this context's staging buffers UCX still reads */
    /* The operand ring (see struct ucx_operand; lock held): next slot, slots with a request. */
    unsigned operand_next;
    unsigned operands_held;
    struct ucx_operand operands[SSHMEM_UCX_OPERANDS];
    /* Under the weak-ordering mode, the puts not given to UCX yet (ucx_late.c; lock held). */
    struct late_put *late;
    unsigned n_late;
    uint64_t late_rng;
};

extern ucp_context_h sshmem_ucx_context;

/* Messages this PE handed to UCX (every put, get, atomic and active message, whatever its
 * context): shmemx_messages_sent() reports it, so the suite can check what each collective
 * sends. Relaxed: only the count matters, not its order against other memory. */
extern uint64_t sshmem_ucx_messages;
static inline void sshmem_ucx_count_message(void)
{
    __atomic_fetch_add(&sshmem_ucx_messages, 1, __ATOMIC_RELAXED);
}

static inline void sshmem_tx_lock(struct sshmem_tx *tx)
{
    if (tx->shared)
        sshmem_worker_lock(&tx->lock);
}

static inline void sshmem_tx_unlock(struct sshmem_tx *tx)
{
    if (tx->shared)
        sshmem_worker_unlock(&tx->lock);
}

static inline void sshmem_tx_mark_driven(struct sshmem_tx *tx)
{
    __atomic_store_n(&tx->driven, __atomic_load_n(&tx->driven, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
}

SSHMEM_NORETURN SSHMEM_COLD void sshmem_ucx_fail(const char *call, const char *what,
                                                 ucs_status_t st);

/* A peer's worker address and packed rkeys, as its card gave them (kept for contexts), and
 * what this PE worked out about it once. Kept in chunks of SSHMEM_PEER_CHUNK peers made when
 * the first of them is learnt (ucx.c). */
typedef struct sshmem_ucx_card {
    void *address;
    size_t address_len;
    void *rkey[SSHMEM_NUM_REGIONS];
    size_t rkey_len[SSHMEM_NUM_REGIONS];
    uint8_t rma_emulated; /* the peer's UCX, like sshmem_ucx_rma_emulated here */
    uint8_t rma_shm;      /* and like sshmem_ucx_rma_shm */
    /* Answers cached on first use; threads racing to fill one compute the same. */
    uint8_t heap_mapping_known; /* heap_mapping is the answer (ucx_staging.c) */
    uint8_t put_add_pays;       /* 0 not asked yet, else 1 + the answer (ucx_put_add.c) */
    char *heap_mapping;
} sshmem_ucx_card_t;

/* Every transport of this PE's UCX context moves one-sided operations as messages (tcp,
 * shared memory, loopback: no RDMA, no device atomics), so every remote atomic on this PE's
 * memory is a CPU atomic, whoever issues it (ucx.c, from UCX's list of resources). */
extern int sshmem_ucx_rma_emulated;
/* One of them is a shared-memory transport (sysv, posix, cma, knem, xpmem): UCX reaches the
 * heaps of this host's other PEs through it, a put being a copy (ucx.c). */
extern int sshmem_ucx_rma_shm;

/* The table of cards (ucx_cards.c): init at start-up (-1: out of memory), free at finalize.
 * card_of: pe's card once pe is learnt (core/sshmem.h: sshmem_peer), NULL when no peer of its
 * chunk is; card_made: the same, its chunk made now if needed (while pe is learnt: peers are
 * learnt one at a time). */
int sshmem_ucx_cards_init(void);
void sshmem_ucx_cards_free(void);
sshmem_ucx_card_t *sshmem_ucx_card_of(int pe);
sshmem_ucx_card_t *sshmem_ucx_card_made(int pe);

/* Create tx's endpoint to pe and unpack pe's rkeys on it (tx's lock held if shared). */
void sshmem_ucx_connect(struct sshmem_tx *tx, int pe, const char *call);

/* ucx_privacy.c: defaults that keep other users of the host out (the user's UCX_TLS and
 * UCX_NET_DEVICES stand), for a job spanning `hosts` hosts (0: unknown)... */
void sshmem_ucx_private_config(ucp_config_t *config, int hosts);
/* ...and the SysV segments this process made, owner-only (mode 0600) once UCX returns them. */
void sshmem_ucx_private_segments(void);
/* ucx_defaults.c: UCX settings measured better than UCX's defaults (the user's stand). */
void sshmem_ucx_default_config(ucp_config_t *config, int hosts);
/* tx's entry for pe, or NULL while no peer of its chunk has been reached (tx's lock held if
 * shared, or an endpoint to pe known to exist). */
static inline struct tx_peer *sshmem_ucx_peer_if_made(struct sshmem_tx *tx, int pe)
{
    struct tx_peer *chunk =
        __atomic_load_n(&tx->peer_chunks[pe >> SSHMEM_PEER_CHUNK_BITS], __ATOMIC_ACQUIRE);
    return chunk ? chunk + (pe & (SSHMEM_PEER_CHUNK - 1)) : NULL;
}

/* tx's entry for a pe it has an endpoint to (every caller of the operations below). */
static inline struct tx_peer *sshmem_ucx_peer(struct sshmem_tx *tx, int pe)
{
    return tx->peer_chunks[pe >> SSHMEM_PEER_CHUNK_BITS] + (pe & (SSHMEM_PEER_CHUNK - 1));
}

/* tx's endpoint to pe, wired up now if this is the first use. */
static inline ucp_ep_h sshmem_ucx_ep(struct sshmem_tx *tx, int pe, const char *call)
{
    struct tx_peer *p = sshmem_ucx_peer_if_made(tx, pe);
    if (SSHMEM_UNLIKELY(!p || !p->ep)) {
        sshmem_ucx_connect(tx, pe, call);
        p = sshmem_ucx_peer(tx, pe);
    }
    return p->ep;
}

/* Room for `need` entries of `size` bytes in *list (growing *cap); fatal when out of memory.
 * Only where no thread reads *list meanwhile (see struct sshmem_tx). */
void sshmem_ucx_list_reserve(void **list, int *cap, int need, size_t size);

/* Room in the quiet's lists for n peers (tx's lock held, in the quiet's turn). */
void sshmem_ucx_quiet_reserve(struct sshmem_tx *tx, int n);

/* Allocate the chunk directory and the lock of a tx whose worker exists; -1: out of memory. */
int sshmem_ucx_tx_setup(struct sshmem_tx *tx, int shared);
/* Close every endpoint and rkey of tx, destroy its worker; force: peers may be gone. */
void sshmem_ucx_tx_teardown(struct sshmem_tx *tx, int force);

/* Free the operand slots whose requests are done (all: wait for them; tx's lock held). */
void sshmem_ucx_release_operands(struct sshmem_tx *tx, int all);

/* Complete what can still complete on tx within a short time, ignoring failures (finalize). */
void sshmem_ucx_drain(struct sshmem_tx *tx);

/* Release the workers kept from destroyed contexts (finalize). */
void sshmem_ucx_release_idle(void);

/* Wait for a request of tx to complete (called without tx's lock), then free it. */
void sshmem_ucx_wait(struct sshmem_tx *tx, void *req, const char *call);
/* Fetch the data of a rendezvous active message (desc, length bytes, from a handler) into
 * `into`; done(NULL or its request, status, length, user_data) follows, at once when UCX
 * completes it at once. `what` names the transfer in a failure. */
void sshmem_ucx_am_fetch(struct sshmem_tx *tx, void *desc, void *into, size_t length,
                         ucp_am_recv_data_nbx_callback_t done, void *user_data,
                         const char *what);
/* One poll of a wait on tx (called without tx's lock): progress tx's worker if nobody else
 * is, serve the default worker too, back off after a while. *polls counts the polls. */
void sshmem_ucx_poll(struct sshmem_tx *tx, unsigned *polls);

/* The staging service (ucx_staging.c). Setup registers its active-message handlers on tx's
 * worker; release frees its pool (teardown). idle: nothing staged is outstanding on tx.
 * complete: every staged transfer issued on tx so far is in place (quiet and fence call it
 * in their turn: tx->quiet_lock held when tx->multi). */
void sshmem_ucx_staging_setup(struct sshmem_tx *tx);
void sshmem_ucx_staging_release(struct sshmem_tx *tx);
int sshmem_ucx_staging_idle(struct sshmem_tx *tx);
void sshmem_ucx_staging_complete(struct sshmem_tx *tx);

/* Where pe's heap starts in our address space when UCX reaches it through shared memory,
 * NULL otherwise (ucx_staging.c; asked of UCX once per PE). */
char *sshmem_ucx_heap_mapping(int pe);

/* Register the handler of collectives' put-with-signal messages on tx's worker
 * (ucx_put_add.c). */
void sshmem_ucx_put_add_setup(struct sshmem_tx *tx);
/* With the default worker's lock (or the worker not shared): apply the held messages whose
 * gates are open, if any are held (one load when none); returns how many (ucx_put_add.c). */
unsigned sshmem_ucx_release_open(void);
/* Free the messages still held (none, unless the PEs' collective calls did not match: that
 * is reported), once no handler can run any more (finalize, after the worker is gone). */
void sshmem_ucx_put_add_release(void);

/* The weak-ordering mode's held puts (ucx_late.c; tx's lock held). hold: under the mode,
 * keep a copy of the put instead of issuing it and return 1; otherwise 0. release: issue
 * those to pe (-1: to every PE), in a random order (before a flush of pe's endpoint or a get from pe). tick: a
 * poll's chance for each. discard: drop them (teardown). */
int sshmem_ucx_late_hold(struct sshmem_tx *tx, int pe, enum sshmem_region region,
                         uint64_t raddr, const void *src, size_t len);
void sshmem_ucx_late_release(struct sshmem_tx *tx, int pe);
void sshmem_ucx_late_tick(struct sshmem_tx *tx);
void sshmem_ucx_late_discard(struct sshmem_tx *tx);

/* Progress thread, for finalize and for whether the default worker needs its lock. */
void sshmem_ucx_progress_thread_stop(void);

#endif
