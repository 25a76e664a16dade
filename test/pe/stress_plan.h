/*
 * stress_plan.h: the schedule of test/pe/stress. What PE pe does in a round comes from a PRNG
 * seeded with (seed, round, pe) only, so every PE can recompute every other PE's plan and
 * check what it should have received.
 */
#ifndef SSHMEM_TEST_STRESS_PLAN_H
#define SSHMEM_TEST_STRESS_PLAN_H
#include <stdint.h>

#define SLOTS 24      /* words a source may write per target per round */
#define NCOUNTERS 8
#define MAX_AMOS 12   /* atomic operations per PE per round */
#define MAX_TICKETS 4
#define NCELLS 16     /* cswap cells */
#define MAX_CLAIMS 4
#define RING_WORDS 8
#define FENCE_WORDS 8

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static unsigned below(uint64_t *s, unsigned n)
{
    return n ? (unsigned)(splitmix(s) % n) : 0;
}

enum amo_kind { AMO_ADD, AMO_INC, AMO_FETCH_ADD, AMO_FETCH_INC, AMO_FETCH_ADD_NBI, AMO_KINDS };
enum put_kind { PUT_BLOCKING, PUT_NBI, PUT_ELEMENTS, PUT_KINDS };

struct amo_op {
    int target, counter, kind;
    uint64_t value; /* what it adds (1 for inc) */
};

/* Everything one PE does in one round. */
struct plan {
    int put_count[64];   /* per target (first npes entries) */
    int put_kind[64];
    int namos;
    struct amo_op amo[MAX_AMOS];
    int ntickets;
    int nclaims;
    int claim[MAX_CLAIMS]; /* cswap cells tried (may repeat) */
    uint64_t reduce_value;
    int order_seed;
};

static void make_plan(uint64_t seed, int npes, int round, int pe, struct plan *p)
{
    uint64_t s = seed ^ ((uint64_t)round * 0x100000001b3ULL) ^ ((uint64_t)pe << 40);
    splitmix(&s);
    for (int t = 0; t < npes && t < 64; t++) {
        p->put_count[t] = (int)below(&s, SLOTS + 1);
        p->put_kind[t] = (int)below(&s, PUT_KINDS);
        if (p->put_kind[t] == PUT_ELEMENTS && p->put_count[t] > 6)
            p->put_count[t] = 6; /* element by element: keep it short for tcp */
    }
    p->namos = 1 + (int)below(&s, MAX_AMOS);
    for (int i = 0; i < p->namos; i++) {
        struct amo_op *a = &p->amo[i];
        a->target = (int)below(&s, (unsigned)npes);
        a->counter = (int)below(&s, NCOUNTERS);
        a->kind = (int)below(&s, AMO_KINDS);
        a->value = (a->kind == AMO_INC || a->kind == AMO_FETCH_INC) ? 1 : 1 + below(&s, 1000);
    }
    p->ntickets = 1 + (int)below(&s, MAX_TICKETS);
    p->nclaims = (int)below(&s, MAX_CLAIMS + 1);
    for (int i = 0; i < p->nclaims; i++)
        p->claim[i] = (int)below(&s, NCELLS);
    p->reduce_value = splitmix(&s) >> 20;
    p->order_seed = (int)below(&s, 1u << 30);
}

/* What source src writes into slot i of its slots on a target in this round. */
static uint64_t pattern(int src, int round, int i)
{
    return ((uint64_t)(src + 1) << 48) | ((uint64_t)(uint32_t)round << 16) | (uint64_t)i;
}

#endif
