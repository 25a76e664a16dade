/*
 * ops.c: the operator handles (predefined and user), which predefined operator MPI defines
 * on which kind, and MPI_Reduce_local (MPI_Op_create, MPI_Op_free, ...). The element loops
 * are the one operator table's (src/coll/ops.c), reached through red_form.c.
 */
#include <limits.h>
#include <stdlib.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "mpix/op.h"
#include "datatype/report.h"

#define PREDEFINED_OP_(NAME, L)                                                                  \
    SSHMEM_API struct sshmemx_op sshmemx_op_##L = {.magic = MPIX_OP_MAGIC, .id = COLL_OP_##L,    \
                                                   .commute = 1, .name = "SHMEMX_" #NAME};
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

#define OP_BIT_(o) (1u << COLL_OP_##o)
const unsigned mpix_category_ops[] = {
    [MPIX_CAT_INTEGER] = OP_BIT_(sum) | OP_BIT_(prod) | OP_BIT_(min) | OP_BIT_(max) |
                         OP_BIT_(land) | OP_BIT_(band) | OP_BIT_(lor) | OP_BIT_(bor) |
                         OP_BIT_(lxor) | OP_BIT_(bxor),
    [MPIX_CAT_FLOATING] = OP_BIT_(sum) | OP_BIT_(prod) | OP_BIT_(min) | OP_BIT_(max),
    [MPIX_CAT_COMPLEX] = OP_BIT_(sum) | OP_BIT_(prod),
    [MPIX_CAT_LOGICAL] = OP_BIT_(land) | OP_BIT_(lor) | OP_BIT_(lxor),
    [MPIX_CAT_BYTE] = OP_BIT_(band) | OP_BIT_(bor) | OP_BIT_(bxor),
    [MPIX_CAT_CHARACTER] = 0,
    [MPIX_CAT_PAIR] = OP_BIT_(minloc) | OP_BIT_(maxloc),
};

const char *mpix_op_domain(int op_id)
{
    switch (op_id) {
    case COLL_OP_sum:
    case COLL_OP_prod: return "integer, floating and complex types";
    case COLL_OP_min:
    case COLL_OP_max: return "integer and floating types";
    case COLL_OP_land:
    case COLL_OP_lor:
    case COLL_OP_lxor: return "integer types and SHMEMX_C_BOOL";
    case COLL_OP_band:
    case COLL_OP_bor:
    case COLL_OP_bxor: return "integer types and SHMEMX_BYTE";
    default: return "the pair types SHMEMX_FLOAT_INT, SHMEMX_DOUBLE_INT, SHMEMX_LONG_INT, "
                    "SHMEMX_2INT, SHMEMX_SHORT_INT and SHMEMX_LONG_DOUBLE_INT";
    }
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
        const int derived = !(type->flags & MPIX_PREDEFINED);
        if (!mpix_op_allowed(op->id, kind))
            return mpix_error(SHMEMX_ERR_OP, call, "%s is not defined on %s%s%s; it applies to %s",
                              op->name, derived ? "the " : "", mpix_kinds[kind].name,
                              derived ? " elements of this derived datatype" : "",
                              mpix_op_domain(op->id));
    }
    return SHMEMX_SUCCESS;
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
    *o = (struct sshmemx_op){.magic = MPIX_OP_MAGIC, .id = -1, .commute = commute != 0, .fn = fn,
                              .name = user_op_name};
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
    mpix_red_form_t form;
    mpix_red_form(&form, type, op);
    mpix_red_local(&form, inbuf, inoutbuf, count);
    return SHMEMX_SUCCESS;
}
