/*
 * team_coll.c: the team forms of the collectives: the size-generic front ends (see api.h)
 * and the untyped routines (shmem_broadcastmem, ...). Each call synchronizes through the
 * team's next sync area.
 */
#include <shmem.h>

#include "coll/api.h"
#include "coll/coll.h"
#include "core/api_defs.h"
#include "core/debug_hooks.h"
#include "core/env.h"
#include "core/error.h"

static void setup(coll_t *c, shmem_team_t team, const char *call)
{
    coll_setup_team(c, sshmem_team_check(team, call), call);
}

int coll_team_broadcast(shmem_team_t team, void *dest, const void *source, size_t nbytes,
                        int root, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    setup(&c, team, call);
    if (SSHMEM_UNLIKELY(root < 0 || root >= c.n))
        sshmem_fatal(call, "PE_root %d is not a PE of the team: it is a team PE number from 0 "
                     "to %d", root, c.n - 1);
    coll_buf(&d, dest, nbytes, "dest", &c);
    coll_buf(&s, source, nbytes, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, root, (long long)nbytes);
    coll_broadcast(&c, &d, &s, nbytes, root, 1);
    return 0;
}

int coll_team_collect(shmem_team_t team, void *dest, const void *source, size_t nbytes,
                      const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    setup(&c, team, call);
    coll_buf(&d, dest, 0, "dest", &c);
    coll_buf(&s, source, nbytes, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, -1);
    coll_collect(&c, &d, &s, nbytes);
    return 0;
}

int coll_team_fcollect(shmem_team_t team, void *dest, const void *source, size_t nbytes,
                       const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    setup(&c, team, call);
    coll_buf(&d, dest, nbytes * (size_t)c.n, "dest", &c);
    coll_buf(&s, source, nbytes, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, (long long)nbytes);
    coll_fcollect(&c, &d, &s, nbytes);
    return 0;
}

int coll_team_alltoall(shmem_team_t team, void *dest, const void *source, size_t nbytes,
                       const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    setup(&c, team, call);
    coll_buf(&d, dest, nbytes * (size_t)c.n, "dest", &c);
    coll_buf(&s, source, nbytes * (size_t)c.n, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, (long long)nbytes);
    coll_alltoall(&c, &d, &s, nbytes);
    return 0;
}

int coll_team_alltoalls(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                        ptrdiff_t sst, size_t nelems, size_t esize, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    if (SSHMEM_UNLIKELY(dst < 1 || sst < 1))
        sshmem_fatal(call, "strides dst=%td and sst=%td must both be 1 or more (in elements)",
                     dst, sst);
    setup(&c, team, call);
    size_t span = nelems * (size_t)c.n;
    coll_buf(&d, dest, span ? ((span - 1) * (size_t)dst + 1) * esize : 0, "dest", &c);
    coll_buf(&s, source, span ? ((span - 1) * (size_t)sst + 1) * esize : 0, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, (long long)(nelems * esize));
    coll_alltoalls(&c, &d, &s, dst, sst, nelems, esize);
    return 0;
}

int coll_team_reduce(shmem_team_t team, void *dest, const void *source, size_t nreduce,
                     const coll_op_t *op, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    setup(&c, team, call);
    coll_buf(&d, dest, nreduce * op->esize, "dest", &c);
    coll_buf(&s, source, nreduce * op->esize, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, (long long)(nreduce * op->esize));
    coll_reduce(&c, &d, &s, nreduce, op);
    return 0;
}

int coll_team_scan(shmem_team_t team, void *dest, const void *source, size_t nelems,
                   const coll_op_t *op, int kind, const char *call)
{
    coll_t c;
    coll_buf_t d, s;
    setup(&c, team, call);
    coll_buf(&d, dest, nelems * op->esize, "dest", &c);
    coll_buf(&s, source, nelems * op->esize, "source", &c);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, -1, (long long)(nelems * op->esize));
    coll_scan(&c, &d, &s, nelems, op, (enum coll_scan_kind)kind);
    return 0;
}

/* ------------------------------------------------------------------ untyped routines */

SSHMEM_DEFINE(int, shmem_broadcastmem,
              (shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root))
{
    return coll_team_broadcast(team, dest, source, nelems, PE_root, "shmem_broadcastmem");
}

SSHMEM_DEFINE(int, shmem_collectmem,
              (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    return coll_team_collect(team, dest, source, nelems, "shmem_collectmem");
}

SSHMEM_DEFINE(int, shmem_fcollectmem,
              (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    return coll_team_fcollect(team, dest, source, nelems, "shmem_fcollectmem");
}

SSHMEM_DEFINE(int, shmem_alltoallmem,
              (shmem_team_t team, void *dest, const void *source, size_t nelems))
{
    return coll_team_alltoall(team, dest, source, nelems, "shmem_alltoallmem");
}

SSHMEM_DEFINE(int, shmem_alltoallsmem,
              (shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
               size_t nelems))
{
    return coll_team_alltoalls(team, dest, source, dst, sst, nelems, 1, "shmem_alltoallsmem");
}
