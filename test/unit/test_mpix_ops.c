/*
 * test_mpix_ops.c: the predefined operators on every type MPI defines them on (and a clear
 * refusal on every other), MINLOC/MAXLOC with ties, logical results 0/1, derived types
 * (in memory and staged), user operators: argument order, the datatype they see, commute.
 */
#include <complex.h>
#include <limits.h>

#include "test_mpix.h"

#include "mpix/op.h"

static shmemx_op_t all_ops[] = {SHMEMX_SUM, SHMEMX_PROD, SHMEMX_MIN, SHMEMX_MAX,
                                SHMEMX_LAND, SHMEMX_BAND, SHMEMX_LOR, SHMEMX_BOR,
                                SHMEMX_LXOR, SHMEMX_BXOR, SHMEMX_MINLOC, SHMEMX_MAXLOC};
enum { NOPS = sizeof all_ops / sizeof all_ops[0] };

/* Which operators MPI defines per category, in the order of all_ops. */
static const int allowed_INTEGER[NOPS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0};
static const int allowed_FLOATING[NOPS] = {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};
static const int allowed_COMPLEX[NOPS] = {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static const int allowed_LOGICAL[NOPS] = {0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0};
static const int allowed_BYTE[NOPS] = {0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0};
static const int allowed_CHARACTER[NOPS] = {0};
static const int allowed_PAIR[NOPS] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1};

