/*
 * generic_c11.c (compiled with -std=c11): the C11 generic routines of shmem.h pick the typed
 * routine from the argument types, with or without a context first, and the values prove
 * that the right one ran (a wrong element size or type would garble them):
 *  RMA (put, get, p, g, the _nbi, strided and blocked forms, put_signal), every atomic
 *  family, and the wait/test routines; plus compile-time checks of the result types.
 */
#include "check.h"

#define N 8

/* The result type of a generic call is the typed routine's (the call is not evaluated). */
#define IS_TYPE(expr, T) _Generic((expr), T: 1, default: 0)
extern double gd; /* only named in unevaluated selections: never defined */
extern long gl;
extern const long gcl;
_Static_assert(IS_TYPE(shmem_g(&gd, 0), double), "shmem_g on double* gives a double");
_Static_assert(IS_TYPE(shmem_g(&gcl, 0), long), "shmem_g on const long* gives a long");
_Static_assert(IS_TYPE(shmem_g(SHMEM_CTX_DEFAULT, &gl, 0), long), "ctx shmem_g gives a long");
_Static_assert(IS_TYPE(shmem_atomic_fetch(&gd, 0), double), "atomic_fetch on double*");
_Static_assert(IS_TYPE(shmem_atomic_fetch_add(&gl, 1, 0), long), "atomic_fetch_add on long*");
_Static_assert(IS_TYPE(shmem_test_any(&gl, 1, NULL, SHMEM_CMP_EQ, 0), size_t), "test_any");

static long garr[N]; /* a global array: the selection sees it as long * */

