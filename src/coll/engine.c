/*
 * engine.c: setting up a collective call, and the flag and data primitives of the engine
 * (see engine.h for the rules they follow).
 */
#include <stdlib.h>
#include <shmem.h>

#include "coll/engine.h"
#include "core/copy.h"
#include "core/env.h"
#include "core/error.h"
#include "rma/rma.h"
#include "sync/wait.h"
#include "transport/transport.h"

void coll_buf(coll_buf_t *b, const void *addr, size_t len, const char *what, const coll_t *c)
{
    b->addr = (char *)addr;
    b->region = sshmem_region_of(addr, len ? len : 1, &b->off);
    if (b->region < 0 && len == 0) { /* nothing is ever copied to or from it */
        b->region = SSHMEM_REGION_HEAP;
        b->off = 0;
        return;
    }
    if (SSHMEM_UNLIKELY(b->region < 0))
        sshmem_fatal(c->call, "%s (%p, %zu bytes) is not symmetric: collectives need arrays "
                     "from shmem_malloc or global/static variables, the same on every PE",
                     what, addr, len);
}

static void wait_member(coll_t *c, int member, long need);
static void message(coll_t *c, int member, uint64_t raddr, const void *src, size_t len,
                    int slot, long amount, int async, const sshmem_tx_gate_t *gate);
static const sshmem_tx_gate_t *coll_gate(coll_t *c, int member, size_t len,
                                         sshmem_tx_gate_t *gate);

/* Describe the call; coll_announce announces it. */
void coll_prepare_team(coll_t *c, struct sshmem_team *team, const char *call)
{
    c->area = (int)(team->ncalls++ & (unsigned long)(team->nareas - 1)); /* a power of two */
    char *area = team->area[c->area];
    c->team = team;
    c->seq = team->ncalls;
    if (SSHMEM_UNLIKELY(sshmem_hang_ns) && team == &sshmem_team_world)
        sshmem_hang_world_entered(team->ncalls); /* "not arrived" = PEs behind this count */
    c->set = team->pes;
    c->me = team->my_index;
    c->n = team->pes.size;
    c->call = call;
    c->direct = team->direct;
    c->shape = &team->shape;
    c->ucx_dirty = 0;
    c->ucx_unfinished = 0;
    c->ninflight = 0;
    c->stream = 0;
    c->nflags = SSHMEM_TEAM_FLAGS;
    c->work_bytes = SSHMEM_TEAM_WORK_BYTES;
    coll_buf(&c->flags, area, SSHMEM_TEAM_FLAGS * sizeof(long), "team sync area", c);
    coll_buf(&c->work, area + SSHMEM_TEAM_WORK_AT, c->work_bytes, "team work", c);
    c->reach_need = 0;
    c->reached = -1;
}

void coll_work_in_steps(coll_t *c)
{
    const struct sshmem_team *t = c->team;
    c->work_bytes = t->steps_half;
    coll_buf(&c->work, t->steps + (c->seq & 1) * t->steps_half, c->work_bytes, "team steps", c);
}

void coll_setup_team(coll_t *c, struct sshmem_team *team, const char *call)
{
    coll_prepare_team(c, team, call);
    coll_announce(c, 0);
}

void coll_setup_team_ahead(coll_t *c, struct sshmem_team *team, const char *call)
{
    coll_prepare_team(c, team, call);
    coll_announce(c, 1);
}

SSHMEM_COLD static void bad_active_set(const char *call, int start, int log, int size)
{
    sshmem_fatal(call, "the active set PE_start=%d, logPE_stride=%d, PE_size=%d is not valid "
                 "with %d PEs: it needs PE_start >= 0, 0 <= logPE_stride < 31, PE_size >= 1 and "
                 "PE_start + (PE_size-1) * 2^logPE_stride < %d", start, log, size, sshmem.n_pes,
                 sshmem.n_pes);
}

/* SHMEM_DEBUG: a pSync none of whose elements is SHMEM_SYNC_VALUE was never initialised
 * (peers signalling early touch a few elements only). */
