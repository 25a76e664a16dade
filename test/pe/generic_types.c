/*
 * generic_types.c (compiled with -std=c11): every C11 generic routine accepts every type the
 * OpenSHMEM 1.6 specification lists for it, and the values prove the typed routine of that
 * type ran. The type lists below are copied from the specification's tables, independently
 * of the library's own table (include/shmem_typetable.h), so a type missing there fails to
 * compile here:
 *  "Standard RMA Types"            RMA, broadcast, collect, fcollect, alltoall(s), max, min,
 *                                  sum, prod, sum_inscan, sum_exscan
 *  "Team-Based Reductions" AND, OR, XOR column
 *  "Standard AMO Types", "Extended AMO Types", "Bitwise AMO Types" (and the deprecated
 *                                  generic names shmem_add ... shmem_cswap)
 *  "Point-to-Point Synchronization Types"
 */
#include <stddef.h>
#include <stdint.h>

#include "check.h"

#define N 4

#define RMA_TYPES(X)                                                                         \
    X(float, float) X(double, double) X(long double, ldouble) X(char, char)                 \
    X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, llong)     \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)                 \
    X(unsigned long, ulong) X(unsigned long long, ullong) X(int8_t, int8) X(int16_t, int16) \
    X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16)               \
    X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#define BITWISE_REDUCE_TYPES(X)                                                              \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)                 \
    X(unsigned long, ulong) X(unsigned long long, ullong) X(int8_t, int8) X(int16_t, int16) \
    X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16)               \
    X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)
#define STD_AMO_TYPES(X)                                                                     \
    X(int, int) X(long, long) X(long long, llong) X(unsigned int, uint) X(unsigned long, ulong) \
    X(unsigned long long, ullong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)   \
    X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#define EXT_AMO_TYPES(X) X(float, float) X(double, double) STD_AMO_TYPES(X)
#define BITWISE_AMO_TYPES(X)                                                                 \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ullong)             \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)
#define SYNC_TYPES(X)                                                                        \
    X(short, short) X(int, int) X(long, long) X(long long, llong) X(unsigned short, ushort) \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ullong)             \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)             \
    X(size_t, size) X(ptrdiff_t, ptrdiff)

static int me, npes, left, right;

/* Small values: exact in every listed type, sums over 8 PEs stay below 127. */
static int val(int pe, int i) { return (pe * 3 + i) % 7 + 1; }

#define EQ(got, want, what, name)                                                            \
    do {                                                                                     \
        long double got_ = (long double)(got), want_ = (long double)(want);                  \
        CHECK(got_ == want_, "%s on %s: got %Lg, expected %Lg", what, name, got_, want_);     \
    } while (0)

