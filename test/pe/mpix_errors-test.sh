#!/bin/bash
# mpix_errors-test.sh: each mistake with the shmemx layer gets a message naming the PE, the
# call and the fix; inside a collective it ends the job (non-zero status), elsewhere the call
# returns an error code and the program goes on. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/mpix_errors"
cases=(
  # name | environment | expected status (nz = any non-zero) | patterns the message must contain
  "overlap||nz|PE 0: shmemx_gatherv|receive regions of PE 0|overlap|displs"
  "count_mismatch||nz|PE 0: shmemx_gatherv|recvcounts[2] is 2 on this PE|PE 2 has sendcount = 3|must agree"
  "bad_root||nz|shmemx_reduce|root is 3|0 to 2"
  "in_place_not_root||nz|PE 1: shmemx_reduce|SHMEMX_IN_PLACE on team PE 1|not the root (0)|only the root"
  "op_type||nz|shmemx_allreduce|SHMEMX_MAXLOC is not defined on SHMEMX_DOUBLE|SHMEMX_DOUBLE_INT"
  "uncommitted_coll||nz|shmemx_allreduce|type is not committed|shmemx_type_commit"
  "team_invalid||nz|sshmem: PE |: shmemx_allgather: |team is SHMEM_TEAM_INVALID"
  "gatherv_not_symmetric||nz|shmemx_gatherv|dest (0x|is not symmetric|shmem_malloc"
  "absurd_count||nz|sshmem: PE |: shmemx_allgatherv: |recvcounts[2] is 18446744073709551614|cannot be real|negative number"
  "mismatch_large_recv||nz|PE 0: shmemx_gatherv|recvcounts[2] is 5000 on this PE|PE 2 has sendcount = 2|must agree"
  "mismatch_large_send||nz|PE 0: shmemx_gatherv|recvcounts[2] is 2 on this PE|PE 2 has sendcount = 5000|must agree"
  "mismatch_allgatherv||nz|PE 0: shmemx_allgatherv|recvcounts[1] is 5000 on this PE|PE 1 has sendcount = 2|must agree"
  "mismatch_large_both||nz|PE 0: shmemx_gatherv|recvcounts[2] is 5000 on this PE|PE 2 has sendcount = 4000|must agree"
  # over TCP invitations and headers are messages: the root reports what came, whether it
  # expected a small block, a large one of another size, or a small one
  "mismatch_large_recv|SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_gatherv|recvcounts[2] is 5000 on this PE|PE 2 has sendcount = 2|must agree"
  "mismatch_large_send|SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_gatherv|recvcounts[2] is 2 on this PE|PE 2 has sendcount = 5000|must agree"
  "mismatch_large_both|SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_gatherv|recvcounts[2] is 5000 on this PE|PE 2 has sendcount = 4000|must agree"
  "mismatch_allgatherv|SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_allgatherv|recvcounts[1] is 5000 on this PE|PE 1 has sendcount = 2|must agree"
  "alltoallv_mismatch_large_send|NPES=2 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_alltoallv|recvcounts[1] is 2 on this PE|PE 1 has sendcounts[0] = 5000|must agree"
  "alltoallv_mismatch_large_both|NPES=2 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_alltoallv|recvcounts[1] is 5000 on this PE|PE 1 has sendcounts[0] = 4000|must agree"
  # over TCP from 4 PEs small allgathers take Bruck's steps: every header is checked there
  "allgatherv_small_mismatch|NPES=4 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_allgatherv|recvcounts[1] is 1 on this PE|PE 1 has sendcount = 2|must agree"
  # (a PE whose layout differs finds a block missing, the others a count: whoever is first)
  "allgatherv_counts_differ|NPES=4 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|shmemx_allgatherv|recvcounts|must agree"
  # between nodes of several PEs they take the node-aware steps: the headers are checked alike
  "allgatherv_small_mismatch|NPES=4 SSHMEM_PES_PER_NODE=2|nz|PE 0: shmemx_allgatherv|recvcounts[1] is 1 on this PE|PE 1 has sendcount = 2|must agree"
  "allgatherv_small_mismatch|NPES=6 SSHMEM_PES_PER_NODE=3 UCX_TLS=tcp,self|nz|PE 0: shmemx_allgatherv|recvcounts[1] is 1 on this PE|PE 1 has sendcount = 2|must agree"
  "allgatherv_counts_differ|NPES=6 SSHMEM_PES_PER_NODE=2|nz|shmemx_allgatherv|recvcounts|must agree"
  # over TCP from 4 PEs alltoallv takes Bruck's steps, large blocks beside them: the headers
  # still travel in the steps, so a count that differs is reported, whatever the sizes
  "alltoallv_mismatch|NPES=4 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_alltoallv|recvcounts[1] is 2 on this PE|PE 1 has sendcounts[0] = 3|must agree"
  "alltoallv_mismatch_large_send|NPES=4 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_alltoallv|recvcounts[1] is 2 on this PE|PE 1 has sendcounts[0] = 5000|must agree"
  "alltoallv_mismatch_large_recv|NPES=4 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_alltoallv|recvcounts[1] is 5000 on this PE|PE 1 has sendcounts[0] = 2|must agree"
  "alltoallv_mismatch_large_both|NPES=4 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_alltoallv|recvcounts[1] is 5000 on this PE|PE 1 has sendcounts[0] = 4000|must agree"
  # Bruck's steps carry a small block's size alone: a size that is no whole number of the
  # receiver's elements means the sender passed another type
  "alltoallv_type_mismatch|NPES=4 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|shmemx_alltoallv|PE 1 sends this PE 6 bytes|every PE must pass the same type"
  # the same through UCX, where small blocks go by stamped put (post box or slot), and over TCP
  "count_mismatch|SSHMEM_LOCAL=ucx|nz|PE 0: shmemx_gatherv|recvcounts[2] is 2 on this PE|PE 2 has sendcount = 3|must agree"
  "mismatch_large_recv|SSHMEM_LOCAL=ucx|nz|PE 0: shmemx_gatherv|recvcounts[2] is 5000 on this PE|PE 2 has sendcount = 2|must agree"
  "mismatch_large_send|SSHMEM_LOCAL=ucx|nz|PE 0: shmemx_gatherv|recvcounts[2] is 2 on this PE|PE 2 has sendcount = 5000|must agree"
  "count_mismatch|SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_gatherv|recvcounts[2] is 2 on this PE|PE 2 has sendcount = 3|must agree"
  # gatherv up the tree (forced from 4 PEs): the root checks every count it carries (a large
  # block's too, which follows by invitation)
  "count_mismatch|NPES=8 SSHMEM_COLL_EXCHANGE=tree SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_gatherv|recvcounts[7] is 2 on this PE|PE 7 has sendcount = 3|must agree"
  "mismatch_large_send|NPES=5 SSHMEM_COLL_EXCHANGE=tree SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_gatherv|recvcounts[4] is 2 on this PE|PE 4 has sendcount = 5000|must agree"
  "mismatch_large_recv|NPES=7 SSHMEM_COLL_EXCHANGE=tree SSHMEM_LOCAL=ucx|nz|PE 0: shmemx_gatherv|recvcounts[6] is 5000 on this PE|PE 6 has sendcount = 2|must agree"
  "mismatch_large_both|NPES=8 SSHMEM_COLL_EXCHANGE=tree SSHMEM_LOCAL=ucx|nz|PE 0: shmemx_gatherv|recvcounts[7] is 5000 on this PE|PE 7 has sendcount = 4000|must agree"
  # over TCP the root's first child sends a large vector to reduce at once, with its size
  "reduce_count_mismatch|SSHMEM_LOCAL=ucx UCX_TLS=tcp,self|nz|PE 0: shmemx_reduce|team PE 1 passes 120000 bytes|this PE (team PE 0) 80000|same count and type"
  "in_place_gatherv_not_root||nz|PE 1: shmemx_gatherv|source is SHMEMX_IN_PLACE on a PE that is not the root (0)|only the root"
  "put_uncommitted||0|warning: PE 1: shmemx_put_type|type is not committed|shmemx_type_commit"
)
source "$(dirname "$0")/../error-cases.sh"
run_error_cases "$prog"
