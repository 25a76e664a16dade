/*
 * team.h: what a team is inside sshmem.
 *
 * A team is a triplet of world PEs (team_math.h) plus the symmetric memory its collectives
 * synchronize through. That memory is two "sync areas" used alternately by successive
 * collectives (see coll/engine.h for why two are enough) and a small scratch block for the
 * library's own collectives on the team (agreeing on a pool slot when splitting).
 *
 * Where the memory comes from: SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED get theirs from the
 * heap's internal part at start-up. Split teams take a slot of a pool reserved at start-up
 * (the same offsets on every PE); the members of a parent agree on a slot free on all of
 * them, so user allocations never interleave with team state.
 */
#ifndef SSHMEM_TEAM_H
#define SSHMEM_TEAM_H

#include <shmem.h>

#include "team/team_math.h"

/* One sync area: counting flags, then work space. */
#define SSHMEM_TEAM_FLAGS 64                 /* longs of flags (as a pSync of 64) */
#define SSHMEM_TEAM_AREA_BYTES 8192          /* flags + work */
#define SSHMEM_TEAM_WORK_BYTES (SSHMEM_TEAM_AREA_BYTES - SSHMEM_TEAM_FLAGS * sizeof(long))
#define SSHMEM_TEAM_SCRATCH_BYTES 512
#define SSHMEM_TEAM_STAGE_BYTES (32u << 10)  /* pieces of non-symmetric reduction data */
#define SSHMEM_TEAM_STATE_BYTES                                                                  \
    (2 * SSHMEM_TEAM_AREA_BYTES + SSHMEM_TEAM_SCRATCH_BYTES + SSHMEM_TEAM_STAGE_BYTES)
/* Split teams alive at once on one PE (slots of the pool). */
#define SSHMEM_TEAM_POOL_SLOTS 32
/* The pool's symmetric bytes: part of the library's internal heap space (see core/init.c). */
#define SSHMEM_TEAM_POOL_BYTES ((size_t)SSHMEM_TEAM_POOL_SLOTS * SSHMEM_TEAM_STATE_BYTES)

#define SSHMEM_TEAM_MAGIC 0x7ea5u

struct sshmem_team {
    unsigned magic;           /* SSHMEM_TEAM_MAGIC while the team exists */
    sshmem_triplet_t pes;     /* the members, in world numbering */
    int my_index;             /* this PE's number in the team */
    int direct;               /* every member's symmetric memory is load/store reachable */
    int pool_slot;            /* slot in the split-team pool; -1 for the predefined teams */
    shmem_team_config_t config;
    long config_mask;
    unsigned long ncalls;     /* collectives run on this team: picks the sync area */
    int coll_early;           /* the last collective let members leave early (coll/engine.h) */
    char *area[2];            /* symmetric sync areas (flags first, SHMEM_SYNC_VALUE when idle) */
    char *scratch;            /* symmetric scratch for the library's own use (its last long:
                                 the progress word of coll/engine.c) */
    char *stage;              /* symmetric, SSHMEM_TEAM_STAGE_BYTES, 64-byte aligned */
};

/* Set up SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and the pool (start-up, every PE, same order). */
void sshmem_team_init(void);

/* Is this PE able to load/store the symmetric memory of every member of t? */
int sshmem_team_all_direct(const sshmem_triplet_t *t);

/* Entry check of the team routines: a clear error for SHMEM_TEAM_INVALID or a destroyed team. */
struct sshmem_team *sshmem_team_check(shmem_team_t team, const char *call);

/* The pool: a slot's state, and which slots this PE uses (bit i = slot i). */
char *sshmem_team_pool_state(int slot);
unsigned long long sshmem_team_pool_used(void);
void sshmem_team_pool_take(int slot);
void sshmem_team_pool_release(int slot);

/* A new team object for the members t (this PE is member my_index), on pool slot `slot`. */
struct sshmem_team *sshmem_team_new(const sshmem_triplet_t *t, int my_index, int slot,
                                    const shmem_team_config_t *config, long config_mask);

/* Destroy the contexts created on team (shmem_team_destroy; src/team/team_ctx.c). */
void sshmem_team_destroy_contexts(struct sshmem_team *team);

#endif
