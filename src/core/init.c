/*
 * init.c: shmem_init and shmem_finalize: the start-up sequence that ties the layers together.
 *
 *  1. read the environment table                       (core/env)
 *  2. share the global data segment                    (heap/globals; before any thread)
 *  3. connect to the launcher: rank, size, node        (boot; or SSHMEM_PES_PER_NODE groups)
 *  4. UCX context and worker; allocate the heap        (transport, heap)
 *  5. exchange cards: bases, rkeys, worker addresses   (boot)
 *  6. per peer: endpoint, rkeys, direct mappings when on this node; then count the nodes
 *  7. the progress thread, when some peer is reached through UCX   (transport)
 *  8. the library's symmetric scratch (the traffic profile's row last), then a barrier
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <shmem.h>

#include "boot/boot.h"
#include "coll/barrier.h"
#include "core/api_defs.h"
#include "core/copy.h"
#include "core/env.h"
#include "core/debug_check.h"
#include "core/error.h"
#include "core/profile.h"
#include "heap/globals.h"
#include "heap/heap.h"
#include "sync/hang.h"
#include "sync/lock.h"
#include "team/ctx.h"
#include "team/team.h"
#include "transport/transport.h"

/* What each PE tells the others about itself; the transport's card follows it. */
typedef struct {
    uint64_t base[SSHMEM_NUM_REGIONS];
    uint64_t size[SSHMEM_NUM_REGIONS];
    int32_t pid;
    int32_t globals_fd; /* memory file of the global data, -1 if not shared */
    int32_t node_id;
    int32_t local_ucx;
    int32_t profile; /* SSHMEM_PROFILE set: the profile's scratch and gather need every PE */
} core_card_t;

static int globals_fd = -1;

static void share_globals(void)
{
    void *base;
    size_t size;
    if (sshmem_globals_share(&base, &size, &globals_fd) != 0) {
        sshmem_warn("shmem_init", "global and static variables could not be made symmetric; "
                    "use shmem_malloc for remotely accessed data");
        return;
    }
    sshmem.region[SSHMEM_REGION_DATA].base = (uintptr_t)base;
    sshmem.region[SSHMEM_REGION_DATA].size = size;
}

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
    core.globals_fd = globals_fd;
    core.node_id = sshmem.my_node;
    core.local_ucx = sshmem_env.local;
    core.profile = sshmem_profile_wanted();
    char *card = malloc(sizeof core + tx_len);
    memcpy(card, &core, sizeof core);
    memcpy(card + sizeof core, tx_card, tx_len);
    free(tx_card);
    sshmem_boot_exchange(card, sizeof core + tx_len);
    /* The boot layer keeps its own copy only for a singleton; leak nothing otherwise. */
    if (!sshmem.singleton)
        free(card);
}

/* Everything there is to know about one peer, from its card. */
static void connect_peer(int pe)
{
    size_t len;
    char *card = sshmem_boot_card(pe, &len);
    core_card_t core;
    if (len < sizeof core)
        sshmem_fatal("shmem_init", "malformed card from PE %d", pe);
    memcpy(&core, card, sizeof core);
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        if (core.size[r] != sshmem.region[r].size)
            sshmem_fatal("shmem_init", "PE %d has a %s of %llu bytes, this PE %zu. Every PE must "
                         "run the same program with the same SHMEM_SYMMETRIC_SIZE.", pe,
                         r == SSHMEM_REGION_HEAP ? "symmetric heap" : "global data segment",
                         (unsigned long long)core.size[r], sshmem.region[r].size);
    if (core.local_ucx != sshmem_env.local)
        sshmem_fatal("shmem_init", "PE %d has a different SSHMEM_LOCAL; set it the same for "
                     "every PE (oshrun -x SSHMEM_LOCAL=...)", pe);
    if (core.profile != sshmem_profile_wanted())
        sshmem_fatal("shmem_init", "SSHMEM_PROFILE is set on PE %d but not on PE %d; set it for "
                     "every PE (oshrun --profile=PATH or oshrun -x SSHMEM_PROFILE=PATH)",
                     core.profile ? pe : sshmem.my_pe, core.profile ? sshmem.my_pe : pe);

    sshmem_peer_t *peer = &sshmem.peers[pe];
    peer->node_id = core.node_id;
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        peer->remote[r] = core.base[r];
    sshmem_tx_connect(pe, card + sizeof core, len - sizeof core);

    /* Direct load/store views: only on this node, and not when SSHMEM_LOCAL=ucx. */
    if (sshmem_env.local == 0 && core.node_id == sshmem.my_node) {
        if (pe == sshmem.my_pe) {
            for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
                peer->direct[r] = (char *)sshmem.region[r].base;
        } else {
            peer->direct[SSHMEM_REGION_HEAP] =
                sshmem_tx_direct_ptr(pe, SSHMEM_REGION_HEAP, core.base[SSHMEM_REGION_HEAP]);
            if (core.globals_fd >= 0 && core.size[SSHMEM_REGION_DATA])
                peer->direct[SSHMEM_REGION_DATA] = sshmem_globals_map_peer(
                    core.pid, core.globals_fd, core.size[SSHMEM_REGION_DATA]);
        }
    }
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        if (!peer->direct[r] && sshmem.region[r].size)
            sshmem.ucx_in_use = 1;
    free(card);
}

