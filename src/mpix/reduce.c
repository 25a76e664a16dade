/*
 * reduce.c: shmemx_reduce, shmemx_allreduce, shmemx_scan and shmemx_exscan on src/coll's engine,
 * its algorithms and its choice of them (SSHMEM_COLL_REDUCE forces them here too), all keeping
 * member order for a non-commutative user operator (coll/reduce.c).
 *
 * The (datatype, operator) pair becomes an engine operator (red_form.c). Buffers:
 *  - symmetric source and dest (shmem_malloc, globals; the normal case) with a form that may
 *    write whole elements: the engine works on them directly, no copy;
 *  - anything else (local memory, a type with gaps): the data goes in pieces through the team's
 *    symmetric staging buffer (src/team/team.h), combined there in place.
 * Which runs must be the same on every PE: it depends on the datatype and on whether the buffers
 * are symmetric, which shmemx.h asks to be the same on every PE.
 *
 * reduce (to a root): small vectors are gathered at the root (gathered()); anything else is the
 * engine's reduction to a root (coll_reduce_to) with the staging buffer as everybody's dest,
 * which the root copies out. Either way dest is written on the root only, as MPI says.
 */
#include <stdint.h>
#include <string.h>
#include <shmemx.h>

#include "coll/algo.h"
#include "coll/coll.h"
#include "core/api_defs.h"
#include "core/debug_hooks.h"
#include "core/env.h"
#include "core/error.h"
#include "mpix/coll.h"
#include "mpix/op.h"
#include "datatype/report.h"

enum red_kind { RED_ALL, RED_ROOT, RED_SCAN, RED_EXSCAN };

/* Above this, a rooted reduce on shared memory goes through the staging buffer rather than
 * gathered: the engine's shmrs has each member combine 1/n of the data. */
#define GATHERED_MAX_BYTES 4096

typedef struct red {
    struct sshmem_team *team;
    mpix_red_form_t form;
    enum red_kind kind;
    int root;  /* RED_ROOT: team index of the root */
    size_t count;
    const char *call;
} red_t;

/* ------------------------------------------------------------------ entry */

SSHMEM_COLD static void in_place_not_root(const red_t *r)
{
    sshmem_fatal(r->call, "source is SHMEMX_IN_PLACE on team PE %d, which is not the root (%d); "
                 "only the root may pass it (its input is then in dest): pass this PE's data in "
                 "source", r->team->my_index, r->root);
}

/* The checks of mpix_op_check and mpix_count_check that pass, the cheap way (a few loads: an
 * 8-byte reduction costs little more than the engine's own). */
static inline int usual_call(shmemx_datatype_t type, shmemx_op_t op, size_t count)
{
    return type && type->magic == MPIX_TYPE_MAGIC && (type->flags & MPIX_COMMITTED) && op &&
           op->magic == MPIX_OP_MAGIC && count <= (size_t)PTRDIFF_MAX &&
           (op->id < 0 || (type->kind >= 0 && mpix_op_allowed(op->id, type->kind)));
}

/* Checks (a mistake ends the job: the other PEs would wait forever), SHMEMX_IN_PLACE, and
 * the form. 0 when there is no data to combine. */
static int red_begin(red_t *r, shmem_team_t team, void *dest, const void **source, size_t count,
                     shmemx_datatype_t type, shmemx_op_t op)
{
    r->team = mpix_team_get(team, r->call);
    r->count = count;
    if (SSHMEM_UNLIKELY(!usual_call(type, op, count))) { /* find and report the mistake */
        mpix_errors_fatal(1);
        mpix_count_check(count, r->call, "count");
        mpix_op_check(op, type, r->call);
        mpix_errors_fatal(0);
    }
    int writes_dest = r->kind != RED_ROOT || r->root == r->team->my_index;
    if (r->kind == RED_ROOT && (r->root < 0 || r->root >= r->team->pes.size))
        sshmem_fatal(r->call, "root is %d, but the team has %d PEs (0 to %d); root is an index "
                     "in the team", r->root, r->team->pes.size, r->team->pes.size - 1);
    if (*source == SHMEMX_IN_PLACE) {
        if (!writes_dest)
            in_place_not_root(r);
        *source = dest;
    }
    mpix_check_buf(*source, count, type, "source", r->call);
    if (writes_dest)
        mpix_check_buf(dest, count, type, "dest", r->call);
    if (count == 0 || type->size == 0)
        return 0;
    mpix_red_form(&r->form, type, op);
    return 1;
}

