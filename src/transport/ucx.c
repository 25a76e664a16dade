/*
 * ucx.c: the transport of transport.h over UCP (UCX 1.12+). The one file that includes ucp.h.
 *
 * One UCX context, one worker per communication context (the default one here), one endpoint
 * per peer, and one unpacked rkey per (peer, region). Requests that the caller does not wait
 * for (put_nbi) are released at once and completed by the flush of quiet; those whose result
 * lands in user memory (get_nbi, fetching atomics _nbi) are kept until quiet completes them.
 */
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "core/error.h"
#include "transport/transport.h"

struct sshmem_tx {
    ucp_worker_h worker;
    ucp_ep_h *eps;                            /* one per PE */
    ucp_rkey_h (*rkeys)[SSHMEM_NUM_REGIONS];  /* one per PE and region */
    void **pending;                           /* requests whose data quiet must wait for */
    size_t n_pending, cap_pending;
    int issued;                               /* operations since the last flush */
};

static ucp_context_h context;
static struct sshmem_tx default_tx;
static ucp_mem_h mem[SSHMEM_NUM_REGIONS];
static void *packed_rkey[SSHMEM_NUM_REGIONS];
static size_t packed_rkey_len[SSHMEM_NUM_REGIONS];

SSHMEM_NORETURN SSHMEM_COLD static void ucx_fail(const char *call, const char *what,
                                                 ucs_status_t st)
{
    sshmem_fatal(call, "UCX %s failed: %s", what, ucs_status_string(st));
}

struct sshmem_tx *sshmem_tx_default(void) { return &default_tx; }

const char *sshmem_tx_version(void) { return ucp_get_version_string(); }

void sshmem_tx_init(int thread_multiple)
{
    ucp_params_t params = {0};
    ucp_config_t *config;
    ucs_status_t st = ucp_config_read(NULL, NULL, &config);
    if (st != UCS_OK)
        ucx_fail("shmem_init", "configuration", st);
    params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED;
    params.features = UCP_FEATURE_RMA | UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64;
    params.mt_workers_shared = thread_multiple;
    st = ucp_init(&params, config, &context);
    ucp_config_release(config);
    if (st != UCS_OK)
        ucx_fail("shmem_init", "initialisation (ucp_init)", st);

    ucp_worker_params_t wp = {0};
    wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    wp.thread_mode = thread_multiple ? UCS_THREAD_MODE_MULTI : UCS_THREAD_MODE_SINGLE;
    st = ucp_worker_create(context, &wp, &default_tx.worker);
    if (st != UCS_OK)
        ucx_fail("shmem_init", "worker creation", st);
    default_tx.eps = calloc((size_t)sshmem.n_pes, sizeof *default_tx.eps);
    default_tx.rkeys = calloc((size_t)sshmem.n_pes, sizeof *default_tx.rkeys);
    if (!default_tx.eps || !default_tx.rkeys)
        sshmem_fatal("shmem_init", "out of memory for %d endpoints", sshmem.n_pes);
}

static void pack_rkey(enum sshmem_region region)
{
    ucs_status_t st = ucp_rkey_pack(context, mem[region], &packed_rkey[region],
                                    &packed_rkey_len[region]);
    if (st != UCS_OK)
        ucx_fail("shmem_init", "rkey packing", st);
}

void *sshmem_tx_heap_alloc(size_t size)
{
    ucp_mem_map_params_t mp = {0};
    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS;
    mp.length = size;
    mp.flags = UCP_MEM_MAP_ALLOCATE;
    ucs_status_t st = ucp_mem_map(context, &mp, &mem[SSHMEM_REGION_HEAP]);
    if (st != UCS_OK) {
        char b[32];
        sshmem_fatal("shmem_init", "cannot allocate the symmetric heap of %s (UCX: %s). "
                     "Lower SHMEM_SYMMETRIC_SIZE or free memory.",
                     sshmem_human_bytes(size, b), ucs_status_string(st));
    }
    ucp_mem_attr_t attr;
    attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS | UCP_MEM_ATTR_FIELD_LENGTH;
    st = ucp_mem_query(mem[SSHMEM_REGION_HEAP], &attr);
    if (st != UCS_OK)
        ucx_fail("shmem_init", "heap query", st);
    pack_rkey(SSHMEM_REGION_HEAP);
    return attr.address;
}

