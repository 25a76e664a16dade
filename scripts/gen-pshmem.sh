#!/bin/sh
# gen-pshmem.sh HEADER CPP...: print the declaration of every routine HEADER (shmem.h or
# shmemx.h) declares itself (shmem.h with its parts shmem_*.h; shmemx.h without shmem.h), under its profiling name (pshmem_put for
# shmem_put, p_my_pe for _my_pe, ...), as the library defines them (src/core/api_defs.h).
# Run by the build (Makefile.am): the declarations come from the preprocessor's expansion of
# the headers themselves, that is from the type tables of include/shmem_typetable.h, so the
# profiling header never needs a list of its own.
#
# How: preprocess HEADER (the C11 _Generic macros vanish, the X-macro tables are expanded),
# keep the lines that come from HEADER and its parts, cut them into
# statements at ';', keep the function declarations of public routines and prefix their names.
header="$1"
shift
case "$header" in
    shmem.h) files='/shmem(_[a-z0-9]+)?[.]h"$' ;; # [.], not \.: awk -v reads escapes
    *) files="/${header%.h}[.]h\"\$" ;;
esac
printf '#include <%s>\n' "$header" | "$@" -xc - |
awk -v files="$files" '/^# [0-9]+ "/ { keep = ($3 ~ files); next } keep' |
tr '\n' ' ' | sed 's/;/;\n/g' |
sed -E -n \
    -e 's/[[:space:]]+/ /g; s/^ //; s/__attribute__ *\(\(deprecated[^)]*\)\) *//g' \
    -e '/^(typedef|extern struct|struct) /d' \
    -e 's/^(.*[^A-Za-z0-9_])(shmemx?_[a-z0-9_]*[a-z0-9]|_my_pe|_num_pes|shmalloc|shfree|shrealloc|shmemalign|start_pes) ?\(/\1p\2(/p'
