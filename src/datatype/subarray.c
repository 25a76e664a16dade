/*
 * subarray.c: shmemx_type_create_subarray (MPI_Type_create_subarray): a block of an
 * n-dimensional array, the halo faces and tiles of stencil codes.
 *
 * Built as MPI defines it from the other constructors: the fastest dimension is a contiguous
 * run of subsizes elements; each slower dimension repeats the faster ones with an hvector at
 * the array's stride in that dimension; the block is shifted to its start; and the result is
 * resized to lb 0 and the extent of the whole array, so consecutive elements of a count are
 * consecutive whole arrays. Commit then compiles the nest into one piece of nested loops.
 */
#include <stdint.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "datatype/datatype.h"
#include "datatype/report.h"

static const char call[] = "shmemx_type_create_subarray";

static int check_dims(int ndims, const int sizes[], const int subsizes[], const int starts[],
                      int order)
{
    if (ndims < 1)
        return mpix_error(SHMEMX_ERR_ARG, call, "ndims is %d; it must be 1 or more", ndims);
    if (!sizes || !subsizes || !starts)
        return mpix_error(SHMEMX_ERR_ARG, call, "%s is NULL; pass an array of ndims (%d) ints",
                          !sizes ? "sizes" : !subsizes ? "subsizes" : "starts", ndims);
    if (order != SHMEMX_ORDER_C && order != SHMEMX_ORDER_FORTRAN)
        return mpix_error(SHMEMX_ERR_ARG, call, "order is %d; pass SHMEMX_ORDER_C (last index "
                          "fastest) or SHMEMX_ORDER_FORTRAN (first index fastest)", order);
    for (int i = 0; i < ndims; i++) {
        if (sizes[i] < 1)
            return mpix_error(SHMEMX_ERR_ARG, call, "sizes[%d] is %d; every size must be 1 or "
                              "more", i, sizes[i]);
        if (subsizes[i] < 1 || subsizes[i] > sizes[i])
            return mpix_error(SHMEMX_ERR_ARG, call, "subsizes[%d] is %d; it must be between 1 "
                              "and sizes[%d] (%d)", i, subsizes[i], i, sizes[i]);
        if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
            return mpix_error(SHMEMX_ERR_ARG, call, "starts[%d] is %d; the block of subsizes[%d] "
                              "= %d must lie inside sizes[%d] = %d, so starts[%d] must be "
                              "between 0 and %d", i, starts[i], i, subsizes[i], i, sizes[i], i,
                              sizes[i] - subsizes[i]);
    }
    return SHMEMX_SUCCESS;
}

/* Dimension k of the walk from the fastest dimension to the slowest. */
static int dim(int k, int ndims, int order)
{
    return order == SHMEMX_ORDER_C ? ndims - 1 - k : k;
}

/* The bytes from the array's origin to the block's first element, and of the whole array;
 * -1 when they do not fit in a ptrdiff_t. */
static int array_bytes(int ndims, const int sizes[], const int starts[], int order,
                       ptrdiff_t elem, ptrdiff_t *start, ptrdiff_t *total)
{
    ptrdiff_t stride = elem, shift;
    *start = 0;
    for (int k = 0; k < ndims; k++) {
        int d = dim(k, ndims, order);
        if (__builtin_mul_overflow((ptrdiff_t)starts[d], stride, &shift) ||
            __builtin_add_overflow(*start, shift, start) ||
            __builtin_mul_overflow(stride, (ptrdiff_t)sizes[d], &stride))
            return -1;
    }
    *total = stride;
    return 0;
}

/* Replace *t by the type a constructor made from it (rc its result); *t is freed either way.
 * made is passed by address: it is read only after the constructor has run. */
static int replace(int rc, shmemx_datatype_t *t, const shmemx_datatype_t *made)
{
    shmemx_type_free(t);
    if (rc == SHMEMX_SUCCESS)
        *t = *made;
    return rc;
}

SSHMEM_DEFINE(int, shmemx_type_create_subarray,
              (int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
               shmemx_datatype_t oldtype, shmemx_datatype_t *newtype))
{
    int rc;
    if ((rc = check_dims(ndims, sizes, subsizes, starts, order)) ||
        (rc = mpix_type_check(oldtype, call, "oldtype", 0)))
        return rc;
    if (!newtype)
        return mpix_error(SHMEMX_ERR_ARG, call, "newtype is NULL");
    ptrdiff_t stride = mpix_extent(oldtype), start, total;
    if (array_bytes(ndims, sizes, starts, order, stride, &start, &total))
        return mpix_error(SHMEMX_ERR_COUNT, call, "the array of these sizes spans more bytes "
                          "than memory holds");
    /* The block, fastest dimension first: a run, then one hvector per slower dimension at
     * that dimension's stride in the array. */
    shmemx_datatype_t t = SHMEMX_DATATYPE_NULL, made = SHMEMX_DATATYPE_NULL;
    for (int k = 0; k < ndims; k++) {
        int d = dim(k, ndims, order);
        rc = k == 0 ? shmemx_type_contiguous(subsizes[d], oldtype, &t)
                    : replace(shmemx_type_create_hvector(subsizes[d], 1, stride, t, &made), &t,
                              &made);
        if (rc)
            return rc;
        stride *= sizes[d];
    }
    /* Shift the block to its start, then give it the whole array's bounds. */
    int one = 1;
    if ((rc = replace(shmemx_type_create_hindexed(1, &one, &start, t, &made), &t, &made)) ||
        (rc = replace(shmemx_type_create_resized(t, 0, total, &made), &t, &made)))
        return rc;
    *newtype = t;
    return SHMEMX_SUCCESS;
}