static void rma(int me, int npes)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long *l = shmem_calloc(4 * N, sizeof *l);
    double *d = shmem_calloc(N, sizeof *d);
    char *c = shmem_calloc(N, 1);
    unsigned short *us = shmem_calloc(N, sizeof *us);
    long double *ld = shmem_calloc(N, sizeof *ld);
    long lsrc[N];
    double dsrc[N];
    char csrc[N];
    unsigned short ussrc[N];
    long double ldsrc[N];
    for (int i = 0; i < N; i++) {
        lsrc[i] = 1000L * me + i;
        dsrc[i] = me + i / 4.0;
        csrc[i] = (char)('a' + me + i);
        ussrc[i] = (unsigned short)(60000 + me + i);
        ldsrc[i] = me * 0.5L + i;
    }
    shmem_barrier_all();
    shmem_put(l, lsrc, N, right);
    shmem_put(SHMEM_CTX_DEFAULT, d, dsrc, N, right);
    shmem_put_nbi(c, csrc, N, right);
    shmem_put_nbi(SHMEM_CTX_DEFAULT, us, ussrc, N, right);
    shmem_put(ld, ldsrc, N, right);
    shmem_put(garr, lsrc, N, right);
    shmem_quiet();
    shmem_barrier_all();
    for (int i = 0; i < N; i++) {
        CHECK(l[i] == 1000L * left + i, "put long [%d] = %ld", i, l[i]);
        CHECK(d[i] == left + i / 4.0, "ctx put double [%d] = %g", i, d[i]);
        CHECK(c[i] == (char)('a' + left + i), "put_nbi char [%d] = %d", i, c[i]);
        CHECK(us[i] == (unsigned short)(60000 + left + i), "ctx put_nbi ushort [%d]", i);
        CHECK(ld[i] == left * 0.5L + i, "put long double [%d]", i);
        CHECK(garr[i] == 1000L * left + i, "put into a global array [%d] = %ld", i, garr[i]);
    }
    /* get and g, with and without ctx; g through a const pointer */
    long lgot[N];
    double dgot[N];
    shmem_get(lgot, l, N, right);
    shmem_get(SHMEM_CTX_DEFAULT, dgot, d, N, right);
    const long *cl = l;
    for (int i = 0; i < N; i++) {
        CHECK(lgot[i] == 1000L * me + i, "get long [%d] = %ld", i, lgot[i]);
        CHECK(dgot[i] == me + i / 4.0, "ctx get double [%d] = %g", i, dgot[i]);
        CHECK(shmem_g(cl + i, right) == 1000L * me + i, "g const long [%d]", i);
        CHECK(shmem_g(SHMEM_CTX_DEFAULT, us + i, right) == (unsigned short)(60000 + me + i),
              "ctx g ushort [%d]", i);
    }
    char cgot[N];
    shmem_get_nbi(cgot, c, N, right);
    shmem_get_nbi(SHMEM_CTX_DEFAULT, dgot, d, N, left);
    shmem_quiet();
    for (int i = 0; i < N; i++) {
        CHECK(cgot[i] == (char)('a' + me + i), "get_nbi char [%d]", i);
        CHECK(dgot[i] == (left + npes - 1) % npes + i / 4.0, "ctx get_nbi double [%d]", i);
    }
    shmem_barrier_all();
    /* p, strided and blocked-strided forms on l[N .. 4N) */
    shmem_p(&l[N], 77L + me, right);
    shmem_p(SHMEM_CTX_DEFAULT, &d[0], 2.5 * me, right);
    shmem_iput(&l[N + 1], lsrc, 2, 1, 3, right);  /* l[N+1], l[N+3], l[N+5] = lsrc[0..2] */
    shmem_ibput(SHMEM_CTX_DEFAULT, &l[2 * N], lsrc, 4, 2, 2, 2, right); /* 2 blocks of 2 */
    shmem_barrier_all();
    CHECK(l[N] == 77 + left, "p long");
    CHECK(d[0] == 2.5 * left, "ctx p double");
    for (int k = 0; k < 3; k++)
        CHECK(l[N + 1 + 2 * k] == 1000L * left + k, "iput [%d] = %ld", k, l[N + 1 + 2 * k]);
    CHECK(l[2 * N] == 1000L * left && l[2 * N + 1] == 1000L * left + 1 &&
              l[2 * N + 4] == 1000L * left + 2 && l[2 * N + 5] == 1000L * left + 3,
          "ibput blocks");
    long strided[3], blocks[4];
    shmem_iget(strided, &l[N + 1], 1, 2, 3, left);
    shmem_ibget(SHMEM_CTX_DEFAULT, blocks, &l[2 * N], 2, 4, 2, 2, left);
    int lleft = (left + npes - 1) % npes;
    for (int k = 0; k < 3; k++)
        CHECK(strided[k] == 1000L * lleft + k, "iget [%d] = %ld", k, strided[k]);
    for (int k = 0; k < 4; k++)
        CHECK(blocks[k] == 1000L * lleft + k, "ctx ibget [%d] = %ld", k, blocks[k]);
    shmem_barrier_all();
    /* put_signal and put_signal_nbi, with and without ctx, into fresh (zero) buffers */
    uint64_t *sig = shmem_calloc(2, sizeof *sig);
    long *sl = shmem_calloc(N, sizeof *sl);
    double *sd = shmem_calloc(N, sizeof *sd);
    char *sc = shmem_calloc(N, 1);
    unsigned short *sus = shmem_calloc(N, sizeof *sus);
    shmem_barrier_all();
    shmem_put_signal(sl, lsrc, N, &sig[0], 1, SHMEM_SIGNAL_ADD, right);
    shmem_put_signal(SHMEM_CTX_DEFAULT, sd, dsrc, N, &sig[0], 1, SHMEM_SIGNAL_ADD, right);
    shmem_put_signal_nbi(sc, csrc, N, &sig[1], 5, SHMEM_SIGNAL_SET, right);
    shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, sus, ussrc, N, &sig[0], 1, SHMEM_SIGNAL_ADD, right);
    shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ, 3);
    shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, 5);
    for (int i = 0; i < N; i++)
        CHECK(sl[i] == 1000L * left + i && sd[i] == left + i / 4.0 &&
                  sc[i] == (char)('a' + left + i) && sus[i] == (unsigned short)(60000 + left + i),
              "put_signal data [%d]", i);
    shmem_quiet();
    shmem_barrier_all();
    shmem_free(sig);
    shmem_free(sl);
    shmem_free(sd);
    shmem_free(sc);
    shmem_free(sus);
    shmem_free(l);
    shmem_free(d);
    shmem_free(c);
    shmem_free(us);
    shmem_free(ld);
}

