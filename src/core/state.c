/* state.c: the runtime's global state and the predefined handles. */
#include <shmem.h>

#include "core/debug_hooks.h"
#include "core/error.h"
#include "core/sshmem.h"

struct sshmem_state sshmem;

/* The default context; shmem_init fills in its transport state and its team (the world team,
 * which src/team holds, above this layer). */
SSHMEM_API struct sshmem_ctx sshmem_ctx_default;

/* The predefined teams (SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED) live in src/team/team.c. */

/* The SHMEM_DEBUG checks' entry points: filled in by src/watch/debug_check.c at start-up. */
struct sshmem_debug_hooks sshmem_debug_hooks;

/* The learner of peers' cards, registered by heap/peers.c at start-up (see core/sshmem.h). */
static const sshmem_peer_t *(*peer_learner)(int pe);

void sshmem_set_peer_learner(const sshmem_peer_t *(*learn)(int pe)) { peer_learner = learn; }

const sshmem_peer_t *sshmem_peer_learn(int pe)
{
    if (!peer_learner)
        sshmem_fatal("sshmem", "PE %d was addressed before shmem_init", pe);
    return peer_learner(pe);
}
