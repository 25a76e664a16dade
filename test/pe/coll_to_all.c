/*
 * coll_to_all.c: the active-set reductions shmem_TYPE_OP_to_all, every type/operator pair,
 * checked element by element on every PE of the set, for several sizes (one element up to
 * more than pWrk holds) and active sets (all PEs, logPE_stride 1 and 2, a subset leaving
 * PE 0 out). PEs outside a set call nothing and their dest must stay untouched. In place
 * (dest == source), and back-to-back calls alternating two pSync/pWrk pairs without a
 * barrier, each with new source values. The pSync arrays are static, as most programs have
 * them (on the UCX paths, globals are reached by emulated operations).
 *
 * sshmem-test: np=1 2 3 5 7 8
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_REDUCE=shm SSHMEM_COLL_BARRIER=dissem
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_REDUCE=shmrs SSHMEM_COLL_BARRIER=flat
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_REDUCE=rd
 * sshmem-test-env: np=3,8 paths=direct SSHMEM_COLL_REDUCE=rsag
 * sshmem-test-env: np=5 paths=tcp SSHMEM_COLL_REDUCE=rd
 * sshmem-test-env: np=5 paths=tcp SSHMEM_COLL_REDUCE=rsag
 * sshmem-test-env: np=5 paths=direct SSHMEM_PES_PER_NODE=2
 * sshmem-test-env: np=5,8 paths=direct SSHMEM_PES_PER_NODE=3 SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_BARRIER=hier
 */
#include <complex.h>

#include "active_sets.h"
#include "check.h"

#define MAXN 1200 /* elements */
static const int sizes[] = {1, 5, 40, 1100};
#define NSIZES 4

static long psync[2][SHMEM_REDUCE_SYNC_SIZE];
static int me, npes;

#include "reduce_values.h"

static int report(int ok, const char *name, const aset_t *s, int n, int iter, int inplace)
{
    CHECK(ok, "%s set(%d,%d,%d) nreduce %d iter %d%s", name, s->start, s->logs, s->size, n, iter,
          inplace ? " in place" : "");
    return ok;
}