/* This PE's node id: the launcher's, or with SSHMEM_PES_PER_NODE=k also the group of k
 * consecutive PEs it belongs to, so one host can stand in for several (UCX between the
 * groups). Groups only split real hosts further: PEs on different hosts never share an id,
 * whatever k says. A k of at least the job size makes one group per host: np=1 runs of a
 * suite run with k=2 stay valid. */
static int node_of_this_pe(void)
{
    unsigned k = sshmem_env.pes_per_node;
    if (k == 0)
        return sshmem_boot_node_id();
    unsigned groups = ((unsigned)sshmem.n_pes + k - 1) / k;
    return (int)((unsigned)sshmem_boot_node_id() * groups + (unsigned)sshmem.my_pe / k);
}

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* How many distinct node ids the job spans (every card read, so every PE agrees). */
static int count_nodes(void)
{
    int *ids = malloc((size_t)sshmem.n_pes * sizeof *ids);
    if (!ids)
        sshmem_fatal("shmem_init", "out of memory for %d node ids", sshmem.n_pes);
    for (int pe = 0; pe < sshmem.n_pes; pe++)
        ids[pe] = sshmem.peers[pe].node_id;
    qsort(ids, (size_t)sshmem.n_pes, sizeof *ids, compare_int);
    int n = 1;
    for (int i = 1; i < sshmem.n_pes; i++)
        n += ids[i] != ids[i - 1];
    free(ids);
    return n;
}

/* DESIGN.md "Atomicity": a NIC's atomics are not atomic with respect to CPU atomics on the
 * same word, so once any peer is off-node, every atomic (on-node ones too) goes through UCX. */
static void choose_atomics(void)
{
    sshmem.n_nodes = count_nodes();
    sshmem.amo_cpu = sshmem.n_nodes == 1;
}

static void print_info(void)
{
    printf("sshmem %s (OpenSHMEM %d.%d), %s, %d PEs\n", PACKAGE_VERSION, SHMEM_MAJOR_VERSION,
           SHMEM_MINOR_VERSION, sshmem_tx_version(), sshmem.n_pes);
    printf("on-node path: %s\n", sshmem_env.local ? "ucx" : "direct load/store");
    if (sshmem_copy_stream_min == SIZE_MAX)
        printf("direct-path copies: memcpy (no streaming stores)\n");
    else
        printf("direct-path copies: streaming stores from %zu bytes\n", sshmem_copy_stream_min);
    printf("nodes: %d%s, atomics: %s\n", sshmem.n_nodes,
           sshmem_env.pes_per_node ? " (SSHMEM_PES_PER_NODE groups)" : "",
           sshmem.amo_cpu ? "CPU on-node, UCX off-node" : "all through UCX");
    printf("UCX workarounds: %s\n", sshmem_tx_workarounds());
    sshmem_env_print(stdout);
    fflush(stdout);
}

