#!/bin/bash
# fault-test.sh: SIGKILL one PE at a random moment: during start-up (before shmem_init returns),
# in a put stream, in a barrier, in a reduction, in a broadcast, and while the others wait in
# shmem_wait_until (test/pe/fault loops in each). For every run: the whole job ends within 2 s
# of the kill, oshrun's status is that of the killed PE (137) and its message names it, no
# process of the job, no oshrun temporary directory and no /dev/shm directory of the job is
# left (job-end.sh looks at this job's own only: other jobs may run meanwhile).
# Each point is tried SSHMEM_FAULT_REPEAT times (default 3) with random victims and delays;
# SSHMEM_FAULT_SEED reproduces a run (printed). TAP output.
. "$(dirname "$0")/job-end.sh"
fault="${SSHMEM_TEST_BUILDDIR:-.}/test/pe/fault"
launcher="${OSHRUN:-oshrun}"
np=4
repeat="${SSHMEM_FAULT_REPEAT:-3}"
points=(init put barrier reduce bcast wait)
seed="${SSHMEM_FAULT_SEED:-$(( $(date +%s) % 100000 ))}"
RANDOM=$seed
echo "1..$(( ${#points[@]} * repeat * 6 + 1 ))"
echo "# seed $seed (reproduce with SSHMEM_FAULT_SEED=$seed)"

# Wait (at most 20 s) until every file named exists.
wait_for() {
    local i f missing
    for ((i = 0; i < 2000; i++)); do
        missing=0
        for f in "$@"; do [ -e "$f" ] || { missing=1; break; }; done
        [ $missing = 0 ] && return 0
        kill -0 "$job" 2>/dev/null || return 1
        sleep 0.01
    done
    return 1
}

# One run: start the job in the loop of $point, kill a random PE at a random moment.
run_point() {
    local point="$1" try="$2" dir log victim delay_ms vpid pids="" p in_init=""
    dir=$(mktemp -d)
    log=$(mktemp)
    victim=$((RANDOM % np))
    job_start 40 "$launcher" -np "$np" "$fault" "$dir" "$point" >"$log" 2>&1
    job=$job_bg
    if [ "$point" = init ]; then
        # As soon as the victim exists: it is then in main, before or in shmem_init.
        wait_for "$dir/pe$victim.pid"
        delay_ms=$((RANDOM % 15))
    else
        wait_for $(for ((p = 0; p < np; p++)); do echo "$dir/pe$p.ready"; done)
        delay_ms=$((50 + RANDOM % 300))
    fi
    sleep "$(printf '0.%03d' "$delay_ms")"
    vpid=$(cat "$dir/pe$victim.pid" 2>/dev/null)
    job_wait_pid
    [ "$point" = init ] && [ ! -e "$dir/pe$victim.ready" ] && in_init=" (before shmem_init returned)"
    local killed_at
    killed_at=$(now_ms)
    kill -KILL "$vpid" 2>/dev/null
    wait "$job"
    local rc=$? ms=$(( $(now_ms) - killed_at ))
    local label="$point #$try: PE $victim killed after ${delay_ms} ms$in_init"
    local allow
    allow=$(busy_allowance 2000) # 2 s on an idle machine, more under load (../busy.sh)
    tap_check "$label: job ends within 2 s of the kill (${ms} ms, allowed ${allow} ms at this load)" \
        $([ "$ms" -lt "$allow" ]; echo $?)
    tap_check "$label: oshrun exits with 137 (got $rc)" $([ "$rc" -eq 137 ]; echo $?)
    grep -q "PE $victim (pid $vpid) was killed by signal 9" "$log"
    tap_check "$label: the message names PE $victim" $?
    for f in "$dir"/pe*.pid; do pids="$pids $(cat "$f")"; done
    pids_gone "$label" $pids
    # The oshrun temporary directory goes with oshrun, or with its janitor right after
    # (failsafe.c in the launcher). A PE killed inside UCX's start-up would leave a
    # ucx_shm_posix_* file (UCX unlinks it once it is set up); oshrun points UCX_POSIX_DIR at
    # its own /dev/shm/oshrun.PID.* directory and removes that with the job, so nothing of the
    # job may be left even then.
    job_leftovers_check "$label"
    if [ "$rc" -ne 137 ] || ! grep -q "PE $victim (pid $vpid)" "$log"; then
        sed 's/^/#   /' "$log" | head -20
    fi
    rm -rf "$dir" "$log"
}

script_start=$(now_ms)
for point in "${points[@]}"; do
    for ((try = 1; try <= repeat; try++)); do
        run_point "$point" "$try"
    done
done
echo "# all runs took $(( $(now_ms) - script_start )) ms"
left=$(ls -d "$TMPDIR"/oshrun.* 2>/dev/null | tr '\n' ' ')
tap_check "all runs: no oshrun temporary directory is left${left:+ (left: $left)}" \
    "$([ -z "$left" ]; echo $?)"
