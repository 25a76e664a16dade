/*
 * test_copy_plan.c: the copy-plan movers against hand-computed layouts and against a
 * reference that lists every data byte's offset: pack, unpack (no gap written), copy, the run
 * visitor, the _range forms in every chunking, negative strides, depth 0..4, several pieces, the
 * normalisation of copy_plan_finish, and the wire form's round trip and refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/copy_plan.h"

/* ------------------------------------------------------------------ hand-computed layouts */
/* 1000 doubles at a stride of 24 doubles (the vector case): one piece, one loop. */
static void vector_of_doubles(void **state)
{
    enum { N = 1000, S = 24 };
    double *m = malloc(N * S * sizeof *m), packed[N], *back = calloc(N * S, sizeof *back);
    for (size_t i = 0; i < N * S; i++)
        m[i] = (double)i;
    copy_piece_t pc = {.disp = 0, .run = 8, .depth = 1, .loop = {{N, S * 8}}};
    copy_plan_t p = {.npieces = 1, .pieces = &pc, .extent = (N - 1) * S * 8 + 8};
    copy_plan_finish(&p);
    assert_int_equal(p.bytes, N * 8);
    assert_int_equal(p.npieces, 1);
    assert_int_equal(p.pieces[0].depth, 1);
    assert_false(p.contiguous);
    copy_plan_pack(&p, 1, m, packed);
    for (int i = 0; i < N; i++)
        assert_true(packed[i] == (double)(i * S));
    copy_plan_unpack(&p, 1, packed, back);
    for (size_t i = 0; i < N * S; i++)
        assert_true(back[i] == (i % S ? 0.0 : (double)i));
    free(m);
    free(back);
}

/* Two loops around 4-byte runs: rows of 100 bytes, 4 runs 10 bytes apart in each, 3 rows;
 * two elements 400 bytes apart. */
