/* error.c: error and warning messages; a fatal error ends the whole job, not just this PE.
 * Also the checked translation of a target PE (sshmem_target_pe). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/team_math.h"

static sshmem_abort_fn abort_job;

void sshmem_set_abort(sshmem_abort_fn fn) { abort_job = fn; }

static void vreport(const char *kind, const char *call, const char *fmt, va_list ap)
{
    char msg[1024];
    int n = 0;
    if (sshmem.n_pes > 0)
        n = snprintf(msg, sizeof msg, "sshmem: %sPE %d: %s: ", kind, sshmem.my_pe, call);
    else
        n = snprintf(msg, sizeof msg, "sshmem: %s%s: ", kind, call);
    if (n < 0 || n >= (int)sizeof msg)
        n = 0;
    vsnprintf(msg + n, sizeof msg - n, fmt, ap);
    /* One write so that lines of different PEs do not interleave. */
    size_t len = 0;
    while (msg[len])
        len++;
    if (len < sizeof msg - 1)
        msg[len++] = '\n';
    ssize_t w = write(STDERR_FILENO, msg, len);
    (void)w;
}

/* Report, then end the whole job (or only this process before shmem_init has a launcher). */
SSHMEM_NORETURN static void end_job(const char *call, const char *fmt, va_list ap)
{
    vreport("", call, fmt, ap);
    if (abort_job)
        abort_job(1, "fatal error (see the message above)");
    fflush(stdout);
    fflush(stderr);
    _exit(1);
}

void sshmem_fatal(const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    end_job(call, fmt, ap);
}

#define PEER_LOSS_GRACE_NS 500000000L

void sshmem_fatal_peer_lost(const char *call, const char *fmt, ...)
{
    struct timespec grace = {0, PEER_LOSS_GRACE_NS};
    nanosleep(&grace, NULL);
    va_list ap;
    va_start(ap, fmt);
    end_job(call, fmt, ap);
}

void sshmem_warn(const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport("warning: ", call, fmt, ap);
    va_end(ap);
}

void sshmem_bad_pe(const char *call, int pe)
{
    if (!sshmem.initialized)
        sshmem_not_initialized(call);
    sshmem_fatal(call, "PE number %d is out of range: this job has %d PEs, numbered 0 to %d. "
                 "Check the pe argument (shmem_n_pes() gives the count).",
                 pe, sshmem.n_pes, sshmem.n_pes - 1);
}

void sshmem_not_symmetric(const char *call, const void *addr, size_t len)
{
    char heap[32];
    const sshmem_region_info_t *h = &sshmem.region[SSHMEM_REGION_HEAP];
    const sshmem_region_info_t *d = &sshmem.region[SSHMEM_REGION_DATA];
    size_t off;
    if (!sshmem.initialized)
        sshmem_not_initialized(call);
    if ((uintptr_t)addr - h->base < h->size)
        sshmem_fatal(call, "the remote range %p..+%zu runs past the end of the symmetric heap "
                     "(%s, ends at %p). Check the element count, or raise SHMEM_SYMMETRIC_SIZE.",
                     addr, len, sshmem_human_bytes(h->size, heap), (void *)(h->base + h->size));
    if (sshmem_region_of(addr, 1, &off) < 0)
        sshmem_fatal(call, "address %p is not symmetric: it is neither in the symmetric heap "
                     "(%p..%p) nor a global/static variable (%p..%p). Allocate remote buffers "
                     "with shmem_malloc or declare them global or static; stack and malloc "
                     "memory cannot be the remote side of a put, get or atomic.",
                     addr, (void *)h->base, (void *)(h->base + h->size), (void *)d->base,
                     (void *)(d->base + d->size));
    sshmem_fatal(call, "the remote range %p..+%zu runs past the end of the global data "
                 "segment. Check the element count.", addr, len);
}

void sshmem_not_initialized(const char *call)
{
    if (sshmem.finalized)
        fprintf(stderr, "sshmem: PE %d: %s called after shmem_finalize. Once shmem_finalize "
                "has returned, only the query routines (shmem_query_initialized, "
                "shmem_query_finalized, shmem_info_get_version, ...) may be called: move the "
                "call before shmem_finalize.\n", sshmem.my_pe, call);
    else
        fprintf(stderr, "sshmem: %s called before shmem_init. Call shmem_init() first, once, "
                "on every PE, and shmem_finalize() at the end.\n", call);
    fflush(stderr);
    _exit(1);
}

const char *sshmem_human_bytes(size_t n, char buf[32])
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    double v = (double)n;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    if (u == 0 || v == (double)(size_t)v)
        snprintf(buf, 32, "%zu %s", (size_t)v, unit[u]);
    else
        snprintf(buf, 32, "%.1f %s", v, unit[u]);
    return buf;
}

/* The slow side of sshmem_target_pe (error.h): a team context's target numbered within its
 * team, or SHMEM_CTX_INVALID. Here, with the PE checks, because RMA and atomics, which sit
 * below the teams and contexts, translate through it. */
int sshmem_ctx_world_pe(const struct sshmem_ctx *ctx, int pe, const char *call)
{
    if (SSHMEM_UNLIKELY(!ctx))
        sshmem_fatal(call, "ctx is SHMEM_CTX_INVALID; pass a context from shmem_ctx_create, "
                     "shmem_team_create_ctx or SHMEM_CTX_DEFAULT");
    const sshmem_triplet_t *t = ctx->team_pes;
    if (!t) {
        sshmem_check_pe(pe, call);
        return pe;
    }
    if (SSHMEM_UNLIKELY((unsigned)pe >= (unsigned)t->size))
        sshmem_fatal(call, "PE %d is not in the context's team (it has %d PEs: 0..%d). A "
                     "context from shmem_team_create_ctx numbers PEs within its team; "
                     "translate world numbers with shmem_team_translate_pe", pe, t->size,
                     t->size - 1);
    return t->start + pe * t->stride;
}
