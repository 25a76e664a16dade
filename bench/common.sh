# bench/common.sh: option parsing, building and running shared by bench/run.sh and
# bench/compare.sh. It is sourced, not run; it needs bash.
#
# "ours" is sshmem, "other" is the implementation compared against (by default Debian's
# Open MPI OpenSHMEM, from `apt-get install openmpi-bin libopenmpi-dev`).

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BENCH_ALL="put_latency get_latency put_bw get_bw msg_rate atomic_latency barrier_latency coll_latency"

# ---------------------------------------------------------------- defaults
NP=2
OURS_PREFIX=/usr/local
OURS_BUILD=
OURS_SRC=$(cd "$BENCH_DIR/.." && pwd)
OURS_OSHCC=
OURS_OSHRUN=
OURS_RUN_ARGS=
OTHER_OSHCC=/usr/bin/oshcc
OTHER_OSHRUN=/usr/bin/oshrun
# Open MPI refuses to run as root without the first, 2 PEs on fewer cores need the second,
# and without the third every program segfaults in shmem_finalize.
OTHER_RUN_ARGS="--allow-run-as-root --oversubscribe --mca btl ^openib"
OTHER_NAME=openmpi-oshmem
TIMEOUT=120
REPS=1
BENCH_ARGS=
BENCHES=$BENCH_ALL
WORK=
KEEP=0
CFLAGS_BENCH="-O2"

bench_usage() {
    local with_other=$1
    cat <<EOF
usage: $(basename "$0") [options]
  -np N                  number of PEs (default 2; PE 0 measures, PE 1 is the target)
  --ours-prefix DIR      sshmem installed under DIR: DIR/bin/oshcc, DIR/bin/oshrun
                         (default /usr/local)
  --ours-build DIR       sshmem build tree instead: DIR/oshrun, DIR/.libs/libsshmem.so,
                         headers from SRC/include (SRC: --ours-src, default this checkout)
  --ours-src DIR         source tree whose include/ goes with --ours-build
  --ours-oshcc PATH      compiler wrapper for "ours" (overrides prefix / build)
  --ours-oshrun PATH     launcher for "ours" (overrides prefix / build)
  --ours-run-args STR    extra launcher arguments for "ours", before -np
EOF
    if [ "$with_other" = yes ]; then
        cat <<EOF
  --other-oshcc PATH     compiler wrapper of the other implementation (default /usr/bin/oshcc)
  --other-oshrun PATH    its launcher (default /usr/bin/oshrun)
  --other-run-args STR   its launcher arguments before -np
                         (default "$OTHER_RUN_ARGS")
  --other-name NAME      its column title (default openmpi-oshmem)
  --reps N               run each pair N times, alternating, and keep each row's best
                         value (lowest time, highest rate); default 1
  --nps "2 4 8"          every PE count in turn (instead of -np)
EOF
    fi
    cat <<EOF
  --bench LIST           only these benchmarks (comma-separated; default all:
                         ${BENCH_ALL// /,})
  --bench-args STR       arguments for every benchmark program, e.g. "--max-size 64K"
  --timeout SEC          limit for each program run (default 120)
  --workdir DIR          build and log there (default: a new directory under /tmp)
  --keep                 keep the work directory (it is always kept when something failed)
  -h, --help
EOF
}

# Parse the command line into the variables above. $1: "yes" when the other-* options are
# accepted (compare.sh), then the arguments.
bench_parse_args() {
    local with_other=$1
    shift
    while [ $# -gt 0 ]; do
        local opt=$1
        case $opt in
            -h|--help) bench_usage "$with_other"; exit 0 ;;
            --keep) KEEP=1; shift; continue ;;
        esac
        if [ $# -lt 2 ]; then
            echo "$(basename "$0"): $opt needs a value (see --help)" >&2
            exit 2
        fi
        local val=$2
        case $opt in
            -np|--np|-n) NP=$val ;;
            --ours-prefix) OURS_PREFIX=$val ;;
            --ours-build) OURS_BUILD=$val ;;
            --ours-src) OURS_SRC=$val ;;
            --ours-oshcc) OURS_OSHCC=$val ;;
            --ours-oshrun) OURS_OSHRUN=$val ;;
            --ours-run-args) OURS_RUN_ARGS=$val ;;
            --bench) BENCHES=${val//,/ } ;;
            --bench-args) BENCH_ARGS=$val ;;
            --timeout) TIMEOUT=$val ;;
            --workdir) WORK=$val ;;
            *)
                case "$with_other:$opt" in
                    yes:--other-oshcc) OTHER_OSHCC=$val ;;
                    yes:--other-oshrun) OTHER_OSHRUN=$val ;;
                    yes:--other-run-args) OTHER_RUN_ARGS=$val ;;
                    yes:--other-name) OTHER_NAME=$val ;;
                    yes:--reps) REPS=$val ;;
                    *) echo "$(basename "$0"): unknown option $opt (see --help)" >&2; exit 2 ;;
                esac ;;
        esac
        shift 2
    done
    case $NP in ''|*[!0-9]*) echo "$(basename "$0"): -np needs a number" >&2; exit 2 ;; esac
    case $REPS in ''|*[!0-9]*|0) echo "$(basename "$0"): --reps needs a number >= 1" >&2; exit 2 ;; esac
    local b
    for b in $BENCHES; do
        [ -f "$BENCH_DIR/$b.c" ] || { echo "$(basename "$0"): no benchmark $b" >&2; exit 2; }
    done
}

