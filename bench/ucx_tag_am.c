/*
 * ucx_tag_am.c: UCX's tag matching beside its active messages, the two ways a collective's
 * message can reach a receiver whose CPU must take part (UCX over tcp). sshmem's collectives
 * send active messages that the target applies (data, then a flag: coll_put_signal and its
 * gates, doc/collectives.md "Mechanisms"); tag matching would queue a message that comes
 * early in UCX itself, which could replace the gates, held messages and invitations. This
 * measures what each costs in time: a ping-pong of one
 * message each way, both through UCX and nothing else, alternating the two kinds.
 *
 * Two processes (a fork) exchange their worker addresses through pipes. Per size, 5 rounds
 * alternate tag and am; each round times a batch of ping-pongs; the value is the median
 * round's one-way time (half a round trip) in microseconds.
 *  - tag: ucp_tag_send_nbx / ucp_tag_recv_nbx, the receive posted when the receiver gets
 *    to it (so an early message waits in UCX's unexpected queue, as a collective's would).
 *  - am: ucp_am_send_nbx; the handler copies eager data to its place and raises a flag,
 *    or for rendezvous data starts ucp_am_recv_data_nbx into its place (what sshmem's
 *    data-and-flag message does, transport/ucx_put_add.c).
 *
 *   UCX_TLS=tcp,self bench/ucx_tag_am     (or UCX_TLS=sm,self, or unset)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <ucp/api/ucp.h>

#define AM_ID 7
#define ROUNDS 5
#define MAX_BYTES (1u << 20)

static ucp_context_h context;
static ucp_worker_h worker;
static ucp_ep_h ep;
static char *place;           /* where a message's data lands */
static volatile int arrived;  /* am: messages applied so far */

static void die(const char *what, ucs_status_t s)
{
    fprintf(stderr, "ucx_tag_am: %s: %s\n", what, ucs_status_string(s));
    exit(1);
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void wait_request(void *req, const char *what)
{
    if (req == NULL)
        return;
    if (UCS_PTR_IS_ERR(req))
        die(what, UCS_PTR_STATUS(req));
    while (ucp_request_check_status(req) == UCS_INPROGRESS)
        ucp_worker_progress(worker);
    ucs_status_t s = ucp_request_check_status(req);
    ucp_request_free(req);
    if (s != UCS_OK)
        die(what, s);
}

/* ------------------------------------------------------------------ tag matching */

static void tag_send(size_t len)
{
    ucp_request_param_t p = {0};
    wait_request(ucp_tag_send_nbx(ep, place, len, 1, &p), "tag send");
}

static void tag_recv(size_t len)
{
    ucp_request_param_t p = {0};
    wait_request(ucp_tag_recv_nbx(worker, place, len, 1, UINT64_MAX, &p), "tag recv");
}

/* ------------------------------------------------------------------ active messages */

static void rndv_done(void *req, ucs_status_t s, size_t len, void *user)
{
    (void)len, (void)user;
    if (s != UCS_OK)
        die("am rendezvous data", s);
    arrived++;
    if (req)
        ucp_request_free(req); /* here: freed earlier, it would call nobody back */
}

static ucs_status_t am_handler(void *arg, const void *header, size_t header_len, void *data,
                               size_t len, const ucp_am_recv_param_t *param)
{
    (void)arg, (void)header, (void)header_len;
    if (!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        memcpy(place, data, len);
        arrived++;
        return UCS_OK;
    }
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK,
                             .cb.recv_am = rndv_done};
    void *req = ucp_am_recv_data_nbx(worker, data, place, len, &p);
    if (UCS_PTR_IS_ERR(req))
        die("am rendezvous receive", UCS_PTR_STATUS(req));
    if (req == NULL) /* in at once: no callback comes */
        arrived++;
    return UCS_OK;
}

static void am_send(size_t len)
{
    ucp_request_param_t p = {0};
    wait_request(ucp_am_send_nbx(ep, AM_ID, NULL, 0, place, len, &p), "am send");
}

static void am_recv(int want)
{
    while (arrived < want)
        ucp_worker_progress(worker);
}

/* ------------------------------------------------------------------ set-up */

