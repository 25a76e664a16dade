/*
 * mat2.h: 2x2 matrices of doubles and their product, a user operator that does not commute.
 * The MPI-style reduction and scan tests use it to prove that PE order is kept.
 */
#ifndef SSHMEM_TEST_MAT2_H
#define SSHMEM_TEST_MAT2_H

#include <stddef.h>
#include <shmemx.h>

typedef struct {
    double a, b, c, d;
} mat2;

static inline mat2 mul(mat2 x, mat2 y)
{
    return (mat2){x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
                  x.c * y.b + x.d * y.d};
}

/* The operator (shmemx_op_create's signature): inout = in x inout, element by element, with
 * elements laid out at the datatype's extent (a matrix type may have gaps). */
static inline void matmul(void *invec, void *inoutvec, int *len, shmemx_datatype_t *type)
{
    ptrdiff_t lb, ext;
    shmemx_type_get_extent(*type, &lb, &ext);
    for (int i = 0; i < *len; i++) {
        mat2 *x = (mat2 *)((char *)invec + i * ext), *y = (mat2 *)((char *)inoutvec + i * ext);
        *y = mul(*x, *y);
    }
}

#endif
