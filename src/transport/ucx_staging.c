/*
 * ucx_staging.c: non-contiguous data through UCX as packed messages, not one put per run.
 *
 * Through UCX (another host, SSHMEM_LOCAL=ucx, tcp) every UCX operation costs a fixed
 * overhead, so a strided or typed transfer of many small runs (1,000 doubles at a stride)
 * as one put per run runs at a few MB/s. Here such a transfer travels packed instead:
 *
 *  put: the origin packs the source (its layout, src_plan) into a staging buffer and sends
 *       ONE active message per piece (at most SSHMEM_STAGE_PIECE bytes) carrying the
 *       target's plan in wire form, where element 0 lies at the target, which packed bytes
 *       it holds, and the data. The target's progress unpacks it into its own memory and
 *       answers with an empty acknowledgement message on the endpoint the message came in
 *       on (UCX's reply endpoint), so the acknowledgement reaches the worker of the context
 *       that sent: quiet on that context waits for every acknowledgement of its puts.
 *  get: the origin sends one request per piece carrying the target's plan; the target packs
 *       and replies with the data; the origin unpacks into its layout. A blocking get
 *       returns when every piece is unpacked; an _nbi one is counted and completed by quiet.
 *
 * Shared memory: where UCX reaches a peer's heap through shared memory (SSHMEM_LOCAL=ucx on
 * one host: its sysv/posix transports) UCX itself moves a put as a copy into its mapping of
 * the peer's segment (ucp_rkey_ptr gives that mapping). A non-contiguous transfer there is
 * the same thing done once for the whole layout: one strided copy through the mapping, no
 * message, no round trip, complete on return (SSHMEM_STAGE_MAPPED=0 sends messages instead,
 * which the tests use to run the message path on one host).
 *
 * Arrival: a message small enough for UCX's eager protocol arrives with its data (unpacked
 * in the handler); a larger one arrives as a rendezvous descriptor, and the data is fetched
 * with ucp_am_recv_data_nbx (straight into place when that layout is one contiguous run,
 * else into a bounce buffer that is then unpacked).
 *
 * Who progresses: incoming messages land on the default worker (every peer's endpoints point
 * there), served by the PE's waits and, while it computes, by the progress thread
 * (progress_thread.c); acknowledgements and get replies land on the sending context's worker,
 * progressed by the quiet or blocking get that waits for them. Handlers run inside
 * ucp_worker_progress, so with the worker's lock held where the worker is shared (ucx_tx.h):
 * they touch the staging pool and send their replies without taking it again.
 *
 * Buffers: a message's header (fixed part + plan) and data live in one staging buffer from
 * the context's pool, handed back by the send's completion callback (UCX reads both until
 * then). At most STAGE_OUT_MAX buffers of a context are in flight; a sender beyond that
 * progresses until one comes back.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "core/copy_plan.h"
#include "core/env.h"
#include "core/error.h"
#include "transport/ucx_tx.h"

/* Staging buffers in flight per context before a sender waits for one to come back, and
 * buffers the pool keeps. */
#define STAGE_OUT_MAX 16
#define STAGE_POOL_KEEP 16
/* Room for a header: the fixed part and a plan in wire form. A plan that needs more (a type
 * of many pieces) is not staged: the caller moves it one run at a time. */
#define STAGE_HDR_MAX 2048
#define STAGE_MAX_PIECES (STAGE_HDR_MAX / 24)

/* The fixed part of every staged message's header. */
typedef struct stage_hdr {
    uint64_t origin;   /* put, get: the address of element 0 at the target */
    uint64_t count;    /* elements of the whole transfer */
    uint64_t skip;     /* packed bytes of the whole transfer before this piece */
    uint64_t len;      /* packed bytes of this piece */
    uint64_t token;    /* get, data: the origin's record of the get */
    uint32_t plan_len; /* bytes of the target's plan in wire form that follow (put, get) */
    uint32_t epoch;    /* put: the origin's completion epoch, echoed in the acknowledgement */
} stage_hdr_t;

