#!/bin/sh
# summary.sh [test-suite.log]: the closing line of a test run, "N passed, N failed".
# Each TAP line counts: a PASS or a SKIP passes; FAIL, ERROR and XPASS fail.
log="${1:-test-suite.log}"
if [ ! -f "$log" ]; then
    echo "0 passed, 1 failed"
    echo "summary: $log not found: the test suite did not run (see the build output above)" >&2
    exit 1
fi
get() { sed -n "s/^# $1: *\([0-9]*\).*/\1/p" "$log" | head -n 1; }
pass=$(( $(get PASS) + $(get SKIP) + $(get XFAIL) ))
fail=$(( $(get FAIL) + $(get ERROR) + $(get XPASS) ))
total=$(get TOTAL)
if [ "$total" = 0 ] || [ -z "$total" ]; then
    echo "0 passed, 1 failed"
    echo "summary: no test ran" >&2
    exit 1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
