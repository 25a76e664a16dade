/*
 * transport.h: the UCX transport, seen from the rest of sshmem. Only src/transport/ includes
 * ucp.h; everything else speaks in PEs, regions and remote addresses.
 *
 * Start-up order: sshmem_tx_init -> sshmem_tx_register (heap, global data) ->
 * sshmem_tx_card (publish) -> sshmem_tx_progress_thread_init. A peer's card is handed over
 * (sshmem_tx_connect) when the program first talks to it (heap/peers.c), at any time and
 * from any thread, one peer at a time. On-node views of a peer's memory are the heap layer's
 * (heap/memfile.h), not UCX's.
 *
 * A struct sshmem_tx is the transport state of one communication context: the default one
 * (sshmem_tx_default) or one per shmem_ctx_create (sshmem_tx_create). Each has a UCX worker
 * of its own, so quiet on one completes that context's operations only.
 */
#ifndef SSHMEM_TRANSPORT_H
#define SSHMEM_TRANSPORT_H
#include <stddef.h>
#include <stdint.h>

#include "core/copy_plan.h"
#include "core/cpu_amo.h"
#include "core/sshmem.h"


/* `hosts`: how many hosts the job spans (0: unknown); a one-host job needs no network. */
void sshmem_tx_init(int thread_multiple, int hosts);
/* Register memory we already have (the heap's and the global data's memory files) for
 * access through UCX. */
void sshmem_tx_register(enum sshmem_region region, void *base, size_t size);
/* The heap allocated by UCX itself, registered, at `at` (a reserved range of size bytes)
 * when UCX can place it there, else anywhere (at is then given back); fatal on failure.
 * Only for SSHMEM_LOCAL=ucx: UCX's shared-memory transports then reach it one-sided (put,
 * get and atomics as a NIC would), which they cannot on memory they only registered. */
void *sshmem_tx_heap_alloc(void *at, size_t size);
/* This PE's card: worker address and packed rkeys. malloc'ed; caller frees. */
void *sshmem_tx_card(size_t *len);
/* Take a peer's card (worker address, packed rkeys); its endpoint comes with first use. */
void sshmem_tx_connect(int pe, const void *card, size_t len);
/* A load/store pointer to the peer's region at remote address raddr, or NULL if UCX cannot
 * give one (a peer on another host, or a transport without shared memory). Makes the default
 * context's endpoint to pe if there is none yet (takes that context's lock). */
void *sshmem_tx_direct_ptr(int pe, enum sshmem_region region, uint64_t raddr);

/* How many messages (puts, gets, atomics, active messages) this PE handed to UCX so far. */
uint64_t sshmem_tx_messages_sent(void);

/* One-sided operations; raddr is in the peer's address space. */
void sshmem_tx_put(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                   const void *src, size_t len, int blocking);
/* sshmem_tx_put (blocking), then an 8-byte stamp to stamp_raddr on pe in the same region,
 * ordered after the data and everything issued before it by sshmem_tx_fence itself (one
 * mechanism): a collective's stamped block (coll/engine.h, coll_put_stamped). A stamp word
 * inside [raddr, raddr + len) is left out of the data: only the stamp writes it. */
void sshmem_tx_put_stamped(struct sshmem_tx *tx, int pe, enum sshmem_region region,
                           uint64_t raddr, const void *src, size_t len, uint64_t stamp_raddr,
                           uint64_t stamp);
void sshmem_tx_get(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                   void *dst, size_t len, int blocking);
/* An atomic of 4 or 8 bytes. With fetch set, returns the old value (also for swap/cswap). */
uint64_t sshmem_tx_amo(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                       sshmem_amo_op_t op, size_t size, uint64_t operand, uint64_t compare,
                       int fetch);
/* A collective's signal: a non-fetching add to a counting flag that no quiet waits for. The
 * wait at the target is what observes it; nothing else needs it complete, and a quiet that
 * flushed it (shmem_barrier_all's, before its own signals) cost a network round trip per
 * barrier. Ordered after earlier puts to the same PE by sshmem_tx_fence, as any operation. */
