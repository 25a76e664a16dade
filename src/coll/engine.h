/*
 * engine.h: the one collective engine every collective of sshmem runs on.
 *
 * A coll_t describes a call: its set of PEs (a triplet in world numbering, from a team or from
 * PE_start/logPE_stride/PE_size) and the symmetric memory it synchronizes through, an array of
 * counting flags and a work buffer: the caller's pSync and pWrk for an active set, one of the
 * team's sync areas for a team (src/team/team.h).
 *
 * Flags are counting semaphores resting at SHMEM_SYNC_VALUE (-1): a signal atomically adds to a
 * peer's flag; a wait blocks until the own flag has risen by the expected count, then takes that
 * count back off. So every flag rests again when a collective returns (the pSync contract), and a
 * signal that arrives early (from a peer already in the next call) is kept, never lost.
 *
 * Reuse rule. Every algorithm but the early ones below lets no PE leave a call before every
 * member has entered it (directly or through a chain of signals). Then a PE in call t+2 can write
 * into a peer's flags or work buffer only once that peer has left call t, so two sync areas used
 * alternately (two pSync/pWrk pairs, or a team's areas in turn) make back-to-back calls safe
 * without a barrier. Back-to-back barriers on one pSync are safe too: each barrier flag has one
 * sender, and counting keeps an early signal.
 *
 * Early return. Some calls let a PE leave without waiting for anybody's arrival: the small
 * broadcast on shared memory (bcast.c, "linear"), the MPI-style rooted collectives on any team
 * (src/mpix/exchange.c) and the small reduce to a root on a team (coll_reduce_gather in
 * reduce.c). Reuse stays safe because:
 *  - active sets: the specification lets a pSync be reused only once every call that used it has
 *    completed on every PE; and that broadcast signals on a slot of its own (COLL_SLOT_EARLY), so
 *    a peer still in an older call on the same pSync just finds its count one higher, never a
 *    signal of another kind of call;
 *  - teams: every call first publishes its call number in the team's progress word (the last
 *    long of its scratch), and the call after an early one waits until every member has entered
 *    the previous call (coll_setup_team: UCX gets for members it does not map or, when
 *    coll_team_messages, a barrier of messages gated on their target having entered this call).
 *    So a fast root never writes into a member's area or dest before that member is done with it.
 *    A call that writes into members only through its area (coll_setup_team_ahead: the MPI-style
 *    gather family and the gathered reduce) needs less: that each member it writes into has left
 *    the call that last used the same area, nareas calls back (coll_reach, before the first
 *    write). Members then run several calls ahead of a slow root (several per time slice on an
 *    oversubscribed host); a gatherv's member learns only the root's progress, and its root,
 *    which writes into nobody, learns nothing. Where the writes are messages (tcp), nobody waits:
 *    each message carries that condition as a gate, held by a target not there yet (coll_gate;
 *    transport/ucx_put_add.c, "Gates"), so members run up to SSHMEM_COLL_HOLD bytes' worth of
 *    calls ahead. Any other call after them still waits for all to have entered the previous one.
 *
 * Data and flags: data goes first (memcpy into a mapped peer, or a UCX put), then a fence (a
 * release on the direct path), then the flag; never a flag inside the data. Where puts are
 * one-sided, a stamp (the call number stored beside the data) replaces the flag (coll_put_stamped).
 * Where UCX emulates one-sided operations (tcp), data and flag travel as one active message applied
 * in that order (coll_put_signal); a flag alone is such a message without data (coll_add).
 */
#ifndef SSHMEM_COLL_ENGINE_H
#define SSHMEM_COLL_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <shmem.h>

#include "core/sshmem.h"
#include "team/team.h"
#include "transport/transport.h"

/* Flag slots: 0..19 belong to coll_barrier (which any algorithm may call), the rest to the
 * algorithm of the call. Sets are limited to 2^20 PEs (20 rounds of doubling). */
#define COLL_SLOT_BARRIER 0
#define COLL_SLOT_ALGO 20
#define COLL_MAX_ROUNDS 20
#define COLL_MIN_FLAGS 64 /* pSync arrays and team areas have at least this many */
/* The early broadcast's data signal: no other algorithm uses this slot. */
#define COLL_SLOT_EARLY (COLL_MIN_FLAGS - 1)
/* Large blocks one PE has in flight at once as messages (coll_put_signal_async). */
#define COLL_INFLIGHT_MAX 8

