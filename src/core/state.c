/* state.c: the runtime's global state and the predefined handles. */
#include <shmem.h>

#include "core/sshmem.h"

struct sshmem_state sshmem;

/* The default context, on the world team; its transport state is filled in by shmem_init. */
SSHMEM_API struct sshmem_ctx sshmem_ctx_default = {.team = &sshmem_team_world};

/* The predefined teams (their operations arrive with the collectives). */
struct sshmem_team {
    int start, stride, size;
};
SSHMEM_API struct sshmem_team sshmem_team_world, sshmem_team_shared;
