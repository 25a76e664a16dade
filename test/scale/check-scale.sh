#!/bin/bash
# check-scale.sh: how start-up, memory and messages grow with the job. Two tables:
#  1. test/scale/startup_reduce (start, one sum reduction checked on every PE, a barrier,
#     finalize) at each size: wall and CPU time with the growth factor per doubling (linear
#     start-up doubles the time per doubling, x2; n log n a little more; n^2 gives x4), and
#     the most private memory any PE holds right after shmem_init, with the bytes it grew by
#     per added PE (the per-PE tables; the target: at most 32), then what the reduction and
#     the barrier add (endpoints and entries of the peers met, about 2 log2(n) of them: a
#     constant step per doubling, not per PE);
#  2. test/scale/coll_messages under SSHMEM_LOCAL=ucx (every transfer a UCX message) at each
#     size: the most messages any PE sends per call of each collective at 8 bytes per PE,
#     counted by the library, beside the bound 2 log2(n) + 4 (a value above it is marked *).
# Every run is under a timeout and checks its values. Exit status 1 when a run fails, or a
# count is above the bound.
#
#   make check-scale                                   # 64 128 256 512 1024 PEs
#   make check-scale SCALE_SIZES="64 128 256"          # other sizes
#   OSHRUN=... SCALE_PROGRAM=... test/scale/check-scale.sh 64 128   # by hand
#
# Environment: OSHRUN, SCALE_PROGRAM, SCALE_MESSAGES_PROGRAM (required; without the last,
# no second table); SCALE_TIMEOUT seconds per run (600);
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
times_file=$(mktemp)
out_file=$(mktemp)
trap 'rm -f "$times_file" "$out_file"' EXIT

# The factor per doubling from (n0, t0) to (n1, t1), also when n1 is not 2 n0.
per_doubling() {
    awk -v t="$4" -v pt="$2" -v n="$3" -v pn="$1" \
        'BEGIN { printf "x%.2f", exp(log(t / pt) * log(2) / log(n / pn)) }'
}

status=0 prev_n="" prev_t="" prev_c="" first_n="" first_t="" first_c="" prev_m=""
printf '%8s %10s %8s %10s %8s %9s %9s %9s\n' PEs "wall s" "x per x2" "CPU s" "x per x2" \
    "init KiB" "B per PE" "+met KiB"
for n in "${sizes[@]}"; do
    # Wall and CPU seconds (user + system of oshrun and every PE): on a loaded machine the
    # CPU time is the steadier measure of the work done.
    TIMEFORMAT='%R %U %S'
    { time timeout -k 10 "$timeout_s" "$OSHRUN" -np "$n" "$SCALE_PROGRAM" >"$out_file" 2>&1; } \
        2>"$times_file"
    rc=$?
    read -r t user sys <"$times_file"
    c=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    if [ $rc -ne 0 ] || ! grep -qx "ok $n" "$out_file"; then
        [ $rc -eq 124 ] && why="timed out after ${timeout_s} s" || why="exit status $rc"
        printf '%8s %10.2f   FAILED (%s)\n' "$n" "$t" "$why"
        head -20 "$out_file" | sed 's/^/    /'
        status=1
        continue
    fi
    m=$(awk '$1 == "memory" { print $2 }' "$out_file")
    met=$(awk '$1 == "memory" { print $3 - $2 }' "$out_file")
    fw="" fc="" fm=""
    if [ -n "$prev_n" ]; then
        fw=$(per_doubling "$prev_n" "$prev_t" "$n" "$t")
        fc=$(per_doubling "$prev_n" "$prev_c" "$n" "$c")
        fm=$(awk -v m="$m" -v pm="$prev_m" -v n="$n" -v pn="$prev_n" \
            'BEGIN { printf "%.0f", (m - pm) * 1024 / (n - pn) }')
    fi
    printf '%8s %10.2f %8s %10.2f %8s %9s %9s %9s\n' "$n" "$t" "$fw" "$c" "$fc" "$m" "$fm" "$met"
    [ -n "$first_n" ] || { first_n=$n; first_t=$t; first_c=$c; }
    prev_n=$n prev_t=$t prev_c=$c prev_m=$m
done
if [ -n "$first_n" ] && [ "$prev_n" != "$first_n" ]; then
    # t ~ n^k: k = 1 is linear, k = 2 quadratic.
    awk -v t="$prev_t" -v ft="$first_t" -v c="$prev_c" -v fc="$first_c" -v n="$prev_n" \
        -v fn="$first_n" 'BEGIN { printf "growth from %d to %d PEs: wall ~ n^%.2f, CPU ~ n^%.2f\n",
                                  fn, n, log(t / ft) / log(n / fn), log(c / fc) / log(n / fn) }'
fi

# Table 2: messages per PE per call, one row per collective, one column per size.
[ -n "${SCALE_MESSAGES_PROGRAM:-}" ] || exit $status
names=(barrier broadcast reduce fcollect collect alltoall gatherv scatterv allgatherv alltoallv)
declare -A sent
ran=()
for n in "${sizes[@]}"; do
    SSHMEM_LOCAL=ucx timeout -k 10 "$timeout_s" "$OSHRUN" -np "$n" "$SCALE_MESSAGES_PROGRAM" \
        >"$out_file" 2>&1
    rc=$?
    if [ $rc -ne 0 ] || ! grep -qx "ok $n" "$out_file"; then
        echo "messages at $n PEs: FAILED (exit status $rc)"
        head -20 "$out_file" | sed 's/^/    /'
        status=1
        continue
    fi
    ran+=("$n")
    while read -r _ name count; do sent[$name,$n]=$count; done < <(grep '^messages ' "$out_file")
done
[ ${#ran[@]} -gt 0 ] || exit $status
echo
echo "messages per PE per call at 8 bytes per PE (SSHMEM_LOCAL=ucx; * above 2 log2(n) + 4)"
printf '%-11s' collective
for n in "${ran[@]}"; do printf '%9s' "$n PEs"; done
echo
printf '%-11s' bound
for n in "${ran[@]}"; do printf '%9s' "$(awk -v n="$n" 'BEGIN { printf "%d", 2 * int(log(n) / log(2) + 0.999) + 4 }')"; done
echo
for name in "${names[@]}"; do
    printf '%-11s' "$name"
    for n in "${ran[@]}"; do
        v=${sent[$name,$n]:-?}
        bound=$(awk -v n="$n" 'BEGIN { printf "%d", 2 * int(log(n) / log(2) + 0.999) + 4 }')
        mark=" "
        if [ "$v" != "?" ] && [ "$v" -gt "$bound" ]; then mark="*" status=1; fi
        printf '%8s%s' "$v" "$mark"
    done
    echo
done
exit $status
