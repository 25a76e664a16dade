#!/bin/bash
# profile-test.sh: the traffic profile. test/pe/profile makes known traffic and books what the
# profile must show; each run's CSV files (per-PE table, byte and operation matrices) must
# match it exactly, the seconds must reach their floors, and the SVG must be well-formed with
# one cell per PE pair whose hover text gives the same numbers. Then oshrun --profile[=PATH],
# an unwritable path (a warning naming it and the reason) and no profile when unset. TAP.
build="${SSHMEM_TEST_BUILDDIR:-.}"
oshrun="${OSHRUN:-$build/oshrun}"
prog="$build/test/pe/profile"
hello="$build/test/pe/put_get"
nps="${SSHMEM_TEST_PROFILE_NP:-2 3 4}"
paths="${SSHMEM_TEST_PATHS:-direct ucx tcp}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

n=0
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
diag() { sed 's/^/# /' "$@"; }

path_env() {
    case "$1" in
        direct) echo "SSHMEM_LOCAL=direct" ;;
        ucx) echo "SSHMEM_LOCAL=ucx" ;;
        tcp) echo "SSHMEM_LOCAL=ucx UCX_TLS=tcp,self" ;;
    esac
}

# Compare PREFIX.csv, PREFIX-matrix.csv and PREFIX-ops.csv with the booked expectations.
check_csv() { # expected prefix np
    awk -F, -v np="$3" -v exp_file="$1" -v table="$2.csv" -v bytes="$2-matrix.csv" \
        -v opsf="$2-ops.csv" '
    function bad(msg) { print "# " FILENAME ":" FNR ": " msg; errors++ }
    function grid_header(   want, t) {
        want = "source_pe\\target_pe"
        for (t = 0; t < np; t++) want = want "," t
        if ($0 != want) bad("header is \"" $0 "\", expected \"" want "\"")
    }
    FILENAME == exp_file {
        if ($1 == "row") row[$2] = $3 "," $4 "," $5 "," $6 "," $7 "," $8
        else if ($1 == "cell") { cops[$2 "," $3] = $4; cbytes[$2 "," $3] = $5 }
        else if ($1 == "min") { bmin[$2] = $3; wmin[$2] = $4 }
        next
    }
    FILENAME == table {
        if (FNR == 1) {
            if ($0 != "pe,puts,put_bytes,gets,get_bytes,atomics,atomic_bytes,barrier_seconds,wait_seconds")
                bad("header is \"" $0 "\"")
            next
        }
        if (NF != 9) bad("has " NF " fields, expected 9")
        if ($1 != FNR - 2) bad("pe " $1 ", expected " FNR - 2)
        got = $2 "," $3 "," $4 "," $5 "," $6 "," $7
        if (got != row[$1]) bad("PE " $1 " counts " got ", expected " row[$1])
        if ($8 + 0 < bmin[$1]) bad("PE " $1 " barrier_seconds " $8 " < " bmin[$1])
        if ($9 + 0 < wmin[$1]) bad("PE " $1 " wait_seconds " $9 " < " wmin[$1])
        rows++
        next
    }
    FILENAME == bytes || FILENAME == opsf {
        if (FNR == 1) { grid_header(); next }
        if (NF != np + 1) bad("has " NF " fields, expected " np + 1)
        if ($1 != FNR - 2) bad("source pe " $1 ", expected " FNR - 2)
        for (t = 0; t < np; t++) {
            want = FILENAME == bytes ? cbytes[$1 "," t] : cops[$1 "," t]
            if ($(t + 2) != want) bad("PE " $1 " to PE " t ": " $(t + 2) ", expected " want)
        }
        if (FILENAME == bytes) brows++; else orows++
    }
    END {
        if (rows != np || brows != np || orows != np)
            { print "# lines: table " rows ", matrix " brows ", ops " orows ", expected " np; errors++ }
        exit errors > 0
    }' "$1" "$2.csv" "$2-matrix.csv" "$2-ops.csv"
}

