/*
 * error.h: how sshmem reports mistakes. Every message names the PE, the call and the fix:
 *   "sshmem: PE 3: shmem_malloc(1 GiB): symmetric heap has 12 MiB free of 256 MiB; raise SHMEM_SYMMETRIC_SIZE"
 */
#ifndef SSHMEM_ERROR_H
#define SSHMEM_ERROR_H

#include "core/sshmem.h"

/* How a fatal error ends the whole job: the launcher's abort, registered at start-up by
 * shmem_init (api/init.c sets boot's). Until then, or without one, only this process ends.
 * A hook rather than a call keeps this file below the layers that report errors through it. */
typedef void (*sshmem_abort_fn)(int status, const char *msg);
void sshmem_set_abort(sshmem_abort_fn fn);

/* Print the message and end the whole job (every PE) with status 1. */
SSHMEM_NORETURN SSHMEM_COLD void sshmem_fatal(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* sshmem_fatal for a failure that a dead peer causes (its shared memory gone, its socket
 * reset): the launcher learns of the death at about the same moment and ends the job with
 * the dead PE's own status and name. Aborting at once would race it and could make a
 * consequence look like the cause (test/pe/fault-test.sh: a PE killed inside shmem_init
 * reported as another PE's failure, status 1). So this waits a moment first; a failure that
 * is this PE's own still ends the job, a moment later. */
SSHMEM_NORETURN SSHMEM_COLD void sshmem_fatal_peer_lost(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print the message and carry on. */
SSHMEM_COLD void sshmem_warn(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The common argument errors of the API, with their fix in the message. */
SSHMEM_NORETURN SSHMEM_COLD void sshmem_bad_pe(const char *call, int pe);
SSHMEM_NORETURN SSHMEM_COLD void sshmem_not_symmetric(const char *call, const void *addr, size_t len);
SSHMEM_NORETURN SSHMEM_COLD void sshmem_not_initialized(const char *call);

/* PE numbers are checked on every call: one compare. */
static inline void sshmem_check_pe(int pe, const char *call)
{
    if (SSHMEM_UNLIKELY((unsigned)pe >= (unsigned)sshmem.n_pes))
        sshmem_bad_pe(call, pe);
}

/* The world number of target PE pe as ctx numbers PEs, checked. Contexts of a team other
 * than SHMEM_TEAM_WORLD number PEs within their team (sshmem_ctx_world_pe translates and
 * checks); every other context uses world numbers. For the default context this is one
 * load and two compares. A SHMEM_CTX_INVALID ctx is reported there too. */
int sshmem_ctx_world_pe(const struct sshmem_ctx *ctx, int pe, const char *call);
static inline int sshmem_target_pe(const struct sshmem_ctx *ctx, int pe, const char *call)
{
    if (SSHMEM_UNLIKELY(!ctx || ctx->team_pes))
        return sshmem_ctx_world_pe(ctx, pe, call);
    sshmem_check_pe(pe, call);
    return pe;
}

/* Format a byte count for people: "256 MiB", "12 KiB", "100 B". */
const char *sshmem_human_bytes(size_t n, char buf[32]);

#endif
