/*
 * sshmem.h: the runtime's shared state and the small helpers every API family uses.
 *
 * Layering (nothing below calls up):
 *   API families (rma, amo, sync, coll, team)  ->  heap + transport  ->  boot + core
 * This header is the "core" part: who am I, how many PEs, and how each peer is reached.
 */
#ifndef SSHMEM_CORE_H
#define SSHMEM_CORE_H

#include <stddef.h>
#include <stdint.h>
#include "config.h"
#include "core/abi.h"

#define SSHMEM_API __attribute__((visibility("default")))
#define SSHMEM_LIKELY(x) __builtin_expect(!!(x), 1)
#define SSHMEM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SSHMEM_NORETURN __attribute__((noreturn))
#define SSHMEM_COLD __attribute__((cold, noinline))

/* Symmetric regions: the heap (shmem_malloc) and the program's global data (data + bss). */
enum sshmem_region { SSHMEM_REGION_HEAP = 0, SSHMEM_REGION_DATA = 1, SSHMEM_NUM_REGIONS = 2 };

/* How this PE reaches one peer, learnt from the peer's card on first use (heap/peers.c). A
 * NULL direct pointer means "go through UCX". Read it through sshmem_peer(), which learns it
 * first. Entries live in chunks of SSHMEM_PEER_CHUNK consecutive PEs, each allocated when this
 * PE first talks to one of them: a peer never contacted costs this layer no more than its
 * node id, its heap view (both below) and a share of one chunk pointer. */
typedef struct sshmem_peer {
    char *direct[SSHMEM_NUM_REGIONS];  /* load/store view of the peer's region in our space */
    uint64_t remote[SSHMEM_NUM_REGIONS]; /* the region's base in the peer's own address space */
    int known;                          /* direct and remote are filled in (release/acquire) */
    char *node_heap; /* an on-node peer's heap for the node-aware collectives where direct has
                      * none (sshmem_peer_node_heap), NULL until they first need it */
} sshmem_peer_t;

/* Peers per chunk of the lazily made per-peer tables (this layer's and the transport's). A
 * balance: a directory pointer per chunk is paid for every chunk of the job, in every table,
 * and a whole chunk for each one this PE contacts (the log2(n) partners of a barrier land in
 * about as many chunks). 64 keeps both under a few bytes per PE (test/unit/test_peer_tables). */
#define SSHMEM_PEER_CHUNK_BITS 6
#define SSHMEM_PEER_CHUNK (1 << SSHMEM_PEER_CHUNK_BITS)

/* How many chunks cover n PEs. */
static inline size_t sshmem_peer_chunks(int n)
{
    return ((size_t)n + SSHMEM_PEER_CHUNK - 1) >> SSHMEM_PEER_CHUNK_BITS;
}

typedef struct sshmem_region_info {
    uintptr_t base; /* our own copy of the region */
    size_t size;
} sshmem_region_info_t;

struct sshmem_tx;   /* transport state of one context (src/transport) */
struct sshmem_team; /* a team (src/team) */
struct sshmem_triplet; /* a team's members in world numbering (src/core/team_math.h) */

/* A communication context: the default one, or one from shmem_ctx_create. */
struct sshmem_ctx {
    union { /* one fixed size for the life of the soname: core/abi.h */
        struct {
            struct sshmem_tx *tx;
            long options;
            struct sshmem_team *team; /* the team it was created on (SHMEM_TEAM_WORLD by default) */
            /* NULL for contexts of SHMEM_TEAM_WORLD. For a context of any other team, the team's
             * members: its RMA and atomics number PEs within that team (the specification's team
             * contexts), so every target PE is translated to a world number first. */
            const struct sshmem_triplet *team_pes;
        };
        unsigned char abi_size[SSHMEM_ABI_CTX_BYTES];
    };
};
_Static_assert(sizeof(struct sshmem_ctx) == SSHMEM_ABI_CTX_BYTES,
               "struct sshmem_ctx outgrew its fixed size (core/abi.h)");

