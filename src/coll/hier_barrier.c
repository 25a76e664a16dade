/*
 * hier_barrier.c: the node-aware barrier (hier.h). Members signal their leader through
 * shared memory; the leaders run a dissemination barrier among themselves (ceil(log2 nodes)
 * rounds over the network); each leader then releases its members. Only the barrier's slots
 * (0..19, engine.h) are used, since any algorithm may call coll_barrier.
 */
#include "coll/hier.h"
#include "coll/slots.h"

void coll_hier_barrier(coll_t *c)
{
    hier_map_t m;
    hier_map_init(&m, c, -1);
    hier_node_arrive(c, &m, SLOT_HIER_BARRIER_ARRIVE);
    if (hier_is_leader(&m, c))
        coll_dissemination(c, &m, SLOT_HIER_BARRIER_ROUND(0));
    hier_node_release(c, &m, SLOT_HIER_BARRIER_RELEASE);
}
