/*
 * reduce.c: shmemx_reduce, shmemx_allreduce, shmemx_scan, shmemx_exscan on any datatype and
 * operator, as message-passing algorithms over the channels (channel.h).
 *
 * Operands: with a predefined operator they travel and combine packed (the type's data bytes
 * only; the kernels walk the type's kinds); with a user operator they are laid out in local
 * buffers with the type's extent, since the user function indexes elements that way, and are
 * packed only on the wire. Large counts go piece by piece, so local memory stays bounded.
 *
 * Order: every combine is "lower team indices o higher team indices", so a non-commutative
 * operator gets x0 o x1 o ... o x(n-1). reduce/allreduce use a binomial tree in which a
 * node's own range always precedes the range it receives; for a commutative operator the
 * tree is rotated to end at the root directly. scan/exscan use recursive doubling.
 */
#include <stdlib.h>
#include <shmemx.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "mpix/channel.h"
#include "mpix/coll.h"
#include "mpix/op.h"
#include "mpix/report.h"

#define PIECE_BYTES (256u << 10)

typedef struct red {
    mpix_team_t team;
    shmemx_datatype_t type;
    shmemx_op_t op;
    int layout;      /* user operator: operands laid out with the extent */
    size_t piece;    /* elements per piece */
    ptrdiff_t ext;
    ptrdiff_t shift; /* layout: element 0 starts this far into an operand buffer */
    char *buf[3];    /* operands */
    char *wire[2];   /* layout: packed data going out / coming in */
} red_t;

/* ------------------------------------------------------------------ operands */
static char *origin(const red_t *r, char *buf) { return buf + r->shift; }

static void load(red_t *r, char *buf, const char *src, size_t m)
{
    if (r->layout)
        mpix_copy_elems(origin(r, buf), src, m, r->type);
    else
        mpix_pack_elems(src, m, r->type, buf);
}

/* Packed bytes of an operand (packing it when it is laid out). */
static char *as_wire(red_t *r, char *buf, size_t m)
{
    if (!r->layout)
        return buf;
    mpix_pack_elems(origin(r, buf), m, r->type, r->wire[0]);
    return r->wire[0];
}

static void from_wire(red_t *r, char *buf, size_t m)
{
    if (r->layout)
        mpix_unpack_elems(r->wire[1], m, r->type, origin(r, buf));
}

static void send_op(red_t *r, int index, char *buf, size_t m)
{
    mpix_send(mpix_pe(&r->team, index), as_wire(r, buf, m), m * r->type->size);
}

static void recv_op(red_t *r, int index, char *buf, size_t m)
{
    mpix_recv(mpix_pe(&r->team, index), r->layout ? r->wire[1] : buf, m * r->type->size);
    from_wire(r, buf, m);
}

static void sendrecv_op(red_t *r, int index, char *sbuf, char *rbuf, size_t m)
{
    int pe = mpix_pe(&r->team, index);
    size_t len = m * r->type->size;
    mpix_sendrecv(pe, as_wire(r, sbuf, m), len, pe, r->layout ? r->wire[1] : rbuf, len);
    from_wire(r, rbuf, m);
}

/* inout = in o inout */
static void combine(red_t *r, char *in, char *inout, size_t m)
{
    if (r->layout)
        mpix_op_apply(r->op, r->type, origin(r, in), origin(r, inout), m, 0);
    else
        mpix_op_apply(r->op, r->type, in, inout, m, 1);
}

static void swap(char **a, char **b)
{
    char *t = *a;
    *a = *b;
    *b = t;
}

