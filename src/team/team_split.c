/*
 * team_split.c: creating and destroying teams (collective over the parent / the team).
 *
 * A new team needs symmetric state at the same address on all its members. The members of
 * the parent OR together the sets of pool slots each of them uses (one reduction on the
 * parent) and all take the first slot free everywhere: disjoint teams made by the same
 * split (the rows of a 2-D split) share that slot, which is fine as they share no PE.
 * Pool slots rest with every flag at SHMEM_SYNC_VALUE, and a team gives its slot back only
 * after a final sync on it, so a new team can start at once.
 *
 * Threads (SHMEM_THREAD_MULTIPLE): threads may split different parents at once, and parents
 * may share PEs, so between a PE's snapshot of its used slots and its taking the agreed slot
 * another thread of that PE may have taken the same slot for another team. Holding a lock
 * across the reduction would deadlock (two threads waiting on each other's parents across
 * two PEs), so the choice stays an agreement through the parent's own collectives, which
 * every member sees alike and therefore decides alike:
 *   1. OR of the used and the claimed sets -> the candidate slot(s), the same on every member;
 *   2. each member claims them under the pool lock (test and set) and
 *   3. the members OR their failures: none -> the slots are theirs (taken); any -> every
 *      member gives back what it claimed and the round starts again from 1.
 * The search for a free slot starts at a point taken from the parent (world, shared or its
 * own slot, which differ between parents alive on one PE) and the round number, so threads
 * racing on overlapping parents look at different slots first instead of colliding round
 * after round. Without SHMEM_THREAD_MULTIPLE no other thread can claim a slot between 1 and
 * 2, so the round needs no step 3.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

#include "coll/coll.h"
#include "core/api_defs.h"
#include "core/error.h"
#include "core/space.h"
#include "team/team.h"

/* OR over the members of parent of x[0..words) (collective), through the parent's scratch
 * from word `at` (x there, the OR after it); the OR into out[0..words). */
static void or_over_parent(struct sshmem_team *parent, const unsigned long long *x, int words,
                           int at, unsigned long long *out, const char *call)
{
    unsigned long long *scratch = (unsigned long long *)parent->scratch + at;
    coll_t c;
    coll_buf_t mine, all;
    size_t bytes = (size_t)words * sizeof *scratch;
    memcpy(scratch, x, bytes);
    coll_setup_team(&c, parent, call);
    coll_buf(&mine, scratch, bytes, "team scratch", &c);
    coll_buf(&all, scratch + words, bytes, "team scratch", &c);
    coll_reduce(&c, &all, &mine, (size_t)words, COLL_OP(uint64, or));
    memcpy(out, scratch + words, bytes);
}

/* The parent's scratch, in words: this PE's pool bitmaps (used, then claimed), their OR over
 * the parent, then this PE's failure flag and its OR. */
#define SCRATCH_MINE 0
#define SCRATCH_LOST (4 * SSHMEM_TEAM_POOL_WORDS)
_Static_assert((SCRATCH_LOST + 2) * sizeof(unsigned long long) <=
                   SSHMEM_TEAM_SCRATCH_BYTES - sizeof(long),
               "the pool bitmaps and failure flags fit the scratch before its progress word");

/* Where the search for free slots begins: different for parents alive on one PE. */
static int first_slot(const struct sshmem_team *parent, unsigned round)
{
    unsigned key = parent == &sshmem_team_world    ? 0
                   : parent == &sshmem_team_shared ? 1
                                                   : (unsigned)parent->pool_slot + 2;
    return (int)((key * 7u + round * (2u * key + 1u)) % (unsigned)sshmem_team_pool_slots());
}

/* The `want` first slots free in used, searching from slot `from` round the pool; 0 or -1. */
static int pick_free(const unsigned long long *used, int from, int want, int *slots)
{
    int n = sshmem_team_pool_slots();
    for (int i = 0, got = 0; i < n; i++) {
        int s = (from + i) % n;
        if (!(used[s / 64] & (1ULL << (s % 64)))) {
            slots[got++] = s;
            if (got == want)
                return 0;
        }
    }
    return -1;
}

