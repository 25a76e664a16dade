/*
 * weak.c: the weak-ordering mode (weak.h).
 *
 * On one host every put lands at once and in order; on an RDMA network a put's completion is
 * local, puts to one PE land in any order until a fence, and a large put and an atomic travel
 * on different lanes. So a program that forgets a fence or a quiet works on a laptop and
 * fails on a cluster. In this mode the user's puts, put-with-signal, non-fetching atomics and
 * _nbi operations to another PE are not performed when issued: each becomes an entry of this
 * PE's pending list (a put copies its source, so the source is reusable at once) and is
 * delivered later, in an order that a seeded generator picks among those the memory model
 * allows:
 *  - shmem_fence on a context: an entry to PE p issued after it waits for every entry of that
 *    context to p issued before it (a FENCE entry in the list marks the place);
 *  - put-with-signal: the signal waits for every piece of its data (a group);
 *  - shmem_quiet, shmem_pe_quiet and barriers deliver the context's entries before returning;
 *  - a blocking get or fetching atomic first delivers this PE's own pending writes to the
 *    range it reads: a PE reads its own writes (stricter than the model, never weaker);
 *  - a put of more than 8 bytes lands in up to four pieces, cut at 8-byte boundaries of the
 *    destination, in any order: an aligned word of up to 8 bytes is never torn.
 * Decisions are made by the issuing thread at points of the program (each operation held, each
 * completion, the start of each wait of the program's, which delivers everything first: the
 * PE may wait for an answer to it, sync/wait.h) from one generator seeded with (SEED, PE), so
 * the same program, seed and PE count make the same decisions. A thread of the mode delivers
 * entries pending longer than AGE_NS: a PE that computes, or spins on plain loads, does not
 * hold its peers back forever (that thread's deliveries depend on time, not on the seed).
 * When an entry lands before an older one to the same PE, the completion that delivers the
 * rest first pauses, long enough for the peer to read the half-delivered state: the moment at
 * which a missing fence shows.
 *
 * Delivery is the operation itself: a copy or CPU atomic into a peer mapped directly, or the
 * UCX operation followed by a flush of that PE's endpoint, so that the list alone decides the
 * order in which operations land. One mutex guards the list; an entry is delivered under it
 * (the mode's contexts are all shared, so its thread may use their UCX workers: api/init.c,
 * team/ctx.c).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/copy.h"
#include "core/cpu_amo.h"
#include "core/error.h"
#include "sync/weak.h"

enum {
    MAX_OPS = 64,                 /* held operations before each new one forces a delivery */
    MAX_BYTES = 4 << 20,          /* held bytes, likewise; a larger put is not held at all */
    MAX_PIECES = 4,               /* pieces of one put */
};
#define AGE_NS 10000000ull        /* the thread delivers what waited longer than 10 ms */
#define NAP_NS 1000000l           /* and looks every 1 ms */
#define EXPOSED_PAUSE_NS 300000l  /* a half-delivered state stays visible this long */

typedef enum { WEAK_PUT, WEAK_GET, WEAK_AMO, WEAK_FENCE } weak_kind_t;

typedef struct weak_entry {
    weak_kind_t kind;
    shmem_ctx_t ctx;
    int pe;
    enum sshmem_region region;
    size_t off, len;     /* the range at the target (an atomic: its size) */
    char *direct;        /* its load/store address, or NULL: through UCX at raddr */
    uint64_t raddr;
    void *data;          /* a put's copy of its bytes (owned), a get's destination */
    sshmem_amo_op_t op;  /* an atomic: */
    uint64_t operand, compare;
    void *fetch_out;     /* NULL: fetches nothing */
    unsigned group;      /* a piece of put-with-signal data: its group (0: none) */
    unsigned after;      /* a signal: the group it lands after (0: none) */
    uint64_t born_ns;
} weak_entry_t;

static struct {
    pthread_mutex_t lock;
    weak_entry_t *e; /* in issue order; FENCE entries among them */
    size_t n, cap;
    size_t ops;      /* entries that are not FENCE */
    size_t bytes;    /* held put data */
    uint64_t rng;
    unsigned groups;
    int exposed;     /* an entry landed before an older one to the same PE */
    pthread_t thread;
    int running, stop;
} weak = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* ------------------------------------------------------------------ decisions */

