#!/bin/sh
# man-env.sh ENV_H CPP...: the environment variables of sshmem as roff (.TP entries), read
# through the preprocessor from the one table that also drives their parsing and oshinfo --env
# (SSHMEM_ENV_TABLE of src/core/env.h), for the sshmem_env(7) manual page.
envh="$1"
shift
{
    printf '#include "%s"\n' "$envh"
    echo '#define MAN_ROW_(field, kind, name, old, def, meaning) @@@ name @ old @ def @ kind @ meaning'
    echo 'SSHMEM_ENV_TABLE(MAN_ROW_)'
} | "$@" -P -xc - | grep -v '^#' | tr '\n' ' ' | sed 's/@@@/\n@@@/g' | grep '^@@@' |
awk -F ' @ ' '
    # A C string (or adjacent ones, as the table splits long texts) as plain text.
    function str(s) {
        gsub(/"[[:space:]]*"/, "", s); sub(/^[[:space:]]*"/, "", s); sub(/"[[:space:]]*$/, "", s)
        gsub(/\\"/, "\"", s); gsub(/\\/, "\\e", s)
        return s
    }
    {
        sub(/^@@@ */, "")
        name = str($1); def = str($3); kind = $4; gsub(/[[:space:]]/, "", kind)
        old = ($2 ~ /"/) ? str($2) : ""
        print ".TP"
        print "\\fB" name "\\fR" (old != "" ? " (also \\fB" old "\\fR)" : "")
        m = str($5); if (substr(m, 1, 1) == "." || substr(m, 1, 1) == "\047") m = "\\&" m
        print m "."
        printf "Default: %s; kind: %s.\n", (def == "" ? "unset" : "\\fB" def "\\fR"), tolower(kind)
        n++
    }
    END { if (n == 0) { print "man-env.sh: no variables found" > "/dev/stderr"; exit 1 } }'