/* `want` pool slots free on every member of parent, taken on every member (collective);
 * 0, or -1 when the pool is full. */
static int agree_slots(struct sshmem_team *parent, int want, int *slots, const char *call)
{
    int threads = sshmem.thread_level == SHMEM_THREAD_MULTIPLE;
    int words = sshmem_team_pool_words(), n = sshmem_team_pool_slots();
    unsigned long long mine[2 * SSHMEM_TEAM_POOL_WORDS], all[2 * SSHMEM_TEAM_POOL_WORDS];
    unsigned long long busy[SSHMEM_TEAM_POOL_WORDS];
    for (unsigned round = 0;; round++) {
        sshmem_team_pool_usage(mine, mine + SSHMEM_TEAM_POOL_WORDS);
        /* one reduction for both sets: used in words [0, words), claimed in [words, 2 words) */
        memmove(mine + words, mine + SSHMEM_TEAM_POOL_WORDS, (size_t)words * sizeof *mine);
        or_over_parent(parent, mine, 2 * words, SCRATCH_MINE, all, call);
        for (int w = 0; w < words; w++)
            busy[w] = all[w] | all[words + w];
        /* Slots nobody uses or claims first; a slot only claimed comes free when the other
         * split gives it back, so the pool is full only when teams hold every slot. */
        int from = first_slot(parent, round);
        if (pick_free(busy, from, want, slots) != 0 && pick_free(all, from, want, slots) != 0)
            break;
        int claimed[2];
        unsigned long long lost = 0, anyone_lost = 0;
        for (int i = 0; i < want; i++)
            lost |= !(claimed[i] = sshmem_team_pool_claim(slots[i]));
        if (threads)
            or_over_parent(parent, &lost, 1, SCRATCH_LOST, &anyone_lost, call);
        for (int i = 0; i < want; i++) {
            if (!anyone_lost)
                sshmem_team_pool_take(slots[i]);
            else if (claimed[i]) /* another thread's split has one: give back, retry */
                sshmem_team_pool_release(slots[i]);
        }
        if (!anyone_lost)
            return 0;
        sched_yield();
    }
    if (parent->my_index == 0)
        sshmem_warn(call, "no team can be created: a PE of the parent team already takes part "
                    "in the most split teams at once, %d (SSHMEM_TEAMS_MAX=%d; this call needs "
                    "%d free): destroy teams you no longer need, or raise SSHMEM_TEAMS_MAX (at "
                    "most %d; each team costs %u KiB of symmetric memory per PE)", n, n, want,
                    SSHMEM_TEAMS_MAX_LIMIT,
                    (unsigned)(sshmem_team_state_bytes(sshmem.n_pes, n, SSHMEM_TEAM_KIND_SPLIT) >> 10));
    return -1;
}

/* 0 when a split team of `members` fits a pool slot (team.h: the slots' steps share a budget);
 * else -1, with a message from the parent's first member (every member decides alike). */
static int fits_slot(const struct sshmem_team *parent, int members, const char *call)
{
    long most = sshmem_team_split_capacity(sshmem.n_pes, sshmem_team_pool_slots());
    if (members <= most)
        return 0;
    if (parent->my_index == 0)
        sshmem_warn(call, "a team of %d members is larger than a split team may be with "
                    "SSHMEM_TEAMS_MAX=%d in a job of %d PEs (%ld): the teams' work space for "
                    "log-step collectives is shared by the slots, so set SSHMEM_TEAMS_MAX to "
                    "fewer split teams alive at once to make each larger", members,
                    sshmem_team_pool_slots(), sshmem.n_pes, most);
    return -1;
}

/* The team for the members t (a world triplet) on slot, or INVALID if this PE is not in it. */
static shmem_team_t make_team(const struct sshmem_team *parent, const sshmem_triplet_t *t,
                              int slot, const shmem_team_config_t *config, long mask,
                              const char *call)
{
    int index = sshmem_triplet_index(t, sshmem.my_pe);
    if (index < 0) {
        sshmem_team_pool_release(slot); /* every member of the parent claimed it */
        return SHMEM_TEAM_INVALID;
    }
    struct sshmem_team *team = sshmem_team_new(t, index, slot, config, mask);
    if (!team)
        sshmem_fatal(call, "out of memory for a team");
    sshmem_team_set_traits(team, parent->tx_traits); /* every member has the same parent */
    return team;
}