static void atomics(int me, int npes)
{
    int right = (me + 1) % npes;
    long *l = shmem_calloc(4, sizeof *l);
    double *d = shmem_calloc(2, sizeof *d);
    float *f = shmem_calloc(2, sizeof *f);
    unsigned int *u = shmem_calloc(4, sizeof *u);
    int32_t *i32 = shmem_calloc(2, sizeof *i32);
    int64_t *i64 = shmem_calloc(2, sizeof *i64);
    unsigned long long *ull = shmem_calloc(2, sizeof *ull);
    size_t *sz = shmem_calloc(2, sizeof *sz);
    uint64_t *u64 = shmem_calloc(2, sizeof *u64);
    shmem_barrier_all();
    /* extended: set, fetch, swap on float/double/long, with and without ctx */
    shmem_atomic_set(&d[0], 1.5 + me, right);
    shmem_atomic_set(SHMEM_CTX_DEFAULT, &f[0], 0.25f * me, right);
    shmem_atomic_set(&l[0], 10L * me, right);
    shmem_barrier_all();
    int left = (me + npes - 1) % npes;
    CHECK(shmem_atomic_fetch(&d[0], me) == 1.5 + left, "set/fetch double");
    CHECK(shmem_atomic_fetch(SHMEM_CTX_DEFAULT, &f[0], me) == 0.25f * left, "set/fetch float");
    CHECK(shmem_atomic_swap(&l[0], 5L, me) == 10L * left, "swap long");
    CHECK(shmem_atomic_swap(SHMEM_CTX_DEFAULT, &d[0], 9.0, me) == 1.5 + left, "ctx swap double");
    double dfetched = -1;
    long lfetched = -1;
    shmem_atomic_fetch_nbi(&dfetched, &d[0], me);
    shmem_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &lfetched, &l[0], 6L, me);
    shmem_quiet();
    CHECK(dfetched == 9.0 && lfetched == 5 && l[0] == 6, "fetch_nbi / swap_nbi");
    shmem_barrier_all();
    /* standard: every PE adds to PE 0 with several types and forms */
    shmem_atomic_add(&l[1], 2L, 0);
    shmem_atomic_inc(SHMEM_CTX_DEFAULT, &l[1], 0);
    shmem_atomic_fetch_add(&ull[0], 3ULL, 0);
    shmem_atomic_fetch_inc(SHMEM_CTX_DEFAULT, &sz[0], 0);
    unsigned int uold;
    size_t szold;
    shmem_atomic_fetch_add_nbi(&uold, &u[0], 4u, 0);
    shmem_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &szold, &sz[1], 0);
    shmem_quiet();
    shmem_barrier_all();
    if (me == 0) {
        CHECK(l[1] == 3L * npes, "add + inc long: %ld", l[1]);
        CHECK(ull[0] == 3ULL * npes, "fetch_add unsigned long long");
        CHECK(sz[0] == (size_t)npes && sz[1] == (size_t)npes, "fetch_inc size_t (+nbi)");
        CHECK(u[0] == 4u * npes, "fetch_add_nbi unsigned int");
    }
    shmem_barrier_all();
    /* compare_swap: only PE 0's swap of 0 -> 100 succeeds on the right neighbour's l[2] */
    long seen = shmem_atomic_compare_swap(&l[2], 0L, 100L + me, 0);
    CHECK(seen == 0 || seen >= 100, "compare_swap old value %ld", seen);
    long cs_nbi = -1;
    shmem_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, &cs_nbi, &l[3], 0L, 7L, right);
    shmem_quiet();
    shmem_barrier_all();
    CHECK(l[3] == 7, "compare_swap_nbi set the value");
    CHECK(cs_nbi == 0, "compare_swap_nbi fetched %ld", cs_nbi);
    if (me == 0)
        CHECK(l[2] >= 100 && l[2] < 100 + npes, "exactly one compare_swap won: %ld", l[2]);
    shmem_barrier_all();
    /* bitwise: each PE sets its own bit on PE 0, with each type and form */
    shmem_atomic_or(&u[1], 1u << me, 0);
    shmem_atomic_fetch_or(SHMEM_CTX_DEFAULT, &i32[0], (int32_t)1 << me, 0);
    shmem_atomic_xor(&i64[0], (int64_t)1 << (me + 32), 0);
    uint64_t before;
    shmem_atomic_fetch_or_nbi(&before, &u64[0], (uint64_t)1 << me, 0);
    shmem_quiet();
    shmem_barrier_all();
    unsigned long long all = (1ULL << npes) - 1;
    if (me == 0) {
        CHECK(u[1] == all, "or unsigned int: %x", u[1]);
        CHECK((unsigned long long)i32[0] == all, "fetch_or int32_t: %x", (unsigned)i32[0]);
        CHECK((unsigned long long)i64[0] == all << 32, "xor int64_t");
        CHECK(u64[0] == all, "fetch_or_nbi uint64_t");
    }
    shmem_barrier_all();
    /* and / fetch_and / fetch_xor(_nbi): clear our bit again */
    shmem_atomic_and(&u[1], ~(1u << me), 0);
    unsigned int prev = shmem_atomic_fetch_and(SHMEM_CTX_DEFAULT, &u[2], ~0u, 0);
    CHECK(prev == 0, "fetch_and old value");
    int64_t x_old;
    shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &x_old, &i64[0], (int64_t)1 << (me + 32), 0);
    shmem_atomic_fetch_and_nbi(&x_old, &i64[1], (int64_t)0, 0);
    int32_t x32 = shmem_atomic_fetch_xor(&i32[0], (int32_t)1 << me, 0);
    CHECK(x32 & ((int32_t)1 << me), "fetch_xor saw our bit");
    shmem_quiet();
    shmem_barrier_all();
    if (me == 0)
        CHECK(u[1] == 0 && i64[0] == 0 && i32[0] == 0, "bits cleared again");
    shmem_barrier_all();
    shmem_free(l);
    shmem_free(d);
    shmem_free(f);
    shmem_free(u);
    shmem_free(i32);
    shmem_free(i64);
    shmem_free(ull);
    shmem_free(sz);
    shmem_free(u64);
}

