/*
 * datatype.c: the datatype constructors, commit, free and the queries (MPI_Type_*).
 *
 * Every constructor is "place copies of old types at byte origins": a builder collects the
 * copies' segments (merging those that line up) and their bounds; see datatype.h for the
 * representation and the MPI bound rules.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "mpix/datatype.h"
#include "mpix/report.h"

static const char derived_name[] = "a derived datatype";

typedef struct builder {
    mpix_seg_t *segs;
    size_t nsegs, cap;
    size_t size, align;
    int kind; /* -2: no data yet; -1: mixed */
    int failed;
    int have_data_lb, have_data_ub, have_sticky_lb, have_sticky_ub, have_true;
    ptrdiff_t data_lb, data_ub, sticky_lb, sticky_ub, true_lb, true_ub;
} builder_t;

/* ------------------------------------------------------------------ checks */
const char *mpix_type_name(shmemx_datatype_t t)
{
    return t && t->magic == MPIX_TYPE_MAGIC && t->name ? t->name : derived_name;
}

int mpix_type_check(shmemx_datatype_t t, const char *call, const char *arg, int committed)
{
    if (!t)
        return mpix_error(SHMEMX_ERR_TYPE, call, "%s is SHMEMX_DATATYPE_NULL; pass a predefined "
                          "type such as SHMEMX_INT or one made by a shmemx_type_ constructor",
                          arg);
    if (t->magic != MPIX_TYPE_MAGIC)
        return mpix_error(SHMEMX_ERR_TYPE, call, "%s (%p) is not a valid datatype: it was freed "
                          "with shmemx_type_free or never created", arg, (void *)t);
    if (committed && !(t->flags & MPIX_COMMITTED))
        return mpix_error(SHMEMX_ERR_TYPE, call, "%s is not committed; call "
                          "shmemx_type_commit(&type) before using it for data", arg);
    return SHMEMX_SUCCESS;
}

int mpix_count_check(size_t count, const char *call, const char *arg)
{
    if (count > (size_t)PTRDIFF_MAX)
        return mpix_error(SHMEMX_ERR_COUNT, call, "%s is %zu, which cannot be real: was a "
                          "negative number passed as a size_t?", arg, count);
    return SHMEMX_SUCCESS;
}

static int check_count(int count, const char *call, const char *arg)
{
    if (count < 0)
        return mpix_error(SHMEMX_ERR_COUNT, call, "%s is %d; it must be 0 or more", arg, count);
    return SHMEMX_SUCCESS;
}

static int check_ptr(const void *p, const char *call, const char *arg)
{
    if (!p)
        return mpix_error(SHMEMX_ERR_ARG, call, "%s is NULL", arg);
    return SHMEMX_SUCCESS;
}

/* ------------------------------------------------------------------ the builder */
static void normalize(mpix_seg_t *s)
{
    size_t run = s->n * mpix_kinds[s->kind].extent;
    if (s->reps > 1 && s->stride == (ptrdiff_t)run) {
        s->n *= s->reps;
        s->reps = 1;
    }
    if (s->reps == 1)
        s->stride = 0;
}

/* Append a segment, merging it into the last one when it extends it or repeats it. */
static void seg_push(builder_t *b, mpix_seg_t s)
{
    if (s.n == 0 || s.reps == 0 || b->failed)
        return;
    normalize(&s);
    b->kind = b->kind == -2 || b->kind == s.kind ? s.kind : -1;
    if (b->nsegs && s.reps == 1) {
        mpix_seg_t *l = &b->segs[b->nsegs - 1];
        if (l->kind == s.kind) {
            if (l->reps == 1 && s.disp == l->disp + (ptrdiff_t)(l->n * mpix_kinds[s.kind].extent)) {
                l->n += s.n;
                return;
            }
            if (l->n == s.n && l->reps == 1) {
                l->stride = s.disp - l->disp;
                l->reps = 2;
                return;
            }
            if (l->n == s.n && s.disp == l->disp + (ptrdiff_t)l->reps * l->stride) {
                l->reps++;
                return;
            }
        }
    }
    if (b->nsegs == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4;
        mpix_seg_t *segs = realloc(b->segs, cap * sizeof *segs);
        if (!segs) {
            b->failed = 1;
            return;
        }
        b->segs = segs;
        b->cap = cap;
    }
    b->segs[b->nsegs++] = s;
}

static void widen(int *have, ptrdiff_t *lo, ptrdiff_t *hi, ptrdiff_t a, ptrdiff_t z, int is_lo)
{
    ptrdiff_t v = is_lo ? (a < z ? a : z) : (a > z ? a : z);
    ptrdiff_t *dst = is_lo ? lo : hi;
    if (!*have || (is_lo ? v < *dst : v > *dst))
        *dst = v;
    *have = 1;
}

