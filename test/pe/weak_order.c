/*
 * weak_order.c: a weak-ordering emulation of UCX for the ordering tests. Linked into a test
 * program that exports its symbols (-rdynamic), these definitions of a few ucp_* functions
 * come before libucp's in the library's lookups, and call libucp's through dlsym(RTLD_NEXT).
 *
 * What it emulates: UCX up to 1.13 on RDMA, where a large put may travel on another lane (a
 * zero-copy or rendezvous one) than a later small put or atomic, and ucp_worker_fence orders
 * only within one lane. Here a put of at least `defer_min` bytes is held back (a copy of its
 * data) and issued only when its endpoint is flushed, closed, or sends a get or an active
 * message: every later put and atomic on that endpoint overtakes it, and ucp_worker_fence
 * does not stop them. That is allowed by UCX's contract for operations that no flush (or,
 * from 1.14, no fence) separates, and it makes every missing ordering point show at once.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "weak_order.h"

struct held_put {
    ucp_ep_h ep;
    void *data;
    size_t len;
    uint64_t raddr;
    ucp_rkey_h rkey;
    struct held_put *next;
};

static size_t defer_min; /* 0: off */
static unsigned fake_major, fake_minor, fake_release;
static int faking;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static struct held_put *held, **held_tail = &held;
static unsigned long held_count;

void weak_order_setup(size_t min_bytes) { defer_min = min_bytes; }

void weak_order_fake_version(unsigned major, unsigned minor, unsigned release)
{
    fake_major = major;
    fake_minor = minor;
    fake_release = release;
    faking = 1;
}

unsigned long weak_order_held(void) { return __atomic_load_n(&held_count, __ATOMIC_RELAXED); }

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "weak_order: %s not found\n", name);
        abort();
    }
    return f;
}
/* libucp's name, looked up once per call site. */
#define REAL(name)                                                                               \
    (*({                                                                                         \
        static __typeof__(&name) f;                                                              \
        if (!__atomic_load_n(&f, __ATOMIC_ACQUIRE))                                              \
            __atomic_store_n(&f, (__typeof__(&name))real(#name), __ATOMIC_RELEASE);              \
        &f;                                                                                      \
    }))

static void issued(void *request, ucs_status_t status, void *user_data)
{
    free(user_data);
    REAL(ucp_request_free)(request);
}

/* Issue the puts held for ep, oldest first (the caller holds the library's lock on ep's
 * worker, as for any call on ep). */
static void release(ucp_ep_h ep)
{
    pthread_mutex_lock(&held_lock);
    struct held_put *mine = NULL, **mine_tail = &mine;
    for (struct held_put **p = &held; *p;) {
        struct held_put *h = *p;
        if (h->ep != ep) {
            p = &h->next;
            continue;
        }
        *p = h->next;
        h->next = NULL;
        *mine_tail = h;
        mine_tail = &h->next;
    }
    held_tail = &held;
    while (*held_tail)
        held_tail = &(*held_tail)->next;
    pthread_mutex_unlock(&held_lock);
    while (mine) {
        struct held_put *h = mine;
        mine = h->next;
        ucp_request_param_t param = {0};
        param.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
        param.cb.send = issued;
        param.user_data = h->data;
        void *req = REAL(ucp_put_nbx)(h->ep, h->data, h->len, h->raddr, h->rkey, &param);
        if (UCS_PTR_IS_ERR(req)) {
            fprintf(stderr, "weak_order: a held put failed\n");
            abort();
        }
        if (req == NULL)
            free(h->data);
        free(h);
        __atomic_fetch_sub(&held_count, 1, __ATOMIC_RELAXED);
    }
}

ucs_status_ptr_t ucp_put_nbx(ucp_ep_h ep, const void *buffer, size_t count,
                             uint64_t remote_addr, ucp_rkey_h rkey,
                             const ucp_request_param_t *param)
{
    if (!defer_min || count < defer_min || (param->op_attr_mask & ~UCP_OP_ATTR_FIELD_DATATYPE))
        return REAL(ucp_put_nbx)(ep, buffer, count, remote_addr, rkey, param);
    struct held_put *h = malloc(sizeof *h);
    h->data = malloc(count);
    if (!h->data) {
        fprintf(stderr, "weak_order: out of memory\n");
        abort();
    }
    memcpy(h->data, buffer, count);
    h->ep = ep;
    h->len = count;
    h->raddr = remote_addr;
    h->rkey = rkey;
    h->next = NULL;
    pthread_mutex_lock(&held_lock);
    *held_tail = h;
    held_tail = &h->next;
    __atomic_fetch_add(&held_count, 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&held_lock);
    return NULL; /* the data is copied: complete at the origin */
}

ucs_status_ptr_t ucp_get_nbx(ucp_ep_h ep, void *buffer, size_t count, uint64_t remote_addr,
                             ucp_rkey_h rkey, const ucp_request_param_t *param)
{
    release(ep);
    return REAL(ucp_get_nbx)(ep, buffer, count, remote_addr, rkey, param);
}

ucs_status_ptr_t ucp_ep_flush_nbx(ucp_ep_h ep, const ucp_request_param_t *param)
{
    release(ep);
    return REAL(ucp_ep_flush_nbx)(ep, param);
}

ucs_status_ptr_t ucp_ep_close_nbx(ucp_ep_h ep, const ucp_request_param_t *param)
{
    release(ep);
    return REAL(ucp_ep_close_nbx)(ep, param);
}

ucs_status_ptr_t ucp_am_send_nbx(ucp_ep_h ep, unsigned id, const void *header,
                                 size_t header_length, const void *buffer, size_t count,
                                 const ucp_request_param_t *param)
{
    release(ep);
    return REAL(ucp_am_send_nbx)(ep, id, header, header_length, buffer, count, param);
}

void ucp_get_version(unsigned *major_version, unsigned *minor_version,
                     unsigned *release_number)
{
    REAL(ucp_get_version)(major_version, minor_version, release_number);
    if (faking) {
        *major_version = fake_major;
        *minor_version = fake_minor;
        *release_number = fake_release;
    }
}
