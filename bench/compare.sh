#!/bin/bash
# bench/compare.sh: run the sshmem micro-benchmarks with sshmem and with another OpenSHMEM
# (by default Debian's Open MPI OSHMEM) in the same run, and print one side-by-side table per
# benchmark on stdout:
#
#   # size/label   sshmem   openmpi-oshmem   ratio
#
# ratio > 1 always means sshmem is better: for times (columns ending in _us) it is
# other/sshmem, for bandwidths and rates sshmem/other.
#
#   bench/compare.sh [-np N | --nps "2 4 8"] [--ours-prefix DIR | --ours-build DIR | --ours-oshcc P --ours-oshrun P]
#                    [--other-oshcc PATH] [--other-oshrun PATH] [--other-run-args STR]
#                    [--reps N] [--bench LIST] [--bench-args STR] [--timeout SEC] [--keep]
#
# Every program is built twice in a temporary directory (build output goes to its log),
# then for each benchmark sshmem's binary and the other one run one after the other, each
# under `timeout`. When the other implementation is missing, sshmem's numbers are printed
# alone with the reason. --nps runs the whole set at each PE count in turn (one table per
# benchmark and count). See bench/README.md.
# Exit status: 0 when every sshmem benchmark built and ran cleanly, 1 otherwise.

NPS=
args=()
while [ $# -gt 0 ]; do
    case $1 in
        --nps) NPS=$2; shift 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

bench_parse_args yes "${args[@]}"
[ -n "$NPS" ] || NPS=$NP
bench_setup_work
bench_resolve_ours || { rm -rf "$WORK"; exit 1; }

# ---------------------------------------------------------------- is the other one there?
have_other=1
why_no_other=
for f in "$OTHER_OSHCC" "$OTHER_OSHRUN"; do
    if [ ! -x "$f" ]; then
        have_other=0
        why_no_other="$f not found (for Open MPI: apt-get install openmpi-bin libopenmpi-dev)"
        break
    fi
done

# ---------------------------------------------------------------- build both sets
broken_ours=$(bench_build ours "$OURS_OSHCC")
broken_other=
[ $have_other = 1 ] && broken_other=$(bench_build other "$OTHER_OSHCC")

in_list() { printf '%s\n' $2 | grep -qx "$1"; }

