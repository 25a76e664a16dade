#!/bin/bash
# bench/scaling.sh: how collective latency grows with the number of PEs, and with nodes.
# Builds coll_latency (or --bench LIST) with sshmem's oshcc once, runs it at every PE count
# of --nps and every SSHMEM_PES_PER_NODE value of --ks (0: one node, the real host; k: each
# k consecutive PEs are a node, UCX between nodes), and prints one table per k:
#
#   op                  np=2     np=4     np=8    np=16   x(2->16)  log2 ratio
#   barrier_all        0.070    2.600    ...
#
# x(a->b) is the latency at the largest PE count over the smallest; "log2 ratio" is
# log2(b)/log2(a), what a dissemination barrier or a tree would give (latency per round
# constant). More PEs than cores oversubscribe the machine: every extra PE shares a core,
# so figures above the core count measure scheduling as much as the algorithm.
#
#   bench/scaling.sh [--nps "2 4 8 16"] [--ks "0 1 2"] [--env "VAR=VALUE ..."] [bench/run.sh options]
#
# --env sets variables for every run, e.g. --env "UCX_TLS=tcp,self SSHMEM_COLL_BARRIER=hier"
# (an algorithm forced through SSHMEM_COLL_*, the network UCX takes between nodes).
#
# Exit status: 0 when every run succeeded, 1 otherwise.

NPS="2 4 8 16"
KS="0 1 2"
RUN_ENV=
rest=()
while [ $# -gt 0 ]; do
    case $1 in
        --nps) NPS=$2; shift 2 ;;
        --ks) KS=$2; shift 2 ;;
        --env) RUN_ENV=$2; shift 2 ;;
        -h|--help)
            sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
            echo "bench/run.sh options:"
            . "$(dirname "${BASH_SOURCE[0]}")/common.sh"
            bench_usage no
            exit 0 ;;
        *) rest+=("$1"); shift ;;
    esac
done

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
BENCHES=coll_latency
bench_parse_args no "${rest[@]}"
bench_setup_work
bench_resolve_ours || { rm -rf "$WORK"; exit 1; }

failed=0
broken=$(bench_build ours "$OURS_OSHCC")
[ -n "$broken" ] && { echo "# build failed: $broken (see $LOG)"; exit 1; }

# One table of "label value" per (bench, k, np) in $WORK/ours/<b>.k<k>.np<np>.
for b in $BENCHES; do
    for k in $KS; do
        for np in $NPS; do
            NP=$np
            out=$WORK/ours/$b.k$k.np$np
            # shellcheck disable=SC2086  # RUN_ENV is a list of VAR=VALUE words
            ( [ -n "$RUN_ENV" ] && export $RUN_ENV
              export SSHMEM_PES_PER_NODE=$k
              bench_run ours "$OURS_OSHRUN" "$OURS_RUN_ARGS" "$b" "$out" )
            rc=$?
            if [ $rc != 0 ]; then
                echo "# $b np=$np k=$k: $(bench_status_text $rc) (see the log)"
                failed=1
            fi
        done
    done
done

echo "# sshmem scaling: nps=\"$NPS\" ks=\"$KS\"${RUN_ENV:+ env \"$RUN_ENV\"} oshrun=$OURS_OSHRUN ($(nproc) cores)"
for b in $BENCHES; do
    for k in $KS; do
        echo
        if [ "$k" = 0 ]; then echo "# $b, one node (latency_us)"
        else echo "# $b, SSHMEM_PES_PER_NODE=$k: nodes of $k PEs, UCX between them (latency_us)"; fi
        files=()
        for np in $NPS; do files+=("$WORK/ours/$b.k$k.np$np"); done
        awk -v nps="$NPS" '
            BEGIN { n = split(nps, np, " ") }
            FNR == 1 { f++ }
            /^#/ || NF < 2 { next }
            { if (!($1 in seen)) { seen[$1] = 1; order[++rows] = $1 }; v[$1, f] = $2 }
            END {
                printf "%-24s", "op"
                for (i = 1; i <= n; i++) printf " %10s", "np=" np[i]
                printf " %10s %10s\n", "x(" np[1] "->" np[n] ")", "log2 ratio"
                for (r = 1; r <= rows; r++) {
                    op = order[r]; printf "%-24s", op
                    for (i = 1; i <= n; i++) printf " %10s", ((op, i) in v) ? v[op, i] : "-"
                    a = v[op, 1]; z = v[op, n]
                    if (a > 0 && z > 0) printf " %10.1f", z / a; else printf " %10s", "-"
                    if (np[1] > 1) printf " %10.1f\n", log(np[n]) / log(np[1]); else printf " %10s\n", "-"
                }
            }' "${files[@]}"
    done
done
echo
bench_cleanup_work $failed
exit $failed
