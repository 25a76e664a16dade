/*
 * header_c99.c (compiled with -std=c99 -pedantic-errors): shmem.h is valid C99 (the C11
 * generic macros stay out of the way) and the typed routines work from a C99 program; the
 * profiling headers and the mpp/ ones are valid C99 too.
 */
#include "check.h"
#include <mpp/shmem.h>
#include <mpp/shmemx.h>
#include <pshmem.h>
#include <pshmemx.h>

static long lock;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long *data = shmem_calloc(4, sizeof *data);
    uint64_t *sig = shmem_calloc(1, sizeof *sig);
    int *flags = shmem_calloc(2, sizeof *flags);
    shmem_barrier_all();

    long src[4] = {me, me + 1, me + 2, me + 3};
    shmem_long_put_signal(data, src, 4, sig, 1, SHMEM_SIGNAL_SET, right);
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_LONG(data[i], left + i, "put_signal data");
    shmem_barrier_all(); /* checked before anyone adds to data[0] below */
    shmem_int_atomic_inc(&flags[0], right);
    shmem_int_p(&flags[1], 1, right);
    shmem_int_wait_until_all(flags, 2, NULL, SHMEM_CMP_EQ, 1);
    shmem_set_lock(&lock);
    shmem_long_atomic_add(&data[0], 100, 0);
    shmem_clear_lock(&lock);
    shmem_barrier_all();
    if (me == 0)
        CHECK_EQ_LONG(data[0], left + 100L * npes, "atomic adds under the lock");
    shmem_free(data);
    shmem_free(sig);
    shmem_free(flags);
    return check_finish();
}
