/*
 * ucx_ops.c: one-sided operations, completion and progress on a context's worker.
 *
 * Requests nobody waits for (put_nbi, get_nbi) are released at once: UCX keeps them going,
 * and quiet's endpoint flushes complete every operation issued before them, at the origin too
 * (gets and fetches have landed), per ucp_ep_flush_nbx's contract. Their buffers are the
 * user's, who may not touch them before quiet. Atomics nobody waits for have an operand that
 * the library made, so it keeps operand and request in the context's ring (ucx_tx.h) until
 * the request is done. Besides that a context keeps only which peers it talked to since the
 * last quiet.
 *
 * Shared workers (ucx_tx.h): every block below that touches the worker or the bookkeeping
 * holds tx->lock; waits progress only when they get it at once (trylock).
 */
#include <sched.h>
#include <string.h>
#include <time.h>

#include "core/env.h"
#include "core/error.h"
#include "transport/ucx_quirks.h"
#include "transport/ucx_tx.h"

/* ------------------------------------------------------------------ requests */

/* Between two polls of a wait: nothing at first, then give the CPU away (there are often more
 * PEs than cores, and the PE that must answer may need ours; core/wait_policy.c), unless the
 * poll moved messages: a transfer under way (a large block over tcp) then goes on at once. */
static inline void backoff(unsigned *polls, unsigned moved)
{
    if (++*polls > sshmem.wait_spin && !moved)
        sched_yield();
}

void sshmem_ucx_poll(struct sshmem_tx *tx, unsigned *polls)
{
    /* On a shared worker, progress only when nobody else is: whoever holds the lock is
     * progressing it (or about to), and waiting for it would only take turns with them. */
    unsigned moved = 0;
    if (!tx->shared) {
        moved = ucp_worker_progress(tx->worker);
    } else {
        sshmem_tx_mark_driven(tx);
        if (sshmem_worker_trylock(&tx->lock)) {
            moved = ucp_worker_progress(tx->worker);
            sshmem_worker_unlock(&tx->lock);
        }
    }
    /* While a context waits, peers may be waiting on us: serve them too (the default worker;
     * a progress thread, if any, may have it at the moment, then it serves them). */
    if (tx != sshmem_tx_default())
        moved += sshmem_tx_progress();
    backoff(polls, moved);
}

void sshmem_ucx_wait(struct sshmem_tx *tx, void *req, const char *call)
{
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        sshmem_ucx_fail(call, "operation", UCS_PTR_STATUS(req));
    unsigned polls = 0;
    ucs_status_t st;
    /* The request is ours until freed: its status is read without the lock. */
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS)
        sshmem_ucx_poll(tx, &polls);
    sshmem_tx_lock(tx);
    ucp_request_free(req);
    sshmem_tx_unlock(tx);
    if (st != UCS_OK)
        sshmem_ucx_fail(call, "operation", st);
}

void sshmem_ucx_am_fetch(struct sshmem_tx *tx, void *desc, void *into, size_t length,
                         ucp_am_recv_data_nbx_callback_t done, void *user_data,
                         const char *what)
{
    ucp_request_param_t param = {0};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    param.cb.recv_am = done;
    param.user_data = user_data;
    void *req = ucp_am_recv_data_nbx(tx->worker, desc, into, length, &param);
    if (UCS_PTR_IS_ERR(req))
        sshmem_ucx_fail(what, "rendezvous receive", UCS_PTR_STATUS(req));
    if (req == NULL) /* completed at once: no callback comes */
        done(NULL, UCS_OK, length, user_data);
}

/* Release a request nobody waits for (tx's lock held); quiet's flush completes it. */
static void release_request(void *req, const char *call)
{
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        sshmem_ucx_fail(call, "operation", UCS_PTR_STATUS(req));
    ucp_request_free(req);
}

/* Note an operation to pe for quiet (tx's lock held): a load, a compare, a store. */
static inline void count_op(struct sshmem_tx *tx, int pe, enum sshmem_region region)
{
    struct tx_peer *p = sshmem_ucx_peer(tx, pe);
    uint8_t was = p->touched;
    if (was == 0)
        tx->pending_pes[tx->n_pending++] = pe;
    if (region == SSHMEM_REGION_DATA) {
        tx->n_emulated += !(was & TOUCHED_EMULATED);
        p->touched = was | TOUCHED_OPS | TOUCHED_EMULATED;
    } else {
        p->touched = was | TOUCHED_OPS;
    }
}