struct stage_buf {
    struct stage_buf *next; /* in the pool's free list */
    struct sshmem_tx *tx;   /* whose pool it goes back to */
    size_t cap;             /* bytes of data (the pool's size, or more for a one-off) */
    alignas(16) char data[];
};

/* The origin's record of a staged get: where the data goes, how much is still to come. */
typedef struct stage_get {
    struct sshmem_tx *tx;
    size_t remaining; /* packed bytes not unpacked yet (atomic) */
    int nbi;          /* nobody waits: the last piece frees it and counts the get done */
    unsigned epoch;   /* nbi: the completion epoch it counts in */
    char *origin;
    size_t count;
    copy_plan_t plan; /* the local layout; pieces point into the array below */
    copy_piece_t pieces[];
} stage_get_t;

/* A rendezvous piece being fetched: what to do once its data is here. */
typedef struct stage_rndv {
    struct sshmem_tx *tx;
    ucp_ep_h reply_ep;      /* put: where the acknowledgement goes */
    stage_get_t *get;       /* data: the get it belongs to */
    struct stage_buf *bounce; /* NULL when the data went straight into place */
    stage_hdr_t hdr;
    char plan_wire[];       /* put: the target's plan, copied from the header */
} stage_rndv_t;

static size_t piece_bytes(void) { return sshmem_env.stage_piece; }

static size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

/* ------------------------------------------------------------------ the pool (lock held) */

static struct stage_buf *buf_take(struct sshmem_tx *tx, size_t need)
{
    struct stage_buf *b = tx->stage_free;
    if (b && need <= b->cap) {
        tx->stage_free = b->next;
        tx->stage_n_free--;
        return b;
    }
    size_t cap = need > STAGE_HDR_MAX + piece_bytes() ? need : STAGE_HDR_MAX + piece_bytes();
    b = malloc(sizeof *b + cap);
    if (!b)
        sshmem_fatal("sshmem staging", "out of memory for a staging buffer of %zu bytes", cap);
    b->tx = tx;
    b->cap = cap;
    return b;
}

static void buf_give_back(struct stage_buf *b)
{
    struct sshmem_tx *tx = b->tx;
    if (tx->stage_n_free >= STAGE_POOL_KEEP || b->cap != STAGE_HDR_MAX + piece_bytes()) {
        free(b);
        return;
    }
    b->next = tx->stage_free;
    tx->stage_free = b;
    tx->stage_n_free++;
}

void sshmem_ucx_staging_release(struct sshmem_tx *tx)
{
    while (tx->stage_free) {
        struct stage_buf *b = tx->stage_free;
        tx->stage_free = b->next;
        free(b);
    }
    tx->stage_n_free = 0;
}

/* A buffer for an outgoing message of the calling thread: waits (progressing) while
 * STAGE_OUT_MAX are in flight. Called without tx's lock. */
static struct stage_buf *buf_for_send(struct sshmem_tx *tx, size_t need)
{
    unsigned polls = 0;
    for (;;) {
        sshmem_tx_lock(tx);
        if (tx->stage_out < STAGE_OUT_MAX) {
            struct stage_buf *b = buf_take(tx, need);
            tx->stage_out++;
            sshmem_tx_unlock(tx);
            return b;
        }
        sshmem_tx_unlock(tx);
        sshmem_ucx_poll(tx, &polls);
    }
}

/* ------------------------------------------------------------------ sending */

/* A staged message's send completed (inside progress: lock held): its buffer goes back. */
static void send_done(void *req, ucs_status_t st, void *user_data)
{
    struct stage_buf *b = user_data;
    if (st != UCS_OK)
        sshmem_ucx_fail("sshmem staging", "active message send", st);
    b->tx->stage_out--;
    buf_give_back(b);
    ucp_request_free(req);
}

/* Send the message whose header (hdr_len bytes) starts b->data and whose data is the len
 * bytes at data (inside b). tx's lock held; the buffer was counted in stage_out. */