static void check_psync(const long *pSync, int nflags, const char *call)
{
    for (int i = 0; i < nflags; i++)
        if (__atomic_load_n(&pSync[i], __ATOMIC_RELAXED) == SHMEM_SYNC_VALUE)
            return;
    sshmem_fatal(call, "pSync (%p) holds no SHMEM_SYNC_VALUE: set every element to "
                 "SHMEM_SYNC_VALUE on every PE, and synchronize (shmem_barrier_all) before its "
                 "first use", (const void *)pSync);
}

void coll_setup_active_set(coll_t *c, int PE_start, int logPE_stride, int PE_size, long *pSync,
                           int nflags, void *pWrk, size_t wrk_bytes, const char *call)
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized(call);
    if (PE_start < 0 || logPE_stride < 0 || logPE_stride > 30 || PE_size < 1 ||
        PE_start + ((long long)(PE_size - 1) << logPE_stride) >= sshmem.n_pes)
        bad_active_set(call, PE_start, logPE_stride, PE_size);
    c->set.start = PE_start;
    c->set.stride = 1 << logPE_stride;
    c->set.size = PE_size;
    c->me = sshmem_triplet_index(&c->set, sshmem.my_pe);
    if (SSHMEM_UNLIKELY(c->me < 0))
        sshmem_fatal(call, "this PE is not in the active set PE_start=%d, logPE_stride=%d, "
                     "PE_size=%d; only the PEs of the set may call the routine", PE_start,
                     logPE_stride, PE_size);
    c->n = PE_size;
    c->call = call;
    c->team = NULL;
    c->seq = 0;
    c->area = 0;
    c->ucx_dirty = 0;
    c->ucx_unfinished = 0;
    c->ninflight = 0;
    c->stream = 0;
    c->shape = coll_active_set_shape(&c->set, c->me);
    c->direct = c->shape->direct;
    if (SSHMEM_UNLIKELY(!pSync))
        sshmem_fatal(call, "pSync is NULL; pass a symmetric array of SHMEM_*_SYNC_SIZE longs, "
                     "every element set to SHMEM_SYNC_VALUE");
    c->nflags = nflags;
    coll_buf(&c->flags, pSync, (size_t)nflags * sizeof(long), "pSync", c);
    if (sshmem_env.debug)
        check_psync(pSync, nflags, call);
    c->work_bytes = pWrk ? wrk_bytes : 0;
    if (pWrk)
        coll_buf(&c->work, pWrk, wrk_bytes, "pWrk", c);
    else
        c->work = (coll_buf_t){NULL, 0, 0};
    c->reach_need = 0;
    c->reached = -1;
}

/* ------------------------------------------------------------------ waiting */

/* The slow phase of a collective's wait, for hang reports (only when they are on). */
SSHMEM_COLD static void coll_hang_poll(const coll_t *c, unsigned slow_polls)
{
    sshmem_hang_poll(slow_polls, c->call, NULL, &c->set, c->seq, c->team == &sshmem_team_world);
}

/* Wait until cond holds (sync/wait.h's loop; hang reports name the collective). */
#define COLL_WAIT_UNTIL(c, cond)                                                                 \
    do {                                                                                         \
        unsigned polls_ = 0;                                                                     \
        while (!(cond))                                                                          \
            if (sshmem_wait_poll(&polls_) && SSHMEM_UNLIKELY(sshmem_hang_ns))                    \
                coll_hang_poll(c, polls_ - sshmem.wait_spin);                                    \
        sshmem_wait_done(polls_);                                                                \
    } while (0)

/* ------------------------------------------------------------------ team progress */

/* The team's progress word (engine.h, "Early return"): the last long of its scratch, 0 in a
 * team that has never run a call (the scratch starts zeroed; coll_team_retire). */
static long *progress_word(struct sshmem_team *team)
{
    return (long *)(team->scratch + SSHMEM_TEAM_SCRATCH_BYTES) - 1;
}

