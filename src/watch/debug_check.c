/*
 * debug_check.c: SHMEM_DEBUG agreement checks (see core/debug_hooks.h). They sit above the
 * collectives and the heap they watch: start-up registers them as the hooks those call.
 *
 * Each check is a ring exchange within the set of the call: every member puts a small
 * descriptor of its call into its successor's mailbox, signals it, waits for its
 * predecessor's descriptor and compares it with its own. If all members agree, each pair of
 * neighbours agrees; if not, some member sees a neighbour that differs and reports it. Then
 * an acknowledgement goes back to the predecessor, so a mailbox is never overwritten before
 * it was read. Flags are the engine's counting flags (one per sender) in an internal
 * symmetric area, so they rest at SHMEM_SYNC_VALUE after every check and the call itself is
 * unaffected. Every member of the set enters the check, so a difference it detects never
 * deadlocks; calls whose sets differ so much that a neighbour never comes end in a hang
 * report (SHMEM_DEBUG turns those on).
 * Under SHMEM_THREAD_MULTIPLE the collective check is skipped: threads may run collectives
 * on different teams at once, and they would share the one set of mailboxes. (Allocation
 * routines are still checked: they are collective over the world, one at a time.)
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "coll/engine.h"
#include "core/debug_hooks.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/heap.h"
#include "watch/watch.h"

#define NOT_USED INT64_MIN

typedef struct agree_desc {
    char call[48];
    int64_t seq;   /* allocation number, or call number on the team */
    int64_t size;  /* bytes (free: the block's heap offset) */
    int64_t align;
    int64_t root;
    int32_t set[3]; /* PE_start, logPE_stride (teams: stride), PE_size */
    int32_t is_team;
    uint64_t team; /* heap offset of the team's sync area: the same team on every member */
} agree_desc_t;
_Static_assert(sizeof(agree_desc_t) <= SSHMEM_SPACE_DEBUG_DESC_BYTES, "the internal space's unit");

static long *flags;          /* [0, n): "a descriptor from PE s"; [n, 2n): "PE s read mine" */
static agree_desc_t *mailbox; /* [s]: the descriptor PE s sent */
static int64_t alloc_calls;

static int log2_of(int stride)
{
    int k = 0;
    while (stride > 1) {
        stride >>= 1;
        k++;
    }
    return k;
}

/* ------------------------------------------------------------------ comparing */

static const char *alloc_fix =
    "every PE must call the allocation routines (shmem_malloc, shmem_calloc, shmem_align, "
    "shmem_realloc, shmem_free, ...) with the same size, in the same order";
static const char *coll_fix =
    "every PE of the team or active set must call the same collectives in the same order, "
    "with the same PE_root, element count, active set (PE_start, logPE_stride, PE_size) or team";

SSHMEM_NORETURN SSHMEM_COLD static void differ(const agree_desc_t *me, int other,
                                               const char *what, int is_alloc)
{
    sshmem_fatal(me->call, "%s (SHMEM_DEBUG compared the arguments with PE %d's): %s", what,
                 other, is_alloc ? alloc_fix : coll_fix);
}

#define DIFFER(...)                                                                              \
    do {                                                                                         \
        char what_[400];                                                                         \
        snprintf(what_, sizeof what_, __VA_ARGS__);                                              \
        differ(me, pe, what_, is_alloc);                                                         \
    } while (0)

static void compare(const agree_desc_t *me, const agree_desc_t *them, int pe, int is_alloc)
{
    if (strcmp(me->call, them->call))
        DIFFER("this PE called %s at the point where PE %d called %s", me->call, pe,
               them->call);
    if (me->is_team != them->is_team || me->team != them->team)
        DIFFER("the team differs: PE %d passed %s (members may be alike, but it is another "
               "team object)", pe, me->is_team != them->is_team ? "an active set, not a team"
                                                                : "another team than this PE");
    if (memcmp(me->set, them->set, sizeof me->set))
        DIFFER("the %s is (%d, %d, %d) here but (%d, %d, %d) on PE %d",
               me->is_team ? "team (start, stride, size)" : "active set (PE_start, "
               "logPE_stride, PE_size)", me->set[0], me->set[1], me->set[2], them->set[0],
               them->set[1], them->set[2], pe);
    if (me->seq != them->seq)
        DIFFER("this is %s number %" PRId64 " here but number %" PRId64 " on PE %d",
               is_alloc ? "allocation call" : "collective call on this team", me->seq,
               them->seq, pe);
    if (me->root != them->root)
        DIFFER("PE_root is %" PRId64 " here but %" PRId64 " on PE %d", me->root, them->root,
               pe);
    if (me->size != them->size && is_alloc && !strcmp(me->call, "shmem_free"))
        DIFFER("the block freed is at heap offset %" PRId64 " here but %" PRId64 " on PE %d",
               me->size, them->size, pe);
    if (me->size != them->size)
        DIFFER("the %s is %" PRId64 " bytes here but %" PRId64 " bytes on PE %d",
               is_alloc ? "size" : "size (element count x element size)", me->size, them->size,
               pe);
    if (me->align != them->align)
        DIFFER("the alignment is %" PRId64 " here but %" PRId64 " on PE %d", me->align,
               them->align, pe);
}