/* Bounds of copies of old at origins first and last (copies in between lie within). */
static void add_bounds(builder_t *b, shmemx_datatype_t old, ptrdiff_t first, ptrdiff_t last)
{
    if (old->flags & MPIX_STICKY_LB)
        widen(&b->have_sticky_lb, &b->sticky_lb, NULL, first + old->lb, last + old->lb, 1);
    else if (old->size)
        widen(&b->have_data_lb, &b->data_lb, NULL, first + old->lb, last + old->lb, 1);
    if (old->flags & MPIX_STICKY_UB)
        widen(&b->have_sticky_ub, NULL, &b->sticky_ub, first + old->ub, last + old->ub, 0);
    else if (old->size)
        widen(&b->have_data_ub, NULL, &b->data_ub, first + old->ub, last + old->ub, 0);
    if (old->size) {
        int have = b->have_true;
        widen(&have, &b->true_lb, NULL, first + old->true_lb, last + old->true_lb, 1);
        widen(&b->have_true, NULL, &b->true_ub, first + old->true_ub, last + old->true_ub, 0);
    }
    if (old->align > b->align)
        b->align = old->align;
}

/* Place bl copies of old, one extent apart, starting at origin. */
static void add_block(builder_t *b, shmemx_datatype_t old, ptrdiff_t origin, size_t bl)
{
    if (bl == 0)
        return;
    ptrdiff_t ext = mpix_extent(old);
    add_bounds(b, old, origin, origin + (ptrdiff_t)(bl - 1) * ext);
    b->size += bl * old->size;
    /* A type whose items abut from one element to the next: the block is one segment. */
    if (old->nsegs == 1 && old->segs[0].reps == 1 &&
        (ptrdiff_t)(old->segs[0].n * mpix_kinds[old->segs[0].kind].extent) == ext) {
        mpix_seg_t s = old->segs[0];
        s.disp += origin;
        s.n *= bl;
        seg_push(b, s);
        return;
    }
    for (size_t k = 0; k < bl; k++)
        for (size_t i = 0; i < old->nsegs; i++) {
            mpix_seg_t s = old->segs[i];
            s.disp += origin + (ptrdiff_t)k * ext;
            seg_push(b, s);
        }
}

static void builder_init(builder_t *b)
{
    memset(b, 0, sizeof *b);
    b->kind = -2;
    b->align = 1;
}

/* Turn the builder into a new (uncommitted) type; is_struct adds the alignment padding. */
static int builder_finish(builder_t *b, int is_struct, shmemx_datatype_t *newtype,
                          const char *call)
{
    struct sshmemx_datatype *t = b->failed ? NULL : calloc(1, sizeof *t);
    if (!t) {
        free(b->segs);
        return mpix_error(SHMEMX_ERR_NO_MEM, call, "out of memory for the new datatype");
    }
    t->magic = MPIX_TYPE_MAGIC;
    t->name = derived_name;
    t->size = b->size;
    t->align = b->align;
    t->kind = b->kind < 0 ? -1 : b->kind;
    t->segs = b->segs;
    t->nsegs = b->nsegs;
    t->lb = b->have_sticky_lb ? b->sticky_lb : b->have_data_lb ? b->data_lb : 0;
    t->ub = b->have_sticky_ub ? b->sticky_ub : b->have_data_ub ? b->data_ub : 0;
    if (b->have_sticky_lb)
        t->flags |= MPIX_STICKY_LB;
    if (b->have_sticky_ub)
        t->flags |= MPIX_STICKY_UB;
    if (b->have_true) {
        t->true_lb = b->true_lb;
        t->true_ub = b->true_ub;
    }
    if (is_struct && !b->have_sticky_lb && !b->have_sticky_ub) {
        ptrdiff_t ext = t->ub - t->lb, a = (ptrdiff_t)b->align;
        if (ext % a)
            t->ub += a - ext % a;
    }
    *newtype = t;
    return SHMEMX_SUCCESS;
}

/* ------------------------------------------------------------------ constructors */
static int hvector(int count, int blocklength, ptrdiff_t stride, ptrdiff_t elem_stride,
                   shmemx_datatype_t old, shmemx_datatype_t *newtype, const char *call)
{
    int rc;
    if ((rc = check_count(count, call, "count")) || (rc = check_count(blocklength, call,
        "blocklength")) || (rc = mpix_type_check(old, call, "oldtype", 0)) ||
        (rc = check_ptr(newtype, call, "newtype")))
        return rc;
    if (elem_stride)
        stride *= mpix_extent(old);
    builder_t b;
    builder_init(&b);
    for (int j = 0; j < count; j++)
        add_block(&b, old, (ptrdiff_t)j * stride, (size_t)blocklength);
    return builder_finish(&b, 0, newtype, call);
}

