#!/bin/bash
# memcheck-test.sh: programs that move data through UCX, run under valgrind's memcheck, which
# shows what a correct-looking run hides: a field a call reads before anything set it (the
# engine's `reached` was one: a message's gate read it unset), a read or write past a
# block, a buffer freed while UCX still reads it. Over tcp (SSHMEM_LOCAL=ucx UCX_TLS=tcp,self)
# at 3 and 4 PEs, where every byte a PE receives is written by its own process (UCX's
# handlers), which memcheck sees; on shared memory the peers write behind its back, and every
# read of their data would be reported. Left out: programs whose data has padding bytes no
# one wrote (long double, DOUBLE_INT), which go out in messages as they are. TAP, one line
# per program and PE count; skips where valgrind is not installed.
build="${SSHMEM_TEST_BUILDDIR:-.}"
launcher="${OSHRUN:-oshrun}"
# MEMCHECK_PROGRAMS="a b" and MEMCHECK_NPS="3" run fewer, by hand.
programs=(${MEMCHECK_PROGRAMS:-mpix_reduce_tree mpix_vcoll mpix_vcoll_big mpix_early
          mpix_runahead mpix_large mpix_teams mpix_scan mpix_rma mpix_subarray staged_rma
          staged_types atomics signal wait_until contexts globals coll_team coll_reduce
          coll_early coll_stage_share})
nps=(${MEMCHECK_NPS:-3 4})
# Each run's limit only catches a hang. Under valgrind a program runs tens of times slower
# than alone, and a busy machine stretches that again several times, so the limit is five
# times the suite's per-run limit (SSHMEM_TEST_TIMEOUT, 180 s): far above any run's time,
# loaded or not, and raised with it on a slower machine. Each line says how long its run took.
# For the same reason the programs' own speed checks are off (SSHMEM_TEST_NO_SPEED): a busy
# target served within 70% of its computing time is a claim about the machine, not valgrind's.
limit=$(( ${SSHMEM_TEST_TIMEOUT:-180} * 5 ))
echo "1..$(( ${#programs[@]} * ${#nps[@]} ))"
valgrind=$(command -v valgrind)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
for p in "${programs[@]}"; do
    # A libtool build keeps the real program in .libs beside its wrapper script.
    prog="$build/test/pe/$p" libs=""
    if [ -x "$build/test/pe/.libs/$p" ]; then
        prog="$build/test/pe/.libs/$p" libs="$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    fi
    for np in "${nps[@]}"; do
        n=$((n + 1))
        if [ -z "$valgrind" ]; then
            echo "ok $n - $p np=$np # SKIP valgrind is not installed"
            continue
        fi
        rm -f "$work"/vg.*
        start=$SECONDS
        env ${libs:+LD_LIBRARY_PATH=$libs} SSHMEM_LOCAL=ucx UCX_TLS=tcp,self SSHMEM_TEST_NO_SPEED=1 \
            timeout -k 5 "$limit" "$launcher" -np "$np" "$valgrind" --error-exitcode=99 -q \
            --log-file="$work/vg.%p" "$prog" >"$work/out" 2>&1
        rc=$?
        took="$((SECONDS - start)) s"
        if [ $rc -eq 0 ]; then
            echo "ok $n - $p np=$np: no memcheck error, checks passed ($took)"
        else
            if [ $rc -eq 124 ]; then
                echo "not ok $n - $p np=$np: no end after $limit s: a hang (limit: 5 x SSHMEM_TEST_TIMEOUT)"
            else
                echo "not ok $n - $p np=$np: exit status $rc (99: memcheck found errors; $took)"
            fi
            cat "$work"/vg.* "$work/out" 2>/dev/null | grep -v 'SHM_HUGETLB' | sed 's/^/# /' |
                head -40
        fi
    done
done