/* Member i's progress word: a load where it is mapped, else a UCX get (a round trip; the
 * floor below makes it rare). */
static long peer_progress(coll_t *c, const coll_buf_t *word, int member)
{
    const int pe = coll_pe(c, member);
    const char *direct = sshmem_peer(pe)->direct[word->region];
    if (direct)
        return __atomic_load_n((const long *)(direct + word->off), __ATOMIC_ACQUIRE);
    long v;
    sshmem_tx_get(sshmem_tx_default(), pe, word->region,
                  sshmem_peer(pe)->remote[word->region] + word->off, &v, sizeof v, 1);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return v;
}

/* Wait until every member has entered call `need` or a later one. What was seen is kept (the
 * team's floor), so a member running ahead rereads its peers' words only now and then. */
static void wait_progress(coll_t *c, long need)
{
    struct sshmem_team *team = c->team;
    if (team->coll_floor >= need)
        return;
    coll_buf_t word;
    coll_buf(&word, progress_word(team), sizeof(long), "team progress word", c);
    long floor = (long)c->seq;
    for (int d = 1; d < c->n; d++) {
        const int member = coll_rel(c, d);
        long v;
        COLL_WAIT_UNTIL(c, (v = peer_progress(c, &word, member)) >= need);
        floor = v < floor ? v : floor;
    }
    team->coll_floor = floor;
}

/* The barrier after an early call where coll_team_messages (engine.h): dissemination with signals
 * gated on their target having entered this call (so none falls into a lagging member's older
 * call on this area). log2(n) one-way rounds, where wait_progress costs a round trip per member
 * through its CPU. Members reached by load/store (nodes of a multi-node team) are waited for by
 * their progress word instead, a load. */
static void entered_barrier(coll_t *c)
{
    c->reach_need = (long)c->seq; /* the gate (coll_gate) */
    c->reached = -1;
    for (int e = 0, d = 1; d < c->n; e++, d <<= 1) {
        const int to = coll_rel(c, d);
        if (!coll_messages_to(c, to)) /* else the signal is a message, gated (coll_add) */
            wait_member(c, to, (long)c->seq);
        coll_signal(c, to, COLL_SLOT_BARRIER + e);
        coll_wait(c, COLL_SLOT_BARRIER + e, 1);
    }
    c->reach_need = 0;
    c->team->coll_floor = (long)c->seq;
}

/* Publish that we have entered this call; after an early call, what engine.h says. */
void coll_announce(coll_t *c, int ahead)
{
    struct sshmem_team *team = c->team;
    long *mine = progress_word(team);
    __atomic_store_n(mine, (long)c->seq, __ATOMIC_RELEASE); /* after the caller's work */
    sshmem_tx_gates_raised(); /* messages held for this call (coll_gate) go in now */
    if (SSHMEM_LIKELY(!team->coll_early))
        return;
    team->coll_early = 0;
    if (!ahead) {
        if (c->n > 1 && coll_team_messages(team))
            entered_barrier(c);
        else
            wait_progress(c, (long)c->seq - 1);
        return;
    }
    const long need = (long)c->seq - (team->nareas - 1);
    if (need > team->coll_floor) {
        c->reach_need = need;
        c->reached = -1;
    }
}

/* Wait until member has entered call `need` or a later one, as the first member a call writes
 * into. The team remembers the member and what was seen, so a PE writing into the same member
 * call after call (a gatherv's member into its root) rereads its word only now and then. */
static void wait_member(coll_t *c, int member, long need)
{
    struct sshmem_team *team = c->team;
    c->reached = member;
    if (team->reach_member == member && team->reach_seen >= need)
        return;
    coll_buf_t word;
    coll_buf(&word, progress_word(team), sizeof(long), "team progress word", c);
    long v;
    COLL_WAIT_UNTIL(c, (v = peer_progress(c, &word, member)) >= need);
    team->reach_member = member;
    team->reach_seen = v;
}

