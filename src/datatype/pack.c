/*
 * pack.c: pack, unpack and typed copies of committed elements (MPI_Pack, MPI_Unpack,
 * MPI_Pack_size): the checks, then the type's copy plan does the moving.
 */
#include <shmemx.h>

#include "core/api_defs.h"
#include "datatype/datatype.h"
#include "datatype/report.h"

void mpix_span(shmemx_datatype_t t, size_t count, ptrdiff_t *lo, ptrdiff_t *hi)
{
    if (count == 0 || t->size == 0) {
        *lo = *hi = 0;
        return;
    }
    ptrdiff_t last = (ptrdiff_t)(count - 1) * mpix_extent(t);
    *lo = t->true_lb + (last < 0 ? last : 0);
    *hi = t->true_ub + (last > 0 ? last : 0);
}

void mpix_pack_elems(const void *origin, size_t count, shmemx_datatype_t t, void *out)
{
    copy_plan_pack(&t->plan, count, origin, out);
}

void mpix_unpack_elems(const void *in, size_t count, shmemx_datatype_t t, void *origin)
{
    copy_plan_unpack(&t->plan, count, in, origin);
}

void mpix_copy_elems(void *dst_origin, const void *src_origin, size_t count, shmemx_datatype_t t)
{
    copy_plan_copy(&t->plan, count, dst_origin, src_origin);
}

/* The checks shared by pack and unpack; *need gets the packed bytes of count elements. */
static int check_pack(const void *in, const void *out, size_t count, shmemx_datatype_t type,
                      size_t bufsize, const size_t *position, size_t *need, const char *call,
                      const char *inarg, const char *outarg, const char *countarg)
{
    int rc;
    if ((rc = mpix_type_check(type, call, "type", 1)) ||
        (rc = mpix_elems_check(type, count, call, countarg)))
        return rc;
    if (!position)
        return mpix_error(SHMEMX_ERR_ARG, call, "position is NULL; pass the address of a size_t "
                          "cursor (0 at the start of the buffer)");
    *need = count * type->size; /* fits: checked above */
    if (*need && (!in || !out))
        return mpix_error(SHMEMX_ERR_ARG, call, "%s is NULL", !in ? inarg : outarg);
    if (*position > bufsize || *need > bufsize - *position)
        return mpix_error(SHMEMX_ERR_TRUNCATE, call, "%zu elements of %s need %zu bytes from "
                          "position %zu, but the packed buffer has %zu bytes; size it with "
                          "shmemx_pack_size", count, mpix_type_name(type), *need, *position,
                          bufsize);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_pack, (const void *inbuf, size_t incount, shmemx_datatype_t type,
                                 void *outbuf, size_t outsize, size_t *position))
{
    size_t need;
    int rc = check_pack(inbuf, outbuf, incount, type, outsize, position, &need, "shmemx_pack",
                        "inbuf", "outbuf", "incount");
    if (rc)
        return rc;
    mpix_pack_elems(inbuf, incount, type, (char *)outbuf + *position);
    *position += need;
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_unpack, (const void *inbuf, size_t insize, size_t *position,
                                   void *outbuf, size_t outcount, shmemx_datatype_t type))
{
    size_t need;
    int rc = check_pack(inbuf, outbuf, outcount, type, insize, position, &need, "shmemx_unpack",
                        "inbuf", "outbuf", "outcount");
    if (rc)
        return rc;
    mpix_unpack_elems((const char *)inbuf + *position, outcount, type, outbuf);
    *position += need;
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_pack_size, (size_t incount, shmemx_datatype_t type, size_t *size))
{
    const char *call = "shmemx_pack_size";
    int rc;
    if ((rc = mpix_type_check(type, call, "type", 1)) ||
        (rc = mpix_elems_check(type, incount, call, "incount")))
        return rc;
    if (!size)
        return mpix_error(SHMEMX_ERR_ARG, call, "size is NULL");
    *size = incount * type->size; /* fits: checked above */
    return SHMEMX_SUCCESS;
}
