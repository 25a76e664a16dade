#!/bin/bash
# quickstart.sh: on Debian/Ubuntu, install what sshmem needs, build it, install it (under
# PREFIX, default /usr/local) and run the first example with oshrun -np 4.
#   ./quickstart.sh            (as root, or with sudo available)
#   PREFIX=$HOME/sshmem ./quickstart.sh
set -euo pipefail
cd "$(dirname "$0")"
PREFIX="${PREFIX:-/usr/local}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

# 1. Debian packages (apt-get only when something is missing).
packages="gcc g++ make autoconf automake libtool pkg-config libucx-dev libpmix-dev libhwloc-dev libcmocka-dev libxml2-utils"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "== installing Debian packages:$missing"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $missing
fi

# 2. Build and install.
echo "== building sshmem"
[ -x configure ] || ./autogen.sh >/dev/null
[ -f Makefile ] || ./configure --prefix="$PREFIX" >/dev/null
make -j"$(nproc)" >/dev/null
echo "== installing into $PREFIX"
if [ -w "$PREFIX" ] || [ -z "$SUDO" ]; then make install >/dev/null; else $SUDO make install >/dev/null; fi

# 3. The first program, built and run the way a user does it.
echo "== oshcc examples/hello.c -o hello && oshrun -np 4 ./hello"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PREFIX/bin/oshcc" examples/hello.c -o "$tmp/hello"
"$PREFIX/bin/oshrun" -np 4 "$tmp/hello"
echo "== pkg-config --cflags --libs sshmem: $(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" pkg-config --cflags --libs sshmem)"
