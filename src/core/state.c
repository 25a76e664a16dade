/* state.c: the runtime's global state and the predefined handles. */
#include <shmem.h>

#include "core/debug_hooks.h"
#include "core/sshmem.h"

struct sshmem_state sshmem;

/* The default context; shmem_init fills in its transport state and its team (the world team,
 * which src/team holds, above this layer). */
SSHMEM_API struct sshmem_ctx sshmem_ctx_default;

/* The predefined teams (SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED) live in src/team/team.c. */

/* The SHMEM_DEBUG checks' entry points: filled in by src/watch/debug_check.c at start-up. */
struct sshmem_debug_hooks sshmem_debug_hooks;
