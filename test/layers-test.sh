#!/bin/bash
# layers-test.sh: the library's layers call downward only. TAP output.
#
# The layers, lowest first (doc/reference.md "Layout" and README.md say what each holds);
# directories on one line form one layer and may include each other's headers:
#   core < boot < transport < heap < rma amo sync < datatype < coll team < mpix < watch < api
# src/tools (oshinfo) and src/launcher (oshrun) are programs of their own, not the library;
# src/trace is libsshmem_trace, a tool above the library that reaches it only through the
# public pNAME routines (the profiling interface).
#
#   1. every directory under src/ has its place in that order (a new one must be placed);
#   2. no file of the library includes a header of a higher layer (each one named with its
#      line), nor one of the programs;
#   3. only src/transport includes UCX headers and only src/boot includes pmix.h (oshinfo,
#      which prints their versions, and oshrun, a PMIx server, are the programs apart).
#   4. the calls themselves: every symbol an object of the library takes from another object
#      (nm: undefined here, defined there) is defined in the same or a lower layer. This
#      also sees what includes cannot: a function declared in a low header but defined
#      higher up, or declared by hand in a .c file.
src="${SSHMEM_TEST_SRCDIR:-.}/src"
build="${SSHMEM_TEST_BUILDDIR:-.}"
n=0
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
echo "1..4"

order=(core boot transport heap "rma amo sync" datatype "coll team" mpix watch api)
declare -A level
for i in "${!order[@]}"; do
    for d in ${order[$i]}; do level[$d]=$i; done
done
programs=" tools launcher trace "

unplaced=""
for d in "$src"/*/; do
    d=$(basename "$d")
    [[ -n "${level[$d]}" || "$programs" == *" $d "* ]] || unplaced="$unplaced $d"
done
[ -z "$unplaced" ]; ok "every directory of src/ has a layer${unplaced:+ (not placed:$unplaced)}" $?

# "file:line:dir-it-reaches" for every include "dir/x.h".
reaches() {
    grep -HnoE '^#include "[a-z_]+/' "$1" | sed -E 's|#include "||; s|/$||'
}
upward=""
for f in $(find "$src" -name '*.[ch]' | sort); do
    rel=${f#"$src"/}
    d=${rel%%/*}
    [[ "$programs" == *" $d "* ]] && continue
    while IFS=: read -r file line target; do
        [[ "$target" == "$d" ]] && continue
        if [[ -z "${level[$target]}" ]]; then
            upward="$upward"$'\n'"  src/$rel:$line reaches $target/, not part of the library"
        elif (( level[$target] > level[$d] )); then
            upward="$upward"$'\n'"  src/$rel:$line ($d) reaches $target/, a higher layer"
        fi
    done < <(reaches "$f")
done
[ -z "$upward" ]; rc=$?
ok "no layer reaches a higher one${upward:+:$upward}" $rc

bad=""
for f in $(grep -rlE '#include <(ucp|uct|ucs)/' "$src" --include='*.[ch]'); do
    case "${f#"$src"/}" in
    transport/* | tools/oshinfo.c) ;;
    *) bad="$bad ${f#"$src"/}(UCX)" ;;
    esac
done
for f in $(grep -rlE '#include <pmix(_server)?\.h>' "$src" --include='*.[ch]'); do
    case "${f#"$src"/}" in
    boot/* | launcher/* | tools/oshinfo.c) ;;
    *) bad="$bad ${f#"$src"/}(PMIx)" ;;
    esac
done
[ -z "$bad" ]; ok "UCX only in src/transport, PMIx only in src/boot${bad:+:$bad}" $?

# Every object of the library: "dir file.o" (libtool keeps them under .libs, named after the
# library); objects of files that moved away are left out, as their source is gone.
objects=()
for f in $(find "$src" -name '*.c' | sort); do
    rel=${f#"$src"/}
    d=${rel%%/*}
    [[ -n "${level[$d]}" ]] || continue
    b=$(basename "$rel" .c)
    o="$build/src/$d/.libs/libsshmem_la-$b.o"
    [ -f "$o" ] && objects+=("$d:$o")
done
if [ "${#objects[@]}" -eq 0 ] || ! command -v nm > /dev/null; then
    echo "ok 4 - calls go downward # SKIP no objects of the library under $build (or no nm)"
    exit 0
fi
calls=$(for e in "${objects[@]}"; do
    d=${e%%:*} o=${e#*:}
    nm "$o" | awk -v d="$d" -v o="${o##*/}" '$1 == "U" { print "U", d, o, $2; next }
        NF == 3 && $2 ~ /^[A-TV-Z]$/ { print "D", d, o, $3 }'
done)
lv=""
for d in "${!level[@]}"; do lv="$lv $d=${level[$d]}"; done
upcalls=$(echo "$calls" | awk -v lv="$lv" '
    BEGIN { n = split(lv, a, " ")
            for (i = 1; i <= n; i++) { split(a[i], kv, "="); L[kv[1]] = kv[2] } }
    $1 == "D" { def[$4] = $2; file[$4] = $3; next }
    { use[++u] = $0 }
    END { for (i = 1; i <= u; i++) {
              split(use[i], f, " "); s = f[4]
              if ((s in def) && L[def[s]] > L[f[2]])
                  printf "  %s/%s calls %s of %s/%s\n", f[2], f[3], s, def[s], file[s] } }' |
    sort -u)
[ -z "$upcalls" ]; ok "calls go downward (nm of ${#objects[@]} objects)${upcalls:+:
$upcalls}" $?
