/*
 * team_ctx.c: contexts on teams. shmem_team_create_ctx makes a context associated with a
 * team (OpenSHMEM 1.5+: a local call, no other PE takes part) through the contexts layer
 * (src/team/ctx.h); shmem_team_destroy takes the team's remaining contexts along.
 */
#include <shmem.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "team/ctx.h"
#include "team/team.h"

SSHMEM_DEFINE(int, shmem_team_create_ctx, (shmem_team_t team, long options, shmem_ctx_t *ctx))
{
    static const char call[] = "shmem_team_create_ctx";
    if (SSHMEM_UNLIKELY(!ctx))
        sshmem_fatal(call, "ctx is NULL; pass the address of a shmem_ctx_t");
    if (!team) {
        *ctx = SHMEM_CTX_INVALID; /* SHMEM_TEAM_INVALID: no context, nonzero */
        return -1;
    }
    struct sshmem_team *t = sshmem_team_check(team, call);
    sshmem_ctx_check_options(options, call);
    return sshmem_ctx_create_on(t, options, ctx);
}

void sshmem_team_destroy_contexts(struct sshmem_team *team) { sshmem_ctx_destroy_all(team); }
