#!/bin/bash
# crash-test.sh: a PE that dies ends the whole job promptly, with a non-zero status, a
# message that names it, and nothing of the job left behind (processes, its /dev/shm and
# temporary directories; job-end.sh looks at this job's own only).
# So does a PE that returns from main without shmem_finalize, while shmem_global_exit (from
# one PE or from all, after which nobody finalizes) ends the job with its status.
# Uses the test/pe/crash program. TAP output. Random-point kills: fault-test.sh.
. "$(dirname "$0")/job-end.sh"
crash="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/crash"
launcher="${OSHRUN:-oshrun}"
no_finalize="exited (status 0) without calling shmem_finalize; call shmem_finalize() before returning from main"
# how|status|what the message must say (fixed string; empty: oshrun says nothing)
cases=(
    "segv|139|PE 3 (pid"
    "exit|3|PE 3 (pid"
    "kill|137|PE 3 (pid"
    "global_exit|7|PE 3 called abort with status 7: shmem_global_exit"
    "no_finalize|1|PE 3 (pid"
    "all_no_finalize|1|$no_finalize"
    "all_global_exit|0|"
)
echo "1..$(( ${#cases[@]} * 5 + 2 ))" # 5 per case, 1 more for no_finalize, 1 clean run

# A clean run of the same program: start-up and shut-down, which a loaded machine stretches,
# are not part of "the job ends within 2 s of the failure".
start=$(now_ms)
job_run 20 "$launcher" -np 4 "$crash" none >/dev/null 2>&1
tap_check "a clean run ends with status 0" $job_rc
base_ms=$(( $(now_ms) - start ))
echo "# a clean 4-PE run takes ${base_ms} ms"

for c in "${cases[@]}"; do
    IFS='|' read -r how want says <<<"$c"
    log=$(mktemp)
    start=$(now_ms)
    job_run 20 "$launcher" -np 4 "$crash" "$how" >"$log" 2>&1
    rc=$job_rc
    ms=$(( $(now_ms) - start ))
    tap_check "$how: job exits with status $want (got $rc)" $([ $rc -eq "$want" ]; echo $?)
    allow=$(busy_allowance 2000) # 2 s on an idle machine, more under load (../busy.sh)
    tap_check "$how: job ends within 2 s of the failure (took ${ms} ms, a clean run ${base_ms} ms, allowed ${allow} ms at this load)" \
        $([ $((ms - base_ms)) -lt "$allow" ]; echo $?)
    if [ -n "$says" ]; then
        grep -qF -- "$says" "$log"
        tap_check "$how: the message says: $says" $?
        if [ "$how" = no_finalize ]; then # the whole sentence, for PE 3
            grep -q "PE 3 (pid [0-9]*) $no_finalize" "$log"
            tap_check "$how: the message names PE 3 and says to call shmem_finalize" $?
        fi
    else
        ! grep -q "oshrun:" "$log"
        tap_check "$how: oshrun reports nothing for a deliberate end" $?
    fi
    job_leftovers_check "$how"
    [ $rc -eq "$want" ] || sed 's/^/# /' "$log"
    rm -f "$log"
done
