#!/bin/bash
# launcher-external-test.sh: oshrun --launcher mpirun|prterun|srun (and OSHRUN_LAUNCHER).
# The command lines oshrun builds are checked with --dry-run (no launcher needed); the jobs
# themselves run under Open MPI's mpirun when it is installed (a TAP skip otherwise). TAP.
build="${SSHMEM_TEST_BUILDDIR:-.}"
oshrun="${OSHRUN:-$build/oshrun}"
hello="$build/examples/hello"
n=0
lines=()
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then lines+=("ok $n - $1"); else lines+=("not ok $n - $1"); fi; }
skip() { n=$((n + 1)); lines+=("ok $n - $1 # SKIP $2"); }
same() { # what, expected, actual
    [ "$2" = "$3" ]; local rc=$?
    ok "$1" $rc
    [ $rc -eq 0 ] || lines+=("# expected: $2" "# got:      $3")
}
root=""; [ "$(id -u)" -eq 0 ] && root=" --allow-run-as-root"

# ---------------------------------------------------------------- command lines
out=$(OSHRUN_LAUNCHER= "$oshrun" --launcher=mpirun --dry-run -np 4 -x A=1 -x B=x=y --tag-output \
      --timeout 30.5 --bind-to none "$hello" arg1 arg2)
same "mpirun: -np, root, oversubscribe, tag, timeout, bind, -x" \
     "mpirun -np 4$root --oversubscribe --tag-output --timeout 31 --bind-to none -x A=1 -x B=x=y $hello arg1 arg2" "$out"
out=$("$oshrun" --launcher mpirun --dry-run -np 8 --hostfile hosts.txt "$hello")
same "mpirun --hostfile: no --oversubscribe unless asked" "mpirun -np 8$root --hostfile hosts.txt $hello" "$out"
out=$("$oshrun" --launcher mpirun --dry-run -np 8 --host a,b --oversubscribe "$hello")
same "mpirun --host with --oversubscribe" "mpirun -np 8$root --oversubscribe --host a,b $hello" "$out"
out=$(OSHRUN_LAUNCHER=prterun "$oshrun" --dry-run -np 2 --tag-output --hostfile hf -x V=1 "$hello")
same "OSHRUN_LAUNCHER=prterun" "prterun -np 2$root --hostfile hf --output tag -x V=1 $hello" "$out"
out=$("$oshrun" --launcher srun --dry-run -np 4 --nodes 2 --nodelist n[1-2] --tag-output \
      --timeout 90 --bind-to core -x A=1 -x B=2 "$hello")
same "srun: pmix, -n, -N, nodelist, label, time in minutes, cpu-bind, export" \
     "srun --mpi=pmix -n 4 -N 2 --nodelist n[1-2] --label --time=2 --cpu-bind=cores --export=ALL,A=1,B=2 $hello" "$out"
out=$(OSHRUN_LAUNCHER=mpirun "$oshrun" --launcher oshrun --dry-run -np 2 "$hello")
grep -q "^oshrun runs 2 PEs" <<<"$out"; ok "--launcher oshrun overrides OSHRUN_LAUNCHER" $?

# ---------------------------------------------------------------- usage errors
err=$("$oshrun" -np 2 --hostfile hf "$hello" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "add --launcher mpirun" <<<"$err"; ok "--hostfile without a launcher is a usage error" $?
err=$("$oshrun" --launcher srun -np 2 --host a "$hello" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "not an option for --launcher srun" <<<"$err"; ok "--host with srun is a usage error" $?
err=$(OSHRUN_LAUNCHER=mpich "$oshrun" -np 2 "$hello" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "OSHRUN_LAUNCHER 'mpich'" <<<"$err"; ok "an unknown OSHRUN_LAUNCHER is a usage error" $?
err=$("$oshrun" --launcher srun -np 2 -x "A=1,2" "$hello" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "comma" <<<"$err"; ok "srun: a value with a comma is refused" $?
err=$(PATH=/nonexistent "$oshrun" --launcher prterun -np 2 "$hello" 2>&1); rc=$?
[ $rc -eq 127 ] && grep -q "cannot run 'prterun'" <<<"$err"; ok "a missing launcher is reported (exit $rc)" $?

# ---------------------------------------------------------------- jobs under mpirun
if ! command -v mpirun >/dev/null; then
    for t in "hello np=2" "hello np=4" "put_get np=2" "put_get np=4" "atomics np=2" \
             "atomics np=4" "OSHRUN_LAUNCHER=mpirun put_get" "-x and --tag-output" "exit status"; do
        skip "mpirun: $t" "mpirun not installed (Debian: openmpi-bin)"
    done
else
    run() { timeout -k 5 120 "$oshrun" "$@" >"$log" 2>&1; }
    log=$(mktemp)
    for prog in examples/hello test/pe/put_get test/pe/atomics; do
        for np in 2 4; do
            run --launcher=mpirun -np $np "$build/$prog"; rc=$?
            ok "mpirun: ${prog##*/} np=$np (exit $rc)" $rc
            [ $rc -eq 0 ] || mapfile -t -O ${#lines[@]} lines < <(sed 's/^/# /' "$log" | head -20)
        done
    done
    OSHRUN_LAUNCHER=mpirun timeout -k 5 120 "$oshrun" -np 3 "$build/test/pe/put_get" >"$log" 2>&1
    ok "OSHRUN_LAUNCHER=mpirun put_get np=3 (exit $?)" $?
    run --launcher=mpirun -np 2 --tag-output -x SSHMEM_EXT_TEST=passed sh -c 'echo "$SSHMEM_EXT_TEST"'
    [ "$(grep -c '^\[1,[01]\]<stdout>:passed$' "$log")" -eq 2 ]
    ok "mpirun: -x reaches the PEs and --tag-output tags their lines" $?
    run --launcher=mpirun -np 2 sh -c 'exit 3'; rc=$?
    [ $rc -ne 0 ]; ok "mpirun: a failing PE fails the job (exit $rc)" $?
    rm -f "$log"
fi

echo "1..$n"
printf '%s\n' "${lines[@]}"
