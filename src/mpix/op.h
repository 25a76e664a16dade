/*
 * op.h: reduction operators inside the MPI-style layer. The predefined operators are entries of
 * the one operator table (src/coll/ops.h, keyed by operator and basic kind); a user operator is a
 * function with a commute flag. red_form.c turns (datatype, operator) into the coll_op_t that the
 * engine and shmemx_reduce_local run.
 */
#ifndef SSHMEM_MPIX_OP_H
#define SSHMEM_MPIX_OP_H

#include <stddef.h>
#include <shmemx.h>

#include "coll/ops.h"
#include "core/abi.h"
#include "datatype/datatype.h"

#define MPIX_OP_MAGIC 0x0b5e7a11u

struct sshmemx_op {
    union { /* one fixed size for the life of the soname: core/abi.h */
        struct {
            unsigned magic; /* MPIX_OP_MAGIC while valid */
            int id;         /* enum coll_op_id, or -1 for a user operator */
            int commute;
            shmemx_user_function *fn;
            const char *name;
        };
        unsigned char abi_size[SSHMEM_ABI_OP_BYTES];
    };
};
_Static_assert(sizeof(struct sshmemx_op) == SSHMEM_ABI_OP_BYTES,
               "struct sshmemx_op outgrew its fixed size (core/abi.h)");

/* "integer and floating types": what an operator accepts, for messages. */
const char *mpix_op_domain(int op_id);

/* Does MPI define predefined operator op_id on kind? By the kind's category (bit op_id of
 * mpix_category_ops); the table itself has more entries, for OpenSHMEM's char reductions. */
extern const unsigned mpix_category_ops[];
static inline int mpix_op_allowed(int op_id, int kind)
{
    return (mpix_category_ops[mpix_kinds[kind].category] >> op_id) & 1;
}

/* A valid operator that is defined on every basic element of the committed type. */
int mpix_op_check(shmemx_op_t op, shmemx_datatype_t type, const char *call);

/* How count elements of a datatype meet the engine (red_form.c). Three forms:
 *  - items: a predefined operator on a type whose data is consecutive items of one kind (a basic
 *    or pair type, a contiguous type of one): the table's own kernel runs on the user's memory,
 *    count * per_elem items of the kind, starting at origin + at.
 *  - dense: a user operator on a type without gaps: the user's memory too, one engine element
 *    per datatype element (esize = extent).
 *  - staged: anything else (gaps that must not be written, elements that overlap): elements are
 *    copied into slots of esize bytes of a buffer (stage_in), combined there and their data
 *    copied back (stage_out); the operator walks the type inside each slot.
 * op is the engine's operator: a table entry, or `built`, whose ctx points back to this form (so
 * the form must outlive the call that uses op). */
typedef struct mpix_red_form {
    const coll_op_t *op;
    coll_op_t built;
    int staged;        /* the user's memory cannot be the engine's operand */
    size_t per_elem;   /* engine elements per datatype element */
    ptrdiff_t at;      /* engine data of element 0 starts at origin + at (not staged) */
    ptrdiff_t extent;  /* of the datatype */
    ptrdiff_t shift;   /* a datatype element's origin is its engine element - shift */
    int one_by_one;    /* staged slots are not extent apart: call a user function per slot */
    shmemx_datatype_t type;
    shmemx_op_t uop;
} mpix_red_form_t;

/* Fill form for (type, op), both checked. */
void mpix_red_form(mpix_red_form_t *form, shmemx_datatype_t type, shmemx_op_t op);
/* Staged form: elements [0, m) of the datatype at origin to slots at buf, and back. */
void mpix_red_stage_in(const mpix_red_form_t *form, void *buf, const void *origin, size_t m);
void mpix_red_stage_out(const mpix_red_form_t *form, void *origin, const void *buf, size_t m);
/* inout = in o inout for count elements in the user's memory (MPI_Reduce_local). */
void mpix_red_local(const mpix_red_form_t *form, const void *in, void *inout, size_t count);

#endif
