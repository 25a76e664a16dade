/*
 * ucx_put_add.c: a collective's data and its signal as ONE active message, where UCX has no
 * RDMA to the peer.
 *
 * Over tcp (and any network without RDMA) UCX emulates one-sided operations with messages: a
 * put is a message that the target's progress applies and acknowledges, an atomic too, and
 * the fence that orders the data before the signal waits for the put's acknowledgement. A
 * collective step (data, then a signal that the receiver waits for) thus costs a round trip
 * and four messages, where MPI's eager send costs one message. Here the step is one message:
 * the header says where the data goes and which flag to raise; the target's handler copies
 * the data, then adds to the flag.
 *
 * Atomicity: the handler raises the flag with a CPU atomic. That is safe only where every
 * other update of that flag is a CPU atomic too: UCX's emulated atomics are applied by the
 * target's CPU, shared-memory ones as well, but a NIC's are not atomic with them. So both
 * ends must have only transports without RDMA (sshmem_ucx_rma_emulated, carried in the
 * cards). A NIC atomic needs the target's NIC, so a target without one takes no NIC atomics,
 * and a target with one never takes these messages.
 *
 * Arrival: an eager message (up to PUT_ADD_EAGER_MAX) brings its data, copied in the
 * handler; a larger one arrives as a rendezvous descriptor, and the data is fetched straight
 * into place with ucp_am_recv_data_nbx, the flag raised when it is in. Handlers run on the
 * default worker, served by the PE's waits and by the progress thread (as ucx_staging.c's).
 *
 * Gates. A collective's member may run calls ahead of a slow target and write into the sync
 * area the target will use for that later call (coll/engine.h, "Early return"). Over shared
 * memory or RDMA the writer must first see that the target has left the call that last used
 * that area (a UCX get of its progress word over a network). A message instead carries that
 * condition, the gate: the target applies it at once if its progress word has reached the
 * gate's value, else it holds the message (a copy, held.h) and applies it when the word gets
 * there (sshmem_tx_release_held, right after the target raises the word). So members run as
 * far ahead as the target will hold for them (SSHMEM_COLL_HOLD), as MPI's eager messages do,
 * and nobody waits for a round trip. The root's socket then takes several messages per TCP
 * segment, as Open MPI's does, instead of paying for one segment per message on both ends.
 * The race between a handler holding a message (on the progress thread) and the owner raising
 * the word: the handler counts the message, then rereads the word, and applies it if the
 * word got there meanwhile; the owner raises the word, then reads the count (no fence on
 * either side: one on every collective call cost a quarter of a small gatherv through UCX's
 * shared memory). Should the owner's read miss the count
 * and the handler's reread miss the word, the message stays held with its gate open for a
 * moment: every poll of a wait looks at the count (sshmem_ucx_release_open, from
 * sshmem_tx_progress), and the owner can only be waiting for that message, in that very
 * call, by polling.
 * A held eager message is a copy; a held rendezvous message is UCX's descriptor (the data
 * stays at its sender, whose request completes once the target has fetched it).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/env.h"
#include "core/error.h"
#include "core/team_math.h"
#include "transport/held.h"
#include "transport/ucx_tx.h"

/* Messages up to this size go by UCX's eager protocol, even past UCX's own rendezvous
 * threshold: over tcp a rendezvous costs handshakes that take longer than the copy out of
 * UCX's receive buffer. Larger ones (whole 1 MiB blocks of the gather family, several at one
 * target) keep the rendezvous: forced eager, they were four times slower. The reductions'
 * pieces stay below it (they are cut to the landing buffer). Figures: doc/performance.md. */
#define PUT_ADD_EAGER_MAX (256 * 1024)

typedef struct put_add_hdr {
    uint64_t raddr;      /* where the data goes, in the target's address space */
    uint64_t flag_raddr; /* the long to add to, after the data */
    int64_t amount;
    uint64_t gate_raddr; /* 0, or the long that must have reached open_at first (Gates) */
    int64_t open_at;
} put_add_hdr_t;

/* A message held until its gate opens: eager, with a copy of its data; rendezvous, with
 * UCX's descriptor of it. */
