/*
 * copy_plan.c: running copy plans (see copy_plan.h): the movers and the wire form.
 *
 * All movers are one engine. It walks the runs of count elements in type-map order and moves
 * each between a layout side (the run at origin + its offset) and the other side, which is
 * either packed (a cursor that advances run by run) or a second layout (copy). Per piece, the
 * innermost loop is one strided copy specialised for the common run sizes, so a vector of
 * doubles costs one load and one store per double; the outer loops are an odometer.
 *
 * A plan with one piece treats the count of elements as one more (outermost) loop, so count
 * elements of a vector are still one strided loop nest, not count separate walks.
 */
#include <stdint.h>
#include <string.h>

#include "core/copy_plan.h"

/* A piece as the walkers see it: its loops may be a plan piece's own, or those with the
 * element loop on top (up to COPY_PLAN_MAX_DEPTH + 1). */
typedef struct walk_piece {
    ptrdiff_t disp;
    size_t run;
    int depth;
    const copy_loop_t *loop;
} walk_piece_t;

static walk_piece_t view(const copy_piece_t *pc)
{
    return (walk_piece_t){pc->disp, pc->run, pc->depth, pc->loop};
}

/* One side of a move: a layout (base = element 0's origin; runs at their offsets) or packed
 * (base = the next byte; it advances by each run moved). */
typedef struct side {
    char *base;
    int packed;
} side_t;

typedef void copy_run_fn(ptrdiff_t off, size_t len, void *arg);

/* visit set: nothing moves; each run's layout offset and length go to visit instead. */
typedef struct move {
    side_t dst, src;
    copy_run_fn *visit;
    void *arg;
} move_t;

/* ------------------------------------------------------------------ the inner loops */
/* Whether a strided copy of n runs goes one run at a time (see STRIDED_RUNS_OF): every run
 * on lines of its own on both sides (strides of a cache line or more) and the copy spanning
 * 64 KiB or more, so that its lines stream through L1 rather than stay there. */
static inline int one_run_at_a_time(ptrdiff_t ds, ptrdiff_t ss, size_t n)
{
    const ptrdiff_t line = 64;
    ptrdiff_t dabs = ds < 0 ? -ds : ds, sabs = ss < 0 ? -ss : ss;
    if (dabs < line || sabs < line)
        return 0;
    return n >= (size_t)(64 * 1024) / (size_t)(dabs > sabs ? dabs : sabs);
}

/* A run of a size the compiler knows: one load and one store (memcpy of a constant size
 * compiles to that, and stays correct for unaligned data). Four runs per iteration, loads
 * before stores, so four loads are in flight: in L1 twice as fast as one run at a time.
 * Where every run has lines of its own and the copy streams through L1, one run at a time is
 * faster instead (measured on AMD EPYC, bench/strided_micro.c), the hardware's stride
 * prefetch following one load and one store stream better than four of each. */
#define STRIDED_RUNS_OF(T)                                                                   \
    do {                                                                                     \
        size_t i = 0, unrolled = one_run_at_a_time(ds, ss, n) ? 0 : n;                       \
        for (; i + 4 <= unrolled; i += 4, d += 4 * ds, s += 4 * ss) {                        \
            T v0, v1, v2, v3;                                                                \
            memcpy(&v0, s, sizeof(T));                                                       \
            memcpy(&v1, s + ss, sizeof(T));                                                  \
            memcpy(&v2, s + 2 * ss, sizeof(T));                                              \
            memcpy(&v3, s + 3 * ss, sizeof(T));                                              \
            memcpy(d, &v0, sizeof(T));                                                       \
            memcpy(d + ds, &v1, sizeof(T));                                                  \
            memcpy(d + 2 * ds, &v2, sizeof(T));                                              \
            memcpy(d + 3 * ds, &v3, sizeof(T));                                              \
        }                                                                                    \
        for (; i < n; i++, d += ds, s += ss) {                                               \
            T v;                                                                             \
            memcpy(&v, s, sizeof v);                                                         \
            memcpy(d, &v, sizeof v);                                                         \
        }                                                                                    \
    } while (0)

/* A run of B < run <= 2B bytes for a B the compiler knows: the first B bytes and the last B
 * bytes (they overlap), both loaded before either is stored, so a run that overlaps itself
 * (a layout copied onto itself, shifted) still moves like memmove. No library call per run:
 * a memmove per small run took two to three times as long. */
