/* binding.h: where the PEs run (hwloc). */
#ifndef OSHRUN_BINDING_H
#define OSHRUN_BINDING_H
#include <sched.h>
#include <stddef.h>

#include "options.h"

struct osh_binding; /* one CPU set per core, prepared before any fork */

/* Decide the placement of np PEs for the --bind-to mode (resolving the default: core when the
 * PEs fit on the cores, none otherwise) and prepare the CPU sets. Returns NULL when the PEs
 * are not bound (by choice, or because the topology is unknown: then with a warning). */
struct osh_binding *osh_binding_plan(enum osh_bind mode, int np);

/* The CPU set PE rank is bound to, and its size in bytes for sched_setaffinity. */
const cpu_set_t *osh_binding_cpuset(const struct osh_binding *b, int rank, size_t *setsize);

void osh_binding_free(struct osh_binding *b);

#endif
