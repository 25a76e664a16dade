/*
 * test_mpix_pack.c: pack, unpack and pack_size: the packed bytes are the data in type-map
 * order, the position cursor advances by exactly the data size, unpacking touches no gap,
 * round trips restore the data, and mistakes (uncommitted type, small buffer) are refused.
 */
#include "test_mpix.h"

#include "datatype/datatype.h"

static shmemx_datatype_t committed(shmemx_datatype_t t)
{
    assert_int_equal(shmemx_type_commit(&t), SHMEMX_SUCCESS);
    return t;
}

/* A column of a row-major 4x5 matrix packs as the column's values, top to bottom. */
static void column(void **state)
{
    double m[4][5], packed[8] = {0}, back[4][5];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            m[i][j] = 10 * i + j;
    shmemx_datatype_t col;
    assert_int_equal(shmemx_type_vector(4, 1, 5, SHMEMX_DOUBLE, &col), SHMEMX_SUCCESS);
    col = committed(col);
    size_t pos = 0, need;
    assert_int_equal(shmemx_pack_size(1, col, &need), SHMEMX_SUCCESS);
    assert_int_equal(need, 4 * sizeof(double));
    assert_int_equal(shmemx_pack(&m[0][2], 1, col, packed, sizeof packed, &pos), SHMEMX_SUCCESS);
    assert_int_equal(pos, 4 * sizeof(double));
    for (int i = 0; i < 4; i++)
        assert_true(packed[i] == 10 * i + 2);
    /* A second pack appends at the cursor. */
    assert_int_equal(shmemx_pack(&m[0][4], 1, col, packed, sizeof packed, &pos), SHMEMX_SUCCESS);
    assert_int_equal(pos, 8 * sizeof(double));
    for (int i = 0; i < 4; i++)
        assert_true(packed[4 + i] == 10 * i + 4);
    /* Unpack both into columns 0 and 1 of another matrix; nothing else is written. */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            back[i][j] = -1;
    pos = 0;
    assert_int_equal(shmemx_unpack(packed, sizeof packed, &pos, &back[0][0], 1, col),
                     SHMEMX_SUCCESS);
    assert_int_equal(shmemx_unpack(packed, sizeof packed, &pos, &back[0][1], 1, col),
                     SHMEMX_SUCCESS);
    assert_int_equal(pos, sizeof packed);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            assert_true(back[i][j] == (j == 0 ? 10 * i + 2 : j == 1 ? 10 * i + 4 : -1));
    shmemx_type_free(&col);
}

/* Pairs pack value then index, without the struct's padding. */
static void pairs(void **state)
{
    shmemx_double_int_t di[3] = {{1.5, 7}, {-2.0, 8}, {3.25, 9}};
    shmemx_short_int_t si[2] = {{-3, 100}, {4, 200}};
    unsigned char buf[64];
    size_t pos = 0;
    assert_int_equal(shmemx_pack(di, 3, SHMEMX_DOUBLE_INT, buf, sizeof buf, &pos), SHMEMX_SUCCESS);
    assert_int_equal(pos, 3 * (sizeof(double) + sizeof(int)));
    for (int k = 0; k < 3; k++) {
        double v;
        int idx;
        memcpy(&v, buf + k * 12, sizeof v);
        memcpy(&idx, buf + k * 12 + 8, sizeof idx);
        assert_true(v == di[k].value);
        assert_int_equal(idx, di[k].index);
    }
    pos = 0;
    assert_int_equal(shmemx_pack(si, 2, SHMEMX_SHORT_INT, buf, sizeof buf, &pos), SHMEMX_SUCCESS);
    assert_int_equal(pos, 2 * (sizeof(short) + sizeof(int)));
    shmemx_short_int_t out[2];
    memset(out, 0x5a, sizeof out);
    size_t upos = 0;
    assert_int_equal(shmemx_unpack(buf, pos, &upos, out, 2, SHMEMX_SHORT_INT), SHMEMX_SUCCESS);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(out[k].value, si[k].value);
        assert_int_equal(out[k].index, si[k].index);
        /* the padding between value and index is not written */
        assert_int_equal(((unsigned char *)&out[k])[sizeof(short)], 0x5a);
    }
}