/* ------------------------------------------------------------------ the ring exchange */

static void exchange(const coll_t *c, const agree_desc_t *mine, int is_alloc)
{
    if (c->n < 2 || !flags)
        return;
    coll_t d = *c;
    char call[96];
    snprintf(call, sizeof call, "%s (SHMEM_DEBUG argument check)", c->call);
    d.call = call;
    d.ucx_dirty = 0;
    d.nflags = 2 * sshmem.n_pes;
    coll_buf(&d.flags, flags, 2 * (size_t)sshmem.n_pes * sizeof *flags, "debug flags", &d);
    coll_buf_t box;
    coll_buf(&box, mailbox, (size_t)sshmem.n_pes * sizeof *mailbox, "debug mailbox", &d);

    int succ = coll_rel(&d, 1), pred = coll_rel(&d, -1);
    int me_pe = sshmem.my_pe, pred_pe = coll_pe(&d, pred), succ_pe = coll_pe(&d, succ);
    coll_put(&d, succ, &box, (size_t)me_pe * sizeof *mailbox, mine, sizeof *mine);
    coll_signal(&d, succ, me_pe);
    coll_wait(&d, pred_pe, 1);
    agree_desc_t theirs = mailbox[pred_pe];
    theirs.call[sizeof theirs.call - 1] = 0;
    compare(mine, &theirs, pred_pe, is_alloc);
    coll_signal(&d, pred, sshmem.n_pes + me_pe);
    coll_wait(&d, sshmem.n_pes + succ_pe, 1);
    coll_done(&d);
}

static void describe_call(agree_desc_t *a, const char *call)
{
    memset(a, 0, sizeof *a);
    snprintf(a->call, sizeof a->call, "%s", call);
    a->seq = a->size = a->align = a->root = NOT_USED;
}

static void agree_alloc(const char *call, size_t size, size_t align)
{
    agree_desc_t a;
    coll_t c;
    describe_call(&a, call);
    a.seq = ++alloc_calls;
    a.size = (int64_t)size;
    a.align = (int64_t)align;
    a.set[0] = 0, a.set[1] = 0, a.set[2] = sshmem.n_pes;
    memset(&c, 0, sizeof c);
    c.set = sshmem_team_world.pes;
    c.me = sshmem.my_pe;
    c.n = sshmem.n_pes;
    c.direct = sshmem_team_world.direct;
    c.shape = &sshmem_team_world.shape;
    c.call = call;
    c.team = &sshmem_team_world;
    c.seq = sshmem_team_world.ncalls + 1; /* the barrier of the allocation, for hang reports */
    exchange(&c, &a, 1);
}

static void agree_coll(const coll_t *c, long root, long long size)
{
    if (sshmem.thread_level == SHMEM_THREAD_MULTIPLE)
        return; /* concurrent collectives on different teams would share the mailboxes */
    agree_desc_t a;
    describe_call(&a, c->call);
    a.root = root;
    a.size = size;
    a.set[0] = c->set.start;
    a.set[2] = c->set.size;
    if (c->team) {
        a.is_team = 1;
        a.set[1] = c->set.stride;
        a.team = (uintptr_t)c->team->area[0] - sshmem.region[SSHMEM_REGION_HEAP].base;
        a.seq = (int64_t)c->seq;
    } else {
        a.set[1] = log2_of(c->set.stride);
    }
    exchange(c, &a, 0);
}

/* ------------------------------------------------------------------ start-up */

void sshmem_debug_check_init(void)
{
    /* The internal space has the flags and mailboxes under SHMEM_DEBUG, up to
     * SSHMEM_SPACE_DEBUG_MAX_PES (api/space_layout.c); beyond, the checks stay off. */
    flags = sshmem_heap_space(SSHMEM_SPACE_DEBUG_FLAGS);
    mailbox = sshmem_heap_space(SSHMEM_SPACE_DEBUG_MAILBOX);
    if (!flags || !mailbox) {
        if (sshmem_env.debug && sshmem.my_pe == 0)
            sshmem_warn("shmem_init", "SHMEM_DEBUG: the agreement checks support at most %d "
                        "PEs and stay off in this job of %d (the other checks are on)",
                        SSHMEM_SPACE_DEBUG_MAX_PES, sshmem.n_pes);
        flags = NULL;
        mailbox = NULL;
        return;
    }
    size_t n = (size_t)sshmem.n_pes;
    for (size_t i = 0; i < 2 * n; i++)
        flags[i] = SHMEM_SYNC_VALUE;
    sshmem_debug_hooks.agree_alloc = agree_alloc;
    sshmem_debug_hooks.agree_coll = agree_coll;
}
