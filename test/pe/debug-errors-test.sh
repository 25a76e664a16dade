#!/bin/bash
# debug-errors-test.sh: under SHMEM_DEBUG, PEs that pass different arguments to a routine they
# must all call alike (allocation, collectives) get a message naming the PE, the call, the
# argument, both values, the other PE and the fix. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/debug_mistakes"
D=SHMEM_DEBUG=1
U="SHMEM_DEBUG=1 SSHMEM_LOCAL=ucx"
alloc_fix="with the same size, in the same order"
coll_fix="same collectives in the same order"
cases=(
  # name | environment | expected status (nz = any non-zero) | patterns the message must contain
  "none|$D|0|"
  "none|$U|0|"
  "malloc_size|$D|nz|: shmem_malloc: the size is |00 bytes on PE |(SHMEM_DEBUG compared the arguments with PE |$alloc_fix"
  "malloc_size|$U|nz|: shmem_malloc: the size is |00 bytes on PE |$alloc_fix"
  "align|$D|nz|: shmem_align: the alignment is |$alloc_fix"
  "malloc_order|$D|nz|at the point where PE |shmem_free|shmem_malloc|$alloc_fix"
  "bcast_root|$D|nz|: shmem_broadcast64: PE_root is |$coll_fix"
  "bcast_root|$U|nz|: shmem_broadcast64: PE_root is |$coll_fix"
  "reduce_count|$D|nz|: shmem_long_sum_reduce: the size (element count x element size) is |bytes on PE |$coll_fix"
  "to_all_count|$D|nz|: shmem_long_sum_to_all: the size (element count x element size) is |$coll_fix"
  "active_set|$D|nz|PE 1: shmem_barrier: the active set (PE_start, logPE_stride, PE_size) is (0, 0, 2) here but (0, 0, 3) on PE 0|$coll_fix"
  "other_call|$D|nz|: shmem_long_|_reduce at the point where PE |$coll_fix"
  "team|$D|nz|: shmem_broadcastmem: the team differs: PE |another team|$coll_fix"
  "team|$U|nz|: shmem_broadcastmem: the team differs: PE |another team|$coll_fix"
)
source "$(dirname "$0")/../error-cases.sh"
run_error_cases "$prog" 3
