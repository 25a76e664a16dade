/*
 * stress.c: a bounded random soak of mixed traffic from every PE, where every value is checked.
 *
 * Every round, every PE follows a plan drawn from a PRNG seeded with (seed, round, PE), so any
 * PE can recompute any other's plan and knows exactly what should have arrived:
 *   puts      blocking, non-blocking and single-element puts of patterns that encode (source
 *             PE, round, index) into the slots the source owns on the target; the target
 *             checks every slot (written ones hold the pattern, the others are still 0) and the
 *             source reads them back with blocking, single-element and non-blocking gets;
 *   atomics   add, inc, fetch-add, fetch-inc, non-blocking fetch-add on counters; each target
 *             checks its counters equal the sum of the increments all plans made to it;
 *   tickets   fetch-inc tickets from one PE, each marked once on the ticket owner: the marks
 *             cover 0..N-1 exactly once (nothing lost, nothing duplicated);
 *   cswap     claims of cells: a cell is won by exactly one of the PEs that tried it, and a
 *             cell nobody tried is untouched; winners and their own records agree;
 *   swap      one swap per PE into one cell: the values returned (gathered with fcollect) and
 *             the final value are exactly the initial value and every PE's;
 *   fence     a non-blocking put, shmem_fence, then a flag: seeing the flag means the data;
 *   signals   put_signal (SET) around a ring and put_signal (ADD) into one PE, waited for with
 *             shmem_signal_wait_until, then the data checked;
 *   colls     barrier, sum and max reductions and broadcast on SHMEM_TEAM_WORLD and on a split
 *             team of the even PEs, fcollect on both.
 * A mistake prints the PE, the round, what, where, the expected and found values and the seed.
 * Data patterns read as hex: (source PE + 1) << 48 | round << 16 | index.
 *
 * Usage: stress [--rounds N] [--seconds S] [--seed X] [--inject slot|counter|ticket]
 * (seed also from SSHMEM_STRESS_SEED; without one it is drawn from the clock and printed).
 * Ends after N rounds or S seconds, whichever comes first (default 100 rounds, 3 s; 0 means no
 * bound of that kind). --inject makes the last PE do one thing wrong in round 1 (a wrong word
 * in a slot, an extra increment, a ticket marked twice), to show the checks see it.
 * sshmem-test: np=2 3 4 8
 * sshmem-test-env: np=4,8 paths=direct,ucx SSHMEM_PES_PER_NODE=2
 */
#include <inttypes.h>
#include <time.h>
#include <unistd.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stress_plan.h"

static uint64_t seed;
static int npes, me;

/* ---------------------------------------------------------------- symmetric data */

static uint64_t *slots;      /* [npes][SLOTS]: slots[src] is written only by src */
static uint64_t *counters;   /* [NCOUNTERS] */
static uint64_t *tickets;    /* [1]: the ticket counter (used on the round's owner) */
static uint64_t *marks;      /* [npes * MAX_TICKETS]: one mark per ticket handed out */
static uint64_t *cells;      /* [NCELLS]: cswap claims, 0 = free, else winner + 1 */
static uint64_t *swap_cell;  /* [1] */
static uint64_t *swap_got;   /* [1] source of the fcollect */
static uint64_t *swap_all;   /* [npes] */
static uint64_t *fence_data; /* [FENCE_WORDS] */
static uint64_t *fence_flag; /* [1] */
static uint64_t *ring_data;  /* [RING_WORDS] */
static uint64_t *ring_sig;   /* [1] */
static uint64_t *fan_data;   /* [npes] */
static uint64_t *fan_sig;    /* [1] */
static uint64_t *red_src, *red_dst, *bc_src, *bc_dst; /* [2] each */
static uint64_t *fc_src, *fc_dst; /* [1], [npes] */
static uint64_t *go;         /* [2]: PE 0 says (in [0]) whether to go on */

static uint64_t *expect_counters; /* private: what counters must hold */
static shmem_team_t evens = SHMEM_TEAM_INVALID;
static int round_no, failures;
static const char *inject = ""; /* a deliberate mistake, to test the checks */

static int injecting(const char *what)
{
    return round_no == 1 && me == npes - 1 && !strcmp(inject, what);
}

