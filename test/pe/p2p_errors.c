/*
 * p2p_errors.c: the program behind test/pe/p2p-errors-test.sh. The last PE makes one mistake
 * with a point-to-point routine (signals, wait/test sets, locks, pe_quiet), named by argv[1];
 * the script checks that the job ends with a message naming the PE, the call and the fix.
 */
#include "check.h"

static long lock;

static void mistake(const char *what, int npes, int *iv, uint64_t *sig, long *data)
{
    uint64_t on_stack = 0;
    if (!strcmp(what, "bad_cmp"))
        shmem_int_wait_until_all(iv, 2, NULL, 42, 0);
    else if (!strcmp(what, "bad_cmp_test"))
        shmem_int_test_any(iv, 2, NULL, -1, 0);
    else if (!strcmp(what, "signal_bad_cmp"))
        shmem_signal_wait_until(sig, 9, 0);
    else if (!strcmp(what, "bad_sig_op"))
        shmem_long_put_signal(data, data, 1, sig, 1, 7, 0);
    else if (!strcmp(what, "signal_not_symmetric"))
        shmem_long_put_signal(data, data, 1, &on_stack, 1, SHMEM_SIGNAL_SET, 0);
    else if (!strcmp(what, "null_indices"))
        shmem_int_wait_until_some(iv, 2, NULL, NULL, SHMEM_CMP_EQ, 0);
    else if (!strcmp(what, "null_cmp_values"))
        shmem_int_test_all_vector(iv, 2, NULL, SHMEM_CMP_EQ, NULL);
    else if (!strcmp(what, "clear_unheld"))
        shmem_clear_lock(&lock);
    else if (!strcmp(what, "set_twice")) {
        shmem_set_lock(&lock);
        shmem_set_lock(&lock);
    } else if (!strcmp(what, "pe_quiet_bad_pe")) {
        int pes[2] = {0, npes};
        shmem_pe_quiet(pes, 2);
    } else if (!strcmp(what, "lock_garbage"))
        shmem_set_lock(&lock);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int *iv = shmem_calloc(2, sizeof *iv);
    uint64_t *sig = shmem_calloc(1, sizeof *sig);
    long *data = shmem_calloc(1, sizeof *data);
    if (!strcmp(what, "lock_garbage"))
        lock = 0x123456789L; /* not 0 before first use */
    shmem_barrier_all();
    if (me == npes - 1)
        mistake(what, npes, iv, sig, data);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
