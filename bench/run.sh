#!/bin/bash
# bench/run.sh: build every sshmem micro-benchmark with sshmem's oshcc, run each under
# sshmem's oshrun, and print their tables on stdout (build and launcher noise go to a log).
#
#   bench/run.sh [-np N] [--ours-prefix DIR | --ours-build DIR | --ours-oshcc P --ours-oshrun P]
#                [--bench LIST] [--bench-args STR] [--timeout SEC] [--keep]
#
# See bench/README.md; bench/compare.sh puts the same tables next to another implementation.
# Exit status: 0 when every benchmark built and ran cleanly, 1 otherwise.

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

bench_parse_args no "$@"
bench_setup_work
bench_resolve_ours || { rm -rf "$WORK"; exit 1; }

failed=0
broken=$(bench_build ours "$OURS_OSHCC")
echo "# sshmem benchmarks: np=$NP  oshcc=$OURS_OSHCC  oshrun=$OURS_OSHRUN"
for b in $BENCHES; do
    echo
    if printf '%s\n' $broken | grep -qx "$b"; then
        echo "# sshmem-bench $b: build failed (see the log)"
        failed=1
        continue
    fi
    out=$WORK/ours/$b.out
    bench_run ours "$OURS_OSHRUN" "$OURS_RUN_ARGS" "$b" "$out"
    rc=$?
    cat "$out"
    if [ $rc != 0 ]; then
        echo "# sshmem-bench $b: $(bench_status_text $rc) (see the log)"
        failed=1
    fi
done
echo
bench_cleanup_work $failed
exit $failed