typedef struct held_put_add {
    sshmem_held_t held; /* first: the set hands back this pointer */
    put_add_hdr_t h;
    void *desc;         /* a rendezvous message's descriptor, or NULL */
    size_t len;
    char data[];
} held_put_add_t;

/* The messages this PE holds: touched under the default worker's lock (its handlers run
 * under it), their number also read without it (sshmem_tx_gates_raised). */
static sshmem_held_set_t held;
unsigned long sshmem_tx_held;

/* Entries of held messages with at most POOLED_DATA bytes of data (a small block and its
 * header) are kept for the next ones instead of freed, up to POOL_MAX of them: a gatherv root
 * over tcp holds most of its members' messages, and malloc and free showed in its profile.
 * Under the default worker's lock, as the set. */
#define POOLED_DATA 96
#define POOL_MAX 4096
static held_put_add_t *pool; /* linked through held.next */
static unsigned pooled;

static size_t copied_of(const held_put_add_t *m) { return m->desc ? 0 : m->len; }

static held_put_add_t *new_entry(size_t copied)
{
    if (copied > POOLED_DATA)
        return malloc(sizeof(held_put_add_t) + copied);
    held_put_add_t *m = pool;
    if (!m)
        return malloc(sizeof *m + POOLED_DATA);
    pool = (held_put_add_t *)m->held.next;
    pooled--;
    return m;
}

static void free_entry(held_put_add_t *m)
{
    if (copied_of(m) > POOLED_DATA || pooled == POOL_MAX) {
        free(m);
        return;
    }
    m->held.next = (sshmem_held_t *)pool;
    pool = m;
    pooled++;
}

/* Whether pe is on this host and both ends' UCX have a shared-memory transport: a put to it
 * is then a copy (cma into its heap's memory file), as team_traits.c assumes when it lets no
 * team of one host use messages. Asked of the host, not of a UCX mapping of pe's heap: UCX
 * only registers the heap (heap/heap.c), so it has none. A peer whose heap this PE maps
 * (sshmem_peer_maps, the direct path) never gets messages either, whatever UCX has (tcp,self
 * included): its collectives use loads and stores, and a message there would mix with them
 * and wait for a target that may drive no UCX progress. */
static int same_host_shm(int pe, const sshmem_ucx_card_t *card)
{
    const int per_host = sshmem.node_ids_per_host ? sshmem.node_ids_per_host : 1;
    return card->rma_shm && sshmem_ucx_rma_shm &&
           sshmem_node_of(pe) / per_host == sshmem.my_node / per_host;
}

int sshmem_tx_put_add_pays(int pe)
{
    if (!sshmem_env.coll_messages || !sshmem_ucx_rma_emulated)
        return 0;
    /* Asked at every step of a collective through UCX: the answer is kept with pe's card
     * (0 not known yet, else 1 + the answer); threads racing to fill it compute the same. */
    (void)sshmem_peer(pe); /* its card: the same answer at both ends needs it */
    sshmem_ucx_card_t *card = sshmem_ucx_card_of(pe);
    const uint8_t k = __atomic_load_n(&card->put_add_pays, __ATOMIC_RELAXED);
    if (k)
        return k - 1;
    const int pays = card->rma_emulated && !sshmem_peer_maps(pe, SSHMEM_REGION_HEAP) &&
                     !same_host_shm(pe, card);
    __atomic_store_n(&card->put_add_pays, (uint8_t)(1 + pays), __ATOMIC_RELAXED);
    return pays;
}

unsigned sshmem_tx_traits(void)
{
    return (sshmem_ucx_rma_emulated ? 0 : SSHMEM_TX_RDMA) |
           (sshmem_ucx_rma_shm ? SSHMEM_TX_SHM : 0) |
           (sshmem_env.coll_messages ? 0 : SSHMEM_TX_NO_MESSAGES);
}

