#!/bin/bash
# symbols-test.sh: the library's exported routines against the headers' declarations.
#   - every routine shmem.h and shmemx.h declare is defined in libsshmem.so (no link errors)
#   - every shmem_/shmemx_ routine the library exports is declared in a header
#   - every routine has its profiling twin (pshmem_put for shmem_put) and nothing else is p*
#   - pshmem.h and pshmemx.h declare exactly those twins, with the routines' own prototypes
#   - the objects programs reach by name (SHMEM_TEAM_WORLD, SHMEM_CTX_DEFAULT, SHMEMX_DOUBLE,
#     SHMEMX_SUM, ...) have the fixed sizes of src/core/abi.h: a program keeps a copy of each
#     of the size it was linked with, so a size that changed would corrupt memory
# The declarations are read by the compiler itself (gcc -aux-info), not by the build's
# generator of the profiling headers, so that generator is checked too. TAP output.
src="${SSHMEM_TEST_SRCDIR:-.}"
build="${SSHMEM_TEST_BUILDDIR:-.}"
lib="$build/.libs/libsshmem.so"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
note() { sed 's/^/# /' | head -20; }
echo "1..7"
if [ ! -f "$lib" ] || ! command -v nm >/dev/null || ! command -v gcc >/dev/null; then
    for i in 1 2 3 4 5 6 7; do echo "ok $i # SKIP no shared library, nm or gcc here"; done
    exit 0
fi

# Declarations, by header: "header name" (the two never-defined names the C11 generics use
# to reject a type, sshmem_generic_unsupported_type and shmem_generic_bad_type_, left out).
printf '#include <shmem.h>\n#include <shmemx.h>\n#include <pshmem.h>\n#include <pshmemx.h>\n' |
    gcc -std=gnu11 -fsyntax-only -aux-info "$work/aux" -I"$src/include" -I"$build" -xc -
ok "the headers compile together (shmem.h, shmemx.h, pshmem.h, pshmemx.h)" $?
sed -nE 's|^/\* ([^:]*/)?([a-z0-9_]+\.h):[0-9]+:[A-Z]+ \*/ (.*)$|\2 \3|p' "$work/aux" |
    grep -E '^(shmem(_[a-z0-9]+)?|shmemx|pshmemx?)\.h ' |
    sed -E 's/^([^ ]+) ([^(]*[^A-Za-z0-9_(])([A-Za-z_][A-Za-z0-9_]*) \((.*)\);$/\1 \3 \4/' |
    grep -vE ' (sshmem_generic_unsupported_type|shmem_generic_bad_type_) ' >"$work/decl"
awk '$1 !~ /^p/ {print $2}' "$work/decl" | sort -u >"$work/api"
awk '$1 ~ /^p/ {print $2}' "$work/decl" | sort -u >"$work/papi"
nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWwiV]$/ {print $3}' | sort -u >"$work/defined"
grep -vE '^(sshmem|sshmemx)_' "$work/defined" | grep -v '^p' >"$work/exported"

missing=$(comm -23 "$work/api" "$work/defined")
[ -z "$missing" ]; ok "every declared routine ($(wc -l <"$work/api")) is defined in the library" $?
[ -z "$missing" ] || note <<<"$missing"

undeclared=$(comm -13 "$work/api" "$work/exported")
[ -z "$undeclared" ]; ok "every exported routine is declared in shmem.h or shmemx.h" $?
[ -z "$undeclared" ] || note <<<"$undeclared"

sed 's/^/p/' "$work/api" >"$work/twins"
lost=$(comm -23 "$work/twins" "$work/defined")
extra=$(grep '^p' "$work/defined" | comm -13 "$work/twins" -)
[ -z "$lost$extra" ]; ok "every routine has its pshmem_ twin in the library, and only those" $?
[ -z "$lost$extra" ] || note <<<"$lost$extra"

diff_p=$(diff "$work/twins" "$work/papi")
[ -z "$diff_p" ]; ok "pshmem.h and pshmemx.h declare exactly the twins" $?
[ -z "$diff_p" ] || note <<<"$diff_p"

# Same prototype: the parameter list of each twin is the routine's.
awk '$1 !~ /^p/ {$1 = ""; name = $2; $2 = ""; proto["p" name] = $0}
     $1 ~ /^p/ {$1 = ""; name = $2; $2 = ""; if (name in proto && proto[name] != $0) print name}' \
    "$work/decl" >"$work/differ"
[ ! -s "$work/differ" ]; ok "each twin's parameters are its routine's" $?
note <"$work/differ"

# Exported data objects, by name prefix, and the size core/abi.h fixes for each kind.
abi() { sed -nE "s/^#define SSHMEM_ABI_$1_BYTES ([0-9]+).*/\1/p" "$src/src/core/abi.h"; }
nm -D -S --defined-only "$lib" | awk '
    function hex(s,  i, v) {
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v
    }
    $3 ~ /^[BDGRSV]$/ {print $4, hex(tolower($2))}' >"$work/objects"
awk -v team="$(abi TEAM)" -v ctx="$(abi CTX)" -v type="$(abi DATATYPE)" -v op="$(abi OP)" '
    $1 ~ /^sshmem_team_(world|shared)$/ {want = team}
    $1 == "sshmem_ctx_default" {want = ctx}
    $1 ~ /^sshmemx_type_/ {want = type}
    $1 ~ /^sshmemx_op_/ {want = op}
    {if (want == "" || $2 != want) print $1 " is " $2 " bytes, not " (want == "" ? "a known kind" : want); want = ""}
' "$work/objects" >"$work/badsize"
nobj=$(wc -l <"$work/objects")
[ "$nobj" -gt 0 ] && [ ! -s "$work/badsize" ]
ok "every exported object ($nobj) has its fixed size (src/core/abi.h)" $?
note <"$work/badsize"
