/* topology.c: this host's hardware topology, read once for all of oshrun.
 *
 * Two parts of oshrun need it: the binding of the PEs (binding.c) and the PMIx server, which
 * reads the topology itself in PMIx_server_init unless it is given one (pmix_host.c). Its own
 * reading takes the I/O devices too: reading every PCI device's configuration space and
 * loading hwloc's plugins cost 10-25 ms of the launch of a 4-PE job here, for data nothing
 * of a one-host job uses. So one reading, of the cores only, serves both. */
#define _GNU_SOURCE
#include <stddef.h>

#include "topology.h"

static hwloc_topology_t topology;
static int tried;

/* Cores are all oshrun needs: skip caches, I/O and the rest. The machine, NUMA nodes and
 * processing units stay (hwloc keeps them always). */
static hwloc_topology_t load(void)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0)
        return NULL;
    hwloc_topology_set_all_types_filter(t, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(t, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (hwloc_topology_load(t) != 0) {
        hwloc_topology_destroy(t);
        return NULL;
    }
    return t;
}

hwloc_topology_t osh_topology(void)
{
    if (!tried) {
        tried = 1;
        topology = load();
    }
    return topology;
}

void osh_topology_free(void)
{
    if (topology)
        hwloc_topology_destroy(topology);
    topology = NULL;
}
