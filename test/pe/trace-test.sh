#!/bin/bash
# trace-test.sh: the timeline (oshrun --trace, SSHMEM_TRACE). test/pe/trace_calls makes known
# calls on every PE; test/pe/trace_check reads PATH.json: valid JSON with traceEvents, a
# track per PE, every call of the program present on every PE as often as it was made, the
# arrows of the ring's puts from PE i to PE i+1, of the gets from the PE holding the data,
# of the atomics to PE 0. PATH-timeline.svg must parse (xmllint) with a row per PE, a box
# per call and the arrows; nothing between shmem_pcontrol(0) and (1). Then: SSHMEM_TRACE set
# directly, with oshrun and with no launcher at all, the default name, a full buffer (the
# first calls kept, the rest counted and said once), an unwritable path, and no files
# without the option; and that the recorder wraps every public routine of libsshmem. TAP.
build=$(cd "${SSHMEM_TEST_BUILDDIR:-.}" && pwd)
oshrun="${OSHRUN:-$build/oshrun}"
prog="$build/test/pe/trace_calls"
checker="$build/test/pe/trace_check"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

n=0
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
diag() { sed 's/^/# /' "$@"; }

# What trace_calls does on every PE (see its comment).
rules=(count:shmem_init:1 count:shmem_finalize:1 count:shmem_long_p:3 count:shmem_barrier_all:3
       count:shmem_long_g:1 count:shmem_long_atomic_add:1 count:shmem_long_put_nbi:1
       count:shmem_quiet:1 count:shmem_long_wait_until:1 count:shmem_pcontrol:2
       put:shmem_long_p:1 get:shmem_long_g:-1 to:shmem_long_atomic_add:0 put:shmem_long_put_nbi:1)

check_json() { # prefix np [rules]
    local p=$1 np=$2
    shift 2
    "$checker" "$p.json" "$np" "$@" 2>&1 | head -20 | diag
    [ "${PIPESTATUS[0]}" -eq 0 ]
}

# The SVG parses; a row per PE; at least one box per call; one arrow per transfer between
# different PEs (a call of one PE to itself has none: only np=1).
check_svg() { # prefix np
    local svg="$1-timeline.svg" np=$2
    if command -v xmllint >/dev/null; then
        xmllint --noout "$svg" 2>&1 | diag
        xmllint --noout "$svg" 2>/dev/null || return 1
    else
        grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' "$svg" && tail -1 "$svg" | grep -q '^</svg>$' ||
            { echo "# $svg: no <svg> ... </svg>"; return 1; }
    fi
    local rows boxes arrows
    rows=$(grep -c '<text class="pe"' "$svg")
    boxes=$(grep -c '<rect class="call"' "$svg")
    arrows=$(grep -c '<line class="transfer"' "$svg")
    [ "$rows" -eq "$np" ] && [ "$boxes" -ge "$np" ] && { [ "$np" -eq 1 ] || [ "$arrows" -ge "$np" ]; } ||
        { echo "# $svg: $rows rows, $boxes boxes, $arrows arrows for $np PEs"; return 1; }
}

run_traced() { # dir np [env...] -- oshrun --trace=dir/t
    local d=$1 np=$2
    shift 2
    mkdir -p "$d"
    env "$@" timeout 60 "$oshrun" -np "$np" --trace="$d/t" "$prog" >"$d/out" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || { echo "# exit status $rc"; diag "$d/out"; }
    return $rc
}

echo "1..11"
for np in 2 4; do
    d="$work/np$np"
    run_traced "$d" $np && check_json "$d/t" $np "${rules[@]}" && check_svg "$d/t" $np &&
        [ ! -e "$d/t.part0" ]
    ok "np=$np: every call on every PE, the ring's arrows, a valid SVG, no parts left" $?
done

d="$work/ucx"
run_traced "$d" 3 SSHMEM_LOCAL=ucx UCX_TLS=tcp,self && check_json "$d/t" 3 "${rules[@]}" &&
    check_svg "$d/t" 3
ok "np=3 through UCX over tcp: the same calls and arrows" $?