/* A second member in one call: check all at once (the team's floor), not one by one each call. */
static int second_member(const coll_t *c, int member)
{
    return member < 0 || (c->reached >= 0 && c->reached != member);
}

void coll_reach_wait(coll_t *c, int member)
{
    const long need = c->reach_need;
    if (member == c->me)
        return;
    if (member >= 0 && !coll_stamps_to(c, member))
        return; /* what goes to member are messages, gated instead (coll_gate) */
    if (second_member(c, member) || c->team->coll_floor >= need) {
        wait_progress(c, need);
        c->reach_need = 0;
        return;
    }
    wait_member(c, member, need);
}

void coll_team_retire(struct sshmem_team *team)
{
    *progress_word(team) = 0;
    for (int a = 0; a < team->nareas; a++) /* no stamp of this team may match the next one's */
        memset(team->area[a] + SSHMEM_TEAM_STAMP_LINE_AT, 0,
               SSHMEM_TEAM_AREA_BYTES - SSHMEM_TEAM_STAMP_LINE_AT);
    memset(team->posts, 0, SSHMEM_TEAM_POSTS_BYTES(team->nareas));
}

/* ------------------------------------------------------------------ flags */

/* This call's UCX puts so far, before the signal that follows them. */
static void order_ucx_puts(coll_t *c)
{
    if (c->ucx_dirty & ~(1 << c->flags.region)) {
        /* UCX orders a fence only within one kind of memory: on one host the heap is served
         * by shared-memory transports and the globals by emulation, so complete instead. */
        sshmem_tx_quiet(sshmem_tx_default());
        c->ucx_dirty = 0;
    } else if (c->ucx_dirty) {
        sshmem_tx_fence(sshmem_tx_default()); /* UCX puts before the flag */
    }
}

void coll_add(coll_t *c, int member, int slot, long amount)
{
    int pe = coll_pe(c, member);
    size_t off = c->flags.off + (size_t)slot * sizeof(long);
        /* One word, one atomicity domain (doc/multi-host.md, "How sshmem behaves across
         * hosts"): a flag that off-node PEs update through UCX (maybe NIC atomics, not atomic
         * with CPU ones) takes UCX atomics from on-node peers too. sshmem.amo_cpu says no PE of
         * the job is off-node. */
    char *direct = sshmem.amo_cpu ? sshmem_peer(pe)->direct[c->flags.region] : NULL;
    if (direct) {
        if (c->ucx_dirty) { /* the data went through UCX: it must be complete first */
            sshmem_tx_quiet(sshmem_tx_default());
            c->ucx_dirty = 0;
        }
        __atomic_fetch_add((long *)(direct + off), amount, __ATOMIC_RELEASE);
        return;
    }
    __atomic_thread_fence(__ATOMIC_RELEASE); /* stores to mapped peers come before the flag */
    if (coll_messages_to(c, member)) {
        /* A message without data (engine.h, "Data and flags"), gated (coll_gate): an emulated
         * atomic would be a message too, and its acknowledgement another. */
        sshmem_tx_gate_t gate;
        message(c, member, 0, NULL, 0, slot, amount, 0, coll_gate(c, member, 0, &gate));
        return;
    }
    order_ucx_puts(c);
    sshmem_tx_signal_add(sshmem_tx_default(), pe, c->flags.region,
                         sshmem_peer(pe)->remote[c->flags.region] + off, amount);
}

/* Whether every add to this PE's flags in call c is a CPU atomic, which a CPU atomic may then
 * take back: every member adds by load/store (coll_add: all on the direct path, no PE of the
 * job off-node), or this PE's UCX has no RDMA (its UCX atomics and the messages' adds are then
 * CPU atomics: ucx_put_add.c). Otherwise (SSHMEM_LOCAL=ucx, or a member off-node, with RDMA)
 * an add may come from the NIC, not atomic with a CPU atomic: take back with a UCX atomic. */