static ucp_rkey_h rkey_of(struct sshmem_tx *tx, int pe, enum sshmem_region region)
{
    ucp_rkey_h rkey = sshmem_ucx_peer(tx, pe)->rkey[region];
    if (SSHMEM_UNLIKELY(!rkey))
        sshmem_fatal("sshmem", "PE %d's %s is not registered with UCX", pe,
                     region == SSHMEM_REGION_HEAP ? "heap" : "global data");
    return rkey;
}

/* ------------------------------------------------------------------ one-sided operations */

void sshmem_tx_put(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                   const void *src, size_t len, int blocking)
{
    ucp_request_param_t param = {0};
    sshmem_tx_lock(tx);
    ucp_ep_h ep = sshmem_ucx_ep(tx, pe, "shmem_put");
    if (SSHMEM_UNLIKELY(sshmem_env.weak) &&
        sshmem_ucx_late_hold(tx, pe, region, raddr, src, len)) {
        count_op(tx, pe, region);
        sshmem_tx_unlock(tx);
        return;
    }
    sshmem_ucx_count_message();
    void *req = ucp_put_nbx(ep, src, len, raddr, rkey_of(tx, pe, region), &param);
    count_op(tx, pe, region);
    if (!blocking)
        release_request(req, "shmem_put_nbi");
    sshmem_tx_unlock(tx);
    if (blocking)
        sshmem_ucx_wait(tx, req, "shmem_put");
}

/* A piece of a stamped block (tx's lock held): held under the weak-ordering mode, else issued,
 * its request (if any) going to reqs[(*n)++]. */
static void put_piece(struct sshmem_tx *tx, ucp_ep_h ep, int pe, enum sshmem_region region,
                      uint64_t raddr, const char *src, size_t len, void **reqs, int *n)
{
    ucp_request_param_t param = {0};
    if (SSHMEM_UNLIKELY(sshmem_env.weak) &&
        sshmem_ucx_late_hold(tx, pe, region, raddr, src, len))
        return;
    sshmem_ucx_count_message();
    reqs[(*n)++] = ucp_put_nbx(ep, src, len, raddr, rkey_of(tx, pe, region), &param);
}

/* Put [raddr, raddr + len) from src through ep, leaving out the stamp word when it lies inside
 * (tx's lock held): only the stamp ever writes it, so a data put that lands late cannot set
 * it back. Returns how many requests it left in reqs (at most 2). */
static int put_around_stamp(struct sshmem_tx *tx, ucp_ep_h ep, int pe,
                            enum sshmem_region region, uint64_t raddr, const char *src,
                            size_t len, uint64_t stamp_raddr, void **reqs)
{
    size_t head = len, tail = len;
    int n = 0;
    if (len >= sizeof(uint64_t) && stamp_raddr >= raddr &&
        stamp_raddr - raddr <= len - sizeof(uint64_t)) {
        head = stamp_raddr - raddr;
        tail = head + sizeof(uint64_t);
    }
    if (head)
        put_piece(tx, ep, pe, region, raddr, src, head, reqs, &n);
    if (tail < len)
        put_piece(tx, ep, pe, region, raddr + tail, src + tail, len - tail, reqs, &n);
    return n;
}

void sshmem_tx_put_stamped(struct sshmem_tx *tx, int pe, enum sshmem_region region,
                           uint64_t raddr, const void *src, size_t len, uint64_t stamp_raddr,
                           uint64_t stamp)
{
    void *data[2];
    sshmem_tx_lock(tx);
    ucp_ep_h ep = sshmem_ucx_ep(tx, pe, "a collective");
    int n = put_around_stamp(tx, ep, pe, region, raddr, src, len, stamp_raddr, data);
    if (len)
        count_op(tx, pe, region);
    sshmem_tx_unlock(tx);
    /* The one fence of the transport, whatever it takes on this UCX (sshmem_tx_fence). */
    sshmem_tx_fence(tx);
    sshmem_tx_put(tx, pe, region, stamp_raddr, &stamp, sizeof stamp, 1);
    for (int i = 0; i < n; i++)
        sshmem_ucx_wait(tx, data[i], "a collective's data");
}

