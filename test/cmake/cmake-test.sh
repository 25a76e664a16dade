#!/bin/bash
# cmake-test.sh: a CMake project finds sshmem (find_package(sshmem), target sshmem::sshmem),
# builds examples/hello.c and runs it under oshrun. sshmem is installed for it into a
# directory of its own (make install DESTDIR=...), so the test uses the files `make install`
# puts in place, found from the package file's own place. TAP output.
set -u
src="${SSHMEM_TEST_SRCDIR:-.}"
build="${SSHMEM_TEST_BUILDDIR:-.}"
oshrun="${OSHRUN:-$build/oshrun}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sshmem-cmake.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "1..4"
n=0
check() { n=$((n + 1)); if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi; }
if ! command -v cmake >/dev/null; then
    for i in 1 2 3 4; do echo "not ok $i - cmake is not installed (apt-get install cmake)"; done
    exit 0
fi
env -u MAKEFLAGS -u MFLAGS make -s -C "$build" install DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1
rc=$?
config=$(find "$tmp/root" -name sshmemConfig.cmake | head -1)
check "make install puts sshmemConfig.cmake under lib/cmake/sshmem" \
    "$([ $rc -eq 0 ] && [ -n "$config" ] && [[ "$config" == */lib*/cmake/sshmem/sshmemConfig.cmake ]]; echo $?)"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/install.log" | tail -5
cmake -S "$src/test/cmake" -B "$tmp/proj" -DCMAKE_PREFIX_PATH="$(dirname "$(dirname "$(dirname "$(dirname "$config")")")")" \
    -DHELLO_SOURCE="$(cd "$src" && pwd)/examples/hello.c" >"$tmp/configure.log" 2>&1 &&
    cmake --build "$tmp/proj" >"$tmp/build.log" 2>&1
rc=$?
check "find_package(sshmem) and sshmem::sshmem build examples/hello.c" "$rc"
[ $rc -eq 0 ] || cat "$tmp/configure.log" "$tmp/build.log" | tail -15 | sed 's/^/# /'
# The run path: the program finds the installed libsshmem without LD_LIBRARY_PATH.
lib=$(env -u LD_LIBRARY_PATH ldd "$tmp/proj/hello" 2>/dev/null | awk '/libsshmem/ { print $3 }')
check "the program's run path finds the installed libsshmem ($lib)" \
    "$([[ "$lib" == "$tmp/root/"* ]]; echo $?)"
out=$(env -u LD_LIBRARY_PATH timeout 60 "$oshrun" -np 4 "$tmp/proj/hello" 2>&1)
rc=$?
check "it runs under oshrun -np 4 and every value is right (exit $rc)" \
    "$([ $rc -eq 0 ] && grep -q "^Hello from 4 PEs: .*: OK$" <<<"$out"; echo $?)"
[ $rc -eq 0 ] || head -5 <<<"$out" | sed 's/^/# /'