/* Where [p, p + len) lies in symmetric memory: 1 with b filled in, or 0 (not symmetric). */
static int locate(coll_buf_t *b, const void *p, size_t len)
{
    b->addr = (char *)p;
    b->region = sshmem_region_of(p, len ? len : 1, &b->off);
    return b->region >= 0;
}

/* ------------------------------------------------------------------ one engine call */

static void setup(red_t *r, coll_t *c, size_t n)
{
    coll_setup_team(c, r->team, r->call);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(c, r->kind == RED_ROOT ? r->root : -1,
                                (long long)(n * r->form.op->esize));
}

/* Run the engine once on n engine elements of symmetric d and s (d may be s). */
static void engine(red_t *r, const coll_buf_t *d, const coll_buf_t *s, size_t n)
{
    coll_t c;
    setup(r, &c, n);
    switch (r->kind) {
    case RED_SCAN:
        coll_scan(&c, d, s, n, r->form.op, COLL_SCAN_INCLUSIVE);
        break;
    case RED_EXSCAN:
        coll_scan(&c, d, s, n, r->form.op, COLL_SCAN_EXCLUSIVE_KEEP);
        break;
    default:
        coll_reduce_to(&c, d, s, n, r->form.op, r->kind == RED_ROOT ? r->root : -1);
        break;
    }
}

/* ------------------------------------------------------------------ staged pieces */

/* An allreduce of n engine elements of this PE's own memory (s to d; the form needs no
 * staging) through the team's stage (coll_reduce_private). */
static void engine_private(red_t *r, char *d, const char *s, size_t n)
{
    coll_t c;
    coll_buf_t stage;
    setup(r, &c, n);
    locate(&stage, r->team->stage, n * r->form.op->esize);
    coll_reduce_private(&c, &stage, d, s, n, r->form.op);
}

SSHMEM_COLD static void element_too_big(const red_t *r)
{
    sshmem_fatal(r->call, "one element of this datatype takes %zu bytes in a reduction, more than "
                 "the team's staging buffer (%u bytes) for data that is not symmetric or has "
                 "gaps; pass symmetric source and dest (shmem_malloc) of a type without gaps, or "
                 "split the element", r->form.op->esize * r->form.per_elem,
                 (unsigned)r->team->stage_bytes);
}

/* Pieces of the data through the staging buffer. src_direct: source is symmetric and the form
 * needs no staging, so the engine reads it in place (only dest is staged). The result goes to
 * everybody's dest, but only the root's for a rooted reduce, and not member 0's for an exclusive
 * scan (MPI leaves it alone). */
static void run_staged(red_t *r, char *dest, const char *src, int src_direct)
{
    const mpix_red_form_t *f = &r->form;
    const size_t elem_bytes = f->op->esize * f->per_elem;
    const size_t piece = r->team->stage_bytes / elem_bytes;
    char *stage = r->team->stage;
    const int me = r->team->my_index;
    const int keep = (r->kind == RED_ROOT && me != r->root) || (r->kind == RED_EXSCAN && me == 0);
    if (SSHMEM_UNLIKELY(piece == 0))
        element_too_big(r);
    for (size_t e0 = 0, m; e0 < r->count; e0 += m) {
        m = r->count - e0 < piece ? r->count - e0 : piece;
        const char *s = src + (ptrdiff_t)e0 * f->extent;
        coll_buf_t sb, db;
        if (r->kind == RED_ALL && !src_direct && !f->staged) {
            engine_private(r, dest + (ptrdiff_t)e0 * f->extent + f->at, s + f->at,
                           m * f->per_elem);
            continue;
        }
        locate(&db, stage, m * elem_bytes);
        if (src_direct) {
            locate(&sb, s + f->at, m * elem_bytes);
            engine(r, &db, &sb, m * f->per_elem);
        } else {
            if (f->staged)
                mpix_red_stage_in(f, stage, s, m);
            else
                memcpy(stage, s + f->at, m * elem_bytes);
            engine(r, &db, &db, m * f->per_elem);
        }
        if (keep)
            continue;
        char *d = dest + (ptrdiff_t)e0 * f->extent;
        if (f->staged)
            mpix_red_stage_out(f, d, stage, m);
        else
            memcpy(d + f->at, stage, m * elem_bytes);
    }
}

