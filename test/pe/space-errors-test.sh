#!/bin/bash
# space-errors-test.sh: one past a limit of the library's internal space (split teams,
# held locks, a split team larger than the pool's slots hold), and the settings out of range: the message names the PE, the call, the
# limit and the variable to raise; SHMEM_INFO=1 prints the job's internal space. Uses the test/pe/space_errors program. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/space_errors"
cases=(
  # name | environment | expected status (nz = any non-zero) | patterns the message must contain
  "teams_over|SSHMEM_TEAMS_MAX=3|0|PE 0: split 4 failed|PE 2: split 4 failed|sshmem: warning: PE 0: shmem_team_split_strided: no team can be created|the most split teams at once, 3 (SSHMEM_TEAMS_MAX=3|raise SSHMEM_TEAMS_MAX (at most 1024"
  "teams_over||0|PE 1: split 33 failed|PE 0: shmem_team_split_strided|(SSHMEM_TEAMS_MAX=32|raise SSHMEM_TEAMS_MAX"
  "teams_over|NPES=160 SSHMEM_TEAMS_MAX=1024|0|PE 0: split 1 failed|PE 159: split 1 failed|PE 0: shmem_team_split_strided: a team of 160 members is larger than a split team may be with SSHMEM_TEAMS_MAX=1024 in a job of 160 PEs (128)|set SSHMEM_TEAMS_MAX to fewer"
  "locks_over|SSHMEM_LOCKS_MAX=4|nz|PE 2: shmem_set_lock: this PE already holds or waits for 4 locks|(SSHMEM_LOCKS_MAX=4)|raise SSHMEM_LOCKS_MAX (at most 65535"
  "locks_over||nz|PE 2: shmem_set_lock|256 locks|raise SSHMEM_LOCKS_MAX"
  "teams_over|SSHMEM_TEAMS_MAX=0|nz|sshmem: PE |: shmem_init: SSHMEM_TEAMS_MAX=0 is out of range: set it from 1 to 1024"
  "teams_over|SSHMEM_TEAMS_MAX=1025|nz|shmem_init: SSHMEM_TEAMS_MAX=1025 is out of range|from 1 to 1024"
  "locks_over|SSHMEM_LOCKS_MAX=70000|nz|shmem_init: SSHMEM_LOCKS_MAX=70000 is out of range: set it from 1 to 65535"
  "info|SHMEM_INFO=1 SSHMEM_TEAMS_MAX=1 SSHMEM_LOCKS_MAX=1|0|internal symmetric space per PE, on top of SHMEM_SYMMETRIC_SIZE: 8.1 MiB|split-team pool 81.9 KiB, lock queue nodes 64 B|SSHMEM_TEAMS_MAX       1"
)
source "$(dirname "$0")/../error-cases.sh"
run_error_cases "$prog"
