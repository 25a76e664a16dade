/* topology.h: this host's hardware topology (hwloc), read once for all of oshrun. */
#ifndef OSHRUN_TOPOLOGY_H
#define OSHRUN_TOPOLOGY_H
#include <hwloc.h>

/* The topology, read on the first call: cores and the processing units in them, nothing else
 * (no caches, no I/O devices). NULL when hwloc cannot read it. Before any fork or thread. */
hwloc_topology_t osh_topology(void);

/* Release it, after the last user (the PMIx server) is gone. */
void osh_topology_free(void);

#endif