/* A small rooted reduce gathered at the root (coll_reduce_gather), any source and dest (a form
 * with gaps is staged on this PE only). On shared memory up to GATHERED_MAX_BYTES,
 * SSHMEM_COLL_REDUCE=shm or auto; through UCX (auto only) on teams of up to MPIX_EARLY_UCX_MAX
 * PEs or whose members all reach each other by messages, when the vectors fit the root's work
 * space (one message per member instead of an allreduce). 0 when it does not apply. */
static int gathered(red_t *r, char *dest, const char *src)
{
    const mpix_red_form_t *f = &r->form;
    const size_t n = r->count * f->per_elem, bytes = n * f->op->esize;
    const int forced = sshmem_env.coll_reduce;
    const int direct = r->team->direct;
    if ((direct && bytes > GATHERED_MAX_BYTES) ||
        (!direct && r->team->pes.size > MPIX_EARLY_UCX_MAX && !coll_team_messages(r->team)) ||
        (forced != COLL_REDUCE_AUTO && !(direct && (forced == COLL_REDUCE_SHM ||
                                                    forced == COLL_REDUCE_STAMP))) ||
        !coll_reduce_gather_fits(r->team->pes.size, bytes, SSHMEM_TEAM_WORK_BYTES))
        return 0;
    coll_t c;
    coll_setup_team_ahead(&c, r->team, r->call);
    if (SSHMEM_UNLIKELY(sshmem_env.debug))
        sshmem_debug_agree_coll(&c, r->root, (long long)bytes);
    char *stage = r->team->stage, *out = c.me == r->root ? dest + f->at : NULL;
    if (f->staged) {
        mpix_red_stage_in(f, stage, src, r->count);
        src = stage;
        out = out ? stage : NULL;
    } else {
        src += f->at;
    }
    coll_reduce_gather(&c, out, src, n, f->op, r->root);
    if (out && f->staged)
        mpix_red_stage_out(f, dest, stage, r->count);
    return 1;
}

static int run(red_t *r, void *dest, const void *source)
{
    const mpix_red_form_t *f = &r->form;
    const size_t bytes = r->count * f->per_elem * f->op->esize;
    const char *s = source;
    coll_buf_t sb, db;
    if (r->kind == RED_ROOT && gathered(r, dest, s))
        return SHMEMX_SUCCESS;
    int src_sym = !f->staged && locate(&sb, s + f->at, bytes);
    if (r->kind != RED_ROOT && src_sym && locate(&db, (char *)dest + f->at, bytes))
        engine(r, &db, &sb, r->count * f->per_elem);
    else
        run_staged(r, dest, s, src_sym);
    return SHMEMX_SUCCESS;
}

/* ------------------------------------------------------------------ the routines */

static int reduction(shmem_team_t team, void *dest, const void *source, size_t count,
                     shmemx_datatype_t type, shmemx_op_t op, enum red_kind kind, int root,
                     const char *call)
{
    red_t r;
    r.kind = kind;
    r.root = root;
    r.call = call;
    if (!red_begin(&r, team, dest, &source, count, type, op))
        return SHMEMX_SUCCESS;
    return run(&r, dest, source);
}

SSHMEM_DEFINE(int, shmemx_reduce, (shmem_team_t team, void *dest, const void *source,
                                   size_t count, shmemx_datatype_t type, shmemx_op_t op, int root))
{
    return reduction(team, dest, source, count, type, op, RED_ROOT, root, "shmemx_reduce");
}

SSHMEM_DEFINE(int, shmemx_allreduce, (shmem_team_t team, void *dest, const void *source,
                                      size_t count, shmemx_datatype_t type, shmemx_op_t op))
{
    return reduction(team, dest, source, count, type, op, RED_ALL, -1, "shmemx_allreduce");
}

SSHMEM_DEFINE(int, shmemx_scan, (shmem_team_t team, void *dest, const void *source, size_t count,
                                 shmemx_datatype_t type, shmemx_op_t op))
{
    return reduction(team, dest, source, count, type, op, RED_SCAN, -1, "shmemx_scan");
}

SSHMEM_DEFINE(int, shmemx_exscan, (shmem_team_t team, void *dest, const void *source,
                                   size_t count, shmemx_datatype_t type, shmemx_op_t op))
{
    return reduction(team, dest, source, count, type, op, RED_EXSCAN, -1, "shmemx_exscan");
}
