/*
 * wait_policy.c: how long a wait spins before it gives the CPU away.
 *
 * Every wait of sshmem (wait_until and locks in src/sync, collectives in src/coll, UCX
 * requests in src/transport) polls, and after sshmem.wait_spin polls yields the CPU between
 * polls. When this host runs more PEs of the job than it has CPUs, the PE we wait for is
 * usually not running, and every poll before the yield burns the time slice it needs: the
 * waits then yield at once (a barrier of twice as many PEs as cores got five times faster).
 * An explicit SSHMEM_SPIN always wins.
 *
 * A poll whose UCX progress moved messages does not yield (sync/wait.h, the transport's
 * backoff): the transfer under way goes on while this PE has the CPU. Over tcp at 4 PEs on 2
 * cores, a wait that yielded after every poll made 13 times as many sched_yield calls per
 * byte as Open MPI (which yields only when its progress found nothing); not yielding then
 * made a small allreduce a third faster.
 */
#include <stdlib.h>
#include <unistd.h>

#include "core/env.h"
#include "core/sshmem.h"

void sshmem_wait_policy_init(void)
{
    /* PEs on this host, virtual nodes (SSHMEM_PES_PER_NODE) included: they share its CPUs */
    int local = 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const int per_host = sshmem.node_ids_per_host, my_host = sshmem.my_node / per_host;
    for (int pe = 0; pe < sshmem.n_pes; pe++)
        local += sshmem_node_of(pe) / per_host == my_host;
    const char *set = getenv("SSHMEM_SPIN");
    sshmem.host_pes = local;
    sshmem.host_crowded = cpus >= 1 && local > cpus;
    sshmem.wait_spin = (set && *set) || !sshmem.host_crowded ? sshmem_env.spin : 0;
}
