/*
 * alltoall.c: personalized exchange. Pairwise: in step d each member writes its block for
 * member i + d straight into that member's dest, so at every step every member writes to a
 * different target; then one count of n - 1 signals. On shared memory the writes are copies
 * done by all CPUs at once.
 */
#include <string.h>

#include "coll/coll.h"
#include "core/copy.h"

#define SLOT_BLOCK (COLL_SLOT_ALGO + 0)

void coll_alltoall(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes)
{
    const size_t mine = (size_t)c->me * nbytes;
    c->stream = c->direct && sshmem_copy_streams_together((size_t)(c->n - 1) * nbytes, c->n);
    for (int d = 1; d < c->n; d++) {
        int j = coll_rel(c, d);
        coll_put_signal(c, j, dest, mine, src->addr + (size_t)j * nbytes, nbytes, SLOT_BLOCK);
    }
    if (dest->addr != src->addr)
        memmove(dest->addr + mine, src->addr + mine, nbytes);
    c->stream = 0;
    if (c->n > 1)
        coll_wait(c, SLOT_BLOCK, c->n - 1);
    coll_done(c);
}

void coll_alltoalls(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t esize)
{
    /* Block j of the source starts at element j*nelems*sst; block i of dest at i*nelems*dst. */
    const size_t sblock = nelems * (size_t)sst * esize, dblock = nelems * (size_t)dst * esize;
    for (int d = 1; d < c->n; d++) {
        int j = coll_rel(c, d);
        coll_put_strided(c, j, dest, (size_t)c->me * dblock, dst, src->addr + (size_t)j * sblock,
                         sst, nelems, esize);
        coll_signal(c, j, SLOT_BLOCK);
    }
    char *d0 = dest->addr + (size_t)c->me * dblock;
    const char *s0 = src->addr + (size_t)c->me * sblock;
    for (size_t k = 0; k < nelems; k++)
        memmove(d0 + k * (size_t)dst * esize, s0 + k * (size_t)sst * esize, esize);
    if (c->n > 1)
        coll_wait(c, SLOT_BLOCK, c->n - 1);
    coll_done(c);
}
