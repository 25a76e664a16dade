#!/bin/bash
# netns-test.sh: a job over several "hosts" on one machine. Each host is a network namespace
# with one veth (sheth0, an address 10.X.Y.i/24) on a bridge in a further namespace, where
# mpirun runs (oshrun --launcher mpirun --hostfile with the hosts' addresses). mpirun reaches
# the hosts through netns-rsh.sh, its "ssh", which enters the namespace (and a UTS namespace
# named after it); Open MPI's daemons there serve PMIx to the PEs, and UCX goes between hosts
# over tcp on sheth0. Runs test/pe/multihost (hosts, shmem_ptr, SHMEM_TEAM_SHARED, put/get,
# atomics, collectives, bulk traffic) at 1+1, 2+2 and 2+1+2 PEs, put_get, atomics and
# coll_team at 2+2, mpix_early and mpix_vcoll at 2+2+2, a card fetch that a stopped daemon never
# answers (launcher_silent at 2+2), and checks that each PE ran in the
# namespace it was given and that the bulk traffic crossed every veth.
# Nothing is created in the machine's own network namespace: the whole test runs in a private
# mount namespace (its own temporary directory and /dev/shm, its namespace names invisible outside), and a
# trap removes the namespaces and their processes on every exit; the outer half then checks
# that no namespace, process, /dev/shm or temporary entry is left. Root only: exit 77 (a skip) when
# not root, without mpirun, unshare or ip, or when namespaces cannot be made (a container).
# TAP output.
build="${SSHMEM_TEST_BUILDDIR:-.}"
src="${SSHMEM_TEST_SRCDIR:-..}"
oshrun="${OSHRUN:-$build/oshrun}"
# The real host boundaries are what is tested: no emulated nodes (SSHMEM_PES_PER_NODE, which
# would split a host further) and the direct path inside a host (a suite run with either set
# still runs this test as it is meant).
unset SSHMEM_PES_PER_NODE SSHMEM_LOCAL
# Absolute paths: the jobs run from other namespaces and mount namespaces.
build=$(cd "$build" && pwd) src=$(cd "$src" && pwd) oshrun=$(realpath "$oshrun")

skip_all() {
    echo "1..0 # SKIP $1"
    echo "netns-test.sh: skipped: $1" >&2
    exit 77
}