void sshmem_tx_signal_add(struct sshmem_tx *tx, int pe, enum sshmem_region region,
                          uint64_t raddr, long amount);
/* A collective's data and its signal as ONE message (ucx_put_add.c): len bytes from src to
 * raddr on pe, then amount added to the long at flag_raddr there, applied by pe's progress in
 * that order. Returns with src reusable; like sshmem_tx_signal_add, no quiet waits for it.
 * Only where sshmem_tx_put_add_pays(pe) says so: UCX emulates one-sided operations to pe (no
 * RDMA on either side, pe's heap not mapped through shared memory), where a put and a signal
 * would be two messages with a round trip between them. Fixed per peer for the job. */
int sshmem_tx_put_add_pays(int pe);
/* What decides whether a set of PEs reaches itself by messages that the target's CPU
 * applies, with copies costing on both ends (tcp), as bits of this PE to OR over the set: it
 * does when the OR has neither SSHMEM_TX_RDMA nor SSHMEM_TX_NO_MESSAGES (no member's UCX has
 * RDMA), and the set spans several nodes or the OR has no SSHMEM_TX_SHM (no member's UCX has
 * shared memory, which makes a put one copy). The OR over a team is agreed once (team/
 * team_traits.c), so no PE has to learn every member's card, and collectives may choose an
 * algorithm by the answer: every member has the same. */
#define SSHMEM_TX_RDMA 1u        /* this PE's UCX has RDMA or device atomics */
#define SSHMEM_TX_SHM 2u         /* it has a shared-memory transport */
#define SSHMEM_TX_NO_MESSAGES 4u /* collectives may not use messages (SSHMEM_COLL_MESSAGES=0) */
unsigned sshmem_tx_traits(void);
/* gate: NULL, or the condition for applying the message at pe: its long at word_raddr (a
 * team's progress word) has reached open_at. Until then pe holds the message (ucx_put_add.c,
 * "Gates"), so the sender need not wait for pe to get there.
 * later: NULL to return with src reusable. Otherwise the message may stay in flight
 * (later->req set): UCX reads its header (kept in *later) and src until
 * sshmem_tx_put_add_finish(tx, later), so several large blocks travel at once. */
typedef struct sshmem_tx_gate {
    uint64_t word_raddr;
    long open_at;
} sshmem_tx_gate_t;
typedef struct sshmem_tx_put_add_req {
    uint64_t hdr[5];
    void *req;
} sshmem_tx_put_add_req_t;
void sshmem_tx_put_add(struct sshmem_tx *tx, int pe, uint64_t raddr, const void *src, size_t len,
                       uint64_t flag_raddr, long amount, const sshmem_tx_gate_t *gate,
                       sshmem_tx_put_add_req_t *later);
void sshmem_tx_put_add_finish(struct sshmem_tx *tx, sshmem_tx_put_add_req_t *later);
/* After this PE raised a word that gates messages (a team's progress word, with a release
 * store): apply the messages it held whose gates are now open. One load. No fence: a message
 * that a handler on another thread holds meanwhile, unseen by this load, is applied by the
 * next poll of any wait (sshmem_tx_progress looks too), and a PE observes its collectives'
 * messages only by waiting (ucx_put_add.c, "Gates"). */
extern unsigned long sshmem_tx_held; /* messages held (ucx_put_add.c) */
void sshmem_tx_release_held(void);
static inline void sshmem_tx_gates_raised(void)
{
    if (__atomic_load_n(&sshmem_tx_held, __ATOMIC_RELAXED))
        sshmem_tx_release_held();
}
/* An atomic whose old value lands in *fetch_out at the next quiet (the _nbi forms). */
void sshmem_tx_amo_nbi(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                       sshmem_amo_op_t op, size_t size, uint64_t operand, uint64_t compare,
                       void *fetch_out);

