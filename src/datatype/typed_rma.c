/*
 * typed_rma.c: shmemx_put_type / shmemx_get_type and their ctx and _nbi forms.
 *
 * The remote side has the same layout as the local one, so each data run of the type goes
 * straight from its local offset to the same offset remotely: no bounce buffer. A contiguous
 * type is one transfer. To an on-node peer the whole span is translated once and the runs are
 * plain copies. Through UCX, many short runs travel packed with the type's plan, which the
 * target runs to unpack them (staged()). Otherwise, since a blocking put needs only local
 * completion, each run is a blocking put (no flush of every outstanding operation); gets go
 * out non-blocking and a blocking get completes them all with one quiet (not a round trip per
 * run).
 */
#include <shmemx.h>

#include "core/api_defs.h"
#include "datatype/datatype.h"
#include "datatype/report.h"
#include "datatype/typed_rma.h"
#include "rma/rma.h"
#include "sync/weak.h"
#include "transport/transport.h"

typedef struct {
    shmem_ctx_t ctx;
    char *dst;
    const char *src;
    int pe;
    int blocking;
    const char *call;
} rma_walk_t;

static void put_run(ptrdiff_t off, size_t len, void *arg)
{
    rma_walk_t *w = arg;
    sshmem_put_world(w->ctx, w->dst + off, w->src + off, len, w->pe, w->blocking, w->call);
}

/* A run of the collectives' own (mpix_put_elems). */
static void own_put_run(ptrdiff_t off, size_t len, void *arg)
{
    rma_walk_t *w = arg;
    sshmem_put_own(w->ctx, w->dst + off, w->src + off, len, w->pe, w->blocking, w->call);
}

static void get_run(ptrdiff_t off, size_t len, void *arg)
{
    rma_walk_t *w = arg;
    sshmem_get_world(w->ctx, w->dst + off, w->src + off, len, w->pe, w->blocking, w->call);
}

/* Where the remote origin lies in our address space when every byte the elements touch is
 * in a region pe maps directly (on-node peers), else NULL: then the runs are plain copies. */
static char *direct_origin(const void *remote, size_t count, shmemx_datatype_t type, int pe)
{
    ptrdiff_t lo, hi;
    size_t off;
    mpix_span(type, count, &lo, &hi);
    int r = sshmem_region_of((const char *)remote + lo, (size_t)(hi - lo), &off);
    if (r < 0 || !sshmem_peer(pe)->direct[r])
        return NULL;
    return sshmem_peer(pe)->direct[r] + off - lo;
}

/* Through UCX, many short runs travel packed: the transport ships the packed data with the
 * type's plan and the target unpacks it (src/transport/ucx_staging.c). Returns 1 when the
 * transfer went that way: the remote elements lie in a region pe is reached through UCX
 * and staging beats one transfer per run. */
static int staged(shmem_ctx_t ctx, void *dest, const void *source, size_t count,
                  shmemx_datatype_t type, int pe, int get, int blocking)
{
    ptrdiff_t lo, hi;
    size_t off;
    const char *remote = get ? source : dest;
    if (!sshmem.ucx_in_use)
        return 0;
    mpix_span(type, count, &lo, &hi);
    int r = sshmem_region_of(remote + lo, (size_t)(hi - lo), &off);
    if (r < 0 || sshmem_peer(pe)->direct[r] ||
        !sshmem_tx_staging_pays(pe, r, &type->plan, &type->plan, count))
        return 0;
    uint64_t origin = sshmem_peer(pe)->remote[r] + off - (uint64_t)lo; /* element 0, there */
    if (get)
        sshmem_tx_get_plan(ctx->tx, pe, r, origin, &type->plan, dest, &type->plan, count, blocking);
    else
        sshmem_tx_put_plan(ctx->tx, pe, r, origin, &type->plan, source, &type->plan, count);
    return 1;
}

void mpix_put_elems(shmem_ctx_t ctx, void *dest, const void *source, size_t count,
                    shmemx_datatype_t type, int pe, int blocking, const char *call)
{
    char *direct = direct_origin(dest, count, type, pe);
    if (direct) {
        mpix_copy_elems(direct, source, count, type);
        return;
    }
    if (staged(ctx, dest, source, count, type, pe, 0, blocking))
        return;
    rma_walk_t w = {ctx, dest, source, pe, blocking, call};
    copy_plan_each_run(&type->plan, count, own_put_run, &w);
}