d="$work/env"; mkdir -p "$d"
SSHMEM_TRACE="$d/e" timeout 60 "$oshrun" -np 2 "$prog" >"$d/out" 2>&1 &&
    check_json "$d/e" 2 "${rules[@]}" && check_svg "$d/e" 2
ok "SSHMEM_TRACE=PATH with oshrun and no option" $?

# No launcher at all: the program starts as one PE; libsshmem brings the recorder in itself.
d="$work/alone"; mkdir -p "$d"
SSHMEM_TRACE="$d/a" timeout 60 "$prog" >"$d/out" 2>&1 &&
    check_json "$d/a" 1 count:shmem_long_p:3 count:shmem_barrier_all:3 to:shmem_long_atomic_add:0 &&
    check_svg "$d/a" 1
rc=$?; [ $rc -eq 0 ] || diag "$d/out"
ok "SSHMEM_TRACE=PATH without a launcher (one PE)" $rc

d="$work/default"; mkdir -p "$d"
(cd "$d" && timeout 60 "$oshrun" -np 2 --trace "$prog" >out 2>&1) &&
    [ -s "$d/sshmem-trace.json" ] && [ -s "$d/sshmem-trace-timeline.svg" ]
ok "oshrun --trace writes sshmem-trace.json and sshmem-trace-timeline.svg in the current directory" $?

"$oshrun" -np 2 --trace= "$prog" >"$work/empty.out" 2>&1
[ $? -eq 2 ] && grep -q "expected a path prefix" "$work/empty.out"
ok "oshrun --trace= is a usage error" $?

# A buffer of 5 events per PE: the first five calls stay, the rest are counted, said once.
d="$work/full"
run_traced "$d" 2 SSHMEM_TRACE_EVENTS=5 && check_json "$d/t" 2 count:shmem_init:1 count:shmem_long_p:1 &&
    grep -q '"events_per_pe_limit":5,"events_recorded":10,"events_dropped":' "$d/t.json" &&
    ! grep -q '"events_dropped":0,' "$d/t.json" &&
    [ "$(grep -c 'calls were not recorded' "$d/out")" -eq 1 ] && check_svg "$d/t" 2
rc=$?; [ $rc -eq 0 ] || diag "$d/out"
ok "a full buffer keeps the first calls, counts the others in otherData, says so once" $rc

d="$work/unwritable"; mkdir -p "$d"
SSHMEM_TRACE="$d/no/such/dir/t" timeout 60 "$oshrun" -np 2 "$prog" >"$d/out" 2>&1 &&
    grep -q "SSHMEM_TRACE: PE 0: cannot write $d/no/such/dir/t.part0: No such file or directory" "$d/out"
rc=$?; [ $rc -eq 0 ] || diag "$d/out"
ok "an unwritable path is a warning naming it and the reason; the job succeeds" $rc

# The public routines are the weak aliases of libsshmem (api_defs.h); the recorder must define
# each one, whatever was added since (its wrappers are generated from pshmem.h and pshmemx.h).
if command -v nm >/dev/null && [ -f "$build/.libs/libsshmem.so" ]; then
    nm -D --defined-only "$build/.libs/libsshmem.so" | awk '$2 == "W" { print $3 }' | sort >"$work/public"
    nm -D --defined-only "$build/.libs/libsshmem_trace.so" |
        awk '$2 == "T" && $3 !~ /^sshmem_trace/ { print $3 }' | sort >"$work/wrapped"
    diff "$work/public" "$work/wrapped" | head -20 | diag
    [ -s "$work/public" ] && cmp -s "$work/public" "$work/wrapped"
    rc=$?
    ok "libsshmem_trace.so wraps every one of the $(wc -l <"$work/public") public routines" $rc
else
    n=$((n + 1))
    echo "ok $n - the recorder wraps every public routine # SKIP no nm or no .libs/libsshmem.so"
fi

d="$work/unset"; mkdir -p "$d"
(cd "$d" && env -u SSHMEM_TRACE timeout 60 "$oshrun" -np 2 "$prog" >../unset.out 2>&1) &&
    [ -z "$(ls -A "$d")" ]
ok "no --trace, no SSHMEM_TRACE: no files" $?
