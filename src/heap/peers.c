/*
 * peers.c: the peer table (core/sshmem.h, heap/peers.h): node ids for every PE at start-up,
 * everything else from a peer's card on first use.
 *
 * Why lazily: learning a peer costs a PMIx lookup, a UCX endpoint, an rkey and (on one host)
 * mappings of its heap and global data. Done for every peer at
 * start-up that is n per PE and n^2 for the job: 1,024 PEs on one host took minutes. Now a PE
 * pays only for the peers it talks to (log n for a barrier).
 *
 * What a PE holds for a peer it never talks to: its node id and its heap view (NULL), 12
 * bytes; the rest of a peer's entry lives in a chunk of SSHMEM_PEER_CHUNK peers made when
 * the first of them is learnt (core/sshmem.h), and the transport does the same per context.
 *
 * What start-up still needs to know of every PE, without their cards:
 *  - node ids: arithmetic on one host, each PE's host name across hosts (PMIx's own data from
 *    the launcher's node map: a lookup per PE in this process, no card, no request);
 *  - whether this node's peers can be mapped directly (teams, collectives and the progress
 *    thread decide on it): probed on one neighbour, and expected of every PE of the node.
 *    A later peer that breaks the expectation is a fatal error naming both PEs.
 *
 * Threads: a peer is learnt once, under learn_lock, on the slow path; its entry is published
 * with a release store of `known` that sshmem_peer() reads with acquire.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot.h"
#include "core/env.h"
#include "core/error.h"
#include "heap/peers.h"
#include "core/sshmem.h"
#include "heap/memfile.h"
#include "transport/transport.h"

/* What each PE tells the others about itself; the transport's card follows it. */
typedef struct {
    uint64_t base[SSHMEM_NUM_REGIONS];
    uint64_t size[SSHMEM_NUM_REGIONS];
    int32_t pid;
    int32_t globals_fd; /* memory file of the global data, -1 if not shared */
    int32_t heap_fd;    /* memory file of the symmetric heap (heap/memfile.h) */
    int32_t node_id;
    int32_t local_ucx;
    int32_t profile; /* SSHMEM_PROFILE set: the profile's scratch and gather need every PE */
    /* The settings that size the library's internal space (core/space.h) besides the PE
     * count: it must have the same layout on every PE. */
    int32_t debug;
    uint32_t teams_max, locks_max;
} core_card_t;

/* SSHMEM_PROFILE is set (the row and the gather need every PE). */
static int profile_wanted(void) { return sshmem_env.profile && *sshmem_env.profile; }

static pthread_mutex_t learn_lock = PTHREAD_MUTEX_INITIALIZER;

/* ------------------------------------------------------------------ node ids */

/* Node ids per host: SSHMEM_PES_PER_NODE=k splits a host into this many groups. */
static int groups_per_host(void)
{
    unsigned k = sshmem_env.pes_per_node;
    return k == 0 ? 1 : (int)(((unsigned)sshmem.n_pes + k - 1) / k);
}

/* pe's node id from its host's: with SSHMEM_PES_PER_NODE=k also the group of k consecutive
 * PEs it belongs to, so one host can stand in for several (UCX between the groups). Groups
 * only split real hosts further: PEs on different hosts never share an id, whatever k says.
 * A k of at least the job size makes one group per host: np=1 runs of a suite run with k=2
 * stay valid. */
static int node_of(int pe, int host_node)
{
    unsigned k = sshmem_env.pes_per_node;
    if (k == 0)
        return host_node;
    return (int)((unsigned)host_node * (unsigned)groups_per_host() + (unsigned)pe / k);
}

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* How many distinct node ids the job spans (from the table, so every PE agrees). */
static int count_nodes(void)
{
    int *ids = malloc((size_t)sshmem.n_pes * sizeof *ids);
    if (!ids)
        sshmem_fatal("shmem_init", "out of memory for %d node ids", sshmem.n_pes);
    memcpy(ids, sshmem.node_ids, (size_t)sshmem.n_pes * sizeof *ids);
    qsort(ids, (size_t)sshmem.n_pes, sizeof *ids, compare_int);
    int n = 1;
    for (int i = 1; i < sshmem.n_pes; i++)
        n += ids[i] != ids[i - 1];
    free(ids);
    return n;
}

static const sshmem_peer_t *learn_peer(int pe);

