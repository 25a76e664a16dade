#!/bin/bash
# weak-suite.sh full|quick [PROGRAM...]: multi-PE test programs under the weak-ordering mode
# (SSHMEM_WEAK=SEED, src/sync/weak.c), where puts, signals, non-fetching atomics and _nbi
# operations land late and out of order as the memory model allows. A correctly synchronised
# program passes under every seed; a missing fence or quiet fails for some. TAP output, then
# one line "N passed, N failed, N skipped".
#
#   full  (make check-weak): every PROGRAM named (the Makefile passes all of pe_tests) with
#         seed 1 at the runner's PE counts on every path (direct, ucx, tcp) and with
#         SSHMEM_PES_PER_NODE=2; the collective, MPI-style, signal and lock programs also with
#         seeds 2-8 at 2 and 4 PEs, each seed on one path in turn.
#   quick (make test, through test/pe/weak-test.sh): a few programs that cover each kind of
#         held operation, seeds 1-3 at 2 and 4 PEs, within about three minutes.
# Each program runs through test/run-test.sh (its timeouts and per-program run sets).
mode="${1:-quick}"
shift
srcdir=$(cd "${SSHMEM_TEST_SRCDIR:-.}" && pwd)
builddir=$(cd "${SSHMEM_TEST_BUILDDIR:-.}" && pwd)
runner="$srcdir/test/run-test.sh"
paths=(direct ucx tcp)
many_seeds='coll_|mpix_|signal|lock|heat|gatherv|ring'

n=0 pass=0 fail=0 skip=0 last_failed=""
# run PROGRAM SEED PATHS NPS [VAR=value...]: one runner call; its TAP lines, renumbered and
# tagged with the seed.
run() {
    local prog="$1" seed="$2" p="$3" nps="$4"
    shift 4
    local line
    while IFS= read -r line; do
        case "$line" in
            "ok "*|"not ok "*) ;;
            "#"*) [ -n "$last_failed" ] && echo "$line"; continue ;;
            *) continue ;;
        esac
        n=$((n + 1))
        last_failed=""
        local rest="${line#*ok }"
        rest="${rest#* - }"
        if [[ "$line" == "not ok "* ]]; then
            fail=$((fail + 1))
            last_failed=1
            echo "not ok $n - $rest [SSHMEM_WEAK=$seed${*:+ $*}]"
        elif [[ "$line" == *"# SKIP"* ]]; then
            skip=$((skip + 1))
            echo "ok $n - $rest"
        else
            pass=$((pass + 1))
            echo "ok $n - $rest [SSHMEM_WEAK=$seed${*:+ $*}]"
        fi
    done < <(cd "$builddir" && env SSHMEM_TEST_SRCDIR="$srcdir" SSHMEM_WEAK="$seed" \
                 SSHMEM_TEST_PATHS="$p" SSHMEM_TEST_NP="$nps" "$@" bash "$runner" "./$prog" 2>&1)
}

if [ "$mode" = full ]; then
    programs=("$@")
    for prog in "${programs[@]}"; do
        run "$prog" 1 "direct ucx tcp" "${SSHMEM_TEST_NP:-1 2 3 4 8}"
        run "$prog" 1 "direct" "4" SSHMEM_PES_PER_NODE=2
        [[ "$prog" =~ $many_seeds ]] || continue
        for seed in 2 3 4 5 6 7 8; do
            run "$prog" "$seed" "${paths[seed % 3]}" "2 4"
        done
    done
else
    programs=(test/pe/signal test/pe/lock test/pe/put_get test/pe/atomics test/pe/pe_quiet
              test/pe/globals test/pe/wait_set test/pe/contexts test/pe/coll_to_all
              test/pe/coll_reduce test/pe/mpix_rma test/pe/mpix_vcoll examples/heat
              examples/ring examples/histogram examples/work_queue)
    for prog in "${programs[@]}"; do
        for seed in 1 2 3; do
            run "$prog" "$seed" "${paths[seed % 3]}" "2 4"
        done
    done
fi
echo "1..$n"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