static void two_loops(void **state)
{
    unsigned char src[800], out[96];
    for (int i = 0; i < 800; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    copy_piece_t pc = {.disp = 5, .run = 4, .depth = 2, .loop = {{3, 100}, {4, 10}}};
    copy_plan_t p = {.npieces = 1, .pieces = &pc, .extent = 400};
    copy_plan_finish(&p);
    assert_int_equal(p.bytes, 48);
    copy_plan_pack(&p, 2, src, out);
    int k = 0;
    for (int e = 0; e < 2; e++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                for (int b = 0; b < 4; b++)
                    assert_int_equal(out[k++], src[e * 400 + 5 + r * 100 + c * 10 + b]);
}

/* Negative strides walk backwards: the runs of a reversed vector come out last first. */
static void negative_strides(void **state)
{
    int64_t v[8] = {0, 1, 2, 3, 4, 5, 6, 7}, out[4], back[8] = {0};
    copy_piece_t pc = {.disp = 6 * 8, .run = 8, .depth = 1, .loop = {{4, -16}}};
    copy_plan_t p = {.npieces = 1, .pieces = &pc, .extent = 64};
    copy_plan_finish(&p);
    copy_plan_pack(&p, 1, v, out);
    assert_int_equal(out[0], 6);
    assert_int_equal(out[1], 4);
    assert_int_equal(out[2], 2);
    assert_int_equal(out[3], 0);
    copy_plan_unpack(&p, 1, out, back);
    for (int i = 0; i < 8; i++)
        assert_int_equal(back[i], i % 2 ? 0 : i);
    /* A negative extent: element 1 lies before element 0. */
    copy_piece_t one = {.disp = 0, .run = 8, .depth = 0};
    copy_plan_t q = {.npieces = 1, .pieces = &one, .extent = -16};
    copy_plan_finish(&q);
    copy_plan_pack(&q, 4, &v[7], out);
    assert_int_equal(out[0], 7);
    assert_int_equal(out[1], 5);
    assert_int_equal(out[3], 1);
}

/* Layouts that differ on the two sides (iput): every run lands at its own stride. */
static void strided_both_sides(void **state)
{
    for (size_t run = 1; run <= 24; run++) {
        unsigned char src[24 * 40], dst[24 * 40];
        for (size_t i = 0; i < sizeof src; i++)
            src[i] = (unsigned char)i;
        memset(dst, 0xee, sizeof dst);
        copy_strided(dst, (ptrdiff_t)(2 * run), src + 9 * 3 * run, -(ptrdiff_t)(3 * run), 10,
                     run);
        for (size_t i = 0; i < sizeof dst; i++) {
            size_t j = i / (2 * run), b = i % (2 * run);
            unsigned char want = j < 10 && b < run ? src[(9 - j) * 3 * run + b] : 0xee;
            assert_int_equal(dst[i], want);
        }
    }
}

/* The inner loops: runs of 1, 2, 4, 8, 16 bytes four per iteration, then the rest one by
 * one (all one by one when each run has cache lines of its own and the copy spans 64 KiB); runs between those sizes (up to 64 bytes) as two overlapping loads and stores; longer
 * ones by memmove. Every run size class and its edges, every count around a multiple of
 * four and long ones, strides of either sign, contiguous on one side, addresses off
 * alignment; every byte around the destination checked (runs where they belong, nothing
 * else written). */
enum { MAX_RUN = 100, MAX_RUNS = 259, MAX_STRIDE = 3 * MAX_RUN + 41,
       STRIDED_SPAN = MAX_STRIDE * (MAX_RUNS + 1) + 64 };
static unsigned char strided_src[2 * STRIDED_SPAN], strided_dst[2 * STRIDED_SPAN],
    strided_want[2 * STRIDED_SPAN];

static void check_strided_case(size_t run, ptrdiff_t ds, ptrdiff_t ss, size_t n, size_t mis)
{
    /* the middle of each buffer, so negative strides stay inside */
    unsigned char *d = strided_dst + STRIDED_SPAN + mis, *s = strided_src + STRIDED_SPAN + 2 * mis;
    ptrdiff_t last = n ? (ptrdiff_t)(n - 1) * ds : 0;
    ptrdiff_t lo = (d - strided_dst) + (last < 0 ? last : 0) - 64;
    ptrdiff_t hi = (d - strided_dst) + (last > 0 ? last : 0) + (ptrdiff_t)run + 64;
    memset(strided_dst + lo, 0xee, (size_t)(hi - lo));
    memset(strided_want + lo, 0xee, (size_t)(hi - lo));
    for (size_t e = 0; e < n; e++) /* the runs never overlap on either side */
        memcpy(strided_want + (d - strided_dst) + (ptrdiff_t)e * ds, s + (ptrdiff_t)e * ss, run);
    copy_strided(d, ds, s, ss, n, run);
    for (ptrdiff_t i = lo; i < hi; i++)
        if (strided_dst[i] != strided_want[i])
            fail_msg("run %zu, strides %td/%td, %zu runs, offset %zu: byte %td of the "
                     "destination is %d, want %d", run, ds, ss, n, mis, i - (d - strided_dst),
                     strided_dst[i], strided_want[i]);
}

static void strided_unroll_remainders(void **state)
{
    static const size_t runs[] = {1,  2,  3,  4,  5,  7,  8,  9,  12, 15,  16,
                                  17, 24, 31, 32, 33, 48, 63, 64, 65, MAX_RUN};
    static const size_t counts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                    62, 63, 64, 65, 66, 67, 131, MAX_RUNS};
    for (size_t i = 0; i < sizeof strided_src; i++)
        strided_src[i] = (unsigned char)(i * 7 + 1);
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        ptrdiff_t run = (ptrdiff_t)runs[r];
        const ptrdiff_t strides[][2] = {{run, 3 * run + 1},
                                        {2 * run + 5, run},
                                        {-2 * run - 1, 3 * run},
                                        {run + 24, -run - 40},
                                        /* lines of their own, over 64 KiB at MAX_RUNS: the
                                         * one-run-at-a-time loop */
                                        {MAX_STRIDE - run, -MAX_STRIDE + 1}};
        for (size_t k = 0; k < sizeof strides / sizeof strides[0]; k++)
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
                for (size_t mis = 0; mis < 4; mis += 3)
                    check_strided_case(runs[r], strides[k][0], strides[k][1], counts[c], mis);
    }
}

