/*
 * coll.h: the collectives of the engine, each on a described call (engine.h). The API front
 * ends (active_set.c, team_coll.c, the *_typed.c files) check arguments, fill a coll_t and
 * call these. Buffers are symmetric (coll_buf); sizes are in bytes unless said otherwise.
 */
#ifndef SSHMEM_COLL_COLL_H
#define SSHMEM_COLL_COLL_H

#include "coll/engine.h"
#include "coll/ops.h"

/* Return once every member has entered (no memory ordering beyond that; callers quiet). */
void coll_barrier(coll_t *c);

/* Copy nbytes of src on member root to dest on the members; on root itself only when
 * root_too (team form: yes; active-set form: the root's dest is left alone). */
void coll_broadcast(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes,
                    int root, int root_too);

/* dest = op over the members of src, count elements each (dest == src allowed). */
void coll_reduce(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                 const coll_op_t *op);

/* Member i's nbytes of src go to dest + i*nbytes on every member. */
void coll_fcollect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes);
/* The same with a different nbytes on each member: blocks concatenated in member order. */
void coll_collect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes);

/* Block j (nbytes) of member i's src goes to block i of member j's dest. */
void coll_alltoall(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes);
/* The strided form: nelems elements of esize per member, strides in elements. */
void coll_alltoalls(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t esize);

/* Prefix sums over the members in order: inclusive, or exclusive (member 0 gets zeros). */
void coll_scan(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
               const coll_op_t *op, int exclusive);

#endif
