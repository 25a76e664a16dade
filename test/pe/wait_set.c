/*
 * wait_set.c: wait_until_{all,any,some}[_vector] and test_{all,any,some}[_vector] for EVERY
 * point-to-point synchronization type (the test is expanded over the type table). Each PE's
 * variables are written by its left neighbour while it waits:
 *  1. empty sets (nelems 0, or every element excluded by status): all -> 1 / returns,
 *     any -> SIZE_MAX, some -> 0;
 *  2. nothing written yet: test_all 0, test_any SIZE_MAX, test_some 0;
 *  3. odd elements written: wait_until_all with a status mask that leaves out the even ones;
 *  4. even elements written: wait_until_some until every even index is reported exactly once,
 *     then one call reports all of them at once;
 *  5. wait_until_any returns every satisfied index over a series of calls (no starvation);
 *  6. vector forms with per-element compare values; every comparison operator.
 */
#include "check.h"

#define NV 8

static int status_even_out[NV] = {1, 0, 1, 0, 1, 0, 1, 0}; /* leaves out the even elements */
static int status_all_out[NV] = {1, 1, 1, 1, 1, 1, 1, 1};

/* Every element i of v equals want(i) (reading our own variables). */
#define CHECK_ALL_(v, expr, what)                                                                \
    for (size_t i = 0; i < NV; i++)                                                              \
        CHECK((long long)(v)[i] == (long long)(expr), "%s: %s[%zu] = %lld, want %lld", #v, what, \
              i, (long long)(v)[i], (long long)(expr))

