#!/bin/bash
# check-scale.sh: how start-up grows with the job. Runs test/scale/startup_reduce (start, one
# sum reduction checked on every PE, a barrier, finalize) at each size, every run under a
# timeout, and prints the wall time per size and the growth factor per doubling. Linear
# start-up doubles the time per doubling (x2); n log n a little more; n^2 gives x4.
#
#   make check-scale                                   # 64 128 256 512 1024 PEs
#   make check-scale SCALE_SIZES="64 128 256"          # other sizes
#   OSHRUN=... SCALE_PROGRAM=... test/scale/check-scale.sh 64 128   # by hand
#
# Environment: OSHRUN, SCALE_PROGRAM (required); SCALE_TIMEOUT seconds per run (600);
# SHMEM_SYMMETRIC_SIZE (4M: 1,024 PEs of the default 256M would not fit in memory).
# Exit status 1 when a run fails, times out or prints a wrong sum. Not part of make check:
# it takes minutes and runs far more PEs than the machine has cores.
set -u
: "${OSHRUN:?set OSHRUN to the oshrun to use}"
: "${SCALE_PROGRAM:?set SCALE_PROGRAM to the built test/scale/startup_reduce}"
timeout_s=${SCALE_TIMEOUT:-600}
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-4M}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64 128 256 512 1024)

status=0 prev_n="" prev_t="" first_n="" first_t=""
printf '%8s %10s %12s\n' PEs "seconds" "x per x2 PEs"
for n in "${sizes[@]}"; do
    start=$(date +%s.%N)
    out=$(timeout -k 10 "$timeout_s" "$OSHRUN" -np "$n" "$SCALE_PROGRAM" 2>&1)
    rc=$?
    t=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    if [ $rc -ne 0 ] || ! grep -qx "ok $n" <<<"$out"; then
        [ $rc -eq 124 ] && why="timed out after ${timeout_s} s" || why="exit status $rc"
        printf '%8s %10.2f   FAILED (%s)\n' "$n" "$t" "$why"
        head -20 <<<"$out" | sed 's/^/    /'
        status=1
        continue
    fi
    factor=""
    if [ -n "$prev_n" ]; then
        # The factor per doubling, also when consecutive sizes are not doublings.
        factor=$(awk -v t="$t" -v pt="$prev_t" -v n="$n" -v pn="$prev_n" \
                     'BEGIN { printf "%.2f", exp(log(t / pt) * log(2) / log(n / pn)) }')
    fi
    printf '%8s %10.2f %12s\n' "$n" "$t" "${factor:+x$factor}"
    [ -n "$first_n" ] || { first_n=$n; first_t=$t; }
    prev_n=$n prev_t=$t
done
if [ -n "$first_n" ] && [ "$prev_n" != "$first_n" ]; then
    # t ~ n^k: k = 1 is linear, k = 2 quadratic.
    awk -v t="$prev_t" -v ft="$first_t" -v n="$prev_n" -v fn="$first_n" \
        'BEGIN { printf "growth from %d to %d PEs: time ~ n^%.2f\n", fn, n, log(t / ft) / log(n / fn) }'
fi
exit $status
