/*
 * team.h: what a team is inside sshmem.
 *
 * A team is a triplet of world PEs (team_math.h) plus the symmetric memory its collectives
 * synchronize through. That memory is SSHMEM_TEAM_AREAS "sync areas" used in turn by
 * successive collectives (see coll/engine.h for why two would be enough, and what more buys:
 * calls that run ahead of a slow member), a small scratch block for the library's own
 * collectives on the team (agreeing on a pool slot when splitting), the posts of the
 * MPI-style gather family's small blocks, a staging buffer and the steps of the log-step
 * collectives.
 *
 * Where the memory comes from: SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED get theirs from the
 * heap's internal space at start-up (core/space.h). Split teams take a slot of a pool
 * reserved there (the same offsets on every PE); the members of a parent agree on a slot
 * free on all of them, so user allocations never interleave with team state. A team's state
 * is the same size at any PE count but for its steps, which grow as n log2 n (reserved for a
 * team of the whole job, touched as a team's calls use them).
 */
#ifndef SSHMEM_TEAM_H
#define SSHMEM_TEAM_H

#include <shmem.h>

#include "coll/set_shape.h"
#include "core/team_math.h"
#include "core/abi.h"

/* One sync area: counting flags, the stamp line, then work space. The stamp line is a cache
 * line only its owner writes (its vector and the call number, for the tiny reductions of
 * coll/reduce.c), so no data another algorithm leaves in the work space can look like a
 * stamp; it follows the flags on the area's first page, which the flags make real anyway. */
#define SSHMEM_TEAM_FLAGS 64                 /* longs of flags (as a pSync of 64) */
#define SSHMEM_TEAM_AREA_BYTES 8192          /* flags + stamp line + work */
#define SSHMEM_TEAM_STAMP_LINE_BYTES 64
#define SSHMEM_TEAM_STAMP_LINE_AT (SSHMEM_TEAM_FLAGS * sizeof(long))
#define SSHMEM_TEAM_WORK_AT (SSHMEM_TEAM_STAMP_LINE_AT + SSHMEM_TEAM_STAMP_LINE_BYTES)
/* Sync areas a team uses in turn (call s: area[(s - 1) % nareas]). Calls that touch members
 * only through the areas let a member run up to nareas - 1 calls ahead of the slowest
 * (coll/engine.h, "Early return"). The predefined teams have more: on a crowded host a slow
 * member's peers get that much further per time slice, and small rooted calls got faster with
 * every doubling up to 64 (doc/performance.md). Split teams keep two, so the pool stays as
 * small as SSHMEM_TEAMS_MAX asks; the defaults stay under 6 MiB (api/space_layout.c), of
 * which a page per area is touched. */
#define SSHMEM_TEAM_AREAS_SPLIT 2
#define SSHMEM_TEAM_AREAS_PREDEFINED 64
/* Powers of two: a call picks its area with a mask (coll/engine.c), not a division. */
_Static_assert((SSHMEM_TEAM_AREAS_SPLIT & (SSHMEM_TEAM_AREAS_SPLIT - 1)) == 0 &&
                   (SSHMEM_TEAM_AREAS_PREDEFINED & (SSHMEM_TEAM_AREAS_PREDEFINED - 1)) == 0,
               "team sync areas come in powers of two");
#define SSHMEM_TEAM_WORK_BYTES (SSHMEM_TEAM_AREA_BYTES - SSHMEM_TEAM_WORK_AT)
#define SSHMEM_TEAM_SCRATCH_BYTES 1024
/* The staging buffer: MPI-style reductions of data that is not symmetric (the usual malloc'd
 * or stack buffers of MPI codes) go through it a piece at a time, each piece a whole engine
 * collective. Every piece costs synchronisations, which on a crowded host are trips through
 * the scheduler, so fewer, larger pieces win. The predefined teams, where such calls mostly
 * run, get the large one; split teams keep a small one, so the pool stays as small as
 * SSHMEM_TEAMS_MAX asks. Pages never used are never touched. */
#define SSHMEM_TEAM_STAGE_SPLIT (32u << 10)
#define SSHMEM_TEAM_STAGE_PREDEFINED (1536u << 10)
/* Posts: 32-byte boxes for the small blocks of the MPI-style gather family (src/mpix/
 * exchange.c), one per sync area and distance d = 1 .. SSHMEM_TEAM_POST_DISTANCES to the
 * writer (the member d below). The boxes of one distance for consecutive calls lie side by
 * side, two to a cache line, so a PE running calls ahead fills a line its reader then
 * fetches once for two calls (Open MPI's shared-memory "fast boxes" pack small messages
 * alike); in the areas' slots each call's block has a line of its own, 8 KiB from the last
 * one's. Members farther apart use the slots. Figures in src/mpix/exchange.c. */
#define SSHMEM_TEAM_POST_DISTANCES 15
#define SSHMEM_TEAM_POST_BYTES 32
#define SSHMEM_TEAM_POSTS_BYTES(areas)                                                           \
    ((size_t)(areas) * SSHMEM_TEAM_POST_DISTANCES * SSHMEM_TEAM_POST_BYTES)
