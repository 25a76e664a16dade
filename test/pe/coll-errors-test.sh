#!/bin/bash
# coll-errors-test.sh: mistakes with collectives and teams end the job with a message naming
# the PE, the call and the fix. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/coll_errors"
cases=(
  # name | environment | expected status (nz = any non-zero) | patterns the message must contain
  "bad_set||nz|: shmem_barrier: the active set PE_start=0, logPE_stride=0, PE_size=4|PE_start + (PE_size-1)|"
  "not_member||nz|PE 2: shmem_barrier: this PE is not in the active set|only the PEs of the set|"
  "bad_root||nz|: shmem_broadcast64: PE_root 3 is not a PE of the active set|0 to PE_size-1 = 2|"
  "null_psync||nz|: shmem_barrier: pSync is NULL|SHMEM_SYNC_VALUE|"
  "not_symmetric||nz|: shmem_long_sum_to_all: dest|is not symmetric|shmem_malloc"
  "null_pwrk||nz|: shmem_long_sum_to_all: pWrk is NULL|SHMEM_REDUCE_MIN_WRKDATA_SIZE|"
  "uninit_psync|SHMEM_DEBUG=1|nz|: shmem_long_max_to_all: pSync|holds no SHMEM_SYNC_VALUE|shmem_barrier_all"
  "bad_strides||nz|: shmem_alltoalls64: strides dst=0 and sst=1|1 or more|"
  "team_invalid||nz|: shmem_team_sync: team is SHMEM_TEAM_INVALID|not a member|"
  "destroy_world||nz|: shmem_team_destroy: SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED cannot be destroyed||"
  "team_bad_root||nz|: shmem_long_broadcast: PE_root -1 is not a PE of the team|0 to 2|"
)
source "$(dirname "$0")/../error-cases.sh"
run_error_cases "$prog"