static int flags_cpu_only(const coll_t *c)
{
    return (sshmem.amo_cpu && c->direct) || !(sshmem_tx_traits() & SSHMEM_TX_RDMA);
}

/* Take count back off our own flag; peers may be adding to it at the same time. */
static void flag_take(coll_t *c, long *flag, long count)
{
    if (flags_cpu_only(c)) {
        __atomic_fetch_sub(flag, count, __ATOMIC_RELAXED);
        return;
    }
    int me = sshmem.my_pe;
    sshmem_tx_amo(sshmem_tx_default(), me, c->flags.region,
                  sshmem_peer(me)->remote[c->flags.region] + ((char *)flag - c->flags.addr) +
                      c->flags.off,
                  SSHMEM_AMO_ADD, sizeof(long), (uint64_t)-count, 0, 1);
}

void coll_wait(coll_t *c, int slot, long count)
{
    long *flag = (long *)c->flags.addr + slot;
    const long target = SHMEM_SYNC_VALUE + count;
    COLL_WAIT_UNTIL(c, __atomic_load_n(flag, __ATOMIC_ACQUIRE) >= target);
    flag_take(c, flag, count);
}

long coll_wait_sized(coll_t *c, int slot)
{
    long *flag = (long *)c->flags.addr + slot;
    long v;
    COLL_WAIT_UNTIL(c, ((v = __atomic_load_n(flag, __ATOMIC_ACQUIRE)) - SHMEM_SYNC_VALUE) >>
                           COLL_SIZE_SHIFT);
    const long size = (v - SHMEM_SYNC_VALUE) >> COLL_SIZE_SHIFT;
    flag_take(c, flag, coll_sized(size));
    return size;
}

void coll_wait_cpu(coll_t *c, long *flag, long rest, long count)
{
    const long target = rest + count;
    COLL_WAIT_UNTIL(c, __atomic_load_n(flag, __ATOMIC_ACQUIRE) >= target);
    __atomic_fetch_sub(flag, count, __ATOMIC_RELAXED);
}

long coll_recv_value(coll_t *c, int slot)
{
    long *flag = (long *)c->flags.addr + slot;
    long v;
    COLL_WAIT_UNTIL(c, (v = __atomic_load_n(flag, __ATOMIC_ACQUIRE)) > SHMEM_SYNC_VALUE);
    v -= SHMEM_SYNC_VALUE + 1; /* the sender added v + 1 */
    flag_take(c, flag, v + 1);
    return v;
}

void coll_wait_stamp(coll_t *c, const uint64_t *stamp, uint64_t value)
{
    COLL_WAIT_UNTIL(c, __atomic_load_n(stamp, __ATOMIC_ACQUIRE) == value);
}

int coll_wait_stamps(coll_t *c, const uint64_t *first, const uint64_t *second, uint64_t value)
{
    COLL_WAIT_UNTIL(c, __atomic_load_n(first, __ATOMIC_ACQUIRE) == value ||
                           __atomic_load_n(second, __ATOMIC_ACQUIRE) == value);
    return __atomic_load_n(first, __ATOMIC_ACQUIRE) == value;
}

/* ------------------------------------------------------------------ data */

void coll_put(coll_t *c, int member, const coll_buf_t *dst, size_t at, const void *src,
              size_t len)
{
    if (len == 0)
        return;
    int pe = coll_pe(c, member);
    char *direct = sshmem_peer(pe)->direct[dst->region];
    if (direct) {
        if (c->stream)
            sshmem_copy_stream(direct + dst->off + at, src, len);
        else
            sshmem_copy(direct + dst->off + at, src, len); /* streams when large */
        return;
    }
    sshmem_tx_put(sshmem_tx_default(), pe, dst->region,
                  sshmem_peer(pe)->remote[dst->region] + dst->off + at, src, len, 1);
    c->ucx_dirty |= 1 << dst->region;
}

/* Copy len bytes of src to base + at, leaving out the stamp word at base + stamp_at if it
 * lies inside: as through UCX (sshmem_tx_put_stamped), only the stamp ever writes it. */
