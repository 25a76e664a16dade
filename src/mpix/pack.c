/*
 * pack.c: walking a type's data runs, and what is built on the walk: pack, unpack, typed
 * copies (MPI_Pack, MPI_Unpack, MPI_Pack_size).
 */
#include <string.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "mpix/datatype.h"
#include "mpix/report.h"

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

void mpix_walk(shmemx_datatype_t t, size_t count, mpix_run_fn fn, void *arg)
{
    if (t->flags & MPIX_CONTIG) {
        if (count && t->size)
            fn(t->true_lb, count * t->size, arg);
        return;
    }
    ptrdiff_t ext = mpix_extent(t);
    for (size_t e = 0; e < count; e++) {
        ptrdiff_t base = (ptrdiff_t)e * ext;
        for (size_t i = 0; i < t->nblocks; i++) {
            const mpix_block_t *b = &t->blocks[i];
            for (size_t r = 0; r < b->reps; r++)
                fn(base + b->disp + (ptrdiff_t)r * b->stride, b->len, arg);
        }
    }
}

typedef struct {
    const char *src;
    char *dst;
} cursor_t;

static void pack_run(ptrdiff_t off, size_t len, void *arg)
{
    cursor_t *c = arg;
    memcpy(c->dst, c->src + off, len);
    c->dst += len;
}

static void unpack_run(ptrdiff_t off, size_t len, void *arg)
{
    cursor_t *c = arg;
    memcpy(c->dst + off, c->src, len);
    c->src += len;
}

static void copy_run(ptrdiff_t off, size_t len, void *arg)
{
    cursor_t *c = arg;
    memmove(c->dst + off, c->src + off, len);
}

void mpix_pack_elems(const void *origin, size_t count, shmemx_datatype_t t, void *out)
{
    cursor_t c = {origin, out};
    mpix_walk(t, count, pack_run, &c);
}

void mpix_unpack_elems(const void *in, size_t count, shmemx_datatype_t t, void *origin)
{
    cursor_t c = {in, origin};
    mpix_walk(t, count, unpack_run, &c);
}

void mpix_copy_elems(void *dst_origin, const void *src_origin, size_t count, shmemx_datatype_t t)
{
    if (dst_origin == src_origin)
        return;
    cursor_t c = {src_origin, dst_origin};
    mpix_walk(t, count, copy_run, &c);
}

/* The checks shared by pack and unpack; *need gets the packed bytes of count elements. */
static int check_pack(const void *in, const void *out, size_t count, shmemx_datatype_t type,
                      size_t bufsize, const size_t *position, size_t *need, const char *call,
                      const char *inarg, const char *outarg, const char *countarg)
{
    int rc;
    if ((rc = mpix_type_check(type, call, "type", 1)) ||
        (rc = mpix_count_check(count, call, countarg)))
        return rc;
    if (!position)
        return mpix_error(SHMEMX_ERR_ARG, call, "position is NULL; pass the address of a size_t "
                          "cursor (0 at the start of the buffer)");
    if (__builtin_mul_overflow(count, type->size, need))
        return mpix_error(SHMEMX_ERR_COUNT, call, "%s %zu of %s is more data than memory holds",
                          countarg, count, mpix_type_name(type));
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
        (rc = mpix_count_check(incount, call, "incount")))
        return rc;
    if (!size)
        return mpix_error(SHMEMX_ERR_ARG, call, "size is NULL");
    if (__builtin_mul_overflow(incount, type->size, size))
        return mpix_error(SHMEMX_ERR_COUNT, call, "incount %zu of %s is more data than memory "
                          "holds", incount, mpix_type_name(type));
    return SHMEMX_SUCCESS;
}