static void send_staged(struct sshmem_tx *tx, ucp_ep_h ep, unsigned id, struct stage_buf *b,
                        size_t hdr_len, const void *data, size_t len)
{
    ucp_request_param_t param = {0};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                         UCP_OP_ATTR_FIELD_FLAGS;
    param.cb.send = send_done;
    param.user_data = b;
    /* Requests (puts, gets) are answered on the endpoint they came in on: the reply reaches
     * the worker of the context that asked. */
    param.flags = id == AM_STAGED_DATA ? 0 : UCP_AM_SEND_FLAG_REPLY;
    sshmem_ucx_count_message();
    void *req = ucp_am_send_nbx(ep, id, b->data, hdr_len, data, len, &param);
    if (UCS_PTR_IS_ERR(req))
        sshmem_ucx_fail("sshmem staging", "active message send", UCS_PTR_STATUS(req));
    if (req == NULL) { /* done already: UCX holds no reference */
        tx->stage_out--;
        buf_give_back(b);
    }
}

/* Write header and plan at the start of b; returns the offset of the data. */
static size_t write_header(struct stage_buf *b, const stage_hdr_t *h, const copy_plan_t *plan)
{
    memcpy(b->data, h, sizeof *h);
    if (plan)
        copy_plan_to_wire(plan, b->data + sizeof *h);
    return round16(sizeof *h + h->plan_len);
}

/* ------------------------------------------------------------------ receiving */

/* The fixed header and the plan of an incoming message; the plan's pieces go to pieces. */
static stage_hdr_t read_header(const void *header, size_t header_len, copy_plan_t *plan,
                               copy_piece_t *pieces, const char *what)
{
    stage_hdr_t h;
    if (header_len < sizeof h)
        sshmem_fatal("sshmem staging", "a %s message with a short header (%zu bytes)", what,
                     header_len);
    memcpy(&h, header, sizeof h);
    if (plan && (h.plan_len > header_len - sizeof h ||
                 copy_plan_from_wire((const char *)header + sizeof h, h.plan_len, plan, pieces,
                                     STAGE_MAX_PIECES) == 0))
        sshmem_fatal("sshmem staging", "a %s message whose layout cannot be read", what);
    return h;
}

static ucp_ep_h reply_ep_of(const ucp_am_recv_param_t *param, const char *what)
{
    if (!(param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP))
        sshmem_fatal("sshmem staging", "a %s message without a reply endpoint", what);
    return param->reply_ep;
}

/* Tell the origin of a staged put that its piece is in place: an empty message whose
 * one-byte header is the piece's epoch (static: UCX may read it until the send completes). */
static void acknowledge(ucp_ep_h reply_ep, unsigned epoch)
{
    static const uint8_t epochs[2] = {0, 1};
    ucp_request_param_t param = {0};
    __atomic_thread_fence(__ATOMIC_RELEASE); /* the unpacked data before the news of it */
    sshmem_ucx_count_message();
    void *req = ucp_am_send_nbx(reply_ep, AM_STAGED_ACK, &epochs[epoch & 1], 1, NULL, 0, &param);
    if (UCS_PTR_IS_ERR(req))
        sshmem_ucx_fail("sshmem staging", "acknowledgement", UCS_PTR_STATUS(req));
    if (req)
        ucp_request_free(req); /* nothing of ours to keep alive; UCX finishes it */
}

/* A get's piece is unpacked. The last one completes the get. */
static void get_piece_done(stage_get_t *g, size_t len)
{
    struct sshmem_tx *tx = g->tx;
    int nbi = g->nbi;
    unsigned epoch = g->epoch;
    if (__atomic_sub_fetch(&g->remaining, len, __ATOMIC_ACQ_REL) != 0)
        return;
    if (nbi) { /* nobody waits on it: quiet counts it */
        free(g);
        __atomic_sub_fetch(&tx->stage_pending[epoch], 1, __ATOMIC_RELEASE);
    } /* else the waiting get sees remaining reach 0 and frees it */
}

/* Where a piece [skip, skip+len) of count elements laid out by plan at origin can be received
 * directly: the layout is one contiguous run. NULL otherwise. */
static char *direct_place(const copy_plan_t *plan, char *origin, size_t skip)
{
    return plan->contiguous ? origin + plan->pieces[0].disp + skip : NULL;
}

