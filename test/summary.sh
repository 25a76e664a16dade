#!/bin/sh
# summary.sh LOG [MAKE_STATUS]: the closing line of a test run, "N passed, N failed, N skipped".
# Each TAP line counts once: PASS and XFAIL pass, FAIL, ERROR and XPASS fail, SKIP is apart.
# MAKE_STATUS is the exit status of "make check": when it is not 0 but the log shows no
# failure (a test program did not build, or make stopped before the tests), that counts as
# one failure, so a broken build never reads as a clean run. The Makefile removes LOG before
# the run, so a log of an earlier run is never read. The exit status is 0 only when nothing
# failed.
log="${1:-test-suite.log}"
make_status="${2:-0}"
if [ ! -f "$log" ]; then
    echo "summary: $log not found: the test suite did not run (see the build output above)" >&2
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi
get() { n=$(sed -n "s/^# $1: *\([0-9]*\).*/\1/p" "$log" | head -n 1); echo "${n:-0}"; }
pass=$(( $(get PASS) + $(get XFAIL) ))
skip=$(get SKIP)
fail=$(( $(get FAIL) + $(get ERROR) + $(get XPASS) ))
total=$(get TOTAL)
if [ "$total" -eq 0 ]; then
    echo "summary: no test ran" >&2
    fail=$((fail + 1))
elif [ "$make_status" -ne 0 ] && [ "$fail" -eq 0 ]; then
    echo "summary: make check failed (exit $make_status) though no test did: a test program" \
         "did not build or a test did not run (see the build output above)" >&2
    fail=1
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
