/*
 * hang.c: hang reports (see hang.h). Each PE owns one record in the internal symmetric heap:
 * "where I wait" (published when a wait enters its slow phase) and how many world
 * collectives it has entered. After SSHMEM_HANG_TIMEOUT seconds in one wait, the first PE to
 * claim the report (an atomic on PE 0) reads every PE's record (a load on-node, a get
 * otherwise; the progress thread serves it while the target computes), prints one line per
 * PE and ends the job. Other PEs that time out meanwhile keep waiting for the abort.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/heap.h"
#include "sync/hang.h"
#include "transport/transport.h"

#define HANG_CLOCK_EVERY 256 /* slow polls (yields) between two reads of the clock */
#define HANG_DEFAULT_DEBUG 60 /* seconds, when SHMEM_DEBUG is on and the variable unset */
#define HANG_MAX_LINES 64     /* PEs listed one by one; the rest are summed up */

typedef struct hang_record {
    uint32_t waiting;     /* 1 while a wait of this PE is in its slow phase */
    int32_t region;       /* region of addr, -1 when none */
    uint64_t addr;        /* the waited-on address, in this PE's address space */
    uint64_t offset;      /* its offset in the region */
    uint64_t world_calls; /* collectives entered on SHMEM_TEAM_WORLD */
    uint64_t seq;         /* call number of the collective waited in, on its team */
    int32_t in_coll, world;
    sshmem_triplet_t set; /* the collective's members */
    char call[64];        /* the routine */
} hang_record_t;

typedef struct hang_area {
    hang_record_t rec;
    uint64_t reporter; /* on PE 0: 1 + the PE that prints the report */
} hang_area_t;

_Static_assert(sizeof(hang_area_t) <= SSHMEM_HANG_AREA_BYTES, "the internal space's part");

uint64_t sshmem_hang_ns;
static hang_area_t *area;
static __thread uint64_t wait_start;
static unsigned timeout_s;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void sshmem_hang_init(void)
{
    area = sshmem_heap_space(SSHMEM_SPACE_HANG);
    memset(area, 0, sizeof *area);
    timeout_s = sshmem_env.hang_timeout;
    const char *set = getenv("SSHMEM_HANG_TIMEOUT");
    if (!timeout_s && sshmem_env.debug && !(set && *set))
        timeout_s = HANG_DEFAULT_DEBUG;
    sshmem_hang_ns = (uint64_t)timeout_s * 1000000000u;
}

void sshmem_hang_world_entered(unsigned long n)
{
    if (area)
        __atomic_store_n(&area->rec.world_calls, (uint64_t)n, __ATOMIC_RELAXED);
}

static void publish(const char *call, const void *addr, const sshmem_triplet_t *set,
                    unsigned long seq, int world)
{
    hang_record_t *r = &area->rec;
    size_t off = 0;
    __atomic_store_n(&r->waiting, 0, __ATOMIC_RELAXED);
    r->region = addr ? sshmem_region_of(addr, 1, &off) : -1;
    r->addr = (uint64_t)(uintptr_t)addr;
    r->offset = off;
    r->in_coll = set != NULL;
    r->world = world;
    r->seq = seq;
    if (set)
        r->set = *set;
    snprintf(r->call, sizeof r->call, "%s", call ? call : "a wait inside sshmem");
    __atomic_store_n(&r->waiting, 1, __ATOMIC_RELEASE);
}