/* The data of a rendezvous piece is here. */
static void rndv_done(void *req, ucs_status_t st, size_t length, void *user_data)
{
    stage_rndv_t *r = user_data;
    if (st != UCS_OK)
        sshmem_ucx_fail("sshmem staging", "rendezvous receive", st);
    if (r->get) {
        if (r->bounce)
            copy_plan_unpack_range(&r->get->plan, r->get->count, r->bounce->data, r->hdr.skip,
                                   r->hdr.len, r->get->origin);
        get_piece_done(r->get, r->hdr.len);
    } else {
        if (r->bounce) {
            copy_plan_t plan;
            copy_piece_t pieces[STAGE_MAX_PIECES];
            if (!copy_plan_from_wire(r->plan_wire, r->hdr.plan_len, &plan, pieces,
                                     STAGE_MAX_PIECES))
                sshmem_fatal("sshmem staging", "a put whose layout cannot be read");
            copy_plan_unpack_range(&plan, r->hdr.count, r->bounce->data, r->hdr.skip,
                                   r->hdr.len, (char *)(uintptr_t)r->hdr.origin);
        }
        acknowledge(r->reply_ep, r->hdr.epoch);
    }
    if (r->bounce)
        buf_give_back(r->bounce);
    free(r);
    if (req)
        ucp_request_free(req);
}

/* Fetch a rendezvous piece to `into` (or a bounce buffer when NULL); rndv_done follows. */
static void fetch_rndv(struct sshmem_tx *tx, void *desc, size_t length, stage_rndv_t *r,
                       char *into)
{
    if (!into) {
        r->bounce = buf_take(tx, length);
        into = r->bounce->data;
    }
    sshmem_ucx_am_fetch(tx, desc, into, length, rndv_done, r, "sshmem staging");
}

static stage_rndv_t *new_rndv(struct sshmem_tx *tx, const stage_hdr_t *h, size_t plan_len)
{
    stage_rndv_t *r = malloc(sizeof *r + plan_len);
    if (!r)
        sshmem_fatal("sshmem staging", "out of memory for an incoming transfer");
    *r = (stage_rndv_t){.tx = tx, .hdr = *h};
    return r;
}

/* A piece of a staged put, at its target: unpack it in place, then acknowledge. */
static ucs_status_t on_put(void *arg, const void *header, size_t header_len, void *data,
                           size_t length, const ucp_am_recv_param_t *param)
{
    struct sshmem_tx *tx = arg;
    copy_plan_t plan;
    copy_piece_t pieces[STAGE_MAX_PIECES];
    stage_hdr_t h = read_header(header, header_len, &plan, pieces, "staged put");
    char *origin = (char *)(uintptr_t)h.origin;
    ucp_ep_h reply_ep = reply_ep_of(param, "staged put");
    if (length != h.len)
        sshmem_fatal("sshmem staging", "a staged put of %zu bytes announced as %llu", length,
                     (unsigned long long)h.len);
    if (!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        copy_plan_unpack_range(&plan, h.count, data, h.skip, h.len, origin);
        acknowledge(reply_ep, h.epoch);
        return UCS_OK;
    }
    stage_rndv_t *r = new_rndv(tx, &h, h.plan_len);
    r->reply_ep = reply_ep;
    memcpy(r->plan_wire, (const char *)header + sizeof h, h.plan_len);
    fetch_rndv(tx, data, length, r, direct_place(&plan, origin, h.skip));
    return UCS_OK;
}

/* An acknowledgement of one of our staged puts' pieces. */
static ucs_status_t on_ack(void *arg, const void *header, size_t header_len, void *data,
                           size_t length, const ucp_am_recv_param_t *param)
{
    struct sshmem_tx *tx = arg;
    if (header_len != 1)
        sshmem_fatal("sshmem staging", "an acknowledgement with a %zu-byte header", header_len);
    __atomic_sub_fetch(&tx->stage_pending[*(const uint8_t *)header & 1], 1, __ATOMIC_RELEASE);
    return UCS_OK;
}

