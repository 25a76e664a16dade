/*
 * front.c: what every collective routine does once its form (team or active set) has set up
 * the call: locate dest and source at the sizes the kind implies, agree on the call under
 * SSHMEM_DEBUG, and run the engine's collective. No allocation, no locks: one switch for the
 * sizes and one for the engine.
 */
#include "coll/api.h"
#include "core/debug_hooks.h"
#include "core/env.h"

SSHMEM_COLD static void bad_root(const coll_t *c, int root)
{
    if (c->team)
        sshmem_fatal(c->call, "PE_root %d is not a PE of the team: it is a team PE number from "
                     "0 to %d", root, c->n - 1);
    sshmem_fatal(c->call, "PE_root %d is not a PE of the active set: it is an index into the "
                 "set, from 0 to PE_size-1 = %d", root, c->n - 1);
}

/* The bytes that span elements of esize, stride elements apart, reach over (first to last). */
static size_t strided_bytes(size_t span, ptrdiff_t stride, size_t esize)
{
    return span ? ((span - 1) * (size_t)stride + 1) * esize : 0;
}

void coll_run(coll_t *c, const coll_call_t *k)
{
    if (k->kind == COLL_SYNC || k->kind == COLL_BARRIER) {
        if (SSHMEM_UNLIKELY(sshmem_env.debug))
            sshmem_debug_agree_coll(c, -1, 0);
        coll_barrier_call(c, k->kind == COLL_BARRIER);
        return;
    }

    /* Each member's part, and what dest and source span on every member. */
    const size_t n = (size_t)c->n;
    const size_t nbytes = k->count * (k->op ? k->op->esize : k->esize);
    size_t dest_bytes = nbytes, source_bytes = nbytes;
    long long agreed = (long long)nbytes, root = -1;
    switch (k->kind) {
    case COLL_BROADCAST:
        if (SSHMEM_UNLIKELY(k->root < 0 || k->root >= c->n))
            bad_root(c, k->root);
        root = k->root;
        break;
    case COLL_COLLECT: /* the parts differ by member: dest's extent is unknown here */
        dest_bytes = 0;
        agreed = -1;
        break;
    case COLL_FCOLLECT:
        dest_bytes = nbytes * n;
        break;
    case COLL_ALLTOALL:
        dest_bytes = source_bytes = nbytes * n;
        break;
    case COLL_ALLTOALLS:
        dest_bytes = strided_bytes(k->count * n, k->dst, k->esize);
        source_bytes = strided_bytes(k->count * n, k->sst, k->esize);
        break;
    default:
        break;
    }
    coll_buf_t d, s;
    coll_buf(&d, k->dest, dest_bytes, "dest", c);
    coll_buf(&s, k->source, source_bytes, "source", c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(c, (long)root, agreed);

    switch (k->kind) {
    case COLL_BROADCAST: /* an active set's root leaves its own dest alone */
        coll_broadcast(c, &d, &s, nbytes, k->root, c->team != NULL);
        break;
    case COLL_COLLECT:
        coll_collect(c, &d, &s, nbytes);
        break;
    case COLL_FCOLLECT:
        coll_fcollect(c, &d, &s, nbytes);
        break;
    case COLL_ALLTOALL:
        coll_alltoall(c, &d, &s, nbytes);
        break;
    case COLL_ALLTOALLS:
        coll_alltoalls(c, &d, &s, k->dst, k->sst, k->count, k->esize);
        break;
    case COLL_REDUCE:
        coll_reduce(c, &d, &s, k->count, k->op);
        break;
    case COLL_SCAN:
        coll_scan(c, &d, &s, k->count, k->op, k->scan);
        break;
    default:
        sshmem_fatal(k->call, "internal error: collective kind %d", (int)k->kind);
    }
}
