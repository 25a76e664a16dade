#!/bin/bash
# mpix_errors-test.sh: each mistake with the shmemx layer gets a message naming the PE, the
# call and the fix; inside a collective it ends the job (non-zero status), elsewhere the call
# returns an error code and the program goes on. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/mpix_errors"
launcher="${OSHRUN:-oshrun}"
n=0
cases=(
  # name | expected status (nz = any non-zero) | patterns the message must contain
  "overlap|nz|PE 0: shmemx_gatherv|receive regions of PE 0|overlap|displs"
  "count_mismatch|nz|PE 2: shmemx_gatherv|sendcount is 3 on this PE|recvcounts[2] = 2|must agree"
  "bad_root|nz|shmemx_reduce|root is 3|0 to 2"
  "op_type|nz|shmemx_allreduce|SHMEMX_MAXLOC is not defined on SHMEMX_DOUBLE|SHMEMX_DOUBLE_INT"
  "uncommitted_coll|nz|shmemx_allreduce|type is not committed|shmemx_type_commit"
  "team_invalid|nz|sshmem: PE |: shmemx_allgather: |team is SHMEM_TEAM_INVALID"
  "gatherv_not_symmetric|nz|shmemx_gatherv|dest (0x|is not symmetric|shmem_malloc"
  "put_uncommitted|0|warning: PE 1: shmemx_put_type|type is not committed|shmemx_type_commit"
)
echo "1..$(( ${#cases[@]} * 2 ))"
for c in "${cases[@]}"; do
    IFS='|' read -r name want p1 p2 p3 p4 <<<"$c"
    log=$(mktemp)
    timeout -k 2 30 "$launcher" -np 3 "$prog" "$name" >"$log" 2>&1
    rc=$?
    n=$((n + 1))
    if { [ "$want" = nz ] && [ $rc -ne 0 ] && [ $rc -ne 124 ]; } || [ "$rc" = "$want" ]; then
        echo "ok $n - $name: exit status $rc"
    else
        echo "not ok $n - $name: exit status $rc (expected $want)"
    fi
    n=$((n + 1))
    missing=""
    for p in "$p1" "$p2" "$p3" "$p4"; do
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
