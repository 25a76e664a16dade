#!/bin/sh
# man-api.sh WHAT CPP...: the API as the manual pages show it, read from the headers through
# the preprocessor (CPP with -I for include/ and the build directory), so that the pages follow
# the type tables of include/shmem_typetable.h without a list of their own.
#   man-api.sh forms CPP...     one line per routine form: "NAME<TAB>PROTOTYPE", the typed
#                               routines once each with TYPE and TYPENAME in place of the
#                               types (shmem_TYPENAME_put), the sized ones with SIZE
#                               (shmem_putSIZE); from shmem.h and shmemx.h.
#   man-api.sh list NAME CPP... the pairs of one table (SHMEM_RMA_TYPES): "TYPE<TAB>TYPENAME";
#                               for SHMEM_RMA_SIZES "BITS<TAB>BYTES".
#   man-api.sh typenames CPP... every TYPENAME and SIZE of the tables, one a line.
#   man-api.sh generics CPP...  the C11 generic names (shmem_put, shmem_sum_reduce), one a line.
# The forms come from scripts/gen-pshmem.sh, the same reading of the headers that makes the
# profiling header, run with every table redefined to the single entry X(TYPE, TYPENAME).
what="$1"
shift
dir=$(dirname "$0")
case "$what" in list) name="$1"; shift ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-api.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# The tables: their names, found in the table header through the preprocessor's list of macros.
printf '#include <shmem_typetable.h>\n' | "$@" -dM -xc - |
    sed -E -n 's/^#define (SHMEM_[A-Z0-9_]+_(TYPES|SIZES))\(X\).*/\1/p' | sort -u > "$tmp/tables"
[ -s "$tmp/tables" ] || { echo "man-api.sh: no type tables found" >&2; exit 1; }

case "$what" in
forms)
    {
        echo '#define SHMEM_TYPETABLE_H'
        echo '#define SHMEM_HAVE_COMPLEX 1'
        # The operator lists stay as they are: each operator is a routine name of its own.
        printf '#include <shmem_typetable.h>\n' | "$@" -dM -xc - | grep -E '^#define SHMEM_[A-Z_]+_OPS\(X\)'
        sed -E -e 's/^(.*_SIZES)$/#define \1(X) X(mansize0, manbytes0)/' \
            -e 's/^(.*_TYPES)$/#define \1(X) X(TYPE, mantypename0)/' "$tmp/tables"
    } > "$tmp/placeholders.h"
    for h in shmem.h shmemx.h; do
        sh "$dir/gen-pshmem.sh" "$h" "$@" -include "$tmp/placeholders.h" || exit 1
    done | sed -E 's/^(.*[^A-Za-z0-9_])p([A-Za-z0-9_]+) ?\((.*)$/\2\t\1\2(\3/' |
        sed 's/mantypename0/TYPENAME/g; s/mansize0/SIZE/g' | awk -F '\t' '!seen[$1]++'
    ;;
list)
    grep -qx "$name" "$tmp/tables" || { echo "man-api.sh: no table $name" >&2; exit 1; }
    { echo '#include <shmem_typetable.h>'; echo '#define MAN_PAIR_(T, N) @@T@N@@'; echo "$name(MAN_PAIR_)"; } |
        "$@" -xc - | grep '@@' | sed 's/@@/\n/g' | sed -n 's/^\(.*\)@\(.*\)$/\1\t\2/p' |
        sed -E 's/^[[:space:]]+//; s/[[:space:]]+\t/\t/'
    ;;
typenames)
    while read -r t; do
        case "$t" in *_SIZES) f=1 ;; *) f=2 ;; esac
        sh "$0" list "$t" "$@" | cut -f $f
    done < "$tmp/tables" | sort -u
    ;;
generics)
    printf '#include <shmem.h>\n' | "$@" -std=gnu11 -dM -xc - |
        sed -n 's/^#define \(shmem_[a-z0-9_]*\)(\.\.\.).*/\1/p' | sort -u
    ;;
*)
    echo "usage: man-api.sh forms|list NAME|typenames|generics CPP..." >&2
    exit 2
    ;;
esac