static int typed_rma(shmem_ctx_t ctx, void *dest, const void *source, size_t count,
                     shmemx_datatype_t type, int pe, int get, int blocking, const char *call)
{
    int rc;
    if (SSHMEM_UNLIKELY(!sshmem.initialized))
        sshmem_not_initialized(call);
    if (!ctx)
        return mpix_error(SHMEMX_ERR_ARG, call, "ctx is SHMEM_CTX_INVALID; pass a context from "
                          "shmem_ctx_create or SHMEM_CTX_DEFAULT");
    if ((rc = mpix_type_check(type, call, "type", 1)) ||
        (rc = mpix_elems_check(type, count, call, "count")))
        return rc;
    pe = sshmem_target_pe(ctx, pe, call); /* a team's context numbers PEs in its team */
    if (get) /* one call of count elements, however many runs the type has */
        SSHMEM_PROFILE_COUNT(GET, pe, count * type->size);
    else
        SSHMEM_PROFILE_COUNT(PUT, pe, count * type->size);
    if (count == 0 || type->size == 0)
        return SHMEMX_SUCCESS;
    if (!dest || !source)
        return mpix_error(SHMEMX_ERR_ARG, call, "%s is NULL", !dest ? "dest" : "source");
    if (type->flags & MPIX_CONTIG) { /* one run: one transfer, blocking as asked */
        ptrdiff_t off = type->true_lb;
        if (get)
            sshmem_get_world(ctx, (char *)dest + off, (const char *)source + off,
                             count * type->size, pe, blocking, call);
        else
            sshmem_put_world(ctx, (char *)dest + off, (const char *)source + off,
                             count * type->size, pe, blocking, call);
        return SHMEMX_SUCCESS;
    }
    const int held = !get && sshmem_weak_holds(pe); /* the mode holds each run (put_run) */
    char *direct = held ? NULL : direct_origin(get ? source : dest, count, type, pe);
    if (direct) { /* on-node: a strided copy, translated once */
        mpix_copy_elems(get ? dest : direct, get ? direct : source, count, type);
        return SHMEMX_SUCCESS;
    }
    if (!held && staged(ctx, dest, source, count, type, pe, get, blocking))
        return SHMEMX_SUCCESS;
    /* A get's runs go out non-blocking and one completion follows; but the weak-ordering
     * mode would hold non-blocking gets until a quiet, so there each run is blocking. */
    rma_walk_t w = {ctx, dest, source, pe, get ? blocking && sshmem_weak_holds(pe) : blocking,
                    call};
    copy_plan_each_run(&type->plan, count, get ? get_run : put_run, &w);
    if (get && blocking && sshmem.ucx_in_use)
        sshmem_tx_quiet(ctx->tx);
    return SHMEMX_SUCCESS;
}

#define TYPED_RMA_(NAME, GET, BLOCKING)                                                          \
    SSHMEM_DEFINE(int, shmemx_##NAME, (void *dest, const void *source, size_t count,              \
                                       shmemx_datatype_t type, int pe))                          \
    {                                                                                            \
        return typed_rma(SHMEM_CTX_DEFAULT, dest, source, count, type, pe, GET, BLOCKING,        \
                         "shmemx_" #NAME);                                                       \
    }                                                                                            \
    SSHMEM_DEFINE(int, shmemx_ctx_##NAME, (shmem_ctx_t ctx, void *dest, const void *source,       \
                                           size_t count, shmemx_datatype_t type, int pe))        \
    {                                                                                            \
        return typed_rma(ctx, dest, source, count, type, pe, GET, BLOCKING,                      \
                         "shmemx_ctx_" #NAME);                                                   \
    }
TYPED_RMA_(put_type, 0, 1)
TYPED_RMA_(get_type, 1, 1)
TYPED_RMA_(put_type_nbi, 0, 0)
TYPED_RMA_(get_type_nbi, 1, 0)