/* ---------------------------------------------------------------- RMA and collectives */
#define DEF_RMA_(T, TAG)                                                                     \
    static void rma_##TAG(void)                                                              \
    {                                                                                        \
        const char *name = #T;                                                               \
        T *src = shmem_calloc(N, sizeof(T));                                                 \
        T *dst = shmem_calloc((size_t)N * npes, sizeof(T));                                  \
        T local[N];                                                                          \
        for (int i = 0; i < N; i++)                                                          \
            src[i] = (T)val(me, i);                                                          \
        shmem_barrier_all();                                                                 \
        shmem_put(dst, src, N, right);                                                       \
        shmem_barrier_all();                                                                 \
        for (int i = 0; i < N; i++) EQ(dst[i], val(left, i), "shmem_put", name);             \
        shmem_get(local, src, N, left);                                                      \
        for (int i = 0; i < N; i++) EQ(local[i], val(left, i), "shmem_get", name);           \
        shmem_barrier_all();                                                                 \
        shmem_p(&dst[0], (T)(me + 1), right);                                                \
        shmem_put_nbi(&dst[1], &src[1], 1, right);                                           \
        shmem_iput(&dst[2], &src[2], 1, 1, 2, right);                                        \
        shmem_barrier_all();                                                                 \
        EQ(dst[0], left + 1, "shmem_p", name);                                               \
        EQ(dst[1], val(left, 1), "shmem_put_nbi", name);                                     \
        EQ(dst[2], val(left, 2), "shmem_iput", name);                                        \
        EQ(shmem_g(&src[3], left), val(left, 3), "shmem_g", name);                           \
        shmem_get_nbi(&local[0], &src[0], 1, left);                                          \
        shmem_iget(&local[1], &src[1], 1, 1, 1, left);                                       \
        shmem_quiet();                                                                       \
        EQ(local[0], val(left, 0), "shmem_get_nbi", name);                                   \
        EQ(local[1], val(left, 1), "shmem_iget", name);                                      \
        shmem_barrier_all();                                                                 \
        /* collectives over SHMEM_TEAM_WORLD */                                              \
        CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, dst, src, N, 0) == 0, "broadcast %s", name); \
        for (int i = 0; i < N; i++) EQ(dst[i], val(0, i), "shmem_broadcast", name);          \
        CHECK(shmem_fcollect(SHMEM_TEAM_WORLD, dst, src, N) == 0, "fcollect %s", name);      \
        for (int j = 0; j < npes * N; j++) EQ(dst[j], val(j / N, j % N), "shmem_fcollect", name); \
        CHECK(shmem_collect(SHMEM_TEAM_WORLD, dst, src, 1) == 0, "collect %s", name);        \
        for (int j = 0; j < npes; j++) EQ(dst[j], val(j, 0), "shmem_collect", name);         \
        T *all = shmem_calloc((size_t)npes, sizeof(T));                                      \
        T *got = shmem_calloc((size_t)npes, sizeof(T));                                      \
        for (int j = 0; j < npes; j++)                                                       \
            all[j] = (T)val(me, j);                                                          \
        shmem_barrier_all();                                                                 \
        CHECK(shmem_alltoall(SHMEM_TEAM_WORLD, got, all, 1) == 0, "alltoall %s", name);      \
        for (int j = 0; j < npes; j++) EQ(got[j], val(j, me), "shmem_alltoall", name);        \
        CHECK(shmem_alltoalls(SHMEM_TEAM_WORLD, got, all, 1, 1, 1) == 0, "alltoalls %s", name); \
        for (int j = 0; j < npes; j++) EQ(got[j], val(j, me), "shmem_alltoalls", name);       \
        /* reductions: max, min, sum, prod, and the scans */                                 \
        int mx[N], mn[N], sm[N], ex[N];                                                      \
        for (int i = 0; i < N; i++) {                                                        \
            mx[i] = 0, mn[i] = 100, sm[i] = 0, ex[i] = 0;                                    \
            for (int pe = 0; pe < npes; pe++) {                                              \
                int v = val(pe, i);                                                          \
                mx[i] = v > mx[i] ? v : mx[i], mn[i] = v < mn[i] ? v : mn[i], sm[i] += v;    \
                if (pe < me) ex[i] += v;                                                     \
            }                                                                                \
        }                                                                                    \
        shmem_max_reduce(SHMEM_TEAM_WORLD, dst, src, N);                                     \
        for (int i = 0; i < N; i++) EQ(dst[i], mx[i], "shmem_max_reduce", name);             \
        shmem_min_reduce(SHMEM_TEAM_WORLD, dst, src, N);                                     \
        for (int i = 0; i < N; i++) EQ(dst[i], mn[i], "shmem_min_reduce", name);             \
        shmem_sum_reduce(SHMEM_TEAM_WORLD, dst, src, N);                                     \
        for (int i = 0; i < N; i++) EQ(dst[i], sm[i], "shmem_sum_reduce", name);             \
        shmem_sum_inscan(SHMEM_TEAM_WORLD, dst, src, N);                                     \
        for (int i = 0; i < N; i++) EQ(dst[i], ex[i] + val(me, i), "shmem_sum_inscan", name); \
        shmem_sum_exscan(SHMEM_TEAM_WORLD, dst, src, N);                                     \
        for (int i = 0; i < N && me > 0; i++) EQ(dst[i], ex[i], "shmem_sum_exscan", name);   \
        for (int i = 0; i < N; i++) /* one PE gives 2, the others 1: the product is 2 */     \
            src[i] = (T)(i % npes == me ? 2 : 1);                                            \
        shmem_barrier_all();                                                                 \
        shmem_prod_reduce(SHMEM_TEAM_WORLD, dst, src, N);                                    \
        for (int i = 0; i < N; i++) EQ(dst[i], 2, "shmem_prod_reduce", name);                 \
        shmem_free(all);                                                                     \
        shmem_free(got);                                                                     \
        shmem_free(src);                                                                     \
        shmem_free(dst);                                                                     \
    }
