#!/bin/bash
# security-test.sh: what oshrun leaves open to other users of the host, looked at while a job
# runs (from inside the job: the PE's parent is oshrun):
#   - its temporary directory is the user's own, mode 0700, with nothing world-writable in it
#   - the PMIx server listens on 127.0.0.1 only (ss; skipped without it)
#   - after jobs that end well and badly, nothing is left in /dev/shm or SysV shared memory
#     (checked in private mount and IPC namespaces, so other jobs on the host do not count;
#     skipped where unshare is not allowed). TAP output.
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

echo "1..$n"
printf '%s\n' "${lines[@]}"