#define STRIDED_RUNS_OVERLAPPING(T)                                                          \
    for (size_t i = 0; i < n; i++, d += ds, s += ss) {                                       \
        T head, tail;                                                                        \
        memcpy(&head, s, sizeof(T));                                                         \
        memcpy(&tail, s + run - sizeof(T), sizeof(T));                                       \
        memcpy(d, &head, sizeof(T));                                                         \
        memcpy(d + run - sizeof(T), &tail, sizeof(T));                                       \
    }

typedef struct sixteen {
    uint64_t a, b;
} sixteen_t;

/* 32 < run <= 64: the first 32 bytes and the last 32 (two 16-byte moves each), alike. */
#define STRIDED_RUNS_OVERLAPPING_32()                                                        \
    for (size_t i = 0; i < n; i++, d += ds, s += ss) {                                       \
        sixteen_t h0, h1, t0, t1;                                                            \
        memcpy(&h0, s, 16);                                                                  \
        memcpy(&h1, s + 16, 16);                                                             \
        memcpy(&t0, s + run - 32, 16);                                                       \
        memcpy(&t1, s + run - 16, 16);                                                       \
        memcpy(d, &h0, 16);                                                                  \
        memcpy(d + 16, &h1, 16);                                                             \
        memcpy(d + run - 32, &t0, 16);                                                       \
        memcpy(d + run - 16, &t1, 16);                                                       \
    }

/* (static inline: the movers get it inlined, with its switch, into their loops) */
static inline void strided(void *dst, ptrdiff_t ds, const void *src, ptrdiff_t ss, size_t n,
                           size_t run)
{
    char *d = dst;
    const char *s = src;
    if (ds == (ptrdiff_t)run && ss == (ptrdiff_t)run) { /* both sides contiguous */
        memmove(d, s, n * run);
        return;
    }
    switch (run) {
    case 1:
        STRIDED_RUNS_OF(uint8_t);
        break;
    case 2:
        STRIDED_RUNS_OF(uint16_t);
        break;
    case 4:
        STRIDED_RUNS_OF(uint32_t);
        break;
    case 8:
        STRIDED_RUNS_OF(uint64_t);
        break;
    case 16:
        STRIDED_RUNS_OF(sixteen_t);
        break;
    case 3:
        STRIDED_RUNS_OVERLAPPING(uint16_t);
        break;
    case 5: case 6: case 7:
        STRIDED_RUNS_OVERLAPPING(uint32_t);
        break;
    case 9: case 10: case 11: case 12: case 13: case 14: case 15:
        STRIDED_RUNS_OVERLAPPING(uint64_t);
        break;
    default:
        if (run > 16 && run <= 32) {
            STRIDED_RUNS_OVERLAPPING(sixteen_t);
        } else if (run > 32 && run <= 64) {
            STRIDED_RUNS_OVERLAPPING_32();
        } else { /* longer runs (or none): memmove, as a run may overlap itself */
            for (size_t i = 0; i < n; i++, d += ds, s += ss)
                memmove(d, s, run);
        }
    }
}

void copy_strided(void *dst, ptrdiff_t dst_stride, const void *src, ptrdiff_t src_stride,
                  size_t n, size_t run)
{
    strided(dst, dst_stride, src, src_stride, n, run);
}

/* k runs of `run` bytes whose layout offsets start at off and step by stride. */
static void move_runs(move_t *m, ptrdiff_t off, ptrdiff_t stride, size_t k, size_t run)
{
    if (m->visit) {
        for (size_t i = 0; i < k; i++)
            m->visit(off + (ptrdiff_t)i * stride, run, m->arg);
        return;
    }
    char *d = m->dst.packed ? m->dst.base : m->dst.base + off;
    const char *s = m->src.packed ? m->src.base : m->src.base + off;
    strided(d, m->dst.packed ? (ptrdiff_t)run : stride, s,
            m->src.packed ? (ptrdiff_t)run : stride, k, run);
    if (m->dst.packed)
        m->dst.base += k * run;
    if (m->src.packed)
        m->src.base += k * run;
}

/* len bytes at layout offset off (part of one run). */
static void move_bytes(move_t *m, ptrdiff_t off, size_t len)
{
    move_runs(m, off, 0, 1, len);
}

/* ------------------------------------------------------------------ walking a piece */
static size_t loop_runs(int depth, const copy_loop_t loop[])
{
    size_t n = 1;
    for (int l = 0; l < depth; l++)
        n *= loop[l].count;
    return n;
}

size_t copy_piece_bytes(const copy_piece_t *pc)
{
    return pc->run * loop_runs(pc->depth, pc->loop);
}