# ================================================================ inner half (private mounts)
if [ -n "$NETNS_TEST_INNER" ]; then
    tag="sshns$NETNS_TEST_INNER"   # the outer PID: unique on this machine
    head="${tag}h0"                 # mpirun's namespace, with the bridge
    hosts_ns=("${tag}h1" "${tag}h2" "${tag}h3")
    pid=$NETNS_TEST_INNER
    # Varies with the PID; the addresses exist only inside our namespaces, so they cannot clash
    # with the machine's networks (nor with another run's: each has its own bridge).
    subnet="10.$((200 + pid % 50)).$(((pid / 50) % 250 + 1))"
    made=()
    out() { echo "$@"; }
    ok() { if [ "$2" -eq 0 ]; then out "ok - $1"; else out "not ok - $1"; fi; }
    note() { sed 's/^/# /' <<<"$1" | head -${2:-20}; }

    # Ends every process of our namespaces (politely, then not), then the namespaces.
    cleanup() {
        local ns pids i
        for i in 1 2 3 4 5 6 7 8 9 10; do
            pids=$(for ns in "${made[@]}"; do ip netns pids "$ns" 2>/dev/null; done)
            [ -z "$pids" ] && break
            # shellcheck disable=SC2086
            kill -s $([ $i -le 5 ] && echo TERM || echo KILL) $pids 2>/dev/null
            sleep 0.5
        done
        for ns in "${made[@]}"; do ip netns del "$ns" 2>/dev/null; done
        made=()
    }
    trap cleanup EXIT
    trap 'exit 143' TERM INT HUP

    # Our own /dev/shm, and our own temporary directory T (a tmpfs on the empty directory the
    # outer half made: not over /tmp, where the build tree may live) for oshrun, Open MPI's
    # session directories (TMPDIR) and the job logs.
    T=$NETNS_TEST_TMP
    mount -t tmpfs -o mode=1777 tmpfs /dev/shm && mount -t tmpfs -o mode=1777 tmpfs "$T" ||
        { out "not ok - private $T and /dev/shm (mount tmpfs)"; exit 1; }
    export TMPDIR=$T

    add_ns() {
        ip netns add "$1" && made+=("$1") && ip -n "$1" link set lo up &&
            out "inode $1 $(stat -L -c %i "/run/netns/$1")"
    }
    setup() {
        add_ns "$head" || return 1
        ip -n "$head" link add br0 type bridge && ip -n "$head" addr add "$subnet.254/24" dev br0 &&
            ip -n "$head" link set br0 up || return 1
        local i=1 ns
        for ns in "${hosts_ns[@]}"; do
            add_ns "$ns" &&
                ip -n "$head" link add "v$i" type veth peer name sheth0 netns "$ns" &&
                ip -n "$head" link set "v$i" master br0 up &&
                ip -n "$ns" addr add "$subnet.$i/24" dev sheth0 &&
                ip -n "$ns" link set sheth0 up || return 1
            i=$((i + 1))
        done
    }
    if ! setup 2>$T/setup.err; then # not in a subshell: cleanup must know what was made
        out "not ok - namespaces, bridge and veths on $subnet.0/24"
        note "$(cat $T/setup.err)"
        exit 1
    fi
    ok "namespaces $head..h3, bridge and veths on $subnet.0/24" 0

    rsh_hosts=""
    for i in 1 2 3; do rsh_hosts="$rsh_hosts $subnet.$i=${hosts_ns[$((i - 1))]}"; done
    tx_bytes() { ip netns exec "$1" cat /sys/class/net/sheth0/statistics/tx_bytes; }
    log=$T/job.log # the job's output; its errors in $log.err
    # UCX between hosts: tcp on sheth0, and nothing else. Not sm: the namespaces share the
    # machine's memory, /dev/shm and PIDs, and UCX would use shared memory between "hosts".
    tls=tcp,self
    job_output() { cat "$log" "$log.err"; }

    # run_job "SLOTS..." PROGRAM ARGS: PEs on hosts 1.. with those slot counts.
    run_job() {
        local slots=($1) np=0 i
        shift
        : >$T/hostfile
        for i in "${!slots[@]}"; do
            echo "$subnet.$((i + 1)) slots=${slots[$i]}" >>$T/hostfile
            np=$((np + slots[i]))
        done
        ip netns exec "$head" unshare --uts sh -c 'hostname "$0" && exec "$@"' "$head" \
            env OMPI_MCA_plm_rsh_agent="bash $src/test/pe/netns-rsh.sh" \
            OMPI_MCA_plm_rsh_no_tree_spawn=1 OMPI_MCA_oob_tcp_if_include="$subnet.0/24" \
            OMPI_MCA_orte_leave_session_attached=1 \
            NETNS_RSH_HOSTS="$rsh_hosts" \
            timeout -k 5 60 "$oshrun" --launcher mpirun --hostfile $T/hostfile -np "$np" \
            -x UCX_TLS="$tls" -x UCX_NET_DEVICES=sheth0 "$@" >"$log" 2>"$log.err" &
        wait $! # (in the background so that a TERM to this script is handled at once)
        local rc=$?
        grep -h 'UCX  ERROR' "$log" "$log.err" >>$T/ucx-errors
        return $rc
    }

    # The multihost program on these hosts: its verdict, where its PEs ran, the veth traffic.
    big=$((1 << 20))
    multihost() {
        local slots=($1) label="${1// /+} ($tls)" i before=() after rc
        for i in "${!slots[@]}"; do before[$i]=$(tx_bytes "${hosts_ns[$i]}"); done
        run_job "$1" "$build/test/pe/multihost" "${#slots[@]}" "$big"
        rc=$?
        ok "multihost $label PEs on ${#slots[@]} hosts (exit $rc)" $rc
        [ $rc -eq 0 ] || note "$(job_output)"
        # Each PE says "multihost: PE n host NAME netns INODE": NAME must be a namespace of the
        # hostfile with as many PEs as its slots, INODE that namespace's.
        local bad="" name ino count
        for i in "${!slots[@]}"; do
            name=${hosts_ns[$i]}
            ino=$(stat -L -c %i "/run/netns/$name")
            count=$(grep -c "^multihost: PE [0-9]* host $name netns $ino\$" "$log")
            [ "$count" -eq "${slots[$i]}" ] || bad="$bad $name:$count/${slots[$i]}"
        done
        [ "$(grep -c '^multihost: PE ' "$log")" -eq $((${1// /+})) ] || bad="$bad (other lines)"
        [ -z "$bad" ]; ok "multihost $label: every PE in its host's namespace and UTS name" $?
        [ -z "$bad" ] || note "PEs per namespace (found/expected):$bad"
        bad=""
        for i in "${!slots[@]}"; do
            after=$(tx_bytes "${hosts_ns[$i]}")
            [ $((after - before[i])) -ge $big ] || bad="$bad ${hosts_ns[$i]}:$((after - before[i]))"
        done
        [ -z "$bad" ]; ok "multihost $label: at least $big bytes left every host over its veth" $?
        [ -z "$bad" ] || note "bytes sent on sheth0:$bad"
    }
    multihost "1 1"
    multihost "2 2"
    multihost "2 1 2"

    for prog in put_get atomics coll_team; do
        run_job "2 2" "$build/test/pe/$prog"
        rc=$?
        ok "$prog on 2+2 PEs over 2 hosts (exit $rc)" $rc
        [ $rc -eq 0 ] || note "$(job_output)"
    done
    # The MPI-style collectives where node mates use loads and stores and the hosts reach
    # each other by tcp messages, in one team: both kinds of write in one call.
    for prog in mpix_early mpix_vcoll; do
        run_job "2 2 2" "$build/test/pe/$prog"
        rc=$?
        ok "$prog on 2+2+2 PEs over 3 hosts (exit $rc)" $rc
        [ $rc -eq 0 ] || note "$(job_output)"
    done

    # A launcher that stops answering: PE 0 first reaches PE 3, on the other host, while the
    # daemon serving PMIx on PE 0's host is stopped. The card fetch must give up after
    # SSHMEM_HANG_TIMEOUT and end the job with a message naming the call and the peer.
    silent=$T/silent
    mkdir -p $silent
    run_job "2 2" -x SSHMEM_HANG_TIMEOUT=2 "$build/test/pe/launcher_silent" $silent &
    job=$!
    for i in $(seq 1200); do [ -e $silent/ready ] || ! kill -0 $job 2>/dev/null && break; sleep 0.05; done
    daemon=$(ip netns pids "${hosts_ns[0]}" | xargs -r ps -o pid=,comm= -p | awk '$2 == "orted" {print $1}')
    [ -n "$daemon" ] && kill -STOP $daemon
    touch $silent/go
    for i in $(seq 200); do [ -e $silent/reached ] || grep -qs 'no answer from the launcher' "$log" "$log.err" && break; sleep 0.05; done
    [ -n "$daemon" ] && kill -CONT $daemon
    wait $job
    rc=$?
    [ -e $silent/ready ] && [ -n "$daemon" ] && [ $rc -ne 0 ] && [ ! -e $silent/reached ] &&
        grep -qs "PMIx Get of PE 3's address.*no answer from the launcher after 2 s" "$log" "$log.err"
    ok "a card fetch the launcher does not answer gives up after SSHMEM_HANG_TIMEOUT and ends the job, naming the call and the peer (exit $rc)" $?
    [ $rc -ne 0 ] && [ ! -e $silent/reached ] || note "$(job_output)"

    # Not a failure (the jobs passed), but worth seeing: what UCX complained about.
    [ -s $T/ucx-errors ] &&
        note "UCX errors logged by jobs that passed: $(wc -l <$T/ucx-errors), e.g.
$(sort -u -k4 $T/ucx-errors | head -3)"

    # After the jobs: no process left in the namespaces (Open MPI's daemons end with mpirun),
    # nothing in /dev/shm, no Open MPI session directory in its TMPDIR.
    left=""
    for i in 1 2 3 4 5 6 7 8 9 10; do
        left=$(for ns in "${made[@]}"; do ip netns pids "$ns"; done)
        [ -z "$left" ] && break
        sleep 0.3
    done
    [ -z "$left" ]; ok "no process left in the namespaces after the jobs" $?
    [ -z "$left" ] || note "$(ps -o pid,args -p "${left//$'\n'/,}")"
    shm=$(ls -A /dev/shm)
    [ -z "$shm" ]; ok "no /dev/shm entry left" $?
    [ -z "$shm" ] || note "$shm"
    sess=$(ls -d $T/ompi.* 2>/dev/null)
    [ -z "$sess" ]; ok "no Open MPI session directory left in its TMPDIR" $?
    [ -z "$sess" ] || note "$sess"
    exit 0
fi

# ================================================================ outer half
[ "$(id -u)" -eq 0 ] || skip_all "needs root (it makes network namespaces and veths)"
for cmd in ip unshare mpirun timeout; do
    command -v "$cmd" >/dev/null || skip_all "'$cmd' not found (Debian: iproute2, util-linux, openmpi-bin, coreutils)"
done
[ -x "$build/test/pe/multihost" ] || skip_all "$build/test/pe/multihost is not built (make check builds it)"
# Can we make a namespace and links in it? (Not in a container without CAP_SYS_ADMIN and
# CAP_NET_ADMIN, for one.)
probe="sshns$$probe"
err=$( (ip netns add "$probe" && ip -n "$probe" link set lo up &&
        ip -n "$probe" link add pa type veth peer name pb) 2>&1)
rc=$?
ip netns del "$probe" 2>/dev/null
[ $rc -eq 0 ] || skip_all "cannot make a network namespace with links (${err//$'\n'/ }); no CAP_SYS_ADMIN or CAP_NET_ADMIN, e.g. in a container?"
unshare -m --propagation private true 2>/dev/null ||
    skip_all "cannot make a private mount namespace (unshare -m)"

links_before=$(ip -o link show | wc -l)
tmp=$(mktemp)
priv=$(mktemp -d) # the inner half mounts its private tmpfs here (seen only inside)
NETNS_TEST_INNER=$$ NETNS_TEST_TMP=$priv unshare -m --propagation private bash "$0" >"$tmp" 2>&1 &
inner_pid=$!
trap 'kill -TERM $inner_pid 2>/dev/null; wait $inner_pid; rm -f "$tmp"; rmdir "$priv"; exit 143' TERM INT HUP
wait $inner_pid
inner=$(cat "$tmp")
rm -f "$tmp"
rmdir "$priv"
trap - TERM INT HUP

n=0
lines=()
inodes=()
while IFS= read -r line; do
    case "$line" in
        "inode "*) inodes+=("${line##* }") ;;
        "ok - "*|"not ok - "*)
            n=$((n + 1))
            lines+=("${line%% - *} $n - ${line#* - }") ;;
        *) lines+=("# ${line#\# }") ;;
    esac
done <<<"$inner"
[ ${#inodes[@]} -gt 0 ] || { n=$((n + 1)); lines+=("not ok $n - the inner half reported no namespace"); }

# Every namespace is gone: no process in it (lsns lists each namespace a process is in).
pattern=$(IFS='|'; echo "${inodes[*]}")
left=$(lsns -t net -n -o NS,PID,COMMAND 2>/dev/null | grep -E "^ *($pattern) ")
[ -z "$left" ]; n=$((n + 1)); lines+=("$([ -z "$left" ] || echo "not ")ok $n - no network namespace of the test left")
[ -z "$left" ] || lines+=("# $left")
ip netns list | grep -q "sshns$$"; rc=$((!$?))
n=$((n + 1)); lines+=("$([ $rc -eq 0 ] || echo "not ")ok $n - no namespace name of the test left")
[ "$(ip -o link show | wc -l)" -eq "$links_before" ]; rc=$?
n=$((n + 1)); lines+=("$([ $rc -eq 0 ] || echo "not ")ok $n - no link added to the machine's own namespace")

echo "1..$n"
printf '%s\n' "${lines[@]}"