/* PE pe's card (the caller frees it), its core part copied into *core. */
static char *read_card(int pe, core_card_t *core, size_t *len)
{
    char *card = sshmem_boot_card(pe, len);
    if (*len < sizeof *core)
        sshmem_fatal("shmem_init", "malformed card from PE %d", pe);
    memcpy(core, card, sizeof *core);
    return card;
}

/* The launcher did not give every PE's host: the ids come from the cards, collected on every
 * host and read once each after the exchange (O(n) per PE, only with such a launcher). */
static int ids_from_cards;

static void node_ids_from_cards(void)
{
    for (int pe = 0; pe < sshmem.n_pes; pe++) {
        size_t len;
        core_card_t core;
        char *card = read_card(pe, &core, &len);
        sshmem.node_ids[pe] = core.node_id;
        free(card);
    }
    sshmem.n_nodes = count_nodes();
    sshmem.amo_cpu = sshmem.n_nodes == 1;
}

/* Every PE's host id into node_ids: on one host (the launcher says so) ours, without a
 * lookup; on several, each PE's host from the launcher's data. 0 with my_host set, -1 when
 * the launcher does not name every PE's host (the ids then come from the cards). */
static int host_ids(int *my_host)
{
    if (sshmem_boot_host_count() == 1) {
        *my_host = sshmem_boot_node_id();
        for (int pe = 0; pe < sshmem.n_pes; pe++)
            sshmem.node_ids[pe] = *my_host;
        return 0;
    }
    if (sshmem_boot_host_ids(sshmem.node_ids, sshmem.n_pes) != 0)
        return -1;
    *my_host = sshmem.node_ids[sshmem.my_pe];
    return 0;
}

static void *table_or_die(size_t n, size_t size, const char *what)
{
    void *t = calloc(n, size);
    if (!t)
        sshmem_fatal("shmem_init", "out of memory for the %s of %d PEs", what, sshmem.n_pes);
    return t;
}

void sshmem_peers_init(void)
{
    size_t n = (size_t)sshmem.n_pes;
    sshmem.node_ids = table_or_die(n, sizeof *sshmem.node_ids, "node ids");
    sshmem.heap_views = table_or_die(n, sizeof *sshmem.heap_views, "heap views");
    sshmem.peer_chunks =
        table_or_die(sshmem_peer_chunks(sshmem.n_pes), sizeof *sshmem.peer_chunks, "peer table");
    sshmem_set_peer_learner(learn_peer);
    int my_host = 0;
    ids_from_cards = host_ids(&my_host) != 0;
    if (ids_from_cards) { /* until the cards come: only this PE's is known */
        my_host = sshmem_boot_node_id();
        for (int pe = 0; pe < sshmem.n_pes; pe++)
            sshmem.node_ids[pe] = -1 - pe;
    }
    for (int pe = 0; pe < sshmem.n_pes; pe++)
        if (!ids_from_cards || pe == sshmem.my_pe)
            sshmem.node_ids[pe] = node_of(pe, ids_from_cards ? my_host : sshmem.node_ids[pe]);
    sshmem.my_node = sshmem.node_ids[sshmem.my_pe];
    sshmem.node_ids_per_host = groups_per_host();
    sshmem.n_nodes = count_nodes();
    /* doc/multi-host.md, "How sshmem behaves across hosts": a NIC's atomics are not atomic
     * with respect to CPU atomics on the same word, so once any peer is off-node, every
     * atomic (on-node ones too) goes through UCX. */
    sshmem.amo_cpu = sshmem.n_nodes == 1;
}

/* pe's entry, its chunk made now if it is the first of the chunk to be learnt (learn_lock
 * held: chunks are only made under it; readers see a chunk whole through the release). */
static sshmem_peer_t *peer_entry(int pe)
{
    sshmem_peer_t **slot = &sshmem.peer_chunks[pe >> SSHMEM_PEER_CHUNK_BITS];
    sshmem_peer_t *chunk = *slot;
    if (!chunk) {
        chunk = calloc(SSHMEM_PEER_CHUNK, sizeof *chunk);
        if (!chunk)
            sshmem_fatal("sshmem", "out of memory for the table of PE %d", pe);
        __atomic_store_n(slot, chunk, __ATOMIC_RELEASE);
    }
    return &chunk[pe & (SSHMEM_PEER_CHUNK - 1)];
}