/* ------------------------------------------------------------------ generated layouts */
/* The reference: the offsets of every data byte of count elements, in type-map order. */
static size_t list_offsets(const copy_plan_t *p, size_t count, ptrdiff_t *offs)
{
    size_t n = 0;
    for (size_t e = 0; e < count; e++)
        for (size_t i = 0; i < p->npieces; i++) {
            const copy_piece_t *pc = &p->pieces[i];
            size_t idx[COPY_PLAN_MAX_DEPTH] = {0};
            for (;;) {
                ptrdiff_t off = (ptrdiff_t)e * p->extent + pc->disp;
                for (int l = 0; l < pc->depth; l++)
                    off += (ptrdiff_t)idx[l] * pc->loop[l].stride;
                for (size_t b = 0; b < pc->run; b++)
                    offs[n++] = off + (ptrdiff_t)b;
                int l = pc->depth - 1;
                for (; l >= 0; l--) {
                    if (++idx[l] < pc->loop[l].count)
                        break;
                    idx[l] = 0;
                }
                if (l < 0)
                    break;
            }
        }
    return n;
}

static unsigned rng_state = 12345;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 16) % n;
}

enum { ARENA = 1 << 18, MID = ARENA / 2 };

/* A plan of npieces pieces of the given depth on disjoint bytes, strides of either sign. */
static void make_plan(copy_plan_t *p, copy_piece_t *pieces, size_t npieces, int depth)
{
    static const size_t runs[] = {1, 2, 3, 4, 8, 12, 16, 24, 40};
    ptrdiff_t at = 0;
    for (size_t i = 0; i < npieces; i++) {
        copy_piece_t *pc = &pieces[i];
        *pc = (copy_piece_t){.run = runs[rnd(9)], .depth = depth};
        ptrdiff_t span = (ptrdiff_t)pc->run + rnd(3), lo = 0, hi = (ptrdiff_t)pc->run;
        for (int l = depth - 1; l >= 0; l--) {
            pc->loop[l].count = 1 + rnd(3);
            pc->loop[l].stride = rnd(2) ? span : -span;
            ptrdiff_t reach = (ptrdiff_t)(pc->loop[l].count - 1) * pc->loop[l].stride;
            if (reach < 0)
                lo += reach;
            else
                hi += reach;
            span = hi - lo + rnd(3);
        }
        pc->disp = at - lo;
        at += hi - lo + rnd(5);
    }
    *p = (copy_plan_t){.npieces = npieces, .pieces = pieces, .extent = at + rnd(4)};
    copy_plan_finish(p);
}

/* copy_plan_each_run's runs, expanded to byte offsets. */
typedef struct visited {
    ptrdiff_t *offs;
    size_t n;
} visited_t;

static void visit_run(ptrdiff_t off, size_t len, void *arg)
{
    visited_t *v = arg;
    for (size_t b = 0; b < len; b++)
        v->offs[v->n++] = off + (ptrdiff_t)b;
}

