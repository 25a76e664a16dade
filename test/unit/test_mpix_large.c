/*
 * test_mpix_large.c: counts and spans past 32 bits (size_t all the way down).
 *
 *   - types whose extent is more than 4 GiB: pack, unpack and copy put every element where
 *     its offset says (over MAP_NORESERVE regions: only the touched pages become memory);
 *   - a pack of more than 2^31 one-byte elements spread over more than 2^32 bytes, and
 *     unpacks at positions past 2^31;
 *   - counts and constructors whose bytes would overflow are refused, not wrapped.
 * Memory: about 2 GiB (the packed bytes); the rest is untouched reservations.
 */
#include "test_mpix.h"

#include <sys/mman.h>

#include "datatype/datatype.h"

#define GIB ((size_t)1 << 30)

static char *reserve(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    assert_true(p != MAP_FAILED);
    madvise(p, bytes, MADV_HUGEPAGE); /* fewer page faults (the huge zero page for reads) */
    return p;
}

static shmemx_datatype_t committed(shmemx_datatype_t t)
{
    assert_int_equal(shmemx_type_commit(&t), SHMEMX_SUCCESS);
    return t;
}

/* Three doubles 4 GiB + 64 bytes apart (a resized double), and one element of two doubles
 * 4 GiB + 8 bytes apart (an hvector). */
static void extent_past_4g(void **state)
{
    const ptrdiff_t E = (ptrdiff_t)(4 * GIB + 64);
    shmemx_datatype_t far, pair;
    assert_int_equal(shmemx_type_create_resized(SHMEMX_DOUBLE, 0, E, &far), SHMEMX_SUCCESS);
    far = committed(far);
    assert_int_equal(shmemx_type_create_hvector(2, 1, (ptrdiff_t)(4 * GIB + 8), SHMEMX_DOUBLE,
                                                &pair), SHMEMX_SUCCESS);
    pair = committed(pair);
    size_t span = 3 * (size_t)E;
    char *src = reserve(span), *dst = reserve(span);
    for (int i = 0; i < 3; i++)
        *(double *)(src + i * E) = 1.5 + i;
    double packed[3] = {0};
    size_t pos = 0;
    assert_int_equal(shmemx_pack(src, 3, far, packed, sizeof packed, &pos), SHMEMX_SUCCESS);
    assert_int_equal(pos, sizeof packed);
    for (int i = 0; i < 3; i++)
        assert_true(packed[i] == 1.5 + i);
    pos = 0;
    assert_int_equal(shmemx_unpack(packed, sizeof packed, &pos, dst, 3, far), SHMEMX_SUCCESS);
    for (int i = 0; i < 3; i++) {
        assert_true(*(double *)(dst + i * E) == 1.5 + i);
        *(double *)(dst + i * E) = 0;
    }
    mpix_copy_elems(dst, src, 3, far);
    for (int i = 0; i < 3; i++)
        assert_true(*(double *)(dst + i * E) == 1.5 + i);
    /* one element spanning more than 4 GiB */
    *(double *)(src + 4 * GIB + 8) = 7.25;
    pos = 0;
    assert_int_equal(shmemx_pack(src, 1, pair, packed, sizeof packed, &pos), SHMEMX_SUCCESS);
    assert_int_equal(pos, 2 * sizeof(double));
    assert_true(packed[0] == 1.5 && packed[1] == 7.25);
    munmap(src, span);
    munmap(dst, span);
    shmemx_type_free(&far);
    shmemx_type_free(&pair);
}