/* ------------------------------------------------------------------ cards */

static int my_globals_fd = -1, my_heap_fd = -1;

static void publish_card(void)
{
    size_t tx_len;
    void *tx_card = sshmem_tx_card(&tx_len);
    core_card_t core = {0};
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++) {
        core.base[r] = sshmem.region[r].base;
        core.size[r] = sshmem.region[r].size;
    }
    core.pid = (int32_t)getpid();
    core.globals_fd = my_globals_fd;
    core.heap_fd = my_heap_fd;
    core.node_id = sshmem.my_node;
    core.local_ucx = sshmem_env.local;
    core.profile = profile_wanted();
    core.debug = sshmem_env.debug;
    core.teams_max = sshmem_env.teams_max;
    core.locks_max = sshmem_env.locks_max;
    char *card = malloc(sizeof core + tx_len);
    if (!card)
        sshmem_fatal("shmem_init", "out of memory for this PE's card");
    memcpy(card, &core, sizeof core);
    memcpy(card + sizeof core, tx_card, tx_len);
    free(tx_card);
    /* Collected only when the node ids must come from the cards: the same on every PE, as
     * it follows from the launcher's job data. */
    sshmem_boot_exchange(card, sizeof core + tx_len, ids_from_cards);
    /* The boot layer keeps its own copy only for a singleton; leak nothing otherwise. */
    if (!sshmem.singleton)
        free(card);
}

/* The settings every PE must share, checked against each card learnt. */
static void check_card(int pe, const core_card_t *core)
{
    /* First: these change the heap's size too, and this message names the cause. */
    if (core->debug != sshmem_env.debug || core->teams_max != sshmem_env.teams_max ||
        core->locks_max != sshmem_env.locks_max)
        sshmem_fatal("shmem_init", "PE %d has SHMEM_DEBUG=%d SSHMEM_TEAMS_MAX=%u "
                     "SSHMEM_LOCKS_MAX=%u, this PE %d %u %u: they size the library's symmetric space, so set them the "
                     "same for every PE (oshrun -x VAR=...)", pe, (int)core->debug,
                     (unsigned)core->teams_max, (unsigned)core->locks_max, sshmem_env.debug,
                     sshmem_env.teams_max, sshmem_env.locks_max);
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        if (core->size[r] != sshmem.region[r].size)
            sshmem_fatal("shmem_init", "PE %d has a %s of %llu bytes, this PE %zu. Every PE must "
                         "run the same program with the same SHMEM_SYMMETRIC_SIZE.", pe,
                         r == SSHMEM_REGION_HEAP ? "symmetric heap" : "global data segment",
                         (unsigned long long)core->size[r], sshmem.region[r].size);
    if (core->local_ucx != sshmem_env.local)
        sshmem_fatal("shmem_init", "PE %d has a different SSHMEM_LOCAL; set it the same for "
                     "every PE (oshrun -x SSHMEM_LOCAL=...)", pe);
    if (core->profile != profile_wanted())
        sshmem_fatal("shmem_init", "SSHMEM_PROFILE is set on PE %d but not on PE %d; set it for "
                     "every PE (oshrun --profile=PATH or oshrun -x SSHMEM_PROFILE=PATH)",
                     core->profile ? pe : sshmem.my_pe, core->profile ? sshmem.my_pe : pe);
    if (core->node_id != sshmem_node_of(pe))
        sshmem_fatal("shmem_init", "PE %d says it is on node %d, the launcher said %d",
                     pe, core->node_id, sshmem_node_of(pe));
}

/* Map one of pe's memory files (heap/memfile.h). A limit of ours (open files, address space,
 * memory) ends the job naming the limit to raise: carrying on through UCX instead would hide
 * it. Otherwise (the file out of reach: another user's process, no /proc) NULL, why[] filled. */
static char *map_file(int pe, const core_card_t *core, int fd, enum sshmem_region r, char *why,
                      size_t why_len)
{
    const char *what = r == SSHMEM_REGION_HEAP ? "symmetric heap" : "global data";
    char *p = sshmem_memfile_map_peer(core->pid, fd, core->size[r], what, why, why_len);
    if (!p && sshmem_memfile_limit(errno))
        sshmem_fatal("shmem_init", "mapping the %s of PE %d (on this node): %s", what, pe, why);
    return p;
}