SSHMEM_DEFINE(int, shmemx_type_contiguous,
              (int count, shmemx_datatype_t oldtype, shmemx_datatype_t *newtype))
{
    /* One block of count elements: built as such, so it costs nothing per element. */
    return hvector(count < 0 ? count : 1, count, 0, 0, oldtype, newtype, "shmemx_type_contiguous");
}

SSHMEM_DEFINE(int, shmemx_type_vector, (int count, int blocklength, int stride,
                                        shmemx_datatype_t oldtype, shmemx_datatype_t *newtype))
{
    return hvector(count, blocklength, stride, 1, oldtype, newtype, "shmemx_type_vector");
}

SSHMEM_DEFINE(int, shmemx_type_create_hvector,
              (int count, int blocklength, ptrdiff_t stride, shmemx_datatype_t oldtype,
               shmemx_datatype_t *newtype))
{
    return hvector(count, blocklength, stride, 0, oldtype, newtype, "shmemx_type_create_hvector");
}

/* indexed and hindexed: block j has blocklengths[j] elements (per_block) or blocklength (the
 * _block forms) at displacements[j], counted in elements (idisp) or bytes (bdisp). */
static int indexed(int count, int per_block, const int *blocklengths, int blocklength,
                   const int *idisp, const ptrdiff_t *bdisp, int in_bytes,
                   shmemx_datatype_t old, shmemx_datatype_t *newtype, const char *call)
{
    int rc;
    if ((rc = check_count(count, call, "count")) ||
        (rc = mpix_type_check(old, call, "oldtype", 0)) ||
        (rc = check_ptr(newtype, call, "newtype")))
        return rc;
    if (!per_block && (rc = check_count(blocklength, call, "blocklength")))
        return rc;
    if (count > 0 && ((per_block && (rc = check_ptr(blocklengths, call, "blocklengths"))) ||
                      (rc = check_ptr(in_bytes ? (const void *)bdisp : (const void *)idisp,
                                      call, "displacements"))))
        return rc;
    char what[48];
    for (int j = 0; per_block && j < count; j++) {
        snprintf(what, sizeof what, "blocklengths[%d]", j);
        if ((rc = check_count(blocklengths[j], call, what)))
            return rc;
    }
    ptrdiff_t ext = mpix_extent(old);
    builder_t b;
    builder_init(&b);
    for (int j = 0; j < count; j++)
        add_block(&b, old, in_bytes ? bdisp[j] : (ptrdiff_t)idisp[j] * ext,
                  (size_t)(per_block ? blocklengths[j] : blocklength));
    return builder_finish(&b, 0, newtype, call);
}

SSHMEM_DEFINE(int, shmemx_type_indexed,
              (int count, const int *blocklengths, const int *displacements,
               shmemx_datatype_t oldtype, shmemx_datatype_t *newtype))
{
    return indexed(count, 1, blocklengths, 0, displacements, NULL, 0, oldtype, newtype,
                   "shmemx_type_indexed");
}

SSHMEM_DEFINE(int, shmemx_type_create_hindexed,
              (int count, const int *blocklengths, const ptrdiff_t *displacements,
               shmemx_datatype_t oldtype, shmemx_datatype_t *newtype))
{
    return indexed(count, 1, blocklengths, 0, NULL, displacements, 1, oldtype, newtype,
                   "shmemx_type_create_hindexed");
}

SSHMEM_DEFINE(int, shmemx_type_create_indexed_block,
              (int count, int blocklength, const int *displacements, shmemx_datatype_t oldtype,
               shmemx_datatype_t *newtype))
{
    return indexed(count, 0, NULL, blocklength, displacements, NULL, 0,
                   oldtype, newtype, "shmemx_type_create_indexed_block");
}

SSHMEM_DEFINE(int, shmemx_type_create_hindexed_block,
              (int count, int blocklength, const ptrdiff_t *displacements,
               shmemx_datatype_t oldtype, shmemx_datatype_t *newtype))
{
    return indexed(count, 0, NULL, blocklength, NULL, displacements, 1,
                   oldtype, newtype, "shmemx_type_create_hindexed_block");
}