/* A struct type with gaps: round trip, and the gaps of the target stay as they were. */
struct rec {
    char tag;
    double x;
    int n[3];
};

static shmemx_datatype_t rec_type(void)
{
    shmemx_datatype_t t;
    int bl[3] = {1, 1, 3};
    ptrdiff_t d[3] = {offsetof(struct rec, tag), offsetof(struct rec, x), offsetof(struct rec, n)};
    shmemx_datatype_t ty[3] = {SHMEMX_CHAR, SHMEMX_DOUBLE, SHMEMX_INT};
    assert_int_equal(shmemx_type_create_struct(3, bl, d, ty, &t), SHMEMX_SUCCESS);
    return committed(t);
}

static void struct_round_trip(void **state)
{
    shmemx_datatype_t t = rec_type();
    struct rec in[4], out[4];
    memset(in, 0, sizeof in);
    for (int k = 0; k < 4; k++) {
        in[k].tag = (char)('a' + k);
        in[k].x = k * 1.25;
        for (int j = 0; j < 3; j++)
            in[k].n[j] = 100 * k + j;
    }
    size_t size;
    shmemx_type_size(t, &size);
    assert_int_equal(size, 1 + sizeof(double) + 3 * sizeof(int));
    unsigned char buf[4 * sizeof(struct rec)];
    size_t pos = 0;
    assert_int_equal(shmemx_pack(in, 4, t, buf, sizeof buf, &pos), SHMEMX_SUCCESS);
    assert_int_equal(pos, 4 * size);
    assert_int_equal(buf[0], 'a');
    assert_int_equal(buf[size], 'b');
    memset(out, 0x77, sizeof out);
    size_t upos = 0;
    assert_int_equal(shmemx_unpack(buf, pos, &upos, out, 4, t), SHMEMX_SUCCESS);
    assert_int_equal(upos, pos);
    for (int k = 0; k < 4; k++) {
        assert_int_equal(out[k].tag, 'a' + k);
        assert_true(out[k].x == k * 1.25);
        for (int j = 0; j < 3; j++)
            assert_int_equal(out[k].n[j], 100 * k + j);
        assert_int_equal(((unsigned char *)&out[k])[1], 0x77); /* the gap after tag */
    }
    shmemx_type_free(&t);
}

/* A resized type strides by its new extent: 3 elements of resized(INT, 0, 3 ints). */
static void resized_stride(void **state)
{
    int a[9], packed[3];
    for (int i = 0; i < 9; i++)
        a[i] = i * i;
    shmemx_datatype_t t;
    assert_int_equal(shmemx_type_create_resized(SHMEMX_INT, 0, 3 * sizeof(int), &t),
                     SHMEMX_SUCCESS);
    t = committed(t);
    size_t pos = 0;
    assert_int_equal(shmemx_pack(a, 3, t, packed, sizeof packed, &pos), SHMEMX_SUCCESS);
    assert_int_equal(packed[0], 0);
    assert_int_equal(packed[1], 9);
    assert_int_equal(packed[2], 36);
    shmemx_type_free(&t);
}

/* Transpose through pack/unpack: pack rows, unpack into columns of a resized column type. */
static void transpose(void **state)
{
    enum { R = 3, C = 4 };
    int a[R][C], b[C][R], buf[R * C];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            a[i][j] = 10 * i + j;
    shmemx_datatype_t col, cols;
    shmemx_type_vector(C, 1, R, SHMEMX_INT, &col);
    shmemx_type_create_resized(col, 0, sizeof(int), &cols);
    cols = committed(cols);
    size_t pos = 0;
    assert_int_equal(shmemx_pack(a, R * C, SHMEMX_INT, buf, sizeof buf, &pos), SHMEMX_SUCCESS);
    pos = 0;
    assert_int_equal(shmemx_unpack(buf, sizeof buf, &pos, b, R, cols), SHMEMX_SUCCESS);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            assert_int_equal(b[j][i], a[i][j]);
    shmemx_type_free(&col);
    shmemx_type_free(&cols);
}