void sshmem_tx_get(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                   void *dst, size_t len, int blocking)
{
    ucp_request_param_t param = {0};
    sshmem_tx_lock(tx);
    ucp_ep_h ep = sshmem_ucx_ep(tx, pe, "shmem_get");
    if (SSHMEM_UNLIKELY(tx->late)) /* a PE reads its own writes */
        sshmem_ucx_late_release(tx, pe);
    sshmem_ucx_count_message();
    void *req = ucp_get_nbx(ep, dst, len, raddr, rkey_of(tx, pe, region), &param);
    count_op(tx, pe, region);
    if (!blocking)
        release_request(req, "shmem_get_nbi");
    sshmem_tx_unlock(tx);
    if (blocking)
        sshmem_ucx_wait(tx, req, "shmem_get");
}

static const ucp_atomic_op_t ucx_op[] = {
    [SSHMEM_AMO_ADD] = UCP_ATOMIC_OP_ADD,   [SSHMEM_AMO_AND] = UCP_ATOMIC_OP_AND,
    [SSHMEM_AMO_OR] = UCP_ATOMIC_OP_OR,     [SSHMEM_AMO_XOR] = UCP_ATOMIC_OP_XOR,
    [SSHMEM_AMO_SWAP] = UCP_ATOMIC_OP_SWAP, [SSHMEM_AMO_CSWAP] = UCP_ATOMIC_OP_CSWAP,
    [SSHMEM_AMO_FETCH] = UCP_ATOMIC_OP_ADD, [SSHMEM_AMO_SET] = UCP_ATOMIC_OP_SWAP,
};

/* Wait (tx's lock held) until a released request is done, then free it. Peers may be waiting
 * on us meanwhile (their operations land on our default worker): serve them too. */
static void finish_held(struct sshmem_tx *tx, void *req)
{
    ucs_status_t st;
    unsigned polls = 0;
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS) {
        unsigned moved = ucp_worker_progress(tx->worker);
        if (tx != sshmem_tx_default())
            moved += sshmem_tx_progress();
        backoff(&polls, moved);
    }
    ucp_request_free(req);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_atomic", "operation", st);
}

void sshmem_ucx_release_operands(struct sshmem_tx *tx, int all)
{
    for (unsigned i = 0; i < SSHMEM_UCX_OPERANDS && tx->operands_held; i++) {
        struct ucx_operand *o = &tx->operands[i];
        if (!o->req)
            continue;
        if (!all && ucp_request_check_status(o->req) == UCS_INPROGRESS)
            continue;
        finish_held(tx, o->req);
        o->req = NULL;
        tx->operands_held--;
    }
}

/* A slot of the operand ring for an atomic nobody waits for (tx's lock held). */
static struct ucx_operand *take_operand(struct sshmem_tx *tx, uint64_t value)
{
    struct ucx_operand *o = &tx->operands[tx->operand_next++ & (SSHMEM_UCX_OPERANDS - 1)];
    if (SSHMEM_UNLIKELY(o->req != NULL)) { /* 256 atomics in flight since a quiet */
        finish_held(tx, o->req);
        o->req = NULL;
        tx->operands_held--;
    }
    o->value = value;
    return o;
}

/* Issue one atomic with operand `value`; `reply` receives the old value (for CSWAP it must
 * hold the new value). wait: the caller waits for the returned request, and `value` may live
 * on its stack until then. Otherwise the operand goes to the ring, which keeps the request
 * until it is done, and NULL is returned. quieted: the next quiet waits for it. */
static void *issue_amo_for(struct sshmem_tx *tx, int pe, enum sshmem_region region,
                           uint64_t raddr, sshmem_amo_op_t op, size_t size, const uint64_t *value,
                           void *reply, int wait, int quieted, const char *call)
{
    ucp_request_param_t param = {0};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE;
    param.datatype = ucp_dt_make_contig(size);
    if (reply) {
        param.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        param.reply_buffer = reply;
    }
    sshmem_tx_lock(tx);
    ucp_ep_h ep = sshmem_ucx_ep(tx, pe, call);
    struct ucx_operand *held = wait ? NULL : take_operand(tx, *value);
    sshmem_ucx_count_message();
    void *req = ucp_atomic_op_nbx(ep, ucx_op[op], held ? &held->value : value, 1, raddr,
                                  rkey_of(tx, pe, region), &param);
    if (quieted)
        count_op(tx, pe, region);
    if (held && req != NULL) {
        if (UCS_PTR_IS_ERR(req))
            sshmem_ucx_fail(call, "operation", UCS_PTR_STATUS(req));
        held->req = req;
        tx->operands_held++;
    }
    sshmem_tx_unlock(tx);
    return wait ? req : NULL;
}

