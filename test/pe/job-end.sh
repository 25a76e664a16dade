# job-end.sh: sourced by crash-test.sh and fault-test.sh, the checks that a job which lost a PE
# ended properly. TAP: the caller prints the plan; tap_check numbers the lines.
#   tap_check DESC STATUS      "ok N - DESC" when STATUS is 0, else "not ok N - DESC"
#   now_ms                     a monotonic-enough clock in milliseconds
#   leftovers_snapshot         remember /dev/shm and the oshrun temporary directories
#   leftovers_check LABEL      TAP checks: no new /dev/shm entry, no new oshrun temp dir
#                              (new since the snapshot and used by no process, so that other
#                              jobs running on the machine meanwhile do not count)
#   pids_gone LABEL PID...     TAP check: none of these processes is left (after 0.5 s at most)
n=0
tap_check() {
    n=$((n + 1))
    if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

leftovers_snapshot() {
    shm_before=$(ls /dev/shm | sort)
    tmp_before=$(ls -d "${TMPDIR:-/tmp}"/oshrun.* 2>/dev/null | sort)
}

# Entries in $2 (now) that are not in $1 (before).
new_entries() { comm -13 <(echo "$1") <(echo "$2") | grep -v '^$'; }

# Of the oshrun temporary directories named on stdin, those whose oshrun is gone (the PMIx
# store inside is named after its pid): a live one belongs to a job still running here.
orphan_tmpdirs() {
    local d pid
    while read -r d; do
        [ -n "$d" ] || continue
        pid=$(ls "$d" 2>/dev/null | sed -n 's/^pmix_dstor_[a-z0-9]*_\([0-9]*\)$/\1/p' | head -1)
        [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && continue
        [ -e "$d" ] && echo "$d"
    done
}

# Of the /dev/shm entries named on stdin, those no live process has open or mapped: entries
# of jobs still running on the machine (other tests) are not leftovers.
orphan_shm() {
    local e used
    used=$( (ls -l /proc/[0-9]*/fd 2>/dev/null; cat /proc/[0-9]*/maps 2>/dev/null) |
            grep -o '/dev/shm/[^ ]*' | sed 's|^/dev/shm/||; s|/.*||' | sort -u) # a file: its dir too
    while read -r e; do
        [ -n "$e" ] && [ -e "/dev/shm/$e" ] && ! grep -qxF -- "$e" <<<"$used" && echo "$e"
    done
}

# TAP check: no /dev/shm entry new since leftovers_snapshot is left unused.
shm_leftovers_check() {
    local new_shm
    new_shm=$(new_entries "$shm_before" "$(ls /dev/shm | sort)")
    [ -z "$new_shm" ] || sleep 1 # an entry of a job still ending here
    new_shm=$(echo "$new_shm" | orphan_shm | tr '\n' ' ')
    tap_check "$1: no new /dev/shm entry is left${new_shm:+ (left: $new_shm)}" \
        "$([ -z "$new_shm" ]; echo $?)"
}

# TAP check: no oshrun temporary directory new since leftovers_snapshot outlived its oshrun.
tmpdir_leftovers_check() {
    local new_tmp
    new_tmp=$(new_entries "$tmp_before" "$(ls -d "${TMPDIR:-/tmp}"/oshrun.* 2>/dev/null | sort)")
    [ -z "$new_tmp" ] || sleep 1
    new_tmp=$(echo "$new_tmp" | orphan_tmpdirs | tr '\n' ' ')
    tap_check "$1: no oshrun temporary directory is left${new_tmp:+ (left: $new_tmp)}" \
        "$([ -z "$new_tmp" ]; echo $?)"
}

leftovers_check() {
    shm_leftovers_check "$1"
    tmpdir_leftovers_check "$1"
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