/* 2^31 + 16 bytes, every other byte of a 4 GiB + 32 byte region, packed in one call. */
static void pack_past_2g_elements(void **state)
{
    const size_t count = ((size_t)1 << 31) + 16;
    const size_t marks[] = {0, 1, GIB, ((size_t)1 << 31) - 1, (size_t)1 << 31,
                            ((size_t)1 << 31) + 1, count - 1};
    const int nmarks = sizeof marks / sizeof marks[0];
    shmemx_datatype_t every_other;
    assert_int_equal(shmemx_type_create_resized(SHMEMX_BYTE, 0, 2, &every_other),
                     SHMEMX_SUCCESS);
    every_other = committed(every_other);
    char *in = reserve(2 * count), *out = reserve(count), *back = reserve(2 * count);
    for (int m = 0; m < nmarks; m++)
        in[2 * marks[m]] = (char)(m + 1);
    size_t pos = 0, need;
    assert_int_equal(shmemx_pack_size(count, every_other, &need), SHMEMX_SUCCESS);
    assert_int_equal(need, count);
    assert_int_equal(shmemx_pack(in, count, every_other, out, count, &pos), SHMEMX_SUCCESS);
    assert_int_equal(pos, count);
    for (int m = 0; m < nmarks; m++)
        assert_int_equal(out[marks[m]], m + 1);
    size_t nonzero = 0;
    for (size_t i = 0; i < count; i++)
        nonzero += out[i] != 0;
    assert_int_equal(nonzero, nmarks);
    /* unpack 40 elements from a packed position past 2^31 */
    const size_t at = ((size_t)1 << 31) - 8;
    pos = at;
    assert_int_equal(shmemx_unpack(out, count, &pos, back + 2 * at, 24, every_other),
                     SHMEMX_SUCCESS);
    assert_int_equal(pos, at + 24);
    for (size_t i = at; i < at + 24; i++)
        assert_int_equal(back[2 * i], in[2 * i]);
    assert_int_equal(back[2 * ((size_t)1 << 31)], 5);
    /* the plan's range movers with a skip past 2^31 */
    memset(back + 2 * at, 0, 48);
    copy_plan_unpack_range(&every_other->plan, count, out + at, at, 24, back);
    for (size_t i = at; i < at + 24; i++)
        assert_int_equal(back[2 * i], in[2 * i]);
    munmap(in, 2 * count);
    munmap(out, count);
    munmap(back, 2 * count);
    shmemx_type_free(&every_other);
}

static void overflow_refused(void **state)
{
    shmemx_datatype_t t, big;
    size_t size;
    forget_messages();
    /* a count whose span overflows */
    assert_int_equal(shmemx_type_create_resized(SHMEMX_DOUBLE, 0, (ptrdiff_t)1 << 40, &big),
                     SHMEMX_SUCCESS);
    big = committed(big);
    char buf[8];
    size_t pos = 0;
    assert_int_equal(shmemx_pack(buf, (size_t)1 << 30, big, buf, sizeof buf, &pos),
                     SHMEMX_ERR_COUNT);
    MESSAGE_HAS("shmemx_pack", "incount 1073741824", "spans more bytes than memory");
    assert_int_equal(shmemx_pack_size((size_t)1 << 62, SHMEMX_DOUBLE, &size), SHMEMX_ERR_COUNT);
    MESSAGE_HAS("shmemx_pack_size", "incount");
    /* constructors: a count of a huge type, a stride times an extent, lb + extent */
    assert_int_equal(shmemx_type_contiguous(1 << 30, big, &t), SHMEMX_ERR_COUNT);
    MESSAGE_HAS("shmemx_type_contiguous", "overflows");
    assert_int_equal(shmemx_type_vector(2, 1, 1 << 30, big, &t), SHMEMX_ERR_COUNT);
    MESSAGE_HAS("shmemx_type_vector");
    assert_int_equal(shmemx_type_create_resized(SHMEMX_INT, PTRDIFF_MAX, 8, &t), SHMEMX_ERR_ARG);
    MESSAGE_HAS("shmemx_type_create_resized", "overflows");
    /* a size that fits is fine: 2^30 elements of 2^30 bytes is 2^60 bytes */
    shmemx_datatype_t gib;
    assert_int_equal(shmemx_type_contiguous(1 << 30, SHMEMX_BYTE, &gib), SHMEMX_SUCCESS);
    assert_int_equal(shmemx_type_contiguous(1 << 30, gib, &t), SHMEMX_SUCCESS);
    assert_int_equal(shmemx_type_size(t, &size), SHMEMX_SUCCESS);
    assert_int_equal(size, (size_t)1 << 60);
    shmemx_type_free(&t);
    shmemx_type_free(&gib);
    shmemx_type_free(&big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(extent_past_4g),
        cmocka_unit_test(pack_past_2g_elements),
        cmocka_unit_test(overflow_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
