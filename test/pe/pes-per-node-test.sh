#!/bin/bash
# pes-per-node-test.sh: SSHMEM_PES_PER_NODE=k makes one host look like several nodes of k PEs
# (direct load/store inside a group, UCX between groups, UCX atomics everywhere). Runs a few
# multi-PE tests with k=1 and k=2 at 2, 3 and 4 PEs on the direct and tcp paths (through
# run-test.sh), then checks SHMEM_INFO's report, the rejection of a malformed k, and the UCX
# settings sshmem makes (no warning; the tcp send buffer only where tcp may run). TAP output.
build="${SSHMEM_TEST_BUILDDIR:-.}"
src="${SSHMEM_TEST_SRCDIR:-..}"
oshrun="${OSHRUN:-$build/oshrun}"
programs="test/pe/put_get test/pe/atomics test/pe/globals test/pe/busy_target test/pe/pes_per_node"
ks="1 2"
nps="2 3 4"
paths="direct tcp"

n=0
lines=()
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then lines+=("ok $n - $1"); else lines+=("not ok $n - $1"); fi; }

for k in $ks; do
    for prog in $programs; do
        # run-test.sh prints its own plan and numbers; keep the verdicts, renumber them.
        while IFS= read -r line; do
            case "$line" in
                "ok "*|"not ok "*)
                    n=$((n + 1))
                    verdict="${line%% [0-9]*}"
                    rest="${line#* [0-9]* - }"
                    [[ "$line" == "not ok"* ]] && verdict="not ok"
                    lines+=("$verdict $n - SSHMEM_PES_PER_NODE=$k $rest") ;;
                "#"*) lines+=("$line") ;;
            esac
        done < <(SSHMEM_PES_PER_NODE=$k SSHMEM_TEST_NP="$nps" SSHMEM_TEST_PATHS="$paths" \
                 OSHRUN="$oshrun" SSHMEM_TEST_SRCDIR="$src" bash "$src/test/run-test.sh" "$build/$prog")
    done
done

out=$(SSHMEM_PES_PER_NODE=2 SHMEM_INFO=1 timeout 60 "$oshrun" -np 4 "$build/examples/hello" 2>&1)
grep -q "^nodes: 2 (SSHMEM_PES_PER_NODE groups), atomics: all through UCX" <<<"$out"
ok "SHMEM_INFO reports 2 nodes and UCX atomics for k=2 at np=4" $?
# The host's CPUs are shared by all its virtual nodes: 4 PEs crowd a host of fewer CPUs (the
# library counts the CPUs online, as getconf does; nproc would count only those allowed).
cpus=$(getconf _NPROCESSORS_ONLN)
if [ "$cpus" -lt 4 ]; then want="^waits: yield the CPU at once (this host runs 4 PEs on"
else want="^waits: spin [0-9]* polls, then yield the CPU (this host runs 4 PEs on"; fi
grep -q "$want" <<<"$out"
ok "SHMEM_INFO counts the PEs of every virtual node on the host, k=2 at np=4 ($cpus CPUs)" $?
out=$(SSHMEM_PES_PER_NODE=4 SHMEM_INFO=1 timeout 60 "$oshrun" -np 4 "$build/examples/hello" 2>&1)
grep -q "^nodes: 1 (SSHMEM_PES_PER_NODE groups), atomics: CPU on-node" <<<"$out"
ok "SHMEM_INFO reports 1 node and CPU atomics for k=4 at np=4" $?
out=$(SSHMEM_PES_PER_NODE=two timeout 60 "$oshrun" -np 2 "$build/examples/hello" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "SSHMEM_PES_PER_NODE='two' is not valid: expected a whole number" <<<"$out"
ok "a malformed SSHMEM_PES_PER_NODE is rejected with a message (exit $rc)" $?

# Settings sshmem gives UCX (src/transport/ucx_defaults.c) must not reach a user's UCX_TLS that
# has no use for them: UCX prints a warning at every start for those. UCX_TLS values that name
# tcp, leave it in, or leave it out.
for tls in unset tcp,self all ^sm sm,self ^tcp; do
    if [ "$tls" = unset ]; then tls_env=(-u UCX_TLS); else tls_env=(UCX_TLS="$tls"); fi
    out=$(env "${tls_env[@]}" SSHMEM_PES_PER_NODE=2 timeout 60 "$oshrun" -np 4 \
          "$build/examples/hello" 2>&1)
    rc=$?
    warned=$(grep -m1 "UCX  WARN" <<<"$out")
    [ $rc -eq 0 ] && [ -z "$warned" ]
    ok "UCX_TLS $tls, k=2: no UCX warning at start-up (exit $rc)${warned:+: $warned}" $?
done

# The tcp send buffer (src/transport/ucx_defaults.c) goes to UCX where tcp may run, and only
# there, and a UCX_TCP_SNDBUF the user sets wins. UCX's debug log says what it applied; a UCX
# built without debug logging says nothing, and the checks are skipped.
applied() { # ENV...: "yes" if UCX applied sshmem's SNDBUF, "no" if not, "" if UCX logs no debug
    local out
    out=$(env "$@" UCX_LOG_LEVEL=debug SSHMEM_LOCAL=ucx timeout 60 "$oshrun" -np 2 \
          "$build/examples/hello" 2>&1)
    grep -q "UCX  DEBUG" <<<"$out" || return 0
    if grep -q "apply UCT configuration SNDBUF=256k" <<<"$out"; then echo yes; else echo no; fi
}
for case in "yes UCX_TLS=tcp,self" "no UCX_TLS=tcp,self UCX_TCP_SNDBUF=auto" "no -u UCX_TLS" \
            "no UCX_TLS=sm,self"; do
    want=${case%% *} setting=${case#* }
    got=$(applied $setting)
    if [ -z "$got" ]; then
        lines+=("# skipped: UCX logs no debug lines here")
        continue
    fi
    [ "$got" = "$want" ]
    ok "$setting (one host, through UCX): sshmem's tcp send buffer applied: $got (want $want)" $?
done

echo "1..$n"
printf '%s\n' "${lines[@]}"
