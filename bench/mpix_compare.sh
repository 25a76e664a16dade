#!/bin/bash
# bench/mpix_compare.sh: the MPI-style layer (shmemx.h) beside sshmem's native routines and
# beside an MPI library, in one run, as one table with the ratios of issue 11's targets.
#
# Builds bench/mpix_bench.c with sshmem and bench/mpix_mpi.c with mpicc (when mpicc exists),
# then, --reps times, alternating sshmem and MPI so slow drifts of the machine hit both:
#   - the collective rows at every PE count of --nps, on each path of --coll-paths
#     (default direct), and with MPI on the same transport (mpi_path_args);
#   - the vector rows at 2 PEs on each path of --vector-paths (default: direct ucx tcp),
#     and with MPI on the same transport.
# Paths: direct (the default on-node path), ucx (SSHMEM_LOCAL=ucx: every PE through UCX, as
# between hosts), tcp (SSHMEM_LOCAL=ucx UCX_TLS=tcp,self: UCX over TCP, a real network).
# Each run prints medians of interleaved rounds; this script prints, per row, the median
# over the --reps runs.
#
# Every ratio is a cost ratio: shmemx's time over the other's (for MB/s rows, the other's
# rate over shmemx's), so <= 1 means shmemx is as fast or faster, and a target reads
# directly ("x/native <= 1.2"). The last column names the targets a row misses.
#
#   bench/mpix_compare.sh [--nps "2 4"] [--coll-paths "direct"] [--vector-paths "direct ucx tcp"]
#                         [--reps N] [--mpicc PATH] [--mpirun PATH] [--mpirun-args STR]
#                         [--ours-build DIR | --ours-prefix DIR | ...] [--bench-args STR] ...
#
# --bench-args go to both programs (e.g. "--rounds 5 --batch-time 0.005"). See bench/README.md.
# Exit status: 0 when every sshmem run built, ran and checked its results, 1 otherwise.

NPS="2 4"
COLL_PATHS="direct"
VECTOR_PATHS="direct ucx tcp"
rest=()
while [ $# -gt 0 ]; do
    case $1 in
        --nps) NPS=$2; shift 2 ;;
        --coll-paths) COLL_PATHS=$2; shift 2 ;;
        --vector-paths) VECTOR_PATHS=$2; shift 2 ;;
        --mpicc) rest+=(--other-oshcc "$2"); shift 2 ;;
        --mpirun) rest+=(--other-oshrun "$2"); shift 2 ;;
        --mpirun-args) rest+=(--other-run-args "$2"); shift 2 ;;
        -h|--help)
            sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
            echo
            echo "Options shared with bench/compare.sh. Here --other-* name the MPI side (default"
            echo "mpicc, mpirun --allow-run-as-root --oversubscribe), --reps takes the median of the"
            echo "runs (default 3), and -np and --bench do not apply:"
            . "$(dirname "${BASH_SOURCE[0]}")/common.sh"
            bench_usage yes
            exit 0 ;;
        *) rest+=("$1"); shift ;;
    esac
done

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# The "other" implementation is an MPI library here (Debian's Open MPI by default).
OTHER_OSHCC=$(command -v mpicc || echo /usr/bin/mpicc)
OTHER_OSHRUN=$(command -v mpirun || echo /usr/bin/mpirun)
OTHER_RUN_ARGS="--allow-run-as-root --oversubscribe"
OTHER_NAME=mpi
REPS=3
bench_parse_args yes "${rest[@]}"
USER_ARGS=$BENCH_ARGS
bench_setup_work
bench_resolve_ours || { rm -rf "$WORK"; exit 1; }

for p in $COLL_PATHS $VECTOR_PATHS; do
    case $p in direct|ucx|tcp) ;; *) echo "$(basename "$0"): unknown path $p (direct, ucx, tcp)" >&2; exit 2 ;; esac
done

