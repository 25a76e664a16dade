/*
 * cxx_header.cc: shmem.h compiles as C++ (extern "C" linkage, no C-only constructs) and the
 * typed routines work from a C++ program; so do the profiling headers and the mpp/ ones.
 */
#include "check.h"
#include <mpp/shmem.h>
#include <mpp/shmemx.h>
#include <pshmem.h>
#include <pshmemx.h>

static long lock;

int main()
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long *data = static_cast<long *>(shmem_calloc(4, sizeof(long)));
    uint64_t *sig = static_cast<uint64_t *>(shmem_calloc(1, sizeof(uint64_t)));
    double *d = static_cast<double *>(shmem_calloc(1, sizeof(double)));
    shmem_barrier_all();

    long src[4] = {me, me + 1, me + 2, me + 3};
    shmem_ctx_long_put_signal(SHMEM_CTX_DEFAULT, data, src, 4, sig, 1, SHMEM_SIGNAL_ADD, right);
    shmem_signal_wait_until(sig, SHMEM_CMP_GE, 1);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_LONG(data[i], left + i, "put_signal data");
    size_t idx[4];
    CHECK(shmem_long_test_some(data, 4, idx, NULL, SHMEM_CMP_GE, left + 2) == 2, "test_some");
    shmem_barrier_all(); /* checked before anyone adds to data[0] below */
    shmem_double_atomic_set(d, 0.5 * me, right);
    shmem_barrier_all();
    CHECK(shmem_double_atomic_fetch(d, me) == 0.5 * left, "double atomic set/fetch");
    shmem_set_lock(&lock);
    shmem_long_atomic_add(&data[0], 100, 0);
    shmem_clear_lock(&lock);
    shmem_barrier_all();
    if (me == 0)
        CHECK_EQ_LONG(data[0], left + 100L * npes, "atomic adds under the lock");
    shmem_free(data);
    shmem_free(sig);
    shmem_free(d);
    return check_finish();
}