static void check_plan(const copy_plan_t *p, size_t count)
{
    static unsigned char src[ARENA], dst[ARENA], packed[ARENA], chunked[ARENA];
    static ptrdiff_t offs[ARENA];
    size_t n = list_offsets(p, count, offs);
    assert_int_equal(n, copy_plan_bytes(p, count));
    /* the visitor sees the same bytes in the same order */
    static ptrdiff_t seen[ARENA];
    visited_t v = {seen, 0};
    copy_plan_each_run(p, count, visit_run, &v);
    assert_int_equal(v.n, n);
    assert_memory_equal(seen, offs, n * sizeof *offs);
    for (size_t i = 0; i < ARENA; i++)
        src[i] = (unsigned char)(i * 31 + 7);
    /* pack */
    copy_plan_pack(p, count, src + MID, packed);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(packed[k], src[MID + offs[k]]);
    /* unpack writes the data bytes and nothing else */
    memset(dst, 0xa5, sizeof dst);
    copy_plan_unpack(p, count, packed, dst + MID);
    for (size_t k = 0; k < n; k++)
        dst[MID + offs[k]] ^= 0xff;
    for (size_t k = 0; k < n; k++)
        assert_int_equal(dst[MID + offs[k]] ^ 0xff, packed[k]), dst[MID + offs[k]] = 0xa5;
    for (size_t i = 0; i < ARENA; i++)
        assert_int_equal(dst[i], 0xa5);
    /* copy: the data bytes land at the same offsets, nothing else */
    memset(dst, 0xa5, sizeof dst);
    copy_plan_copy(p, count, dst + MID, src + MID);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(dst[MID + offs[k]], src[MID + offs[k]]), dst[MID + offs[k]] = 0xa5;
    for (size_t i = 0; i < ARENA; i++)
        assert_int_equal(dst[i], 0xa5);
    /* ranges: packing and unpacking in chunks gives what the whole does */
    static const size_t chunks[] = {1, 3, 7, 8, 13, 64};
    for (size_t c = 0; c < 6; c++) {
        memset(chunked, 0, n);
        for (size_t skip = 0; skip < n; skip += chunks[c]) {
            size_t len = n - skip < chunks[c] ? n - skip : chunks[c];
            copy_plan_pack_range(p, count, src + MID, skip, len, chunked + skip);
        }
        assert_memory_equal(chunked, packed, n);
        memset(dst, 0xa5, sizeof dst);
        for (size_t skip = 0; skip < n; skip += chunks[c]) {
            size_t len = n - skip < chunks[c] ? n - skip : chunks[c];
            copy_plan_unpack_range(p, count, packed + skip, skip, len, dst + MID);
        }
        for (size_t k = 0; k < n; k++)
            assert_int_equal(dst[MID + offs[k]], packed[k]);
    }
}

static void check_plan_small(const copy_plan_t *p)
{
    for (size_t count = 0; count <= 3; count++)
        check_plan(p, count);
}

/* Depth 0..4, one to five pieces, one to three elements: every mover against the reference. */
static void generated_plans(void **state)
{
    for (int depth = 0; depth <= COPY_PLAN_MAX_DEPTH; depth++)
        for (size_t npieces = 1; npieces <= 5; npieces++)
            for (int trial = 0; trial < 6; trial++) {
                copy_piece_t pieces[5];
                copy_plan_t p;
                make_plan(&p, pieces, npieces, depth);
                for (size_t count = 0; count <= 3; count++)
                    check_plan(&p, count);
            }
}

/* Pieces of one run each (a struct's fields) move a block of elements at a time, piece by
 * piece: counts across block boundaries, with every mover, ranges included. */
static void struct_like_plans(void **state)
{
    static const size_t counts[] = {17, 130, 500};
    for (size_t npieces = 2; npieces <= 5; npieces++)
        for (int trial = 0; trial < 4; trial++) {
            copy_piece_t pieces[5];
            copy_plan_t p;
            make_plan(&p, pieces, npieces, 0);
            for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
                check_plan(&p, counts[c]);
        }
}

