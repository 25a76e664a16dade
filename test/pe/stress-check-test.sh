#!/bin/bash
# stress-check-test.sh: the checks of test/pe/stress see a mistake. Each case makes the last PE
# do one thing wrong (stress --inject=...); the job must fail and say what, where and the seed.
. "$(dirname "$0")/../error-cases.sh"
cases=(
    "--inject=slot||1|stress: FAIL|put data in the source's slots|expected|found|(seed "
    "--inject=counter||1|stress: FAIL|atomic counter (sum of every PE's increments)|(seed "
    "--inject=ticket||1|stress: FAIL|ticket handed out exactly once|expected 0x1, found 0x2"
)
run_error_cases "${SSHMEM_TEST_BUILDDIR:-.}/test/pe/stress" 3