static void fail(const char *what, int where_pe, int index, uint64_t want, uint64_t got)
{
    if (failures++ < 20)
        fprintf(stderr, "stress: FAIL PE %d round %d: %s (PE %d, index %d): expected %#" PRIx64
                ", found %#" PRIx64 " (seed %" PRIu64 ")\n", me, round_no, what, where_pe, index,
                want, got, seed);
}

#define EXPECT(what, pe, idx, want, got)                                                     \
    do {                                                                                     \
        uint64_t w_ = (want), g_ = (got);                                                    \
        if (w_ != g_)                                                                        \
            fail(what, pe, idx, w_, g_);                                                     \
    } while (0)

static void *alloc(size_t words)
{
    void *p = shmem_calloc(words, sizeof(uint64_t));
    if (!p) {
        fprintf(stderr, "stress: PE %d: shmem_calloc of %zu words failed\n", me, words);
        shmem_global_exit(2);
    }
    return p;
}

static void setup(void)
{
    size_t n = (size_t)npes;
    slots = alloc(n * SLOTS);
    counters = alloc(NCOUNTERS);
    tickets = alloc(1);
    marks = alloc(n * MAX_TICKETS);
    cells = alloc(NCELLS);
    swap_cell = alloc(1);
    swap_got = alloc(1);
    swap_all = alloc(n);
    fence_data = alloc(FENCE_WORDS);
    fence_flag = alloc(1);
    ring_data = alloc(RING_WORDS);
    ring_sig = alloc(1);
    fan_data = alloc(n);
    fan_sig = alloc(1);
    red_src = alloc(2);
    red_dst = alloc(2);
    bc_src = alloc(2);
    bc_dst = alloc(2);
    fc_src = alloc(1);
    fc_dst = alloc(n);
    go = alloc(2);
    expect_counters = calloc(NCOUNTERS, sizeof *expect_counters);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
}

/* ---------------------------------------------------------------- one round */

static int owner(void) { return round_no % npes; }
static int ring_next(int pe) { return (pe + 1 + round_no % (npes > 1 ? npes - 1 : 1)) % npes; }
static int ring_prev(int pe)
{
    int shift = 1 + round_no % (npes > 1 ? npes - 1 : 1);
    return ((pe - shift) % npes + npes) % npes;
}

/* Local resets; the barrier that follows keeps everyone from writing before them. */
static void clear_round(void)
{
    memset(slots, 0, (size_t)npes * SLOTS * sizeof *slots);
    if (me == owner()) {
        *tickets = 0;
        memset(marks, 0, (size_t)npes * MAX_TICKETS * sizeof *marks);
        memset(cells, 0, NCELLS * sizeof *cells);
        *swap_cell = (uint64_t)round_no << 16; /* "nobody" */
        *fan_sig = 0;
    }
    shmem_barrier_all();
}

static void do_puts(const struct plan *p, int t)
{
    uint64_t src[SLOTS];
    int k = p->put_count[t];
    for (int i = 0; i < k; i++)
        src[i] = pattern(me, round_no, i);
    if (k > 0 && injecting("slot"))
        src[k - 1] ^= 0x100;
    uint64_t *dest = slots + (size_t)me * SLOTS;
    switch (p->put_kind[t]) {
    case PUT_BLOCKING:
        shmem_uint64_put(dest, src, (size_t)k, t);
        break;
    case PUT_NBI:
        shmem_uint64_put_nbi(dest, src, (size_t)k, t);
        shmem_quiet(); /* src is on the stack */
        break;
    default:
        for (int i = 0; i < k; i++)
            shmem_uint64_p(dest + i, src[i], t);
    }
}

static const struct plan *plans_me;

