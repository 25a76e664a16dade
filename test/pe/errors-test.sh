#!/bin/bash
# errors-test.sh: each mistake a user can make gets a message naming the PE, the call and the
# fix, and (where it is fatal) the job ends with a non-zero status. TAP output.
prog="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/errors"
cases=(
  # name | environment | expected status (nz = any non-zero) | patterns the message must contain
  "bad_pe||nz|PE 2: shmem_int_p|PE number 3 is out of range|0 to 2"
  "negative_pe||nz|PE 2: shmem_int_g|PE number -1 is out of range"
  "not_symmetric||nz|PE 2: shmem_int_put|is not symmetric|shmem_malloc"
  "past_heap||nz|PE 2: shmem_putmem|past the end of the symmetric heap|SHMEM_SYMMETRIC_SIZE"
  "atomic_not_symmetric||nz|PE 2: shmem_long_atomic_inc|is not symmetric"
  "free_bad||nz|shmem_free|was not returned by shmem_malloc"
  "exhaust||0|shmem_malloc|cannot allocate 1 TiB|SHMEM_SYMMETRIC_SIZE"
  "uninit||nz|shmem_int_p called before shmem_init|Call shmem_init() first"
  "none|SHMEM_SYMMETRIC_SIZE=12Q|nz|: shmem_init: environment variable|SHMEM_SYMMETRIC_SIZE='12Q' is not valid|suffix K, M, G"
  "none|SSHMEM_LOCAL=sideways|nz|SSHMEM_LOCAL='sideways' is not valid|direct"
  "none|SHMEM_INFO=maybe|nz|SHMEM_INFO='maybe' is not valid|1 or 0"
  "none|SHMEM_SYMMETRIC_SIZE=1T|nz@2|: shmem_init: SHMEM_SYMMETRIC_SIZE asks for a symmetric heap of 1 TiB per PE|of memory and swap in all|Lower SHMEM_SYMMETRIC_SIZE"
  "after_finalize_malloc||nz|PE 2: shmem_malloc called after shmem_finalize|move the call before shmem_finalize"
)
# The mistakes that each path (direct load/store, UCX, UCX over tcp) must catch by itself.
for path in SSHMEM_LOCAL=direct SSHMEM_LOCAL=ucx "SSHMEM_LOCAL=ucx UCX_TLS=tcp,self"; do
    cases+=(
      "put_null|$path|nz|PE 2: shmem_putmem: the source is NULL (8 bytes to put to PE 0)|Pass the address of a local buffer"
      "get_null|$path|nz|PE 2: shmem_getmem: the destination is NULL (8 bytes to get from PE 0)"
      "misaligned_amo|$path|nz|PE 2: shmem_long_atomic_add: address 0x|is not aligned to 8 bytes"
      "after_finalize_put|$path|nz|PE 2: shmem_putmem called after shmem_finalize"
      "after_finalize_get|$path|nz|PE 2: shmem_getmem called after shmem_finalize"
      "after_finalize_amo|$path|nz|PE 2: shmem_long_atomic_add called after shmem_finalize"
      "after_finalize_global|$path|nz|PE 2: shmem_long_p called after shmem_finalize"
    )
done
source "$(dirname "$0")/../error-cases.sh"
run_error_cases "$prog"
