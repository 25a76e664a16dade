/*
 * team.c: the predefined teams, the pool that split teams take their symmetric state from,
 * and the team queries (my_pe, n_pes, get_config, translate_pe, team_ptr).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <shmem.h>

#include "core/api_defs.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/heap.h"
#include "team/team.h"

SSHMEM_API struct sshmem_team sshmem_team_world, sshmem_team_shared;

static char *pool;     /* pool_slots team states, symmetric */
static int pool_slots; /* SSHMEM_TEAMS_MAX */
/* bit i%64 of word i/64: slot i belongs to a team this PE is in (used), or a split in
 * progress claims it (claimed) */
static unsigned long long pool_used[SSHMEM_TEAM_POOL_WORDS];
static unsigned long long pool_claimed[SSHMEM_TEAM_POOL_WORDS];
/* Guards pool_used and pool_claimed: under SHMEM_THREAD_MULTIPLE threads split and destroy
 * teams at once (see team_split.c). Only team creation and destruction take it, never a
 * collective or an RMA. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

_Static_assert(SSHMEM_TEAM_POOL_WORDS * 64 >= SSHMEM_TEAMS_MAX_LIMIT,
               "the pool's bitmap holds every slot SSHMEM_TEAMS_MAX may ask for");

/* Every flag of a team state at rest (SHMEM_SYNC_VALUE), its stamp lines, scratch and posts
 * zeroed. */
static void state_reset(char *state, int nareas)
{
    for (int a = 0; a < nareas; a++) {
        char *area = state + (size_t)a * SSHMEM_TEAM_AREA_BYTES;
        long *flags = (long *)area;
        for (int i = 0; i < SSHMEM_TEAM_FLAGS; i++)
            flags[i] = SHMEM_SYNC_VALUE;
        memset(area + SSHMEM_TEAM_STAMP_LINE_AT, 0, SSHMEM_TEAM_STAMP_LINE_BYTES);
    }
    memset(state + (size_t)nareas * SSHMEM_TEAM_AREA_BYTES, 0,
           SSHMEM_TEAM_SCRATCH_BYTES + SSHMEM_TEAM_POSTS_BYTES(nareas));
}

static void team_fill(struct sshmem_team *team, const sshmem_triplet_t *t, int my_index,
                      char *state, int slot, enum sshmem_team_kind kind)
{
    const int nareas = slot < 0 ? SSHMEM_TEAM_AREAS_PREDEFINED : SSHMEM_TEAM_AREAS_SPLIT;
    memset(team, 0, sizeof *team);
    team->magic = SSHMEM_TEAM_MAGIC;
    team->pes = *t;
    team->my_index = my_index;
    coll_set_shape_make(&team->shape, t, my_index);
    team->direct = team->shape.direct;
    team->pool_slot = slot;
    team->nareas = nareas;
    for (int a = 0; a < nareas; a++)
        team->area[a] = state + (size_t)a * SSHMEM_TEAM_AREA_BYTES;
    team->scratch = state + (size_t)nareas * SSHMEM_TEAM_AREA_BYTES;
    team->posts = team->scratch + SSHMEM_TEAM_SCRATCH_BYTES;
    team->stage = team->posts + SSHMEM_TEAM_POSTS_BYTES(nareas);
    team->stage_bytes = slot < 0 ? SSHMEM_TEAM_STAGE_PREDEFINED : SSHMEM_TEAM_STAGE_SPLIT;
    team->steps = team->stage + team->stage_bytes;
    team->steps_half = sshmem_team_steps_half(t->size, kind);
}

/* SHMEM_TEAM_SHARED: the PEs whose heap this PE maps (itself included). On one host with the
 * direct path that is every PE; with SSHMEM_LOCAL=ucx it is this PE alone. Should the mapped
 * PEs not form an arithmetic progression, the team is this PE alone (still correct, as
 * shmem_ptr then only promises the own PE). */
static void shared_members(sshmem_triplet_t *t)
{
    int *list = malloc((size_t)sshmem.n_pes * sizeof *list), n = 0, have_me = 0;
    if (!list)
        sshmem_fatal("shmem_init", "out of memory");
    for (int pe = 0; pe < sshmem.n_pes; pe++)
        if (sshmem_peer_maps(pe, SSHMEM_REGION_HEAP)) {
            list[n++] = pe;
            have_me |= pe == sshmem.my_pe;
        }
    if (!have_me || sshmem_triplet_from_list(list, n, t) != 0)
        *t = (sshmem_triplet_t){sshmem.my_pe, 1, 1};
    free(list);
}

void sshmem_team_init(void)
{
    sshmem_triplet_t world = {0, 1, sshmem.n_pes}, shared;
    char *state = sshmem_heap_space(SSHMEM_SPACE_TEAMS_PREDEFINED);
    coll_set_shape_free(&sshmem_team_world.shape); /* of an earlier start-up */
    coll_set_shape_free(&sshmem_team_shared.shape);
    state_reset(state, SSHMEM_TEAM_AREAS_PREDEFINED);
    state_reset(state + sshmem_team_state_bytes(sshmem.n_pes, 0, SSHMEM_TEAM_KIND_WORLD),
                SSHMEM_TEAM_AREAS_PREDEFINED);
    team_fill(&sshmem_team_world, &world, sshmem.my_pe, state, -1, SSHMEM_TEAM_KIND_WORLD);
    shared_members(&shared);
    team_fill(&sshmem_team_shared, &shared, sshmem_triplet_index(&shared, sshmem.my_pe),
              state + sshmem_team_state_bytes(sshmem.n_pes, 0, SSHMEM_TEAM_KIND_WORLD), -1,
              SSHMEM_TEAM_KIND_SHARED);

    /* The pool is internal space, on top of SHMEM_SYMMETRIC_SIZE: the user's heap stays
     * the size the user set. */
    pool = sshmem_heap_space(SSHMEM_SPACE_TEAM_POOL);
    pool_slots = (int)sshmem_env.teams_max;
    for (int s = 0; s < pool_slots; s++)
        state_reset(sshmem_team_pool_state(s), SSHMEM_TEAM_AREAS_SPLIT);
    memset(pool_used, 0, sizeof pool_used);
    memset(pool_claimed, 0, sizeof pool_claimed);
}

