/* topology.c: this host's hardware topology, read once for all of oshrun.
 *
 * Two parts of oshrun need it: the binding of the PEs (binding.c) and the PMIx server, which
 * reads the topology itself in PMIx_server_init unless it is given one (pmix_host.c). Its own
 * reading takes the I/O devices too: reading every PCI device's configuration space and
 * loading hwloc's plugins was a visible part of a small job's launch, for data nothing of a
 * one-host job uses. So one reading, of the cores only, serves both. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>

#include "topology.h"

static hwloc_topology_t topology;
static int tried;

/* hwloc's plugins read I/O devices (and the XML one imports topologies): with I/O filtered
 * out they find nothing, but loading them, libxml2, ICU, OpenCL and X11 with them, still
 * costs every launch. hwloc reads the variable once, when the first topology is made;
 * the PEs do not get it. A user's HWLOC_PLUGINS_BLACKLIST, or plugin choice, stays. */
#define UNUSED_PLUGINS "hwloc_pci,hwloc_xml_libxml,hwloc_opencl,hwloc_gl,hwloc_cuda," \
                       "hwloc_nvml,hwloc_rsmi,hwloc_levelzero"

static int skip_plugins(void)
{
    if (getenv("HWLOC_PLUGINS_BLACKLIST") || getenv("HWLOC_COMPONENTS"))
        return 0;
    return setenv("HWLOC_PLUGINS_BLACKLIST", UNUSED_PLUGINS, 1) == 0;
}

/* Cores are all oshrun needs: skip caches, I/O and the rest. The machine, NUMA nodes and
 * processing units stay (hwloc keeps them always). */
static hwloc_topology_t load(void)
{
    hwloc_topology_t t;
    int skipped = skip_plugins();
    int rc = hwloc_topology_init(&t);
    if (skipped)
        unsetenv("HWLOC_PLUGINS_BLACKLIST");
    if (rc != 0)
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
