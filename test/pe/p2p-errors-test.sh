#!/bin/bash
# p2p-errors-test.sh: mistakes with the point-to-point routines (signals, wait/test sets,
# locks, pe_quiet) end the job with a message naming the PE, the call and the fix. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/p2p_errors"
cases=(
  # name | environment | expected status (nz = any non-zero) | patterns the message must contain
  "bad_cmp||nz|PE 2: shmem_int_wait_until_all|cmp is 42|SHMEM_CMP_EQ"
  "bad_cmp_test||nz|PE 2: shmem_int_test_any|cmp is -1|SHMEM_CMP_LE"
  "signal_bad_cmp||nz|PE 2: shmem_signal_wait_until|cmp is 9|SHMEM_CMP_EQ"
  "bad_sig_op||nz|PE 2: shmem_long_put_signal|sig_op is 7|SHMEM_SIGNAL_SET"
  "signal_not_symmetric||nz|PE 2: shmem_long_put_signal|is not symmetric|"
  "null_indices||nz|PE 2: shmem_int_wait_until_some|indices is NULL|nelems size_t"
  "null_cmp_values||nz|PE 2: shmem_int_test_all_vector|cmp_values is NULL|one value per"
  "clear_unheld||nz|PE 2: shmem_clear_lock|does not hold the lock|after shmem_set_lock"
  "set_twice||nz|PE 2: shmem_set_lock|already holds|not recursive"
  "pe_quiet_bad_pe||nz|PE 2: shmem_pe_quiet|PE number 3 is out of range|"
  "lock_garbage||nz|PE 2: shmem_set_lock|which no lock routine wrote|must be 0 on every PE"
)
source "$(dirname "$0")/../error-cases.sh"
run_error_cases "$prog"
