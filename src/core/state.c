/* state.c: the runtime's global state and the predefined handles. */
#include <shmem.h>

#include "core/sshmem.h"

struct sshmem_state sshmem;

/* The default context, on the world team; its transport state is filled in by shmem_init. */
SSHMEM_API struct sshmem_ctx sshmem_ctx_default = {.team = &sshmem_team_world};

/* The predefined teams (SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED) live in src/team/team.c. */
