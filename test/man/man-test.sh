#!/bin/bash
# man-test.sh: the manual pages `make install` puts in place. sshmem is installed into a
# directory of its own (make install DESTDIR=...); with MANPATH pointing there:
#   - every shmem_ and shmemx_ routine the built library exports has a page (a file for each
#     name, and man -w finds every one of them, asked in a few large batches);
#   - man -w finds oshrun, oshcc, oshc++, oshinfo, sshmem(7) and sshmem_env(7);
#   - every page renders without a warning (groff -ww; man --warnings for a few, a link too);
#   - every C example of the pages compiles.
# TAP output.
set -u
src="${SSHMEM_TEST_SRCDIR:-.}"
build="${SSHMEM_TEST_BUILDDIR:-.}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sshmem-man.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..6"
n=0
check() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
if ! command -v man >/dev/null; then
    for i in 1 2 3 4 5 6; do echo "not ok $i - man is not installed (apt-get install man-db)"; done
    exit 0
fi

env -u MAKEFLAGS -u MFLAGS make -s -C "$build" install DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1
rc=$?
mandir=$(dirname "$(find "$tmp/root" -type d -name man3 | head -1)")
check "make install puts the pages under share/man" \
    "$([ $rc -eq 0 ] && [[ "$mandir" == */share/man ]] && [ -f "$mandir/man3/shmem_put.3" ]; echo $?)"
[ $rc -eq 0 ] || tail -5 "$tmp/install.log" | sed 's/^/# /'
export MANPATH="$mandir"
# man-db keeps no index of this directory: without one it looks at the files themselves.
export MANOPT="" MANPAGER=cat PAGER=cat

nm -D --defined-only "$build/.libs/libsshmem.so" | awk '$3 ~ /^shmemx?_/ { print $3 }' | sort -u > "$tmp/names"
count=$(wc -l < "$tmp/names")
missing=$(while read -r name; do [ -f "$mandir/man3/$name.3" ] || echo "$name"; done < "$tmp/names")
check "a page for each of the $count shmem_ and shmemx_ names libsshmem exports${missing:+ (missing: $(echo $missing | cut -c1-300))}" \
    "$([ "$count" -gt 1000 ] && [ -z "$missing" ]; echo $?)"

# man -w prints one path per name it finds and a message for each it does not.
found=$(xargs -n 500 man -w -s 3 < "$tmp/names" 2>"$tmp/w.err" | wc -l)
check "man -w finds all $count names ($found found)" \
    "$([ "$found" -eq "$count" ] && [ ! -s "$tmp/w.err" ]; echo $?)"
[ -s "$tmp/w.err" ] && head -5 "$tmp/w.err" | sed 's/^/# /'

bad=""
for c in oshrun oshcc oshc++ oshinfo; do man -w 1 "$c" >/dev/null 2>&1 || bad="$bad $c(1)"; done
for p in sshmem sshmem_env; do man -w 7 "$p" >/dev/null 2>&1 || bad="$bad $p(7)"; done
check "man -w finds oshrun, oshcc, oshc++, oshinfo, sshmem(7) and sshmem_env(7)${bad:+; not:$bad}" \
    "$([ -z "$bad" ]; echo $?)"

# The pages with text (not links) render without a warning: all of them through groff at once
# with every warning on (it names the file of each), a few through man --warnings as a reader
# would read them, a link among them (man follows its .so).
bad=""
grep -L '^\.so ' "$mandir"/man[137]/* > "$tmp/pages"
pages=$(wc -l < "$tmp/pages")
xargs groff -man -ww -z -Tutf8 < "$tmp/pages" > "$tmp/groff.err" 2>&1
[ -s "$tmp/groff.err" ] && { bad="$bad groff:$(grep -o '[a-z_0-9+]*\.[137]:' "$tmp/groff.err" | sort -u | tr -d '\n')"; head -5 "$tmp/groff.err" | sed 's/^/# /'; }
for page in "3 shmem_put" "3 shmem_int_put" "1 oshrun" "1 oshc++" "7 sshmem_env"; do
    set -- $page
    w=$(man --warnings -E UTF-8 "$1" "$2" 2>&1 >"$tmp/page.out")
    [ -z "$w" ] && [ -s "$tmp/page.out" ] || { bad="$bad $2($1)"; echo "$w" | head -3 | sed 's/^/# /'; }
done
check "the $pages pages render without warnings (groff -ww, man --warnings)${bad:+; not:$bad}" \
    "$([ -z "$bad" ]; echo $?)"

# Every C example compiles against the headers (a misspelt routine is an implicit declaration,
# an error under -Werror).
bad=""
examples=0
for p in "$src"/man/*.txt; do
    awk '/^```/ { inside = !inside; next } inside' "$p" > "$tmp/ex.c"
    head -1 "$tmp/ex.c" | grep -q '^#include' || continue # the commands' examples are shell
    examples=$((examples + 1))
    ${CC:-cc} -std=gnu11 -fsyntax-only -Wall -Werror -Wno-deprecated-declarations \
        -I"$src/include" -I"$build" "$tmp/ex.c" >"$tmp/cc.log" 2>&1 ||
        { bad="$bad $(basename "$p" .txt)"; head -3 "$tmp/cc.log" | sed 's/^/# /'; }
done
check "the $examples C examples of the pages compile${bad:+; not:$bad}" \
    "$([ "$examples" -gt 50 ] && [ -z "$bad" ]; echo $?)"
