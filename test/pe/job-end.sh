# job-end.sh: sourced by crash-test.sh and fault-test.sh, the checks that a job which lost a PE
# ended properly. TAP: the caller prints the plan; tap_check numbers the lines.
#
# Hermetic: every check looks at what its own job made, never at the whole machine, so other
# sshmem jobs (or a second copy of the same test) running meanwhile change nothing:
#   - the script runs with a TMPDIR of its own (removed at its end), where oshrun makes its
#     temporary directory $TMPDIR/oshrun.PID.XXXXXX;
#   - oshrun's shared-memory directory is /dev/shm/oshrun.PID.XXXXXX, PID being oshrun's;
#   - every job carries a marker of its own in its environment (SSHMEM_TEST_JOB), which every
#     process it starts inherits: processes are found by it.
#
#   tap_check DESC STATUS         "ok N - DESC" when STATUS is 0, else "not ok N - DESC"
#   now_ms                        a monotonic-enough clock in milliseconds
#   job_run LIMIT CMD...          run CMD (oshrun ...) in the foreground under timeout LIMIT
#                                 with a new marker; sets job_rc, job_pid (oshrun's pid)
#   job_start CMD...              the same in the background; sets job_bg (the timeout
#                                 process to wait for); job_pid once job_wait_pid returns
#   job_processes                 the processes (pid and command) of the current job alive now
#   job_leftovers_check LABEL     TAP checks: no process, no oshrun temporary directory and no
#                                 /dev/shm directory of the job is left (after 1 s at most)
#   pids_gone LABEL PID...        TAP check: none of these processes is left (after 0.5 s)
#   busy_allowance MS             MS, scaled up on a busy machine (../busy.sh)
. "$(dirname "${BASH_SOURCE[0]}")/../busy.sh" # busy_allowance for the "within N s" checks
n=0
tap_check() {
    n=$((n + 1))
    if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

job_private_tmp=$(mktemp -d "${TMPDIR:-/tmp}/sshmem-test.XXXXXX")
export TMPDIR="$job_private_tmp"
trap 'rm -rf "$job_private_tmp"' EXIT
job_seq=0

job_new_marker() {
    job_seq=$((job_seq + 1))
    job_mark="$$.$job_seq.$RANDOM$RANDOM"
    rm -f "$TMPDIR/job.pid"
}

# The launcher's pid is known from the inside: bash writes its own pid, then becomes the
# launcher (exec keeps the pid).
job_run() {
    local limit="$1"
    shift
    job_new_marker
    SSHMEM_TEST_JOB="$job_mark" timeout -k 2 "$limit" \
        bash -c 'echo $$ > "$0"; exec "$@"' "$TMPDIR/job.pid" "$@"
    job_rc=$?
    job_pid=$(cat "$TMPDIR/job.pid" 2>/dev/null)
}

job_start() {
    local limit="$1"
    shift
    job_new_marker
    SSHMEM_TEST_JOB="$job_mark" timeout -k 2 "$limit" \
        bash -c 'echo $$ > "$0"; exec "$@"' "$TMPDIR/job.pid" "$@" &
    job_bg=$!
}

job_wait_pid() {
    local i
    for i in $(seq 500); do
        job_pid=$(cat "$TMPDIR/job.pid" 2>/dev/null) && [ -n "$job_pid" ] && return 0
        sleep 0.01
    done
    return 1
}

# Live processes (not zombies) whose environment carries the current job's marker.
job_processes() {
    local f p
    for f in $(grep -lsxzF "SSHMEM_TEST_JOB=$job_mark" /proc/[0-9]*/environ 2>/dev/null); do
        p=${f#/proc/}
        p=${p%/environ}
        [ "$p" = "$$" ] || [ "$p" = "$BASHPID" ] && continue
        [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" = Z ] && continue
        [ -e "/proc/$p" ] && echo "$p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
    done
}

# The job's directories still there: its oshrun temporary directory, its /dev/shm directory.
job_dirs() {
    [ -n "$job_pid" ] || return 0
    ls -d "$TMPDIR/oshrun.$job_pid".* "/dev/shm/oshrun.$job_pid".* 2>/dev/null
}

job_leftovers_check() {
    local i left dirs
    for i in $(seq 10); do # PEs killed through PDEATHSIG and the janitor end asynchronously
        left=$(job_processes)
        dirs=$(job_dirs)
        [ -z "$left$dirs" ] && break
        sleep 0.1
    done
    tap_check "$1: no process of the job is left" "$([ -z "$left" ]; echo $?)"
    [ -z "$left" ] || sed 's/^/#   left: /' <<<"$left"
    tap_check "$1: no oshrun directory of the job is left in TMPDIR or /dev/shm${dirs:+ (left: $(echo $dirs))}" \
        "$([ -z "$dirs" ]; echo $?)"
}

pids_gone() {
    local label="$1" left="" p i
    shift
    for i in 1 2 3 4 5; do
        left=""
        for p in "$@"; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
        [ -z "$left" ] && break
        sleep 0.1
    done
    tap_check "$label: no process of the job is left${left:+ (left:$left)}" \
        "$([ -z "$left" ]; echo $?)"
}