static void setup(int rank, int to_peer, int from_peer)
{
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES,
                           .features = UCP_FEATURE_TAG | UCP_FEATURE_AM};
    ucs_status_t s = ucp_init(&params, NULL, &context);
    if (s != UCS_OK)
        die("ucp_init", s);
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SINGLE};
    if ((s = ucp_worker_create(context, &wp, &worker)) != UCS_OK)
        die("ucp_worker_create", s);
    ucp_address_t *addr;
    size_t len;
    if ((s = ucp_worker_get_address(worker, &addr, &len)) != UCS_OK)
        die("ucp_worker_get_address", s);
    if (write(to_peer, &len, sizeof len) != sizeof len || write(to_peer, addr, len) != (ssize_t)len)
        die("write of the address", UCS_ERR_IO_ERROR);
    size_t plen;
    if (read(from_peer, &plen, sizeof plen) != sizeof plen)
        die("read of the address", UCS_ERR_IO_ERROR);
    char *peer = malloc(plen);
    for (size_t got = 0; got < plen;) {
        ssize_t r = read(from_peer, peer + got, plen - got);
        if (r <= 0)
            die("read of the address", UCS_ERR_IO_ERROR);
        got += (size_t)r;
    }
    ucp_ep_params_t ep_params = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS,
                                 .address = (ucp_address_t *)peer};
    if ((s = ucp_ep_create(worker, &ep_params, &ep)) != UCS_OK)
        die("ucp_ep_create", s);
    ucp_am_handler_param_t hp = {.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID |
                                               UCP_AM_HANDLER_PARAM_FIELD_CB,
                                 .id = AM_ID, .cb = am_handler};
    if ((s = ucp_worker_set_am_recv_handler(worker, &hp)) != UCS_OK)
        die("ucp_worker_set_am_recv_handler", s);
    ucp_worker_release_address(worker, addr);
    free(peer);
    place = calloc(1, MAX_BYTES);
    (void)rank;
}

/* ------------------------------------------------------------------ timing */

/* iters ping-pongs of len bytes: rank 0 sends first; the one-way time in microseconds. */
static double pingpong(int rank, int am, size_t len, int iters)
{
    static int expected; /* am: messages this process has waited for (one may come early) */
    double t0 = now_us();
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            if (am) {
                am_send(len);
                am_recv(++expected);
            } else {
                tag_send(len);
                tag_recv(len);
            }
        } else {
            if (am) {
                am_recv(++expected);
                am_send(len);
            } else {
                tag_recv(len);
                tag_send(len);
            }
        }
    }
    return (now_us() - t0) / iters / 2;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    int up[2], down[2];
    if (pipe(up) || pipe(down))
        return 1;
    pid_t child = fork();
    const int rank = child == 0;
    setup(rank, rank ? up[1] : down[1], rank ? down[0] : up[0]);
    static const size_t sizes[] = {8, 1024, 16384, 262144, MAX_BYTES};
    if (rank == 0) {
        printf("# ucx_tag_am: one-way time (half a ping-pong), median of %d rounds, us\n"
               "# UCX_TLS=%s\n# bytes      tag       am   am/tag\n",
               ROUNDS, getenv("UCX_TLS") ? getenv("UCX_TLS") : "(unset)");
    }
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        const size_t len = sizes[k];
        const int iters = len <= 16384 ? 2000 : len <= 262144 ? 200 : 50;
        double t[2][ROUNDS];
        pingpong(rank, 0, len, iters / 10 + 1); /* warm: endpoints, protocols */
        pingpong(rank, 1, len, iters / 10 + 1);
        for (int r = 0; r < ROUNDS; r++)
            for (int am = 0; am < 2; am++)
                t[am][r] = pingpong(rank, am, len, iters);
        if (rank == 0) {
            qsort(t[0], ROUNDS, sizeof(double), by_value);
            qsort(t[1], ROUNDS, sizeof(double), by_value);
            const double tag = t[0][ROUNDS / 2], am = t[1][ROUNDS / 2];
            printf("%8zu %8.2f %8.2f %8.2f\n", len, tag, am, am / tag);
        }
    }
    if (rank == 0)
        waitpid(child, NULL, 0);
    return 0;
}