struct sshmem_state {
    int my_pe;
    int n_pes;
    int initialized;      /* shmem_init has completed */
    int finalized;        /* shmem_finalize has completed */
    int thread_level;     /* SHMEM_THREAD_* provided */
    int singleton;        /* started without a launcher */
    int local_ucx;        /* SSHMEM_LOCAL=ucx: on-node peers go through UCX too */
    int ucx_in_use;       /* some peer is reached through UCX: waits must drive progress */
    int amo_cpu;          /* atomics to direct peers may use CPU atomics */
    int my_node;          /* node id (launcher's, or my_pe / SSHMEM_PES_PER_NODE) */
    int n_nodes;          /* distinct node ids in the job */
    int node_ids_per_host; /* SSHMEM_PES_PER_NODE's groups of a host (1 without it): PEs share
                              a host when their node ids / node_ids_per_host are equal */
    int host_pes;         /* PEs of the job on this host (virtual nodes included) */
    int host_crowded;     /* this host runs more PEs of the job than it has CPUs */
    unsigned wait_spin;   /* polls of a wait before it yields the CPU (core/wait_policy.c) */
    /* Whether UCX and the global data let this PE map the heap / global data of the other PEs
     * of its node: probed on one neighbour at start-up and expected of all (heap/peers.c). */
    int node_maps[SSHMEM_NUM_REGIONS];
    sshmem_region_info_t region[SSHMEM_NUM_REGIONS];
    /* The heap as the inline fast paths see it (sshmem_heap_direct): the heap region, or
     * empty under the weak-ordering mode (sync/weak.h), whose every transfer must take the
     * slow path. A copy, so the fast paths test nothing more for the mode. */
    sshmem_region_info_t fast_heap;
    /* The only tables with an entry for every PE (12 bytes a PE): what is read of any PE
     * without learning it. */
    int *node_ids;      /* each PE's node id, set at start-up */
    char **heap_views;  /* each PE's heap as the fast path sees it: NULL until learnt, or when
                           UCX carries (a copy of its peer entry's direct[HEAP]) */
    /* sshmem_peer_chunks(n_pes) pointers, each NULL until a peer of its chunk is learnt. */
    sshmem_peer_t **peer_chunks;
};

extern struct sshmem_state sshmem;

/* Choose host_crowded and wait_spin (start-up, once every peer's node id is known). */
void sshmem_wait_policy_init(void);

/* Which symmetric region holds [addr, addr+len), and the offset in it; -1 if none. */
static inline int sshmem_region_of(const void *addr, size_t len, size_t *offset)
{
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++) {
        size_t off = (uintptr_t)addr - sshmem.region[r].base;
        if (off < sshmem.region[r].size && len <= sshmem.region[r].size - off) {
            *offset = off;
            return r;
        }
    }
    return -1;
}

/* Learn pe's card: endpoint, region bases, direct views (slow path, once); returns pe's entry.
 * The learning needs the layers above core (boot, transport, heap): heap/peers.c registers it
 * at start-up, so this layer calls upward only through the hook. */
SSHMEM_COLD const sshmem_peer_t *sshmem_peer_learn(int pe);
void sshmem_set_peer_learner(const sshmem_peer_t *(*learn)(int pe));

/* pe's entry with direct and remote filled in: two loads and a branch once it is known. */
static inline const sshmem_peer_t *sshmem_peer(int pe)
{
    const sshmem_peer_t *chunk =
        __atomic_load_n(&sshmem.peer_chunks[pe >> SSHMEM_PEER_CHUNK_BITS], __ATOMIC_ACQUIRE);
    if (SSHMEM_LIKELY(chunk)) {
        const sshmem_peer_t *p = chunk + (pe & (SSHMEM_PEER_CHUNK - 1));
        if (SSHMEM_LIKELY(__atomic_load_n(&p->known, __ATOMIC_ACQUIRE)))
            return p;
    }
    return sshmem_peer_learn(pe);
}

/* pe's node id: PEs with equal node ids share a node (known for every PE from start-up). */
static inline int sshmem_node_of(int pe)
{
    return sshmem.node_ids[pe];
}

/* Whether this PE maps (or will map, once known) pe's region r directly: same node, the
 * direct path, and the node's mappings work. Known for every PE without learning any. */
static inline int sshmem_peer_maps(int pe, enum sshmem_region r)
{
    if (sshmem.local_ucx || sshmem_node_of(pe) != sshmem.my_node)
        return 0;
    return pe == sshmem.my_pe || sshmem.node_maps[r];
}

/*
 * The fast path's translation: the load/store address of [addr, addr+len) on `pe` when it is
 * in the heap of a directly reachable peer, else NULL (the caller then takes the slow path,
 * which also handles globals, UCX, errors and peers not learnt yet). Two compares and an add.
 */
static inline char *sshmem_heap_direct(const void *addr, size_t len, int pe)
{
    size_t off = (uintptr_t)addr - sshmem.fast_heap.base;
    char *peer_base = sshmem.heap_views[pe];
    if (SSHMEM_LIKELY(off < sshmem.fast_heap.size && len <= sshmem.fast_heap.size - off &&
                      peer_base))
        return peer_base + off;
    return NULL;
}

#endif /* SSHMEM_CORE_H */