void sshmem_tx_register(enum sshmem_region region, void *base, size_t size)
{
    ucp_mem_map_params_t mp = {0};
    mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH;
    mp.address = base;
    mp.length = size;
    ucs_status_t st = ucp_mem_map(context, &mp, &mem[region]);
    if (st != UCS_OK)
        ucx_fail("shmem_init", "registration of global data", st);
    pack_rkey(region);
}

/* Card layout: u32 address length, address, then per region u32 rkey length and rkey. */
static void put_blob(char **p, const void *data, size_t len)
{
    uint32_t l = (uint32_t)len;
    memcpy(*p, &l, 4);
    if (len)
        memcpy(*p + 4, data, len);
    *p += 4 + len;
}

static const void *get_blob(const char **p, const char *end, size_t *len)
{
    uint32_t l;
    if (end - *p < 4)
        return NULL;
    memcpy(&l, *p, 4);
    if ((size_t)(end - *p - 4) < l)
        return NULL;
    const void *data = *p + 4;
    *p += 4 + l;
    *len = l;
    return data;
}

void *sshmem_tx_card(size_t *len)
{
    ucp_address_t *addr;
    size_t addr_len;
    ucs_status_t st = ucp_worker_get_address(default_tx.worker, &addr, &addr_len);
    if (st != UCS_OK)
        ucx_fail("shmem_init", "worker address", st);
    size_t total = 4 + addr_len;
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        total += 4 + packed_rkey_len[r];
    char *card = malloc(total), *p = card;
    put_blob(&p, addr, addr_len);
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        put_blob(&p, packed_rkey[r], packed_rkey_len[r]);
    ucp_worker_release_address(default_tx.worker, addr);
    *len = total;
    return card;
}

void sshmem_tx_connect(int pe, const void *card, size_t len)
{
    const char *p = card, *end = p + len;
    size_t addr_len, rkey_len;
    const void *addr = get_blob(&p, end, &addr_len);
    if (!addr)
        sshmem_fatal("shmem_init", "malformed address card from PE %d", pe);

    ucp_ep_params_t ep = {0};
    ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
    ep.address = addr;
    ucs_status_t st = ucp_ep_create(default_tx.worker, &ep, &default_tx.eps[pe]);
    if (st != UCS_OK)
        ucx_fail("shmem_init", "endpoint creation", st);
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++) {
        const void *rkey = get_blob(&p, end, &rkey_len);
        if (!rkey)
            sshmem_fatal("shmem_init", "malformed rkey from PE %d", pe);
        if (rkey_len == 0)
            continue;
        st = ucp_ep_rkey_unpack(default_tx.eps[pe], rkey, &default_tx.rkeys[pe][r]);
        if (st != UCS_OK)
            ucx_fail("shmem_init", "rkey unpacking", st);
    }
}

void *sshmem_tx_direct_ptr(int pe, enum sshmem_region region, uint64_t raddr)
{
    void *local = NULL;
    ucp_rkey_h rkey = default_tx.rkeys[pe][region];
    if (!rkey || ucp_rkey_ptr(rkey, raddr, &local) != UCS_OK)
        return NULL;
    return local;
}

/* ------------------------------------------------------------------ requests */

static void wait_request(ucp_worker_h worker, void *req, const char *what)
{
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        ucx_fail(what, "operation", UCS_PTR_STATUS(req));
    ucs_status_t st;
    while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS)
        ucp_worker_progress(worker);
    ucp_request_free(req);
    if (st != UCS_OK)
        ucx_fail(what, "operation", st);
}

