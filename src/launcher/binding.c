/* binding.c: where the PEs run. hwloc is used here, in oshrun before any fork (and in
 * topology.c, which reads the host's topology for this file and the PMIx server): it turns
 * each core into a glibc cpu_set_t, so the child applies its binding with one
 * sched_setaffinity call (fork in a threaded process leaves the child only async-signal-safe
 * calls, and hwloc is not one of them). */
#define _GNU_SOURCE
#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#include <stdlib.h>

#include "binding.h"
#include "topology.h"
#include "util.h"

struct osh_binding {
    int ncores;
    size_t setsize;    /* bytes in each set */
    cpu_set_t **sets;  /* sets[c]: the PUs of core c */
};

static struct osh_binding *make_sets(hwloc_topology_t topo, int ncores)
{
    struct osh_binding *b = osh_xcalloc(1, sizeof *b);
    int last = hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(topo));
    int ncpus = last < 0 ? CPU_SETSIZE : last + 1;
    b->ncores = ncores;
    b->setsize = CPU_ALLOC_SIZE(ncpus);
    b->sets = osh_xcalloc((size_t)ncores, sizeof *b->sets);
    for (int c = 0; c < ncores; c++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)c);
        b->sets[c] = CPU_ALLOC(ncpus);
        if (!b->sets[c] || !core ||
            hwloc_cpuset_to_glibc_sched_affinity(topo, core->cpuset, b->sets[c],
                                                 b->setsize) != 0) {
            b->ncores = c; /* keep what was built so far for freeing */
            osh_binding_free(b);
            return NULL;
        }
    }
    return b;
}

struct osh_binding *osh_binding_plan(enum osh_bind mode, int np)
{
    if (mode == OSH_BIND_NONE)
        return NULL;
    hwloc_topology_t topo = osh_topology();
    if (!topo) {
        osh_msg("warning: cannot read the topology of this host (hwloc); the PEs are not bound");
        return NULL;
    }
    /* Only the cores oshrun may use (the topology drops those a cgroup or taskset forbids). */
    int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    struct osh_binding *b = NULL;
    if (ncores <= 0)
        osh_msg("warning: hwloc finds no cores on this host; the PEs are not bound");
    else if (mode == OSH_BIND_CORE || np <= ncores) /* oversubscribed: binding would only hurt */
        b = make_sets(topo, ncores);
    return b;
}

const cpu_set_t *osh_binding_cpuset(const struct osh_binding *b, int rank, size_t *setsize)
{
    if (!b)
        return NULL;
    *setsize = b->setsize;
    return b->sets[rank % b->ncores];
}

void osh_binding_free(struct osh_binding *b)
{
    if (!b)
        return;
    for (int c = 0; c < b->ncores; c++)
        CPU_FREE(b->sets[c]);
    free(b->sets);
    free(b);
}
