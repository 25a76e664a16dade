/*
 * ucx_worker.c: the life of a context's worker: creation, endpoints wired up on first use,
 * a cache of workers from destroyed contexts, teardown.
 *
 * A context made by shmem_ctx_create has a UCP worker of its own, so that shmem_ctx_quiet
 * flushes only that context's operations. Its endpoints connect to the peers' default
 * workers, whose addresses every PE already has from the start-up exchange: UCX wires them up
 * against those workers without the peers doing anything, so creating a context is local
 * (not collective). The endpoint to a peer is made when the context first talks to it, so a
 * context costs one worker, not one endpoint per PE of the job, and its table of peers grows
 * by chunks (ucx_tx.h, struct tx_peer) as it reaches them.
 */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "transport/ucx_tx.h"

static void free_arrays(struct sshmem_tx *tx)
{
    if (tx->peer_chunks)
        for (size_t c = 0; c < sshmem_peer_chunks(sshmem.n_pes); c++)
            free(tx->peer_chunks[c]);
    free(tx->peer_chunks);
    free(tx->pending_pes);
    free(tx->quieting);
    free(tx->quieting_flags);
    free(tx->reqs);
    tx->peer_chunks = NULL;
    tx->pending_pes = tx->quieting = NULL;
    tx->quieting_flags = NULL;
    tx->reqs = NULL;
    tx->n_reached = tx->pending_cap = tx->quieting_cap = tx->scratch_cap = 0;
}

int sshmem_ucx_tx_setup(struct sshmem_tx *tx, int shared)
{
    tx->peer_chunks = calloc(sshmem_peer_chunks(sshmem.n_pes), sizeof *tx->peer_chunks);
    if (!tx->peer_chunks)
        return -1;
    tx->pending_pes = tx->quieting = NULL;
    tx->quieting_flags = NULL;
    tx->reqs = NULL;
    tx->n_reached = tx->pending_cap = tx->quieting_cap = tx->scratch_cap = 0;
    tx->n_pending = tx->n_emulated = 0;
    tx->operand_next = tx->operands_held = 0;
    memset(tx->operands, 0, sizeof tx->operands);
    tx->shared = tx->multi = shared;
    sshmem_ucx_staging_setup(tx);
    sshmem_ucx_put_add_setup(tx);
    tx->lock = (sshmem_worker_lock_t){0};
    pthread_mutex_init(&tx->quiet_lock, NULL);
    return 0;
}

void sshmem_ucx_list_reserve(void **list, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return;
    int grown = *cap ? *cap : 16;
    while (grown < need)
        grown *= 2;
    void *l = realloc(*list, (size_t)grown * size);
    if (!l)
        sshmem_fatal("sshmem", "out of memory for the completion lists of %d peers", need);
    *list = l;
    *cap = grown;
}

void sshmem_ucx_quiet_reserve(struct sshmem_tx *tx, int n)
{
    sshmem_ucx_list_reserve((void **)&tx->quieting, &tx->quieting_cap, tx->n_reached,
                            sizeof *tx->quieting);
    if (n <= tx->scratch_cap)
        return;
    int cap = tx->scratch_cap;
    sshmem_ucx_list_reserve((void **)&tx->quieting_flags, &cap, n, sizeof *tx->quieting_flags);
    cap = tx->scratch_cap;
    sshmem_ucx_list_reserve((void **)&tx->reqs, &cap, n, sizeof *tx->reqs);
    tx->scratch_cap = cap;
}

/* tx's entry for pe, its chunk made now if none of its peers was reached yet. */
static struct tx_peer *peer_made(struct sshmem_tx *tx, int pe)
{
    struct tx_peer *p = sshmem_ucx_peer_if_made(tx, pe);
    if (p)
        return p;
    struct tx_peer *chunk = calloc(SSHMEM_PEER_CHUNK, sizeof *chunk);
    if (!chunk)
        sshmem_fatal("sshmem", "out of memory for the endpoints of PE %d", pe);
    __atomic_store_n(&tx->peer_chunks[pe >> SSHMEM_PEER_CHUNK_BITS], chunk, __ATOMIC_RELEASE);
    return chunk + (pe & (SSHMEM_PEER_CHUNK - 1));
}

void sshmem_ucx_connect(struct sshmem_tx *tx, int pe, const char *call)
{
    const sshmem_ucx_card_t *card = sshmem_ucx_card_of(pe);
    if (!card || !card->address) /* the API learns a peer (heap/peers.c) before it gets here */
        sshmem_fatal(call, "internal error: PE %d's card is not known yet", pe);
    ucp_address_t *own = NULL;
    size_t own_len;
    ucp_ep_params_t ep = {0};
    ep.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
    ep.address = card->address;
    /* A context reaches its own PE through its own worker (UCX's loopback transport), not
     * through the default worker: nobody might progress that one while this thread waits on
     * its context (over tcp it would even be a socket to ourselves). */
    if (tx != sshmem_tx_default() && pe == sshmem.my_pe) {
        ucs_status_t st = ucp_worker_get_address(tx->worker, &own, &own_len);
        if (st != UCS_OK)
            sshmem_ucx_fail(call, "worker address", st);
        ep.address = own;
    }
    struct tx_peer *peer = peer_made(tx, pe);
    /* Every peer with an endpoint may be listed for the next quiet. */
    sshmem_ucx_list_reserve((void **)&tx->pending_pes, &tx->pending_cap, tx->n_reached + 1,
                            sizeof *tx->pending_pes);
    ucs_status_t st = ucp_ep_create(tx->worker, &ep, &peer->ep);
    if (own)
        ucp_worker_release_address(tx->worker, own);
    if (st != UCS_OK)
        sshmem_ucx_fail(call, "endpoint creation", st);
    /* Registered memory belongs to the UCX context: any worker may use the same packed keys. */
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++) {
        if (card->rkey_len[r] == 0)
            continue;
        st = ucp_ep_rkey_unpack(peer->ep, card->rkey[r], &peer->rkey[r]);
        if (st != UCS_OK)
            sshmem_ucx_fail(call, "rkey unpacking", st);
    }
    tx->n_reached++;
}

