/*
 * regions.c: overlap of receive regions, by sorting byte intervals and sweeping.
 *
 * A contiguous type's region is one interval (its span). Otherwise every data run of every
 * region is an interval, so interleaved regions (columns gathered into a matrix) are told
 * apart exactly; past MPIX_OVERLAP_MAX_RUNS runs only the spans are compared.
 */
#include <stdlib.h>
#include <shmemx.h>

#include "datatype/datatype.h"
#include "datatype/regions.h"

typedef struct {
    ptrdiff_t lo, hi;
    int owner;
} interval_t;

typedef struct {
    interval_t *v;
    size_t n;
    ptrdiff_t base;
    int owner;
} collect_t;

static int by_start(const void *x, const void *y)
{
    const interval_t *p = x, *q = y;
    if (p->lo != q->lo)
        return p->lo < q->lo ? -1 : 1;
    return p->owner - q->owner;
}

static int sweep(interval_t *v, size_t n, int *a, int *b, ptrdiff_t *at)
{
    qsort(v, n, sizeof *v, by_start);
    for (size_t i = 1, far = 0; i < n; i++) {
        if (v[i].lo < v[far].hi) {
            *a = v[far].owner < v[i].owner ? v[far].owner : v[i].owner;
            *b = v[far].owner < v[i].owner ? v[i].owner : v[far].owner;
            *at = v[i].lo;
            return 1;
        }
        if (v[i].hi > v[far].hi)
            far = i;
    }
    return 0;
}

static void collect_run(ptrdiff_t off, size_t len, void *arg)
{
    collect_t *c = arg;
    c->v[c->n++] = (interval_t){c->base + off, c->base + off + (ptrdiff_t)len, c->owner};
}

static size_t runs_per_element(shmemx_datatype_t t)
{
    size_t runs = 0;
    for (size_t i = 0; i < t->plan.npieces; i++)
        runs += copy_piece_bytes(&t->plan.pieces[i]) / t->plan.pieces[i].run;
    return runs;
}

/* The common case in one pass without allocating: a contiguous type whose regions come in
 * ascending order of displacement, each ending before the next begins. */
static int sorted_and_apart(shmemx_datatype_t t, int n, const size_t *counts,
                            const size_t *displs)
{
    if (!(t->flags & MPIX_CONTIG))
        return 0;
    size_t end = 0; /* in elements: where the last region ended */
    for (int i = 0; i < n; i++) {
        if (counts[i] == 0)
            continue;
        if (displs[i] < end)
            return 0;
        end = displs[i] + counts[i];
    }
    return 1;
}

int mpix_find_overlap(shmemx_datatype_t t, int n, const size_t *counts, const size_t *displs,
                      int *a, int *b, ptrdiff_t *at)
{
    if (t->size == 0 || sorted_and_apart(t, n, counts, displs))
        return 0;
    ptrdiff_t ext = mpix_extent(t);
    int exact = !(t->flags & MPIX_CONTIG);
    size_t total = 0, per = runs_per_element(t);
    for (int i = 0; i < n; i++)
        total += exact ? counts[i] * per : counts[i] > 0;
    if (total > MPIX_OVERLAP_MAX_RUNS) {
        exact = 0;
        total = (size_t)n;
    }
    collect_t c = {malloc((total ? total : 1) * sizeof *c.v), 0, 0, 0};
    if (!c.v)
        return -1;
    for (int i = 0; i < n; i++) {
        if (counts[i] == 0)
            continue;
        c.base = (ptrdiff_t)displs[i] * ext;
        c.owner = i;
        if (exact) {
            copy_plan_each_run(&t->plan, counts[i], collect_run, &c);
        } else {
            ptrdiff_t lo, hi;
            mpix_span(t, counts[i], &lo, &hi);
            collect_run(lo, (size_t)(hi - lo), &c);
        }
    }
    int found = sweep(c.v, c.n, a, b, at);
    free(c.v);
    return found;
}