static uint64_t next_random(void)
{
    /* xorshift64*: small, fast and plenty for choosing orders. */
    weak.rng ^= weak.rng >> 12;
    weak.rng ^= weak.rng << 25;
    weak.rng ^= weak.rng >> 27;
    return weak.rng * 2685821657736338717ull;
}

static size_t below(size_t n) { return (size_t)(next_random() >> 33) % n; }

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Whether entry i may land now: no older entry it must follow is pending. */
static int eligible(size_t i)
{
    const weak_entry_t *x = &weak.e[i];
    int fenced = 0;
    for (size_t j = i; j-- > 0;) {
        const weak_entry_t *y = &weak.e[j];
        if (x->after && y->group == x->after)
            return 0;
        if (y->ctx != x->ctx)
            continue;
        if (y->kind == WEAK_FENCE)
            fenced = 1;
        else if (fenced && y->pe == x->pe)
            return 0;
    }
    return 1;
}

/* A filter on entries: those of ctx (NULL: any) to one of pes[0..npes) (pes NULL: any PE)
 * with an index at most last. */
typedef struct weak_filter {
    shmem_ctx_t ctx;
    const int *pes;
    size_t npes;
    size_t last;
} weak_filter_t;

static int matches(const weak_entry_t *x, const weak_filter_t *f)
{
    if (x->kind == WEAK_FENCE || (f->ctx && x->ctx != f->ctx))
        return 0;
    if (!f->pes)
        return 1;
    for (size_t k = 0; k < f->npes; k++)
        if (f->pes[k] == x->pe)
            return 1;
    return 0;
}

/* A random entry that matches f and may land now; n when none matches. The oldest matching
 * entry always may: whatever it follows is older, to the same PE on the same context, so it
 * matches too. */
static size_t pick(const weak_filter_t *f)
{
    size_t end = f->last < weak.n ? f->last + 1 : weak.n;
    if (end == 0)
        return weak.n;
    size_t start = below(end), oldest = weak.n;
    for (size_t k = 0; k < end; k++) {
        size_t i = (start + k) % end;
        if (!matches(&weak.e[i], f))
            continue;
        if (eligible(i))
            return i;
        if (i < oldest)
            oldest = i;
    }
    return oldest;
}

/* ------------------------------------------------------------------ delivery */

static void flush_to(const weak_entry_t *x)
{
    sshmem_tx_quiet_pes(x->ctx->tx, &x->pe, 1);
}

static void perform(const weak_entry_t *x)
{
    struct sshmem_tx *tx = x->ctx->tx;
    switch (x->kind) {
    case WEAK_PUT:
        if (x->direct) {
            sshmem_copy(x->direct, x->data, x->len);
            __atomic_thread_fence(__ATOMIC_RELEASE);
        } else {
            sshmem_tx_put(tx, x->pe, x->region, x->raddr, x->data, x->len, 1);
            flush_to(x);
        }
        break;
    case WEAK_GET:
        if (x->direct)
            memcpy(x->data, x->direct, x->len);
        else
            sshmem_tx_get(tx, x->pe, x->region, x->raddr, x->data, x->len, 1);
        break;
    case WEAK_AMO: {
        uint64_t old;
        if (x->direct && sshmem.amo_cpu) {
            old = sshmem_cpu_amo(x->direct, x->op, x->len, x->operand, x->compare);
        } else {
            old = sshmem_tx_amo(tx, x->pe, x->region, x->raddr, x->op, x->len, x->operand,
                                x->compare, x->fetch_out != NULL);
            flush_to(x);
        }
        if (x->fetch_out && x->len == 4)
            *(uint32_t *)x->fetch_out = (uint32_t)old;
        else if (x->fetch_out)
            *(uint64_t *)x->fetch_out = old;
        break;
    }
    case WEAK_FENCE:
        break;
    }
}

/* Drop FENCE entries that no pending entry of their context precedes: they order nothing. */
static void drop_idle_fences(void)
{
    size_t k = 0;
    for (size_t i = 0; i < weak.n; i++) {
        int keep = 1;
        if (weak.e[i].kind == WEAK_FENCE) {
            keep = 0;
            for (size_t j = 0; j < k && !keep; j++)
                keep = weak.e[j].ctx == weak.e[i].ctx;
        }
        if (keep)
            weak.e[k++] = weak.e[i];
    }
    weak.n = k;
}