int sshmem_team_pool_slots(void) { return pool_slots; }
int sshmem_team_pool_words(void) { return (pool_slots + 63) / 64; }
char *sshmem_team_pool_state(int slot)
{
    const size_t slot_bytes =
        sshmem_team_state_bytes(sshmem.n_pes, pool_slots, SSHMEM_TEAM_KIND_SPLIT);
    return pool + (size_t)slot * slot_bytes;
}

void sshmem_team_pool_usage(unsigned long long used[SSHMEM_TEAM_POOL_WORDS],
                            unsigned long long claimed[SSHMEM_TEAM_POOL_WORDS])
{
    pthread_mutex_lock(&pool_lock);
    memcpy(used, pool_used, sizeof pool_used);
    memcpy(claimed, pool_claimed, sizeof pool_claimed);
    pthread_mutex_unlock(&pool_lock);
}

int sshmem_team_pool_claim(int slot)
{
    unsigned long long bit = 1ULL << (slot % 64);
    pthread_mutex_lock(&pool_lock);
    int was_free = !((pool_used[slot / 64] | pool_claimed[slot / 64]) & bit);
    if (was_free)
        pool_claimed[slot / 64] |= bit;
    pthread_mutex_unlock(&pool_lock);
    return was_free;
}

void sshmem_team_pool_take(int slot)
{
    unsigned long long bit = 1ULL << (slot % 64);
    pthread_mutex_lock(&pool_lock);
    pool_claimed[slot / 64] &= ~bit;
    pool_used[slot / 64] |= bit;
    pthread_mutex_unlock(&pool_lock);
}

void sshmem_team_pool_release(int slot)
{
    unsigned long long bit = 1ULL << (slot % 64);
    pthread_mutex_lock(&pool_lock);
    pool_claimed[slot / 64] &= ~bit;
    pool_used[slot / 64] &= ~bit;
    pthread_mutex_unlock(&pool_lock);
}

struct sshmem_team *sshmem_team_new(const sshmem_triplet_t *t, int my_index, int slot,
                                    const shmem_team_config_t *config, long config_mask)
{
    struct sshmem_team *team = malloc(sizeof *team);
    if (!team)
        return NULL;
    team_fill(team, t, my_index, sshmem_team_pool_state(slot), slot, SSHMEM_TEAM_KIND_SPLIT);
    if (config && (config_mask & SHMEM_TEAM_NUM_CONTEXTS)) {
        team->config.num_contexts = config->num_contexts;
        team->config_mask = SHMEM_TEAM_NUM_CONTEXTS;
    }
    return team; /* the slot was taken already (team_split.c) */
}

struct sshmem_team *sshmem_team_check(shmem_team_t team, const char *call)
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized(call);
    if (SSHMEM_UNLIKELY(!team))
        sshmem_fatal(call, "team is SHMEM_TEAM_INVALID; this PE is not a member of that team "
                     "(a split gives SHMEM_TEAM_INVALID to the PEs it leaves out): check the "
                     "handle before the call");
    if (SSHMEM_UNLIKELY(team->magic != SSHMEM_TEAM_MAGIC))
        sshmem_fatal(call, "team %p is not a team (destroyed already?); pass SHMEM_TEAM_WORLD, "
                     "SHMEM_TEAM_SHARED or a team from a split", (void *)team);
    return team;
}

/* ------------------------------------------------------------------ queries */

void *pshmem_ptr(const void *dest, int pe); /* src/heap/accessible.c */

SSHMEM_DEFINE(int, shmem_team_my_pe, (shmem_team_t team))
{
    return team && team->magic == SSHMEM_TEAM_MAGIC ? team->my_index : -1;
}

SSHMEM_DEFINE(int, shmem_team_n_pes, (shmem_team_t team))
{
    return team && team->magic == SSHMEM_TEAM_MAGIC ? team->pes.size : -1;
}

SSHMEM_DEFINE(int, shmem_team_get_config,
              (shmem_team_t team, long config_mask, shmem_team_config_t *config))
{
    if (!team || team->magic != SSHMEM_TEAM_MAGIC || !config)
        return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->config.num_contexts;
    return 0;
}

SSHMEM_DEFINE(int, shmem_team_translate_pe,
              (shmem_team_t src_team, int src_pe, shmem_team_t dest_team))
{
    if (!src_team || !dest_team || src_team->magic != SSHMEM_TEAM_MAGIC ||
        dest_team->magic != SSHMEM_TEAM_MAGIC)
        return -1;
    return sshmem_triplet_translate(&src_team->pes, src_pe, &dest_team->pes);
}

SSHMEM_DEFINE(void *, shmem_team_ptr, (shmem_team_t team, const void *dest, int pe))
{
    if (!team || team->magic != SSHMEM_TEAM_MAGIC || pe < 0 || pe >= team->pes.size)
        return NULL;
    return pshmem_ptr(dest, sshmem_triplet_pe(&team->pes, pe));
}