RMA_TYPES(DEF_RMA_)

/* ---------------------------------------------------------------- AND, OR, XOR reductions */
#define DEF_BITWISE_REDUCE_(T, TAG)                                                          \
    static void bitwise_reduce_##TAG(void)                                                   \
    {                                                                                        \
        T *src = shmem_calloc(N, sizeof(T)), *dst = shmem_calloc(N, sizeof(T));              \
        unsigned a = 0x7f, o = 0, x = 0;                                                     \
        for (int pe = 0; pe < npes; pe++) {                                                  \
            unsigned v = 1u << (pe % 7) | 1u;                                                \
            a &= v, o |= v, x ^= v;                                                          \
        }                                                                                    \
        for (int i = 0; i < N; i++)                                                          \
            src[i] = (T)(1u << (me % 7) | 1u);                                               \
        shmem_barrier_all();                                                                 \
        shmem_and_reduce(SHMEM_TEAM_WORLD, dst, src, N);                                     \
        for (int i = 0; i < N; i++) EQ(dst[i], a, "shmem_and_reduce", #T);                   \
        shmem_or_reduce(SHMEM_TEAM_WORLD, dst, src, N);                                      \
        for (int i = 0; i < N; i++) EQ(dst[i], o, "shmem_or_reduce", #T);                    \
        shmem_xor_reduce(SHMEM_TEAM_WORLD, dst, src, N);                                     \
        for (int i = 0; i < N; i++) EQ(dst[i], x, "shmem_xor_reduce", #T);                   \
        shmem_free(src);                                                                     \
        shmem_free(dst);                                                                     \
    }
BITWISE_REDUCE_TYPES(DEF_BITWISE_REDUCE_)

/* ---------------------------------------------------------------- atomics */
/* Every PE adds to PE 0's counter, the current and the deprecated generic names; then PE 0
 * checks the total. c[0]: fetch_add/add/inc/fetch_inc/nbi forms; c[1]: the deprecated ones. */
#define DEF_STD_AMO_(T, TAG)                                                                 \
    static void std_amo_##TAG(void)                                                          \
    {                                                                                        \
        T *c = shmem_calloc(4, sizeof(T));                                                   \
        T f;                                                                                 \
        shmem_barrier_all();                                                                 \
        (void)shmem_atomic_fetch_add(&c[0], (T)2, 0);                                        \
        shmem_atomic_add(&c[0], (T)3, 0);                                                    \
        shmem_atomic_inc(&c[0], 0);                                                          \
        (void)shmem_atomic_fetch_inc(&c[0], 0);                                              \
        shmem_atomic_fetch_add_nbi(&f, &c[0], (T)1, 0);                                      \
        shmem_atomic_fetch_inc_nbi(&f, &c[0], 0);                                            \
        (void)shmem_fadd(&c[1], (T)2, 0);                                                    \
        shmem_add(&c[1], (T)3, 0);                                                           \
        shmem_inc(&c[1], 0);                                                                 \
        (void)shmem_finc(&c[1], 0);                                                          \
        shmem_quiet();                                                                       \
        shmem_barrier_all();                                                                 \
        if (me == 0) {                                                                       \
            EQ(c[0], 9 * npes, "the standard atomics", #T);                                  \
            EQ(c[1], 7 * npes, "shmem_fadd, shmem_add, shmem_inc, shmem_finc", #T);          \
        }                                                                                    \
        shmem_barrier_all();                                                                 \
        /* compare_swap: only PE 0's swap of 0 for 5 on PE 0 wins; cswap likewise */         \
        T old = shmem_atomic_compare_swap(&c[2], (T)0, (T)(me + 5), 0);                      \
        T old2 = shmem_cswap(&c[3], (T)0, (T)(me + 5), 0);                                   \
        shmem_atomic_compare_swap_nbi(&f, &c[2], (T)100, (T)101, 0);                         \
        shmem_quiet();                                                                       \
        shmem_barrier_all();                                                                 \
        /* one PE won (saw 0 and stored its value); the others saw the winner's value */     \
        T won = shmem_g(&c[2], 0), won2 = shmem_g(&c[3], 0);                                 \
        CHECK(won >= (T)5 && won < (T)(npes + 5), "compare_swap stored on %s", #T);          \
        CHECK(old == (won == (T)(me + 5) ? (T)0 : won), "compare_swap result on %s", #T);    \
        CHECK(old2 == (won2 == (T)(me + 5) ? (T)0 : won2), "shmem_cswap result on %s", #T);  \
        EQ(f, won, "atomic_compare_swap_nbi (no match)", #T);                                \
        shmem_barrier_all();                                                                 \
        shmem_free(c);                                                                       \
    }
STD_AMO_TYPES(DEF_STD_AMO_)

#define DEF_EXT_AMO_(T, TAG)                                                                 \
    static void ext_amo_##TAG(void)                                                          \
    {                                                                                        \
        T *c = shmem_calloc(2, sizeof(T));                                                   \
        T f;                                                                                 \
        shmem_barrier_all();                                                                 \
        shmem_atomic_set(&c[0], (T)(me + 1), right);                                         \
        shmem_set(&c[1], (T)(me + 2), right);                                                \
        shmem_barrier_all();                                                                 \
        EQ(shmem_atomic_fetch(&c[0], me), left + 1, "shmem_atomic_set/fetch", #T);           \
        EQ(shmem_fetch(&c[1], me), left + 2, "shmem_set/shmem_fetch", #T);                   \
        shmem_barrier_all();                                                                 \
        EQ(shmem_atomic_swap(&c[0], (T)(me + 10), right), me + 1, "atomic_swap", #T);           \
        shmem_barrier_all();                                                                 \
        EQ(shmem_swap(&c[0], (T)(me + 20), right), me + 10, "shmem_swap", #T);               \
        shmem_barrier_all();                                                                 \
        shmem_atomic_fetch_nbi(&f, &c[0], left);                                             \
        shmem_quiet();                                                                       \
        EQ(f, left == 0 ? npes - 1 + 20 : left - 1 + 20, "atomic_fetch_nbi", #T);            \
        shmem_barrier_all();                                                                 \
        shmem_atomic_swap_nbi(&f, &c[1], (T)7, right);                                       \
        shmem_quiet();                                                                       \
        EQ(f, me + 2, "atomic_swap_nbi", #T);                                                \
        shmem_barrier_all();                                                                 \
        shmem_free(c);                                                                       \
    }
EXT_AMO_TYPES(DEF_EXT_AMO_)

#define DEF_BITWISE_AMO_(T, TAG)                                                             \
    static void bitwise_amo_##TAG(void)                                                      \
    {                                                                                        \
        T *c = shmem_calloc(3, sizeof(T));                                                   \
        T f;                                                                                 \
        c[1] = (T)~(T)0;                                                                     \
        shmem_barrier_all();                                                                 \
        T bit = (T)((T)1 << (me % 16));                                                      \
        (void)shmem_atomic_fetch_or(&c[0], bit, 0);                                          \
        shmem_atomic_or(&c[0], (T)((T)1 << 20), 0);                                          \
        shmem_atomic_fetch_or_nbi(&f, &c[0], (T)((T)1 << 21), 0);                            \
        (void)shmem_atomic_fetch_and(&c[1], (T)~bit, 0);                                     \
        shmem_atomic_and(&c[1], (T)~((T)1 << 20), 0);                                        \
        shmem_atomic_fetch_and_nbi(&f, &c[1], (T)~((T)1 << 21), 0);                          \
        (void)shmem_atomic_fetch_xor(&c[2], bit, 0);                                         \
        shmem_atomic_xor(&c[2], bit, 0);                                                     \
        shmem_atomic_fetch_xor_nbi(&f, &c[2], bit, 0);                                       \
        shmem_quiet();                                                                       \
        shmem_barrier_all();                                                                 \
        if (me == 0) {                                                                       \
            T bits = 0;                                                                      \
            for (int pe = 0; pe < npes; pe++) bits |= (T)((T)1 << (pe % 16));                \
            T high = (T)((T)1 << 20 | (T)1 << 21);                                           \
            EQ(c[0], bits | high, "shmem_atomic_(fetch_)or(_nbi)", #T);                      \
            EQ(c[1], (T)~(T)(bits | high), "shmem_atomic_(fetch_)and(_nbi)", #T);            \
            EQ(c[2], bits, "shmem_atomic_(fetch_)xor(_nbi)", #T);                            \
        }                                                                                    \
        shmem_barrier_all();                                                                 \
        shmem_free(c);                                                                       \
    }
BITWISE_AMO_TYPES(DEF_BITWISE_AMO_)

/* ---------------------------------------------------------------- wait and test */
#define DEF_SYNC_(T, TAG)                                                                    \
    static void sync_##TAG(void)                                                             \
    {                                                                                        \
        T *flag = shmem_calloc(2, sizeof(T));                                                \
        shmem_barrier_all();                                                                 \
        T one = 1;                                                                           \
        shmem_put(&flag[0], &one, 1, right);                                                 \
        shmem_wait_until(&flag[0], SHMEM_CMP_EQ, (T)1);                                      \
        EQ(flag[0], 1, "shmem_wait_until", #T);                                              \
        CHECK(shmem_test(&flag[0], SHMEM_CMP_EQ, (T)1), "shmem_test on %s", #T);             \
        CHECK(shmem_test_all(flag, 1, NULL, SHMEM_CMP_GE, (T)1), "shmem_test_all on %s", #T); \
        shmem_barrier_all();                                                                 \
        shmem_free(flag);                                                                    \
    }
SYNC_TYPES(DEF_SYNC_)

#define CALL_RMA_(T, TAG) rma_##TAG();
#define CALL_BITWISE_REDUCE_(T, TAG) bitwise_reduce_##TAG();
#define CALL_STD_AMO_(T, TAG) std_amo_##TAG();
#define CALL_EXT_AMO_(T, TAG) ext_amo_##TAG();
#define CALL_BITWISE_AMO_(T, TAG) bitwise_amo_##TAG();
#define CALL_SYNC_(T, TAG) sync_##TAG();

int main(void)
{
    shmem_init();
    me = shmem_my_pe(), npes = shmem_n_pes();
    left = (me + npes - 1) % npes, right = (me + 1) % npes;
    RMA_TYPES(CALL_RMA_)
    BITWISE_REDUCE_TYPES(CALL_BITWISE_REDUCE_)
    STD_AMO_TYPES(CALL_STD_AMO_)
    EXT_AMO_TYPES(CALL_EXT_AMO_)
    BITWISE_AMO_TYPES(CALL_BITWISE_AMO_)
    SYNC_TYPES(CALL_SYNC_)
    return check_finish();
}