static void deliver(size_t i)
{
    weak_entry_t x = weak.e[i];
    for (size_t j = 0; j < i && !weak.exposed; j++)
        weak.exposed = weak.e[j].kind != WEAK_FENCE && weak.e[j].pe == x.pe;
    memmove(&weak.e[i], &weak.e[i + 1], (weak.n - i - 1) * sizeof x);
    weak.n--;
    weak.ops--;
    perform(&x);
    if (x.kind == WEAK_PUT) {
        weak.bytes -= x.len;
        free(x.data);
    }
    drop_idle_fences();
    if (weak.ops == 0)
        weak.exposed = 0;
}

static void deliver_all(const weak_filter_t *f)
{
    size_t i;
    while ((i = pick(f)) < weak.n)
        deliver(i);
}

/* A delivery now and then, and whatever keeps the list within its bounds. */
static void tick_locked(void)
{
    static const weak_filter_t any = {NULL, NULL, 0, (size_t)-1};
    if (weak.ops && (next_random() & 1))
        deliver(pick(&any));
    while (weak.ops > MAX_OPS || weak.bytes > MAX_BYTES)
        deliver(pick(&any));
}

/* ------------------------------------------------------------------ holding */

static weak_entry_t *append(weak_kind_t kind, shmem_ctx_t ctx, int pe)
{
    if (weak.n == weak.cap) {
        size_t cap = weak.cap ? 2 * weak.cap : 2 * MAX_OPS;
        weak_entry_t *e = realloc(weak.e, cap * sizeof *e);
        if (!e)
            sshmem_fatal("the weak-ordering mode", "out of memory for %zu held operations",
                         cap);
        weak.e = e;
        weak.cap = cap;
    }
    weak_entry_t *x = &weak.e[weak.n++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->ctx = ctx;
    x->pe = pe;
    x->born_ns = now_ns();
    if (kind != WEAK_FENCE)
        weak.ops++;
    return x;
}

static void aim(weak_entry_t *x, enum sshmem_region r, size_t off, size_t len)
{
    const sshmem_peer_t *p = sshmem_peer(x->pe);
    x->region = r;
    x->off = off;
    x->len = len;
    x->direct = p->direct[r] ? p->direct[r] + off : NULL;
    x->raddr = p->remote[r] + off;
}

/* Cut points of [off, off+len): up to MAX_PIECES - 1 distinct 8-byte boundaries inside,
 * ascending, in cuts[]; returns how many. */
static int cut_points(size_t off, size_t len, size_t cuts[])
{
    size_t first = (off + 8) & ~(size_t)7, end = off + len;
    if (first >= end)
        return 0;
    size_t words = (end - first + 7) / 8; /* boundaries first, first+8, ... below end */
    int n = 0, want = (int)below(MAX_PIECES);
    for (int k = 0; k < want; k++) {
        size_t c = first + 8 * below(words);
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= cuts[j] == c;
        if (!dup && c < end)
            cuts[n++] = c;
    }
    for (int a = 1; a < n; a++) /* a few elements: insertion sort */
        for (int b = a; b > 0 && cuts[b - 1] > cuts[b]; b--) {
            size_t t = cuts[b];
            cuts[b] = cuts[b - 1];
            cuts[b - 1] = t;
        }
    return n;
}

/* Hold the put in pieces (group: a put-with-signal's data, or 0). */
static void hold_put(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off, const char *src,
                     size_t len, unsigned group)
{
    size_t cuts[MAX_PIECES], from = off;
    int ncuts = cut_points(off, len, cuts);
    for (int k = 0; k <= ncuts; k++) {
        size_t to = k < ncuts ? cuts[k] : off + len;
        weak_entry_t *x = append(WEAK_PUT, ctx, pe);
        aim(x, r, from, to - from);
        x->group = group;
        x->data = malloc(to - from);
        if (!x->data)
            sshmem_fatal("the weak-ordering mode", "out of memory holding a put of %zu bytes",
                         len);
        memcpy(x->data, src + (from - off), to - from);
        weak.bytes += to - from;
        from = to;
    }
}

/* A put too large to hold: it lands now, its pieces in a random order. */
static void put_now(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off, const char *src,
                    size_t len)
{
    size_t bounds[MAX_PIECES + 1];
    int npieces = cut_points(off, len, bounds + 1) + 1;
    bounds[0] = off;
    bounds[npieces] = off + len;
    int order[MAX_PIECES];
    for (int k = 0; k < npieces; k++) { /* a random permutation (Fisher-Yates) */
        int j = (int)below((size_t)k + 1);
        order[k] = order[j];
        order[j] = k;
    }
    for (int k = 0; k < npieces; k++) {
        int p = order[k];
        weak_entry_t x = {.kind = WEAK_PUT, .ctx = ctx, .pe = pe};
        aim(&x, r, bounds[p], bounds[p + 1] - bounds[p]);
        x.data = (void *)(src + (bounds[p] - off));
        perform(&x);
    }
}

void sshmem_weak_put(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off, const void *src,
                     size_t len)
{
    pthread_mutex_lock(&weak.lock);
    if (len > MAX_BYTES) {
        weak_filter_t f = {NULL, &pe, 1, (size_t)-1};
        deliver_all(&f); /* what went before lands first; then the big one, in pieces */
        put_now(ctx, pe, r, off, src, len);
    } else {
        hold_put(ctx, pe, r, off, src, len, 0);
        tick_locked();
    }
    pthread_mutex_unlock(&weak.lock);
}

void sshmem_weak_get(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off, void *dst,
                     size_t len)
{
    sshmem_weak_settle(pe, r, off, len);
    pthread_mutex_lock(&weak.lock);
    weak_entry_t *x = append(WEAK_GET, ctx, pe);
    aim(x, r, off, len);
    x->data = dst;
    tick_locked();
    pthread_mutex_unlock(&weak.lock);
}

static weak_entry_t *hold_amo(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off,
                              sshmem_amo_op_t op, size_t size, uint64_t operand,
                              uint64_t compare, void *fetch_out)
{
    weak_entry_t *x = append(WEAK_AMO, ctx, pe);
    aim(x, r, off, size);
    x->op = op;
    x->operand = operand;
    x->compare = compare;
    x->fetch_out = fetch_out;
    return x;
}

void sshmem_weak_amo(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off,
                     sshmem_amo_op_t op, size_t size, uint64_t operand, uint64_t compare,
                     void *fetch_out)
{
    pthread_mutex_lock(&weak.lock);
    hold_amo(ctx, pe, r, off, op, size, operand, compare, fetch_out);
    tick_locked();
    pthread_mutex_unlock(&weak.lock);
}

void sshmem_weak_put_signal(shmem_ctx_t ctx, int pe, enum sshmem_region r, size_t off,
                            const void *src, size_t len, enum sshmem_region sig_r, size_t sig_off,
                            sshmem_amo_op_t op, uint64_t signal)
{
    pthread_mutex_lock(&weak.lock);
    unsigned group = ++weak.groups ? weak.groups : ++weak.groups; /* never 0 */
    if (len > MAX_BYTES) {
        weak_filter_t f = {NULL, &pe, 1, (size_t)-1};
        deliver_all(&f);
        put_now(ctx, pe, r, off, src, len);
        group = 0;
    } else if (len) {
        hold_put(ctx, pe, r, off, src, len, group);
    } else {
        group = 0;
    }
    hold_amo(ctx, pe, sig_r, sig_off, op, sizeof(uint64_t), signal, 0, NULL)->after = group;
    tick_locked();
    pthread_mutex_unlock(&weak.lock);
}

/* ------------------------------------------------------------------ ordering, completion */

void sshmem_weak_settle(int pe, enum sshmem_region r, size_t off, size_t len)
{
    pthread_mutex_lock(&weak.lock);
    for (;;) {
        size_t last = weak.n;
        for (size_t i = 0; i < weak.n; i++) {
            const weak_entry_t *x = &weak.e[i];
            if (x->pe == pe && x->region == r && (x->kind == WEAK_PUT || x->kind == WEAK_AMO) &&
                x->off < off + len && off < x->off + x->len)
                last = i;
        }
        if (last == weak.n)
            break;
        weak_filter_t f = {NULL, &pe, 1, last};
        deliver(pick(&f));
    }
    pthread_mutex_unlock(&weak.lock);
}

void sshmem_weak_fence(shmem_ctx_t ctx)
{
    pthread_mutex_lock(&weak.lock);
    /* Only where something of ctx is pending and the last such entry is not a fence. */
    for (size_t i = weak.n; i-- > 0;) {
        if (weak.e[i].ctx != ctx)
            continue;
        if (weak.e[i].kind != WEAK_FENCE)
            append(WEAK_FENCE, ctx, -1);
        break;
    }
    pthread_mutex_unlock(&weak.lock);
}

static void pause_ns(long ns)
{
    struct timespec t = {0, ns};
    nanosleep(&t, NULL);
}

void sshmem_weak_complete(shmem_ctx_t ctx, const int *pes, size_t n)
{
    if (!__atomic_load_n(&weak.ops, __ATOMIC_RELAXED)) /* this PE's own count: a hint */
        return;
    weak_filter_t f = {ctx, pes, n, (size_t)-1};
    int paused = 0;
    size_t i;
    pthread_mutex_lock(&weak.lock);
    while ((i = pick(&f)) < weak.n) {
        if (weak.exposed && !paused) {
            /* Something landed ahead of an older entry to its PE: let the peers see that
             * state for a while (unlocked: the mode's thread may deliver meanwhile, as a
             * network would), once per completion. */
            pthread_mutex_unlock(&weak.lock);
            pause_ns(EXPOSED_PAUSE_NS);
            pthread_mutex_lock(&weak.lock);
            paused = 1;
            continue;
        }
        deliver(i);
    }
    pthread_mutex_unlock(&weak.lock);
}

/* ------------------------------------------------------------------ the mode's thread */

/* Deliver, in a random allowed order, what has waited longer than AGE_NS. */
static void deliver_aged(void)
{
    uint64_t old = now_ns() - AGE_NS;
    size_t last = weak.n;
    for (size_t i = 0; i < weak.n; i++)
        if (weak.e[i].kind != WEAK_FENCE && weak.e[i].born_ns < old)
            last = i;
    while (last < weak.n) {
        weak_filter_t f = {NULL, NULL, 0, last};
        deliver(pick(&f));
        last = weak.n;
        for (size_t i = 0; i < weak.n; i++)
            if (weak.e[i].kind != WEAK_FENCE && weak.e[i].born_ns < old)
                last = i;
    }
}

static void *age_loop(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&weak.stop, __ATOMIC_ACQUIRE)) {
        pause_ns(NAP_NS);
        sshmem_tx_release_late(); /* sshmem's own puts held by the transport */
        if (!__atomic_load_n(&weak.ops, __ATOMIC_RELAXED))
            continue;
        pthread_mutex_lock(&weak.lock);
        deliver_aged();
        pthread_mutex_unlock(&weak.lock);
    }
    return NULL;
}