/* Layout offset of run r of the piece (runs numbered in loop order), and its loop indices. */
static ptrdiff_t run_offset(const walk_piece_t *pc, size_t r, size_t idx[])
{
    ptrdiff_t off = pc->disp;
    for (int l = pc->depth - 1; l >= 0; l--) {
        idx[l] = r % pc->loop[l].count;
        r /= pc->loop[l].count;
        off += (ptrdiff_t)idx[l] * pc->loop[l].stride;
    }
    return off;
}

/* Move the whole runs [first, first + n) of the piece, at layout offset base. */
static void walk_runs(const walk_piece_t *pc, ptrdiff_t base, size_t first, size_t n, move_t *m)
{
    if (pc->depth == 0) {
        move_runs(m, base + pc->disp, 0, n, pc->run);
        return;
    }
    size_t idx[COPY_PLAN_MAX_DEPTH + 1];
    ptrdiff_t off = base + run_offset(pc, first, idx);
    const int in = pc->depth - 1;
    const copy_loop_t *inner = &pc->loop[in];
    for (;;) {
        size_t k = inner->count - idx[in];
        if (k > n)
            k = n;
        move_runs(m, off, inner->stride, k, pc->run);
        n -= k;
        if (!n)
            return;
        /* The odometer: back to the innermost loop's start, carry into the outer loops. */
        off -= (ptrdiff_t)idx[in] * inner->stride;
        idx[in] = 0;
        for (int l = in - 1; l >= 0; l--) {
            off += pc->loop[l].stride;
            if (++idx[l] < pc->loop[l].count)
                break;
            off -= (ptrdiff_t)pc->loop[l].count * pc->loop[l].stride;
            idx[l] = 0;
        }
    }
}

/* Move the packed bytes [skip, skip + len) of the piece (within its data), at layout offset
 * base: a partial first run, whole runs, a partial last run. */
static void walk_bytes(const walk_piece_t *pc, ptrdiff_t base, size_t skip, size_t len,
                       move_t *m)
{
    size_t idx[COPY_PLAN_MAX_DEPTH + 1];
    if (skip == 0 && len % pc->run == 0) { /* whole runs from the first: no positioning */
        walk_runs(pc, base, 0, len / pc->run, m);
        return;
    }
    size_t r = skip / pc->run, into = skip % pc->run;
    if (into) {
        size_t k = pc->run - into < len ? pc->run - into : len;
        move_bytes(m, base + run_offset(pc, r, idx) + (ptrdiff_t)into, k);
        len -= k;
        r++;
    }
    size_t whole = len / pc->run;
    if (whole) {
        walk_runs(pc, base, r, whole, m);
        r += whole;
        len -= whole * pc->run;
    }
    if (len)
        move_bytes(m, base + run_offset(pc, r, idx), len);
}

/* ------------------------------------------------------------------ the engine */
/* The packed bytes [skip, skip + len) of element e's data (len within the element). */
static void element_bytes(const copy_plan_t *p, size_t e, size_t skip, size_t len, move_t *m)
{
    ptrdiff_t base = (ptrdiff_t)e * p->extent;
    for (size_t i = 0; i < p->npieces && len; i++) {
        size_t pb = copy_piece_bytes(&p->pieces[i]);
        if (skip >= pb) {
            skip -= pb;
            continue;
        }
        size_t k = pb - skip < len ? pb - skip : len;
        walk_piece_t w = view(&p->pieces[i]);
        walk_bytes(&w, base, skip, k, m);
        len -= k;
        skip = 0;
    }
}

/* Bytes of layout a block of whole elements spans, when every piece is one run (below). */
#define ELEMENT_BLOCK_BYTES 8192

static int single_runs(const copy_plan_t *p)
{
    for (size_t i = 0; i < p->npieces; i++)
        if (p->pieces[i].depth)
            return 0;
    return 1;
}

/* Whole elements [first, first + n) of a plan whose pieces are single runs (a struct's
 * fields): a block of elements at a time, each piece one strided loop over the block (its
 * runs extent apart on a layout side, bytes apart on the packed side), so a struct array
 * moves at the speed of the strided loops (a walk run by run was 25 times slower), and the
 * block's lines stay in L1 from one piece to the next. Within a block
 * the runs go piece by piece; only the visitor needs type-map order, and it never comes here. */