/* A symmetric buffer, located once per call: its region and offset on every PE. */
typedef struct coll_buf {
    char *addr;  /* this PE's copy */
    int region;  /* enum sshmem_region */
    size_t off;  /* offset in that region, the same on every PE */
} coll_buf_t;

typedef struct coll {
    sshmem_triplet_t set; /* the members, world numbering */
    int me;               /* this PE's member index */
    int n;                /* number of members */
    coll_buf_t flags;     /* nflags counting flags (long) */
    int nflags;
    coll_buf_t work;      /* symmetric work space of work_bytes (may be 0 bytes) */
    size_t work_bytes;
    coll_buf_t land;      /* where hier's reduction receives (coll_round_landing), */
    size_t land_bytes;    /* set by coll_reduce when it runs it */
    int direct;           /* every member is reachable by load/store: shared-memory algorithms */
    const coll_set_shape_t *shape; /* the set's shape, worked out before this call */
    int ucx_dirty;        /* regions (bit r) UCX puts went to since the last completion */
    int ucx_unfinished;   /* non-blocking UCX puts read the caller's buffers: coll_done waits */
    int ninflight;        /* messages of coll_put_signal_async still in flight (coll_done) */
    sshmem_tx_put_add_req_t inflight[COLL_INFLIGHT_MAX];
    int stream;           /* coll_put streams on the direct path (core/copy.h), set by an
                           * algorithm whose members all copy a lot at once; 0 at setup */
    long reach_need;      /* coll_setup_team_ahead: a member this PE writes into must have
                           * entered this call first (coll_reach); 0 when all have */
    int reached;          /* the one member coll_reach has let this call write into, or -1 */
    const char *call;     /* the API routine, for messages */
    struct sshmem_team *team; /* the team of a team call, NULL for an active set */
    unsigned long seq;    /* call number on the team (1 = first), 0 for an active set */
    int area;             /* the team's sync area of this call: (seq - 1) % team->nareas */
} coll_t;

/* World PE of member i. */
static inline int coll_pe(const coll_t *c, int i) { return sshmem_triplet_pe(&c->set, i); }

/* Member index of (me + d) mod n, for any integer d. */
static inline int coll_rel(const coll_t *c, int d)
{
    int r = (c->me + d) % c->n;
    return r < 0 ? r + c->n : r;
}

/* This host runs more PEs of the job than it has CPUs (the same answer on every PE of the
 * host, so members that share memory choose alike; core/wait_policy.c). */
static inline int coll_host_crowded(void) { return sshmem.host_crowded; }

/* Describe a call on a team (picks the team's next sync area; after an early call, waits until
 * every member has entered that call). */
void coll_setup_team(coll_t *c, struct sshmem_team *team, const char *call);
/* The same for a call that reaches other members only through the sync area (and a member's own
 * memory only once it has asked for it inside the call): coll_reach waits ("Early return"). */
void coll_setup_team_ahead(coll_t *c, struct sshmem_team *team, const char *call);
/* Either setup in two halves, for a call that chooses by the team's state (its area's room, its
 * steps): prepare describes the call; announce tells the members this PE has entered it, as
 * coll_setup_team_ahead (ahead) or coll_setup_team (!ahead). Only the choice goes in between. */
void coll_prepare_team(coll_t *c, struct sshmem_team *team, const char *call);
void coll_announce(coll_t *c, int ahead);
/* Before this PE writes into member j's sync area in a call set up ahead: waits, if need be,
 * until j has left the call that last used that area (one branch when nobody needs waiting for);
 * from the second member on, for all at once (the team's floor), as coll_reach_all. A member
 * reached by messages (!coll_stamps_to) is not waited for: the messages to it carry a gate. */
void coll_reach_wait(coll_t *c, int member);
static inline void coll_reach(coll_t *c, int member)
{
    if (SSHMEM_UNLIKELY(c->reach_need))
        coll_reach_wait(c, member);
}
static inline void coll_reach_all(coll_t *c)
{
    if (SSHMEM_UNLIKELY(c->reach_need))
        coll_reach_wait(c, -1);
}
/* This call's work space becomes the team's steps of this call's parity (team/team.h, "Steps"):
 * the log-step collectives' landing, which grows with the team. Only on a team, alike on every
 * member, in a call set up or announced in step (after an early call a member then waits for all
 * to have entered the previous one, so none is still in the last call of this parity). */