have_mpi=1
why_no_mpi=
for f in "$OTHER_OSHCC" "$OTHER_OSHRUN"; do
    if [ ! -x "$f" ]; then
        have_mpi=0
        why_no_mpi="$f not found (apt-get install openmpi-bin libopenmpi-dev)"
    fi
done

failed=0
broken=$(BENCHES=mpix_bench bench_build ours "$OURS_OSHCC")
if [ -n "$broken" ]; then
    echo "# sshmem: mpix_bench did not build (see $LOG)"
    bench_cleanup_work 1 # keeps the work directory and its log
    exit 1
fi
if [ $have_mpi = 1 ] && [ -n "$(BENCHES=mpix_mpi bench_build other "$OTHER_OSHCC")" ]; then
    have_mpi=0
    why_no_mpi="mpix_mpi did not build with $OTHER_OSHCC (see the log)"
fi

started=$(date '+%Y-%m-%d %H:%M:%S')
notes=()
outs=() # every table written, in run order (the table keeps the order of the paths given)
mkdir -p "$WORK/out"

# run_ours PART PATH NP REP: one mpix_bench run; its table goes to $WORK/out.
run_ours() {
    local part=$1 path=$2 np=$3 rep=$4 out rc
    out=$WORK/out/ours.$part.$path.np$np.$rep
    outs+=("$out")
    case $path in
        direct) NP=$np BENCH_ARGS="--part $part $USER_ARGS" \
                    bench_run ours "$OURS_OSHRUN" "$OURS_RUN_ARGS" mpix_bench "$out" ;;
        ucx) SSHMEM_LOCAL=ucx NP=$np BENCH_ARGS="--part $part $USER_ARGS" \
                 bench_run ours "$OURS_OSHRUN" "$OURS_RUN_ARGS" mpix_bench "$out" ;;
        tcp) SSHMEM_LOCAL=ucx UCX_TLS=tcp,self NP=$np BENCH_ARGS="--part $part $USER_ARGS" \
                 bench_run ours "$OURS_OSHRUN" "$OURS_RUN_ARGS" mpix_bench "$out" ;;
    esac
    rc=$?
    if [ $rc != 0 ]; then
        failed=1
        notes+=("# sshmem: mpix_bench --part $part, $path, np=$np $(bench_status_text $rc) (see the log)")
    fi
}

# MPI on the transport of each path, so that every row compares like with like: direct, its
# own on-node choice (shared memory); ucx, Open MPI's UCX layer on UCX's shared-memory
# transports (as SSHMEM_LOCAL=ucx); tcp, the same over UCX_TLS=tcp,self. (pml_ucx_tls and
# _devices "any": Open MPI 4.1 takes UCX only on RDMA devices unless told otherwise. osc ucx:
# left to itself, Open MPI's one-sided calls take its own shared memory on one host, even
# with UCX_TLS=tcp,self: MPI_Put + flush of the vector measured 1,473-3,545 MB/s "over tcp"
# that way, 0.9 MB/s through osc ucx.)
MPI_UCX="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any --mca osc ucx"
mpi_path_args() {
    case $1 in
        direct) echo "" ;;
        ucx) echo "$MPI_UCX" ;;
        tcp) echo "$MPI_UCX -x UCX_TLS=tcp,self" ;;
    esac
}

# run_mpi PART PATH NP REP: one mpix_mpi run on the transport of PATH.
run_mpi() {
    local part=$1 path=$2 np=$3 rep=$4 out rc
    [ $have_mpi = 1 ] || return 0
    out=$WORK/out/mpi.$part.mpi_$path.np$np.$rep
    outs+=("$out")
    NP=$np BENCH_ARGS="--part $part $USER_ARGS" \
        bench_run other "$OTHER_OSHRUN" "$OTHER_RUN_ARGS $(mpi_path_args "$path")" mpix_mpi "$out"
    rc=$?
    [ $rc = 0 ] || notes+=("# mpi: mpix_mpi --part $part, $path, np=$np $(bench_status_text $rc) (see the log)")
}