static void blocked_elements(const copy_plan_t *p, size_t first, size_t n, move_t *m)
{
    const size_t ext = (size_t)(p->extent < 0 ? -p->extent : p->extent);
    const size_t block = ext && ext < ELEMENT_BLOCK_BYTES ? ELEMENT_BLOCK_BYTES / ext : 1;
    const ptrdiff_t dstep = m->dst.packed ? (ptrdiff_t)p->bytes : p->extent;
    const ptrdiff_t sstep = m->src.packed ? (ptrdiff_t)p->bytes : p->extent;
    for (size_t e = first, k; e < first + n; e += k) {
        k = first + n - e < block ? first + n - e : block;
        ptrdiff_t base = (ptrdiff_t)e * p->extent, at = 0; /* at: the piece's packed offset */
        for (size_t i = 0; i < p->npieces; i++) {
            const copy_piece_t *pc = &p->pieces[i];
            char *d = m->dst.packed ? m->dst.base + at : m->dst.base + base + pc->disp;
            const char *s = m->src.packed ? m->src.base + at : m->src.base + base + pc->disp;
            strided(d, dstep, s, sstep, k, pc->run);
            at += (ptrdiff_t)pc->run;
        }
        if (m->dst.packed)
            m->dst.base += k * p->bytes;
        if (m->src.packed)
            m->src.base += k * p->bytes;
    }
}

/* Whole elements [first, first + n): every run of every piece, no position arithmetic. */
static void whole_elements(const copy_plan_t *p, size_t first, size_t n, move_t *m)
{
    if (!m->visit && n > 1 && single_runs(p)) {
        blocked_elements(p, first, n, m);
        return;
    }
    for (size_t e = first; e < first + n; e++) {
        ptrdiff_t base = (ptrdiff_t)e * p->extent;
        for (size_t i = 0; i < p->npieces; i++) {
            const copy_piece_t *pc = &p->pieces[i];
            if (pc->depth == 0) {
                move_runs(m, base + pc->disp, 0, 1, pc->run);
            } else {
                walk_piece_t w = view(pc);
                walk_runs(&w, base, 0, loop_runs(pc->depth, pc->loop), m);
            }
        }
    }
}

/* Move the packed bytes [skip, skip + len) of count elements. */
static void plan_move(const copy_plan_t *p, size_t count, move_t *m, size_t skip, size_t len)
{
    if (!len || !p->bytes || !count)
        return;
    if (p->contiguous) {
        move_bytes(m, p->pieces[0].disp + (ptrdiff_t)skip, len);
        return;
    }
    if (p->npieces == 1) { /* the elements are the outermost loop of the one piece */
        const copy_piece_t *pc = &p->pieces[0];
        copy_loop_t loop[COPY_PLAN_MAX_DEPTH + 1] = {{count, p->extent}};
        memcpy(&loop[1], pc->loop, (size_t)pc->depth * sizeof loop[0]);
        walk_piece_t w = {pc->disp, pc->run, pc->depth + 1, loop};
        walk_bytes(&w, 0, skip, len, m);
        return;
    }
    /* a partial first element, whole elements, a partial last element */
    size_t e = skip / p->bytes, into = skip % p->bytes;
    if (into) {
        size_t k = p->bytes - into < len ? p->bytes - into : len;
        element_bytes(p, e++, into, k, m);
        len -= k;
    }
    size_t whole = len / p->bytes;
    whole_elements(p, e, whole, m);
    if (len -= whole * p->bytes)
        element_bytes(p, e + whole, 0, len, m);
}

void copy_plan_pack_range(const copy_plan_t *p, size_t count, const void *origin, size_t skip,
                          size_t len, void *out)
{
    /* The casts drop const only to share one side type; a source side is never written. */
    move_t m = {{out, 1}, {(char *)origin, 0}, NULL, NULL};
    plan_move(p, count, &m, skip, len);
}

void copy_plan_unpack_range(const copy_plan_t *p, size_t count, const void *in, size_t skip,
                            size_t len, void *origin)
{
    move_t m = {{origin, 0}, {(char *)in, 1}, NULL, NULL};
    plan_move(p, count, &m, skip, len);
}

void copy_plan_pack(const copy_plan_t *p, size_t count, const void *origin, void *out)
{
    copy_plan_pack_range(p, count, origin, 0, copy_plan_bytes(p, count), out);
}

void copy_plan_unpack(const copy_plan_t *p, size_t count, const void *in, void *origin)
{
    copy_plan_unpack_range(p, count, in, 0, copy_plan_bytes(p, count), origin);
}

