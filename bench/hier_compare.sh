#!/bin/bash
# bench/hier_compare.sh: node-aware collectives (hier) against the flat algorithms that
# `auto` ran across nodes before them, on emulated nodes (SSHMEM_PES_PER_NODE).
# Runs bench/coll_latency of a build tree alternately with every collective forced flat
# (barrier dissem, reduce rd, bcast knomial, fcollect bruck) and forced hier, --reps times
# each, and prints the median of each row and flat/hier (above 1: hier is faster):
#
#   op                        flat_us    hier_us  flat/hier
#   barrier_all               796.186    254.635       3.13
#
#   bench/hier_compare.sh [--build _build] [--np 8] [--k 4] [--reps 7] [--tls tcp,self]
#
# --tls sets UCX_TLS ("" keeps UCX's default: its shared-memory transports then carry the
# traffic between emulated nodes too, and node mates map each other's heaps; with tcp,self
# nodes talk over TCP and hier maps node mates' heaps inside a node for itself alone).
# Exit status: 0 when every run succeeded, 1 otherwise.
BUILD=_build NP=8 K=4 REPS=7 TLS=tcp,self
while [ $# -gt 0 ]; do
    case $1 in
        --build) BUILD=$2; shift 2 ;;
        --np) NP=$2; shift 2 ;;
        --k) K=$2; shift 2 ;;
        --reps) REPS=$2; shift 2 ;;
        --tls) TLS=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "hier_compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$BUILD/oshrun" ] && [ -x "$BUILD/bench/coll_latency" ] || {
    echo "hier_compare.sh: $BUILD/oshrun or $BUILD/bench/coll_latency missing; run make in $BUILD" >&2
    exit 2
}
FLAT="SSHMEM_COLL_BARRIER=dissem SSHMEM_COLL_REDUCE=rd SSHMEM_COLL_BCAST=knomial SSHMEM_COLL_FCOLLECT=bruck"
HIER="SSHMEM_COLL_BARRIER=hier SSHMEM_COLL_REDUCE=hier SSHMEM_COLL_BCAST=hier SSHMEM_COLL_FCOLLECT=hier"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for i in $(seq 1 "$REPS"); do
    for mode in flat hier; do
        [ $mode = flat ] && forced=$FLAT || forced=$HIER
        env ${TLS:+UCX_TLS=$TLS} SSHMEM_PES_PER_NODE="$K" $forced timeout 300 \
            "$BUILD/oshrun" -np "$NP" "$BUILD/bench/coll_latency" --budget 0.15 \
            >"$out/$mode.$i" 2>&1 || { echo "# run $i ($mode) failed:" >&2; tail -5 "$out/$mode.$i" >&2; status=1; }
    done
done
echo "# $NP PEs, nodes of $K, UCX_TLS=${TLS:-default}, medians of $REPS interleaved runs (latency_us)"
printf '%-24s %10s %10s %10s\n' op flat_us hier_us flat/hier
for mode in flat hier; do
    cat "$out"/$mode.* | awk -v m=$mode '!/^#/ && NF == 2 && $2 + 0 > 0 { print m, $1, $2 }'
done | sort -k2,2 -k1,1 -k3,3g | awk '
    { key = $2 SUBSEP $1; v[key, ++n[key]] = $3; rows[$2] = 1 }
    function median(key,   c) { c = n[key]; return c % 2 ? v[key, (c + 1) / 2] : (v[key, c / 2] + v[key, c / 2 + 1]) / 2 }
    END { for (r in rows) { f = median(r SUBSEP "flat"); h = median(r SUBSEP "hier");
          printf "%-24s %10.2f %10.2f %10.2f\n", r, f, h, (h > 0 ? f / h : 0) } }' | sort
exit $status