# ---------------------------------------------------------------- merge tables
# merge_tables HAVE_OTHER FILES...: the files are $WORK/ours/*.out.* and $WORK/other/*.out.*
# runs of one benchmark. Each row keeps its best value over the repetitions (lowest time,
# highest rate) and gets a ratio. Rows are printed in the order they first appear.
merge_tables() {
    local with_other=$1
    shift
    awk -v with_other="$with_other" -v other_name="$OTHER_NAME" -v np="$NP" -v reps="$REPS" '
    function fmt(v) { return v >= 1e5 ? sprintf("%.0f", v) : sprintf("%.3f", v) }
    function better(a, b) { return lower ? (a < b) : (a > b) }
    FNR == 1 { side = (FILENAME ~ /\/ours\//) ? "ours" : "other" }
    /^# sshmem-bench / { name = $3; next }
    /^#/ { lastcol1 = $2; lastcol2 = $3; next }
    NF >= 2 {
        if (valcol == "") {
            keycol = lastcol1; valcol = lastcol2
            lower = (valcol ~ /_us$/)
        }
        key = $1; v = $2 + 0
        if (!(key in seen)) { seen[key] = 1; order[++n] = key }
        k = side SUBSEP key
        if (!(k in best) || better(v, best[k])) best[k] = v
    }
    END {
        if (n == 0) exit
        if (with_other) {
            how = lower ? (other_name "/sshmem") : ("sshmem/" other_name)
            printf "# sshmem-bench %s: %s, np=%s, best of %s; ratio = %s (>1: sshmem is better)\n", \
                name, valcol, np, reps, how
            printf "# %-18s %14s %16s %8s\n", keycol, "sshmem", other_name, "ratio"
        } else {
            printf "# sshmem-bench %s: %s, np=%s, best of %s\n", name, valcol, np, reps
            printf "# %-18s %14s\n", keycol, "sshmem"
        }
        for (i = 1; i <= n; i++) {
            key = order[i]
            o = ("ours" SUBSEP key) in best; t = ("other" SUBSEP key) in best
            ov = o ? fmt(best["ours" SUBSEP key]) : "n/a"
            if (!with_other) { printf "%-20s %14s\n", key, ov; continue }
            tv = t ? fmt(best["other" SUBSEP key]) : "n/a"
            r = "n/a"
            if (o && t) {
                a = best["ours" SUBSEP key]; b = best["other" SUBSEP key]
                if (lower && a > 0) r = sprintf("%.2f", b / a)
                else if (!lower && b > 0) r = sprintf("%.2f", a / b)
            }
            printf "%-20s %14s %16s %8s\n", key, ov, tv, r
        }
    }' "$@"
}

# ---------------------------------------------------------------- run and print
echo "# sshmem vs ${OTHER_NAME}: np=${NPS// /,}, reps=$REPS, $(date '+%Y-%m-%d %H:%M:%S'), $(nproc) cpus"
echo "# ratio > 1 means sshmem is better (times: ${OTHER_NAME}/sshmem; bandwidths and rates:" \
     "sshmem/${OTHER_NAME}). Compare ratios within one run, not absolute numbers across runs."
echo "# sshmem:  $OURS_OSHCC; $OURS_OSHRUN $OURS_RUN_ARGS"
if [ $have_other = 1 ]; then
    echo "# ${OTHER_NAME}: $OTHER_OSHCC; $OTHER_OSHRUN $OTHER_RUN_ARGS"
else
    echo "# ${OTHER_NAME} is not available: $why_no_other; showing sshmem alone"
fi

failed=0   # an sshmem benchmark failed: the exit status
trouble=0  # anything failed, either side
for NP in $NPS; do
for b in $BENCHES; do
    echo
    notes=()
    run_ours=1 run_other=$have_other
    if in_list "$b" "$broken_ours"; then
        run_ours=0; failed=1; notes+=("# sshmem: $b did not build (see the log)")
    fi
    if [ $have_other = 1 ] && in_list "$b" "$broken_other"; then
        run_other=0; notes+=("# ${OTHER_NAME}: $b did not build (see the log)")
    fi
    files=()
    for ((rep = 1; rep <= REPS; rep++)); do
        # The two implementations alternate, so slow drifts of the machine hit both alike.
        if [ $run_ours = 1 ]; then
            out=$WORK/ours/$b.np$NP.out.$rep
            bench_run ours "$OURS_OSHRUN" "$OURS_RUN_ARGS" "$b" "$out"
            rc=$?
            files+=("$out")
            if [ $rc != 0 ]; then
                failed=1; notes+=("# sshmem: $b $(bench_status_text $rc) (see the log)")
            fi
        fi
        if [ $run_other = 1 ]; then
            out=$WORK/other/$b.np$NP.out.$rep
            bench_run other "$OTHER_OSHRUN" "$OTHER_RUN_ARGS" "$b" "$out"
            rc=$?
            files+=("$out")
            if [ $rc != 0 ]; then
                notes+=("# ${OTHER_NAME}: $b $(bench_status_text $rc) (see the log)")
            fi
        fi
    done
    table=
    [ ${#files[@]} -gt 0 ] && table=$(merge_tables $have_other "${files[@]}")
    if [ -n "$table" ]; then
        echo "$table"
    else
        echo "# sshmem-bench $b: no results"
    fi
    for n in "${notes[@]}"; do echo "$n"; done
    [ ${#notes[@]} -gt 0 ] && trouble=1
done
done
echo
bench_cleanup_work $trouble  # keeps the work directory and its log when anything failed
exit $failed