static void do_amo(const struct amo_op *a)
{
    uint64_t *c = counters + a->counter, fetched = 0;
    switch (a->kind) {
    case AMO_ADD: shmem_uint64_atomic_add(c, a->value, a->target); break;
    case AMO_INC: shmem_uint64_atomic_inc(c, a->target); break;
    case AMO_FETCH_ADD: fetched = shmem_uint64_atomic_fetch_add(c, a->value, a->target); break;
    case AMO_FETCH_INC: fetched = shmem_uint64_atomic_fetch_inc(c, a->target); break;
    default:
        shmem_uint64_atomic_fetch_add_nbi(&fetched, c, a->value, a->target);
        shmem_quiet();
    }
    if (injecting("counter") && a == &plans_me->amo[0])
        shmem_uint64_atomic_inc(c, a->target);
    (void)fetched; /* any value is possible while others add too; the totals are checked */
}

static void do_tickets(const struct plan *p)
{
    for (int i = 0; i < p->ntickets; i++) {
        uint64_t t = shmem_uint64_atomic_fetch_inc(tickets, owner());
        if (t >= (uint64_t)npes * MAX_TICKETS) {
            fail("ticket out of range", owner(), i, (uint64_t)npes * MAX_TICKETS, t);
            continue;
        }
        shmem_uint64_atomic_add(marks + t, injecting("ticket") ? 2 : 1, owner()); /* a
                                                          duplicate shows as 2 */
    }
}

static int my_claim_wins[MAX_CLAIMS];

static void do_claims(const struct plan *p)
{
    for (int i = 0; i < p->nclaims; i++) {
        uint64_t old = shmem_uint64_atomic_compare_swap(cells + p->claim[i], 0,
                                                        (uint64_t)me + 1, owner());
        my_claim_wins[i] = old == 0;
        if (old != 0 && old > (uint64_t)npes)
            fail("cswap returned a value no PE writes", owner(), p->claim[i], npes, old);
    }
}

static void do_swap(void)
{
    *swap_got = shmem_uint64_atomic_swap(swap_cell, ((uint64_t)round_no << 16) | (uint64_t)(me + 1),
                                         owner());
}

static void do_fence(void)
{
    uint64_t src[FENCE_WORDS];
    for (int i = 0; i < FENCE_WORDS; i++)
        src[i] = pattern(me, round_no, 1000 + i);
    int t = ring_next(me);
    shmem_uint64_put_nbi(fence_data, src, FENCE_WORDS, t);
    shmem_fence(); /* the data before the flag, to the same PE */
    shmem_uint64_p(fence_flag, (uint64_t)round_no + 1, t);
    shmem_quiet(); /* src is on the stack */
}

static void do_signals(void)
{
    uint64_t src[RING_WORDS];
    for (int i = 0; i < RING_WORDS; i++)
        src[i] = pattern(me, round_no, 2000 + i);
    int t = ring_next(me);
    if (round_no % 2)
        shmem_putmem_signal(ring_data, src, sizeof src, ring_sig, (uint64_t)round_no + 1,
                            SHMEM_SIGNAL_SET, t);
    else
        shmem_putmem_signal_nbi(ring_data, src, sizeof src, ring_sig, (uint64_t)round_no + 1,
                                SHMEM_SIGNAL_SET, t);
    uint64_t mine = pattern(me, round_no, 3000);
    shmem_putmem_signal(fan_data + me, &mine, sizeof mine, fan_sig, 1, SHMEM_SIGNAL_ADD, owner());
    shmem_quiet();
}

