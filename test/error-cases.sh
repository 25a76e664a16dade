# error-cases.sh: sourced by the *errors-test.sh scripts. Runs a program once per mistake
# and checks, as TAP, its exit status and that its message names the PE, the call and the fix.
#
#   cases=("name|ENV=value ...|status|pattern|pattern...")   status: a number, or nz = non-zero;
#                                                   "@S" after it: and the job ends within S s
#                                                   (more on a busy machine: busy.sh)
#   run_error_cases PROGRAM [NPES]
# Each case runs `oshrun -np NPES PROGRAM name` (default 3 PEs; NPES=k among a case's
# variables sets it for that case) with the environment given;
# every pattern must appear (fixed strings) in what the job printed. A hang (timeout) fails.
. "$(dirname "${BASH_SOURCE[0]}")/busy.sh" # a "within S s" grows on a busy machine

run_error_cases() {
    local prog="$1" np="${2:-3}" launcher="${OSHRUN:-oshrun}" n=0 c name env want rc log
    echo "1..$(( ${#cases[@]} * 2 ))"
    for c in "${cases[@]}"; do
        IFS='|' read -r -a f <<<"$c"
        name="${f[0]}" env="${f[1]}" want="${f[2]%@*}" within=""
        [[ "${f[2]}" == *@* ]] && within="${f[2]#*@}"
        log=$(mktemp)
        local start=$SECONDS took case_np="$np" tok
        for tok in $env; do [[ "$tok" == NPES=* ]] && case_np="${tok#NPES=}"; done
        env $env timeout -k 2 30 "$launcher" -np "$case_np" "$prog" "$name" >"$log" 2>&1
        rc=$? took=$((SECONDS - start))
        [ -n "$within" ] && within=$(busy_allowance "$within")
        n=$((n + 1))
        if { { [ "$want" = nz ] && [ $rc -ne 0 ] && [ $rc -ne 124 ]; } || [ "$rc" = "$want" ]; } &&
            { [ -z "$within" ] || [ "$took" -le "$within" ]; }; then
            echo "ok $n - $name $env: exit status $rc${within:+ after $took s (at most $within)}"
        else
            echo "not ok $n - $name $env: exit status $rc (expected $want)${within:+ after $took s (at most $within)}"
        fi
        n=$((n + 1))
        local missing="" p
        for p in "${f[@]:3}"; do
            [ -z "$p" ] || grep -qF -- "$p" "$log" || missing="$missing [$p]"
        done
        if [ -z "$missing" ]; then
            echo "ok $n - $name $env: message names the PE, the call and the fix"
        else
            echo "not ok $n - $name $env: message lacks$missing"
            sed 's/^/# /' "$log" | head -10
        fi
        rm -f "$log"
    done
}
