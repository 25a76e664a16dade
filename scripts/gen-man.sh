#!/bin/sh
# gen-man.sh SRCDIR OUTDIR VERSION CPP...: the manual pages, written to OUTDIR/man1, man3, man7.
# Run by the build (mk/man.am). CPP is the preprocessor with -I for include/, src/ and the build
# directory.
#
# Every page is made from its source in SRCDIR/man/*.txt (text written once per routine family
# or command) by scripts/man-roff.awk; the prototypes and type lists of the synopses come from
# the headers through scripts/man-api.sh, and the environment page's table from
# src/core/env.h through scripts/man-env.sh. Every other name gets a link page
# (".so man3/shmem_put.3"): each routine the headers declare (shmem.h and shmemx.h, read as
# scripts/gen-pshmem.sh reads them for the profiling header, so from the type tables of
# include/shmem_typetable.h), each C11 generic name, and the names a source lists in @links.
# A routine that no family claims, or that two claim, stops the build: a new routine cannot
# lack a page.
srcdir="$1"
out="$2"
version="$3"
shift 3
scripts="$srcdir/scripts"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gen-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "gen-man.sh: $*" >&2; exit 1; }

sh "$scripts/man-api.sh" forms "$@" > "$tmp/forms" || fail "cannot read the headers"
sh "$scripts/man-api.sh" typenames "$@" > "$tmp/typenames" || exit 1
sh "$scripts/man-api.sh" generics "$@" > "$tmp/generics" || exit 1
sh "$scripts/man-env.sh" "$srcdir/src/core/env.h" "$@" > "$tmp/env.roff" || exit 1
for h in shmem.h shmemx.h; do sh "$scripts/gen-pshmem.sh" "$h" "$@" || exit 1; done |
    sed -E -n 's/^.*[^A-Za-z0-9_]p([A-Za-z0-9_]+) ?\(.*$/\1/p' | sort -u > "$tmp/names"
[ -s "$tmp/names" ] || fail "no routine names in the headers"

# Which page each form belongs to ("FORM<TAB>PAGE<TAB>SECTION"), from the sources' @forms.
: > "$tmp/claims"
: > "$tmp/links"
: > "$tmp/pages"
for f in "$srcdir"/man/*.txt; do
    head=$(sed -n 's/^@page //p' "$f")
    page=${head% *}
    sec=${head#* }
    case "$sec" in 1|3|7) ;; *) fail "$f: no line '@page NAME SECTION' (section 1, 3 or 7)" ;; esac
    sed -n 's/^@forms //p' "$f" | tr ' ' '\n' | sed '/^$/d' | sed "s/\$/	$page	$sec/" >> "$tmp/claims"
    sed -n 's/^@links //p' "$f" | tr ' ' '\n' | sed '/^$/d' | sed "s/\$/	$page	$sec/" >> "$tmp/links"
    echo "$page	$sec	$f" >> "$tmp/pages"
done

# Every declared name, generic name and extra link to its page: a form's own name, else the
# form it is an instance of (TYPENAME and SIZE standing for the names of the tables).
awk -F '\t' -v typenames="$tmp/typenames" -v forms="$tmp/forms" '
    BEGIN {
        alt = ""
        while ((getline t < typenames) > 0) alt = alt (alt == "" ? "" : "|") t
        while ((getline l < forms) > 0) { split(l, f, "\t"); declared[f[1]] = 1 }
    }
    FILENAME == ARGV[1] {
        if ($1 in page) { printf "gen-man.sh: %s is claimed by %s and %s\n", $1, page[$1], $2 > "/dev/stderr"; bad = 1 }
        if (!($1 in declared)) { printf "gen-man.sh: %s (page %s) is not declared in the headers\n", $1, $2 > "/dev/stderr"; bad = 1 }
        page[$1] = $2; sec[$1] = $3
        if ($1 ~ /TYPENAME|SIZE/) {
            re = $1; gsub(/TYPENAME/, "(" alt ")", re); gsub(/SIZE/, "(" alt ")", re)
            pattern[$1] = "^" re "$"
        }
        next
    }
    FILENAME == ARGV[2] { link[$1] = $2 "\t" $3; next }
    {
        name = $1; target = ""
        if (name in page) target = page[name] "\t" sec[name]
        else {
            g = name
            if (FILENAME == ARGV[4]) { g = name; sub(/^shmem_/, "shmem_TYPENAME_", g) }
            if (g in page) target = page[g] "\t" sec[g]
            else for (p in pattern) if (name ~ pattern[p]) { target = page[p] "\t" sec[p]; break }
        }
        if (target == "") { printf "gen-man.sh: no page for %s\n", name > "/dev/stderr"; bad = 1; next }
        link[name] = target
    }
    END {
        for (d in declared) if (!(d in page)) { printf "gen-man.sh: no page claims %s\n", d > "/dev/stderr"; bad = 1 }
        if (bad) exit 1
        for (n in link) print n "\t" link[n]
    }' "$tmp/claims" "$tmp/links" "$tmp/names" "$tmp/generics" > "$tmp/all" || exit 1

# The list of pages for sshmem(7): each page with its summary, by section and name.
sort -t '	' -k 2,2 -k 1,1 "$tmp/pages" | while IFS='	' read -r page sec f; do
    printf '.TP\n\\fB%s\\fR(%s)\n%s\n' "$page" "$sec" "$(sed -n 's/^@summary //p' "$f" | sed 's/\\/\\e/g; s/`//g')"
done > "$tmp/index.roff"

# The pages.
rm -rf "$out/man1" "$out/man3" "$out/man7"
mkdir -p "$out/man1" "$out/man3" "$out/man7" "$tmp/tables"
while IFS='	' read -r page sec f; do
    for t in $(sed -n 's/^@types \([^ ]*\).*/\1/p' "$f"); do
        [ -f "$tmp/tables/$t" ] || sh "$scripts/man-api.sh" list "$t" "$@" > "$tmp/tables/$t" || exit 1
    done
    awk -v forms="$tmp/forms" -v generics="$tmp/generics" -v tables="$tmp/tables" \
        -v envfile="$tmp/env.roff" -v indexfile="$tmp/index.roff" -v version="$version" -v source="man/$(basename "$f")" \
        -f "$scripts/man-roff.awk" "$f" > "$out/man$sec/$page.$sec" || fail "$f: cannot convert"
done < "$tmp/pages"
# The links: every name that is not a page's own.
while IFS='	' read -r name page sec; do
    [ -f "$out/man$sec/$name.$sec" ] || echo ".so man$sec/$page.$sec" > "$out/man$sec/$name.$sec"
done < "$tmp/all"