/* Issue this PE's traffic in an order drawn from its plan. */
static void issue(const struct plan *p)
{
    enum { N_FIXED = 5 };
    int nops = npes + p->namos + N_FIXED, order[64 + MAX_AMOS + N_FIXED];
    for (int i = 0; i < nops; i++)
        order[i] = i;
    uint64_t s = (uint64_t)p->order_seed;
    for (int i = nops - 1; i > 0; i--) {
        int j = (int)below(&s, (unsigned)i + 1), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    for (int i = 0; i < nops; i++) {
        int op = order[i];
        if (op < npes)
            do_puts(p, op);
        else if (op < npes + p->namos)
            do_amo(&p->amo[op - npes]);
        else switch (op - npes - p->namos) {
            case 0: do_tickets(p); break;
            case 1: do_claims(p); break;
            case 2: do_swap(); break;
            case 3: do_fence(); break;
            default: do_signals(); break;
        }
    }
    shmem_quiet();
}

/* What came to this PE with a flag or a signal: wait for it, then check the data. */
static void receive(void)
{
    int from = ring_prev(me);
    shmem_uint64_wait_until(fence_flag, SHMEM_CMP_EQ, (uint64_t)round_no + 1);
    for (int i = 0; i < FENCE_WORDS; i++)
        EXPECT("data put before shmem_fence, seen with the flag after it", from, i,
               pattern(from, round_no, 1000 + i), fence_data[i]);
    shmem_signal_wait_until(ring_sig, SHMEM_CMP_EQ, (uint64_t)round_no + 1);
    for (int i = 0; i < RING_WORDS; i++)
        EXPECT("put_signal (SET) data", from, i, pattern(from, round_no, 2000 + i),
               ring_data[i]);
    if (me == owner()) {
        shmem_signal_wait_until(fan_sig, SHMEM_CMP_GE, (uint64_t)npes);
        EXPECT("put_signal (ADD) count", me, 0, (uint64_t)npes, shmem_signal_fetch(fan_sig));
        for (int s = 0; s < npes; s++)
            EXPECT("put_signal (ADD) data", s, 0, pattern(s, round_no, 3000), fan_data[s]);
    }
}

/* ---------------------------------------------------------------- checks after the barrier */

static void check_slots(const struct plan *plans)
{
    for (int s = 0; s < npes; s++) {
        const uint64_t *mine = slots + (size_t)s * SLOTS;
        int k = plans[s].put_count[me];
        for (int i = 0; i < SLOTS; i++)
            EXPECT(i < k ? "put data in the source's slots" : "slot past the source's put",
                   s, i, i < k ? pattern(s, round_no, i) : 0, mine[i]);
    }
}

/* Read back what this PE put on a few targets, three ways. */
static void check_gets(const struct plan *mine)
{
    int t = (me + round_no) % npes, k = mine->put_count[t];
    uint64_t back[SLOTS] = {0};
    const uint64_t *remote = slots + (size_t)me * SLOTS;
    if (round_no % 3 == 0) {
        shmem_uint64_get(back, remote, (size_t)k, t);
    } else if (round_no % 3 == 1) {
        shmem_uint64_get_nbi(back, remote, (size_t)k, t);
        shmem_quiet();
    } else {
        for (int i = 0; i < k && i < 4; i++)
            back[i] = shmem_uint64_g(remote + i, t);
        if (k > 4)
            k = 4;
    }
    for (int i = 0; i < k; i++)
        EXPECT("get of what this PE put", t, i, pattern(me, round_no, i), back[i]);
}

static void check_counters(const struct plan *plans)
{
    for (int s = 0; s < npes; s++)
        for (int i = 0; i < plans[s].namos; i++)
            if (plans[s].amo[i].target == me)
                expect_counters[plans[s].amo[i].counter] += plans[s].amo[i].value;
    for (int c = 0; c < NCOUNTERS; c++) {
        EXPECT("atomic counter (sum of every PE's increments)", me, c, expect_counters[c],
               counters[c]);
        expect_counters[c] = counters[c]; /* one mistake is reported once, not every round */
    }
}

static void check_tickets_and_claims(const struct plan *plans)
{
    if (me != owner())
        return;
    uint64_t n = 0;
    int tried[NCELLS] = {0};
    for (int s = 0; s < npes; s++) {
        n += (uint64_t)plans[s].ntickets;
        for (int i = 0; i < plans[s].nclaims; i++)
            tried[plans[s].claim[i]] |= 1 << (s < 30 ? s : 30);
    }
    EXPECT("ticket counter (tickets taken by all PEs)", me, 0, n, *tickets);
    for (uint64_t t = 0; t < (uint64_t)npes * MAX_TICKETS; t++)
        EXPECT(t < n ? "ticket handed out exactly once" : "ticket never handed out", me, (int)t,
               t < n ? 1 : 0, marks[t]);
    for (int c = 0; c < NCELLS; c++) {
        uint64_t v = cells[c];
        if (!tried[c])
            EXPECT("cswap cell nobody tried", me, c, 0, v);
        else if (v == 0 || v > (uint64_t)npes ||
                 (v - 1 < 30 && !(tried[c] & (1 << (v - 1)))))
            fail("cswap cell won by a PE that did not try it (found: winner + 1)", me, c,
                 (uint64_t)tried[c], v);
    }
}

/* Every PE: the cells it won hold its number, the ones it lost someone else's. */
static void check_my_claims(const struct plan *p)
{
    for (int i = 0; i < p->nclaims; i++) {
        uint64_t v = shmem_uint64_atomic_fetch(cells + p->claim[i], owner());
        int repeat = 0;
        for (int j = 0; j < i; j++)
            repeat |= p->claim[j] == p->claim[i];
        if (my_claim_wins[i] && repeat)
            fail("cswap won a cell this PE had already claimed", owner(), p->claim[i], 0, 1);
        if (my_claim_wins[i])
            EXPECT("cswap cell this PE won", owner(), p->claim[i], (uint64_t)me + 1, v);
        else if (v == (uint64_t)me + 1 && !repeat)
            fail("cswap cell holds this PE but it lost", owner(), p->claim[i], 0, v);
    }
}

/* The swap chain: returned values plus the final one are the initial value and every PE's. */
static void check_swaps(void)
{
    shmem_fcollectmem(SHMEM_TEAM_WORLD, swap_all, swap_got, sizeof *swap_got);
    uint64_t final = shmem_uint64_atomic_fetch(swap_cell, owner());
    int seen[65] = {0};
    uint64_t base = (uint64_t)round_no << 16;
    for (int i = 0; i <= npes; i++) {
        uint64_t v = i < npes ? swap_all[i] : final;
        uint64_t who = v - base;
        if (v < base || who > (uint64_t)npes || who > 64 || seen[who]++)
            fail("swap chain value (returned to PE index, or final at index npes) lost or "
                 "duplicated", owner(), i, base, v);
    }
}

static void check_collectives(const struct plan *plans)
{
    uint64_t sum = 0, max = 0, even_sum = 0;
    for (int s = 0; s < npes; s++) {
        sum += plans[s].reduce_value;
        max = plans[s].reduce_value > max ? plans[s].reduce_value : max;
        even_sum += s % 2 ? 0 : plans[s].reduce_value;
    }
    red_src[0] = plans[me].reduce_value;
    red_src[1] = (uint64_t)me;
    shmem_uint64_sum_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, 1);
    EXPECT("sum reduction on SHMEM_TEAM_WORLD", me, 0, sum, red_dst[0]);
    shmem_uint64_max_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, 2);
    EXPECT("max reduction on SHMEM_TEAM_WORLD", me, 0, max, red_dst[0]);
    EXPECT("max reduction on SHMEM_TEAM_WORLD", me, 1, (uint64_t)npes - 1, red_dst[1]);
    int root = (int)(plans[0].reduce_value % (uint64_t)npes);
    bc_src[0] = me == root ? pattern(root, round_no, 4000) : 0;
    shmem_uint64_broadcast(SHMEM_TEAM_WORLD, bc_dst, bc_src, 1, root);
    EXPECT("broadcast on SHMEM_TEAM_WORLD", root, 0, pattern(root, round_no, 4000), bc_dst[0]);

    if (evens == SHMEM_TEAM_INVALID)
        return;
    int tn = shmem_team_n_pes(evens), tme = shmem_team_my_pe(evens);
    EXPECT("my number in the team of even PEs", me, 0, (uint64_t)me / 2, (uint64_t)tme);
    shmem_uint64_sum_reduce(evens, red_dst, red_src, 1);
    EXPECT("sum reduction on the team of even PEs", me, 0, even_sum, red_dst[0]);
    int troot = round_no % tn;
    bc_src[1] = tme == troot ? pattern(2 * troot, round_no, 5000) : 0;
    shmem_uint64_broadcast(evens, bc_dst + 1, bc_src + 1, 1, troot);
    EXPECT("broadcast on the team of even PEs", 2 * troot, 0, pattern(2 * troot, round_no, 5000),
           bc_dst[1]);
    *fc_src = pattern(me, round_no, 6000);
    shmem_uint64_fcollect(evens, fc_dst, fc_src, 1);
    for (int i = 0; i < tn; i++)
        EXPECT("fcollect on the team of even PEs", 2 * i, i, pattern(2 * i, round_no, 6000),
               fc_dst[i]);
}

