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

/* dest = op over the members of src, count elements each (dest == src allowed): x0 op x1 op ...
 * op x(n-1). A non-commutative op (op->commute == 0) runs only on algorithms that keep that
 * order; all do (algo.c says which may not). */
void coll_reduce(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                 const coll_op_t *op);
/* The same where only member root needs the result: dest (symmetric) is complete on root, and
 * may hold only parts elsewhere (shmrs copies the slices to root only; where reduce-scatter fits
 * the landing in one piece, a binomial gather to root replaces its allgather). */
void coll_reduce_to(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
                    const coll_op_t *op, int root);

/* Where this call's message-passing reductions and scans receive, each round in a place of its
 * own (reduce.c); returns its bytes. */
size_t coll_round_landing(const coll_t *c, size_t need, coll_buf_t *land);

/* Allreduce into dest from src, memory only this PE sees (src == dest allowed), through stage
 * (symmetric, count elements). */
void coll_reduce_private(coll_t *c, const coll_buf_t *stage, char *dest, const char *src,
                         size_t count, const coll_op_t *op);

/* A small rooted reduce on a team (reduce.c): every member writes its count elements (src: any
 * local memory) into the root's work space and leaves early (engine.h, "Early return"); the root
 * combines them into dest (local memory, may be src). Only when coll_reduce_gather_fits. */
void coll_reduce_gather(coll_t *c, char *dest, const char *src, size_t count,
                        const coll_op_t *op, int root);
/* n members' vectors of nbytes fit the root's work space (of work_bytes). */
int coll_reduce_gather_fits(int n, size_t nbytes, size_t work_bytes);

/* Member i's nbytes of src go to dest + i*nbytes on every member. */
void coll_fcollect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes);
/* The same with a different nbytes on each member: blocks concatenated in member order. */
void coll_collect(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes);
/* Where member i's block starts in member order: offs[i] (n: the end), or i * nbytes. */
static inline size_t coll_block_at(const size_t *offs, size_t nbytes, int member)
{
    return offs ? offs[member] : (size_t)member * nbytes;
}
/* Concatenation of blocks whose places every member knows (coll_block_at): member i's from its
 * src (which may be dest, the block at its start) to dest + coll_block_at(i) on every member, in
 * Bruck's ceil(log2 n) steps, or with hier over the nodes (hier_collect.c). offs NULL: fcollect. */
void coll_collect_bruck(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src,
                        const size_t *offs, size_t nbytes, int hier);

/* The places Bruck's steps run over: positions 0 .. size-1, this PE at me. first NULL:
 * position p is member p; else member first[p], holding the blocks of members first[p] ..
 * first[p+1]-1 (a node's run, hier.h). Position p's blocks start where its first member's
 * block does (coll_block_at with offs and nbytes; first[size] or size: the end). */
typedef struct coll_ring {
    int size, me;
    const int *first;
    const size_t *offs;
    size_t nbytes;
} coll_ring_t;
/* Bruck's steps over r: this PE's own blocks lie first in dest (at 0), those of the positions
 * after it follow during the steps (wrapping past the last); at the end dest holds every
 * position's in member order. Flags slot0 .. slot0 + ceil(log2 size) - 1. */
void coll_ring_bruck(coll_t *c, const coll_ring_t *r, const coll_buf_t *dest, int slot0);
/* [L | R] -> [R | L] in place, l and r bytes long (Gries and Mills' block swaps): each swap
 * puts one part in its final place. */
void coll_rotate(char *p, size_t l, size_t r);

/* Block j (nbytes) of member i's src goes to block i of member j's dest. */
void coll_alltoall(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t nbytes);
/* Bruck's ceil(log2 n) steps for a personalised exchange of small blocks of any sizes, on a team
 * not all on shared memory (alltoall.c): fewer messages than one per pair. They run in the call's
 * work space, which the caller has made the team's steps (coll_work_in_steps) and moved its own
 * data past, alike on every member. The callbacks give this member's block for each other member
 * and take the block from each; the block to itself is the caller's. */
typedef struct coll_blocks {
    /* Write the block for member j at `to` (at most coll_alltoall_bruck_room bytes, else the job
     * ends with an internal error); return its size, | COLL_BLOCK_MARKED to pass one bit on. */
    size_t (*write)(void *ctx, int member, char *to);
    /* The block from member i: bytes at from (in the work space, until the call ends), marked. */
    void (*take)(void *ctx, int member, const char *from, size_t bytes);
    void *ctx;
} coll_blocks_t;
#define COLL_BLOCK_MARKED (UINT32_C(1) << 31)
#define COLL_BRUCK_MIN 4        /* at 2 and 3 members pairwise sends as few messages */
#define COLL_BRUCK_FIRST_SLOT 4 /* its steps signal from COLL_SLOT_ALGO + 4 on: 0 .. 3 are the
                                 * caller's */
/* The largest block the steps take in this call's work space, 0 when they do not apply (the
 * same answer on every member of a team). */
size_t coll_alltoall_bruck_room(const coll_t *c);
void coll_alltoall_bruck(coll_t *c, const coll_blocks_t *b);
/* The strided form: nelems elements of esize per member, strides in elements. */
void coll_alltoalls(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, ptrdiff_t dst,
                    ptrdiff_t sst, size_t nelems, size_t esize);

/* What member i's dest of a scan gets: x0 op ... op xi (inclusive), or x0 op ... op x(i-1)
 * (exclusive), where member 0 gets zeros (OpenSHMEM's sum_exscan) or keeps its dest as it
 * was (MPI_Exscan: an operator may have no identity). */
enum coll_scan_kind { COLL_SCAN_INCLUSIVE, COLL_SCAN_EXCLUSIVE, COLL_SCAN_EXCLUSIVE_KEEP };
/* Prefix reductions over the members in order (any operator: the order is kept). */
void coll_scan(coll_t *c, const coll_buf_t *dest, const coll_buf_t *src, size_t count,
               const coll_op_t *op, enum coll_scan_kind kind);

#endif
