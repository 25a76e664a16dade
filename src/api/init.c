/*
 * init.c: shmem_init and shmem_finalize: the start-up sequence that ties the layers together.
 *
 *  1. read the environment table                       (core/env)
 *  2. share the global data segment                    (heap/globals; before any thread)
 *  3. connect to the launcher: rank, size, every PE's node (boot, heap/peers)
 *  4. UCX context and worker; allocate the heap        (transport, heap)
 *  5. exchange cards: bases, rkeys, worker addresses   (boot, heap/peers); a peer's card is
 *  6. read when the program first talks to it, one neighbour's now (the node's mappings)
 *  7. the progress thread, when some peer is reached through UCX   (transport)
 *  8. the library's internal symmetric space, laid out in step 4 from the PE count
 *     (api/space_layout.h): teams, locks, hang record, profile row; then a barrier
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <shmem.h>

#include "api/space_layout.h"
#include "boot/boot.h"
#include "coll/barrier.h"
#include "core/api_defs.h"
#include "core/copy.h"
#include "core/env.h"
#include "core/error.h"
#include "core/profile.h"
#include "heap/globals.h"
#include "heap/heap.h"
#include "heap/peers.h"
#include "sync/hang.h"
#include "sync/lock.h"
#include "sync/weak.h"
#include "team/ctx.h"
#include "team/team.h"
#include "transport/transport.h"
#include "watch/watch.h"

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
    if (sshmem.wait_spin)
        printf("waits: spin %u polls, then yield the CPU", sshmem.wait_spin);
    else
        printf("waits: yield the CPU at once");
    printf(" (this host runs %d PEs on %ld CPUs)\n", sshmem.host_pes,
           sysconf(_SC_NPROCESSORS_ONLN));
    printf("UCX workarounds: %s\n", sshmem_tx_workarounds());
    printf("internal symmetric space per PE, on top of SHMEM_SYMMETRIC_SIZE: ");
    sshmem_space_print(stdout, sshmem_heap_space_layout());
    sshmem_env_print(stdout);
    fflush(stdout);
}

/* The library's internal symmetric space for this job (api/space_layout.h): its size
 * follows the PE count and the settings, the same on every PE. */
static void plan_space(sshmem_space_layout_t *space)
{
    sshmem_space_settings_t s = sshmem_space_settings(sshmem.n_pes, &sshmem_env);
    char why[200];
    if (sshmem_space_settings_check(&s, why, sizeof why) != 0)
        sshmem_fatal("shmem_init", "%s", why);
    sshmem_space_plan(&s, space);
}

static void init_runtime(int requested)
{
    sshmem_set_abort(sshmem_boot_abort); /* a fatal error ends every PE (core/error.h) */
    sshmem_env_load();
    share_globals();
    sshmem_boot_init(&sshmem.my_pe, &sshmem.n_pes, &sshmem.singleton);
    sshmem_copy_init(); /* when direct-path copies stream (core/copy.h) */
    sshmem.thread_level = requested; /* every level is provided as requested */
    sshmem.local_ucx = sshmem_env.local;
    sshmem_peers_init(); /* node ids, atomics */

    /* The weak-ordering mode's thread delivers through the workers too: they are shared. */
    sshmem_tx_init(sshmem.thread_level == SHMEM_THREAD_MULTIPLE || sshmem_env.weak,
                   sshmem_boot_host_count());
    sshmem_ctx_default.tx = sshmem_tx_default();
    sshmem_ctx_default.team = &sshmem_team_world;
    /* The user's heap is all of SHMEM_SYMMETRIC_SIZE; the library's space comes on top. */
    sshmem_space_layout_t space;
    plan_space(&space);
    sshmem_heap_init(sshmem_env.symmetric_size, &space);
    if (sshmem.region[SSHMEM_REGION_DATA].size)
        sshmem_tx_register(SSHMEM_REGION_DATA, (void *)sshmem.region[SSHMEM_REGION_DATA].base,
                           sshmem.region[SSHMEM_REGION_DATA].size);
    /* Peers are learnt on first use from here on. */
    sshmem_peers_exchange(globals_fd, sshmem_heap_fd());
    sshmem_wait_policy_init(); /* every node id is known now, also those from the cards */
    sshmem_tx_progress_thread_init(); /* before the barrier: peers may talk to us after it */
    sshmem_weak_init();

    sshmem_barrier_init();
    sshmem_lock_init();
    sshmem_profile_init();
    sshmem_hang_init();
    sshmem_debug_check_init(); /* its flags and mailboxes have bytes only under SHMEM_DEBUG */
    sshmem.initialized = 1;
    sshmem_boot_barrier(); /* every PE is connected before anyone communicates */
    sshmem_team_agree_traits(); /* the first collective: what SHMEM_TEAM_WORLD has in common */
    if (sshmem_env.info && sshmem.my_pe == 0)
        print_info();
}

/* Threads that call shmem_init at once take turns: the first starts the library, the others
 * find it started (two start-ups in one process made two UCX contexts on one heap). */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

SSHMEM_DEFINE(int, shmem_init_thread, (int requested, int *provided))
{
    pthread_mutex_lock(&init_lock);
    if (!sshmem.initialized) {
        if (sshmem.finalized)
            sshmem_not_initialized("shmem_init_thread");
        if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
            sshmem_fatal("shmem_init_thread", "requested thread level %d is not one of "
                         "SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED, SHMEM_THREAD_SERIALIZED, "
                         "SHMEM_THREAD_MULTIPLE", requested);
        init_runtime(requested);
    }
    pthread_mutex_unlock(&init_lock);
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

/* The finalize barrier's poll: serve the peers still draining. */
static void serve_peers(void) { (void)sshmem_tx_progress(); }

SSHMEM_DEFINE(void, shmem_finalize, (void))
{
    if (!sshmem.initialized)
        return;
    sshmem_boot_mark_finalized();
    sshmem_ctx_destroy_all(NULL); /* completes their operations while the peers listen */
    sshmem_barrier_world(1);
    sshmem_profile_finalize(); /* PE 0 writes SSHMEM_PROFILE's files */
    sshmem_weak_finalize(); /* nothing held: the barrier delivered the default context's */
    sshmem_tx_drain();     /* our last flags delivered while every peer still listens */
    /* Nobody tears down while a peer may still touch our memory; meanwhile serve the peers
     * still draining (their flushes may need our progress). */
    sshmem_boot_barrier_polling(sshmem.ucx_in_use ? serve_peers : NULL);
    /* Leave the job before the teardown: libpmix's PMIx_Finalize waits at most 2 s for the
     * launcher's answer, so every PE asks while the others are blocked in the fence or in
     * PMIx_Finalize too, not while hundreds tear down UCX and the heap beside the server.
     * (oshrun also has this PE's mark, above.) A fatal error in the teardown still ends this
     * PE with a failing status. */
    sshmem_boot_finalize();
    sshmem_tx_finalize();
    sshmem_heap_finalize();
    /* No symmetric region any more: a put, get or atomic after this misses every region,
     * takes the slow path and reports the call after shmem_finalize (core/error.c), at no
     * cost to the fast path. */
    for (int r = 0; r < SSHMEM_NUM_REGIONS; r++)
        sshmem.region[r].size = 0;
    sshmem.fast_heap.size = 0;
    sshmem.initialized = 0;
    sshmem.finalized = 1;
}

SSHMEM_DEFINE(void, shmem_global_exit, (int status))
{
    fflush(stdout);
    fflush(stderr);
    sshmem_boot_abort(status, status ? "shmem_global_exit" : "");
}