/* ------------------------------------------------------------------ set-up */
static void red_alloc(red_t *r, size_t count, const char *call)
{
    size_t size = r->type->size, piece = PIECE_BYTES / size;
    size_t aext = (size_t)(r->ext < 0 ? -r->ext : r->ext);
    if (r->layout && aext && PIECE_BYTES / aext < piece)
        piece = PIECE_BYTES / aext;
    r->piece = piece < 1 ? 1 : piece > count ? count : piece;
    size_t bytes = r->piece * size;
    r->shift = 0;
    if (r->layout) {
        ptrdiff_t lo, hi;
        mpix_span(r->type, r->piece, &lo, &hi);
        r->shift = lo < 0 ? (-lo + 63) & ~(ptrdiff_t)63 : 0;
        bytes = (size_t)(r->shift + (hi > 0 ? hi : 0));
    }
    for (int i = 0; i < 3; i++)
        r->buf[i] = malloc(bytes ? bytes : 1);
    for (int i = 0; i < 2; i++)
        r->wire[i] = r->layout ? malloc(r->piece * size) : NULL;
    if (!r->buf[0] || !r->buf[1] || !r->buf[2] || (r->layout && (!r->wire[0] || !r->wire[1])))
        sshmem_fatal(call, "out of memory for %zu bytes of reduction buffers", 5 * bytes);
}

/* Checks (fatal on a mistake) and buffers; 0 when there is nothing to do. dest_here: this
 * PE writes dest. */
static int red_begin(red_t *r, shmem_team_t team, void *dest, const void *source, size_t count,
                     shmemx_datatype_t type, shmemx_op_t op, int root, const char *call)
{
    mpix_coll_enter(team, &r->team, type, count, "count", call);
    mpix_errors_fatal(1);
    mpix_op_check(op, type, call);
    mpix_errors_fatal(0);
    if (root >= 0)
        mpix_check_root(&r->team, root, call);
    mpix_check_buf(source, count, type, "source", call);
    if (root < 0 || root == r->team.me)
        mpix_check_buf(dest, count, type, "dest", call);
    if (count == 0 || type->size == 0)
        return 0;
    r->type = type;
    r->op = op;
    r->layout = op->id < 0;
    r->ext = mpix_extent(type);
    red_alloc(r, count, call);
    return 1;
}

static void red_end(red_t *r)
{
    for (int i = 0; i < 3; i++)
        free(r->buf[i]);
    for (int i = 0; i < 2; i++)
        free(r->wire[i]);
}

/* ------------------------------------------------------------------ algorithms */
/*
 * Binomial tree over tree indices (team index - base): in round k, a node whose bit k is set
 * sends its range to the node 2^k below and leaves; the other receives the range just above
 * its own and combines own o received. Returns the result's buffer at tree index 0.
 */
static char *tree_reduce(red_t *r, const char *src, size_t m, int base)
{
    const int n = r->team.n, rel = (r->team.me - base + n) % n;
    char *acc = r->buf[0], *in = r->buf[1];
    load(r, acc, src, m);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (rel & mask) {
            send_op(r, (rel - mask + base) % n, acc, m);
            return NULL;
        }
        if (rel + mask < n) {
            recv_op(r, (rel + mask + base) % n, in, m);
            combine(r, acc, in, m);
            swap(&acc, &in);
        }
    }
    return acc;
}