static void sync_routines(int me, int npes)
{
    int right = (me + 1) % npes;
    int *iv = shmem_calloc(4, sizeof *iv);
    long *lv = shmem_calloc(4, sizeof *lv);
    unsigned short *sv = shmem_calloc(4, sizeof *sv);
    shmem_barrier_all();
    for (int k = 0; k < 4; k++) {
        shmem_p(&iv[k], k + 1, right);
        shmem_p(&lv[k], 10L + k, right);
        shmem_p(&sv[k], (unsigned short)(k == 2), right);
    }
    shmem_wait_until(&iv[3], SHMEM_CMP_EQ, 4);
    shmem_wait_until_all(iv, 4, NULL, SHMEM_CMP_GT, 0);
    long lwant[4] = {10, 11, 12, 13};
    shmem_wait_until_all_vector(lv, 4, NULL, SHMEM_CMP_EQ, lwant);
    size_t any = shmem_wait_until_any(sv, 4, NULL, SHMEM_CMP_EQ, 1);
    CHECK(any == 2, "wait_until_any unsigned short: %zu", any);
    size_t idx[4];
    int status[4] = {0, 1, 0, 0};
    size_t n = shmem_wait_until_some(iv, 4, idx, status, SHMEM_CMP_GE, 2);
    CHECK(n == 2 && idx[0] == 2 && idx[1] == 3, "wait_until_some int: %zu", n);
    int iwant[4] = {1, 0, 3, 0};
    n = shmem_wait_until_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, iwant);
    CHECK(n == 2 && idx[0] == 0 && idx[1] == 2, "wait_until_some_vector int: %zu", n);
    size_t a = shmem_wait_until_any_vector(lv, 4, NULL, SHMEM_CMP_GE, lwant);
    CHECK(a < 4, "wait_until_any_vector long: %zu", a);
    CHECK(shmem_test(&lv[0], SHMEM_CMP_EQ, 10), "test long");
    CHECK(shmem_test_all(iv, 4, NULL, SHMEM_CMP_LE, 4), "test_all int");
    CHECK(shmem_test_any(sv, 4, NULL, SHMEM_CMP_GT, 5) == SIZE_MAX, "test_any none");
    CHECK(shmem_test_some(lv, 4, idx, NULL, SHMEM_CMP_GE, 12) == 2, "test_some long");
    CHECK(shmem_test_all_vector(lv, 4, NULL, SHMEM_CMP_GE, lwant), "test_all_vector");
    a = shmem_test_any_vector(iv, 4, NULL, SHMEM_CMP_EQ, iwant);
    CHECK(a == 0 || a == 2, "test_any_vector int: %zu", a);
    CHECK(shmem_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_NE, iwant) == 2,
          "test_some_vector");
    shmem_barrier_all();
    shmem_free(iv);
    shmem_free(lv);
    shmem_free(sv);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    rma(me, npes);
    atomics(me, npes);
    sync_routines(me, npes);
    return check_finish();
}
