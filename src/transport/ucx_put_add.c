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
 */
#include <stdlib.h>
#include <string.h>

#include "core/env.h"
#include "core/error.h"
#include "core/team_math.h"
#include "transport/ucx_tx.h"

/* Messages up to this size go by UCX's eager protocol, even past UCX's own rendezvous
 * threshold: over tcp a rendezvous costs handshakes of ~100 us (a 64 KiB allreduce at 2 PEs
 * took 168 us with it, 63 without), more than the copy out of UCX's receive buffer. Larger
 * ones (whole 1 MiB blocks of the gather family, several at one target) keep the rendezvous:
 * forced eager, a 1 MiB allgatherv at 4 PEs took 24,600 us instead of 6,500. The reductions'
 * pieces stay below it (they are cut to the landing buffer): 1 MiB allreduced at 4 PEs, 6,700
 * -> 3,000 us; malloc'd buffers 24,100 -> 4,700. */
#define PUT_ADD_EAGER_MAX (256 * 1024)

typedef struct put_add_hdr {
    uint64_t raddr;      /* where the data goes, in the target's address space */
    uint64_t flag_raddr; /* the long to add to, after the data */
    int64_t amount;
} put_add_hdr_t;

int sshmem_tx_put_add_pays(int pe)
{
    if (!sshmem_env.coll_messages || !sshmem_ucx_rma_emulated)
        return 0;
    (void)sshmem_peer(pe); /* its card: the same answer at both ends needs it */
    return sshmem_ucx_card_of(pe)->rma_emulated && !sshmem_ucx_heap_mapping(pe);
}

int sshmem_tx_messages_among(const sshmem_triplet_t *set)
{
    if (!sshmem_env.coll_messages)
        return 0;
    int shm = 0, nodes = 0;
    const int node0 = sshmem.peers[sshmem_triplet_pe(set, 0)].node_id;
    for (int i = 0; i < set->size; i++) {
        const int pe = sshmem_triplet_pe(set, i);
        int emulated = sshmem_ucx_rma_emulated, pe_shm = sshmem_ucx_rma_shm;
        if (pe != sshmem.my_pe) {
            (void)sshmem_peer(pe); /* its card */
            emulated = sshmem_ucx_card_of(pe)->rma_emulated;
            pe_shm = sshmem_ucx_card_of(pe)->rma_shm;
        }
        if (!emulated)
            return 0;
        shm |= pe_shm;
        nodes |= sshmem.peers[pe].node_id != node0;
    }
    return nodes || !shm;
}

void sshmem_tx_put_add(struct sshmem_tx *tx, int pe, uint64_t raddr, const void *src, size_t len,
                       uint64_t flag_raddr, long amount, sshmem_tx_put_add_req_t *later)
{
    _Static_assert(sizeof(put_add_hdr_t) == sizeof later->hdr, "a request keeps a header");
    /* UCX reads the header and the data until the request completes: both stay alive, here
     * or in *later. */
    const put_add_hdr_t hdr = {.raddr = raddr, .flag_raddr = flag_raddr, .amount = amount};
    const put_add_hdr_t *h = &hdr;
    if (later) {
        memcpy(later->hdr, &hdr, sizeof hdr);
        h = (const put_add_hdr_t *)later->hdr;
    }
    ucp_request_param_t param = {0};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = len <= PUT_ADD_EAGER_MAX ? UCP_AM_SEND_FLAG_EAGER : 0;
    sshmem_tx_lock(tx);
    ucp_ep_h ep = sshmem_ucx_ep(tx, pe, "a collective");
    void *req = ucp_am_send_nbx(ep, AM_PUT_ADD, h, sizeof hdr, src, len, &param);
    sshmem_tx_unlock(tx);
    if (later) {
        if (UCS_PTR_IS_ERR(req))
            sshmem_ucx_fail("a collective's data", "operation", UCS_PTR_STATUS(req));
        later->req = req;
        return;
    }
    sshmem_ucx_wait(tx, req, "a collective's data");
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

static ucs_status_t on_put_add(void *arg, const void *header, size_t header_len, void *data,
                               size_t length, const ucp_am_recv_param_t *param)
{
    struct sshmem_tx *tx = arg;
    put_add_hdr_t h;
    if (header_len != sizeof h)
        sshmem_fatal("a collective", "a message with a %zu-byte header (expected %zu)",
                     header_len, sizeof h);
    memcpy(&h, header, sizeof h);
    char *into = (char *)(uintptr_t)h.raddr;
    if (!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        memcpy(into, data, length);
        raise_flag(&h);
        return UCS_OK;
    }
    put_add_hdr_t *keep = malloc(sizeof *keep);
    if (!keep)
        sshmem_fatal("a collective", "out of memory for an incoming transfer");
    *keep = h;
    sshmem_ucx_am_fetch(tx, data, into, length, fetched, keep, "a collective");
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
