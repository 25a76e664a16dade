/*
 * check.h: value checks for the multi-PE tests. A failed CHECK prints the PE, the place and
 * both values, and counts; check_finish() ends the test with a status that oshrun passes on.
 */
#ifndef SSHMEM_TEST_CHECK_H
#define SSHMEM_TEST_CHECK_H
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

#define CHECK(cond, ...)                                                                         \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            if (check_failures++ < 20) {                                                         \
                fprintf(stderr, "PE %d: %s:%d: check failed: %s: ", shmem_my_pe(), __FILE__,    \
                        __LINE__, #cond);                                                        \
                fprintf(stderr, __VA_ARGS__);                                                    \
                fputc('\n', stderr);                                                             \
            }                                                                                    \
        }                                                                                        \
    } while (0)

#define CHECK_EQ_LONG(got, want, what)                                                           \
    CHECK((long long)(got) == (long long)(want), "%s: got %lld, expected %lld", what,            \
          (long long)(got), (long long)(want))

/* True when the run is on UCX over tcp (every remote operation needs the target's help). */
static inline int on_tcp(void)
{
    const char *t = getenv("UCX_TLS");
    const char *l = getenv("SSHMEM_LOCAL");
    return t && strstr(t, "tcp") && l && !strcmp(l, "ucx");
}

/* shmem_init, and whether the job has at most max_pes PEs; if not, the test does not apply:
 * it finalizes and main returns CHECK_SKIP, which the harness counts as a skip. */
#define CHECK_SKIP 77
/* Whether checks of how fast something went apply: not under the weak-ordering mode (oshrun
 * --weak), which delivers late on purpose, nor with SSHMEM_TEST_NO_SPEED set (the runs under
 * valgrind, which are many times slower, and the suite's runs beside other jobs). */
static inline int speed_checked(void)
{
    const char *w = getenv("SSHMEM_WEAK"), *no = getenv("SSHMEM_TEST_NO_SPEED");
    return !(w && *w && strcmp(w, "0") != 0) && !(no && *no);
}

static inline int check_start(int max_pes)
{
    shmem_init();
    if (shmem_n_pes() <= max_pes)
        return 1;
    shmem_finalize();
    return 0;
}

static inline int check_finish(void)
{
    shmem_barrier_all();
    shmem_finalize();
    return check_failures ? 1 : 0;
}

#endif