/*
 * Non-contiguous transfers as packed messages (ucx_staging.c), for peers reached through
 * UCX. A put packs count elements of src_plan at src_origin and has the target unpack them
 * with dst_plan at raddr (an address in the target's own space): it returns with the source
 * reusable; quiet returns once the data is in place. A get does the reverse; a blocking one
 * returns with the data in place, an _nbi one completes at quiet. Both plans hold the same
 * packed bytes per element. staging_pays says whether this beats one put per run to pe's
 * region: enough runs (SSHMEM_STAGE_MIN_RUNS, or _SHM where UCX reaches pe's heap through
 * shared memory), short ones, and a plan that fits in a message header. region is the
 * region raddr lies in: where UCX maps pe's heap through shared memory, both are one strided
 * copy through that mapping instead (SSHMEM_STAGE_MAPPED).
 */
int sshmem_tx_staging_pays(int pe, enum sshmem_region region, const copy_plan_t *local,
                           const copy_plan_t *remote, size_t count);
void sshmem_tx_put_plan(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                        const copy_plan_t *dst_plan, const void *src_origin,
                        const copy_plan_t *src_plan, size_t count);
void sshmem_tx_get_plan(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                        const copy_plan_t *src_plan, void *dst_origin,
                        const copy_plan_t *dst_plan, size_t count, int blocking);

/* Complete every operation issued on tx (quiet), or order them (fence). */
void sshmem_tx_quiet(struct sshmem_tx *tx);
/* A quiet that also completes the collectives' signals (sshmem_tx_signal_add): every
 * endpoint is flushed. For the end of the job (sshmem_tx_drain). */
void sshmem_tx_quiet_all(struct sshmem_tx *tx);
void sshmem_tx_fence(struct sshmem_tx *tx);
/* Complete every operation issued on tx to the PEs pes[0..n) (world numbers; duplicates
 * allowed): one endpoint flush each, not the whole context (shmem_pe_quiet, put_signal). */
void sshmem_tx_quiet_pes(struct sshmem_tx *tx, const int *pes, size_t n);
/* Make progress on incoming emulated operations (called from waits). Peers send to this
 * PE's default worker only, so that is the one it progresses. Nonzero when it moved
 * something (a wait that moved messages does not give its CPU away, sync/wait.h). */
unsigned sshmem_tx_progress(void);

/* Under the weak-ordering mode: give UCX the puts of sshmem's own that were held longer than a
 * few milliseconds (transport/ucx_late.c); the mode's thread calls it. */
void sshmem_tx_release_late(void);

/* The default context's transport state. */
struct sshmem_tx *sshmem_tx_default(void);

/* A new context's transport state, with a worker of its own. shared: several threads may use
 * it at the same time; private_to_thread: only the calling thread will. NULL when UCX has no
 * resources for another worker (context creation then fails and may be retried). */
struct sshmem_tx *sshmem_tx_create(int shared, int private_to_thread);
/* Complete every operation issued on tx (quiet), then release it. */
void sshmem_tx_destroy(struct sshmem_tx *tx);

/* Start the progress thread when SSHMEM_PROGRESS_THREAD asks for it, or by default when some
 * peer is reached through UCX (sshmem.ucx_in_use). Call once every peer is connected. */
void sshmem_tx_progress_thread_init(void);

/* Complete the default context's last operations (shmem_finalize's own barrier flags) while
 * every peer is still alive: called before the final start-up-layer fence, so no flush is
 * left for sshmem_tx_finalize to aim at a peer that may have gone (UCX then reports an
 * "Endpoint timeout" over tcp between hosts). */
void sshmem_tx_drain(void);

/* Stop the progress thread, release the default context's worker and UCX. Contexts from
 * sshmem_tx_create must be destroyed first. */
void sshmem_tx_finalize(void);
/* Versions and transports, for SHMEM_INFO. */
const char *sshmem_tx_version(void);
/* The UCX-version workarounds in use (transport/ucx_quirks.h), for SHMEM_INFO. */
const char *sshmem_tx_workarounds(void);

#endif