# Create the work directory and the log; set LOG.
bench_setup_work() {
    if [ -z "$WORK" ]; then
        WORK=$(mktemp -d /tmp/sshmem-bench.XXXXXX)
    else
        mkdir -p "$WORK"
    fi
    WORK=$(cd "$WORK" && pwd)
    LOG=$WORK/log.txt
    : > "$LOG"
}

# At the end: remove the work directory unless asked to keep it or something failed ($1 = 1).
bench_cleanup_work() {
    if [ "$KEEP" = 1 ] || [ "$1" != 0 ]; then
        echo "# work directory kept: $WORK (build and run log: $LOG)"
    else
        rm -rf "$WORK"
    fi
}

# Decide how "ours" is compiled and launched; sets OURS_CC_CMD and OURS_RUN_CMD, or prints
# why it cannot and returns 1.
bench_resolve_ours() {
    if [ -n "$OURS_BUILD" ] && [ -z "$OURS_OSHCC" ]; then
        # A build tree has no usable oshcc (the generated one points at the install
        # prefix), so write a small wrapper: headers from the source tree, the library
        # from DIR/.libs, found at run time through an rpath.
        local build
        build=$(cd "$OURS_BUILD" 2>/dev/null && pwd) || {
            echo "sshmem build tree $OURS_BUILD does not exist" >&2; return 1; }
        if [ ! -e "$build/.libs/libsshmem.so" ]; then
            echo "no $build/.libs/libsshmem.so: is $build an sshmem build tree after make?" >&2
            return 1
        fi
        OURS_OSHCC=$WORK/ours-oshcc
        {
            echo '#!/bin/sh'
            echo "# oshcc for the sshmem build tree $build"
            printf 'exec %s -I"%s/include" -I"%s/include" "$@" -L"%s/.libs" -Wl,-rpath,"%s/.libs" -lsshmem\n' \
                "${CC:-cc}" "$OURS_SRC" "$build" "$build" "$build"
        } > "$OURS_OSHCC"
        chmod +x "$OURS_OSHCC"
        [ -n "$OURS_OSHRUN" ] || OURS_OSHRUN=$build/oshrun
    fi
    [ -n "$OURS_OSHCC" ] || OURS_OSHCC=$OURS_PREFIX/bin/oshcc
    [ -n "$OURS_OSHRUN" ] || OURS_OSHRUN=$OURS_PREFIX/bin/oshrun
    local f
    for f in "$OURS_OSHCC" "$OURS_OSHRUN"; do
        if [ ! -x "$f" ]; then
            echo "sshmem's $(basename "$f") not found at $f; install sshmem (make install) or" \
                 "point at it with --ours-prefix, --ours-build or --ours-oshcc/--ours-oshrun" >&2
            return 1
        fi
    done
    return 0
}

# The helper source a benchmark is linked with: the MPI-style layer's programs (mpix_bench
# with sshmem, mpix_mpi with MPI) share the library-neutral row driver mpix_rows.c, the
# others bench_util.c.
bench_helper_source() {
    case $1 in
        mpix_*) echo mpix_rows.c ;;
        *) echo bench_util.c ;;
    esac
}

# bench_build TAG OSHCC: compile every selected benchmark into $WORK/TAG/.
# Compiler output goes to the log. Prints the names that failed to build on stdout.
bench_build() {
    local tag=$1 cc=$2 b
    mkdir -p "$WORK/$tag"
    for b in $BENCHES; do
        echo "=== build $tag $b: $cc $CFLAGS_BENCH ..." >> "$LOG"
        if ! "$cc" $CFLAGS_BENCH -o "$WORK/$tag/$b" "$BENCH_DIR/$b.c" \
                "$BENCH_DIR/$(bench_helper_source "$b")" >> "$LOG" 2>&1; then
            echo "$b"
        fi
    done
}

# bench_run TAG OSHRUN "RUN_ARGS" BENCH OUTFILE: run one benchmark under timeout; its table
# goes to OUTFILE, its stderr (and the launcher's) to the log. Returns the exit status
# (124 or 137: timed out).
bench_run() {
    local tag=$1 run=$2 args=$3 b=$4 out=$5 rc
    echo "=== run $tag $b: $run $args -np $NP $b $BENCH_ARGS" >> "$LOG"
    # shellcheck disable=SC2086  # the argument strings are meant to split on spaces
    timeout -k 10 "$TIMEOUT" "$run" $args -np "$NP" "$WORK/$tag/$b" $BENCH_ARGS \
        < /dev/null > "$out" 2>> "$LOG"
    rc=$?
    echo "=== exit status $rc" >> "$LOG"
    return $rc
}

# A short phrase for an exit status.
bench_status_text() {
    case $1 in
        124|137) echo "timed out after ${TIMEOUT}s" ;;
        *) echo "exited with status $1" ;;
    esac
}