/* Equal plans made apart are the same layout; a plan differing in any field is not. */
static void same_layout(void **state)
{
    copy_piece_t pa, pb;
    copy_plan_t a, b;
    copy_plan_strided(&a, &pa, 8, 192);
    copy_plan_strided(&b, &pb, 8, 192);
    assert_true(copy_plan_same_layout(&a, &a));
    assert_true(copy_plan_same_layout(&a, &b));
    copy_plan_strided(&b, &pb, 8, 200); /* another extent */
    assert_false(copy_plan_same_layout(&a, &b));
    copy_plan_strided(&b, &pb, 4, 192); /* another run */
    assert_false(copy_plan_same_layout(&a, &b));
    copy_piece_t qa[2] = {{.disp = 0, .run = 8, .depth = 1, .loop = {{3, 24}}},
                          {.disp = 100, .run = 4, .depth = 2, .loop = {{2, 64}, {3, 8}}}};
    copy_piece_t qb[2];
    a = (copy_plan_t){.npieces = 2, .pieces = qa, .extent = 200};
    copy_plan_finish(&a);
    memcpy(qb, qa, sizeof qa);
    b = a;
    b.pieces = qb;
    assert_true(copy_plan_same_layout(&a, &b));
    qb[1].loop[qb[1].depth - 1].stride += 1; /* an inner loop's stride */
    assert_false(copy_plan_same_layout(&a, &b));
    qb[1] = qa[1];
    qb[0].disp += 1; /* a piece's place */
    assert_false(copy_plan_same_layout(&a, &b));
}

/* ------------------------------------------------------------------ making plans */
static void finish_normalises(void **state)
{
    /* A loop stepping by its run is a longer run; then the plan is contiguous. */
    copy_piece_t pc = {.disp = 16, .run = 8, .depth = 2, .loop = {{1, 999}, {5, 8}}};
    copy_plan_t p = {.npieces = 1, .pieces = &pc, .extent = 40};
    copy_plan_finish(&p);
    assert_int_equal(pc.depth, 0);
    assert_int_equal(pc.run, 40);
    assert_int_equal(p.bytes, 40);
    assert_true(p.contiguous);
    unsigned char src[200], out[120];
    for (int i = 0; i < 200; i++)
        src[i] = (unsigned char)i;
    copy_plan_pack(&p, 3, src, out);
    for (int i = 0; i < 120; i++)
        assert_int_equal(out[i], 16 + i);
    /* An outer loop stepping by the whole inner loop makes one longer loop. */
    copy_piece_t v = {.disp = 0, .run = 4, .depth = 2, .loop = {{3, 60}, {5, 12}}};
    copy_plan_t q = {.npieces = 1, .pieces = &v, .extent = 180};
    copy_plan_finish(&q);
    assert_int_equal(v.depth, 1);
    assert_int_equal(v.loop[0].count, 15);
    assert_int_equal(v.loop[0].stride, 12);
    assert_false(q.contiguous);
    /* Empty pieces go. */
    copy_piece_t two[2] = {{.run = 0}, {.disp = 4, .run = 4, .depth = 1, .loop = {{0, 8}}}};
    copy_plan_t e = {.npieces = 2, .pieces = two, .extent = 8};
    copy_plan_finish(&e);
    assert_int_equal(e.npieces, 0);
    assert_int_equal(e.bytes, 0);
    copy_plan_pack(&e, 5, src, out); /* moves nothing, touches nothing */
    /* The strided-RMA plan: count elements are one loop. */
    copy_piece_t sp;
    copy_plan_t s;
    copy_plan_strided(&s, &sp, 8, 24);
    assert_int_equal(s.bytes, 8);
    assert_false(s.contiguous);
    copy_plan_strided(&s, &sp, 8, 8);
    assert_true(s.contiguous);
}

