#!/bin/bash
# orphan-test.sh: a process a PE starts in a session of its own (setsid, as daemons do) leaves
# the job's process group, and once its PE is gone it would be adopted by init and outlive the
# job. oshrun is the subreaper of its PEs, so it adopts such processes and ends them with the
# job: after a job that ends well, one whose PE dies, and one whose PE leaves a chain of them
# (a session leader with children of its own), no process of the job is left; nor after oshrun
# itself is SIGKILLed (its janitor finds them by the job's environment). job-end.sh finds
# this job's processes by its own marker, never by machine-wide counts. TAP output.
. "$(dirname "$0")/job-end.sh"
launcher="${OSHRUN:-oshrun}"
# name|status|what each PE runs (bash)
cases=(
    "clean exit|0|setsid sleep 60 & sleep 0.3; exit 0"
    "PE killed|137|setsid sleep 60 & sleep 0.3; [ \"\$PMIX_RANK\" = 1 ] && kill -9 \$\$; sleep 60"
    "session with children|0|setsid bash -c 'sleep 61 & sleep 62 & wait' & sleep 0.3; exit 0"
    "double fork|0|( setsid sleep 63 & ) ; sleep 0.3; exit 0"
)
echo "1..$(( ${#cases[@]} * 4 + 1 + 3 ))"

# The same job without such processes: start-up and shut-down, which a loaded machine
# stretches, are not part of what ending the orphans costs.
start=$(now_ms)
job_run 20 "$launcher" -np 2 bash -c "sleep 0.3; exit 0" >/dev/null 2>&1
tap_check "a run without orphans ends with status 0" $job_rc
base_ms=$(( $(now_ms) - start ))
echo "# a run without orphans takes ${base_ms} ms"
for c in "${cases[@]}"; do
    IFS='|' read -r name want script <<<"$c"
    log=$(mktemp)
    start=$(now_ms)
    job_run 20 "$launcher" -np 2 bash -c "$script" >"$log" 2>&1
    ms=$(( $(now_ms) - start ))
    tap_check "$name: job exits with status $want (got $job_rc)" $([ "$job_rc" -eq "$want" ]; echo $?)
    tap_check "$name: ending the orphans takes less than 2 s (took $ms ms, without them $base_ms ms)" \
        $([ $((ms - base_ms)) -lt 2000 ]; echo $?)
    job_leftovers_check "$name"
    [ "$job_rc" -eq "$want" ] || sed 's/^/# /' "$log"
    rm -f "$log"
done

# oshrun SIGKILLed: nothing of it runs its end of job, and with it gone no subreaper holds the
# processes in sessions of their own. Its janitor must still end them.
job_start 20 "$launcher" -np 2 bash -c "setsid sleep 65 & sleep 60" >/dev/null 2>&1
job_wait_pid
for i in $(seq 100); do # both PEs' session leaders started
    [ "$(job_processes | grep -c 'sleep 65')" -ge 2 ] && break
    sleep 0.05
done
tap_check "oshrun killed: the PEs started their sessions" \
    "$([ "$(job_processes | grep -c 'sleep 65')" -ge 2 ]; echo $?)"
kill -9 "$job_pid" 2>/dev/null
wait "$job_bg" 2>/dev/null
job_leftovers_check "oshrun killed"
