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
#include "datatype/datatype.h"
#include "datatype/report.h"

static const char derived_name[] = "a derived datatype";

typedef struct builder {
    mpix_seg_t *segs;
    size_t nsegs, cap;
    size_t size, align;
    int kind; /* -2: no data yet; -1: mixed */
    int failed;   /* out of memory */
    int too_big;  /* a byte count or offset would not fit in size_t / ptrdiff_t */
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

int mpix_elems_check(shmemx_datatype_t t, size_t count, const char *call, const char *arg)
{
    int rc = mpix_count_check(count, call, arg);
    if (rc || count == 0)
        return rc;
    size_t bytes;
    ptrdiff_t reach, r;
    if (__builtin_mul_overflow(count, t->size, &bytes) || bytes > (size_t)PTRDIFF_MAX ||
        __builtin_mul_overflow((ptrdiff_t)(count - 1), mpix_extent(t), &reach) ||
        __builtin_add_overflow(reach, t->true_lb, &r) ||
        __builtin_add_overflow(reach, t->true_ub, &r))
        return mpix_error(SHMEMX_ERR_COUNT, call, "%s %zu of %s spans more bytes than memory "
                          "has (%zu bytes of data, extent %td)", arg, count, mpix_type_name(t),
                          t->size, mpix_extent(t));
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

/* Every bound of old shifted to origin `at` is a ptrdiff_t. */
static int shift_fits(ptrdiff_t at, shmemx_datatype_t old)
{
    ptrdiff_t r;
    return !__builtin_add_overflow(at, old->lb, &r) && !__builtin_add_overflow(at, old->ub, &r) &&
           !__builtin_add_overflow(at, old->true_lb, &r) &&
           !__builtin_add_overflow(at, old->true_ub, &r);
}

/* Place bl copies of old, one extent apart, starting at byte n * unit. Types whose bytes or
 * offsets would overflow (huge counts of huge extents) are refused, not wrapped around. */
static void add_block(builder_t *b, shmemx_datatype_t old, ptrdiff_t n, ptrdiff_t unit,
                      size_t bl)
{
    if (bl == 0)
        return;
    ptrdiff_t ext = mpix_extent(old), origin, reach, last;
    size_t bytes;
    if (__builtin_mul_overflow(n, unit, &origin) ||
        __builtin_mul_overflow((ptrdiff_t)(bl - 1), ext, &reach) ||
        __builtin_add_overflow(origin, reach, &last) || !shift_fits(origin, old) ||
        !shift_fits(last, old) || __builtin_mul_overflow(bl, old->size, &bytes) ||
        __builtin_add_overflow(b->size, bytes, &b->size) || b->size > (size_t)PTRDIFF_MAX) {
        b->too_big = 1;
        return;
    }
    add_bounds(b, old, origin, last);
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
    if (b->too_big) {
        free(b->segs);
        return mpix_error(SHMEMX_ERR_COUNT, call, "the new type would span or hold more bytes "
                          "than memory has (a count or displacement times an extent overflows)");
    }
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
    builder_t b;
    builder_init(&b);
    if (elem_stride && __builtin_mul_overflow(stride, mpix_extent(old), &stride))
        b.too_big = 1;
    for (int j = 0; j < count && !b.too_big; j++)
        add_block(&b, old, j, stride, (size_t)blocklength);
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
        add_block(&b, old, in_bytes ? bdisp[j] : idisp[j], in_bytes ? 1 : ext,
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
        add_block(&b, types[j], displacements[j], 1, (size_t)blocklengths[j]);
    return builder_finish(&b, 1, newtype, call);
}

/* A copy of old's data and flags (sticky markers, commitment) as a derived type. */
static int copy_type(shmemx_datatype_t old, shmemx_datatype_t *newtype, const char *call)
{
    struct sshmemx_datatype *t = malloc(sizeof *t);
    mpix_seg_t *segs = malloc((old->nsegs ? old->nsegs : 1) * sizeof *segs);
    size_t npieces = old->plan.pieces ? old->plan.npieces : 0;
    copy_piece_t *pieces = old->plan.pieces ? malloc((npieces ? npieces : 1) * sizeof *pieces)
                                            : NULL;
    if (!t || !segs || (old->plan.pieces && !pieces)) {
        free(t);
        free(segs);
        free(pieces);
        return mpix_error(SHMEMX_ERR_NO_MEM, call, "out of memory for the new datatype");
    }
    *t = *old;
    memcpy(segs, old->segs, old->nsegs * sizeof *segs);
    if (pieces)
        memcpy(pieces, old->plan.pieces, npieces * sizeof *pieces);
    t->segs = segs;
    t->plan.pieces = pieces;
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
    if (__builtin_add_overflow(lb, extent, &t->ub)) {
        shmemx_type_free(newtype);
        return mpix_error(SHMEMX_ERR_ARG, call, "lb %td + extent %td overflows; pass bounds "
                          "that fit in memory", lb, extent);
    }
    t->flags |= MPIX_STICKY_LB | MPIX_STICKY_UB;
    t->flags &= ~(unsigned)(MPIX_COMMITTED | MPIX_CONTIG);
    free(t->plan.pieces); /* the plan (its extent changed) is rebuilt by commit */
    t->plan = (copy_plan_t){0};
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
/* A pair whose index does not follow its value directly: its data is two runs per item. */
static int has_hole(const mpix_kind_info_t *k)
{
    return k->category == MPIX_CAT_PAIR && k->index_offset != k->value_size;
}

/* Pieces a segment can need before merging (an upper bound, for the allocation). */
static size_t seg_pieces(const mpix_seg_t *s)
{
    return has_hole(&mpix_kinds[s->kind]) ? 2 * s->n * s->reps : 1;
}

/* The runs of one segment pushed into the plan: its reps of n items as two loops around one
 * item's data (items whose data fills their extent make one longer run), or, for a pair with
 * a hole, value and index item by item. */
static void compile_seg(const mpix_seg_t *s, copy_piece_t *pieces, size_t *n)
{
    const mpix_kind_info_t *k = &mpix_kinds[s->kind];
    if (!has_hole(k)) {
        copy_piece_t pc = {.disp = s->disp, .run = k->size, .depth = 2,
                           .loop = {{s->reps, s->stride}, {s->n, (ptrdiff_t)k->extent}}};
        copy_plan_push(pieces, n, &pc);
        return;
    }
    for (size_t r = 0; r < s->reps; r++)
        for (size_t i = 0; i < s->n; i++) {
            ptrdiff_t d = s->disp + (ptrdiff_t)r * s->stride + (ptrdiff_t)(i * k->extent);
            copy_piece_t value = {.disp = d, .run = k->value_size};
            copy_piece_t index = {.disp = d + (ptrdiff_t)k->index_offset, .run = sizeof(int)};
            copy_plan_push(pieces, n, &value);
            copy_plan_push(pieces, n, &index);
        }
}

/* The type's copy plan from its segments; -1 when out of memory. */
static int compile_plan(struct sshmemx_datatype *t)
{
    size_t cap = 1, n = 0;
    for (size_t i = 0; i < t->nsegs; i++)
        cap += seg_pieces(&t->segs[i]);
    copy_piece_t *pieces = malloc(cap * sizeof *pieces);
    if (!pieces)
        return -1;
    for (size_t i = 0; i < t->nsegs; i++)
        compile_seg(&t->segs[i], pieces, &n);
    copy_piece_t *fit = realloc(pieces, (n ? n : 1) * sizeof *pieces);
    t->plan = (copy_plan_t){.npieces = n, .pieces = fit ? fit : pieces,
                            .extent = mpix_extent(t)};
    copy_plan_finish(&t->plan);
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
    if (compile_plan(t))
        return mpix_error(SHMEMX_ERR_NO_MEM, call, "out of memory for the datatype's layout");
    t->flags |= MPIX_COMMITTED;
    if (t->plan.contiguous)
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
    free(t->plan.pieces);
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