/* Pushing runs in type-map order merges what continues the last piece. */
static void push_merges(void **state)
{
    copy_piece_t pieces[8];
    size_t n = 0;
    /* abutting runs grow one run */
    copy_plan_push(pieces, &n, &(copy_piece_t){.disp = 0, .run = 8});
    copy_plan_push(pieces, &n, &(copy_piece_t){.disp = 8, .run = 4});
    assert_int_equal(n, 1);
    assert_int_equal(pieces[0].run, 12);
    /* equal runs at a constant step become a loop, then the loop grows */
    n = 0;
    for (int i = 0; i < 4; i++)
        copy_plan_push(pieces, &n, &(copy_piece_t){.disp = 100 + 40 * i, .run = 8});
    assert_int_equal(n, 1);
    assert_int_equal(pieces[0].depth, 1);
    assert_int_equal(pieces[0].loop[0].count, 4);
    assert_int_equal(pieces[0].loop[0].stride, 40);
    /* shifted copies of a vector: a second loop outside it */
    n = 0;
    for (int i = 0; i < 3; i++)
        copy_plan_push(pieces, &n, &(copy_piece_t){.disp = 1000 * i, .run = 4, .depth = 1,
                                                   .loop = {{5, 16}}});
    assert_int_equal(n, 1);
    assert_int_equal(pieces[0].depth, 2);
    assert_int_equal(pieces[0].loop[0].count, 3);
    assert_int_equal(pieces[0].loop[0].stride, 1000);
    assert_int_equal(pieces[0].loop[1].count, 5);
    /* what does not continue starts a new piece; an empty piece is nothing */
    copy_plan_push(pieces, &n, &(copy_piece_t){.disp = 5000, .run = 2});
    copy_plan_push(pieces, &n, &(copy_piece_t){.disp = 7000, .run = 0});
    copy_plan_push(pieces, &n, &(copy_piece_t){.disp = 6000, .run = 8});
    assert_int_equal(n, 3);
    assert_int_equal(pieces[1].run, 2);
    assert_int_equal(pieces[2].disp, 6000);
    /* the result moves what the pushes described */
    copy_plan_t p = {.npieces = n, .pieces = pieces, .extent = 8000};
    copy_plan_finish(&p);
    assert_int_equal(p.bytes, 3 * 5 * 4 + 2 + 8);
    check_plan_small(&p);
}

/* ------------------------------------------------------------------ the wire form */
static void wire_round_trip(void **state)
{
    copy_piece_t pieces[5], back[5];
    copy_plan_t p, q;
    make_plan(&p, pieces, 5, 3);
    size_t n = copy_plan_wire_size(&p);
    unsigned char *w = malloc(n + 8);
    copy_plan_to_wire(&p, w);
    assert_int_equal(copy_plan_from_wire(w, n + 8, &q, back, 5), n);
    assert_ptr_equal(q.pieces, back);
    assert_int_equal(q.npieces, p.npieces);
    assert_int_equal(q.bytes, p.bytes);
    assert_int_equal(q.extent, p.extent);
    assert_int_equal(q.contiguous, p.contiguous);
    for (size_t i = 0; i < p.npieces; i++) {
        assert_int_equal(q.pieces[i].disp, p.pieces[i].disp);
        assert_int_equal(q.pieces[i].run, p.pieces[i].run);
        assert_int_equal(q.pieces[i].depth, p.pieces[i].depth);
        for (int l = 0; l < p.pieces[i].depth; l++) {
            assert_int_equal(q.pieces[i].loop[l].count, p.pieces[i].loop[l].count);
            assert_int_equal(q.pieces[i].loop[l].stride, p.pieces[i].loop[l].stride);
        }
    }
    check_plan(&q, 2);
    /* Refusals: short buffer, too few pieces, a damaged header or count. */
    for (size_t len = 0; len < n; len++)
        assert_int_equal(copy_plan_from_wire(w, len, &q, back, 5), 0);
    assert_int_equal(copy_plan_from_wire(w, n, &q, back, 4), 0);
    w[0] ^= 1;
    assert_int_equal(copy_plan_from_wire(w, n, &q, back, 5), 0);
    w[0] ^= 1;
    w[8 + 8] ^= 1; /* the header's bytes no longer match the pieces */
    assert_int_equal(copy_plan_from_wire(w, n, &q, back, 5), 0);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vector_of_doubles), cmocka_unit_test(two_loops),
        cmocka_unit_test(negative_strides),  cmocka_unit_test(strided_both_sides),
        cmocka_unit_test(strided_unroll_remainders),
        cmocka_unit_test(generated_plans),   cmocka_unit_test(struct_like_plans),
        cmocka_unit_test(finish_normalises), cmocka_unit_test(push_merges),
        cmocka_unit_test(wire_round_trip),   cmocka_unit_test(same_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