#define SSHMEM_TEAM_STATE_BYTES_OF(areas, stage)                                                 \
    ((areas) * SSHMEM_TEAM_AREA_BYTES + SSHMEM_TEAM_SCRATCH_BYTES +                              \
     SSHMEM_TEAM_POSTS_BYTES(areas) + (stage))
/* A split team's state (a pool slot), and a predefined team's, without their steps. */
#define SSHMEM_TEAM_STATE_BYTES                                                                  \
    SSHMEM_TEAM_STATE_BYTES_OF(SSHMEM_TEAM_AREAS_SPLIT, SSHMEM_TEAM_STAGE_SPLIT)
#define SSHMEM_TEAM_PREDEFINED_STATE_BYTES                                                       \
    SSHMEM_TEAM_STATE_BYTES_OF(SSHMEM_TEAM_AREAS_PREDEFINED, SSHMEM_TEAM_STAGE_PREDEFINED)
/* Steps: the work space of the log-step collectives (coll_work_in_steps: Bruck's alltoall
 * and allgather, native and MPI-style; the landing of the larger message-passing reductions
 * and scans, coll/reduce.c) and of the MPI-style exchange on teams with more members than a
 * sync area has slots, two halves taken by the parity of the call number. No
 * member leaves a call before all have entered it, so a member in call t has left call t - 2,
 * the last that used this half: nobody waits for a receiver to say that its half is free.
 * Without such a message every step lands in a region of its own: for n members a half holds
 * their 16-byte invitations, where each position's record lies (4 bytes
 * each), and ceil(log2 n) + 1 regions of ceil(n / 2) blocks of 24 bytes (a length, a count, 8
 * bytes of data), so it grows as n log2 n, touched only by the calls that use it. The
 * predefined teams' are sized by their members. The whole heap is registered with UCX, which
 * pins it on RDMA hardware without on-demand paging, so the pool's slots do not each reserve
 * for a team of the whole job (28 MiB at 65,536 PEs, 896 MiB for 32 slots): their steps share
 * SSHMEM_TEAM_SPLIT_STEPS_BUDGET, and a slot holds split teams of up to
 * sshmem_team_split_capacity members (all of a job of up to a few thousand PEs; fewer slots,
 * SSHMEM_TEAMS_MAX, make larger ones). A larger split fails with a message saying so. */
#define SSHMEM_TEAM_SPLIT_STEPS_BUDGET ((size_t)32 << 20)
#define SSHMEM_TEAM_STEPS_MIN_SPLIT (16u << 10)
/* SHMEM_TEAM_WORLD's half holds at least a 1 MiB reduce-scatter's landing (coll/reduce.c,
 * coll_round_landing), so such a reduction goes in one piece. */
#define SSHMEM_TEAM_STEPS_MIN_WORLD (1024u << 10)
enum sshmem_team_kind { SSHMEM_TEAM_KIND_WORLD, SSHMEM_TEAM_KIND_SHARED, SSHMEM_TEAM_KIND_SPLIT };
static inline size_t sshmem_team_steps_half(long members, enum sshmem_team_kind kind)
{
    const size_t m = (size_t)(members > 0 ? members : 1);
    const size_t least =
        kind == SSHMEM_TEAM_KIND_SPLIT ? SSHMEM_TEAM_STEPS_MIN_SPLIT : SSHMEM_TEAM_STEPS_MIN_WORLD;
    size_t steps = 0;
    while (((size_t)1 << steps) < m)
        steps++;
    const size_t line = 63, region = (24 * ((m + 1) / 2) + 2 * line) & ~line;
    const size_t half = ((16 * m + line) & ~line) + ((4 * m + line) & ~line) + (steps + 1) * region;
    return half > least ? half : least;
}
/* The most members a split team may have in a job of n_pes with teams_max pool slots: the
 * largest whose steps fit a slot's share of the budget (at least the smallest team). */
static inline long sshmem_team_split_capacity(long n_pes, long teams_max)
{
    const size_t slots = (size_t)(teams_max > 0 ? teams_max : 1);
    const size_t share = SSHMEM_TEAM_SPLIT_STEPS_BUDGET / (2 * slots);
    long lo = 1, hi = n_pes > 1 ? n_pes : 1;
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        if (sshmem_team_steps_half(mid, SSHMEM_TEAM_KIND_SPLIT) <= share)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}
/* The whole state of a team, steps included, in a job of n PEs with teams_max pool slots. */
static inline size_t sshmem_team_state_bytes(long n_pes, long teams_max,
                                             enum sshmem_team_kind kind)
{
    if (kind == SSHMEM_TEAM_KIND_SPLIT)
        return SSHMEM_TEAM_STATE_BYTES +
               2 * sshmem_team_steps_half(sshmem_team_split_capacity(n_pes, teams_max), kind);
    return SSHMEM_TEAM_PREDEFINED_STATE_BYTES + 2 * sshmem_team_steps_half(n_pes, kind);
}
/* The pool has SSHMEM_TEAMS_MAX slots (core/env.h; at most SSHMEM_TEAMS_MAX_LIMIT), one per
 * split team alive at once on a PE; its bytes are a part of the internal space
 * (core/space.h). Which slots a PE uses is a bitmap of this many 64-bit words. */