/* Every operator on every predefined type: defined exactly where MPI defines it. */
static void op_type_matrix(void **state)
{
    char in[64] = {0}, inout[64] = {0};
#define CHECK_ROW_(T, NAME, CAT)                                                                 \
    for (int o = 0; o < NOPS; o++) {                                                             \
        forget_messages();                                                                       \
        int rc = shmemx_reduce_local(in, inout, 1, SHMEMX_##NAME, all_ops[o]);                  \
        if (allowed_##CAT[o]) {                                                                  \
            assert_int_equal(rc, SHMEMX_SUCCESS);                                                \
        } else {                                                                                 \
            assert_int_equal(rc, SHMEMX_ERR_OP);                                                 \
            MESSAGE_HAS("shmemx_reduce_local", all_ops[o]->name, "is not defined on",           \
                        "SHMEMX_" #NAME, "it applies to");                                       \
        }                                                                                        \
    }
#define BASIC_ROW_(CT, NAME, L, CAT) CHECK_ROW_(CT, NAME, CAT)
    SHMEMX_BASIC_TYPES(BASIC_ROW_)
#define PAIR_ROW_(VT, NAME, L) CHECK_ROW_(VT, NAME, PAIR)
    SHMEMX_PAIR_TYPES(PAIR_ROW_)
}

/* r = a o b for one element of type T through reduce_local. */
#define APPLY(T, TYPE, OP, a, b)                                                                 \
    ({                                                                                           \
        T x_ = (a), y_ = (b);                                                                    \
        assert_int_equal(shmemx_reduce_local(&x_, &y_, 1, TYPE, OP), SHMEMX_SUCCESS);           \
        y_;                                                                                      \
    })

#define CHECK_INTEGER(CT, NAME)                                                                  \
    do {                                                                                         \
        shmemx_datatype_t t = SHMEMX_##NAME;                                                     \
        assert_true(APPLY(CT, t, SHMEMX_SUM, 3, 5) == 8);                                        \
        assert_true(APPLY(CT, t, SHMEMX_PROD, 3, 5) == 15);                                      \
        assert_true(APPLY(CT, t, SHMEMX_MIN, 3, 5) == 3);                                        \
        assert_true(APPLY(CT, t, SHMEMX_MAX, 3, 5) == 5);                                        \
        assert_true(APPLY(CT, t, SHMEMX_LAND, 3, 5) == 1);                                       \
        assert_true(APPLY(CT, t, SHMEMX_LAND, 3, 0) == 0);                                       \
        assert_true(APPLY(CT, t, SHMEMX_LOR, 0, 6) == 1);                                        \
        assert_true(APPLY(CT, t, SHMEMX_LOR, 0, 0) == 0);                                        \
        assert_true(APPLY(CT, t, SHMEMX_LXOR, 3, 5) == 0);                                       \
        assert_true(APPLY(CT, t, SHMEMX_LXOR, 0, 5) == 1);                                       \
        assert_true(APPLY(CT, t, SHMEMX_BAND, 3, 5) == 1);                                       \
        assert_true(APPLY(CT, t, SHMEMX_BOR, 3, 5) == 7);                                        \
        assert_true(APPLY(CT, t, SHMEMX_BXOR, 3, 5) == 6);                                       \
    } while (0);
#define CHECK_FLOATING(CT, NAME)                                                                 \
    do {                                                                                         \
        shmemx_datatype_t t = SHMEMX_##NAME;                                                     \
        assert_true(APPLY(CT, t, SHMEMX_SUM, 1.5, 2.25) == 3.75);                                \
        assert_true(APPLY(CT, t, SHMEMX_PROD, 1.5, -2.0) == -3.0);                               \
        assert_true(APPLY(CT, t, SHMEMX_MIN, 1.5, -2.0) == -2.0);                                \
        assert_true(APPLY(CT, t, SHMEMX_MAX, 1.5, -2.0) == 1.5);                                 \
    } while (0);
#define CHECK_COMPLEX(CT, NAME)                                                                  \
    do {                                                                                         \
        shmemx_datatype_t t = SHMEMX_##NAME;                                                     \
        CT a = 1.0 + 2.0 * I, b = 3.0 - 1.0 * I;                                                 \
        assert_true(APPLY(CT, t, SHMEMX_SUM, a, b) == 4.0 + 1.0 * I);                            \
        assert_true(APPLY(CT, t, SHMEMX_PROD, a, b) == 5.0 + 5.0 * I);                           \
    } while (0);
#define CHECK_LOGICAL(CT, NAME)                                                                  \
    do {                                                                                         \
        assert_true(APPLY(CT, SHMEMX_##NAME, SHMEMX_LAND, 1, 0) == 0);                           \
        assert_true(APPLY(CT, SHMEMX_##NAME, SHMEMX_LOR, 1, 0) == 1);                            \
        assert_true(APPLY(CT, SHMEMX_##NAME, SHMEMX_LXOR, 1, 1) == 0);                           \
    } while (0);
#define CHECK_BYTE(CT, NAME)                                                                     \
    assert_true(APPLY(CT, SHMEMX_##NAME, SHMEMX_BXOR, 0xf0, 0x3c) == 0xcc);
#define CHECK_CHARACTER(CT, NAME)

static void values(void **state)
{
#define CHECK_VALUES_(CT, NAME, L, CAT) CHECK_##CAT(CT, NAME)
    SHMEMX_BASIC_TYPES(CHECK_VALUES_)
}

/* Integer sums wrap around instead of being undefined; large values stay exact. */
static void integer_edges(void **state)
{
    assert_int_equal(APPLY(int, SHMEMX_INT, SHMEMX_SUM, INT_MAX, 1), INT_MIN);
    assert_true(APPLY(unsigned long long, SHMEMX_UNSIGNED_LONG_LONG, SHMEMX_SUM, ULLONG_MAX, 2) == 1);
    assert_true(APPLY(long long, SHMEMX_LONG_LONG, SHMEMX_MIN, LLONG_MIN, LLONG_MAX) == LLONG_MIN);
    assert_true(APPLY(signed char, SHMEMX_SIGNED_CHAR, SHMEMX_PROD, -4, 5) == -20);
    assert_true(APPLY(int64_t, SHMEMX_INT64_T, SHMEMX_PROD, -3000000000LL, 3) == -9000000000LL);
    assert_true(APPLY(int, SHMEMX_INT, SHMEMX_LXOR, -7, 0) == 1);
}

/* MAXLOC/MINLOC: the extreme value, and on a tie the smaller index, on every pair type. */
#define CHECK_LOC_(VT, NAME, L)                                                                  \
    do {                                                                                         \
        shmemx_##L##_t in[5] = {{3, 5}, {1, 2}, {4, 7}, {2, 1}, {-1, 9}};                        \
        shmemx_##L##_t io[5] = {{3, 4}, {2, 0}, {4, 9}, {1, 3}, {-1, 2}};                        \
        shmemx_##L##_t mx[5], mn[5];                                                             \
        memcpy(mx, io, sizeof io);                                                               \
        memcpy(mn, io, sizeof io);                                                               \
        assert_int_equal(shmemx_reduce_local(in, mx, 5, SHMEMX_##NAME, SHMEMX_MAXLOC), 0);      \
        assert_int_equal(shmemx_reduce_local(in, mn, 5, SHMEMX_##NAME, SHMEMX_MINLOC), 0);      \
        const VT mxv[5] = {3, 2, 4, 2, -1}, mnv[5] = {3, 1, 4, 1, -1};                           \
        const int mxi[5] = {4, 0, 7, 1, 2}, mni[5] = {4, 2, 7, 3, 2};                            \
        for (int k = 0; k < 5; k++) {                                                            \
            assert_true(mx[k].value == mxv[k]);                                                  \
            assert_int_equal(mx[k].index, mxi[k]);                                               \
            assert_true(mn[k].value == mnv[k]);                                                  \
            assert_int_equal(mn[k].index, mni[k]);                                               \
        }                                                                                        \
    } while (0);

static void minloc_maxloc(void **state)
{
    SHMEMX_PAIR_TYPES(CHECK_LOC_)
    forget_messages();
    double d = 1, e = 2;
    assert_int_equal(shmemx_reduce_local(&d, &e, 1, SHMEMX_DOUBLE, SHMEMX_MAXLOC), SHMEMX_ERR_OP);
    MESSAGE_HAS("SHMEMX_MAXLOC is not defined on SHMEMX_DOUBLE", "SHMEMX_DOUBLE_INT");
}

/* A predefined operator on a derived type: every basic element, gaps untouched. */
static void derived_in_memory(void **state)
{
    double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {10, 20, 30, 40, 50, 60};
    shmemx_datatype_t every_other;
    shmemx_type_vector(3, 1, 2, SHMEMX_DOUBLE, &every_other);
    assert_int_equal(shmemx_reduce_local(a, b, 1, every_other, SHMEMX_SUM), SHMEMX_ERR_TYPE);
    shmemx_type_commit(&every_other);
    assert_int_equal(shmemx_reduce_local(a, b, 1, every_other, SHMEMX_SUM), SHMEMX_SUCCESS);
    const double want[6] = {11, 20, 33, 40, 55, 60};
    for (int i = 0; i < 6; i++)
        assert_true(b[i] == want[i]);
    shmemx_type_free(&every_other);

    struct s { int n; double x; } p[2] = {{1, 0.5}, {2, 1.5}}, q[2] = {{10, 2.0}, {20, 4.0}};
    shmemx_datatype_t st;
    int bl[2] = {1, 1};
    ptrdiff_t d[2] = {offsetof(struct s, n), offsetof(struct s, x)};
    shmemx_datatype_t ty[2] = {SHMEMX_INT, SHMEMX_DOUBLE};
    shmemx_type_create_struct(2, bl, d, ty, &st);
    shmemx_type_commit(&st);
    assert_int_equal(shmemx_reduce_local(p, q, 2, st, SHMEMX_PROD), SHMEMX_SUCCESS);
    assert_int_equal(q[0].n, 10);
    assert_int_equal(q[1].n, 40);
    assert_true(q[0].x == 1.0 && q[1].x == 6.0);
    forget_messages();
    assert_int_equal(shmemx_reduce_local(p, q, 2, st, SHMEMX_BAND), SHMEMX_ERR_OP);
    MESSAGE_HAS("SHMEMX_BAND is not defined on the SHMEMX_DOUBLE elements of this derived");
    shmemx_type_free(&st);
}

/* Staged operands (what the collectives combine for types with gaps: elements copied into
 * slots, combined there, data copied back) give what the in-memory form gives, for a pair
 * inside a struct and for mixed kinds. */
static void staged_matches_memory(void **state)
{
    struct m { short s; shmemx_double_int_t p; float f[2]; } x[3], y[3], ym[3];
    shmemx_datatype_t t;
    int bl[3] = {1, 1, 2};
    ptrdiff_t d[3] = {offsetof(struct m, s), offsetof(struct m, p), offsetof(struct m, f)};
    shmemx_datatype_t ty[3] = {SHMEMX_SHORT, SHMEMX_DOUBLE_INT, SHMEMX_FLOAT};
    shmemx_type_create_struct(3, bl, d, ty, &t);
    shmemx_type_commit(&t);
    for (int k = 0; k < 3; k++) {
        x[k] = (struct m){(short)(k + 1), {k * 2.0, k}, {1.5f * k, 2}};
        y[k] = (struct m){(short)(7 - k), {3.0, 10 + k}, {1, -1.0f * k}};
    }
    memcpy(ym, y, sizeof y);
    /* MAXLOC is not defined on short and float: refused. */
    assert_int_equal(shmemx_reduce_local(x, ym, 3, t, SHMEMX_MAXLOC), SHMEMX_ERR_OP);
    /* MIN is not defined on the pair: refused. */
    assert_int_equal(shmemx_reduce_local(x, ym, 3, t, SHMEMX_MIN), SHMEMX_ERR_OP);
    /* Only-pair struct: pack, combine packed, unpack == combine in memory. */
    shmemx_datatype_t pt;
    int pbl[1] = {1};
    ptrdiff_t pd[1] = {offsetof(struct m, p)};
    shmemx_datatype_t pty[1] = {SHMEMX_DOUBLE_INT};
    shmemx_type_create_struct(1, pbl, pd, pty, &pt);
    shmemx_datatype_t ptr;
    shmemx_type_create_resized(pt, 0, sizeof(struct m), &ptr);
    shmemx_type_commit(&ptr);
    _Alignas(16) unsigned char px[256], py[256];
    mpix_red_form_t f;
    mpix_red_form(&f, ptr, SHMEMX_MAXLOC);
    assert_true(f.staged);
    assert_true(f.op->esize * 3 <= sizeof px);
    mpix_red_stage_in(&f, px, x, 3);
    mpix_red_stage_in(&f, py, y, 3);
    f.op->racc(f.op, py, px, 3);
    assert_int_equal(shmemx_reduce_local(x, ym, 3, ptr, SHMEMX_MAXLOC), SHMEMX_SUCCESS);
    memcpy(y, ym, sizeof y);
    memset(ym, 0, sizeof ym);
    mpix_red_stage_out(&f, ym, py, 3);
    for (int k = 0; k < 3; k++) {
        assert_true(ym[k].p.value == y[k].p.value);
        assert_int_equal(ym[k].p.index, y[k].p.index);
    }
    assert_true(y[2].p.value == 4.0 && y[2].p.index == 2); /* 4 > 3 */
    assert_true(y[0].p.value == 3.0 && y[0].p.index == 10);
    /* Mixed kinds with SUM (short, float), packed vs memory. */
    shmemx_datatype_t sf;
    int sbl[2] = {1, 2};
    ptrdiff_t sd[2] = {offsetof(struct m, s), offsetof(struct m, f)};
    shmemx_datatype_t sty[2] = {SHMEMX_SHORT, SHMEMX_FLOAT};
    shmemx_type_create_struct(2, sbl, sd, sty, &sf);
    shmemx_datatype_t sfr;
    shmemx_type_create_resized(sf, 0, sizeof(struct m), &sfr);
    shmemx_type_commit(&sfr);
    mpix_red_form(&f, sfr, SHMEMX_SUM);
    assert_true(f.staged);
    mpix_red_stage_in(&f, px, x, 3);
    mpix_red_stage_in(&f, py, y, 3);
    f.op->racc(f.op, py, px, 3);
    assert_int_equal(shmemx_reduce_local(x, y, 3, sfr, SHMEMX_SUM), SHMEMX_SUCCESS);
    memset(ym, 0, sizeof ym);
    mpix_red_stage_out(&f, ym, py, 3);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(ym[k].s, 8);
        assert_int_equal(y[k].s, 8);
        assert_true(ym[k].f[0] == y[k].f[0] && ym[k].f[1] == y[k].f[1]);
        assert_true(y[k].f[0] == 1.5f * k + 1 && y[k].f[1] == 2 - 1.0f * k);
    }
    shmemx_type_free(&t);
    shmemx_type_free(&pt);
    shmemx_type_free(&ptr);
    shmemx_type_free(&sf);
    shmemx_type_free(&sfr);
}

/* The engine form chosen for (type, op): the table's own entry on the user's memory where
 * the data is consecutive items of one kind (pairs with their padding), whole elements for a
 * user operator on a type without gaps, staged slots otherwise. */
static void user_noop(void *in, void *inout, int *len, shmemx_datatype_t *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

static void engine_forms(void **state)
{
    mpix_red_form_t f;
    mpix_red_form(&f, SHMEMX_DOUBLE, SHMEMX_SUM);
    assert_ptr_equal(f.op, COLL_OP(double, sum));
    assert_false(f.staged);
    mpix_red_form(&f, SHMEMX_DOUBLE_INT, SHMEMX_MAXLOC);
    assert_ptr_equal(f.op, &coll_ops[COLL_KIND_double_int][COLL_OP_maxloc]);
    assert_int_equal(f.op->esize, sizeof(shmemx_double_int_t)); /* 16: padding included */
    shmemx_datatype_t c4, col, pc;
    shmemx_type_contiguous(4, SHMEMX_INT, &c4);
    shmemx_type_vector(3, 1, 4, SHMEMX_DOUBLE, &col);
    shmemx_type_contiguous(3, SHMEMX_2INT, &pc);
    shmemx_type_commit(&c4);
    shmemx_type_commit(&col);
    shmemx_type_commit(&pc);
    mpix_red_form(&f, c4, SHMEMX_BOR);
    assert_ptr_equal(f.op, COLL_OP(int, or));
    assert_int_equal(f.per_elem, 4);
    mpix_red_form(&f, pc, SHMEMX_MINLOC);
    assert_ptr_equal(f.op, &coll_ops[COLL_KIND_2int][COLL_OP_minloc]);
    assert_int_equal(f.per_elem, 3);
    mpix_red_form(&f, col, SHMEMX_SUM); /* gaps: never written, so staged */
    assert_true(f.staged);
    assert_ptr_equal(f.op, &f.built);
    shmemx_op_t u;
    shmemx_op_create(user_noop, 1, &u);
    mpix_red_form(&f, c4, u);
    assert_false(f.staged);
    assert_int_equal(f.op->esize, 4 * sizeof(int));
    assert_int_equal(f.op->commute, 1);
    mpix_red_form(&f, col, u);
    assert_true(f.staged);
    assert_int_equal(f.op->esize, 9 * sizeof(double)); /* the extent: one user call for many */
    shmemx_op_free(&u);
    shmemx_type_free(&c4);
    shmemx_type_free(&col);
    shmemx_type_free(&pc);
}

/* 2x2 matrix product, not commutative: inout = in x inout. */
typedef struct { double a, b, c, d; } mat2;
static int calls, last_len;
static shmemx_datatype_t last_type;

static void matmul(void *invec, void *inoutvec, int *len, shmemx_datatype_t *type)
{
    mat2 *x = invec, *y = inoutvec;
    calls++;
    last_len = *len;
    last_type = *type;
    for (int i = 0; i < *len; i++) {
        mat2 r = {x[i].a * y[i].a + x[i].b * y[i].c, x[i].a * y[i].b + x[i].b * y[i].d,
                  x[i].c * y[i].a + x[i].d * y[i].c, x[i].c * y[i].b + x[i].d * y[i].d};
        y[i] = r;
    }
}

static void user_ops(void **state)
{
    shmemx_op_t op;
    shmemx_datatype_t m2;
    int commute = -1;
    shmemx_type_contiguous(4, SHMEMX_DOUBLE, &m2);
    shmemx_type_commit(&m2);
    assert_int_equal(shmemx_op_create(matmul, 0, &op), SHMEMX_SUCCESS);
    assert_int_equal(shmemx_op_commutative(op, &commute), SHMEMX_SUCCESS);
    assert_int_equal(commute, 0);
    assert_int_equal(shmemx_op_commutative(SHMEMX_SUM, &commute), SHMEMX_SUCCESS);
    assert_int_equal(commute, 1);
    mat2 x[2] = {{1, 1, 0, 1}, {2, 0, 0, 2}}, y[2] = {{1, 0, 1, 1}, {1, 2, 3, 4}};
    calls = 0;
    assert_int_equal(shmemx_reduce_local(x, y, 2, m2, op), SHMEMX_SUCCESS);
    assert_int_equal(calls, 1);
    assert_int_equal(last_len, 2);
    assert_ptr_equal(last_type, m2);
    /* [[1,1],[0,1]] x [[1,0],[1,1]] = [[2,1],[1,1]] (the other order gives [[1,1],[1,2]]) */
    assert_true(y[0].a == 2 && y[0].b == 1 && y[0].c == 1 && y[0].d == 1);
    assert_true(y[1].a == 2 && y[1].b == 4 && y[1].c == 6 && y[1].d == 8);
    assert_int_equal(shmemx_op_free(&op), SHMEMX_SUCCESS);
    assert_null(op);
    forget_messages();
    assert_int_equal(shmemx_reduce_local(x, y, 2, m2, op), SHMEMX_ERR_OP);
    MESSAGE_HAS("shmemx_reduce_local", "op is SHMEMX_OP_NULL");
    shmemx_op_t sum = SHMEMX_SUM;
    assert_int_equal(shmemx_op_free(&sum), SHMEMX_ERR_OP);
    MESSAGE_HAS("shmemx_op_free", "SHMEMX_SUM is predefined");
    assert_int_equal(shmemx_op_create(NULL, 1, &op), SHMEMX_ERR_ARG);
    MESSAGE_HAS("shmemx_op_create", "fn is NULL");
    assert_int_equal(shmemx_op_create(matmul, 1, NULL), SHMEMX_ERR_ARG);
    struct sshmemx_op fake = {0};
    assert_int_equal(shmemx_reduce_local(x, y, 1, m2, &fake), SHMEMX_ERR_OP);
    MESSAGE_HAS("is not a valid operator");
    shmemx_type_free(&m2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(op_type_matrix),  cmocka_unit_test(values),
        cmocka_unit_test(integer_edges),   cmocka_unit_test(minloc_maxloc),
        cmocka_unit_test(derived_in_memory), cmocka_unit_test(staged_matches_memory),
        cmocka_unit_test(user_ops),        cmocka_unit_test(engine_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