/* Send a put-add message with header hdr (kept in *later while it is in flight). */
static void send_put_add(struct sshmem_tx *tx, int pe, const put_add_hdr_t *hdr, const void *src,
                         size_t len, sshmem_tx_put_add_req_t *later)
{
    _Static_assert(sizeof(put_add_hdr_t) == sizeof later->hdr, "a request keeps a header");
    const size_t hdr_len = sizeof *hdr;
    /* UCX reads the header and the data until the request completes: both stay alive, here
     * or in *later. */
    const put_add_hdr_t *h = hdr;
    if (later) {
        memcpy(later->hdr, hdr, hdr_len);
        h = (const put_add_hdr_t *)later->hdr;
    }
    ucp_request_param_t param = {0};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = len <= PUT_ADD_EAGER_MAX ? UCP_AM_SEND_FLAG_EAGER : 0;
    sshmem_tx_lock(tx);
    ucp_ep_h ep = sshmem_ucx_ep(tx, pe, "a collective");
    sshmem_ucx_count_message();
    void *req = ucp_am_send_nbx(ep, AM_PUT_ADD, h, hdr_len, src, len, &param);
    sshmem_tx_unlock(tx);
    if (later) {
        if (UCS_PTR_IS_ERR(req))
            sshmem_ucx_fail("a collective's data", "operation", UCS_PTR_STATUS(req));
        later->req = req;
        return;
    }
    sshmem_ucx_wait(tx, req, "a collective's data");
}

void sshmem_tx_put_add(struct sshmem_tx *tx, int pe, uint64_t raddr, const void *src, size_t len,
                       uint64_t flag_raddr, long amount, const sshmem_tx_gate_t *gate,
                       sshmem_tx_put_add_req_t *later)
{
    const put_add_hdr_t hdr = {.raddr = raddr,
                               .flag_raddr = flag_raddr,
                               .amount = amount,
                               .gate_raddr = gate ? gate->word_raddr : 0,
                               .open_at = gate ? gate->open_at : 0};
    send_put_add(tx, pe, &hdr, src, len, later);
}

void sshmem_tx_put_add_finish(struct sshmem_tx *tx, sshmem_tx_put_add_req_t *later)
{
    sshmem_ucx_wait(tx, later->req, "a collective's data");
    later->req = NULL;
}

static void raise_flag(const put_add_hdr_t *h)
{
    /* release: the data before the flag that announces it */
    __atomic_fetch_add((long *)(uintptr_t)h->flag_raddr, (long)h->amount, __ATOMIC_RELEASE);
}

/* The data of a rendezvous message is in place. */
static void fetched(void *req, ucs_status_t st, size_t length, void *user_data)
{
    put_add_hdr_t *h = user_data;
    if (st != UCS_OK)
        sshmem_ucx_fail("a collective", "rendezvous receive", st);
    raise_flag(h);
    free(h);
    if (req)
        ucp_request_free(req);
}

/* An eager message whose gate is open: its data into place, then its flag. */
static void apply(const put_add_hdr_t *h, const void *data, size_t length)
{
    if (length) /* (a signal alone, coll_add, names no address) */
        memcpy((void *)(uintptr_t)h->raddr, data, length);
    raise_flag(h);
}

/* A rendezvous message whose gate is open: fetch its data (desc) into place; the flag
 * follows (fetched). */
static void fetch(struct sshmem_tx *tx, const put_add_hdr_t *h, void *desc, size_t length)
{
    put_add_hdr_t *keep = malloc(sizeof *keep);
    if (!keep)
        sshmem_fatal("a collective", "out of memory for an incoming transfer");
    *keep = *h;
    sshmem_ucx_am_fetch(tx, desc, (void *)(uintptr_t)h->raddr, length, fetched, keep,
                        "a collective");
}

/* Apply every held message whose gate is open; returns how many. Under the default worker's
 * lock. */
static unsigned release_open(void)
{
    held_put_add_t *m;
    unsigned applied = 0;
    while ((m = (held_put_add_t *)sshmem_held_take_open(&held))) {
        if (m->desc)
            fetch(sshmem_tx_default(), &m->h, m->desc, m->len);
        else
            apply(&m->h, m->data, m->len);
        free_entry(m);
        applied++;
    }
    if (applied) /* (unchanged otherwise: every poll of a wait may come here) */
        __atomic_store_n(&sshmem_tx_held, held.count, __ATOMIC_RELEASE);
    return applied;
}