#define SSHMEM_TEAM_POOL_WORDS 16

#define SSHMEM_TEAM_MAGIC 0x7ea5u

struct sshmem_team {
    union { /* one fixed size for the life of the soname: core/abi.h */
        struct {
            unsigned magic;           /* SSHMEM_TEAM_MAGIC while the team exists */
            sshmem_triplet_t pes;     /* the members, in world numbering */
            int my_index;             /* this PE's number in the team */
            int direct;               /* every member's symmetric memory is load/store reachable */
            int pool_slot;            /* slot in the split-team pool; -1 for the predefined teams */
            shmem_team_config_t config;
            long config_mask;
            unsigned long ncalls;     /* collectives run on this team: picks the sync area */
            int coll_early;           /* the last collective let members leave early
                                         (coll/engine.h) */
            long coll_floor;          /* every member was seen to have entered this call
                                         (engine.c) */
            int reach_member;         /* and this one member (coll_reach) was seen to have */
            long reach_seen;          /* entered this call */
            unsigned tx_traits;       /* OR of the members' sshmem_tx_traits, or a superset
                                         (team_traits.c) */
            int messages;             /* the members all reach each other by messages
                                         (coll_team_messages; 0 until agreed) */
            int nareas;               /* sync areas used in turn */
            char *area[SSHMEM_TEAM_AREAS_PREDEFINED]; /* symmetric sync areas (flags first,
                                                         SHMEM_SYNC_VALUE when idle) */
            char *scratch;            /* symmetric scratch for the library's own use (its last long:
                                         the progress word of coll/engine.c) */
            char *posts;              /* symmetric, SSHMEM_TEAM_POSTS_BYTES(nareas), zero
                                         while the team is not in use */
            char *stage;              /* symmetric, stage_bytes, 64-byte aligned */
            size_t stage_bytes;       /* SSHMEM_TEAM_STAGE_PREDEFINED or _SPLIT */
            char *steps;              /* symmetric, two halves of steps_half bytes */
            size_t steps_half;        /* sshmem_team_steps_half */
            coll_set_shape_t shape;   /* what the algorithm choice needs of the members,
                                         worked out when the team is made */
        };
        unsigned char abi_size[SSHMEM_ABI_TEAM_BYTES];
    };
};
_Static_assert(sizeof(struct sshmem_team) == SSHMEM_ABI_TEAM_BYTES,
               "struct sshmem_team outgrew its fixed size (core/abi.h)");

/* Set up SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and the pool (start-up, every PE, same order). */
void sshmem_team_init(void);
/* SHMEM_TEAM_WORLD's members agree on what they have in common (an OR over every PE of its
 * sshmem_tx_traits: one reduction at start-up, once every PE is connected), and
 * SHMEM_TEAM_SHARED takes the same (team_traits.c). */
void sshmem_team_agree_traits(void);
/* A team's traits: tx_traits (every member passes the same: its parent's) and what follows
 * from them and the members' nodes. */
void sshmem_team_set_traits(struct sshmem_team *team, unsigned tx_traits);

/* Entry check of the team routines: a clear error for SHMEM_TEAM_INVALID or a destroyed team. */
struct sshmem_team *sshmem_team_check(shmem_team_t team, const char *call);

/* The pool: its slot count, a slot's state, and which slots this PE uses (bit i%64 of word
 * i/64 = slot i; the first sshmem_team_pool_words() words matter). Both sets are under a lock
 * (threads split different teams at once): `used` holds the slots of this PE's teams,
 * `claimed` those a split in progress has claimed. claim marks a slot claimed if it is in
 * neither set (1) or says another thread has it (0); take turns a claim into a team's slot;
 * release gives a claimed or used slot back. */
int sshmem_team_pool_slots(void);
int sshmem_team_pool_words(void);
char *sshmem_team_pool_state(int slot);
void sshmem_team_pool_usage(unsigned long long used[SSHMEM_TEAM_POOL_WORDS],
                            unsigned long long claimed[SSHMEM_TEAM_POOL_WORDS]);
int sshmem_team_pool_claim(int slot);
void sshmem_team_pool_take(int slot);
void sshmem_team_pool_release(int slot);

/* A new team object for the members t (this PE is member my_index), on pool slot `slot`,
 * which the caller has taken. */
struct sshmem_team *sshmem_team_new(const sshmem_triplet_t *t, int my_index, int slot,
                                    const shmem_team_config_t *config, long config_mask);

/* Destroy the contexts created on team (shmem_team_destroy; src/team/team_ctx.c). */
void sshmem_team_destroy_contexts(struct sshmem_team *team);

#endif
