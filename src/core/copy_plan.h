/*
 * copy_plan.h: a data layout compiled into loops, the one way sshmem moves non-contiguous data.
 *
 * A plan describes where the data bytes of ONE element lie, relative to the element's origin,
 * as pieces in type-map order. A piece is a contiguous run of `run` bytes repeated by up to
 * COPY_PLAN_MAX_DEPTH nested loops of constant stride (outermost first). So a vector of
 * doubles is one piece: run 8 (or blocklength * 8), one loop (count, stride), however long it
 * is; a matrix column of a column block is two loops. Consecutive elements of a count lie
 * `extent` bytes apart (the outermost loop the movers add themselves).
 *
 * Who makes plans: shmemx_type_commit (src/mpix) compiles a datatype into one; the strided
 * RMA routines (iput/iget/ibput/ibget) describe their layout as a one-piece plan directly.
 * Who runs them: pack/unpack, the direct path of typed RMA (strided source straight to the
 * strided destination), the collectives, and the UCX staging path, which ships a plan with
 * the packed data so the target unpacks it (copy_plan_to_wire/from_wire).
 *
 * This file is pure (no runtime state): every layer may use it, and the unit tests link it
 * alone.
 */
#ifndef SSHMEM_COPY_PLAN_H
#define SSHMEM_COPY_PLAN_H

#include <stddef.h>

#define COPY_PLAN_MAX_DEPTH 4

typedef struct copy_loop {
    size_t count;     /* iterations (>= 1) */
    ptrdiff_t stride; /* bytes between iterations (may be negative) */
} copy_loop_t;

typedef struct copy_piece {
    ptrdiff_t disp; /* byte offset of the first run from the element's origin */
    size_t run;     /* bytes of each contiguous run */
    int depth;      /* number of loops around the run, 0..COPY_PLAN_MAX_DEPTH */
    copy_loop_t loop[COPY_PLAN_MAX_DEPTH]; /* outermost first */
} copy_piece_t;

typedef struct copy_plan {
    size_t npieces;
    copy_piece_t *pieces; /* in type-map order */
    size_t bytes;         /* data bytes of one element (the sum over the pieces) */
    ptrdiff_t extent;     /* bytes from one element's origin to the next one's */
    int contiguous;       /* count elements are one run of count * bytes at pieces[0].disp */
} copy_plan_t;

/* Data bytes of count elements. */
static inline size_t copy_plan_bytes(const copy_plan_t *p, size_t count) { return count * p->bytes; }
/* Data bytes of one piece (run times its loops' counts). */
size_t copy_piece_bytes(const copy_piece_t *pc);

/*
 * Making plans. A maker fills pieces and extent, then calls copy_plan_finish: it drops empty
 * pieces, gives each piece its fewest loops (no loop of one iteration; a loop stepping by its
 * run is a longer run; an outer loop stepping by the whole inner loop is a longer inner loop),
 * and sets bytes and contiguous. copy_plan_strided makes the one-piece plan of strided RMA:
 * elements of run bytes, stride bytes apart (count elements are one strided loop).
 */
void copy_plan_finish(copy_plan_t *p);
/* Append next to pieces[0 .. *npieces) (type-map order), merging it into the last piece when
 * it continues it: a run right after a lone run grows it; a repetition of the last piece's
 * outermost loop or a shifted copy of the last piece becomes a loop. Room for one more piece
 * is the caller's. So a datatype compiler pushes its runs and a vector of vectors ends as one
 * piece of two loops. */
void copy_plan_push(copy_piece_t *pieces, size_t *npieces, const copy_piece_t *next);
void copy_plan_strided(copy_plan_t *p, copy_piece_t *piece, size_t run, ptrdiff_t stride);

/* The innermost loop of every mover, for layouts that differ on the two sides (iput/iget):
 * n runs of run bytes, the i-th from src + i * src_stride to dst + i * dst_stride. */
void copy_strided(void *dst, ptrdiff_t dst_stride, const void *src, ptrdiff_t src_stride,
                  size_t n, size_t run);

/*
 * The movers, for count elements whose element 0 starts at origin. The packed form is the
 * data bytes in type-map order without gaps. The _range forms move only the packed bytes
 * [skip, skip + len) of the whole count (so large data can go through a bounded buffer).
 */
void copy_plan_pack(const copy_plan_t *p, size_t count, const void *origin, void *out);
void copy_plan_unpack(const copy_plan_t *p, size_t count, const void *in, void *origin);
void copy_plan_pack_range(const copy_plan_t *p, size_t count, const void *origin, size_t skip,
                          size_t len, void *out);
void copy_plan_unpack_range(const copy_plan_t *p, size_t count, const void *in, size_t skip,
                            size_t len, void *origin);
/* Layout to the same layout: element data of src_origin to the same places at dst_origin,
 * without an intermediate buffer. */
void copy_plan_copy(const copy_plan_t *p, size_t count, void *dst_origin, const void *src_origin);
/* Whether a and b place the same bytes at the same offsets (the same plan, or equal ones:
 * the two sides of an iput with equal strides), so that one copy_plan_copy moves between
 * them. */
int copy_plan_same_layout(const copy_plan_t *a, const copy_plan_t *b);
/* Nothing moves: fn gets the layout offset and length of every run of count elements in
 * type-map order (for one put per run, or overlap checks). A contiguous plan gives one run. */
void copy_plan_each_run(const copy_plan_t *p, size_t count,
                        void (*fn)(ptrdiff_t off, size_t len, void *arg), void *arg);

/* The plan as bytes for another process (the UCX staging path): size, write, read back.
 * from_wire allocates nothing: pieces points into a caller's array of max_pieces. Returns the
 * bytes consumed, or 0 if the buffer does not hold a valid plan. */
size_t copy_plan_wire_size(const copy_plan_t *p);
void copy_plan_to_wire(const copy_plan_t *p, void *out);
size_t copy_plan_from_wire(const void *in, size_t len, copy_plan_t *p, copy_piece_t *pieces,
                           size_t max_pieces);

#endif
