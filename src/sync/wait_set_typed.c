/*
 * wait_set_typed.c: GENERATED from the type table (include/shmem_typetable.h): the wait and
 * test routines on sets of variables, for every point-to-point synchronization type. Each
 * type only says how to read and compare one element; the engine is wait_set.c.
 */
#include <shmem.h>

#include "core/api_defs.h"
#include "sync/wait_set.h"

/* The set of one call: the compare value(s) are read through `values`. */
#define SET_(IVARS, NELEMS, STATUS, CMP, VALUES, VECTOR, SAT, CALL)                             \
    ((sshmem_wait_set_t){.ivars = (IVARS), .nelems = (NELEMS), .status = (STATUS),               \
                         .cmp = (CMP), .values = (VALUES), .vector = (VECTOR),                   \
                         .satisfied = (SAT), .call = (CALL)})

/* For one type N: element i against its value, then the twelve routines. */
#define DEF_WAIT_SET_(T, N)                                                                      \
    static int satisfied_##N(const sshmem_wait_set_t *ws, size_t i)                              \
    {                                                                                            \
        T seen = __atomic_load_n((T *)ws->ivars + i, __ATOMIC_ACQUIRE);                          \
        T want = ((const T *)ws->values)[ws->vector ? i : 0];                                    \
        return SSHMEM_COMPARE(seen, ws->cmp, want);                                              \
    }                                                                                            \
    DEF_FORMS_(T, N, , T cmp_value, &cmp_value, 0)                                               \
    DEF_FORMS_(T, N, _vector, const T *cmp_values, cmp_values, 1)

/* The six routines of one form: scalar compare value (SUFFIX empty) or vector. */
#define DEF_FORMS_(T, N, SUFFIX, VALUE_PARAM, VALUES, VECTOR)                                    \
    SSHMEM_DEFINE(void, shmem_##N##_wait_until_all##SUFFIX,                                      \
                  (T * ivars, size_t nelems, const int *status, int cmp, VALUE_PARAM))           \
    {                                                                                            \
        sshmem_wait_set_t ws = SET_(ivars, nelems, status, cmp, VALUES, VECTOR, satisfied_##N,   \
                                    "shmem_" #N "_wait_until_all" #SUFFIX);                      \
        sshmem_wait_set_all(&ws);                                                                \
    }                                                                                            \
    SSHMEM_DEFINE(size_t, shmem_##N##_wait_until_any##SUFFIX,                                    \
                  (T * ivars, size_t nelems, const int *status, int cmp, VALUE_PARAM))           \
    {                                                                                            \
        sshmem_wait_set_t ws = SET_(ivars, nelems, status, cmp, VALUES, VECTOR, satisfied_##N,   \
                                    "shmem_" #N "_wait_until_any" #SUFFIX);                      \
        return sshmem_wait_set_any(&ws);                                                         \
    }                                                                                            \
    SSHMEM_DEFINE(size_t, shmem_##N##_wait_until_some##SUFFIX,                                   \
                  (T * ivars, size_t nelems, size_t * indices, const int *status, int cmp,       \
                   VALUE_PARAM))                                                                 \
    {                                                                                            \
        sshmem_wait_set_t ws = SET_(ivars, nelems, status, cmp, VALUES, VECTOR, satisfied_##N,   \
                                    "shmem_" #N "_wait_until_some" #SUFFIX);                     \
        return sshmem_wait_set_some(&ws, indices);                                               \
    }                                                                                            \
    SSHMEM_DEFINE(int, shmem_##N##_test_all##SUFFIX,                                             \
                  (T * ivars, size_t nelems, const int *status, int cmp, VALUE_PARAM))           \
    {                                                                                            \
        sshmem_wait_set_t ws = SET_(ivars, nelems, status, cmp, VALUES, VECTOR, satisfied_##N,   \
                                    "shmem_" #N "_test_all" #SUFFIX);                            \
        return sshmem_test_set_all(&ws);                                                         \
    }                                                                                            \
    SSHMEM_DEFINE(size_t, shmem_##N##_test_any##SUFFIX,                                          \
                  (T * ivars, size_t nelems, const int *status, int cmp, VALUE_PARAM))           \
    {                                                                                            \
        sshmem_wait_set_t ws = SET_(ivars, nelems, status, cmp, VALUES, VECTOR, satisfied_##N,   \
                                    "shmem_" #N "_test_any" #SUFFIX);                            \
        return sshmem_test_set_any(&ws);                                                         \
    }                                                                                            \
    SSHMEM_DEFINE(size_t, shmem_##N##_test_some##SUFFIX,                                         \
                  (T * ivars, size_t nelems, size_t * indices, const int *status, int cmp,       \
                   VALUE_PARAM))                                                                 \
    {                                                                                            \
        sshmem_wait_set_t ws = SET_(ivars, nelems, status, cmp, VALUES, VECTOR, satisfied_##N,   \
                                    "shmem_" #N "_test_some" #SUFFIX);                           \
        return sshmem_test_set_some(&ws, indices);                                               \
    }

SHMEM_SYNC_TYPES(DEF_WAIT_SET_)
