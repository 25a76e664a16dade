/*
 * ucx_late.c: under the weak-ordering mode (SSHMEM_WEAK, sync/weak.c), the puts that sshmem
 * hands to UCX are held to what UCX 1.13 promises and to nothing more.
 *
 * UCX promises that a completed put request means its source may be reused, and that a flush
 * completes every operation issued before it on the endpoint. It does not promise that a put
 * lands before a later atomic, active message or put to the same PE: on RDMA they may travel
 * on different lanes (a zero-copy or rendezvous lane for large puts, another for small ones,
 * atomics and active messages), and before 1.14 ucp_worker_fence orders within one lane only.
 * On this machine every transport delivers in order, so code that leans on that order works
 * here and fails on a cluster. In the mode a put is therefore not given to UCX when issued:
 * its bytes are copied (the request is complete at once, as the contract allows) and held on
 * the default context, whose worker carries sshmem's own traffic (the program's operations
 * reach UCX through the mode's deliveries, sync/weak.c, each flushed as it lands; those of
 * other contexts to this PE itself, which the mode does not hold, are left alone), until
 *  - a flush of its endpoint (quiet, pe_quiet, the fence, which is a flush before UCX 1.14,
 *    the drain at finalize), which issues the endpoint's held puts in a random order first;
 *  - a get from that PE (a PE reads its own writes, as the mode's user operations do);
 *  - a poll of the default worker that draws it (each held put has a chance per poll), or the
 *    mode's thread, for a put held longer than LATE_AGE_NS, so that nothing waits forever.
 * Atomics and active messages go at once: they overtake the held puts, as another lane would.
 * Nothing here runs outside the mode (one test of sshmem_env.weak on the UCX put path).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/env.h"
#include "core/error.h"
#include "transport/ucx_tx.h"

#define LATE_AGE_NS 5000000ull /* the mode's thread issues what waited longer than 5 ms */

struct late_put {
    struct late_put *next;
    int pe;
    enum sshmem_region region;
    uint64_t raddr;
    size_t len;
    uint64_t born_ns;
    char data[];
};

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* The context's generator (xorshift64*), seeded from the mode's seed and the PE. */
static uint64_t late_random(struct sshmem_tx *tx)
{
    if (!tx->late_rng)
        tx->late_rng = ((uint64_t)sshmem_env.weak << 32 | (uint32_t)sshmem.my_pe) *
                           0x9e3779b97f4a7c15ull | 1;
    tx->late_rng ^= tx->late_rng >> 12;
    tx->late_rng ^= tx->late_rng << 25;
    tx->late_rng ^= tx->late_rng >> 27;
    return (tx->late_rng * 2685821657736338717ull) >> 33;
}

int sshmem_ucx_late_hold(struct sshmem_tx *tx, int pe, enum sshmem_region region,
                         uint64_t raddr, const void *src, size_t len)
{
    if (!sshmem_env.weak || tx != sshmem_tx_default())
        return 0;
    struct late_put *p = malloc(sizeof *p + len);
    if (!p)
        sshmem_fatal("the weak-ordering mode", "out of memory holding a put of %zu bytes", len);
    p->pe = pe;
    p->region = region;
    p->raddr = raddr;
    p->len = len;
    p->born_ns = now_ns();
    memcpy(p->data, src, len);
    p->next = tx->late;
    tx->late = p;
    tx->n_late++;
    return 1;
}

static void issued(void *request, ucs_status_t status, void *user_data)
{
    free(user_data);
    ucp_request_free(request);
    if (status != UCS_OK)
        sshmem_ucx_fail("a put held by the weak-ordering mode", "put", status);
}

/* Give p to UCX (it is off the list): its buffer lives until the request completes. */
static void issue(struct sshmem_tx *tx, struct late_put *p)
{
    ucp_request_param_t param = {0};
    param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    param.cb.send = issued;
    param.user_data = p;
    sshmem_ucx_count_message();
    const struct tx_peer *peer = sshmem_ucx_peer(tx, p->pe);
    void *req = ucp_put_nbx(peer->ep, p->data, p->len, p->raddr, peer->rkey[p->region], &param);
    if (UCS_PTR_IS_ERR(req))
        sshmem_ucx_fail("a put held by the weak-ordering mode", "put", UCS_PTR_STATUS(req));
    if (req == NULL)
        free(p);
}

/* Issue the held puts that pick(p, arg) chooses, in a random order. */
static void issue_where(struct sshmem_tx *tx, int (*pick)(struct sshmem_tx *, struct late_put *,
                                                          const void *),
                        const void *arg)
{
    /* Take the chosen ones off the list, then issue them in a random order. */
    struct late_put *chosen = NULL, **link = &tx->late;
    unsigned n = 0;
    while (*link) {
        struct late_put *p = *link;
        if (pick(tx, p, arg)) {
            *link = p->next;
            p->next = chosen;
            chosen = p;
            n++;
        } else {
            link = &p->next;
        }
    }
    tx->n_late -= n;
    for (; n; n--) {
        unsigned k = (unsigned)(late_random(tx) % n);
        struct late_put **at = &chosen;
        while (k--)
            at = &(*at)->next;
        struct late_put *p = *at;
        *at = p->next;
        issue(tx, p);
    }
}

static int to_pe(struct sshmem_tx *tx, struct late_put *p, const void *pe)
{
    return *(const int *)pe < 0 || p->pe == *(const int *)pe;
}

static int by_chance(struct sshmem_tx *tx, struct late_put *p, const void *arg)
{
    return late_random(tx) % 4 == 0;
}

static int older_than(struct sshmem_tx *tx, struct late_put *p, const void *limit_ns)
{
    return p->born_ns < *(const uint64_t *)limit_ns;
}

void sshmem_ucx_late_release(struct sshmem_tx *tx, int pe)
{
    if (tx->late)
        issue_where(tx, to_pe, &pe);
}

void sshmem_ucx_late_tick(struct sshmem_tx *tx)
{
    if (tx->late)
        issue_where(tx, by_chance, NULL);
}

void sshmem_ucx_late_discard(struct sshmem_tx *tx)
{
    while (tx->late) {
        struct late_put *p = tx->late;
        tx->late = p->next;
        free(p);
    }
    tx->n_late = 0;
}

void sshmem_tx_release_late(void)
{
    struct sshmem_tx *tx = sshmem_tx_default();
    if (!__atomic_load_n(&tx->n_late, __ATOMIC_RELAXED))
        return;
    uint64_t limit = now_ns() - LATE_AGE_NS;
    sshmem_tx_lock(tx);
    issue_where(tx, older_than, &limit);
    sshmem_tx_unlock(tx);
}
