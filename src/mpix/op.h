/*
 * op.h: reduction operators inside the MPI-style layer: the predefined ones (a kernel per
 * operator and basic kind, NULL where MPI does not define the pair) and user operators.
 */
#ifndef SSHMEM_MPIX_OP_H
#define SSHMEM_MPIX_OP_H

#include <stddef.h>
#include <shmemx.h>

#include "mpix/datatype.h"

enum mpix_op_id {
#define MPIX_OP_ENUM_(NAME, L) MPIX_OP_##L,
    SHMEMX_PREDEFINED_OPS(MPIX_OP_ENUM_)
#undef MPIX_OP_ENUM_
    MPIX_NUM_OPS
};

#define MPIX_OP_MAGIC 0x0b5e7a11u

struct sshmemx_op {
    unsigned magic; /* MPIX_OP_MAGIC while valid */
    int id;         /* enum mpix_op_id, or -1 for a user operator */
    int commute;
    shmemx_user_function *fn;
    const char *name;
};

/*
 * A kernel: inout[i] = in[i] o inout[i] for n items of one kind, `stride` bytes apart;
 * idx_off is where a pair's int index sits in an item. Items may be unaligned (packed data).
 */
typedef void (*mpix_kernel_t)(const char *in, char *inout, size_t n, size_t stride,
                              size_t idx_off);
mpix_kernel_t mpix_kernel(int op_id, int kind);
/* "integer and floating types": what an operator accepts, for messages. */
const char *mpix_op_domain(int op_id);

/* A valid operator that is defined on every basic element of the committed type. */
int mpix_op_check(shmemx_op_t op, shmemx_datatype_t type, const char *call);

/*
 * inout = in o inout for count elements of type. With packed set, the buffers hold packed
 * data (predefined operators only); else they hold elements laid out with the type's extent
 * (origins of element 0). No checks (mpix_op_check first).
 */
void mpix_op_apply(shmemx_op_t op, shmemx_datatype_t type, const void *in, void *inout,
                   size_t count, int packed);

#endif
