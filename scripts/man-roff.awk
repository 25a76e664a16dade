# man-roff.awk: one manual page in roff from its source in man/ (the format is described in
# man/README.md). Run by scripts/gen-man.sh with these variables:
#   forms     file of "NAME<TAB>PROTOTYPE" lines (scripts/man-api.sh forms)
#   generics  file of the C11 generic names, one a line
#   tables    directory holding one file per type table, "TYPE<TAB>TYPENAME" lines
#   envfile   the environment table as roff (scripts/man-env.sh)
#   indexfile the list of all pages with their summaries, as roff
#   version   the package version, for the page footer
#   source    the source's name, for the note at the top of the page
BEGIN {
    FS = "\t"
    while ((getline l < forms) > 0) { split(l, f, "\t"); proto[f[1]] = f[2] }
    while ((getline l < generics) > 0) isgeneric[l] = 1
    FS = " "
    nforms = 0; ntypes = 0; nsee = 0; nlinks = 0; started = 0; incode = 0; header = ""
}

# ---------------------------------------------------------------- text to roff
function esc(s) { gsub(/\\/, "\\e", s); return s }
function lead(s) { return (s ~ /^[.']/) ? "\\&" s : s }
function italics(s,   out) {
    out = ""
    while (match(s, /\*[A-Za-z_][A-Za-z0-9_]*\*/)) {
        out = out substr(s, 1, RSTART - 1) "\\fI" substr(s, RSTART + 1, RLENGTH - 2) "\\fR"
        s = substr(s, RSTART + RLENGTH)
    }
    return out s
}
# `code` in bold (with real minus signs), *argument* in italics.
function inline(s,   out, code, before) {
    s = esc(s); out = ""
    while (match(s, /`[^`]+`/)) {
        code = substr(s, RSTART + 1, RLENGTH - 2); gsub(/-/, "\\-", code)
        before = substr(s, 1, RSTART - 1); s = substr(s, RSTART + RLENGTH)
        out = out italics(before) "\\fB" code "\\fR"
    }
    return lead(out italics(s))
}
function codeline(s) { s = esc(s); gsub(/-/, "\\-", s); return lead(s) }

# ---------------------------------------------------------------- the synopsis
# A prototype cut at its commas to fit 72 columns (80 less the indent), the continuation lines
# under the first argument.
function wrap(s,   open, pad, parts, n, i, line, out, piece) {
    if (length(s) <= 72) return s
    open = index(s, "("); pad = sprintf("%" open "s", "")
    n = split(substr(s, open + 1), parts, ", ")
    line = substr(s, 1, open); out = ""
    for (i = 1; i <= n; i++) {
        piece = parts[i] (i < n ? "," : "")
        if (i > 1 && length(line) + 1 + length(piece) > 72) { out = out line "\n"; line = pad piece }
        else line = line (i > 1 ? " " : "") piece
    }
    return out line
}
function show(name, p) {
    p = wrap(p)
    sub(name "\\(", "\\fB" name "\\fR(", p)
    return codeline_keep(p)
}
# Like codeline but keeps the font escapes show() put in.
function codeline_keep(s,   n, lines, i, out) {
    n = split(s, lines, "\n"); out = ""
    for (i = 1; i <= n; i++) {
        s = lines[i]; gsub(/\\fB/, "\001", s); gsub(/\\fR/, "\002", s)
        s = codeline(s); gsub(/\001/, "\\fB", s); gsub(/\002/, "\\fR", s)
        out = out (i > 1 ? "\n" : "") s
    }
    return out
}
function generic_of(f,   g) {
    g = f; sub(/^shmem_ctx_/, "shmem_", g); sub(/TYPENAME_/, "", g)
    return (f ~ /TYPENAME/ && (g in isgeneric)) ? g : ""
}
function synopsis(   i, f, g, p, t, hdr, ngen, gctx, rows, n, j, pair, sizes, pr) {
    hdr = "shmem.h"
    for (i = 1; i <= nforms; i++) if (form[i] ~ /^shmemx_/) hdr = "shmemx.h"
    if (header != "") hdr = header
    print ".SH SYNOPSIS"
    print ".nf"
    print "\\fB#include <" hdr ">\\fR"
    print ""
    for (i = 1; i <= nforms; i++) {
        f = form[i]
        if (!(f in proto)) { print "man-roff.awk: " page ": no routine " f " in the headers" > "/dev/stderr"; exit 1 }
        print show(f, proto[f])
    }
    print ".fi"
    ngen = 0; gctx = 0
    for (i = 1; i <= nforms; i++) if ((g = generic_of(form[i])) != "") { ngen++; if (form[i] ~ /^shmem_ctx_/) gctx = 1 }
    if (ngen > 0) {
        print ".PP"
        print "In C11 and later, the generic names below choose the typed routine from the type the data" \
            " pointer points to" (gctx ? "; a context, when given, comes first:" : ":")
        print ".PP"
        print ".nf"
        for (i = 1; i <= nforms; i++) {
            if ((g = generic_of(form[i])) == "") continue
            p = proto[form[i]]; sub(form[i] "\\(", g "(", p)
            print show(g, p)
        }
        print ".fi"
    }
    for (t = 1; t <= ntypes; t++) {
        n = 0
        while ((getline pair < (tables "/" table[t])) > 0) rows[++n] = pair
        close(tables "/" table[t])
        print ".PP"
        if (table[t] ~ /_SIZES$/) {
            sizes = ""
            for (j = 1; j <= n; j++) { split(rows[j], pr, "\t"); sizes = sizes (j > 1 ? ", " : "") pr[1] }
            print "\\fISIZE\\fR is the element size in bits: " sizes "."
            continue
        }
        print "\\fITYPE\\fR and \\fITYPENAME\\fR" (label[t] != "" ? " (" inline(label[t]) ")" : "") \
            ", from the table " table[t] ":"
        print ".PP"
        print ".RS 4"
        print ".nf"
        print ".ta 24n"
        for (j = 1; j <= n; j++) print codeline(rows[j])
        print ".fi"
        print ".RE"
    }
}

# ---------------------------------------------------------------- the page's head
function start(   i, names, g, seen) {
    if (started) return
    started = 1
    print ".\\\" Generated by scripts/gen-man.sh from " source "; do not edit."
    print ".TH " toupper(page) " " section " \"\" \"sshmem " version "\" \"" \
        (section == 1 ? "sshmem commands" : section == 7 ? "sshmem" : "OpenSHMEM library") "\""
    # Routine names are long words: hyphenating them would print names that do not exist,
    # and justifying lines around them would stretch the spaces (and warn).
    print ".nh"
    print ".ad l"
    print ".SH NAME"
    names = page; seen[page] = 1
    for (i = 1; i <= nforms; i++) {
        g = generic_of(form[i])
        if (g != "" && !(g in seen)) { names = names ", " g; seen[g] = 1 }
    }
    for (i = 1; i <= nforms; i++) if (!(form[i] in seen)) { names = names ", " form[i]; seen[form[i]] = 1 }
    for (i = 1; i <= nlinks; i++) if (!(link[i] in seen)) { names = names ", " link[i]; seen[link[i]] = 1 }
    print names " \\- " inline(summary)
    if (nforms > 0) synopsis()
}

# ---------------------------------------------------------------- the source, line by line
/^#/ && !incode { next }
/^@page / { page = $2; section = $3; next }
/^@summary / { summary = substr($0, 10); next }
/^@forms / { for (i = 2; i <= NF; i++) form[++nforms] = $i; next }
/^@types / { table[++ntypes] = $2; l = $0; sub(/^@types +[^ ]+ */, "", l); label[ntypes] = l; next }
/^@header / { header = $2; next }
/^@see / { for (i = 2; i <= NF; i++) see[++nsee] = $i; next }
/^@links / { for (i = 2; i <= NF; i++) link[++nlinks] = $i; next }
/^```/ {
    if (!incode) { start(); para = 0; print ".PP"; print ".RS 4"; print ".nf"; incode = 1 }
    else { print ".fi"; print ".RE"; incode = 0 }
    next
}
incode { print codeline($0); next }
/^@env$/ { start(); para = 0; while ((getline l < envfile) > 0) print l; next }
/^@index$/ { start(); para = 0; while ((getline l < indexfile) > 0) print l; next }
/^=== / { start(); para = 0; print ".SS " substr($0, 5); next }
/^== / { start(); para = 0; heading[substr($0, 4)] = 1; print ".SH " substr($0, 4); next }
/^: / { start(); para = 0; t = substr($0, 3); print ".TP"; print (t ~ /`/) ? inline(t) : "\\fI" esc(t) "\\fR"; next }
/^- / { start(); para = 0; print ".IP \\(bu 2"; print inline(substr($0, 3)); next }
/^$/ { if (started) para = 1; next }
{
    start()
    if (para) { print ".PP"; para = 0 }
    print inline($0)
}
END {
    if (incode) { print "man-roff.awk: " source ": code block not closed" > "/dev/stderr"; exit 1 }
    # A routine family's page has every section a reader looks for.
    if (nforms > 0) {
        n = split("DESCRIPTION|ARGUMENTS|RETURN VALUES|NOTES|EXAMPLES", need, "|")
        for (i = 1; i <= n; i++) if (!(need[i] in heading)) {
            print "man-roff.awk: " source ": no section == " need[i] > "/dev/stderr"; exit 1
        }
    }
    start()
    if (nsee > 0) {
        print ".SH SEE ALSO"
        l = ""
        for (i = 1; i <= nsee; i++) {
            s = see[i]; sub(/\(.*/, "", s); sec = see[i]; sub(/^[^(]*/, "", sec)
            l = l (i > 1 ? ",\n" : "") "\\fB" s "\\fR" sec
        }
        print l
    }
}
