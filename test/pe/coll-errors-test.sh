#!/bin/bash
# coll-errors-test.sh: mistakes with collectives and teams end the job with a message naming
# the PE, the call and the fix. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/coll_errors"
launcher="${OSHRUN:-oshrun}"
n=0
cases=(
  # name | env | patterns the message must contain (any PE may report first)
  "bad_set||: shmem_barrier: the active set PE_start=0, logPE_stride=0, PE_size=4|PE_start + (PE_size-1)|"
  "not_member||PE 2: shmem_barrier: this PE is not in the active set|only the PEs of the set|"
  "bad_root||: shmem_broadcast64: PE_root 3 is not a PE of the active set|0 to PE_size-1 = 2|"
  "null_psync||: shmem_barrier: pSync is NULL|SHMEM_SYNC_VALUE|"
  "not_symmetric||: shmem_long_sum_to_all: dest|is not symmetric|shmem_malloc"
  "null_pwrk||: shmem_long_sum_to_all: pWrk is NULL|SHMEM_REDUCE_MIN_WRKDATA_SIZE|"
  "uninit_psync|SHMEM_DEBUG=1|: shmem_long_max_to_all: pSync|holds no SHMEM_SYNC_VALUE|shmem_barrier_all"
  "bad_strides||: shmem_alltoalls64: strides dst=0 and sst=1|1 or more|"
  "team_invalid||: shmem_team_sync: team is SHMEM_TEAM_INVALID|not a member|"
  "destroy_world||: shmem_team_destroy: SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED cannot be destroyed||"
  "team_bad_root||: shmem_long_broadcast: PE_root -1 is not a PE of the team|0 to 2|"
)
echo "1..$(( ${#cases[@]} * 2 ))"
for c in "${cases[@]}"; do
    IFS='|' read -r name env p1 p2 p3 <<<"$c"
    log=$(mktemp)
    env $env timeout -k 2 30 "$launcher" -np 3 "$prog" "$name" >"$log" 2>&1
    rc=$?
    n=$((n + 1))
    if [ $rc -ne 0 ] && [ $rc -ne 124 ]; then
        echo "ok $n - $name $env: exit status $rc"
    else
        echo "not ok $n - $name $env: exit status $rc (expected a failure)"
    fi
    n=$((n + 1))
    missing=""
    for p in "$p1" "$p2" "$p3"; do
        [ -z "$p" ] || grep -qF -- "$p" "$log" || missing="$missing [$p]"
    done
    if [ -z "$missing" ]; then
        echo "ok $n - $name $env: message names the PE, the call and the fix"
    else
        echo "not ok $n - $name $env: message lacks$missing"
        sed 's/^/# /' "$log" | head -10
    fi
    rm -f "$log"
done