/* Keep a request whose data quiet must wait for; release one nobody waits for. */
static void keep_request(struct sshmem_tx *tx, void *req, int wait_at_quiet, const char *what)
{
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        ucx_fail(what, "operation", UCS_PTR_STATUS(req));
    if (!wait_at_quiet) {
        ucp_request_free(req);
        return;
    }
    if (tx->n_pending == tx->cap_pending) {
        tx->cap_pending = tx->cap_pending ? 2 * tx->cap_pending : 64;
        tx->pending = realloc(tx->pending, tx->cap_pending * sizeof *tx->pending);
        if (!tx->pending)
            sshmem_fatal(what, "out of memory for pending requests");
    }
    tx->pending[tx->n_pending++] = req;
}

static ucp_rkey_h rkey_of(struct sshmem_tx *tx, int pe, enum sshmem_region region)
{
    ucp_rkey_h rkey = tx->rkeys[pe][region];
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
    void *req = ucp_put_nbx(tx->eps[pe], src, len, raddr, rkey_of(tx, pe, region), &param);
    tx->issued = 1;
    if (blocking)
        wait_request(tx->worker, req, "shmem_put");
    else
        keep_request(tx, req, 0, "shmem_put_nbi");
}

void sshmem_tx_get(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                   void *dst, size_t len, int blocking)
{
    ucp_request_param_t param = {0};
    void *req = ucp_get_nbx(tx->eps[pe], dst, len, raddr, rkey_of(tx, pe, region), &param);
    tx->issued = 1;
    if (blocking)
        wait_request(tx->worker, req, "shmem_get");
    else
        keep_request(tx, req, 1, "shmem_get_nbi");
}

static const ucp_atomic_op_t ucx_op[] = {
    [SSHMEM_AMO_ADD] = UCP_ATOMIC_OP_ADD,   [SSHMEM_AMO_AND] = UCP_ATOMIC_OP_AND,
    [SSHMEM_AMO_OR] = UCP_ATOMIC_OP_OR,     [SSHMEM_AMO_XOR] = UCP_ATOMIC_OP_XOR,
    [SSHMEM_AMO_SWAP] = UCP_ATOMIC_OP_SWAP, [SSHMEM_AMO_CSWAP] = UCP_ATOMIC_OP_CSWAP,
    [SSHMEM_AMO_FETCH] = UCP_ATOMIC_OP_ADD, [SSHMEM_AMO_SET] = UCP_ATOMIC_OP_SWAP,
};

/* Issue one atomic; `reply` receives the old value (for CSWAP it must hold `compare`). */
static void *issue_amo(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                       sshmem_amo_op_t op, size_t size, const void *operand, void *reply)
{
    ucp_request_param_t param = {0};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE;
    param.datatype = ucp_dt_make_contig(size);
    if (reply) {
        param.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        param.reply_buffer = reply;
    }
    tx->issued = 1;
    return ucp_atomic_op_nbx(tx->eps[pe], ucx_op[op], operand, 1, raddr,
                             rkey_of(tx, pe, region), &param);
}

static int is_bitwise(sshmem_amo_op_t op)
{
    return op == SSHMEM_AMO_AND || op == SSHMEM_AMO_OR || op == SSHMEM_AMO_XOR;
}