SSHMEM_DEFINE(int, shmemx_type_create_struct,
              (int count, const int *blocklengths, const ptrdiff_t *displacements,
               const shmemx_datatype_t *types, shmemx_datatype_t *newtype))
{
    const char *call = "shmemx_type_create_struct";
    int rc;
    if ((rc = check_count(count, call, "count")) || (rc = check_ptr(newtype, call, "newtype")))
        return rc;
    if (count > 0 && ((rc = check_ptr(blocklengths, call, "blocklengths")) ||
                      (rc = check_ptr(displacements, call, "displacements")) ||
                      (rc = check_ptr(types, call, "types"))))
        return rc;
    char what[48];
    for (int j = 0; j < count; j++) {
        snprintf(what, sizeof what, "blocklengths[%d]", j);
        if ((rc = check_count(blocklengths[j], call, what)))
            return rc;
        snprintf(what, sizeof what, "types[%d]", j);
        if ((rc = mpix_type_check(types[j], call, what, 0)))
            return rc;
    }
    builder_t b;
    builder_init(&b);
    for (int j = 0; j < count; j++)
        add_block(&b, types[j], displacements[j], (size_t)blocklengths[j]);
    return builder_finish(&b, 1, newtype, call);
}

/* A copy of old's data and flags (sticky markers, commitment) as a derived type. */
static int copy_type(shmemx_datatype_t old, shmemx_datatype_t *newtype, const char *call)
{
    struct sshmemx_datatype *t = malloc(sizeof *t);
    mpix_seg_t *segs = malloc((old->nsegs ? old->nsegs : 1) * sizeof *segs);
    mpix_block_t *blocks = old->blocks ? malloc((old->nblocks ? old->nblocks : 1) *
                                                sizeof *blocks) : NULL;
    if (!t || !segs || (old->blocks && !blocks)) {
        free(t);
        free(segs);
        free(blocks);
        return mpix_error(SHMEMX_ERR_NO_MEM, call, "out of memory for the new datatype");
    }
    *t = *old;
    memcpy(segs, old->segs, old->nsegs * sizeof *segs);
    if (blocks)
        memcpy(blocks, old->blocks, old->nblocks * sizeof *blocks);
    t->segs = segs;
    t->blocks = blocks;
    t->flags &= ~(unsigned)MPIX_PREDEFINED;
    t->name = derived_name;
    *newtype = t;
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_type_create_resized,
              (shmemx_datatype_t oldtype, ptrdiff_t lb, ptrdiff_t extent,
               shmemx_datatype_t *newtype))
{
    const char *call = "shmemx_type_create_resized";
    int rc;
    if ((rc = mpix_type_check(oldtype, call, "oldtype", 0)) ||
        (rc = check_ptr(newtype, call, "newtype")) || (rc = copy_type(oldtype, newtype, call)))
        return rc;
    struct sshmemx_datatype *t = *newtype;
    t->lb = lb;
    t->ub = lb + extent;
    t->flags |= MPIX_STICKY_LB | MPIX_STICKY_UB;
    t->flags &= ~(unsigned)(MPIX_COMMITTED | MPIX_CONTIG);
    free(t->blocks); /* the byte view is rebuilt by commit */
    t->blocks = NULL;
    t->nblocks = 0;
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_type_dup, (shmemx_datatype_t oldtype, shmemx_datatype_t *newtype))
{
    const char *call = "shmemx_type_dup";
    int rc;
    if ((rc = mpix_type_check(oldtype, call, "oldtype", 0)) ||
        (rc = check_ptr(newtype, call, "newtype")))
        return rc;
    return copy_type(oldtype, newtype, call);
}

/* ------------------------------------------------------------------ commit and free */
/* Append a byte block, merging it into the last one when it extends or repeats it. */
static int block_push(mpix_block_t **blocks, size_t *n, size_t *cap, mpix_block_t b)
{
    if (b.len == 0 || b.reps == 0)
        return 0;
    if (b.reps > 1 && b.stride == (ptrdiff_t)b.len) {
        b.len *= b.reps;
        b.reps = 1;
    }
    if (b.reps == 1)
        b.stride = 0;
    if (*n && b.reps == 1) {
        mpix_block_t *l = &(*blocks)[*n - 1];
        if (l->reps == 1 && b.disp == l->disp + (ptrdiff_t)l->len) {
            l->len += b.len;
            return 0;
        }
        if (l->len == b.len && l->reps == 1) {
            l->stride = b.disp - l->disp;
            l->reps = 2;
            return 0;
        }
        if (l->len == b.len && b.disp == l->disp + (ptrdiff_t)l->reps * l->stride) {
            l->reps++;
            return 0;
        }
    }
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 4;
        mpix_block_t *nb = realloc(*blocks, c * sizeof *nb);
        if (!nb)
            return -1;
        *blocks = nb;
        *cap = c;
    }
    (*blocks)[(*n)++] = b;
    return 0;
}

