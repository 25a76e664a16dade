/*
 * red_form.c: how an MPI-style (datatype, operator) pair becomes an operator of the one table's
 * form (coll_op_t) that the engine's reduction and scan algorithms run (op.h: the three forms).
 *
 * The cheapest correct form wins: a predefined operator on consecutive items of one kind is the
 * table's own entry on the user's memory (no copy, vectorized loops); a user operator on a type
 * without gaps runs on the user's memory too; everything else is staged into slots where writing
 * whole elements is harmless, and only the data bytes go back.
 */
#include <limits.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <shmemx.h>

#include "mpix/op.h"
#include "datatype/report.h"

/* The kinds of the engine's table and of the datatypes are the same list. */
#define SAME_KIND_(CT, NAME, L, CAT)                                                             \
    _Static_assert((int)COLL_KIND_##L == (int)MPIX_KIND_##L, "kind lists differ");
SHMEMX_BASIC_TYPES(SAME_KIND_)
#define SAME_PAIR_KIND_(VT, NAME, L)                                                             \
    _Static_assert((int)COLL_KIND_##L == (int)MPIX_KIND_##L, "kind lists differ");
SHMEMX_PAIR_TYPES(SAME_PAIR_KIND_)

static const mpix_red_form_t *form_of(const coll_op_t *op) { return op->ctx; }

/* ------------------------------------------------------------------ user operators */

/* inout = in o inout for n engine elements (element origins: pointer - shift). */
static void user_call(const mpix_red_form_t *f, const char *in, char *inout, size_t n)
{
    shmemx_datatype_t t = f->type;
    in -= f->shift;
    inout -= f->shift;
    if (f->one_by_one) { /* slots are not extent apart: one element per call */
        int one = 1;
        for (size_t e = 0; e < n; e++, in += f->op->esize, inout += f->op->esize)
            f->uop->fn((void *)in, inout, &one, &t);
        return;
    }
    while (n) { /* the user function takes an int count */
        int len = n > INT_MAX ? INT_MAX : (int)n;
        f->uop->fn((void *)in, inout, &len, &t);
        in += (ptrdiff_t)len * f->extent;
        inout += (ptrdiff_t)len * f->extent;
        n -= (size_t)len;
    }
}

static void user_racc(const coll_op_t *op, void *restrict io, const void *restrict a, size_t n)
{
    user_call(form_of(op), a, io, n);
}

static void user_op3(const coll_op_t *op, void *restrict out, const void *restrict a,
                     const void *restrict b, size_t n)
{
    memcpy(out, b, n * op->esize);
    user_call(form_of(op), a, out, n);
}

/* io o b needs io on the left, and the user function writes its right operand: b goes through
 * a copy, USER_PIECE_BYTES at a time through a buffer that stays in L1 (allocated only for an
 * element larger than that). Only non-commutative operators need it. */
#define USER_PIECE_BYTES 4096
static void user_acc(const coll_op_t *op, void *restrict io, const void *restrict b, size_t n)
{
    const mpix_red_form_t *f = form_of(op);
    if (op->commute) { /* io o b == b o io */
        user_call(f, b, io, n);
        return;
    }
    const size_t es = op->esize;
    alignas(64) char small[USER_PIECE_BYTES];
    char *tmp = small;
    if (es > sizeof small && !(tmp = malloc(es))) { /* inside a collective: no PE may
                                                     * return alone */
        mpix_error(SHMEMX_ERR_NO_MEM, "shmemx reduction", "out of memory for a %zu-byte "
                   "element of a non-commutative operator's operand", es);
        abort();
    }
    const size_t step = es < sizeof small ? sizeof small / es : 1;
    for (size_t at = 0, k; at < n; at += k) {
        k = n - at < step ? n - at : step;
        char *piece = (char *)io + at * es;
        memcpy(tmp, (const char *)b + at * es, k * es);
        user_call(f, piece, tmp, k);
        memcpy(piece, tmp, k * es);
    }
    if (tmp != small)
        free(tmp);
}

/* ------------------------------------------------------------------ predefined, walked */

/* The table's kernel on every block of every element: out = a op b, where out may be a or b
 * (coll_op_apply); element e's origin is at e * esize - shift from each pointer. */
static void walk(const mpix_red_form_t *f, char *out, const char *a, const char *b, size_t n)
{
    const shmemx_datatype_t t = f->type;
    for (size_t e = 0; e < n; e++) {
        ptrdiff_t base = (ptrdiff_t)(e * f->op->esize) - f->shift;
        for (size_t i = 0; i < t->nsegs; i++) {
            const mpix_seg_t *s = &t->segs[i];
            const coll_op_t *k = &coll_ops[s->kind][f->uop->id];
            for (size_t r = 0; r < s->reps; r++) {
                ptrdiff_t off = base + s->disp + (ptrdiff_t)r * s->stride;
                coll_op_apply(k, out + off, a + off, b + off, s->n);
            }
        }
    }
}

static void walk_op3(const coll_op_t *op, void *restrict out, const void *restrict a,
                     const void *restrict b, size_t n)
{
    walk(form_of(op), out, a, b, n);
}

static void walk_acc(const coll_op_t *op, void *restrict io, const void *restrict b, size_t n)
{
    walk(form_of(op), io, io, b, n);
}

static void walk_racc(const coll_op_t *op, void *restrict io, const void *restrict a, size_t n)
{
    walk(form_of(op), io, a, io, n);
}

/* ------------------------------------------------------------------ choosing the form */

/* Consecutive items of one kind, element after element: how many per element, and where the
 * first one starts. */
static int items_of(shmemx_datatype_t t, size_t *per_elem, ptrdiff_t *at)
{
    if (t->kind < 0 || t->nsegs != 1)
        return 0;
    const mpix_seg_t *s = &t->segs[0];
    size_t kext = mpix_kinds[s->kind].extent, items = s->n * s->reps;
    if (s->reps > 1 && s->stride != (ptrdiff_t)(s->n * kext))
        return 0;
    if (items == 0 || mpix_extent(t) != (ptrdiff_t)(items * kext))
        return 0;
    *per_elem = items;
    *at = s->disp;
    return 1;
}

static ptrdiff_t floor_to(ptrdiff_t v, ptrdiff_t a)
{
    ptrdiff_t r = v % a;
    return r < 0 ? v - r - a : v - r;
}

void mpix_red_form(mpix_red_form_t *f, shmemx_datatype_t type, shmemx_op_t op)
{
    f->type = type;
    f->uop = op;
    f->extent = mpix_extent(type);
    f->staged = 0;
    f->one_by_one = 0;
    f->shift = 0;
    f->per_elem = 1;
    f->at = 0;
    if (op->id >= 0 && items_of(type, &f->per_elem, &f->at)) { /* the common case: cheap */
        f->op = &coll_ops[type->kind][op->id];
        return;
    }
    f->op = &f->built;
    f->built.commute = op->commute;
    f->built.ctx = f;
    if (op->id < 0) {
        f->built.op3 = user_op3;
        f->built.acc = user_acc;
        f->built.racc = user_racc;
    } else {
        f->built.op3 = walk_op3;
        f->built.acc = walk_acc;
        f->built.racc = walk_racc;
    }
    int dense = (type->flags & (MPIX_CONTIG | MPIX_PREDEFINED)) && f->extent > 0;
    if (dense && op->id < 0) { /* whole elements, no gap another datatype could own */
        f->at = f->shift = type->true_lb;
        f->built.esize = (size_t)f->extent;
        return;
    }
    /* Staged: slots start at an aligned point at or below the first data byte, so the items
     * keep their alignment; extent apart when the data fits (one user call for many). */
    ptrdiff_t align = type->align ? (ptrdiff_t)type->align : 1;
    f->staged = 1;
    f->shift = floor_to(type->true_lb, align);
    ptrdiff_t span = type->true_ub - f->shift;
    if (f->extent > 0 && span <= f->extent) {
        f->built.esize = (size_t)f->extent;
    } else {
        f->one_by_one = 1;
        f->built.esize = (size_t)((span + align - 1) / align * align);
    }
    if (f->built.esize == 0)
        f->built.esize = 1;
}

void mpix_red_stage_in(const mpix_red_form_t *f, void *buf, const void *origin, size_t m)
{
    char *slots = (char *)buf - f->shift;
    if (!f->one_by_one) {
        mpix_copy_elems(slots, origin, m, f->type);
        return;
    }
    for (size_t e = 0; e < m; e++)
        mpix_copy_elems(slots + e * f->op->esize, (const char *)origin + (ptrdiff_t)e * f->extent,
                        1, f->type);
}

void mpix_red_stage_out(const mpix_red_form_t *f, void *origin, const void *buf, size_t m)
{
    const char *slots = (const char *)buf - f->shift;
    if (!f->one_by_one) {
        mpix_copy_elems(origin, slots, m, f->type);
        return;
    }
    for (size_t e = 0; e < m; e++)
        mpix_copy_elems((char *)origin + (ptrdiff_t)e * f->extent, slots + e * f->op->esize, 1,
                        f->type);
}

void mpix_red_local(const mpix_red_form_t *form, const void *in, void *inout, size_t count)
{
    mpix_red_form_t f = *form;
    if (f.op == &form->built) { /* a copy: its operator must point at the copy */
        f.op = &f.built;
        f.built.ctx = &f;
    }
    if (f.staged) { /* straight on the user's memory: elements extent apart, at their origin */
        f.staged = 0;
        f.one_by_one = 0;
        f.shift = 0;
        f.built.esize = (size_t)f.extent; /* e * esize wraps to e * extent when negative */
    }
    f.op->racc(f.op, (char *)inout + f.at, (const char *)in + f.at, count * f.per_elem);
}