void copy_plan_copy(const copy_plan_t *p, size_t count, void *dst_origin, const void *src_origin)
{
    if (dst_origin == src_origin)
        return;
    move_t m = {{dst_origin, 0}, {(char *)src_origin, 0}, NULL, NULL};
    plan_move(p, count, &m, 0, copy_plan_bytes(p, count));
}

int copy_plan_same_layout(const copy_plan_t *a, const copy_plan_t *b)
{
    if (a == b)
        return 1;
    if (a->npieces != b->npieces || a->extent != b->extent || a->bytes != b->bytes)
        return 0;
    for (size_t i = 0; i < a->npieces; i++) {
        const copy_piece_t *x = &a->pieces[i], *y = &b->pieces[i];
        if (x->disp != y->disp || x->run != y->run || x->depth != y->depth)
            return 0;
        for (int l = 0; l < x->depth; l++)
            if (x->loop[l].count != y->loop[l].count || x->loop[l].stride != y->loop[l].stride)
                return 0;
    }
    return 1;
}

void copy_plan_each_run(const copy_plan_t *p, size_t count,
                        void (*fn)(ptrdiff_t off, size_t len, void *arg), void *arg)
{
    move_t m = {{NULL, 0}, {NULL, 0}, fn, arg};
    plan_move(p, count, &m, 0, copy_plan_bytes(p, count));
}

/* ------------------------------------------------------------------ making plans */
static void drop_loop(copy_piece_t *pc, int l)
{
    memmove(&pc->loop[l], &pc->loop[l + 1], (size_t)(pc->depth - l - 1) * sizeof pc->loop[0]);
    pc->depth--;
}

/* The same runs with the fewest loops: a loop of one iteration is no loop; a loop that steps
 * by exactly its run makes a longer run; an outer loop that steps by the whole inner loop
 * makes the inner loop longer. */
static void normalise_piece(copy_piece_t *pc)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int l = pc->depth - 1; l >= 0; l--)
            if (pc->loop[l].count == 1) {
                drop_loop(pc, l);
                changed = 1;
            }
        if (pc->depth && pc->loop[pc->depth - 1].stride == (ptrdiff_t)pc->run) {
            pc->run *= pc->loop[pc->depth - 1].count;
            pc->depth--;
            changed = 1;
        }
        for (int l = pc->depth - 2; l >= 0; l--) {
            copy_loop_t *outer = &pc->loop[l], *inner = &pc->loop[l + 1];
            if (outer->stride == (ptrdiff_t)inner->count * inner->stride) {
                inner->count *= outer->count;
                drop_loop(pc, l);
                changed = 1;
            }
        }
    }
}

void copy_plan_finish(copy_plan_t *p)
{
    size_t kept = 0;
    p->bytes = 0;
    for (size_t i = 0; i < p->npieces; i++) {
        copy_piece_t pc = p->pieces[i];
        size_t b = copy_piece_bytes(&pc);
        if (!b)
            continue;
        normalise_piece(&pc);
        p->pieces[kept++] = pc;
        p->bytes += b;
    }
    p->npieces = kept;
    p->contiguous = kept == 1 && p->pieces[0].depth == 0 && p->extent == (ptrdiff_t)p->bytes;
}

static int same_loops(const copy_loop_t *a, const copy_loop_t *b, int depth)
{
    for (int l = 0; l < depth; l++)
        if (a[l].count != b[l].count || a[l].stride != b[l].stride)
            return 0;
    return 1;
}

/* Merge next into last when the two continue each other: next's run directly after last's
 * only run; next one more repetition of last's outermost loop; or next a shifted copy of
 * last (a new outer loop of two). */
static int merge_piece(copy_piece_t *last, const copy_piece_t *next)
{
    if (last->run != next->run) {
        if (last->depth == 0 && next->depth == 0 &&
            next->disp == last->disp + (ptrdiff_t)last->run) {
            last->run += next->run;
            return 1;
        }
        return 0;
    }
    if (last->depth == next->depth + 1 && same_loops(&last->loop[1], next->loop, next->depth) &&
        next->disp == last->disp + (ptrdiff_t)last->loop[0].count * last->loop[0].stride) {
        last->loop[0].count++;
        return 1;
    }
    if (last->depth == next->depth && last->depth < COPY_PLAN_MAX_DEPTH &&
        same_loops(last->loop, next->loop, next->depth)) {
        memmove(&last->loop[1], &last->loop[0], (size_t)last->depth * sizeof last->loop[0]);
        last->loop[0] = (copy_loop_t){2, next->disp - last->disp};
        last->depth++;
        return 1; /* (two abutting runs: normalising folds the loop into one run) */
    }
    return 0;
}