/* A request for a piece of a staged get, at its target: pack it and reply with the data. */
static ucs_status_t on_get(void *arg, const void *header, size_t header_len, void *data,
                           size_t length, const ucp_am_recv_param_t *param)
{
    struct sshmem_tx *tx = arg;
    copy_plan_t plan;
    copy_piece_t pieces[STAGE_MAX_PIECES];
    stage_hdr_t h = read_header(header, header_len, &plan, pieces, "staged get");
    ucp_ep_h reply_ep = reply_ep_of(param, "staged get");
    stage_hdr_t reply = {.skip = h.skip, .len = h.len, .token = h.token};
    struct stage_buf *b = buf_take(tx, round16(sizeof reply) + h.len);
    tx->stage_out++; /* in flight like any send; a handler never waits for room */
    size_t at = write_header(b, &reply, NULL);
    copy_plan_pack_range(&plan, h.count, (const char *)(uintptr_t)h.origin, h.skip, h.len,
                         b->data + at);
    send_staged(tx, reply_ep, AM_STAGED_DATA, b, sizeof reply, b->data + at, h.len);
    return UCS_OK;
}

/* A piece of the data of one of our staged gets: unpack it into the local layout. */
static ucs_status_t on_data(void *arg, const void *header, size_t header_len, void *data,
                            size_t length, const ucp_am_recv_param_t *param)
{
    struct sshmem_tx *tx = arg;
    stage_hdr_t h = read_header(header, header_len, NULL, NULL, "staged get data");
    stage_get_t *g = (stage_get_t *)(uintptr_t)h.token;
    if (!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        copy_plan_unpack_range(&g->plan, g->count, data, h.skip, h.len, g->origin);
        get_piece_done(g, h.len);
        return UCS_OK;
    }
    stage_rndv_t *r = new_rndv(tx, &h, 0);
    r->get = g;
    fetch_rndv(tx, data, length, r, direct_place(&g->plan, g->origin, h.skip));
    return UCS_OK;
}

void sshmem_ucx_staging_setup(struct sshmem_tx *tx)
{
    static const struct {
        unsigned id;
        ucp_am_recv_callback_t cb;
    } handlers[] = {{AM_STAGED_PUT, on_put},
                    {AM_STAGED_ACK, on_ack},
                    {AM_STAGED_GET, on_get},
                    {AM_STAGED_DATA, on_data}};
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++) {
        ucp_am_handler_param_t hp = {0};
        hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                        UCP_AM_HANDLER_PARAM_FIELD_ARG;
        hp.id = handlers[i].id;
        hp.cb = handlers[i].cb;
        hp.arg = tx;
        ucs_status_t st = ucp_worker_set_am_recv_handler(tx->worker, &hp);
        if (st != UCS_OK)
            sshmem_ucx_fail("shmem_init", "active message handler registration", st);
    }
}

/* ------------------------------------------------------------------ the origin's side */

static size_t plan_runs(const copy_plan_t *p, size_t count)
{
    if (p->contiguous)
        return 1;
    size_t runs = 0;
    for (size_t i = 0; i < p->npieces; i++) {
        size_t n = 1;
        for (int l = 0; l < p->pieces[i].depth; l++)
            n *= p->pieces[i].loop[l].count;
        runs += n;
    }
    return runs * count;
}

/*
 * Where pe's heap starts in our address space when it is reached through UCX shared memory,
 * where UCX puts and gets are truly one-sided memory copies (UCX then gives a load/store
 * pointer into it); NULL otherwise. For 8-byte runs, put + quiet: on shared memory one put
 * per run wins up to about 128 runs (staging costs a round trip); over tcp, or where UCX
 * emulates RMA with messages (global data, networks without RDMA), staging wins from 2 runs
 * (doc/performance.md). Asked of UCX
 * once per PE (kept with its card): its mapping covers the whole heap, as the direct path's
 * view (peers.c) does, so an address is the base plus its offset, with no lock and no UCX
 * call per transfer. UCX maps a peer's heap where it allocated that heap itself
 * (SSHMEM_LOCAL=ucx, heap/heap.c) or where a transport maps memory it only registered
 * (xpmem); elsewhere this is NULL and staging treats every UCX peer alike.
 */