static void close_endpoint(struct sshmem_tx *tx, ucp_ep_h ep, int force)
{
    ucp_request_param_t param = {0};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = force ? UCP_EP_CLOSE_FLAG_FORCE : 0;
    void *req = ucp_ep_close_nbx(ep, &param);
    if (req == NULL || UCS_PTR_IS_ERR(req))
        return;
    while (ucp_request_check_status(req) == UCS_INPROGRESS)
        ucp_worker_progress(tx->worker);
    ucp_request_free(req);
}

void sshmem_ucx_tx_teardown(struct sshmem_tx *tx, int force)
{
    /* Atomics still in flight (only when peers are gone): UCX frees them with the worker. */
    for (unsigned i = 0; i < SSHMEM_UCX_OPERANDS; i++)
        if (tx->operands[i].req)
            ucp_request_free(tx->operands[i].req);
    tx->operands_held = 0;
    sshmem_ucx_late_discard(tx); /* none, unless the job ends without a quiet */
    for (int pe = 0; pe < sshmem.n_pes; pe++) {
        struct tx_peer *p = sshmem_ucx_peer_if_made(tx, pe);
        if (!p) { /* no peer of this chunk was reached */
            pe |= SSHMEM_PEER_CHUNK - 1;
            continue;
        }
        for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
            if (p->rkey[r])
                ucp_rkey_destroy(p->rkey[r]);
        if (p->ep)
            close_endpoint(tx, p->ep, force);
    }
    ucp_worker_destroy(tx->worker);
    tx->worker = NULL;
    sshmem_ucx_staging_release(tx);
    free_arrays(tx);
    pthread_mutex_destroy(&tx->quiet_lock);
}

/* Workers of destroyed contexts, kept for the next ones: a new UCX worker costs milliseconds
 * (shared-memory queues, sockets), one from this cache nothing, and its endpoints are wired
 * up already. */
#define IDLE_MAX 16
static struct sshmem_tx *idle[IDLE_MAX];
static int n_idle;
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;

static struct sshmem_tx *new_tx(int shared)
{
    struct sshmem_tx *tx = calloc(1, sizeof *tx);
    if (!tx)
        return NULL;
    /* SERIALIZED: a worker may serve a context of any thread over its life (cache), one
     * thread at a time, or several under tx->lock (ucx_tx.h). UCX 1.13 takes no lock in this
     * mode, as in SINGLE. */
    ucp_worker_params_t wp = {0};
    wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
    wp.thread_mode = UCS_THREAD_MODE_SERIALIZED;
    if (ucp_worker_create(sshmem_ucx_context, &wp, &tx->worker) != UCS_OK) {
        free(tx); /* out of resources: context creation fails, and may be retried */
        return NULL;
    }
    if (sshmem_ucx_tx_setup(tx, shared) != 0) {
        ucp_worker_destroy(tx->worker);
        free(tx);
        return NULL;
    }
    return tx;
}

struct sshmem_tx *sshmem_tx_create(int shared, int private_to_thread)
{
    (void)private_to_thread; /* no lock either way; see new_tx for the worker's mode */
    struct sshmem_tx *tx = NULL;
    pthread_mutex_lock(&idle_lock);
    if (n_idle)
        tx = idle[--n_idle];
    pthread_mutex_unlock(&idle_lock);
    if (!tx)
        return new_tx(shared);
    tx->shared = tx->multi = shared;
    return tx;
}

void sshmem_tx_destroy(struct sshmem_tx *tx)
{
    sshmem_tx_quiet(tx);
    pthread_mutex_lock(&idle_lock);
    int kept = n_idle < IDLE_MAX;
    if (kept)
        idle[n_idle++] = tx;
    pthread_mutex_unlock(&idle_lock);
    if (kept)
        return;
    /* Not forced: the peers are alive, and a graceful close lets them drop their side. */
    sshmem_ucx_tx_teardown(tx, 0);
    free(tx);
}

void sshmem_ucx_release_idle(void)
{
    pthread_mutex_lock(&idle_lock);
    while (n_idle) {
        struct sshmem_tx *tx = idle[--n_idle];
        sshmem_ucx_tx_teardown(tx, 1); /* at finalize: peers may be gone */
        free(tx);
    }
    pthread_mutex_unlock(&idle_lock);
}
