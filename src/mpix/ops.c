/*
 * ops.c: the operator handles (predefined and user), checking an operator against a type,
 * and applying it to elements laid out in memory or packed (MPI_Op_create, MPI_Reduce_local).
 */
#include <limits.h>
#include <stdlib.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "mpix/op.h"
#include "mpix/report.h"

#define PREDEFINED_OP_(NAME, L)                                                                  \
    SSHMEM_API struct sshmemx_op sshmemx_op_##L = {MPIX_OP_MAGIC, MPIX_OP_##L, 1, NULL,          \
                                                   "SHMEMX_" #NAME};
SHMEMX_PREDEFINED_OPS(PREDEFINED_OP_)

static const char user_op_name[] = "a user operator";

static int op_valid(shmemx_op_t op, const char *call)
{
    if (!op)
        return mpix_error(SHMEMX_ERR_OP, call, "op is SHMEMX_OP_NULL; pass a predefined "
                          "operator such as SHMEMX_SUM or one made by shmemx_op_create");
    if (op->magic != MPIX_OP_MAGIC)
        return mpix_error(SHMEMX_ERR_OP, call, "op (%p) is not a valid operator: it was freed "
                          "with shmemx_op_free or never created", (void *)op);
    return SHMEMX_SUCCESS;
}

int mpix_op_check(shmemx_op_t op, shmemx_datatype_t type, const char *call)
{
    int rc;
    if ((rc = op_valid(op, call)) || (rc = mpix_type_check(type, call, "type", 1)))
        return rc;
    if (op->id < 0)
        return SHMEMX_SUCCESS;
    for (size_t i = 0; i < type->nsegs; i++) {
        int kind = type->segs[i].kind;
        if (!mpix_kernel(op->id, kind)) {
            if (type->flags & MPIX_PREDEFINED)
                return mpix_error(SHMEMX_ERR_OP, call, "%s is not defined on %s; it applies to "
                                  "%s", op->name, mpix_kinds[kind].name,
                                  mpix_op_domain(op->id));
            return mpix_error(SHMEMX_ERR_OP, call, "%s is not defined on the %s elements of this "
                              "derived datatype; it applies to %s", op->name,
                              mpix_kinds[kind].name, mpix_op_domain(op->id));
        }
    }
    return SHMEMX_SUCCESS;
}

/* A user function takes an int count: hand it the elements in chunks that fit. */
static void apply_user(shmemx_op_t op, shmemx_datatype_t type, const char *in, char *inout,
                       size_t count)
{
    ptrdiff_t ext = mpix_extent(type);
    while (count) {
        int len = count > INT_MAX ? INT_MAX : (int)count;
        shmemx_datatype_t t = type;
        op->fn((void *)in, inout, &len, &t);
        in += (ptrdiff_t)len * ext;
        inout += (ptrdiff_t)len * ext;
        count -= (size_t)len;
    }
}

/* Packed data: the items of each element follow each other, segment by segment. */
static void apply_packed(int op_id, shmemx_datatype_t type, const char *in, char *inout,
                         size_t count)
{
    if (type->kind >= 0) { /* one kind throughout: one kernel call */
        const mpix_kind_info_t *k = &mpix_kinds[type->kind];
        mpix_kernel(op_id, type->kind)(in, inout, count * (type->size / k->size), k->size,
                                       k->value_size);
        return;
    }
    size_t pos = 0;
    for (size_t e = 0; e < count; e++)
        for (size_t i = 0; i < type->nsegs; i++) {
            const mpix_seg_t *s = &type->segs[i];
            const mpix_kind_info_t *k = &mpix_kinds[s->kind];
            size_t run = s->n * s->reps;
            mpix_kernel(op_id, s->kind)(in + pos, inout + pos, run, k->size, k->value_size);
            pos += run * k->size;
        }
}