#define DEF_TEST_(T, N)                                                                          \
    static void test_##N(int me, int npes)                                                       \
    {                                                                                            \
        int right = (me + 1) % npes;                                                             \
        T *v = shmem_calloc(NV, sizeof(T));                                                      \
        T cmp[NV], cmp2[NV];                                                                     \
        size_t idx[NV];                                                                          \
        for (size_t i = 0; i < NV; i++) {                                                        \
            cmp[i] = (T)i;                                                                       \
            cmp2[i] = (T)(10 + i);                                                               \
        }                                                                                        \
        shmem_barrier_all();                                                                     \
        /* 1. empty sets */                                                                      \
        CHECK(shmem_##N##_test_all(v, 0, NULL, SHMEM_CMP_EQ, 1) == 1, #N " test_all empty");     \
        CHECK(shmem_##N##_test_all(v, NV, status_all_out, SHMEM_CMP_EQ, 1) == 1,                 \
              #N " test_all all excluded");                                                      \
        CHECK(shmem_##N##_test_all_vector(v, NV, status_all_out, SHMEM_CMP_EQ, cmp2) == 1,       \
              #N " test_all_vector all excluded");                                               \
        shmem_##N##_wait_until_all(v, 0, NULL, SHMEM_CMP_EQ, 1);                                 \
        shmem_##N##_wait_until_all(v, NV, status_all_out, SHMEM_CMP_EQ, 1);                      \
        shmem_##N##_wait_until_all_vector(v, NV, status_all_out, SHMEM_CMP_EQ, cmp2);            \
        CHECK(shmem_##N##_wait_until_any(v, 0, NULL, SHMEM_CMP_EQ, 1) == SIZE_MAX, #N " any 0"); \
        CHECK(shmem_##N##_wait_until_any(v, NV, status_all_out, SHMEM_CMP_EQ, 1) == SIZE_MAX,    \
              #N " wait_until_any all excluded");                                                \
        CHECK(shmem_##N##_wait_until_any_vector(v, NV, status_all_out, SHMEM_CMP_EQ, cmp2) ==    \
                  SIZE_MAX, #N " wait_until_any_vector all excluded");                           \
        CHECK(shmem_##N##_test_any(v, 0, NULL, SHMEM_CMP_EQ, 0) == SIZE_MAX, #N " test_any 0");  \
        CHECK(shmem_##N##_wait_until_some(v, 0, idx, NULL, SHMEM_CMP_EQ, 0) == 0, #N " some 0"); \
        CHECK(shmem_##N##_wait_until_some(v, NV, idx, status_all_out, SHMEM_CMP_EQ, 0) == 0,     \
              #N " wait_until_some all excluded");                                               \
        CHECK(shmem_##N##_wait_until_some_vector(v, NV, idx, status_all_out, SHMEM_CMP_EQ,       \
                                                 cmp) == 0, #N " some_vector all excluded");     \
        CHECK(shmem_##N##_test_some(v, 0, idx, NULL, SHMEM_CMP_EQ, 0) == 0, #N " test_some 0");  \
        /* 2. nothing written yet */                                                             \
        CHECK(shmem_##N##_test_all(v, NV, NULL, SHMEM_CMP_EQ, 1) == 0, #N " test_all before");   \
        CHECK(shmem_##N##_test_any(v, NV, NULL, SHMEM_CMP_EQ, 1) == SIZE_MAX,                    \
              #N " test_any before");                                                            \
        CHECK(shmem_##N##_test_some(v, NV, idx, NULL, SHMEM_CMP_NE, 0) == 0,                     \
              #N " test_some before");                                                           \
        CHECK(shmem_##N##_test_all_vector(v, NV, NULL, SHMEM_CMP_GE, cmp) == 0,                  \
              #N " test_all_vector before");                                                     \
        shmem_barrier_all();                                                                     \
        /* 3. the odd elements get 1; wait for them with the even ones excluded */               \
        for (size_t i = 1; i < NV; i += 2)                                                       \
            shmem_##N##_p(&v[i], 1, right);                                                      \
        shmem_##N##_wait_until_all(v, NV, status_even_out, SHMEM_CMP_EQ, 1);                     \
        CHECK_ALL_(v, i % 2, "after odd writes");                                                \
        CHECK(shmem_##N##_test_all(v, NV, status_even_out, SHMEM_CMP_EQ, 1) == 1,                \
              #N " test_all masked");                                                            \
        CHECK(shmem_##N##_test_all(v, NV, NULL, SHMEM_CMP_EQ, 1) == 0, #N " test_all unmasked"); \
        size_t n_odd = shmem_##N##_test_some(v, NV, idx, NULL, SHMEM_CMP_EQ, 1);                 \
        CHECK(n_odd == NV / 2, #N " test_some odd count %zu", n_odd);                            \
        for (size_t k = 0; k < n_odd && k < NV; k++)                                             \
            CHECK(idx[k] % 2 == 1, #N " test_some index %zu is even", idx[k]);                   \
        size_t any = shmem_##N##_test_any(v, NV, NULL, SHMEM_CMP_EQ, 1);                         \
        CHECK(any < NV && any % 2 == 1, #N " test_any gave %zu", any);                           \
        shmem_barrier_all();                                                                     \
        /* 4. the even elements get 2; collect them with wait_until_some */                     \
        for (size_t i = 0; i < NV; i += 2)                                                       \
            shmem_##N##_p(&v[i], 2, right);                                                      \
        int seen[NV] = {0}, mask[NV];                                                            \
        for (size_t i = 0; i < NV; i++)                                                          \
            mask[i] = i % 2;                                                                     \
        for (size_t got = 0; got < NV / 2;) {                                                    \
            size_t n = shmem_##N##_wait_until_some(v, NV, idx, mask, SHMEM_CMP_EQ, 2);           \
            CHECK(n >= 1 && n <= NV / 2 - got, #N " wait_until_some returned %zu", n);           \
            if (n < 1 || n > NV / 2 - got)                                                       \
                break;                                                                           \
            for (size_t k = 0; k < n; k++) {                                                     \
                CHECK(idx[k] < NV && idx[k] % 2 == 0 && !seen[idx[k]] && v[idx[k]] == 2,         \
                      #N " wait_until_some index %zu", idx[k]);                                  \
                if (idx[k] < NV) {                                                               \
                    seen[idx[k]] = 1;                                                            \
                    mask[idx[k]] = 1;                                                            \
                }                                                                                \
            }                                                                                    \
            got += n;                                                                            \
        }                                                                                        \
        CHECK_ALL_(v, 2 - i % 2, "after even writes");                                           \
        /* every element satisfied at the sweep is reported, not just the first one found */    \
        CHECK(shmem_##N##_wait_until_some(v, NV, idx, NULL, SHMEM_CMP_EQ, 2) == NV / 2,          \
              #N " wait_until_some reports all satisfied");                                      \
        /* 5. every element satisfies NE 0: a series of any-waits returns each of them */        \
        int returned[NV] = {0};                                                                  \
        for (int call = 0; call < 2 * NV; call++) {                                              \
            size_t r = shmem_##N##_wait_until_any(v, NV, NULL, SHMEM_CMP_NE, 0);                 \
            CHECK(r < NV, #N " wait_until_any gave %zu", r);                                     \
            if (r < NV)                                                                          \
                returned[r] = 1;                                                                 \
        }                                                                                        \
        for (size_t i = 0; i < NV; i++)                                                          \
            CHECK(returned[i], #N " wait_until_any never returned index %zu", i);                \
        shmem_barrier_all();                                                                     \
        /* 6. vector forms: element i becomes 10 + i and is compared with its own value */       \
        for (size_t i = 0; i < NV; i++)                                                          \
            shmem_##N##_p(&v[i], (T)(10 + i), right);                                            \
        shmem_##N##_wait_until_all_vector(v, NV, NULL, SHMEM_CMP_EQ, cmp2);                      \
        CHECK_ALL_(v, 10 + i, "after vector writes");                                            \
        CHECK(shmem_##N##_test_all_vector(v, NV, NULL, SHMEM_CMP_GT, cmp) == 1, #N " GT vec");   \
        CHECK(shmem_##N##_test_any_vector(v, NV, NULL, SHMEM_CMP_LT, cmp) == SIZE_MAX,           \
              #N " test_any_vector LT");                                                         \
        CHECK(shmem_##N##_test_some_vector(v, NV, idx, NULL, SHMEM_CMP_EQ, cmp2) == NV,          \
              #N " test_some_vector EQ");                                                        \
        size_t r = shmem_##N##_wait_until_any_vector(v, NV, status_even_out, SHMEM_CMP_LE, cmp2);\
        CHECK(r < NV && r % 2 == 1, #N " wait_until_any_vector masked gave %zu", r);             \
        CHECK(shmem_##N##_wait_until_some_vector(v, NV, idx, status_even_out, SHMEM_CMP_GE,     \
                                                 cmp2) == NV / 2, #N " some_vector masked");    \
        /* every comparison operator, on the values 10 .. 10+NV-1 */                             \
        CHECK(shmem_##N##_test_all(v, NV, NULL, SHMEM_CMP_GE, 10) == 1, #N " GE");               \
        CHECK(shmem_##N##_test_all(v, NV, NULL, SHMEM_CMP_GT, 9) == 1, #N " GT");                \
        CHECK(shmem_##N##_test_all(v, NV, NULL, SHMEM_CMP_GT, 10) == 0, #N " not GT");           \
        CHECK(shmem_##N##_test_all(v, NV, NULL, SHMEM_CMP_LE, 10 + NV - 1) == 1, #N " LE");      \
        CHECK(shmem_##N##_test_all(v, NV, NULL, SHMEM_CMP_LT, 10 + NV - 1) == 0, #N " not LT");  \
        CHECK(shmem_##N##_test_all(v, NV, NULL, SHMEM_CMP_NE, 9) == 1, #N " NE");                \
        CHECK(shmem_##N##_test_any(v, NV, NULL, SHMEM_CMP_EQ, 13) == 3, #N " EQ any");           \
        CHECK(shmem_##N##_test_all(v, NV, NULL, SHMEM_CMP_EQ, 10) == 0, #N " not EQ");           \
        shmem_barrier_all();                                                                     \
        shmem_free(v);                                                                           \
    }
SHMEM_SYNC_TYPES(DEF_TEST_)

#define RUN_TEST_(T, N) test_##N(me, npes);

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    SHMEM_SYNC_TYPES(RUN_TEST_)
    return check_finish();
}
