#!/bin/bash
# run-test.sh PROGRAM: run one test binary and report TAP (one line per run).
#   test/unit/*  : a CMocka test, run once, TAP from CMocka itself.
#   otherwise    : a multi-PE test, run under oshrun at every PE count of SSHMEM_TEST_NP
#                  (default "1 2 3 4 8") on every path of SSHMEM_TEST_PATHS (default
#                  "direct ucx tcp"): direct = on-node load/store, ucx = SSHMEM_LOCAL=ucx,
#                  tcp = SSHMEM_LOCAL=ucx with UCX_TLS=tcp,self. Every run has a timeout.
#   A test binary exits 77 to say "this configuration does not apply" (a TAP skip).
#   A test may ask for more runs with extra environment variables, one set per line
#   "sshmem-test-env: [np=N,N..] [paths=P,P..] VAR=value ..." in its source (used to force
#   each collective algorithm); np= and paths= narrow that set's runs.
prog="$1"
name="${prog#./}"
launcher="${SSHMEM_TEST_LAUNCHER:-${OSHRUN:-oshrun}}"
# A run's limit only catches a hang, never a slow machine. make -j2 check is itself a busy
# machine (two tests at once, 8 PEs oversubscribing the cores), where the longest runs take a
# good part of a minute, and beside another job they take several times as long: so the
# limit is minutes, and SSHMEM_TEST_TIMEOUT (seconds) raises it on a slower machine.
timeout_s="${SSHMEM_TEST_TIMEOUT:-180}"

if [[ "$prog" == *.sh ]]; then
    # A script that does not apply here prints "1..0 # SKIP why" and exits 77: a skip.
    # This limit only catches a script that hangs: each run a script makes has a limit of
    # its own, and how long a whole script takes is no measure of anything. On a busy
    # machine (make -j2 check runs two tests at once on 2 cores, perhaps beside other jobs) a
    # script takes several times as long as it does alone, and memcheck-test.sh takes
    # minutes alone under valgrind: so the limit is many times that, and
    # SSHMEM_TEST_SCRIPT_TIMEOUT (seconds) raises it on a slower machine.
    script_timeout="${SSHMEM_TEST_SCRIPT_TIMEOUT:-1800}"
    timeout -k 10 "$script_timeout" bash "$prog"
    rc=$?
    [[ $rc -eq 124 ]] &&
        echo "# $name: ended after ${script_timeout} s: it hung, or this machine needs a" \
             "larger SSHMEM_TEST_SCRIPT_TIMEOUT"
    [[ $rc -eq 77 ]] && exit 0
    exit $rc
fi
if [[ "$prog" == */unit/* ]]; then
    CMOCKA_MESSAGE_OUTPUT=TAP exec timeout "$timeout_s" "$prog"
fi

# Some tests say which PE counts they need in a line "sshmem-test: np=2 3 4" of their source.
src="${SSHMEM_TEST_SRCDIR:-.}/${name}.c"
nps="${SSHMEM_TEST_NP:-1 2 3 4 8}"
if [[ -f "$src" ]] && line=$(grep -o 'sshmem-test: np=[0-9 ]*' "$src"); then
    nps="${line#*np=}"
fi
paths="${SSHMEM_TEST_PATHS:-direct ucx tcp}"

# Run sets: "np|paths|env": the plain one, then one per sshmem-test-env line.
sets=("$nps|$paths|")
if [[ -f "$src" ]]; then
    while IFS= read -r line; do
        s_np="$nps" s_paths="$paths" s_env=""
        for tok in ${line#*sshmem-test-env:}; do
            case "$tok" in
                np=*) s_np="${tok#np=}"; s_np="${s_np//,/ }" ;;
                paths=*) s_paths="${tok#paths=}"; s_paths="${s_paths//,/ }" ;;
                *=*) s_env="$s_env $tok" ;;
            esac
        done
        sets+=("$s_np|$s_paths|$s_env")
    done < <(grep -o 'sshmem-test-env:.*' "$src")
fi

n=0
plan=0
for set in "${sets[@]}"; do
    IFS='|' read -r s_np s_paths s_env <<<"$set"
    plan=$(( plan + $(wc -w <<<"$s_np") * $(wc -w <<<"$s_paths") ))
done
echo "1..$plan"
for set in "${sets[@]}"; do
    IFS='|' read -r s_np s_paths s_env <<<"$set"
    for path in $s_paths; do
        case "$path" in
            direct) env=(SSHMEM_LOCAL=direct) ;;
            ucx)    env=(SSHMEM_LOCAL=ucx) ;;
            tcp)    env=(SSHMEM_LOCAL=ucx UCX_TLS=tcp,self) ;;
        esac
        env+=($s_env)
        for np in $s_np; do
            n=$((n + 1))
            log=$(mktemp)
            start=$(date +%s.%N)
            env "${env[@]}" timeout -k 5 "$timeout_s" "$launcher" -np "$np" "$prog" >"$log" 2>&1
            rc=$?
            secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
            desc="$name np=$np path=$path${s_env:+ }${s_env# } (${secs}s)"
            if [[ $rc -eq 0 ]]; then
                echo "ok $n - $desc"
            elif [[ $rc -eq 77 ]]; then
                echo "ok $n - $desc # SKIP $(grep -m1 -o 'SKIP.*' "$log")"
            else
                [[ $rc -eq 124 ]] && desc="$desc TIMED OUT after ${timeout_s}s"
                echo "not ok $n - $desc (exit $rc)"
                sed 's/^/# /' "$log" | head -40
            fi
            rm -f "$log"
        done
    done
done