for ((rep = 1; rep <= REPS; rep++)); do
    for np in $NPS; do
        for path in $COLL_PATHS; do
            run_ours coll "$path" "$np" "$rep"
            run_mpi coll "$path" "$np" "$rep"
        done
    done
    for path in $VECTOR_PATHS; do
        run_ours vector "$path" 2 "$rep"
        run_mpi vector "$path" 2 "$rep"
    done
done

# ---------------------------------------------------------------- the table
# Input lines "row variant value unit" from files named SIDE.PART.PATH.npN.REP; per
# (row, np, path, variant) the median over the reps. MPI's figures (path "mpi") go beside
# every sshmem path of the same row and PE count.
merge() {
    awk -v reps="$REPS" '
    function median(key,   n, i, j, t, a) {
        n = split(vals[key], a, " ")
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    # the median figure of a variant, or "" when no run printed it
    function fig(row, np, path, v,   k) {
        k = row SUBSEP np SUBSEP path SUBSEP v
        return (k in vals) ? median(k) : ""
    }
    function fmt(x) { return x == "" ? "-" : (x >= 1000 ? sprintf("%.0f", x) : sprintf("%.3g", x)) }
    # cost ratio of shmemx (a) against another figure (b): times a/b, rates b/a
    function ratio(a, b, rate) {
        if (a == "" || b == "" || a <= 0 || b <= 0) return ""
        return rate ? b / a : a / b
    }
    function rfmt(r) { return r == "" ? "-" : sprintf("%.2f", r) }
    function verdict(miss) { return miss == "" ? "ok" : substr(miss, 2) }
    FNR == 1 {
        n = split(FILENAME, parts, "/"); split(parts[n], f, ".")
        path = f[3]; np = substr(f[4], 3)
    }
    /^#/ || NF < 4 { next }
    {
        row = $1
        if (!((row SUBSEP np) in seen)) { seen[row, np] = 1; order[++nrows] = row SUBSEP np }
        if (path !~ /^mpi_/ && !((row SUBSEP np SUBSEP path) in pseen)) {
            pseen[row, np, path] = 1
            paths[row, np] = paths[row, np] " " path
        }
        k = row SUBSEP np SUBSEP path SUBSEP $2
        vals[k] = vals[k] " " $3
        unit[row] = $4
    }
    END {
        print "# collectives: latency_us, median of " reps " runs; cost ratios: shmemx time / other time" \
              " (<= 1: shmemx as fast or faster)"
        print "# native: the OpenSHMEM routine moving the same bytes (maxloc, userop:" \
              " shmem_double_sum_reduce of the same bytes; _private: copy into symmetric" \
              " buffers, reduce, copy out); sum: shmemx SUM on the same bytes"
        print "# targets: x/native <= 1.2 (sum, allgatherv, alltoallv), x/sum <= 2 (maxloc, userop)," \
              " x/mpi <= 1"
        cfmt = "%-22s %3s %-6s %10s %10s %10s %10s %8s %8s %8s  %s\n"
        printf cfmt, "# row", "np", "path", "shmemx", "native", "sum", "mpi", "x/native", "x/sum",
            "x/mpi", "misses"
        for (i = 1; i <= nrows; i++) {
            split(order[i], rn, SUBSEP); row = rn[1]; np = rn[2]
            if (unit[row] != "latency_us") continue
            m = split(paths[row, np], pl, " ")
            for (p = 1; p <= m; p++) {
                path = pl[p]
                x = fig(row, np, path, "shmemx"); nat = fig(row, np, path, "native")
                s = fig(row, np, path, "sum"); mp = fig(row, np, "mpi_" path, "mpi")
                rn_ = ratio(x, nat, 0); rs = ratio(x, s, 0); rm = ratio(x, mp, 0)
                miss = ""
                if (row !~ /maxloc|userop/ && rn_ != "" && rn_ > 1.2) miss = miss " native"
                if (rs != "" && rs > 2) miss = miss " sum"
                if (rm != "" && rm > 1) miss = miss " mpi"
                printf cfmt, row, np, path, fmt(x), fmt(nat), fmt(s), fmt(mp), rfmt(rn_), rfmt(rs),
                    rfmt(rm), verdict(miss)
            }
        }
        print ""
        print "# vector case: MB/s of useful data (higher is better), 2 PEs, median of " reps " runs;" \
              " cost ratios: other MB/s / x MB/s (<= 1: x as fast or faster)"
        print "# shmemx: shmemx_put_type / shmemx_get_type; iput/iget: shmem_double_iput / iget;" \
              " pack: by hand + putmem (getmem + unpack), left packed at the target;" \
              " pk+unpk: pack, put with signal, the target unpacks (the same result as shmemx)"
        print "# mpi: MPI_Send/Recv of the vector type (get: MPI_Get + flush); mpi_put: MPI_Put + flush; one-sided on the ucx and tcp paths through osc ucx (the UCX layer of Open MPI)"
        print "# targets: x/pack <= 1 on every path, shmemx >= 8000 MB/s on the direct path," \
              " i/pack <= 2 through UCX (ucx, tcp)"
        vfmt = "%-22s %-6s %10s %10s %10s %10s %10s %10s %8s %8s %8s %8s  %s\n"
        printf vfmt, "# row", "path", "shmemx", "iput/iget", "pack", "pk+unpk", "mpi", "mpi_put",
            "x/pack", "x/pk+u", "i/pack", "x/mpi", "misses"
        for (i = 1; i <= nrows; i++) {
            split(order[i], rn, SUBSEP); row = rn[1]; np = rn[2]
            if (unit[row] != "MB_per_s") continue
            m = split(paths[row, np], pl, " ")
            for (p = 1; p <= m; p++) {
                path = pl[p]
                x = fig(row, np, path, "shmemx"); pk = fig(row, np, path, "pack")
                pu = fig(row, np, path, "pack_unpack")
                ii = fig(row, np, path, row ~ /put/ ? "iput" : "iget")
                mp = fig(row, np, "mpi_" path, "mpi"); mpp = fig(row, np, "mpi_" path, "mpi_put")
                rx = ratio(x, pk, 1); ri = ratio(ii, pk, 1); rm = ratio(x, mp, 1); ru = ratio(x, pu, 1)
                miss = ""
                if (rx != "" && rx > 1) miss = miss " pack"
                if (path == "direct" && x != "" && x < 8000) miss = miss " 8GB/s"
                if (path != "direct" && ri != "" && ri > 2) miss = miss " i/pack"
                printf vfmt, row, path, fmt(x), fmt(ii), fmt(pk), fmt(pu), fmt(mp), fmt(mpp), rfmt(rx),
                    rfmt(ru), rfmt(ri), rfmt(rm), verdict(miss)
            }
        }
    }' "$@"
}

echo "# shmemx vs native vs ${OTHER_NAME}: nps=\"$NPS\", coll paths \"$COLL_PATHS\", vector paths" \
     "\"$VECTOR_PATHS\", reps=$REPS, started $started, $(nproc) cpus"
echo "# sshmem: $OURS_OSHCC; $OURS_OSHRUN $OURS_RUN_ARGS"
if [ $have_mpi = 1 ]; then
    echo "# mpi: $OTHER_OSHCC; $OTHER_OSHRUN $OTHER_RUN_ARGS;" \
         "$(grep -h '^# library' "$WORK"/out/mpi.* 2>/dev/null | head -1 | sed 's/^# library: //; s/  npes:.*//')"
else
    echo "# MPI is not available: $why_no_mpi; showing sshmem alone"
fi
echo
if [ ${#outs[@]} -gt 0 ]; then merge "${outs[@]}"; else echo "# no results"; fi
for n in "${notes[@]}"; do echo "$n"; done
trouble=$failed
[ ${#notes[@]} -gt 0 ] && trouble=1
bench_cleanup_work $trouble
exit $failed
