#!/bin/bash
# concurrency-test.sh: the tests that check what a job leaves behind (crash-test.sh,
# fault-test.sh, the launcher's tests) give the same results while other sshmem jobs run on
# the machine: two copies of them run at once, beside a stream of other jobs that start, crash
# (SIGKILL to a PE: their oshrun cleans up a moment later) and end all the time. Every check
# of every copy must pass, as it does alone. Each copy runs fault-test.sh with one try per
# point (SSHMEM_FAULT_REPEAT=1) to keep the run short; the launcher's speed measure (best of 5
# launches under 0.5 s) measures the machine, not what a job leaves, and is left out here
# (SSHMEM_TEST_NO_SPEED=1: it runs alone in launcher-test.sh). Likewise the checks that a job
# ends "within N s" of a failure: on 2 cores running 8 job streams at once, start-up and
# shut-down stretch by seconds; such a check failing here is listed (# timing: ...) but not
# counted. Everything else (exit statuses, messages, no process and no directory of the job
# left) must pass. TAP: one line per test and copy, and one for the other jobs having really
# run meanwhile.
here="$(cd "$(dirname "$0")" && pwd)"
src="${SSHMEM_TEST_SRCDIR:-$here/../..}"
build="${SSHMEM_TEST_BUILDDIR:-.}"
launcher="${OSHRUN:-oshrun}"
tests=("$src/test/pe/crash-test.sh" "$src/test/pe/fault-test.sh" "$src/test/launcher/launcher-test.sh")
work=$(mktemp -d)
stop="$work/stop"
cleanup() {
    touch "$stop"
    [ -n "$others" ] && kill $others 2>/dev/null
    wait 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
echo "1..$(( ${#tests[@]} * 2 + 1 ))"

# The other jobs: a loop of clean runs, and a loop of runs that lose a PE to SIGKILL.
other_jobs() {
    local kind="$1" count=0
    while [ ! -e "$stop" ]; do
        if [ "$kind" = clean ]; then
            timeout -k 2 30 "$launcher" -np 2 "$build/examples/hello" >/dev/null 2>&1
        else
            timeout -k 2 30 "$launcher" -np 2 "$build/test/pe/crash" kill >/dev/null 2>&1
        fi
        count=$((count + 1))
        echo "$count" >"$work/$kind.count"
        sleep 0.2 # other jobs all the time, but not so many that 2 cores only queue them
    done
}
other_jobs clean &
others="$!"
other_jobs crash &
others="$others $!"

# Two copies of every test at once (SSHMEM_FAULT_REPEAT=1 for the fault test). A copy's limit
# only catches a hang: beside everything else here a copy takes several times as long as
# alone. It stays below run-test.sh's limit for the whole script (SSHMEM_TEST_SCRIPT_TIMEOUT),
# so that a hung copy is reported here instead of the whole script being ended.
copy_limit=$(( ${SSHMEM_TEST_SCRIPT_TIMEOUT:-1800} - 120 ))
[ "$copy_limit" -ge 60 ] || copy_limit=60
pids=()
for copy in 1 2; do
    for t in "${tests[@]}"; do
        name=$(basename "$t")
        SSHMEM_FAULT_REPEAT=1 SSHMEM_TEST_NO_SPEED=1 timeout -k 5 "$copy_limit" bash "$t" \
            >"$work/$name.$copy" 2>&1 &
        pids+=("$!")
    done
done
rcs=()
for p in "${pids[@]}"; do
    wait "$p"
    rcs+=("$?")
done
touch "$stop"
wait $others 2>/dev/null
others=""

n=0 i=0
for copy in 1 2; do
    for t in "${tests[@]}"; do
        name=$(basename "$t") log="$work/$name.$copy" rc=${rcs[$i]}
        i=$((i + 1))
        plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$log" | head -1)
        good=$(grep -c '^ok ' "$log")
        timing=$(grep '^not ok ' "$log" | grep -cE 'within [0-9.]+ ?s')
        bad=$(( $(grep -c '^not ok ' "$log") - timing ))
        slow=""
        [ "$timing" -gt 0 ] && slow=", $timing timing check(s) slowed by the load"
        n=$((n + 1))
        if [ "$bad" -eq 0 ] && [ -n "$plan" ] && [ $((good + timing)) -eq "$plan" ]; then
            echo "ok $n - copy $copy of $name beside other jobs: $good of $plan checks pass$slow"
            grep '^not ok ' "$log" | sed 's/^/# timing: /'
        else
            echo "not ok $n - copy $copy of $name beside other jobs: $good of ${plan:-?} pass," \
                 "$bad fail (exit $rc)"
            grep -A3 '^not ok ' "$log" | sed 's/^/# /' | head -30
        fi
    done
done
clean=$(cat "$work/clean.count" 2>/dev/null || echo 0)
crashed=$(cat "$work/crash.count" 2>/dev/null || echo 0)
n=$((n + 1))
if [ "$clean" -gt 0 ] && [ "$crashed" -gt 0 ]; then
    echo "ok $n - other jobs ran meanwhile: $clean clean, $crashed losing a PE"
else
    echo "not ok $n - other jobs ran meanwhile: $clean clean, $crashed losing a PE"
fi