void coll_work_in_steps(coll_t *c);
/* This PE has received, inside this call, what every member sent inside it: all have entered
 * it, which later calls need not ask again (the team's floor, engine.c). */
static inline void coll_all_entered(coll_t *c)
{
    if (c->team && c->team->coll_floor < (long)c->seq)
        c->team->coll_floor = (long)c->seq;
}
/* Whether the members of team all reach each other by messages (tcp; agreed by every member,
 * team/team_traits.c); 0 for NULL (an active set). The call after an early one then learns that
 * all have entered through a barrier of gated messages, not by reading every progress word, so
 * early return costs no more on large teams than a barrier. */
static inline int coll_team_messages(const struct sshmem_team *team)
{
    return team && team->messages;
}
/* This call lets members leave before all have entered ("Early return"): the team's next call
 * checks their progress first. Every member must say so in the same calls. */
static inline void coll_mark_early(coll_t *c)
{
    if (c->team)
        c->team->coll_early = 1;
}
/* Before a team's state is given back (shmem_team_destroy, after its last sync): its progress
 * word rests again and its stamp lines and work spaces are zeroed, so that no stamp of this team
 * matches one of the next team in the same memory. */
void coll_team_retire(struct sshmem_team *team);
/* Describe a call on an active set, checking the arguments (fatal errors name the fix). */
void coll_setup_active_set(coll_t *c, int PE_start, int logPE_stride, int PE_size, long *pSync,
                           int nflags, void *pWrk, size_t wrk_bytes, const char *call);

/* Locate a symmetric buffer of len bytes (a fatal error if it is not symmetric). */
void coll_buf(coll_buf_t *b, const void *addr, size_t len, const char *what, const coll_t *c);

/* The load/store address of b (+ at) on member i; only when c->direct. */
static inline char *coll_peer(const coll_t *c, const coll_buf_t *b, int member, size_t at)
{
    return sshmem_peer(coll_pe(c, member))->direct[b->region] + b->off + at;
}

/* Flags. */
void coll_add(coll_t *c, int member, int slot, long amount);
static inline void coll_signal(coll_t *c, int member, int slot) { coll_add(c, member, slot, 1); }
void coll_wait(coll_t *c, int slot, long count);
/* A flag only CPU atomics of one node's PEs touch (the on-node flags of src/coll/hier_map.c,
 * which no UCX update reaches): wait until it has risen count above rest, then take count off. */
void coll_wait_cpu(coll_t *c, long *flag, long rest, long count);
/* A non-negative value carried by one flag (a mailbox with exactly one sender per call). */
static inline void coll_send_value(coll_t *c, int member, int slot, long v)
{
    coll_add(c, member, slot, v + 1);
}
long coll_recv_value(coll_t *c, int slot);
/* A signal that also carries a size (> 0, a vector's bytes) in the flag's high bits, so plain
 * signals of the same sender (waited for after it) may add to the flag first: send
 * coll_sized(size) as a signal's or coll_put_add's amount; coll_wait_sized returns the size. */
#define COLL_SIZE_SHIFT 24
static inline long coll_sized(long size) { return (size << COLL_SIZE_SHIFT) + 1; }
long coll_wait_sized(coll_t *c, int slot);
/* Stamps (where coll_stamps_to): a member writes data into this PE's memory, then a stamp beside
 * it (release); the data's own cache line says it has arrived, and no flag (another line) moves.
 * Wait until *stamp == value. */
void coll_wait_stamp(coll_t *c, const uint64_t *stamp, uint64_t value);
/* The same for two stamps at once; returns whether the first one is value. */
int coll_wait_stamps(coll_t *c, const uint64_t *first, const uint64_t *second, uint64_t value);
/* The stamp of a team call: its call number (from 1, 64 bits: it never wraps). A stamp left in
 * place never matches a later call, nor (coll_team_retire) one of a later team in that memory. */
static inline uint64_t coll_stamp(const coll_t *c) { return c->seq; }
static inline void coll_put_stamp(uint64_t *stamp, uint64_t value)
{
    __atomic_store_n(stamp, value, __ATOMIC_RELEASE); /* after the data it marks */
}