static void *issue_amo(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                       sshmem_amo_op_t op, size_t size, const uint64_t *value, void *reply,
                       int wait, const char *call)
{
    return issue_amo_for(tx, pe, region, raddr, op, size, value, reply, wait, 1, call);
}

void sshmem_tx_signal_add(struct sshmem_tx *tx, int pe, enum sshmem_region region,
                          uint64_t raddr, long amount)
{
    if (region == SSHMEM_REGION_DATA) { /* emulated: completes only as sshmem_tx_amo says */
        sshmem_tx_amo(tx, pe, region, raddr, SSHMEM_AMO_ADD, sizeof(long), (uint64_t)amount, 0,
                      0);
        return;
    }
    const uint64_t value = (uint64_t)amount;
    issue_amo_for(tx, pe, region, raddr, SSHMEM_AMO_ADD, sizeof(long), &value, NULL, 0, 0,
                  "a collective's signal");
}

static int is_bitwise(sshmem_amo_op_t op)
{
    return op == SSHMEM_AMO_AND || op == SSHMEM_AMO_OR || op == SSHMEM_AMO_XOR;
}

/*
 * Fetching AND/OR/XOR as a compare-and-swap loop, where the UCX needs it
 * (sshmem_ucx_quirks.bitwise_fetch_by_cas). Measured on UCX 1.13.1 (Debian 12): a
 * fetching bitwise ucp_atomic_op_nbx returns the old value but leaves the target unchanged
 * (non-fetching ones and fetch-add are fine). The loop is atomic with respect to every other
 * UCX atomic on that word.
 */
static uint64_t fetch_bitwise_by_cas(struct sshmem_tx *tx, int pe, enum sshmem_region region,
                                     uint64_t raddr, sshmem_amo_op_t op, size_t size,
                                     uint64_t operand)
{
    uint64_t mask = size == 4 ? 0xffffffffu : ~(uint64_t)0;
    uint64_t old = sshmem_tx_amo(tx, pe, region, raddr, SSHMEM_AMO_FETCH, size, 0, 0, 1);
    for (;;) {
        uint64_t want = op == SSHMEM_AMO_AND ? old & operand
                        : op == SSHMEM_AMO_OR ? old | operand
                                              : old ^ operand;
        uint64_t seen = sshmem_tx_amo(tx, pe, region, raddr, SSHMEM_AMO_CSWAP, size,
                                      want & mask, old, 1);
        if (seen == old)
            return old;
        old = seen;
    }
}

uint64_t sshmem_tx_amo(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                       sshmem_amo_op_t op, size_t size, uint64_t operand, uint64_t compare,
                       int fetch)
{
    /* Global data is registered, not UCX-allocated, so on-host UCX emulates its atomics with
     * active messages, and on UCX 1.13 a flush does not wait for an emulated non-fetching
     * atomic to be applied (measured: increments lost after quiet + barrier). Fetching ones
     * complete only once applied, so every atomic on globals fetches (where the UCX needs
     * it: ucx_quirks.h). */
    if (region == SSHMEM_REGION_DATA && sshmem_ucx_quirks.globals_amo_fetch)
        fetch = 1;
    if (fetch && is_bitwise(op) && sshmem_ucx_quirks.bitwise_fetch_by_cas)
        return fetch_bitwise_by_cas(tx, pe, region, raddr, op, size, operand);
    /* Operands and replies are size bytes at the start of these words (little-endian). */
    /* For CSWAP UCX compares with `buffer` and swaps in the reply buffer's value. */
    uint64_t value = op == SSHMEM_AMO_FETCH ? 0 : op == SSHMEM_AMO_CSWAP ? compare : operand;
    uint64_t reply = op == SSHMEM_AMO_CSWAP ? operand : 0;
    int need_reply = fetch || op == SSHMEM_AMO_SWAP || op == SSHMEM_AMO_CSWAP ||
                     op == SSHMEM_AMO_FETCH || op == SSHMEM_AMO_SET;
    void *req = issue_amo(tx, pe, region, raddr, op, size, &value, need_reply ? &reply : NULL,
                          need_reply, "shmem_atomic");
    if (!need_reply)
        return 0;
    sshmem_ucx_wait(tx, req, "shmem_atomic");
    return size == 4 ? (uint32_t)reply : reply;
}