char *sshmem_ucx_heap_mapping(int pe)
{
    (void)sshmem_peer(pe); /* its card and heap base */
    sshmem_ucx_card_t *card = sshmem_ucx_card_of(pe);
    if (!__atomic_load_n(&card->heap_mapping_known, __ATOMIC_ACQUIRE)) {
        char *base = sshmem_tx_direct_ptr(pe, SSHMEM_REGION_HEAP,
                                          sshmem_peer(pe)->remote[SSHMEM_REGION_HEAP]);
        __atomic_store_n(&card->heap_mapping, base, __ATOMIC_RELAXED);
        __atomic_store_n(&card->heap_mapping_known, 1, __ATOMIC_RELEASE);
    }
    return __atomic_load_n(&card->heap_mapping, __ATOMIC_RELAXED);
}

static int heap_on_shared_memory(int pe)
{
    return sshmem_ucx_heap_mapping(pe) != NULL;
}

int sshmem_tx_staging_pays(int pe, enum sshmem_region region, const copy_plan_t *local,
                           const copy_plan_t *remote, size_t count)
{
    size_t bytes = copy_plan_bytes(remote, count);
    size_t runs = plan_runs(local, count), rruns = plan_runs(remote, count);
    if (rruns > runs)
        runs = rruns;
    int shm = region == SSHMEM_REGION_HEAP && heap_on_shared_memory(pe);
    if (shm && sshmem_env.stage_mapped)
        return runs >= 2; /* one copy through the mapping beats a UCX call per run */
    unsigned min_runs = shm ? sshmem_env.stage_min_runs_shm : sshmem_env.stage_min_runs;
    return min_runs && runs >= min_runs && bytes / runs <= sshmem_env.stage_max_run &&
           sizeof(stage_hdr_t) + copy_plan_wire_size(remote) <= STAGE_HDR_MAX;
}

/* pe's heap address raddr in our address space, through UCX's shared-memory mapping; NULL
 * when UCX does not map it (another host, tcp) or messages are forced. */
static char *mapped_heap(int pe, enum sshmem_region region, uint64_t raddr)
{
    char *base;
    if (region != SSHMEM_REGION_HEAP || !sshmem_env.stage_mapped ||
        !(base = sshmem_ucx_heap_mapping(pe)))
        return NULL;
    return base + (raddr - sshmem_peer(pe)->remote[SSHMEM_REGION_HEAP]);
}

/* count elements from one layout to the other: one strided copy when both are the same
 * layout (typed RMA; iput/iget with equal strides), else packed through a small buffer that
 * stays in the cache. */
static void copy_between(const copy_plan_t *dst_plan, void *dst_origin,
                         const copy_plan_t *src_plan, const void *src_origin, size_t count)
{
    if (copy_plan_same_layout(dst_plan, src_plan)) {
        copy_plan_copy(dst_plan, count, dst_origin, src_origin);
    } else {
        char buf[16384];
        size_t total = copy_plan_bytes(src_plan, count);
        for (size_t skip = 0, len; skip < total; skip += len) {
            len = total - skip < sizeof buf ? total - skip : sizeof buf;
            copy_plan_pack_range(src_plan, count, src_origin, skip, len, buf);
            copy_plan_unpack_range(dst_plan, count, buf, skip, len, dst_origin);
        }
    }
    __atomic_thread_fence(__ATOMIC_RELEASE); /* before any later put, as UCX's own copies */
}