static void copy_around_stamp(char *base, size_t at, const char *src, size_t len,
                              size_t stamp_at)
{
    size_t head = len, tail = len;
    if (len >= sizeof(uint64_t) && stamp_at >= at && stamp_at - at <= len - sizeof(uint64_t)) {
        head = stamp_at - at;
        tail = head + sizeof(uint64_t);
    }
    memcpy(base + at, src, head);
    memcpy(base + at + tail, src + tail, len - tail);
}

void coll_put_stamped(coll_t *c, int member, const coll_buf_t *dst, size_t at, const void *src,
                      size_t len, size_t stamp_at, uint64_t stamp)
{
    const int pe = coll_pe(c, member);
    char *direct = sshmem_peer(pe)->direct[dst->region];
    if (direct) {
        copy_around_stamp(direct + dst->off, at, src, len, stamp_at);
        coll_put_stamp((uint64_t *)(direct + dst->off + stamp_at), stamp);
        return;
    }
    if (c->ucx_dirty & ~(1 << dst->region)) { /* a fence orders one kind of memory only */
        sshmem_tx_quiet(sshmem_tx_default());
        c->ucx_dirty = 0;
    }
    const uint64_t base = sshmem_peer(pe)->remote[dst->region] + dst->off;
    sshmem_tx_put_stamped(sshmem_tx_default(), pe, dst->region, base + at, src, len,
                          base + stamp_at, stamp);
    c->ucx_dirty |= 1 << dst->region;
}

/* The gate of a message into member in a call set up ahead (sshmem_tx_put_add): member applies
 * it once it has left the call that last used this area (what coll_reach waits for without
 * messages), holding it until then. SSHMEM_COLL_HOLD bounds what a member holds: of messages of
 * len bytes from each of n - 1 peers, at most that many bytes' worth of calls (a held entry
 * costs about HELD_ENTRY_BYTES besides its data); a PE further ahead waits. NULL when every
 * member is known to be there. */
#define HELD_ENTRY_BYTES 128
static const sshmem_tx_gate_t *coll_gate(coll_t *c, int member, size_t len,
                                         sshmem_tx_gate_t *gate)
{
    const long need = c->reach_need;
    if (!need)
        return NULL;
    struct sshmem_team *team = c->team;
    const size_t per_call = (size_t)c->n * (len + HELD_ENTRY_BYTES);
    const size_t calls = sshmem_env.coll_hold / per_call;
    const long within = need - (calls < (size_t)need ? (long)calls : need);
    if (within > team->coll_floor) { /* as coll_reach_wait, for `within` */
        if (second_member(c, member))
            wait_progress(c, within);
        else
            wait_member(c, member, within);
    }
    coll_buf_t word;
    coll_buf(&word, progress_word(team), sizeof(long), "team progress word", c);
    const int pe = coll_pe(c, member);
    gate->word_raddr = sshmem_peer(pe)->remote[word.region] + word.off;
    gate->open_at = need;
    return gate;
}

static void finish_inflight(coll_t *c)
{
    for (int i = 0; i < c->ninflight; i++)
        sshmem_tx_put_add_finish(sshmem_tx_default(), &c->inflight[i]);
    c->ninflight = 0;
}

/* Data and flag to member as one message, the data to raddr in member's address space;
 * async: it may stay in flight until coll_done; gate: NULL or its gate. */
static void message(coll_t *c, int member, uint64_t raddr, const void *src, size_t len,
                    int slot, long amount, int async, const sshmem_tx_gate_t *gate)
{
    if (c->ucx_dirty) { /* nothing orders a message after puts short of their completion */
        sshmem_tx_quiet(sshmem_tx_default());
        c->ucx_dirty = 0;
    }
    sshmem_tx_put_add_req_t *later = NULL; /* the request it leaves in flight, if async */
    if (async) {
        if (c->ninflight == COLL_INFLIGHT_MAX)
            finish_inflight(c);
        later = &c->inflight[c->ninflight];
    }
    const int pe = coll_pe(c, member);
    const uint64_t flag = sshmem_peer(pe)->remote[c->flags.region] + c->flags.off +
                          (size_t)slot * sizeof(long);
    sshmem_tx_put_add(sshmem_tx_default(), pe, raddr, src, len, flag, amount, gate, later);
    if (later && later->req)
        c->ninflight++;
}