SSHMEM_DEFINE(int, shmem_team_split_strided,
              (shmem_team_t parent_team, int start, int stride, int size,
               const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team))
{
    static const char call[] = "shmem_team_split_strided";
    int slot;
    if (SSHMEM_UNLIKELY(!new_team))
        sshmem_fatal(call, "new_team is NULL; pass the address of a shmem_team_t");
    *new_team = SHMEM_TEAM_INVALID;
    if (!parent_team)
        return -1;
    struct sshmem_team *parent = sshmem_team_check(parent_team, call);
    if (sshmem_split_valid(parent->pes.size, start, stride, size) != 0) {
        if (parent->my_index == 0)
            sshmem_warn(call, "(start %d, stride %d, size %d) does not name PEs of a team of "
                        "%d: every start + i*stride (i < size) must be in 0..%d, size >= 1, "
                        "stride 0 only with size 1", start, stride, size, parent->pes.size,
                        parent->pes.size - 1);
        return -1;
    }
    if (fits_slot(parent, size, call) != 0 || agree_slots(parent, 1, &slot, call) != 0)
        return -1;
    sshmem_triplet_t t = sshmem_split_compose(&parent->pes, start, stride, size);
    *new_team = make_team(parent, &t, slot, config, config_mask, call);
    return 0;
}

SSHMEM_DEFINE(int, shmem_team_split_2d,
              (shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
               long xaxis_mask, shmem_team_t *xaxis_team,
               const shmem_team_config_t *yaxis_config, long yaxis_mask,
               shmem_team_t *yaxis_team))
{
    static const char call[] = "shmem_team_split_2d";
    int slots[2];
    sshmem_triplet_t x, y;
    if (SSHMEM_UNLIKELY(!xaxis_team || !yaxis_team))
        sshmem_fatal(call, "xaxis_team and yaxis_team must be addresses of shmem_team_t");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (!parent_team)
        return -1;
    struct sshmem_team *parent = sshmem_team_check(parent_team, call);
    if (sshmem_split_2d(parent->pes.size, xrange, parent->my_index, &x, &y) != 0) {
        if (parent->my_index == 0)
            sshmem_warn(call, "xrange %d: it must be 1 or more", xrange);
        return -1;
    }
    /* the largest x and y teams, the same on every member */
    const int n = parent->pes.size, xmost = xrange < n ? xrange : n;
    if (fits_slot(parent, xmost, call) != 0 ||
        fits_slot(parent, (n + xmost - 1) / xmost, call) != 0 ||
        agree_slots(parent, 2, slots, call) != 0)
        return -1;
    x = sshmem_split_compose(&parent->pes, x.start, x.stride, x.size);
    y = sshmem_split_compose(&parent->pes, y.start, y.stride, y.size);
    *xaxis_team = make_team(parent, &x, slots[0], xaxis_config, xaxis_mask, call);
    *yaxis_team = make_team(parent, &y, slots[1], yaxis_config, yaxis_mask, call);
    return 0;
}

SSHMEM_DEFINE(void, shmem_team_destroy, (shmem_team_t team))
{
    static const char call[] = "shmem_team_destroy";
    coll_t c;
    if (!team)
        return; /* SHMEM_TEAM_INVALID: what non-members of a split hold; nothing to do */
    struct sshmem_team *t = sshmem_team_check(team, call);
    if (SSHMEM_UNLIKELY(t->pool_slot < 0))
        sshmem_fatal(call, "SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED cannot be destroyed; "
                     "destroy only teams made by a split");
    sshmem_team_destroy_contexts(t);
    /* Nobody may still be signalling into the team's state when the slot is given back. */
    coll_setup_team(&c, t, call);
    coll_barrier(&c);
    coll_team_retire(t);
    t->magic = 0;
    sshmem_team_pool_release(t->pool_slot);
    coll_set_shape_free(&t->shape);
    free(t);
}