void sshmem_tx_amo_nbi(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                       sshmem_amo_op_t op, size_t size, uint64_t operand, uint64_t compare,
                       void *fetch_out)
{
    if (is_bitwise(op) && sshmem_ucx_quirks.bitwise_fetch_by_cas) {
        uint64_t old = fetch_bitwise_by_cas(tx, pe, region, raddr, op, size, operand);
        memcpy(fetch_out, &old, size);
        return;
    }
    /* For CSWAP UCX compares with `buffer` and swaps in the reply buffer's value. */
    if (op == SSHMEM_AMO_CSWAP)
        memcpy(fetch_out, &operand, size);
    uint64_t value = op == SSHMEM_AMO_FETCH ? 0 : op == SSHMEM_AMO_CSWAP ? compare : operand;
    issue_amo(tx, pe, region, raddr, op, size, &value, fetch_out, 0, "shmem_atomic_nbi");
}

/* ------------------------------------------------------------------ completion */

/* After a flush: the atomics it completed give their operand slots back. */
static void release_done_operands(struct sshmem_tx *tx)
{
    if (!__atomic_load_n(&tx->operands_held, __ATOMIC_RELAXED))
        return;
    sshmem_tx_lock(tx);
    sshmem_ucx_release_operands(tx, 0);
    sshmem_tx_unlock(tx);
}

/* Wait for requests[0..n) of tx (called without tx's lock). */
static void wait_all(struct sshmem_tx *tx, void **reqs, int n)
{
    for (int i = 0; i < n; i++)
        sshmem_ucx_wait(tx, reqs[i], "shmem_quiet");
}

/*
 * Operations that UCX emulates with messages to the target (the global data, which UCX did
 * not allocate) count as complete for a flush once the message sits in the target's queue
 * over shared memory. Measured on UCX 1.13.1 with SSHMEM_LOCAL=ucx: after quiet and a
 * barrier, up to a third of such puts and atomic increments were not applied yet. A get from
 * the same peer's global data travels behind them on the same path, and the target answers it
 * only after processing them: its answer completes them.
 */
static void probe_emulated(struct sshmem_tx *tx, const int *pes, const uint8_t *flags, int n)
{
    static uint64_t sink; /* the probes' data is not used */
    ucp_request_param_t param = {0};
    int k = 0, any = 0;
    if (!sshmem_ucx_quirks.probe_emulated)
        return;
    for (int i = 0; i < n && !any; i++)
        any = flags[i] & TOUCHED_EMULATED;
    if (!any)
        return;
    sshmem_tx_lock(tx);
    for (int i = 0; i < n; i++) {
        if (!(flags[i] & TOUCHED_EMULATED))
            continue;
        int pe = pes[i];
        sshmem_ucx_count_message();
        const struct tx_peer *p = sshmem_ucx_peer(tx, pe);
        void *req = ucp_get_nbx(p->ep, &sink, sizeof sink,
                                sshmem_peer(pe)->remote[SSHMEM_REGION_DATA],
                                p->rkey[SSHMEM_REGION_DATA], &param);
        if (req != NULL)
            tx->reqs[k++] = req;
    }
    sshmem_tx_unlock(tx);
    wait_all(tx, tx->reqs, k);
}