/* Where UCX emulates one-sided operations to pe: len bytes of src to dst + at and the signal as
 * one message (engine.h, coll_put_add; the fence between a put and an atomic would wait for the
 * first acknowledgement); 0 otherwise. */
static int signal_by_message(coll_t *c, int member, const coll_buf_t *dst, size_t at,
                             const void *src, size_t len, int slot, long amount, int async)
{
    const int pe = coll_pe(c, member);
    if (!sshmem_tx_put_add_pays(pe))
        return 0;
    sshmem_tx_gate_t gate;
    message(c, member, sshmem_peer(pe)->remote[dst->region] + dst->off + at, src, len, slot,
            amount, async, async ? NULL : coll_gate(c, member, len, &gate));
    return 1;
}

static void put_add(coll_t *c, int member, const coll_buf_t *dst, size_t at, const void *src,
                    size_t len, int slot, long amount, int async)
{
    int pe = coll_pe(c, member);
    if (len && !sshmem_peer(pe)->direct[dst->region] &&
        signal_by_message(c, member, dst, at, src, len, slot, amount, async))
        return;
    coll_put(c, member, dst, at, src, len);
    coll_add(c, member, slot, amount);
}

void coll_put_add(coll_t *c, int member, const coll_buf_t *dst, size_t at, const void *src,
                  size_t len, int slot, long amount)
{
    put_add(c, member, dst, at, src, len, slot, amount, 0);
}

void coll_put_signal_async(coll_t *c, int member, const coll_buf_t *dst, size_t at,
                           const void *src, size_t len, int slot)
{
    put_add(c, member, dst, at, src, len, slot, 1, 1);
}

void coll_put_strided(coll_t *c, int member, const coll_buf_t *dst, size_t at,
                      ptrdiff_t dst_stride, const char *src, ptrdiff_t src_stride, size_t count,
                      size_t esize)
{
    int pe = coll_pe(c, member);
    char *direct = sshmem_peer(pe)->direct[dst->region];
    ptrdiff_t ds = dst_stride * (ptrdiff_t)esize, ss = src_stride * (ptrdiff_t)esize;
    if (direct) {
        char *d = direct + dst->off + at;
        for (size_t k = 0; k < count; k++)
            memcpy(d + (ptrdiff_t)k * ds, src + (ptrdiff_t)k * ss, esize);
        return;
    }
    /* Packed, as one message that pe unpacks, where that beats a put per element (over tcp
     * each put is a message) */
    char *local = (char *)sshmem.region[dst->region].base + dst->off + at;
    if (count && sshmem_strided_staged(SHMEM_CTX_DEFAULT, local, src, dst_stride, src_stride,
                                       esize, 1, count, pe, 0)) {
        c->ucx_dirty |= 1 << dst->region;
        c->ucx_unfinished = 1;
        return;
    }
    uint64_t base = sshmem_peer(pe)->remote[dst->region] + dst->off + at;
    for (size_t k = 0; k < count; k++)
        sshmem_tx_put(sshmem_tx_default(), pe, dst->region, base + (uint64_t)((ptrdiff_t)k * ds),
                      src + (ptrdiff_t)k * ss, esize, 0);
    if (count) {
        c->ucx_dirty |= 1 << dst->region;
        c->ucx_unfinished = 1;
    }
}

void coll_done(coll_t *c)
{
    finish_inflight(c);
    if (c->ucx_unfinished) {
        sshmem_tx_quiet(sshmem_tx_default());
        c->ucx_dirty = 0;
        c->ucx_unfinished = 0;
    }
}