/* Elements in memory: each segment's blocks at their offsets in each element. */
static void apply_layout(int op_id, shmemx_datatype_t type, const char *in, char *inout,
                         size_t count)
{
    if (type->kind >= 0 && (type->flags & MPIX_CONTIG)) {
        const mpix_kind_info_t *k = &mpix_kinds[type->kind];
        mpix_kernel(op_id, type->kind)(in + type->true_lb, inout + type->true_lb,
                                       count * (type->size / k->size), k->extent,
                                       k->index_offset);
        return;
    }
    ptrdiff_t ext = mpix_extent(type);
    for (size_t e = 0; e < count; e++)
        for (size_t i = 0; i < type->nsegs; i++) {
            const mpix_seg_t *s = &type->segs[i];
            const mpix_kind_info_t *k = &mpix_kinds[s->kind];
            mpix_kernel_t kern = mpix_kernel(op_id, s->kind);
            for (size_t r = 0; r < s->reps; r++) {
                ptrdiff_t off = (ptrdiff_t)e * ext + s->disp + (ptrdiff_t)r * s->stride;
                kern(in + off, inout + off, s->n, k->extent, k->index_offset);
            }
        }
}

void mpix_op_apply(shmemx_op_t op, shmemx_datatype_t type, const void *in, void *inout,
                   size_t count, int packed)
{
    if (op->id < 0)
        apply_user(op, type, in, inout, count);
    else if (packed)
        apply_packed(op->id, type, in, inout, count);
    else
        apply_layout(op->id, type, in, inout, count);
}

SSHMEM_DEFINE(int, shmemx_op_create, (shmemx_user_function *fn, int commute, shmemx_op_t *op))
{
    const char *call = "shmemx_op_create";
    if (!fn)
        return mpix_error(SHMEMX_ERR_ARG, call, "fn is NULL; pass the function that combines "
                          "(invec, inoutvec, len, datatype)");
    if (!op)
        return mpix_error(SHMEMX_ERR_ARG, call, "op is NULL; pass the address of a shmemx_op_t");
    struct sshmemx_op *o = malloc(sizeof *o);
    if (!o)
        return mpix_error(SHMEMX_ERR_NO_MEM, call, "out of memory for the operator");
    *o = (struct sshmemx_op){MPIX_OP_MAGIC, -1, commute != 0, fn, user_op_name};
    *op = o;
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_op_free, (shmemx_op_t *op))
{
    const char *call = "shmemx_op_free";
    int rc;
    if (!op)
        return mpix_error(SHMEMX_ERR_ARG, call, "op is NULL; pass the address of the handle");
    if ((rc = op_valid(*op, call)))
        return rc;
    if ((*op)->id >= 0)
        return mpix_error(SHMEMX_ERR_OP, call, "%s is predefined and cannot be freed; free only "
                          "operators made by shmemx_op_create", (*op)->name);
    (*op)->magic = 0;
    free(*op);
    *op = SHMEMX_OP_NULL;
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_op_commutative, (shmemx_op_t op, int *commute))
{
    int rc;
    if ((rc = op_valid(op, "shmemx_op_commutative")))
        return rc;
    if (!commute)
        return mpix_error(SHMEMX_ERR_ARG, "shmemx_op_commutative", "commute is NULL");
    *commute = op->commute;
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_reduce_local, (const void *inbuf, void *inoutbuf, size_t count,
                                         shmemx_datatype_t type, shmemx_op_t op))
{
    const char *call = "shmemx_reduce_local";
    int rc;
    if ((rc = mpix_op_check(op, type, call)) || (rc = mpix_count_check(count, call, "count")))
        return rc;
    if (count && type->size && (!inbuf || !inoutbuf))
        return mpix_error(SHMEMX_ERR_ARG, call, "%s is NULL", !inbuf ? "inbuf" : "inoutbuf");
    mpix_op_apply(op, type, inbuf, inoutbuf, count, 0);
    return SHMEMX_SUCCESS;
}
