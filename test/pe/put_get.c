/*
 * put_get.c: every typed, sized and untyped put/get form moves exactly the right values,
 * contiguous and strided, blocking and nbi, small and large, on the heap, to every PE.
 */
#include "check.h"

#define N 1000
#define BIG (1 << 20)
#define NP 64 /* elements moved one at a time with p and g */

/* The value PE `pe` writes at index i for type number t: distinct for every (pe, i, t). */
#define VAL(T, pe, i, t) ((T)(((pe) * 7 + (i) * 3 + (t)) % 100 + 1))

#define TEST_TYPE(T, NAME, t)                                                                    \
    do {                                                                                         \
        T *dst = shmem_malloc(N * sizeof(T));                                                    \
        T *src = malloc(N * sizeof(T));                                                          \
        T *got = malloc(N * sizeof(T));                                                          \
        for (int i = 0; i < N; i++) {                                                            \
            src[i] = VAL(T, me, i, t);                                                           \
            dst[i] = 0;                                                                          \
        }                                                                                        \
        shmem_barrier_all();                                                                     \
        shmem_##NAME##_put(dst, src, N, right); /* contiguous put */                             \
        shmem_barrier_all();                                                                     \
        for (int i = 0; i < N; i++)                                                              \
            CHECK(dst[i] == VAL(T, left, i, t), #NAME "_put element %d", i);                     \
        shmem_##NAME##_get(got, dst, N, right); /* right's dst holds my values */                \
        for (int i = 0; i < N; i++)                                                              \
            CHECK(got[i] == VAL(T, me, i, t), #NAME "_get element %d", i);                       \
        shmem_barrier_all();                                                                     \
        for (int i = 0; i < NP; i++)                                                             \
            shmem_##NAME##_p(&dst[i], VAL(T, me, i, t + 1), right);                              \
        shmem_barrier_all();                                                                     \
        for (int i = 0; i < NP; i++) {                                                           \
            CHECK(dst[i] == VAL(T, left, i, t + 1), #NAME "_p element %d", i);                   \
            CHECK(shmem_##NAME##_g(&dst[i], right) == VAL(T, me, i, t + 1), #NAME "_g %d", i);   \
        }                                                                                        \
        shmem_barrier_all();                                                                     \
        shmem_##NAME##_put_nbi(dst, src, N / 2, right);                                          \
        shmem_quiet();                                                                           \
        shmem_barrier_all();                                                                     \
        for (int i = 0; i < N / 2; i++)                                                          \
            CHECK(dst[i] == VAL(T, left, i, t), #NAME "_put_nbi element %d", i);                 \
        memset(got, 0, N * sizeof(T));                                                           \
        shmem_##NAME##_get_nbi(got, dst, N / 2, right);                                          \
        shmem_quiet();                                                                           \
        for (int i = 0; i < N / 2; i++)                                                          \
            CHECK(got[i] == VAL(T, me, i, t), #NAME "_get_nbi element %d", i);                   \
        shmem_barrier_all();                                                                     \
        /* strided: every 3rd source element to every 2nd destination slot */                    \
        for (int i = 0; i < N; i++)                                                              \
            dst[i] = 0;                                                                          \
        shmem_barrier_all();                                                                     \
        shmem_##NAME##_iput(dst, src, 2, 3, N / 3, right);                                       \
        shmem_barrier_all();                                                                     \
        for (int i = 0; i < N; i++) {                                                            \
            T want = (i % 2 == 0 && i / 2 < N / 3) ? VAL(T, left, (i / 2) * 3, t) : (T)0;        \
            CHECK(dst[i] == want, #NAME "_iput element %d", i);                                  \
        }                                                                                        \
        memset(got, 0, N * sizeof(T));                                                           \
        shmem_##NAME##_iget(got, dst, 1, 2, N / 3, right);                                       \
        for (int i = 0; i < N / 3; i++)                                                          \
            CHECK(got[i] == VAL(T, me, i * 3, t), #NAME "_iget element %d", i);                  \
        shmem_barrier_all();                                                                     \
        shmem_free(dst);                                                                         \
        free(src);                                                                               \
        free(got);                                                                               \
    } while (0)

static void test_big_and_sized(int me, int left, int right)
{
    char *big = shmem_malloc(BIG);
    char *src = malloc(BIG), *got = malloc(BIG);
    for (int i = 0; i < BIG; i++)
        src[i] = (char)(i * 31 + me);
    shmem_barrier_all();
    shmem_putmem(big, src, BIG, right);
    shmem_barrier_all();
    for (int i = 0; i < BIG; i++)
        CHECK(big[i] == (char)(i * 31 + left), "putmem 1 MiB byte %d", i);
    shmem_getmem(got, big, BIG, right);
    CHECK(memcmp(got, src, BIG) == 0, "getmem 1 MiB differs");
    shmem_barrier_all();

    /* sized: put64 of 100 elements and put128 of 10, then get32 back */
    uint64_t s64[100];
    for (int i = 0; i < 100; i++)
        s64[i] = ((uint64_t)me << 32) | (uint64_t)i;
    shmem_put64(big, s64, 100, right);
    shmem_put128(big + 800, s64, 10, right);
    shmem_putmem(big + 2000, "", 0, right); /* zero length: nothing happens */
    shmem_putmem(NULL, NULL, 0, right);     /* zero length with NULL pointers is valid */
    shmem_barrier_all();
    for (int i = 0; i < 100; i++)
        CHECK(((uint64_t *)big)[i] == (((uint64_t)left << 32) | (uint64_t)i), "put64 %d", i);
    for (int i = 0; i < 20; i++)
        CHECK(((uint64_t *)(big + 800))[i] == (((uint64_t)left << 32) | (uint64_t)i), "put128 %d", i);
    uint32_t g32[200];
    shmem_get32(g32, big, 200, right);
    CHECK(memcmp(g32, s64, sizeof g32) == 0, "get32 differs");
    shmem_barrier_all();
    shmem_free(big);
    free(src);
    free(got);
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    TEST_TYPE(char, char, 1);
    TEST_TYPE(signed char, schar, 2);
    TEST_TYPE(short, short, 3);
    TEST_TYPE(int, int, 4);
    TEST_TYPE(long, long, 5);
    TEST_TYPE(long long, longlong, 6);
    TEST_TYPE(unsigned char, uchar, 7);
    TEST_TYPE(unsigned short, ushort, 8);
    TEST_TYPE(unsigned int, uint, 9);
    TEST_TYPE(unsigned long, ulong, 10);
    TEST_TYPE(unsigned long long, ulonglong, 11);
    TEST_TYPE(float, float, 12);
    TEST_TYPE(double, double, 13);
    TEST_TYPE(long double, longdouble, 14);
    TEST_TYPE(int8_t, int8, 15);
    TEST_TYPE(int16_t, int16, 16);
    TEST_TYPE(int32_t, int32, 17);
    TEST_TYPE(int64_t, int64, 18);
    TEST_TYPE(uint8_t, uint8, 19);
    TEST_TYPE(uint16_t, uint16, 20);
    TEST_TYPE(uint32_t, uint32, 21);
    TEST_TYPE(uint64_t, uint64, 22);
    TEST_TYPE(size_t, size, 23);
    TEST_TYPE(ptrdiff_t, ptrdiff, 24);
    test_big_and_sized(me, left, right);
    return check_finish();
}