/* Binomial broadcast of len packed bytes from team index 0. */
static void bcast_bytes(const red_t *r, char *bytes, size_t len)
{
    const int n = r->team.n, me = r->team.me;
    int mask = 1;
    for (; mask < n; mask <<= 1)
        if (me & mask) {
            mpix_recv(mpix_pe(&r->team, me - mask), bytes, len);
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (me + mask < n)
            mpix_send(mpix_pe(&r->team, me + mask), bytes, len);
}

/* Where packed results arrive when not made here. */
static char *landing(red_t *r) { return r->layout ? r->wire[1] : r->buf[2]; }

SSHMEM_DEFINE(int, shmemx_reduce, (shmem_team_t team, void *dest, const void *source,
                                   size_t count, shmemx_datatype_t type, shmemx_op_t op, int root))
{
    red_t r;
    if (!red_begin(&r, team, dest, source, count, type, op, root, "shmemx_reduce"))
        return SHMEMX_SUCCESS;
    const int me = r.team.me, base = op->commute ? root : 0;
    for (size_t e0 = 0, m; e0 < count; e0 += m) {
        m = count - e0 < r.piece ? count - e0 : r.piece;
        char *res = tree_reduce(&r, (const char *)source + (ptrdiff_t)e0 * r.ext, m, base);
        char *bytes = res ? as_wire(&r, res, m) : NULL;
        if (base != root && me == base)
            mpix_send(mpix_pe(&r.team, root), bytes, m * type->size);
        if (base != root && me == root)
            mpix_recv(mpix_pe(&r.team, base), bytes = landing(&r), m * type->size);
        if (me == root)
            mpix_unpack_elems(bytes, m, type, (char *)dest + (ptrdiff_t)e0 * r.ext);
    }
    red_end(&r);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_allreduce, (shmem_team_t team, void *dest, const void *source,
                                      size_t count, shmemx_datatype_t type, shmemx_op_t op))
{
    red_t r;
    if (!red_begin(&r, team, dest, source, count, type, op, -1, "shmemx_allreduce"))
        return SHMEMX_SUCCESS;
    for (size_t e0 = 0, m; e0 < count; e0 += m) {
        m = count - e0 < r.piece ? count - e0 : r.piece;
        char *res = tree_reduce(&r, (const char *)source + (ptrdiff_t)e0 * r.ext, m, 0);
        char *bytes = res ? as_wire(&r, res, m) : landing(&r);
        bcast_bytes(&r, bytes, m * type->size);
        mpix_unpack_elems(bytes, m, type, (char *)dest + (ptrdiff_t)e0 * r.ext);
    }
    red_end(&r);
    return SHMEMX_SUCCESS;
}

/*
 * Recursive doubling: in round k each PE swaps its running total with the PE whose index
 * differs in bit k. partial covers this PE's whole group of 2^(k+1) indices afterwards;
 * result adds only groups below this PE. Inclusive scans start result with x(me).
 */
static void scan_piece(red_t *r, const char *src, char *dst, size_t m, int exclusive)
{
    const int n = r->team.n, me = r->team.me;
    char *partial = r->buf[0], *tmp = r->buf[1], *result = r->buf[2];
    int have = !exclusive;
    load(r, partial, src, m);
    if (have)
        load(r, result, src, m);
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = me ^ mask;
        if (peer >= n)
            continue;
        sendrecv_op(r, peer, partial, tmp, m);
        if (peer < me) {
            combine(r, tmp, partial, m); /* partial = lower o partial */
            if (have) {
                combine(r, tmp, result, m);
            } else {
                swap(&result, &tmp);
                have = 1;
            }
        } else {
            combine(r, partial, tmp, m); /* partial = partial o higher */
            swap(&partial, &tmp);
        }
    }
    if (have)
        mpix_unpack_elems(as_wire(r, result, m), m, r->type, dst);
    /* the buffers may have been swapped around: keep them for red_end */
    r->buf[0] = partial;
    r->buf[1] = tmp;
    r->buf[2] = result;
}

static int scan(shmem_team_t team, void *dest, const void *source, size_t count,
                shmemx_datatype_t type, shmemx_op_t op, int exclusive, const char *call)
{
    red_t r;
    if (!red_begin(&r, team, dest, source, count, type, op, -1, call))
        return SHMEMX_SUCCESS;
    for (size_t e0 = 0, m; e0 < count; e0 += m) {
        m = count - e0 < r.piece ? count - e0 : r.piece;
        scan_piece(&r, (const char *)source + (ptrdiff_t)e0 * r.ext,
                   (char *)dest + (ptrdiff_t)e0 * r.ext, m, exclusive);
    }
    red_end(&r);
    return SHMEMX_SUCCESS;
}

SSHMEM_DEFINE(int, shmemx_scan, (shmem_team_t team, void *dest, const void *source, size_t count,
                                 shmemx_datatype_t type, shmemx_op_t op))
{
    return scan(team, dest, source, count, type, op, 0, "shmemx_scan");
}

SSHMEM_DEFINE(int, shmemx_exscan, (shmem_team_t team, void *dest, const void *source,
                                   size_t count, shmemx_datatype_t type, shmemx_op_t op))
{
    return scan(team, dest, source, count, type, op, 1, "shmemx_exscan");
}
