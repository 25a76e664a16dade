#!/bin/bash
# p2p-errors-test.sh: mistakes with the point-to-point routines (signals, wait/test sets,
# locks, pe_quiet) end the job with a message naming the PE, the call and the fix. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/p2p_errors"
launcher="${OSHRUN:-oshrun}"
n=0
cases=(
  # name | patterns the message must contain
  "bad_cmp|PE 2: shmem_int_wait_until_all|cmp is 42|SHMEM_CMP_EQ"
  "bad_cmp_test|PE 2: shmem_int_test_any|cmp is -1|SHMEM_CMP_LE"
  "signal_bad_cmp|PE 2: shmem_signal_wait_until|cmp is 9|SHMEM_CMP_EQ"
  "bad_sig_op|PE 2: shmem_long_put_signal|sig_op is 7|SHMEM_SIGNAL_SET"
  "signal_not_symmetric|PE 2: shmem_long_put_signal|is not symmetric|"
  "null_indices|PE 2: shmem_int_wait_until_some|indices is NULL|nelems size_t"
  "null_cmp_values|PE 2: shmem_int_test_all_vector|cmp_values is NULL|one value per"
  "clear_unheld|PE 2: shmem_clear_lock|does not hold the lock|after shmem_set_lock"
  "set_twice|PE 2: shmem_set_lock|already holds|not recursive"
  "pe_quiet_bad_pe|PE 2: shmem_pe_quiet|PE number 3 is out of range|"
  "lock_garbage|PE 2: shmem_set_lock|which no lock routine wrote|must be 0 on every PE"
)
echo "1..$(( ${#cases[@]} * 2 ))"
for c in "${cases[@]}"; do
    IFS='|' read -r name p1 p2 p3 <<<"$c"
    log=$(mktemp)
    timeout -k 2 30 "$launcher" -np 3 "$prog" "$name" >"$log" 2>&1
    rc=$?
    n=$((n + 1))
    if [ $rc -ne 0 ] && [ $rc -ne 124 ]; then
        echo "ok $n - $name: exit status $rc"
    else
        echo "not ok $n - $name: exit status $rc (expected a failure, not a hang)"
    fi
    n=$((n + 1))
    missing=""
    for p in "$p1" "$p2" "$p3"; do
        [ -z "$p" ] || grep -qF -- "$p" "$log" || missing="$missing [$p]"
    done
    if [ -z "$missing" ]; then
        echo "ok $n - $name: message names the PE, the call and the fix"
    else
        echo "not ok $n - $name: message lacks$missing"
        sed 's/^/# /' "$log" | head -10
    fi
    rm -f "$log"
done
