/* alloc.c: first-fit allocator over an ordered array of blocks (see alloc.h). */
#include <stdlib.h>
#include <string.h>

#include "heap/alloc.h"

/* Every block is a multiple of this, so that all allocations are at least this aligned. */
#define GRAIN 16

typedef struct {
    size_t offset;
    size_t size;
    int used;
} block_t;

struct sshmem_alloc {
    block_t *blocks; /* ordered by offset, covering [0, total) without gaps */
    size_t n, cap;
    size_t total;
};

static size_t round_up(size_t x, size_t to) { return (x + to - 1) & ~(to - 1); }

sshmem_alloc_t *sshmem_alloc_create(size_t size)
{
    sshmem_alloc_t *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->cap = 16;
    a->blocks = malloc(a->cap * sizeof *a->blocks);
    if (!a->blocks) {
        free(a);
        return NULL;
    }
    a->total = size & ~(size_t)(GRAIN - 1);
    a->blocks[0] = (block_t){0, a->total, 0};
    a->n = 1;
    return a;
}

void sshmem_alloc_destroy(sshmem_alloc_t *a)
{
    if (a) {
        free(a->blocks);
        free(a);
    }
}

/* Insert a block at index i (shifting the rest). */
static int insert_at(sshmem_alloc_t *a, size_t i, block_t b)
{
    if (a->n == a->cap) {
        block_t *nb = realloc(a->blocks, 2 * a->cap * sizeof *nb);
        if (!nb)
            return -1;
        a->blocks = nb;
        a->cap *= 2;
    }
    memmove(&a->blocks[i + 1], &a->blocks[i], (a->n - i) * sizeof *a->blocks);
    a->blocks[i] = b;
    a->n++;
    return 0;
}

static void remove_at(sshmem_alloc_t *a, size_t i)
{
    memmove(&a->blocks[i], &a->blocks[i + 1], (a->n - i - 1) * sizeof *a->blocks);
    a->n--;
}

int sshmem_alloc_get(sshmem_alloc_t *a, size_t size, size_t align, size_t *offset)
{
    if (align < GRAIN)
        align = GRAIN;
    if (size == 0 || size > a->total || (align & (align - 1)))
        return -1;
    size = round_up(size, GRAIN);
    for (size_t i = 0; i < a->n; i++) {
        block_t *b = &a->blocks[i];
        if (b->used)
            continue;
        size_t start = round_up(b->offset, align);
        size_t pad = start - b->offset;
        if (pad > b->size || b->size - pad < size)
            continue;
        /* Split off the alignment padding in front, then the tail behind. */
        if (pad) {
            if (insert_at(a, i, (block_t){b->offset, pad, 0}))
                return -1;
            i++;
            b = &a->blocks[i];
            b->offset += pad;
            b->size -= pad;
        }
        if (b->size > size) {
            block_t tail = {b->offset + size, b->size - size, 0};
            if (insert_at(a, i + 1, tail))
                return -1;
            b = &a->blocks[i];
            b->size = size;
        }
        b->used = 1;
        *offset = b->offset;
        return 0;
    }
    return -1;
}

/* Index of the used block starting at offset, or -1. Binary search: blocks are ordered. */
static long find_used(const sshmem_alloc_t *a, size_t offset)
{
    size_t lo = 0, hi = a->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a->blocks[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < a->n && a->blocks[lo].offset == offset && a->blocks[lo].used)
        return (long)lo;
    return -1;
}

int sshmem_alloc_put(sshmem_alloc_t *a, size_t offset)
{
    long i = find_used(a, offset);
    if (i < 0)
        return -1;
    a->blocks[i].used = 0;
    if ((size_t)i + 1 < a->n && !a->blocks[i + 1].used) {
        a->blocks[i].size += a->blocks[i + 1].size;
        remove_at(a, (size_t)i + 1);
    }
    if (i > 0 && !a->blocks[i - 1].used) {
        a->blocks[i - 1].size += a->blocks[i].size;
        remove_at(a, (size_t)i);
    }
    return 0;
}

int sshmem_alloc_resize(sshmem_alloc_t *a, size_t offset, size_t new_size)
{
    long i = find_used(a, offset);
    if (i < 0 || new_size == 0)
        return -1;
    new_size = round_up(new_size, GRAIN);
    block_t *b = &a->blocks[i];
    if (new_size <= b->size) { /* shrink: give the tail back */
        size_t tail = b->size - new_size;
        if (tail == 0)
            return 0;
        b->size = new_size;
        if ((size_t)i + 1 < a->n && !a->blocks[i + 1].used) {
            a->blocks[i + 1].offset -= tail;
            a->blocks[i + 1].size += tail;
            return 0;
        }
        return insert_at(a, (size_t)i + 1, (block_t){offset + new_size, tail, 0});
    }
    size_t need = new_size - b->size;
    if ((size_t)i + 1 >= a->n || a->blocks[i + 1].used || a->blocks[i + 1].size < need)
        return -1;
    b->size = new_size;
    block_t *next = &a->blocks[i + 1];
    next->offset += need;
    next->size -= need;
    if (next->size == 0)
        remove_at(a, (size_t)i + 1);
    return 0;
}

size_t sshmem_alloc_size_of(const sshmem_alloc_t *a, size_t offset)
{
    long i = find_used(a, offset);
    return i < 0 ? 0 : a->blocks[i].size;
}

size_t sshmem_alloc_free_bytes(const sshmem_alloc_t *a)
{
    size_t f = 0;
    for (size_t i = 0; i < a->n; i++)
        if (!a->blocks[i].used)
            f += a->blocks[i].size;
    return f;
}

size_t sshmem_alloc_largest_free(const sshmem_alloc_t *a)
{
    size_t m = 0;
    for (size_t i = 0; i < a->n; i++)
        if (!a->blocks[i].used && a->blocks[i].size > m)
            m = a->blocks[i].size;
    return m;
}

size_t sshmem_alloc_total(const sshmem_alloc_t *a) { return a->total; }