void sshmem_hang_leave(void)
{
    if (area)
        __atomic_store_n(&area->rec.waiting, 0, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------------ the report */

static uint64_t record_offset(void)
{
    return (uint64_t)((uintptr_t)area - sshmem.region[SSHMEM_REGION_HEAP].base);
}

static void read_record(int pe, hang_record_t *out)
{
    char *direct = sshmem.peers[pe].direct[SSHMEM_REGION_HEAP];
    if (pe == sshmem.my_pe || direct) {
        const char *src = pe == sshmem.my_pe ? (const char *)area : direct + record_offset();
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        memcpy(out, src, sizeof *out);
    } else {
        sshmem_tx_get(sshmem_tx_default(), pe, SSHMEM_REGION_HEAP,
                      sshmem.peers[pe].remote[SSHMEM_REGION_HEAP] + record_offset(), out,
                      sizeof *out, 1);
    }
    out->call[sizeof out->call - 1] = 0;
}

/* Only one PE prints: the first to swap its number into PE 0's word. */
static int claim_report(void)
{
    uint64_t off = record_offset() + offsetof(hang_area_t, reporter), mine = sshmem.my_pe + 1;
    char *direct = sshmem.peers[0].direct[SSHMEM_REGION_HEAP];
    uint64_t old;
    if (direct && sshmem.amo_cpu) {
        old = 0;
        __atomic_compare_exchange_n((uint64_t *)(direct + off), &old, mine, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE);
    } else {
        old = sshmem_tx_amo(sshmem_tx_default(), 0, SSHMEM_REGION_HEAP,
                            sshmem.peers[0].remote[SSHMEM_REGION_HEAP] + off, SSHMEM_AMO_CSWAP,
                            sizeof(uint64_t), mine, 0, 1);
    }
    return old == 0 || old == mine;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof line - 2)
        n = sizeof line - 2;
    line[n++] = '\n';
    ssize_t w = write(STDERR_FILENO, line, (size_t)n); /* one write per line: no interleaving */
    (void)w;
}

static const char *region_name(int r)
{
    return r == SSHMEM_REGION_HEAP ? "symmetric heap" : "global data";
}

/* "in shmem_wait_until on 0x... (symmetric heap offset 64)" */
static void describe(const hang_record_t *r, char *buf, size_t len)
{
    if (!r->waiting) {
        snprintf(buf, len, "not in any sshmem wait (computing, or waiting elsewhere)");
    } else if (r->region >= 0 && r->region < SSHMEM_NUM_REGIONS) {
        snprintf(buf, len, "in %s on 0x%" PRIx64 " (%s offset %" PRIu64 ")", r->call, r->addr,
                 region_name(r->region), r->offset);
    } else if (r->in_coll) {
        snprintf(buf, len, "in %s (%s, call %" PRIu64 " on its team)", r->call,
                 r->world ? "SHMEM_TEAM_WORLD" : "a team or active set", r->seq);
    } else {
        snprintf(buf, len, "in %s", r->call);
    }
}

/* Has PE pe reached the collective the reporter waits in (record mine)? Records are read a
 * few times: between two waits of one collective a PE is briefly not waiting. */
static int arrived(int pe, const hang_record_t *mine, hang_record_t *last)
{
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attempt)
            usleep(2000);
        read_record(pe, last);
        if (mine->world && last->world_calls >= mine->seq)
            return 1;
        if (!mine->world && last->waiting && last->in_coll && !memcmp(&last->set, &mine->set,
                                                                      sizeof mine->set) &&
            last->seq >= mine->seq)
            return 1;
    }
    return 0;
}

static int in_set(const sshmem_triplet_t *set, int pe)
{
    return sshmem_triplet_index(set, pe) >= 0;
}

SSHMEM_NORETURN static void report(void)
{
    hang_record_t mine, r;
    char where[256], missing[256] = "";
    size_t used = 0;
    int nmissing = 0;
    read_record(sshmem.my_pe, &mine);
    describe(&mine, where, sizeof where);
    say("sshmem: PE %d: %s: no progress for %u s (SSHMEM_HANG_TIMEOUT=%u): the job looks "
        "hung. Where each PE is:", sshmem.my_pe, mine.call, timeout_s, timeout_s);
    for (int pe = 0; pe < sshmem.n_pes; pe++) {
        int member = mine.in_coll && in_set(&mine.set, pe);
        int here = member ? arrived(pe, &mine, &r) : (read_record(pe, &r), 1);
        describe(&r, where, sizeof where);
        if (!here) {
            nmissing++;
            if (used < sizeof missing - 16)
                used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%d",
                                         nmissing > 1 ? ", " : "", pe);
        }
        if (pe >= HANG_MAX_LINES && here)
            continue;
        if (!member)
            say("sshmem:   PE %d: %s", pe, where);
        else if (here)
            say("sshmem:   PE %d: arrived, %s", pe, where);
        else if (mine.world)
            say("sshmem:   PE %d: not arrived at %s: %s; it entered %" PRIu64 " of the %" PRIu64
                " collectives on SHMEM_TEAM_WORLD so far", pe, mine.call, where, r.world_calls,
                mine.seq);
        else
            say("sshmem:   PE %d: not arrived at %s: %s", pe, mine.call, where);
    }
    if (nmissing)
        sshmem_fatal(mine.call, "PE(s) %s never arrived. Every PE of the team or active set "
                     "must call the same collective: look for a PE that skips it, returns or "
                     "exits early, or waits for something that never comes. (SSHMEM_HANG_TIMEOUT"
                     "=0 turns these reports off; raise it for long computations.)", missing);
    sshmem_fatal(mine.call, "waited %u s for a value nobody set. Check that another PE writes "
                 "the variable (a put, atomic or signal to this PE, with the value waited for), "
                 "and that it is not itself waiting for this PE. (SSHMEM_HANG_TIMEOUT=0 turns "
                 "these reports off; raise it for long computations.)", timeout_s);
}

void sshmem_hang_poll(unsigned slow_polls, const char *call, const void *addr,
                      const sshmem_triplet_t *set, unsigned long seq, int world)
{
    if (!area)
        return;
    if (slow_polls == 1) {
        publish(call, addr, set, seq, world);
        wait_start = now_ns();
        return;
    }
    if (slow_polls % HANG_CLOCK_EVERY || now_ns() - wait_start < sshmem_hang_ns)
        return;
    if (claim_report())
        report();
    wait_start = now_ns(); /* another PE reports and ends the job; wait for that */
}
