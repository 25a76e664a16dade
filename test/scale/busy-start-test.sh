#!/bin/bash
# busy-start-test.sh: 1,024 PEs start, reduce, finalize and exit 0 while the machine is busy.
#
# A correct program must never be reported as "exited without calling shmem_finalize": with
# hundreds of PEs finishing at once on loaded CPUs, oshrun's PMIx server may read a PE's
# finalize notice only after it reaped the PE (src/boot/finalize_mark.c tells it for sure).
# The load: one CPU-bound process per CPU beside the job, for the whole run. Hermetic, as
# the crash tests are (test/pe/job-end.sh). TAP output.
set -u
. "$(dirname "$0")/../pe/job-end.sh"
build="${SSHMEM_TEST_BUILDDIR:-.}"
oshrun="${OSHRUN:-$build/oshrun}"
program="$build/test/scale/startup_reduce"
np=${SSHMEM_TEST_BUSY_NP:-1024}
out="$TMPDIR/out"
burners=()
stop_burners() {
    [ ${#burners[@]} -gt 0 ] || return 0
    kill "${burners[@]}" 2>/dev/null
    wait "${burners[@]}" 2>/dev/null
    burners=()
}
trap 'stop_burners; rm -rf "$job_private_tmp"' EXIT
echo "1..4"
for _ in $(seq "$(nproc 2>/dev/null || echo 1)"); do
    (while :; do :; done) &
    burners+=($!)
done
SHMEM_SYMMETRIC_SIZE=4M job_run 900 "$oshrun" -np "$np" "$program" >"$out" 2>&1
stop_burners
tap_check "$np PEs on a busy machine: exit 0 (got $job_rc) and the right sum" \
    "$([ "$job_rc" -eq 0 ] && grep -qx "ok $np" "$out"; echo $?)"
[ "$job_rc" -eq 0 ] || head -20 "$out" | sed 's/^/# /'
tap_check "no PE reported as leaving without shmem_finalize" \
    "$(! grep -q "without calling shmem_finalize" "$out"; echo $?)"
grep "without calling shmem_finalize" "$out" | head -3 | sed 's/^/# /'
job_leftovers_check "$np PEs"