/* Generate one test per (type, op): src/dst from shmem_malloc, two pWrk. */
#define DEF_TEST_(T, N, OP, VAL, EQ)                                                             \
    static void test_##N##_##OP(const aset_t *s)                                                 \
    {                                                                                            \
        T *src = shmem_malloc(2 * MAXN * sizeof(T));                                             \
        T *dst = shmem_malloc(2 * MAXN * sizeof(T));                                             \
        T *wrk = shmem_malloc(2 * (MAXN / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE) * sizeof(T));   \
        size_t wrk_stride = MAXN / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE;                        \
        int idx = aset_member(s, me);                                                           \
        for (int z = 0; z < NSIZES; z++) {                                                       \
            int n = sizes[z];                                                                    \
            for (int i = 0; i < 2 * MAXN; i++)                                                   \
                dst[i] = (T)99;                                                                  \
            shmem_barrier_all();                                                                 \
            /* two calls back to back, alternating pSync/pWrk and dest, new sources each */      \
            for (int it = 0; idx >= 0 && it < 2; it++) {                                         \
                int inplace = (z & 1) && it == 1;                                                \
                T *in = src + it * MAXN, *out = inplace ? in : dst + it * MAXN;                  \
                for (int i = 0; i < n; i++)                                                      \
                    in[i] = (T)(VAL(me + it, i));                                                \
                shmem_##N##_##OP##_to_all(out, in, n, s->start, s->logs, s->size,                \
                                          wrk + it * wrk_stride, psync[it]);                     \
                int ok = 1;                                                                      \
                for (int i = 0; i < n && ok; i++) {                                              \
                    T want = (T)(VAL(s->start + it, i));                                         \
                    for (int k = 1; k < s->size; k++)                                            \
                        want = APPLY_##OP(want, (T)(VAL(s->start + (k << s->logs) + it, i)));    \
                    ok = EQ(out[i], want);                                                       \
                }                                                                                \
                report(ok, "shmem_" #N "_" #OP "_to_all", s, n, it, inplace);                    \
            }                                                                                    \
            shmem_barrier_all();                                                                 \
            if (idx < 0) {                                                                       \
                int ok = 1;                                                                      \
                for (int i = 0; i < 2 * MAXN && ok; i++)                                         \
                    ok = EQ(dst[i], (T)99);                                                      \
                CHECK(ok, "shmem_" #N "_" #OP "_to_all touched the dest of a PE outside the set"); \
            }                                                                                    \
        }                                                                                        \
        shmem_free(wrk);                                                                         \
        shmem_free(dst);                                                                         \
        shmem_free(src);                                                                         \
    }
#define EQ_PLAIN(a, b) ((a) == (b))
#define DEF_AND_(T, N) DEF_TEST_(T, N, and, VAL_and, EQ_PLAIN)
#define DEF_OR_(T, N) DEF_TEST_(T, N, or, VAL_or, EQ_PLAIN)
#define DEF_XOR_(T, N) DEF_TEST_(T, N, xor, VAL_xor, EQ_PLAIN)
#define DEF_MIN_(T, N) DEF_TEST_(T, N, min, VAL_min, EQ_PLAIN)
#define DEF_MAX_(T, N) DEF_TEST_(T, N, max, VAL_max, EQ_PLAIN)
SHMEM_TO_ALL_BITWISE_TYPES(DEF_AND_)
SHMEM_TO_ALL_BITWISE_TYPES(DEF_OR_)
SHMEM_TO_ALL_BITWISE_TYPES(DEF_XOR_)
SHMEM_TO_ALL_MINMAX_TYPES(DEF_MIN_)
SHMEM_TO_ALL_MINMAX_TYPES(DEF_MAX_)
/* SUM and PROD: the real types with real values, the complex ones with complex values. */
#define REAL_ARITH_TYPES(X) SHMEM_TO_ALL_MINMAX_TYPES(X)
#define DEF_SUM_(T, N) DEF_TEST_(T, N, sum, VAL_sum, EQ_PLAIN)
#define DEF_PROD_(T, N) DEF_TEST_(T, N, prod, VAL_prod, EQ_PLAIN)
#define DEF_CSUM_(T, N) DEF_TEST_(T, N, sum, CVAL_sum, EQ_PLAIN)
#define DEF_CPROD_(T, N) DEF_TEST_(T, N, prod, CVAL_prod, EQ_PLAIN)
REAL_ARITH_TYPES(DEF_SUM_)
REAL_ARITH_TYPES(DEF_PROD_)
SHMEM_COMPLEX_TYPES(DEF_CSUM_)
SHMEM_COMPLEX_TYPES(DEF_CPROD_)

static void run_all(const aset_t *s)
{
#define CALL_AND_(T, N) test_##N##_and(s);
#define CALL_OR_(T, N) test_##N##_or(s);
#define CALL_XOR_(T, N) test_##N##_xor(s);
#define CALL_MIN_(T, N) test_##N##_min(s);
#define CALL_MAX_(T, N) test_##N##_max(s);
#define CALL_SUM_(T, N) test_##N##_sum(s);
#define CALL_PROD_(T, N) test_##N##_prod(s);
    SHMEM_TO_ALL_BITWISE_TYPES(CALL_AND_)
    SHMEM_TO_ALL_BITWISE_TYPES(CALL_OR_)
    SHMEM_TO_ALL_BITWISE_TYPES(CALL_XOR_)
    SHMEM_TO_ALL_MINMAX_TYPES(CALL_MIN_)
    SHMEM_TO_ALL_MINMAX_TYPES(CALL_MAX_)
    SHMEM_TO_ALL_ARITH_TYPES(CALL_SUM_)
    SHMEM_TO_ALL_ARITH_TYPES(CALL_PROD_)
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
            psync[k][i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();

    aset_t sets[4];
    int nsets = aset_list(sets, npes);
    for (int k = 0; k < nsets; k++)
        run_all(&sets[k]);
    return check_finish();
}