unsigned sshmem_ucx_release_open(void)
{
    return __atomic_load_n(&sshmem_tx_held, __ATOMIC_RELAXED) ? release_open() : 0;
}

void sshmem_tx_release_held(void)
{
    struct sshmem_tx *tx = sshmem_tx_default();
    sshmem_tx_lock(tx);
    release_open();
    sshmem_tx_unlock(tx);
}

/* At the end (the worker is gone, and any descriptor with it). */
static void drop_held(sshmem_held_t *m) { free_entry((held_put_add_t *)m); }

void sshmem_ucx_put_add_release(void)
{
    if (held.count) /* messages of calls this PE never made: the PEs' calls did not match */
        sshmem_warn("shmem_finalize", "%zu messages of MPI-style collective calls that this PE "
                    "did not make were dropped: every PE of a team must make the same "
                    "collective calls on it, in the same order", held.count);
    sshmem_held_clear(&held, drop_held);
    __atomic_store_n(&sshmem_tx_held, 0, __ATOMIC_SEQ_CST);
    while (pool) {
        held_put_add_t *m = pool;
        pool = (held_put_add_t *)m->held.next;
        free(m);
    }
    pooled = 0;
}

/* A message whose gate is closed: keep a copy of an eager one's data, a rendezvous one's
 * descriptor (Gates). */
static void hold(const put_add_hdr_t *h, void *desc, const void *data, size_t length)
{
    const size_t copied = desc ? 0 : length;
    held_put_add_t *m = new_entry(copied);
    if (!m)
        sshmem_fatal("a collective", "out of memory for a message from a PE running calls "
                     "ahead (%zu messages held; SSHMEM_COLL_HOLD limits them)", held.count);
    m->held.word = (const long *)(uintptr_t)h->gate_raddr;
    m->held.open_at = (long)h->open_at;
    m->h = *h;
    m->desc = desc;
    m->len = length;
    if (copied)
        memcpy(m->data, data, copied);
    if (sshmem_held_add(&held, &m->held) != 0)
        sshmem_fatal("a collective", "out of memory for a queue of held messages");
    /* No fence between the count and the reread of the word (the owner has none either, see
     * the top): a miss on both sides leaves the message for the owner's next poll. The fence
     * was most of this function's time in a tcp gatherv root, which holds most of its
     * members' messages. */
    __atomic_store_n(&sshmem_tx_held, held.count, __ATOMIC_RELEASE);
    /* The word was raised meanwhile: apply at once. A descriptor waits for the next poll
     * (sshmem_ucx_release_open), outside the handler that is still deciding its fate. */
    if (!desc && sshmem_held_open(&m->held))
        release_open();
}

static ucs_status_t on_put_add(void *arg, const void *header, size_t header_len, void *data,
                               size_t length, const ucp_am_recv_param_t *param)
{
    struct sshmem_tx *tx = arg;
    put_add_hdr_t h;
    if (header_len != sizeof h)
        sshmem_fatal("a collective", "a message with a %zu-byte header (expected %zu)",
                     header_len, sizeof h);
    memcpy(&h, header, header_len);
    const int closed = h.gate_raddr && __atomic_load_n((const long *)(uintptr_t)h.gate_raddr,
                                                       __ATOMIC_ACQUIRE) < (long)h.open_at;
    if (!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        if (closed)
            hold(&h, NULL, data, length);
        else
            apply(&h, data, length);
        return UCS_OK;
    }
    if (closed) {
        hold(&h, data, NULL, length);
        return UCS_INPROGRESS; /* the descriptor stays ours until fetched or released */
    }
    fetch(tx, &h, data, length);
    return UCS_OK;
}

void sshmem_ucx_put_add_setup(struct sshmem_tx *tx)
{
    ucp_am_handler_param_t hp = {0};
    hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                    UCP_AM_HANDLER_PARAM_FIELD_ARG;
    hp.id = AM_PUT_ADD;
    hp.cb = on_put_add;
    hp.arg = tx;
    ucs_status_t st = ucp_worker_set_am_recv_handler(tx->worker, &hp);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_init", "active message handler registration", st);
}
