/*
 * wait_typed.c: GENERATED from the type table (include/shmem_typetable.h): wait_until and
 * test for every point-to-point synchronization type. The variable is re-read (an acquire
 * load) on every poll; waits drive UCX progress and yield when oversubscribed (wait.h).
 */
#include <shmem.h>

#include "core/api_defs.h"
#include "core/error.h"
#include "core/profile.h"
#include "sync/wait.h"

SSHMEM_NORETURN SSHMEM_COLD static void bad_cmp(const char *call, int cmp)
{
    sshmem_fatal(call, "comparison %d is not one of SHMEM_CMP_EQ, NE, GT, GE, LT, LE", cmp);
}

#define SSHMEM_COMPARE_(a, cmp, b, call)                                                         \
    ((cmp) == SHMEM_CMP_EQ   ? (a) == (b)                                                        \
     : (cmp) == SHMEM_CMP_NE ? (a) != (b)                                                        \
     : (cmp) == SHMEM_CMP_GT ? (a) > (b)                                                         \
     : (cmp) == SHMEM_CMP_GE ? (a) >= (b)                                                        \
     : (cmp) == SHMEM_CMP_LT ? (a) < (b)                                                         \
     : (cmp) == SHMEM_CMP_LE ? (a) <= (b)                                                        \
                             : (bad_cmp(call, cmp), 0))

#define DEF_SYNC_(T, N)                                                                          \
    SSHMEM_DEFINE(void, shmem_##N##_wait_until, (T * ivar, int cmp, T cmp_value))                \
    {                                                                                            \
        uint64_t t0 = SSHMEM_PROFILE_START();                                                    \
        SSHMEM_WAIT_UNTIL_AT(SSHMEM_COMPARE_(__atomic_load_n(ivar, __ATOMIC_ACQUIRE), cmp,       \
                                             cmp_value, "shmem_" #N "_wait_until"),              \
                             "shmem_" #N "_wait_until", ivar);                                   \
        SSHMEM_PROFILE_STOP(WAIT, t0);                                                           \
    }                                                                                            \
    SSHMEM_DEFINE(int, shmem_##N##_test, (T * ivar, int cmp, T cmp_value))                       \
    {                                                                                            \
        uint64_t t0 = SSHMEM_PROFILE_START();                                                    \
        if (sshmem.ucx_in_use)                                                                   \
            sshmem_tx_progress();                                                                \
        int ok = SSHMEM_COMPARE_(__atomic_load_n(ivar, __ATOMIC_ACQUIRE), cmp, cmp_value,        \
                                 "shmem_" #N "_test");                                           \
        SSHMEM_PROFILE_STOP(WAIT, t0);                                                           \
        return ok;                                                                               \
    }                                                                                            \
    SSHMEM_DEFINE(void, shmem_##N##_wait, (T * ivar, T cmp_value))                               \
    {                                                                                            \
        uint64_t t0 = SSHMEM_PROFILE_START();                                                    \
        SSHMEM_WAIT_UNTIL_AT(__atomic_load_n(ivar, __ATOMIC_ACQUIRE) != cmp_value,               \
                             "shmem_" #N "_wait", ivar);                                         \
        SSHMEM_PROFILE_STOP(WAIT, t0);                                                           \
    }
SHMEM_SYNC_TYPES(DEF_SYNC_)

/* The untyped 1.3 names operate on long. */
SSHMEM_DEFINE(void, shmem_wait_until, (long *ivar, int cmp, long cmp_value))
{
    pshmem_long_wait_until(ivar, cmp, cmp_value);
}

SSHMEM_DEFINE(void, shmem_wait, (long *ivar, long cmp_value))
{
    pshmem_long_wait(ivar, cmp_value);
}