static void run_round(struct plan *plans)
{
    for (int s = 0; s < npes; s++)
        make_plan(seed, npes, round_no, s, &plans[s]);
    plans_me = &plans[me];
    clear_round();
    issue(&plans[me]);
    receive();
    shmem_barrier_all(); /* with its quiet: every put and atomic of the round is complete */
    check_slots(plans);
    check_gets(&plans[me]);
    check_counters(plans);
    check_tickets_and_claims(plans);
    check_my_claims(&plans[me]);
    check_swaps();
    check_collectives(plans);
    shmem_barrier_all(); /* nobody clears what a peer still reads */
}

/* ---------------------------------------------------------------- bounds and main */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(void)
{
    fprintf(stderr, "usage: stress [--rounds N] [--seconds S] [--seed X] "
                    "[--inject slot|counter|ticket]   (also --option=value)\n");
    exit(2);
}

static void parse(int argc, char **argv, long *rounds, double *seconds, uint64_t *seed_out)
{
    const char *env = getenv("SSHMEM_STRESS_SEED");
    *seed_out = env ? strtoull(env, NULL, 0) : 0;
    for (int i = 1; i < argc; i++) {
        char name[32];
        const char *value = strchr(argv[i], '=');
        size_t len = value ? (size_t)(value - argv[i]) : strlen(argv[i]);
        if (len >= sizeof name)
            usage();
        memcpy(name, argv[i], len);
        name[len] = '\0';
        if (value)
            value++;
        else if (i + 1 < argc)
            value = argv[++i];
        else
            usage();
        if (!strcmp(name, "--rounds"))
            *rounds = atol(value);
        else if (!strcmp(name, "--seconds"))
            *seconds = atof(value);
        else if (!strcmp(name, "--seed"))
            *seed_out = strtoull(value, NULL, 0);
        else if (!strcmp(name, "--inject"))
            inject = value;
        else
            usage();
    }
}

