#!/bin/bash
# shm-cleanup-test.sh: nothing of a job outlives it, however it ends (issue 33).
#   - oshrun's whole process group killed (kill -9 -PGID) at several moments of a 64-PE
#     start-up leaves no process, no $TMPDIR/oshrun.* and no /dev/shm entry of the job;
#   - a PE's grandchild in a session of its own that re-execs with an empty environment ends
#     with the job: after a clean end, after oshrun's group is killed, after oshrun alone is;
#   - a private SysV segment a PE made and left is gone with the job, after a clean end and
#     after oshrun's group is killed.
# Every check looks at its own job only (job-end.sh). TAP output.
. "$(dirname "$0")/job-end.sh"
build="${SSHMEM_TEST_BUILDDIR:-.}"
launcher="${OSHRUN:-$build/oshrun}"
hold="$build/test/pe/hold"
work=$(mktemp -d "$TMPDIR/shm.XXXXXX")

# wait_gone LABEL PATTERN: no process of the job (by its marker, or whose command line matches
# PATTERN: a process that dropped its environment), no directory of it, within an allowance
# that grows with the machine's load.
wait_gone() {
    local label="$1" pattern="$2" deadline left dirs
    deadline=$(( $(now_ms) + $(busy_allowance 3000) ))
    while :; do
        left=$(job_processes; [ -n "$pattern" ] && pgrep -af -- "$pattern")
        dirs=$(job_dirs)
        [ -z "$left$dirs" ] || [ "$(now_ms)" -gt "$deadline" ] && break
        sleep 0.05
    done
    tap_check "$label: no process of the job is left" "$([ -z "$left" ]; echo $?)"
    [ -z "$left" ] || sed 's/^/#   left: /' <<<"$left"
    tap_check "$label: no oshrun directory of the job in TMPDIR or /dev/shm${dirs:+ (left: $(echo $dirs))}" \
        "$([ -z "$dirs" ]; echo $?)"
}

# ---------------------------------------------------------------- kill -9 of oshrun's group
for after in 0.05 0.2 1; do
    rm -f "$work/ready" "$work/go"
    job_start 90 "$launcher" -np 64 "$hold" "$work/ready" "$work/go" >/dev/null 2>&1
    sleep "$after"
    job_wait_pid
    kill -9 -- "-$job_bg" 2>/dev/null # timeout(1) leads the group of oshrun
    wait "$job_bg" 2>/dev/null
    wait_gone "64 PEs, oshrun's group killed after $after s"
done

# ---------------------------------------------------------------- a grandchild with env -i
for how in clean group launcher; do
    tag=$((200000 + RANDOM))
    # A clean end waits long enough for the check below to see the grandchildren first.
    script="setsid env -i /bin/sh -c 'exec sleep $tag' & sleep 3; [ $how = clean ] && exit 0; sleep 60"
    job_start 60 "$launcher" -np 2 bash -c "$script" >/dev/null 2>&1
    job_wait_pid
    for i in $(seq 200); do [ "$(pgrep -fc -- "^sleep $tag")" -ge 2 ] && break; sleep 0.05; done
    started=$(pgrep -fc -- "^sleep $tag")
    case $how in
    group) kill -9 -- "-$job_bg" ;;
    launcher) kill -9 "$job_pid" ;;
    esac
    wait "$job_bg" 2>/dev/null
    tap_check "$how: both PEs started their grandchild (found $started)" "$([ "$started" -ge 2 ]; echo $?)"
    wait_gone "setsid + env -i grandchild, $how" "^sleep $tag"
done

# ---------------------------------------------------------------- SysV segments the PEs left
# A PE killed between UCX's shmget and its removal mark leaves a private segment; oshrun (or,
# when oshrun is killed, its guard) removes those its PEs created (src/launcher/sysv.h).
leave="$build/test/pe/sysv_leave"
for how in clean group; do
    ids="$work/sysv.$how"
    rm -f "$ids"
    if [ $how = clean ]; then
        job_run 60 "$launcher" -np 2 "$leave" "$ids" exit >/dev/null 2>&1
    else
        job_start 60 "$launcher" -np 2 "$leave" "$ids" hold >/dev/null 2>&1
        job_wait_pid
        for i in $(seq 200); do [ "$(wc -l <"$ids" 2>/dev/null || echo 0)" -ge 2 ] && break; sleep 0.05; done
        kill -9 -- "-$job_bg"
        wait "$job_bg" 2>/dev/null
        wait_gone "2 PEs that left a SysV segment, oshrun's group killed"
    fi
    made=$(wc -l <"$ids" 2>/dev/null || echo 0)
    deadline=$(( $(now_ms) + $(busy_allowance 3000) ))
    while :; do
        left=""
        for id in $(cat "$ids" 2>/dev/null); do
            awk -v id="$id" 'NR > 1 && $2 == id { found = 1 } END { exit !found }' \
                /proc/sysvipc/shm && left="$left $id"
        done
        [ -z "$left" ] || [ "$(now_ms)" -gt "$deadline" ] && break
        sleep 0.05
    done
    tap_check "$how end: both PEs made a segment (found $made) and none is left${left:+ (left:$left)}" \
        "$([ "$made" -ge 2 ] && [ -z "$left" ]; echo $?)"
    for id in $left; do ipcrm -m "$id" 2>/dev/null; done
done

echo "1..$n"