static void errors(void **state)
{
    int a[10] = {0}, out[10];
    size_t pos = 0, size;
    shmemx_datatype_t t;
    shmemx_type_vector(2, 1, 2, SHMEMX_INT, &t);
    forget_messages();
    assert_int_equal(shmemx_pack(a, 1, t, out, sizeof out, &pos), SHMEMX_ERR_TYPE);
    MESSAGE_HAS("shmemx_pack", "not committed", "shmemx_type_commit");
    assert_int_equal(shmemx_pack_size(1, t, &size), SHMEMX_ERR_TYPE);
    t = committed(t);
    /* 3 elements of 8 bytes at position 4 of a 24-byte buffer: too small, nothing changes. */
    pos = 4;
    assert_int_equal(shmemx_pack(a, 3, t, out, 24, &pos), SHMEMX_ERR_TRUNCATE);
    MESSAGE_HAS("shmemx_pack", "need 24 bytes from position 4", "24 bytes", "shmemx_pack_size");
    assert_int_equal(pos, 4);
    pos = 30;
    assert_int_equal(shmemx_pack(a, 0, t, out, 24, &pos), SHMEMX_ERR_TRUNCATE);
    pos = 0;
    assert_int_equal(shmemx_unpack(out, 8, &pos, a, 2, t), SHMEMX_ERR_TRUNCATE);
    MESSAGE_HAS("shmemx_unpack", "need 16 bytes");
    assert_int_equal(shmemx_pack(a, 1, t, out, sizeof out, NULL), SHMEMX_ERR_ARG);
    MESSAGE_HAS("position is NULL");
    assert_int_equal(shmemx_pack(NULL, 1, t, out, sizeof out, &pos), SHMEMX_ERR_ARG);
    MESSAGE_HAS("inbuf is NULL");
    assert_int_equal(shmemx_pack(a, (size_t)-1, t, out, sizeof out, &pos), SHMEMX_ERR_COUNT);
    MESSAGE_HAS("incount is", "negative");
    assert_int_equal(shmemx_pack_size(5, t, NULL), SHMEMX_ERR_ARG);
    /* zero elements: fine, even with NULL buffers */
    pos = 0;
    assert_int_equal(shmemx_pack(NULL, 0, t, NULL, 0, &pos), SHMEMX_SUCCESS);
    assert_int_equal(pos, 0);
    shmemx_type_free(&t);
}

/* The contiguous fast path and the block walk agree on a big vector. */
static void big_vector(void **state)
{
    enum { N = 10000 };
    static long a[3 * N], packed[N], back[3 * N];
    for (long i = 0; i < 3 * N; i++)
        a[i] = i;
    shmemx_datatype_t t;
    shmemx_type_vector(N, 1, 3, SHMEMX_LONG, &t);
    t = committed(t);
    size_t pos = 0;
    assert_int_equal(shmemx_pack(a + 1, 1, t, packed, sizeof packed, &pos), SHMEMX_SUCCESS);
    for (long i = 0; i < N; i++)
        assert_int_equal(packed[i], 3 * i + 1);
    pos = 0;
    assert_int_equal(shmemx_unpack(packed, sizeof packed, &pos, back + 1, 1, t), SHMEMX_SUCCESS);
    for (long i = 0; i < 3 * N; i++)
        assert_int_equal(back[i], i % 3 == 1 ? i : 0);
    shmemx_type_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(column),         cmocka_unit_test(pairs),
        cmocka_unit_test(struct_round_trip), cmocka_unit_test(resized_stride),
        cmocka_unit_test(transpose),      cmocka_unit_test(errors),
        cmocka_unit_test(big_vector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