static void init_runtime(int requested)
{
    sshmem_set_abort(sshmem_boot_abort); /* a fatal error ends every PE (core/error.h) */
    sshmem_env_load();
    share_globals();
    sshmem_boot_init(&sshmem.my_pe, &sshmem.n_pes, &sshmem.singleton);
    sshmem_copy_init(); /* when direct-path copies stream (core/copy.h) */
    sshmem.my_node = node_of_this_pe();
    sshmem.thread_level = requested; /* every level is provided as requested */
    sshmem.local_ucx = sshmem_env.local;
    sshmem.amo_cpu = 1; /* until the cards say otherwise (choose_atomics) */
    sshmem.peers = calloc((size_t)sshmem.n_pes, sizeof *sshmem.peers);
    if (!sshmem.peers)
        sshmem_fatal("shmem_init", "out of memory for %d peers", sshmem.n_pes);

    sshmem_tx_init(sshmem.thread_level == SHMEM_THREAD_MULTIPLE, sshmem_boot_host_count());
    sshmem_ctx_default.tx = sshmem_tx_default();
    /* The user's heap is all of SHMEM_SYMMETRIC_SIZE; the library's space comes on top. */
    sshmem_heap_init(sshmem_env.symmetric_size,
                     SSHMEM_HEAP_INTERNAL_SIZE + SSHMEM_TEAM_POOL_BYTES);
    if (sshmem.region[SSHMEM_REGION_DATA].size)
        sshmem_tx_register(SSHMEM_REGION_DATA, (void *)sshmem.region[SSHMEM_REGION_DATA].base,
                           sshmem.region[SSHMEM_REGION_DATA].size);
    publish_card();
    for (int pe = 0; pe < sshmem.n_pes; pe++)
        connect_peer(pe);
    choose_atomics();
    sshmem_tx_progress_thread_init(); /* before the barrier: peers may talk to us after it */

    sshmem_barrier_init();
    sshmem_lock_init();
    sshmem_profile_init();
    sshmem_hang_init();
    sshmem_debug_check_init(); /* last: it carves internal memory only under SHMEM_DEBUG */
    sshmem.initialized = 1;
    sshmem_boot_barrier(); /* every PE is connected before anyone communicates */
    if (sshmem_env.info && sshmem.my_pe == 0)
        print_info();
}

SSHMEM_DEFINE(int, shmem_init_thread, (int requested, int *provided))
{
    if (!sshmem.initialized) {
        if (sshmem.finalized)
            sshmem_not_initialized("shmem_init_thread");
        if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
            sshmem_fatal("shmem_init_thread", "requested thread level %d is not one of "
                         "SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED, SHMEM_THREAD_SERIALIZED, "
                         "SHMEM_THREAD_MULTIPLE", requested);
        init_runtime(requested);
    }
    if (provided)
        *provided = sshmem.thread_level;
    return 0;
}

SSHMEM_DEFINE(void, shmem_init, (void))
{
    pshmem_init_thread(SHMEM_THREAD_SINGLE, NULL);
}

SSHMEM_DEFINE(void, start_pes, (int npes))
{
    pshmem_init_thread(SHMEM_THREAD_SINGLE, NULL);
}

SSHMEM_DEFINE(void, shmem_finalize, (void))
{
    if (!sshmem.initialized)
        return;
    sshmem_ctx_destroy_all(NULL); /* completes their operations while the peers listen */
    sshmem_barrier_world(1);
    sshmem_profile_finalize(); /* PE 0 writes SSHMEM_PROFILE's files */
    sshmem_tx_drain();     /* our last flags delivered while every peer still listens */
    /* Nobody tears down while a peer may still touch our memory; meanwhile serve the peers
     * still draining (their flushes may need our progress). */
    sshmem_boot_barrier_polling(sshmem.ucx_in_use ? sshmem_tx_progress : NULL);
    sshmem_tx_finalize();
    sshmem_heap_finalize();
    sshmem_boot_finalize();
    /* No symmetric region any more: a put, get or atomic after this misses every region,
     * takes the slow path and reports the call after shmem_finalize (core/error.c), at no
     * cost to the fast path. */
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        sshmem.region[r].size = 0;
    sshmem.initialized = 0;
    sshmem.finalized = 1;
}

SSHMEM_DEFINE(void, shmem_global_exit, (int status))
{
    fflush(stdout);
    fflush(stderr);
    sshmem_boot_abort(status, status ? "shmem_global_exit" : "");
}
