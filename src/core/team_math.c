/* team_math.c: the arithmetic of teams (see team_math.h). No state, no communication. */
#include "core/team_math.h"

int sshmem_triplet_index(const sshmem_triplet_t *t, int pe)
{
    long long d = (long long)pe - t->start;
    if (t->size == 1 || t->stride == 0)
        return d == 0 ? 0 : -1;
    if (d % t->stride != 0)
        return -1;
    long long i = d / t->stride;
    return i >= 0 && i < t->size ? (int)i : -1;
}

int sshmem_split_valid(int parent_size, int start, int stride, int size)
{
    if (size < 1 || parent_size < 1)
        return -1;
    if (stride == 0 && size != 1)
        return -1;
    long long last = (long long)start + (long long)(size - 1) * stride;
    /* The members are monotonic, so checking the first and the last is enough. */
    if (start < 0 || start >= parent_size || last < 0 || last >= parent_size)
        return -1;
    return 0;
}

sshmem_triplet_t sshmem_split_compose(const sshmem_triplet_t *parent, int start, int stride,
                                      int size)
{
    sshmem_triplet_t t;
    t.start = sshmem_triplet_pe(parent, start);
    t.stride = size == 1 ? 1 : parent->stride * stride;
    t.size = size;
    return t;
}

int sshmem_split_2d(int n, int xrange, int me, sshmem_triplet_t *xteam, sshmem_triplet_t *yteam)
{
    if (xrange < 1 || n < 1 || me < 0 || me >= n)
        return -1;
    int x = me % xrange, y = me / xrange;
    /* The row: members y*xrange .. y*xrange + xrange - 1 that exist (the last row may be short). */
    xteam->start = y * xrange;
    xteam->stride = 1;
    xteam->size = n - y * xrange < xrange ? n - y * xrange : xrange;
    /* The column: x, x + xrange, x + 2*xrange, ... below n. */
    yteam->start = x;
    yteam->stride = xrange;
    yteam->size = (n - x + xrange - 1) / xrange;
    if (yteam->size == 1)
        yteam->stride = 1;
    return 0;
}

int sshmem_triplet_translate(const sshmem_triplet_t *src, int src_pe, const sshmem_triplet_t *dst)
{
    if (src_pe < 0 || src_pe >= src->size)
        return -1;
    return sshmem_triplet_index(dst, sshmem_triplet_pe(src, src_pe));
}

int sshmem_triplet_from_list(const int *list, int n, sshmem_triplet_t *t)
{
    if (n < 1)
        return -1;
    int stride = n > 1 ? list[1] - list[0] : 1;
    if (stride <= 0)
        return -1;
    for (int i = 2; i < n; i++)
        if (list[i] - list[i - 1] != stride)
            return -1;
    t->start = list[0];
    t->stride = stride;
    t->size = n;
    return 0;
}