void sshmem_weak_init(void)
{
    if (!sshmem_env.weak)
        return;
    /* splitmix64 of (seed, PE): distinct, never-zero streams per PE. */
    uint64_t z = ((uint64_t)sshmem_env.weak << 32 | (uint32_t)sshmem.my_pe) +
                 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    weak.rng = (z ^ (z >> 31)) | 1;
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved); /* signals stay with the program's threads */
    int rc = pthread_create(&weak.thread, NULL, age_loop, NULL);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (rc != 0)
        sshmem_fatal("shmem_init", "cannot start the weak-ordering mode's thread (error %d)",
                     rc);
    pthread_setname_np(weak.thread, "sshmem-weak");
    weak.running = 1;
    if (sshmem.my_pe == 0)
        fprintf(stderr, "sshmem: weak-ordering mode, seed %u: puts, signals, non-fetching "
                "atomics and _nbi operations land late and out of order, as the OpenSHMEM "
                "memory model allows (SSHMEM_WEAK=%u)\n", sshmem_env.weak, sshmem_env.weak);
}

void sshmem_weak_finalize(void)
{
    if (!weak.running)
        return;
    sshmem_weak_complete(NULL, NULL, 0);
    __atomic_store_n(&weak.stop, 1, __ATOMIC_RELEASE);
    pthread_join(weak.thread, NULL);
    weak.running = 0;
    free(weak.e);
    weak.e = NULL;
    weak.n = weak.cap = 0;
}
