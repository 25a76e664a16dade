#!/bin/bash
# shm-cleanup-test.sh: shared memory without a per-host table and without leftovers (issue 33).
#   - a running job holds no SysV segment (direct, SSHMEM_LOCAL=ucx, node groups), and runs
#     in an IPC namespace whose SysV table has room for one segment (root and unshare only);
#   - oshrun's whole process group killed (kill -9 -PGID) at several moments of a 64-PE
#     start-up leaves no process, no $TMPDIR/oshrun.* and no /dev/shm entry of the job;
#   - a PE's grandchild in a session of its own that re-execs with an empty environment ends
#     with the job: after a clean end, after oshrun's group is killed, after oshrun alone is;
#   - a start that cannot get its shared memory says which limit and how to raise it.
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

checks=()
# ---------------------------------------------------------------- no SysV segment
sysv_of_job() { # segments whose creator is a process of the current job
    local pids
    pids=" $(job_processes | awk '{print $1}' | tr '\n' ' ') "
    awk -v pids="$pids" 'NR > 1 && index(pids, " " $5 " ") {n++} END {print n + 0}' /proc/sysvipc/shm
}
for cfg in "SSHMEM_LOCAL=direct" "SSHMEM_LOCAL=ucx" "SSHMEM_PES_PER_NODE=2"; do
    rm -f "$work/ready" "$work/go"
    job_start 90 env "$cfg" "$launcher" -np 4 "$hold" "$work/ready" "$work/go" >"$work/log" 2>&1
    for i in $(seq 1200); do [ -e "$work/ready" ] && break; sleep 0.05; done
    segs=$(sysv_of_job)
    touch "$work/go"
    wait "$job_bg"; rc=$?
    tap_check "[$cfg] the job runs (status $rc)" $rc
    [ $rc -eq 0 ] || sed 's/^/#   /' "$work/log"
    tap_check "[$cfg] while it runs its PEs hold no SysV segment (found $segs)" "$([ "$segs" = 0 ]; echo $?)"
done

in_small_ipc_table() { # a private IPC namespace whose SysV table holds one segment
    echo 1 > /proc/sys/kernel/shmmni || exit 90
    for path in direct ucx; do
        SSHMEM_LOCAL=$path timeout -k 5 120 "$launcher" -np 16 "$build/test/pe/put_get" \
            >/dev/null 2>&1 || echo "failed $path $?"
    done
}
if [ "$(id -u)" = 0 ] && out=$(unshare -i bash -c "$(declare -f in_small_ipc_table); \
        launcher='$launcher' build='$build'; in_small_ipc_table" 2>&1); then
    tap_check "16 PEs run with kernel.shmmni=1 (direct and SSHMEM_LOCAL=ucx)${out:+ ($out)}" \
        "$([ -z "$out" ]; echo $?)"
else
    n=$((n + 1)); echo "ok $n - 16 PEs run with kernel.shmmni=1 # SKIP needs root and unshare -i"
fi

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

# ---------------------------------------------------------------- clear errors
# The heap lives in UCX_POSIX_DIR: a 16 MiB tmpfs cannot hold it.
small_posix_dir() {
    mkdir -p "$1" && mount -t tmpfs -o size=16m,mode=0700 tmpfs "$1" || exit 90
    UCX_POSIX_DIR="$1" timeout -k 5 60 "$launcher" -np 2 "$build/test/pe/put_get"
}
if [ "$(id -u)" = 0 ]; then
    out=$(unshare -m --propagation private bash -c "$(declare -f small_posix_dir); \
          launcher='$launcher' build='$build'; small_posix_dir '$work/small'" 2>&1); rc=$?
fi
if [ "$(id -u)" != 0 ] || [ "$rc" = 90 ]; then
    n=$((n + 1)); echo "ok $n - a full UCX_POSIX_DIR is named # SKIP needs root and unshare -m"
else
    grep -q "PE [01]: shmem_init: no room for the symmetric heap in shared memory: $work/small has" <<<"$out" &&
        grep -q "remount,size=" <<<"$out"; r=$?
    tap_check "a full UCX_POSIX_DIR: the PE, shmem_init, the directory and the remedy are named (status $rc)" \
        "$([ $r -eq 0 ] && [ $rc -ne 0 ]; echo $?)"
    [ $r -eq 0 ] || sed 's/^/#   /' <<<"$out" | head -5
fi
echo "1..$n"
