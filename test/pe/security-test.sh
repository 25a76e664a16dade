#!/bin/bash
# security-test.sh: what oshrun leaves open to other users of the host, looked at while a job
# runs (from inside the job: the PE's parent is oshrun):
#   - its temporary directory is the user's own, mode 0700, with nothing world-writable in it
#   - the PMIx server listens on 127.0.0.1 only (ss; skipped without it)
#   - after jobs that end well and badly, nothing is left in /dev/shm or SysV shared memory
#     (checked in private mount and IPC namespaces, so other jobs on the host do not count;
#     skipped where unshare is not allowed)
# and at what a running sshmem job (test/pe/hold) leaves open, on every path, its own PEs only:
#   - no SysV segment of its PEs has group or other permissions, and with UCX_TLS unset (or
#     without sysv) its PEs hold no SysV segment at all; as `nobody`, no shared memory file of a PE (UCX's, or
#     sshmem's memfds of heap and globals) can be opened (needs root and a nobody user, else
#     skipped)
#   - its PEs listen on no TCP address but loopback (a one-host job)
#   - a PMIx client run as `nobody` is refused, also one claiming to be root (the
#     test/launcher/claim_uid shim), and the job still ends well. TAP output.
build="${SSHMEM_TEST_BUILDDIR:-.}"
oshrun="${OSHRUN:-$build/oshrun}"
n=0
lines=()
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then lines+=("ok $n - $1"); else lines+=("not ok $n - $1"); fi; }
skip() { n=$((n + 1)); lines+=("ok $n - $1 # SKIP $2"); }
note() { while IFS= read -r l; do lines+=("#   $l"); done <<<"$1"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"

# ---------------------------------------------------------------- while a job runs
# PE 0 reports on its parent (oshrun) and oshrun's directory under TMPDIR=$work.
inspect='if [ "$PMIX_RANK" = 0 ]; then
    for d in "$TMPDIR"/oshrun.*; do stat -c "dir %a %u %n" "$d"; done
    find "$TMPDIR"/oshrun.* -perm -o+w ! -type l -printf "world-writable %m %p\n"
    find "$TMPDIR"/oshrun.* ! -user "$(id -u)" -printf "foreign %u %p\n"
    if command -v ss >/dev/null; then
        ss -Hltnp | grep "pid=$PPID," | awk "{print \"listen-tcp \" \$4}"
        ss -Hlunp | grep "pid=$PPID," | awk "{print \"listen-udp \" \$4}"
    else echo "no-ss"; fi
fi'
out=$(TMPDIR=$work timeout -k 5 60 "$oshrun" -np 2 bash -c "$inspect" 2>&1); rc=$?
ok "a job under TMPDIR=$work runs (exit $rc)" $rc
dirs=$(grep -c '^dir ' <<<"$out")
[ "$dirs" -eq 1 ]; ok "one oshrun directory while the job runs (found $dirs)" $?
grep -q "^dir 700 $(id -u) $work/oshrun\." <<<"$out"; rc=$?
ok "its mode is 0700 and the user owns it" $rc; [ $rc -eq 0 ] || note "$(grep '^dir' <<<"$out")"
! grep -q '^world-writable' <<<"$out"; rc=$?
ok "nothing in it is world-writable" $rc; [ $rc -eq 0 ] || note "$(grep '^world-writable' <<<"$out")"
! grep -q '^foreign' <<<"$out"; ok "everything in it belongs to the user" $?
if grep -q '^no-ss' <<<"$out"; then
    skip "the PMIx server listens on 127.0.0.1 only" "ss (iproute2) not installed"
    skip "oshrun listens on no UDP port" "ss (iproute2) not installed"
else
    listen=$(grep '^listen-tcp' <<<"$out")
    [ -n "$listen" ] && ! grep -qv '^listen-tcp 127\.0\.0\.1:' <<<"$listen"; rc=$?
    ok "the PMIx server listens on 127.0.0.1 only" $rc
    [ $rc -eq 0 ] || note "${listen:-no listening socket found}"
    ! grep -q '^listen-udp' <<<"$out"; ok "oshrun listens on no UDP port" $?
fi
left=$(ls -d "$work"/oshrun.* 2>/dev/null)
[ -z "$left" ]; ok "the directory is gone after the job" $?

# ---------------------------------------------------------------- shared memory left behind
jobs_in_namespace() {
    mount -t tmpfs -o mode=1777 tmpfs /dev/shm || exit 90
    for path in direct ucx; do
        SSHMEM_LOCAL=$path timeout -k 5 60 "$oshrun" -np 4 "$build/test/pe/put_get" >/dev/null 2>&1
        SSHMEM_LOCAL=$path timeout -k 5 60 "$oshrun" -np 4 "$build/test/pe/globals" >/dev/null 2>&1
        SSHMEM_LOCAL=$path SSHMEM_PES_PER_NODE=2 timeout -k 5 60 "$oshrun" -np 4 \
            "$build/test/pe/atomics" >/dev/null 2>&1
        for how in segv kill global_exit; do
            SSHMEM_LOCAL=$path timeout -k 5 60 "$oshrun" -np 4 "$build/test/pe/crash" $how \
                >/dev/null 2>&1
        done
    done
    sleep 0.5 # a killed PE's children are reaped by now
    ls -A /dev/shm | sed 's/^/shm /'
    ipcs -m 2>/dev/null | awk '$1 ~ /^0x/ {print "sysv " $0}'
}
if out=$(unshare -m -i --propagation private bash -c "$(declare -f jobs_in_namespace); \
         oshrun='$oshrun' build='$build'; jobs_in_namespace" 2>&1); then
    ! grep -q '^shm ' <<<"$out"; rc=$?
    ok "no /dev/shm entry left after 18 jobs (6 failing)" $rc
    [ $rc -eq 0 ] || note "$(grep '^shm ' <<<"$out" | head)"
    ! grep -q '^sysv ' <<<"$out"; rc=$?
    ok "no SysV shared memory segment left" $rc
    [ $rc -eq 0 ] || note "$(grep '^sysv ' <<<"$out" | head)"
else
    skip "no /dev/shm entry left after jobs" "no private mount/IPC namespace here (unshare -m -i)"
    skip "no SysV shared memory segment left" "no private mount/IPC namespace here (unshare -m -i)"
fi

# ---------------------------------------------------------------- a running sshmem job
hold="$build/test/pe/hold"
as_nobody=""
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
    as_nobody="setpriv --reuid=nobody --regid=$(id -gn nobody) --clear-groups"
fi
job_seq=0
# hold_start ENV...: a 2-PE hold job under TMPDIR=$work; sets hold_bg, hold_oshrun, hold_pes,
# hold_go, hold_log; returns 1 if it did not get ready within 30 s.
hold_start() {
    job_seq=$((job_seq + 1))
    local ready="$work/ready.$job_seq" i
    hold_go="$work/go.$job_seq"
    hold_log="$work/log.$job_seq"
    TMPDIR=$work env "$@" timeout -k 5 90 "$oshrun" -np 2 "$hold" "$ready" "$hold_go" \
        >"$hold_log" 2>&1 &
    hold_bg=$!
    for i in $(seq 3000); do [ -e "$ready" ] && break; sleep 0.01; done
    # oshrun, its guard, and the worker that runs the job and is the PEs' parent
    local launcher guard
    launcher=$(pgrep -P "$hold_bg" -x oshrun | head -1)
    guard=$(pgrep -P "${launcher:-0}" -x oshrun-guard | head -1)
    hold_oshrun=$(pgrep -P "${guard:-0}" -x oshrun | head -1)
    hold_pes=$(pgrep -P "${hold_oshrun:-0}" -x hold | tr '\n' ' ')
    [ -e "$ready" ] && [ -n "$hold_pes" ]
}
hold_end() { touch "$hold_go"; wait "$hold_bg"; }

for cfg in "SSHMEM_LOCAL=" "SSHMEM_LOCAL=ucx" "SSHMEM_LOCAL=ucx UCX_TLS=tcp,self" \
           "SSHMEM_LOCAL=ucx UCX_TLS=sm,self"; do
    if ! hold_start $cfg; then
        ok "[$cfg] a hold job gets ready" 1
        note "$(cat "$hold_log")"
        hold_end
        continue
    fi
    # SysV segments the job's PEs made (creator pid) with any group or other permission.
    open_sysv=""
    for pe in $hold_pes; do
        open_sysv+=$(awk -v p="$pe" '$5 == p && $3 !~ /00$/ {print "shmid " $2 " mode " $3}' \
                     /proc/sysvipc/shm)
    done
    [ -z "$open_sysv" ]; rc=$?
    ok "[$cfg] the PEs' SysV segments are the user's alone (mode 0600)" $rc
    [ $rc -eq 0 ] || note "$open_sysv"
    # With sshmem's own choice of UCX transports (UCX_TLS unset), or a UCX_TLS without sysv,
    # the PEs hold no SysV segment at all, none they made and none they attached: each would
    # count against the host's table (kernel.shmmni) and outlive a PE killed before it let
    # go. Looked at once the job is up (every PE past its first barrier), so no moment of it
    # is missed by timing.
    tls=""
    [[ "$cfg" == *UCX_TLS=* ]] && tls=${cfg##*UCX_TLS=}
    [ -z "$tls" ] && tls=${UCX_TLS:-}
    # SSHMEM_LOCAL=ucx with UCX_TLS unset lets UCX allocate the heap (src/heap/heap.c says
    # why): a SysV segment, 0600 as checked above.
    if [[ "$cfg" == *SSHMEM_LOCAL=ucx* && -z "$tls" ]]; then
        skip "[$cfg] the PEs hold no SysV segment" "SSHMEM_LOCAL=ucx: UCX allocates the heap"
    elif [[ ! "$tls" =~ sysv|sm|all|\^ ]]; then
        held_sysv=""
        for pe in $hold_pes; do
            held_sysv+=$(awk -v p="$pe" '$5 == p {print "shmid " $2 " made by pid " p}' \
                         /proc/sysvipc/shm)$'\n'
            held_sysv+=$(awk -v p="$pe" '$6 ~ /^\/SYSV/ {print "pid " p " maps " $6}' \
                         /proc/"$pe"/maps 2>/dev/null)$'\n'
        done
        held_sysv=$(sed '/^$/d' <<<"$held_sysv")
        [ -z "$held_sysv" ]; rc=$?
        ok "[$cfg] the PEs hold no SysV segment (UCX_TLS ${tls:-unset})" $rc
        [ $rc -eq 0 ] || note "$held_sysv"
    else
        skip "[$cfg] the PEs hold no SysV segment" "UCX_TLS=$tls may name sysv: the user chose"
    fi
    if [ -n "$as_nobody" ]; then
        opened=""
        for pe in $hold_pes; do
            for fd in /proc/"$pe"/fd/*; do
                case "$(readlink "$fd")" in
                /dev/shm/* | *ucx_shm* | /memfd:*)
                    $as_nobody head -c1 "$fd" >/dev/null 2>&1 && opened+=" $fd" ;;
                esac
            done
        done
        [ -z "$opened" ]; ok "[$cfg] nobody cannot open a PE's shared memory file" $?
        [ -z "$opened" ] || note "opened:$opened"
    else
        skip "[$cfg] nobody cannot open a PE's shared memory file" "not root, or no nobody user or setpriv"
    fi
    if command -v ss >/dev/null; then
        listen=""
        for pe in $hold_pes; do
            listen+=$(ss -Hltnp | grep "pid=$pe," | awk '{print $4}' |
                      grep -v '^127\.0\.0\.1:\|^\[::1\]:')
        done
        [ -z "$listen" ]; ok "[$cfg] the PEs listen on no TCP address but loopback" $?
        [ -z "$listen" ] || note "$listen"
    else
        skip "[$cfg] the PEs listen on no TCP address but loopback" "ss (iproute2) not installed"
    fi
    hold_end; rc=$?
    ok "[$cfg] the job ends with status 0 (got $rc)" $rc
    [ $rc -eq 0 ] || note "$(cat "$hold_log")"
done

# ---------------------------------------------------------------- the PMIx server and other users
client="$build/test/launcher/pmix_client"
shim="$build/test/launcher/.libs/claim_uid.so"
if [ -z "$as_nobody" ]; then
    for what in "a PMIx client run as nobody is refused" "one claiming to be root is refused too" \
                "the job still ends with status 0"; do
        skip "$what" "not root, or no nobody user or setpriv"
    done
elif ! hold_start; then
    ok "a hold job gets ready" 1
    note "$(cat "$hold_log")"
    hold_end
else
    cp "$client" "$work/client" && cp "$shim" "$work/claim_uid.so"
    chmod 0755 "$work/client" "$work/claim_uid.so"
    pe0=${hold_pes%% *}
    # What a PE knows of the server (its address, the job's name), as PE 1: everything an
    # intruder would need. The data store files are in oshrun's 0700 directory: the client
    # is told to do without them, as an intruder would.
    mapfile -t penv < <(tr '\0' '\n' <"/proc/$pe0/environ" | grep '^PMIX_' |
                        grep -v 'TMPDIR\|DSTORE\|GDS' | sed 's/^PMIX_RANK=.*/PMIX_RANK=1/')
    intrude() {
        (cd / && env -i PATH=/usr/bin:/bin PMIX_MCA_gds=hash "${penv[@]}" "$@" \
            timeout -k 2 10 $as_nobody "$work/client" --quiet 2>&1)
    }
    out=$(intrude)
    grep -q 'PMIx_Init failed' <<<"$out"; rc=$?
    ok "a PMIx client run as nobody is refused" $rc; [ $rc -eq 0 ] || note "$out"
    out=$(intrude LD_PRELOAD="$work/claim_uid.so")
    grep -q 'PMIx_Init failed' <<<"$out" && grep -q 'refused a connection' "$hold_log"; rc=$?
    ok "one claiming to be root is refused too, and oshrun says so" $rc
    [ $rc -eq 0 ] || note "$out"$'\n'"$(cat "$hold_log")"
    hold_end; rc=$?
    ok "the job still ends with status 0 (got $rc)" $rc
    [ $rc -eq 0 ] || note "$(cat "$hold_log")"
fi

echo "1..$n"
printf '%s\n' "${lines[@]}"