void sshmem_tx_quiet(struct sshmem_tx *tx)
{
    /* With several application threads, quiets take turns: a thread's quiet must not return
     * while another's flush, which covers this thread's earlier operations, is in flight.
     * Otherwise only this thread adds to the list: an empty one needs no lock. */
    if (tx->multi)
        pthread_mutex_lock(&tx->quiet_lock);
    else if (tx->n_pending == 0 && sshmem_ucx_staging_idle(tx))
        return;
    ucp_request_param_t param = {0};
    sshmem_tx_lock(tx);
    /* Take the list (an operation issued from now on lists its peer again, for the next
     * quiet) and flush each endpoint on it: every operation issued on it completes. */
    int n = tx->n_pending, k = 0;
    int *pes = tx->pending_pes;
    sshmem_ucx_quiet_reserve(tx, n);
    for (int i = 0; i < n; i++) {
        struct tx_peer *p = sshmem_ucx_peer(tx, pes[i]);
        tx->quieting_flags[i] = p->touched;
        p->touched = 0;
        if (SSHMEM_UNLIKELY(tx->late))
            sshmem_ucx_late_release(tx, pes[i]);
        void *req = ucp_ep_flush_nbx(p->ep, &param);
        if (req != NULL)
            tx->reqs[k++] = req;
    }
    /* Swap the lists (both hold every peer reached: quiet_reserve). */
    tx->pending_pes = tx->quieting;
    tx->quieting = pes;
    int cap = tx->pending_cap;
    tx->pending_cap = tx->quieting_cap;
    tx->quieting_cap = cap;
    tx->n_pending = tx->n_emulated = 0;
    sshmem_tx_unlock(tx);
    wait_all(tx, tx->reqs, k);
    probe_emulated(tx, pes, tx->quieting_flags, n);
    sshmem_ucx_staging_complete(tx); /* packed transfers: unpacked at their end */
    release_done_operands(tx);
    if (tx->multi)
        pthread_mutex_unlock(&tx->quiet_lock);
}

void sshmem_tx_quiet_all(struct sshmem_tx *tx)
{
    sshmem_tx_lock(tx);
    for (int pe = 0; pe < sshmem.n_pes; pe++) {
        struct tx_peer *p = sshmem_ucx_peer_if_made(tx, pe);
        if (!p) { /* no peer of this chunk was reached */
            pe |= SSHMEM_PEER_CHUNK - 1;
            continue;
        }
        if (p->ep && !p->touched) {
            tx->pending_pes[tx->n_pending++] = pe;
            p->touched = TOUCHED_OPS;
        }
    }
    sshmem_tx_unlock(tx);
    sshmem_tx_quiet(tx);
}

void sshmem_tx_quiet_pes(struct sshmem_tx *tx, const int *pes, size_t npes)
{
    if (tx->multi) /* in turn with quiets: the scratch lists below are the quiets' */
        pthread_mutex_lock(&tx->quiet_lock);
    ucp_request_param_t param = {0};
    int n = 0, k = 0;
    sshmem_tx_lock(tx);
    sshmem_ucx_quiet_reserve(tx, tx->n_reached);
    for (size_t i = 0; i < npes; i++) {
        int pe = pes[i];
        struct tx_peer *p = sshmem_ucx_peer_if_made(tx, pe);
        uint8_t flags = p ? p->touched : 0;
        if (!flags) /* nothing since the last quiet, or listed twice */
            continue;
        p->touched = 0;
        tx->n_emulated -= (flags & TOUCHED_EMULATED) != 0;
        tx->quieting[n] = pe;
        tx->quieting_flags[n++] = flags;
        if (SSHMEM_UNLIKELY(tx->late))
            sshmem_ucx_late_release(tx, pe);
        void *req = ucp_ep_flush_nbx(p->ep, &param);
        if (req != NULL)
            tx->reqs[k++] = req;
    }
    if (n) { /* the rest of the list stays for the next quiet */
        int kept = 0;
        for (int i = 0; i < tx->n_pending; i++)
            if (sshmem_ucx_peer(tx, tx->pending_pes[i])->touched)
                tx->pending_pes[kept++] = tx->pending_pes[i];
        tx->n_pending = kept;
    }
    sshmem_tx_unlock(tx);
    wait_all(tx, tx->reqs, k);
    probe_emulated(tx, tx->quieting, tx->quieting_flags, n);
    if (!sshmem_ucx_staging_idle(tx)) /* counted per context, not per PE: all of it */
        sshmem_ucx_staging_complete(tx);
    release_done_operands(tx);
    if (tx->multi)
        pthread_mutex_unlock(&tx->quiet_lock);
}

/*
 * Fence. Where ucp_worker_fence orders only within one lane (UCX up to 1.13: quirk
 * fence_by_flush), a large put on a zero-copy or rendezvous lane and a later small put or
 * atomic may land in either order on RDMA, so the fence completes what is pending: one flush
 * round trip per fence that has operations pending, and a fence with nothing pending costs
 * no more than a quiet with nothing pending does.
 */
