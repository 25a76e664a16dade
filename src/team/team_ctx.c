/*
 * team_ctx.c: shmem_team_create_ctx, a context associated with a team (OpenSHMEM 1.5+:
 * a local call, no other PE takes part). The contexts themselves are made by the contexts
 * layer (src/team/ctx.h, sshmem_ctx_create_on); until that layer is part of the build, a
 * team context cannot be made and the call says so by returning nonzero.
 */
#include <shmem.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "team/team.h"
#if __has_include("team/ctx.h")
#include "team/ctx.h"
#define SSHMEM_HAVE_CTX_LAYER 1
#endif

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
#ifdef SSHMEM_HAVE_CTX_LAYER
    sshmem_ctx_check_options(options, call);
    return sshmem_ctx_create_on(t, options, ctx);
#else
    (void)t;
    (void)options;
    *ctx = SHMEM_CTX_INVALID;
    return -1;
#endif
}

/* Contexts still alive on a team that is being destroyed go with it. */
void sshmem_team_destroy_contexts(struct sshmem_team *team)
{
#ifdef SSHMEM_HAVE_CTX_LAYER
    sshmem_ctx_destroy_all(team);
#else
    (void)team;
#endif
}