/* The direct views of an on-node peer's regions (NULL where UCX must carry; why[] then says
 * what failed). */
static void map_peer(int pe, const core_card_t *core, char *view[SSHMEM_NUM_REGIONS], char *why,
                     size_t why_len)
{
    if (pe == sshmem.my_pe) {
        for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
            view[r] = (char *)sshmem.region[r].base;
        return;
    }
    /* Both regions are memory files: mapped the same way. The heap only where UCX has a
     * shared-memory transport too (not under UCX_TLS=tcp,self), as when the heap was UCX's
     * and only such a transport mapped it: the collectives on teams that span nodes mix
     * loads and stores to mapped node mates with messages to the others only in that case
     * (with messages to every peer, allgatherv's Bruck steps found stale blocks:
     * test/pe/mpix_early, 6 PEs, SSHMEM_PES_PER_NODE=2, UCX_TLS=tcp,self). */
    if (core->heap_fd >= 0 && (sshmem_tx_traits() & SSHMEM_TX_SHM))
        view[SSHMEM_REGION_HEAP] = map_file(pe, core, core->heap_fd, SSHMEM_REGION_HEAP, why,
                                            why_len);
    if (core->globals_fd >= 0 && core->size[SSHMEM_REGION_DATA])
        view[SSHMEM_REGION_DATA] = map_file(pe, core, core->globals_fd, SSHMEM_REGION_DATA, why,
                                            why_len);
}

/* Whether the process pid has ended (gone, or a zombie not reaped yet): its memory files
 * went with it, so mapping them failed because it died, not because of this PE. */
static int process_ended(pid_t pid)
{
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 1;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    const char *state = strrchr(stat, ')'); /* "pid (comm) S ...": comm may hold spaces */
    return state && (state[2] == 'Z' || state[2] == 'X');
}

/* Fill in pe's entry from its card (learn_lock held). probing: the start-up probe, which
 * sets the expectation instead of checking it. */
static void learn_card(int pe, sshmem_peer_t *peer, int probing)
{
    size_t len;
    core_card_t core;
    char *card = read_card(pe, &core, &len);
    check_card(pe, &core);
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        peer->remote[r] = core.base[r];
    sshmem_tx_connect(pe, card + sizeof core, len - sizeof core);
    /* Direct load/store views: only on this node, and not when SSHMEM_LOCAL=ucx. */
    char *view[SSHMEM_NUM_REGIONS] = {NULL};
    char why[512] = "its card offers no memory file";
    if (!sshmem_env.local && core.node_id == sshmem.my_node)
        map_peer(pe, &core, view, why, sizeof why);
    free(card);
    for (int r = 0; !probing && r < SSHMEM_NUM_REGIONS; r++) {
        int expected = sshmem_peer_maps(pe, r) && sshmem.region[r].size;
        if (expected && !view[r] && process_ended(core.pid))
            sshmem_fatal_peer_lost("shmem_init", "PE %d ended while this PE (%d) mapped its "
                                   "%s", pe, sshmem.my_pe,
                                   r == SSHMEM_REGION_HEAP ? "symmetric heap" : "global data");
        if (expected && !view[r])
            sshmem_fatal("shmem_init", "this PE (%d) maps the %s of some PEs of its node but "
                         "not that of PE %d (%s); run with SSHMEM_LOCAL=ucx to reach every PE "
                         "through UCX", sshmem.my_pe,
                         r == SSHMEM_REGION_HEAP ? "symmetric heap" : "global data", pe, why);
        if (!expected)
            view[r] = NULL; /* one answer per node: teams rely on it */
    }
    /* The fast path (sshmem_heap_direct) reads a view without waiting for `known`: publish
     * each one whole, after the mapping it points into exists. */
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        __atomic_store_n(&peer->direct[r], view[r], __ATOMIC_RELEASE);
    __atomic_store_n(&sshmem.heap_views[pe], view[SSHMEM_REGION_HEAP], __ATOMIC_RELEASE);
}