# The SVG: well-formed, one cell per PE pair, each cell's hover text the booked numbers.
check_svg() { # expected prefix np
    local svg="$2.svg"
    if command -v xmllint >/dev/null; then
        xmllint --noout "$svg" 2>&1 | diag || return 1
        xmllint --noout "$svg" 2>/dev/null || return 1
    else
        grep -q '^<svg xmlns="http://www.w3.org/2000/svg"' "$svg" && tail -1 "$svg" | grep -q '^</svg>$' ||
            { echo "# $svg: no <svg> ... </svg>"; return 1; }
    fi
    grep -q '>source PE</text>' "$svg" && grep -q '>target PE</text>' "$svg" &&
        grep -q 'class="legend"' "$svg" && grep -q 'font-weight="bold">wait_s</text>' "$svg" ||
        { echo "# $svg: axis labels, legend or table missing"; return 1; }
    local cells
    cells=$(grep -c '<rect class="cell"' "$svg")
    [ "$cells" -eq $(($3 * $3)) ] || { echo "# $svg: $cells cells, expected $(($3 * $3))"; return 1; }
    sed -n 's/.*<rect class="cell".*<title>source PE \([0-9]*\) to target PE \([0-9]*\): \([0-9]*\) bytes in \([0-9]*\) operations<\/title><\/rect>$/cell,\1,\2,\4,\3/p' \
        "$svg" | sort >"$2.svgcells"
    grep '^cell,' "$1" | sort | diff - "$2.svgcells" | diag
    [ "${PIPESTATUS[2]}" -eq 0 ]
}

# One run with SSHMEM_PROFILE and its checks.
run_case() { # np path [VAR=value...]
    local d="$work/np$1-$2$3"
    mkdir -p "$d"
    env $(path_env "$2") "${@:3}" SSHMEM_PROFILE="$d/p" PROFILE_EXPECT="$d/e" \
        timeout 60 "$oshrun" -np "$1" "$prog" >"$d/out" 2>&1
    local rc=$?
    if [ $rc -ne 0 ]; then
        echo "# exit status $rc"; diag "$d/out"; return 1
    fi
    cat "$d"/e.* >"$d/expected"
    check_csv "$d/expected" "$d/p" "$1" && check_svg "$d/expected" "$d/p" "$1"
}

cases=0
for np in $nps; do for p in $paths; do cases=$((cases + 1)); done; done
echo "1..$((cases + 7))"
for np in $nps; do
    for p in $paths; do
        run_case "$np" "$p"
        ok "np=$np $p: counts, bytes, matrices and SVG exactly as booked" $?
    done
done
for p in direct tcp; do
    run_case 3 "$p" PROFILE_THREADS=1
    ok "np=3 $p, SHMEM_THREAD_MULTIPLE, 4 threads putting at once: counts exact" $?
done

# oshrun --profile=PATH and --profile (default name in the current directory).
d="$work/opt"; mkdir -p "$d"
PROFILE_EXPECT="$d/e" timeout 60 "$oshrun" -np 2 --profile="$d/named" "$prog" >"$d/out" 2>&1 &&
    cat "$d"/e.* >"$d/expected" && check_csv "$d/expected" "$d/named" 2 &&
    check_svg "$d/expected" "$d/named" 2
ok "oshrun --profile=PATH writes PATH.csv, PATH-matrix.csv, PATH-ops.csv, PATH.svg" $?
d="$work/default"; mkdir -p "$d"
(cd "$d" && timeout 60 "$oshrun" -np 2 --profile "$hello" >out 2>&1) &&
    [ -s "$d/sshmem-profile.csv" ] && [ -s "$d/sshmem-profile-matrix.csv" ] &&
    [ -s "$d/sshmem-profile-ops.csv" ] && [ -s "$d/sshmem-profile.svg" ]
ok "oshrun --profile writes sshmem-profile.* in the current directory" $?
"$oshrun" -np 2 --profile= "$hello" >"$work/empty.out" 2>&1
[ $? -eq 2 ] && grep -q "expected a path prefix" "$work/empty.out"
ok "oshrun --profile= is a usage error" $?

# A path that cannot be written: a warning with the path and the reason; the job succeeds.
d="$work/unwritable"; mkdir -p "$d"
SSHMEM_PROFILE="$d/no/such/dir/p" timeout 60 "$oshrun" -np 2 "$hello" >"$d/out" 2>&1 &&
    grep -q "warning: PE 0: shmem_finalize: SSHMEM_PROFILE: cannot write $d/no/such/dir/p.csv: No such file or directory" "$d/out"
rc=$?; [ $rc -eq 0 ] || diag "$d/out"
ok "an unwritable path is a warning naming it and the reason" $rc

# Unset: nothing written.
d="$work/unset"; mkdir -p "$d"
(cd "$d" && env -u SSHMEM_PROFILE timeout 60 "$oshrun" -np 2 "$hello" >../unset.out 2>&1) &&
    [ -z "$(ls -A "$d")" ]
ok "no SSHMEM_PROFILE: no files" $?