void sshmem_tx_put_plan(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                        const copy_plan_t *dst_plan, const void *src_origin,
                        const copy_plan_t *src_plan, size_t count)
{
    char *mapped = mapped_heap(pe, region, raddr);
    if (mapped) {
        copy_between(dst_plan, mapped, src_plan, src_origin, count);
        return;
    }
    size_t total = copy_plan_bytes(src_plan, count), piece = piece_bytes();
    size_t wire = copy_plan_wire_size(dst_plan);
    for (size_t skip = 0; skip < total; skip += piece) {
        size_t len = total - skip < piece ? total - skip : piece;
        stage_hdr_t h = {.origin = raddr, .count = count, .skip = skip, .len = len,
                         .plan_len = wire};
        struct stage_buf *b = buf_for_send(tx, round16(sizeof h + wire) + len);
        size_t at = write_header(b, &h, dst_plan);
        copy_plan_pack_range(src_plan, count, src_origin, skip, len, b->data + at);
        sshmem_tx_lock(tx);
        ucp_ep_h ep = sshmem_ucx_ep(tx, pe, "shmem_put (staged)");
        ((stage_hdr_t *)b->data)->epoch = tx->stage_epoch;
        __atomic_add_fetch(&tx->stage_pending[tx->stage_epoch], 1, __ATOMIC_RELAXED);
        send_staged(tx, ep, AM_STAGED_PUT, b, sizeof h + wire, b->data + at, len);
        sshmem_tx_unlock(tx);
    }
}

void sshmem_tx_get_plan(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                        const copy_plan_t *src_plan, void *dst_origin,
                        const copy_plan_t *dst_plan, size_t count, int blocking)
{
    const char *mapped = mapped_heap(pe, region, raddr);
    if (mapped) {
        copy_between(dst_plan, dst_origin, src_plan, mapped, count);
        return;
    }
    size_t total = copy_plan_bytes(dst_plan, count), piece = piece_bytes();
    size_t wire = copy_plan_wire_size(src_plan);
    if (total == 0)
        return;
    stage_get_t *g = malloc(sizeof *g + dst_plan->npieces * sizeof(copy_piece_t));
    if (!g)
        sshmem_fatal("shmem_get (staged)", "out of memory for a get's record");
    *g = (stage_get_t){.tx = tx, .remaining = total, .nbi = !blocking, .origin = dst_origin,
                       .count = count, .plan = *dst_plan};
    memcpy(g->pieces, dst_plan->pieces, dst_plan->npieces * sizeof(copy_piece_t));
    g->plan.pieces = g->pieces;
    if (!blocking) {
        sshmem_tx_lock(tx);
        g->epoch = tx->stage_epoch;
        __atomic_add_fetch(&tx->stage_pending[g->epoch], 1, __ATOMIC_RELAXED);
        sshmem_tx_unlock(tx);
    }
    for (size_t skip = 0; skip < total; skip += piece) {
        size_t len = total - skip < piece ? total - skip : piece;
        stage_hdr_t h = {.origin = raddr, .count = count, .skip = skip, .len = len,
                         .token = (uintptr_t)g, .plan_len = wire};
        struct stage_buf *b = buf_for_send(tx, sizeof h + wire);
        write_header(b, &h, src_plan);
        sshmem_tx_lock(tx);
        ucp_ep_h ep = sshmem_ucx_ep(tx, pe, "shmem_get (staged)");
        send_staged(tx, ep, AM_STAGED_GET, b, sizeof h + wire, NULL, 0);
        sshmem_tx_unlock(tx);
    }
    if (!blocking)
        return;
    unsigned polls = 0;
    while (__atomic_load_n(&g->remaining, __ATOMIC_ACQUIRE) != 0)
        sshmem_ucx_poll(tx, &polls);
    free(g);
}

/* ------------------------------------------------------------------ completion */

int sshmem_ucx_staging_idle(struct sshmem_tx *tx)
{
    return __atomic_load_n(&tx->stage_pending[0], __ATOMIC_ACQUIRE) == 0 &&
           __atomic_load_n(&tx->stage_pending[1], __ATOMIC_ACQUIRE) == 0;
}

void sshmem_ucx_staging_complete(struct sshmem_tx *tx)
{
    if (sshmem_ucx_staging_idle(tx)) /* the common case: nothing staged, no lock */
        return;
    sshmem_tx_lock(tx);
    unsigned old = tx->stage_epoch;
    tx->stage_epoch = old ^ 1; /* what is issued from now on counts for the next quiet */
    sshmem_tx_unlock(tx);
    unsigned polls = 0;
    while (__atomic_load_n(&tx->stage_pending[old], __ATOMIC_ACQUIRE) != 0)
        sshmem_ucx_poll(tx, &polls);
}