void sshmem_tx_fence(struct sshmem_tx *tx)
{
    if (sshmem_ucx_quirks.fence_by_flush) {
        sshmem_tx_quiet(tx);
        return;
    }
    /* Quiet's turn: another thread's quiet may have taken the pending list (n_pending reads 0)
     * while its flush, which covers this thread's earlier operations, is still in flight;
     * the turn waits until it is done (and staging_complete needs the turn anyway). */
    if (tx->multi)
        pthread_mutex_lock(&tx->quiet_lock);
    /* Emulated operations are ordered by nothing short of quiet's probe (see above). */
    sshmem_tx_lock(tx);
    /* From UCX 1.14 the fence orders every lane: what the weak-ordering mode holds goes
     * first (on UCX 1.13 the mode's held puts stay held: its fence orders none of them). */
    if (SSHMEM_UNLIKELY(tx->late))
        sshmem_ucx_late_release(tx, -1);
    const int emulated = tx->n_emulated != 0;
    ucs_status_t st = tx->n_pending && !emulated ? ucp_worker_fence(tx->worker) : UCS_OK;
    sshmem_tx_unlock(tx);
    /* A staged put is unpacked by the target's progress, after any later put could land:
     * what orders it is its acknowledgement (for every PE: the simplest correct fence). */
    if (!sshmem_ucx_staging_idle(tx))
        sshmem_ucx_staging_complete(tx);
    if (tx->multi)
        pthread_mutex_unlock(&tx->quiet_lock);
    if (st != UCS_OK)
        sshmem_ucx_fail("shmem_fence", "fence", st);
    if (emulated)
        sshmem_tx_quiet(tx);
}

/* At finalize, after the last barrier: let the acknowledgements of its signals in, so that
 * UCX has nothing unflushed to warn about, without failing or waiting long when a peer has
 * torn down already (single-threaded: the progress thread is stopped). */
void sshmem_ucx_drain(struct sshmem_tx *tx)
{
    ucp_request_param_t param = {0};
    int k = 0;
    sshmem_ucx_quiet_reserve(tx, tx->n_pending);
    for (int i = 0; i < tx->n_pending; i++) {
        int pe = tx->pending_pes[i];
        struct tx_peer *p = sshmem_ucx_peer(tx, pe);
        if (tx->late)
            sshmem_ucx_late_release(tx, pe);
        void *req = ucp_ep_flush_nbx(p->ep, &param);
        p->touched = 0;
        if (req && !UCS_PTR_IS_ERR(req))
            tx->reqs[k++] = req;
    }
    tx->n_pending = tx->n_emulated = 0;
    struct timespec start, t;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (k) {
        ucp_worker_progress(tx->worker);
        for (int i = 0; i < k; i++)
            if (ucp_request_check_status(tx->reqs[i]) != UCS_INPROGRESS) {
                ucp_request_free(tx->reqs[i]);
                tx->reqs[i--] = tx->reqs[--k];
            }
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - start.tv_sec) * 1000000000L + (t.tv_nsec - start.tv_nsec) > 200000000L)
            break;
    }
    while (k)
        ucp_request_free(tx->reqs[--k]); /* released with the worker */
    sshmem_ucx_release_operands(tx, 0);
}

/* Each poll also applies held messages whose gates are open (sshmem_tx_gates_raised). */
unsigned sshmem_tx_progress(void)
{
    struct sshmem_tx *tx = sshmem_tx_default();
    if (!tx->shared) {
        if (SSHMEM_UNLIKELY(tx->late))
            sshmem_ucx_late_tick(tx);
        return ucp_worker_progress(tx->worker) + sshmem_ucx_release_open();
    }
    sshmem_tx_mark_driven(tx);
    /* Busy: another thread (often the progress thread) is progressing it right now. */
    unsigned moved = 0;
    if (sshmem_worker_trylock(&tx->lock)) {
        if (SSHMEM_UNLIKELY(tx->late))
            sshmem_ucx_late_tick(tx);
        moved = ucp_worker_progress(tx->worker) + sshmem_ucx_release_open();
        sshmem_worker_unlock(&tx->lock);
    }
    return moved;
}
