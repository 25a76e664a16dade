#!/bin/bash
# docs-test.sh: the guide stays in step with the code. TAP output.
#   - every variable that oshinfo lists (the table of src/core/env.h) is in doc/reference.md;
#   - every option oshrun --help lists is in doc/reference.md;
#   - every example the tutorial names exists, and every example exists in the tutorial;
#   - the links between the documents and from README.md point at files that exist.
src="${SSHMEM_TEST_SRCDIR:-.}"
build="${SSHMEM_TEST_BUILDDIR:-.}"
n=0
ok() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
echo "1..4"

missing=$("$build/oshinfo" --env | awk 'NR > 1 { print $1 }' | while read -r v; do
    grep -q "\`$v\`" "$src/doc/reference.md" || echo "$v"; done)
[ -z "$missing" ]; rc=$?; ok "reference.md documents every environment variable${missing:+ (missing: $(echo $missing))}" $rc

missing=$("$build/oshrun" --help | grep -o -- '^ *-[-a-zA-Z]*' | tr -d ' ' | sort -u | while read -r o; do
    grep -q -- "\`$o[\` ]" "$src/doc/reference.md" || echo "$o"; done)
[ -z "$missing" ]; rc=$?; ok "reference.md documents every oshrun option${missing:+ (missing: $(echo $missing))}" $rc

bad=""
for e in $(grep -o '`[a-z_]*\.c`' "$src/doc/tutorial.md" | tr -d '`' | sort -u); do
    [ -f "$src/examples/$e" ] || bad="$bad $e(no such example)"
done
for f in "$src"/examples/*.c; do
    e=$(basename "$f")
    case "$e" in mpix_column.c|mpix_user_op.c) continue ;; esac # taught in doc/mpix.md
    grep -q "\`$e\`" "$src/doc/tutorial.md" || bad="$bad $e(not in the tutorial)"
done
[ -z "$bad" ]; rc=$?; ok "the tutorial and examples/ agree${bad:+:$bad}" $rc

bad=""
for d in "$src"/README.md "$src"/doc/*.md; do
    dir=$(dirname "$d")
    for l in $(grep -o '](\([^)#:]*\.md\))' "$d" | sed 's/^](//; s/)$//'); do
        [ -f "$dir/$l" ] || bad="$bad $(basename "$d")->$l"
    done
done
[ -z "$bad" ]; rc=$?; ok "links between the documents resolve${bad:+:$bad}" $rc
