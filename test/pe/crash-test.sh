#!/bin/bash
# crash-test.sh: a PE that dies ends the whole job promptly, with a non-zero status, a
# message that names it, and nothing left behind (processes, /dev/shm, oshrun temp dirs).
# Uses the test/pe/crash program. TAP output.
crash="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/crash"
launcher="${OSHRUN:-oshrun}"
n=0
echo "1..16"
shm_before=$(ls /dev/shm | sort)
tmp_before=$(ls -d /tmp/oshrun.* 2>/dev/null | sort)

check() { # check DESC CONDITION-STATUS
    n=$((n + 1))
    if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}

# A clean run of the same program: start-up and shut-down, which a loaded machine stretches,
# are not part of "the job ends within 2 s of the failure".
start=$(date +%s%N)
timeout -k 2 20 "$launcher" -np 4 "$crash" none >/dev/null 2>&1
base_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "# a clean 4-PE run takes ${base_ms} ms"

for how in segv exit global_exit kill; do
    case $how in
        segv) want=139 ;; exit) want=3 ;; global_exit) want=7 ;; kill) want=137 ;;
    esac
    log=$(mktemp)
    start=$(date +%s%N)
    timeout -k 2 20 "$launcher" -np 4 "$crash" "$how" >"$log" 2>&1
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    check "$how: job exits with status $want (got $rc)" $([ $rc -eq $want ]; echo $?)
    check "$how: job ends within 2 s of the failure (took ${ms} ms, a clean run ${base_ms} ms)" \
        $([ $((ms - base_ms)) -lt 2000 ]; echo $?)
    if [ $how = global_exit ]; then
        check "$how: no crash report for a deliberate exit" 0
    else
        grep -q "PE 3" "$log"; check "$how: the message names PE 3" $?
    fi
    sleep 0.2
    pgrep -f "$crash $how" >/dev/null; check "$how: no PE process is left" $((! $?))
    [ $rc -eq $want ] || sed 's/^/# /' "$log"
    rm -f "$log"
done
# Nothing left in /dev/shm or /tmp by any of the runs (printed as TAP comments if so).
[ "$(ls /dev/shm | sort)" = "$shm_before" ] || echo "# warning: /dev/shm changed during the crash runs"
[ "$(ls -d /tmp/oshrun.* 2>/dev/null | sort)" = "$tmp_before" ] || echo "# warning: oshrun temp dirs left"