/* The byte view of one segment: whole blocks when its items have no holes, else item by
 * item (a pair whose index does not follow its value directly). */
static int seg_blocks(const mpix_seg_t *s, mpix_block_t **blocks, size_t *n, size_t *cap)
{
    const mpix_kind_info_t *k = &mpix_kinds[s->kind];
    if (k->size == k->extent)
        return block_push(blocks, n, cap, (mpix_block_t){s->disp, s->n * k->size, s->reps,
                                                         s->stride});
    int adjacent = k->index_offset == k->value_size;
    for (size_t r = 0; r < s->reps; r++)
        for (size_t i = 0; i < s->n; i++) {
            ptrdiff_t d = s->disp + (ptrdiff_t)r * s->stride + (ptrdiff_t)(i * k->extent);
            if (block_push(blocks, n, cap, (mpix_block_t){d, adjacent ? k->size : k->value_size,
                                                          1, 0}) ||
                (!adjacent && block_push(blocks, n, cap, (mpix_block_t){
                                             d + (ptrdiff_t)k->index_offset, sizeof(int), 1, 0})))
                return -1;
        }
    return 0;
}

SSHMEM_DEFINE(int, shmemx_type_commit, (shmemx_datatype_t *type))
{
    const char *call = "shmemx_type_commit";
    int rc;
    if ((rc = check_ptr(type, call, "type")) || (rc = mpix_type_check(*type, call, "*type", 0)))
        return rc;
    struct sshmemx_datatype *t = *type;
    if (t->flags & MPIX_COMMITTED)
        return SHMEMX_SUCCESS;
    mpix_block_t *blocks = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < t->nsegs; i++)
        if (seg_blocks(&t->segs[i], &blocks, &n, &cap)) {
            free(blocks);
            return mpix_error(SHMEMX_ERR_NO_MEM, call, "out of memory for the datatype's layout");
        }
    t->blocks = blocks;
    t->nblocks = n;
    t->flags |= MPIX_COMMITTED;
    if (n == 1 && blocks[0].reps == 1 && blocks[0].len == t->size &&
        blocks[0].disp == t->true_lb && mpix_extent(t) == (ptrdiff_t)t->size)
        t->flags |= MPIX_CONTIG;
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_type_free, (shmemx_datatype_t *type))
{
    const char *call = "shmemx_type_free";
    int rc;
    if ((rc = check_ptr(type, call, "type")) || (rc = mpix_type_check(*type, call, "*type", 0)))
        return rc;
    struct sshmemx_datatype *t = *type;
    if (t->flags & MPIX_PREDEFINED)
        return mpix_error(SHMEMX_ERR_TYPE, call, "%s is predefined and cannot be freed; free "
                          "only types made by shmemx_type_ constructors", t->name);
    t->magic = 0;
    free(t->segs);
    free(t->blocks);
    free(t);
    *type = SHMEMX_DATATYPE_NULL;
    return SHMEMX_SUCCESS;
}

/* ------------------------------------------------------------------ queries */
SSHMEM_DEFINE(int, shmemx_type_size, (shmemx_datatype_t type, size_t *size))
{
    int rc;
    if ((rc = mpix_type_check(type, "shmemx_type_size", "type", 0)) ||
        (rc = check_ptr(size, "shmemx_type_size", "size")))
        return rc;
    *size = type->size;
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_type_get_extent,
              (shmemx_datatype_t type, ptrdiff_t *lb, ptrdiff_t *extent))
{
    const char *call = "shmemx_type_get_extent";
    int rc;
    if ((rc = mpix_type_check(type, call, "type", 0)) || (rc = check_ptr(lb, call, "lb")) ||
        (rc = check_ptr(extent, call, "extent")))
        return rc;
    *lb = type->lb;
    *extent = mpix_extent(type);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_type_get_true_extent,
              (shmemx_datatype_t type, ptrdiff_t *true_lb, ptrdiff_t *true_extent))
{
    const char *call = "shmemx_type_get_true_extent";
    int rc;
    if ((rc = mpix_type_check(type, call, "type", 0)) ||
        (rc = check_ptr(true_lb, call, "true_lb")) ||
        (rc = check_ptr(true_extent, call, "true_extent")))
        return rc;
    *true_lb = type->true_lb;
    *true_extent = type->true_ub - type->true_lb;
    return SHMEMX_SUCCESS;
}