/* PE 0's seed (given, or from its clock) for everyone. */
static void agree_on_seed(uint64_t given)
{
    static uint64_t shared;
    if (me == 0)
        shared = given ? given : ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid();
    shmem_barrier_all();
    shared = shmem_uint64_g(&shared, 0);
    seed = shared;
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    long rounds = 100;
    double seconds = 3;
    uint64_t given;
    parse(argc, argv, &rounds, &seconds, &given);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > 64) {
        if (me == 0)
            fprintf(stderr, "stress: SKIP: at most 64 PEs\n");
        shmem_finalize();
        return 77;
    }
    agree_on_seed(given);
    if (me == 0)
        printf("stress: seed %" PRIu64 " (reproduce with SSHMEM_STRESS_SEED=%" PRIu64
               " or --seed), %d PEs, at most %ld rounds, %g s\n", seed, seed, npes, rounds,
               seconds);
    fflush(stdout); /* the seed must be out even if the job dies */
    setup();
    struct plan *plans = calloc((size_t)npes, sizeof *plans);
    double start = now_s();
    for (round_no = 0; rounds == 0 || round_no < rounds; round_no++) {
        run_round(plans);
        /* PE 0's clock decides for everyone (a broadcast, so all stop after the same round). */
        if (me == 0)
            go[0] = seconds <= 0 || now_s() - start < seconds;
        shmem_uint64_broadcast(SHMEM_TEAM_WORLD, go + 1, go, 1, 0);
        if (!go[1]) {
            round_no++;
            break;
        }
    }
    red_src[0] = (uint64_t)failures;
    shmem_uint64_sum_reduce(SHMEM_TEAM_WORLD, red_dst, red_src, 1);
    if (me == 0)
        printf("stress: %d rounds in %.2f s, %" PRIu64 " failures (seed %" PRIu64 ")\n",
               round_no, now_s() - start, red_dst[0], seed);
    fflush(stdout);
    int status = failures ? 1 : 0; /* so oshrun names a PE that saw a mistake */
    free(plans);
    free(expect_counters);
    if (evens != SHMEM_TEAM_INVALID)
        shmem_team_destroy(evens);
    shmem_finalize();
    return status;
}