/* What sshmem_peer() calls, through core's hook, for a peer not learnt yet. */
static const sshmem_peer_t *learn_peer(int pe)
{
    if (pe < 0 || pe >= sshmem.n_pes || !sshmem.peer_chunks)
        sshmem_fatal("sshmem", "PE %d is not a PE of this job (0 to %d)", pe, sshmem.n_pes - 1);
    pthread_mutex_lock(&learn_lock);
    sshmem_peer_t *peer = peer_entry(pe);
    if (!__atomic_load_n(&peer->known, __ATOMIC_RELAXED)) {
        learn_card(pe, peer, 0);
        __atomic_store_n(&peer->known, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&learn_lock);
    return peer;
}

char *sshmem_peer_node_heap(int pe)
{
    sshmem_peer_t *peer = (sshmem_peer_t *)sshmem_peer(pe);
    if (peer->direct[SSHMEM_REGION_HEAP])
        return peer->direct[SSHMEM_REGION_HEAP];
    char *view = __atomic_load_n(&peer->node_heap, __ATOMIC_ACQUIRE);
    if (view)
        return view;
    pthread_mutex_lock(&learn_lock);
    if (!peer->node_heap) {
        size_t len;
        core_card_t core;
        char why[512] = "its card offers no memory file";
        free(read_card(pe, &core, &len));
        view = core.heap_fd < 0 || core.node_id != sshmem.my_node
                   ? NULL
                   : map_file(pe, &core, core.heap_fd, SSHMEM_REGION_HEAP, why, sizeof why);
        if (!view)
            sshmem_fatal("sshmem", "cannot map the symmetric heap of PE %d for a node-aware "
                         "collective (%s); set SSHMEM_COLL_BARRIER, _BCAST, _REDUCE and "
                         "_FCOLLECT to another algorithm than hier", pe, why);
        __atomic_store_n(&peer->node_heap, view, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&learn_lock);
    return peer->node_heap;
}

/* The next PE of this node after this one (cyclic), or -1 when it is alone there. */
static int node_neighbour(void)
{
    for (int i = 1; i < sshmem.n_pes; i++) {
        int pe = (sshmem.my_pe + i) % sshmem.n_pes;
        if (sshmem_node_of(pe) == sshmem.my_node)
            return pe;
    }
    return -1;
}

/* Learn the neighbour's card first (it sets what the node expects), then publish. */
static void probe_node(void)
{
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        sshmem.node_maps[r] = 1;
    int pe = node_neighbour();
    if (pe < 0 || sshmem_env.local)
        return;
    sshmem_peer_t *peer = peer_entry(pe);
    learn_card(pe, peer, 1);
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        sshmem.node_maps[r] = peer->direct[r] != NULL || !sshmem.region[r].size;
    /* Our own global data must be mappable too, or the node's peers reach it through UCX. */
    if (my_globals_fd < 0 && sshmem.region[SSHMEM_REGION_DATA].size)
        sshmem.node_maps[SSHMEM_REGION_DATA] = 0;
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        if (!sshmem.node_maps[r])
            peer->direct[r] = NULL; /* no other thread yet: start-up */
    sshmem.heap_views[pe] = peer->direct[SSHMEM_REGION_HEAP];
    __atomic_store_n(&peer->known, 1, __ATOMIC_RELEASE);
}

/* Some peer is (or will be) reached through UCX: waits must drive its progress, and the
 * progress thread may serve it. */
static int some_peer_through_ucx(void)
{
    if (sshmem.n_nodes > 1)
        return 1;
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        if (sshmem.region[r].size && !sshmem_peer_maps(sshmem.my_pe, r))
            return 1; /* SSHMEM_LOCAL=ucx: even this PE */
    if (node_neighbour() < 0)
        return 0;
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        if (sshmem.region[r].size && !sshmem.node_maps[r])
            return 1;
    return 0;
}

/* Check the next PE's card (cyclically) against ours: each PE checks one, so any PE that
 * differs from the others is caught at start-up by its predecessor, as when every PE checked
 * every card, and the job ends naming it. */
static void check_next_pe(void)
{
    int pe = (sshmem.my_pe + 1) % sshmem.n_pes;
    size_t len;
    core_card_t core;
    char *card = read_card(pe, &core, &len);
    check_card(pe, &core);
    free(card);
}

void sshmem_peers_exchange(int globals_fd, int heap_fd)
{
    my_globals_fd = globals_fd;
    my_heap_fd = heap_fd;
    publish_card();
    if (ids_from_cards)
        node_ids_from_cards();
    check_next_pe();
    sshmem_peer_learn(sshmem.my_pe);
    probe_node();
    sshmem.ucx_in_use = some_peer_through_ucx();
}
