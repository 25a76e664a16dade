/*
 * ctx.c: communication contexts: shmem_ctx_create, shmem_ctx_destroy, shmem_ctx_get_team, and
 * the session hints.
 *
 * A context is { transport state, options, team }. Its transport state is a UCX worker of its
 * own (src/transport/ucx_worker.c), so shmem_ctx_quiet on it completes its operations only.
 * The direct on-node path ignores contexts: a store there is complete at quiet's memory fence.
 * So when no peer is reached through UCX (sshmem.ucx_in_use == 0) a context gets no worker of
 * its own: it would never carry an operation.
 *
 * Options: SHMEM_CTX_PRIVATE (only the creating thread uses it) and SHMEM_CTX_SERIALIZED (one
 * thread at a time) let its worker run without a lock even under SHMEM_THREAD_MULTIPLE; a
 * context without either, under SHMEM_THREAD_MULTIPLE, is locked around every UCX call.
 * SHMEM_CTX_NOSTORE only relaxes what quiet must do; it is accepted and quiet stays complete.
 *
 * Live contexts are kept in a list so that shmem_finalize can complete and release those the
 * program did not destroy, and so that destroying something else is a clear error.
 */
#include <pthread.h>
#include <stdlib.h>

#include "core/api_defs.h"
#include "core/env.h"
#include "core/error.h"
#include "team/ctx.h"
#include "team/team.h"
#include "transport/transport.h"

void pshmem_ctx_quiet(shmem_ctx_t ctx);

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static shmem_ctx_t *live;  /* contexts created and not yet destroyed */
static size_t n_live, cap_live;

static int remember(shmem_ctx_t ctx)
{
    int rc = 0;
    pthread_mutex_lock(&live_lock);
    if (n_live == cap_live) {
        size_t cap = cap_live ? 2 * cap_live : 16;
        shmem_ctx_t *grown = realloc(live, cap * sizeof *live);
        if (grown) {
            live = grown;
            cap_live = cap;
        }
    }
    if (n_live < cap_live)
        live[n_live++] = ctx;
    else
        rc = -1;
    pthread_mutex_unlock(&live_lock);
    return rc;
}

/* Take ctx off the list; 0 if it was not on it. */
static int forget(shmem_ctx_t ctx)
{
    int found = 0;
    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < n_live; i++)
        if (live[i] == ctx) {
            live[i] = live[--n_live];
            found = 1;
            break;
        }
    pthread_mutex_unlock(&live_lock);
    return found;
}

void sshmem_ctx_check_options(long options, const char *call)
{
    const long known = SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE;
    if (SSHMEM_UNLIKELY(options & ~known))
        sshmem_fatal(call, "options %#lx has unknown bits %#lx; pass 0 or a bitwise OR of "
                     "SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE and SHMEM_CTX_NOSTORE",
                     (unsigned long)options, (unsigned long)(options & ~known));
}

int sshmem_ctx_create_on(struct sshmem_team *team, long options, shmem_ctx_t *ctx)
{
    struct sshmem_ctx *c = malloc(sizeof *c);
    if (!c)
        return 1;
    /* Several threads may use it at once only under SHMEM_THREAD_MULTIPLE without the two
     * options that promise otherwise. */
    int private_to_thread = (options & SHMEM_CTX_PRIVATE) != 0;
    int shared = sshmem.thread_level == SHMEM_THREAD_MULTIPLE && !private_to_thread &&
                 !(options & SHMEM_CTX_SERIALIZED);
    if (sshmem_env.weak) /* the weak-ordering mode's thread delivers through it too */
        shared = 1, private_to_thread = 0;
    c->tx = sshmem.ucx_in_use ? sshmem_tx_create(shared, private_to_thread)
                              : sshmem_tx_default();
    c->options = options;
    c->team = team;
    c->team_pes = team == &sshmem_team_world ? NULL : &team->pes;
    if (!c->tx || remember(c) != 0) {
        if (c->tx && c->tx != sshmem_tx_default())
            sshmem_tx_destroy(c->tx);
        free(c);
        return 1;
    }
    *ctx = c;
    return 0;
}

static void release(shmem_ctx_t ctx)
{
    pshmem_ctx_quiet(ctx);
    if (ctx->tx != sshmem_tx_default())
        sshmem_tx_destroy(ctx->tx);
    free(ctx);
}

void sshmem_ctx_destroy(shmem_ctx_t ctx, const char *call)
{
    if (ctx == SHMEM_CTX_INVALID)
        return;
    if (ctx == SHMEM_CTX_DEFAULT)
        sshmem_fatal(call, "SHMEM_CTX_DEFAULT cannot be destroyed; pass a context from "
                     "shmem_ctx_create or shmem_team_create_ctx");
    if (!forget(ctx))
        sshmem_fatal(call, "ctx %p is not a live context: destroyed already, or not from "
                     "shmem_ctx_create / shmem_team_create_ctx", (void *)ctx);
    release(ctx);
}

void sshmem_ctx_destroy_all(struct sshmem_team *team)
{
    for (;;) {
        shmem_ctx_t victim = NULL;
        pthread_mutex_lock(&live_lock);
        for (size_t i = 0; i < n_live && !victim; i++)
            if (!team || live[i]->team == team) {
                victim = live[i];
                live[i] = live[--n_live];
            }
        pthread_mutex_unlock(&live_lock);
        if (!victim)
            break;
        release(victim);
    }
    if (!team) {
        free(live);
        live = NULL;
        n_live = cap_live = 0;
    }
}

/* ------------------------------------------------------------------ the API */

SSHMEM_DEFINE(int, shmem_ctx_create, (long options, shmem_ctx_t *ctx))
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized("shmem_ctx_create");
    if (SSHMEM_UNLIKELY(!ctx))
        sshmem_fatal("shmem_ctx_create", "ctx is NULL; pass the address of a shmem_ctx_t "
                     "variable to receive the new context");
    sshmem_ctx_check_options(options, "shmem_ctx_create");
    return sshmem_ctx_create_on(SHMEM_TEAM_WORLD, options, ctx);
}

SSHMEM_DEFINE(void, shmem_ctx_destroy, (shmem_ctx_t ctx))
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized("shmem_ctx_destroy");
    sshmem_ctx_destroy(ctx, "shmem_ctx_destroy");
}

SSHMEM_DEFINE(int, shmem_ctx_get_team, (shmem_ctx_t ctx, shmem_team_t *team))
{
    if (SSHMEM_UNLIKELY(!team))
        sshmem_fatal("shmem_ctx_get_team", "team is NULL; pass the address of a shmem_team_t "
                     "variable to receive the team");
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = ctx->team;
    return 0;
}

/* Sessions are hints (batching); the specification lets an implementation ignore them, and
 * this one does: its operations are not deferred, so there is nothing to batch. */
SSHMEM_DEFINE(void, shmem_ctx_session_start,
              (shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t *config,
               long config_mask))
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized("shmem_ctx_session_start");
    if (SSHMEM_UNLIKELY(config_mask && !config))
        sshmem_fatal("shmem_ctx_session_start", "config is NULL but config_mask is %#lx; pass "
                     "a configuration or a mask of 0", (unsigned long)config_mask);
}

SSHMEM_DEFINE(void, shmem_ctx_session_stop, (shmem_ctx_t ctx))
{
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized("shmem_ctx_session_stop");
}