/*
 * Fetching AND/OR/XOR as a compare-and-swap loop. Measured on UCX 1.13.1 (Debian 12): a
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
     * complete only once applied, so every atomic on globals fetches. */
    if (region == SSHMEM_REGION_DATA)
        fetch = 1;
    if (fetch && is_bitwise(op))
        return fetch_bitwise_by_cas(tx, pe, region, raddr, op, size, operand);
    /* Operands and replies are size bytes at the start of these words (little-endian). */
    /* For CSWAP UCX compares with `buffer` and swaps in the reply buffer's value. */
    uint64_t value = op == SSHMEM_AMO_FETCH ? 0 : op == SSHMEM_AMO_CSWAP ? compare : operand;
    uint64_t reply = op == SSHMEM_AMO_CSWAP ? operand : 0;
    int need_reply = fetch || op == SSHMEM_AMO_SWAP || op == SSHMEM_AMO_CSWAP ||
                     op == SSHMEM_AMO_FETCH || op == SSHMEM_AMO_SET;
    void *req = issue_amo(tx, pe, region, raddr, op, size, &value, need_reply ? &reply : NULL);
    if (need_reply) {
        wait_request(tx->worker, req, "shmem_atomic");
    } else {
        keep_request(tx, req, 0, "shmem_atomic");
        return 0;
    }
    return size == 4 ? (uint32_t)reply : reply;
}

void sshmem_tx_amo_nbi(struct sshmem_tx *tx, int pe, enum sshmem_region region, uint64_t raddr,
                       sshmem_amo_op_t op, size_t size, uint64_t operand, uint64_t compare,
                       void *fetch_out)
{
    if (is_bitwise(op)) { /* see fetch_bitwise_by_cas */
        uint64_t old = fetch_bitwise_by_cas(tx, pe, region, raddr, op, size, operand);
        memcpy(fetch_out, &old, size);
        return;
    }
    /* For CSWAP UCX compares with `buffer` and swaps in the reply buffer's value. */
    if (op == SSHMEM_AMO_CSWAP)
        memcpy(fetch_out, &operand, size);
    uint64_t value = op == SSHMEM_AMO_FETCH ? 0 : op == SSHMEM_AMO_CSWAP ? compare : operand;
    void *req = issue_amo(tx, pe, region, raddr, op, size, &value, fetch_out);
    keep_request(tx, req, 1, "shmem_atomic_nbi");
}

/* ------------------------------------------------------------------ completion */

void sshmem_tx_quiet(struct sshmem_tx *tx)
{
    for (size_t i = 0; i < tx->n_pending; i++)
        wait_request(tx->worker, tx->pending[i], "shmem_quiet");
    tx->n_pending = 0;
    if (!tx->issued)
        return;
    ucp_request_param_t param = {0};
    void *req = ucp_worker_flush_nbx(tx->worker, &param);
    wait_request(tx->worker, req, "shmem_quiet");
    tx->issued = 0;
}

void sshmem_tx_fence(struct sshmem_tx *tx)
{
    if (!tx->issued)
        return;
    ucs_status_t st = ucp_worker_fence(tx->worker);
    if (st != UCS_OK)
        ucx_fail("shmem_fence", "fence", st);
}

void sshmem_tx_progress(void) { ucp_worker_progress(default_tx.worker); }

void sshmem_tx_finalize(void)
{
    struct sshmem_tx *tx = &default_tx;
    if (!context)
        return;
    sshmem_tx_quiet(tx);
    for (int pe = 0; pe < sshmem.n_pes; pe++) {
        for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
            if (tx->rkeys[pe][r])
                ucp_rkey_destroy(tx->rkeys[pe][r]);
        if (!tx->eps[pe])
            continue;
        /* Forced close: peers may already be gone, and nothing is in flight after quiet. */
        ucp_request_param_t param = {0};
        param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
        param.flags = UCP_EP_CLOSE_FLAG_FORCE;
        void *req = ucp_ep_close_nbx(tx->eps[pe], &param);
        if (req && !UCS_PTR_IS_ERR(req)) {
            while (ucp_request_check_status(req) == UCS_INPROGRESS)
                ucp_worker_progress(tx->worker);
            ucp_request_free(req);
        }
    }
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++) {
        if (packed_rkey[r])
            ucp_rkey_buffer_release(packed_rkey[r]);
        if (mem[r])
            ucp_mem_unmap(context, mem[r]);
    }
    ucp_worker_destroy(tx->worker);
    ucp_cleanup(context);
    context = NULL;
    free(tx->eps);
    free(tx->rkeys);
    free(tx->pending);
}