void copy_plan_push(copy_piece_t *pieces, size_t *npieces, const copy_piece_t *next)
{
    copy_piece_t pc = *next;
    if (!copy_piece_bytes(&pc))
        return;
    normalise_piece(&pc);
    if (*npieces && merge_piece(&pieces[*npieces - 1], &pc)) {
        normalise_piece(&pieces[*npieces - 1]);
        return;
    }
    pieces[(*npieces)++] = pc;
}

void copy_plan_strided(copy_plan_t *p, copy_piece_t *piece, size_t run, ptrdiff_t stride)
{
    *piece = (copy_piece_t){.disp = 0, .run = run, .depth = 0};
    *p = (copy_plan_t){.npieces = 1, .pieces = piece, .extent = stride};
    copy_plan_finish(p);
}

/* ------------------------------------------------------------------ the wire form */
/* Little fixed-width fields in the host's byte order (both ends run the same build):
 * magic, contiguous, npieces, bytes, extent; then per piece disp, run, depth and its loops. */
#define WIRE_MAGIC 0x636f7079u /* "copy" */

typedef struct wire_head {
    uint32_t magic, contiguous;
    uint64_t npieces, bytes;
    int64_t extent;
} wire_head_t;

typedef struct wire_piece {
    int64_t disp;
    uint64_t run, depth;
} wire_piece_t;

typedef struct wire_loop {
    uint64_t count;
    int64_t stride;
} wire_loop_t;

size_t copy_plan_wire_size(const copy_plan_t *p)
{
    size_t n = sizeof(wire_head_t) + p->npieces * sizeof(wire_piece_t);
    for (size_t i = 0; i < p->npieces; i++)
        n += (size_t)p->pieces[i].depth * sizeof(wire_loop_t);
    return n;
}

void copy_plan_to_wire(const copy_plan_t *p, void *out)
{
    char *o = out;
    wire_head_t h = {WIRE_MAGIC, (uint32_t)p->contiguous, p->npieces, p->bytes, p->extent};
    memcpy(o, &h, sizeof h);
    o += sizeof h;
    for (size_t i = 0; i < p->npieces; i++) {
        const copy_piece_t *pc = &p->pieces[i];
        wire_piece_t w = {pc->disp, pc->run, (uint64_t)pc->depth};
        memcpy(o, &w, sizeof w);
        o += sizeof w;
        for (int l = 0; l < pc->depth; l++) {
            wire_loop_t wl = {pc->loop[l].count, pc->loop[l].stride};
            memcpy(o, &wl, sizeof wl);
            o += sizeof wl;
        }
    }
}

size_t copy_plan_from_wire(const void *in, size_t len, copy_plan_t *p, copy_piece_t *pieces,
                           size_t max_pieces)
{
    const char *i = in, *end = i + len;
    wire_head_t h;
    if (len < sizeof h)
        return 0;
    memcpy(&h, i, sizeof h);
    i += sizeof h;
    if (h.magic != WIRE_MAGIC || h.npieces > max_pieces || h.contiguous > 1)
        return 0;
    size_t bytes = 0;
    for (size_t k = 0; k < h.npieces; k++) {
        wire_piece_t w;
        if ((size_t)(end - i) < sizeof w)
            return 0;
        memcpy(&w, i, sizeof w);
        i += sizeof w;
        if (w.depth > COPY_PLAN_MAX_DEPTH || (size_t)(end - i) < w.depth * sizeof(wire_loop_t))
            return 0;
        copy_piece_t *pc = &pieces[k];
        *pc = (copy_piece_t){.disp = w.disp, .run = w.run, .depth = (int)w.depth};
        for (int l = 0; l < pc->depth; l++) {
            wire_loop_t wl;
            memcpy(&wl, i, sizeof wl);
            i += sizeof wl;
            if (wl.count == 0)
                return 0;
            pc->loop[l] = (copy_loop_t){wl.count, wl.stride};
        }
        bytes += copy_piece_bytes(pc);
    }
    if (bytes != h.bytes || (h.contiguous && (h.npieces != 1 || pieces[0].depth != 0)))
        return 0;
    *p = (copy_plan_t){.npieces = h.npieces, .pieces = pieces, .bytes = h.bytes,
                       .extent = h.extent, .contiguous = (int)h.contiguous};
    return (size_t)(i - (const char *)in);
}