/* Where a member's post box of this team call for the block from distance d (1 ..
 * SSHMEM_TEAM_POST_DISTANCES) below it lies (team/team.h, "Posts"): at this offset from the
 * call's sync area (c->flags), the same on every member. */
static inline size_t coll_post_at(const coll_t *c, int d)
{
    const struct sshmem_team *t = c->team;
    return (size_t)(t->posts - c->flags.addr) +
           ((size_t)(d - 1) * (size_t)t->nareas + (size_t)c->area) * SSHMEM_TEAM_POST_BYTES;
}

/* The stamp line of member i in a direct team call (team/team.h): only its owner writes it;
 * the call number sits in its last eight bytes, data before. */
#define COLL_STAMP_LINE_DATA (SSHMEM_TEAM_STAMP_LINE_BYTES - 8)
static inline char *coll_stamp_line(const coll_t *c, int member)
{
    return member == c->me ? c->flags.addr + SSHMEM_TEAM_STAMP_LINE_AT
                           : coll_peer(c, &c->flags, member, SSHMEM_TEAM_STAMP_LINE_AT);
}
static inline uint64_t *coll_stamp_of_line(char *line)
{
    return (uint64_t *)(line + SSHMEM_TEAM_STAMP_LINE_BYTES - sizeof(uint64_t));
}

/* Stamped data to member i (see Stamps above): len bytes of src to dst + at, then stamp at dst +
 * stamp_at (8 bytes, aligned). On a mapped peer: plain stores and a release store. Through UCX: a
 * put, a fence and an 8-byte put, as shmem_fence orders puts (a torn stamp cannot match: the
 * receiver waits for one exact value). Only where coll_stamps_to(c, i), which gives both ends of a
 * pair the same answer. */
static inline int coll_stamps_to(const coll_t *c, int member)
{
    if (c->direct)
        return 1;
    /* Neither question learns pe unless it must (a root that only receives need not know every
     * member's card). */
    const int pe = coll_pe(c, member);
    return sshmem_peer_maps(pe, (enum sshmem_region)c->work.region) ||
           !sshmem_tx_put_add_pays(pe);
}
void coll_put_stamped(coll_t *c, int member, const coll_buf_t *dst, size_t at, const void *src,
                      size_t len, size_t stamp_at, uint64_t stamp);

/* Data: len bytes from local src to dst + at on member i (memcpy when mapped, else UCX). */
void coll_put(coll_t *c, int member, const coll_buf_t *dst, size_t at, const void *src,
              size_t len);
/* coll_put, then coll_add(c, member, slot, amount), as one message where UCX emulates
 * one-sided operations to member (transport.h, sshmem_tx_put_add): a collective's step then
 * costs one message instead of two with a round trip between them. */
void coll_put_add(coll_t *c, int member, const coll_buf_t *dst, size_t at, const void *src,
                  size_t len, int slot, long amount);
static inline void coll_put_signal(coll_t *c, int member, const coll_buf_t *dst, size_t at,
                                   const void *src, size_t len, int slot)
{
    coll_put_add(c, member, dst, at, src, len, slot, 1);
}
/* coll_put_signal, but where it is a message (tcp) it may stay in flight until coll_done:
 * blocks to several members travel at once. src stays unchanged until coll_done. */
void coll_put_signal_async(coll_t *c, int member, const coll_buf_t *dst, size_t at,
                           const void *src, size_t len, int slot);
/* Whether this PE's writes to member are messages its CPU applies (sshmem_tx_put_add_pays),
 * gated rather than waited for (coll_reach_wait). The same answer at both ends of the pair. */
static inline int coll_messages_to(const coll_t *c, int member)
{
    return sshmem_tx_put_add_pays(coll_pe(c, member));
}
/* Strided: count elements of esize bytes, src element k at src + k*sst*esize, to
 * dst + at + k*dst_stride*esize on member i. */
void coll_put_strided(coll_t *c, int member, const coll_buf_t *dst, size_t at,
                      ptrdiff_t dst_stride, const char *src, ptrdiff_t src_stride, size_t count,
                      size_t esize);

/* End of a call: the caller's buffers may be reused. coll_put returns once UCX is done with its
 * source (the data is on its way, ordered before the signal after it), so only coll_put_strided's
 * non-blocking puts need completing here: waiting for every put to land would cost a round trip
 * per call on a network. */
void coll_done(coll_t *c);

#endif
