#!/bin/bash
# busy-start-test.sh: 1,024 PEs start, reduce, finalize and exit 0 while the machine is busy.
#
# A correct program must never be reported as "exited without calling shmem_finalize": with
# hundreds of PEs finishing at once on loaded CPUs, oshrun's PMIx server may read a PE's
# finalize notice only after it reaped the PE (src/boot/finalize_mark.c tells it for sure).
# The load: one CPU-bound process per CPU beside the job, for the whole run. TAP output.
set -u
build="${SSHMEM_TEST_BUILDDIR:-.}"
oshrun="${OSHRUN:-$build/oshrun}"
program="$build/test/scale/startup_reduce"
np=${SSHMEM_TEST_BUSY_NP:-1024}
out=$(mktemp)
burners=()
cleanup() {
    [ ${#burners[@]} -gt 0 ] && kill "${burners[@]}" 2>/dev/null
    rm -f "$out"
}
trap cleanup EXIT
echo "1..3"
for _ in $(seq "$(nproc 2>/dev/null || echo 1)"); do
    (while :; do :; done) &
    burners+=($!)
done
before_tmp=$(ls -d "${TMPDIR:-/tmp}"/oshrun.* /dev/shm/oshrun.* 2>/dev/null | sort)
SHMEM_SYMMETRIC_SIZE=4M timeout -k 10 900 "$oshrun" -np "$np" "$program" >"$out" 2>&1
rc=$?
kill "${burners[@]}" 2>/dev/null
wait "${burners[@]}" 2>/dev/null
burners=()
if [ $rc -eq 0 ] && grep -qx "ok $np" "$out"; then
    echo "ok 1 - $np PEs on a busy machine: exit 0 and the right sum"
else
    echo "not ok 1 - $np PEs on a busy machine: exit status $rc"
    head -20 "$out" | sed 's/^/# /'
fi
if grep -q "without calling shmem_finalize" "$out"; then
    echo "not ok 2 - no PE reported as leaving without shmem_finalize"
    grep "without calling shmem_finalize" "$out" | head -3 | sed 's/^/# /'
else
    echo "ok 2 - no PE reported as leaving without shmem_finalize"
fi
after_tmp=$(ls -d "${TMPDIR:-/tmp}"/oshrun.* /dev/shm/oshrun.* 2>/dev/null | sort)
left=$(comm -13 <(echo "$before_tmp") <(echo "$after_tmp"))
[ -z "$left" ] && echo "ok 3 - nothing of the job left in TMPDIR or /dev/shm" ||
    echo "not ok 3 - left behind: $left"
