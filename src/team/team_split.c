/*
 * team_split.c: creating and destroying teams (collective over the parent / the team).
 *
 * A new team needs symmetric state at the same address on all its members. The members of
 * the parent OR together the sets of pool slots each of them uses (one reduction on the
 * parent) and all take the lowest slot free everywhere: disjoint teams made by the same
 * split (the rows of a 2-D split) share that slot, which is fine as they share no PE.
 * Pool slots rest with every flag at SHMEM_SYNC_VALUE, and a team gives its slot back only
 * after a final sync on it, so a new team can start at once.
 */
#include <stdlib.h>
#include <shmem.h>

#include "coll/coll.h"
#include "core/api_defs.h"
#include "core/error.h"
#include "team/team.h"

/* The `want` lowest pool slots free on every member of parent (collective); 0, or -1. */
static int agree_slots(struct sshmem_team *parent, int want, int *slots, const char *call)
{
    unsigned long long *scratch = (unsigned long long *)parent->scratch;
    coll_t c;
    coll_buf_t mine, all;
    scratch[0] = sshmem_team_pool_used();
    coll_setup_team(&c, parent, call);
    coll_buf(&mine, &scratch[0], sizeof *scratch, "team scratch", &c);
    coll_buf(&all, &scratch[1], sizeof *scratch, "team scratch", &c);
    coll_reduce(&c, &all, &mine, 1, COLL_OP(uint64, or));
    unsigned long long used = scratch[1];
    for (int s = 0, got = 0; s < SSHMEM_TEAM_POOL_SLOTS; s++)
        if (!(used & (1ULL << s))) {
            slots[got++] = s;
            if (got == want)
                return 0;
        }
    if (parent->my_index == 0)
        sshmem_warn(call, "no team can be created: %d teams exist already (the most at once "
                    "is %d per PE); destroy teams you no longer need", SSHMEM_TEAM_POOL_SLOTS,
                    SSHMEM_TEAM_POOL_SLOTS);
    return -1;
}

/* The team for the members t (a world triplet) on slot, or INVALID if this PE is not in it. */
static shmem_team_t make_team(const sshmem_triplet_t *t, int slot,
                              const shmem_team_config_t *config, long mask, const char *call)
{
    int index = sshmem_triplet_index(t, sshmem.my_pe);
    if (index < 0)
        return SHMEM_TEAM_INVALID;
    struct sshmem_team *team = sshmem_team_new(t, index, slot, config, mask);
    if (!team)
        sshmem_fatal(call, "out of memory for a team");
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
    if (agree_slots(parent, 1, &slot, call) != 0)
        return -1;
    sshmem_triplet_t t = sshmem_split_compose(&parent->pes, start, stride, size);
    *new_team = make_team(&t, slot, config, config_mask, call);
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
    if (agree_slots(parent, 2, slots, call) != 0)
        return -1;
    x = sshmem_split_compose(&parent->pes, x.start, x.stride, x.size);
    y = sshmem_split_compose(&parent->pes, y.start, y.stride, y.size);
    *xaxis_team = make_team(&x, slots[0], xaxis_config, xaxis_mask, call);
    *yaxis_team = make_team(&y, slots[1], yaxis_config, yaxis_mask, call);
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
    free(t);
}
