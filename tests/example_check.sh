#!/bin/sh
# The example program (examples/runs.c) built against an installed
# benchlog through its pkg-config file, linked with the shared library
# and with the static one, reads a post: the runs it prints are those
# `benchlog parse` finds in it.
# usage: example_check.sh DESTDIR PREFIX POST
set -eu
destdir=$1
prefix=$2
post=$3
here=$(cd "$(dirname "$0")/.." && pwd)
out="$destdir/example"
mkdir -p "$out"
export PKG_CONFIG_PATH="$destdir$prefix/lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$destdir"
cc=${CC:-cc}
# shared
$cc -std=c11 -Wall -Wextra -Werror "$here/examples/runs.c" $(pkg-config --cflags benchlog) \
	$(pkg-config --libs benchlog) -o "$out/runs"
LD_LIBRARY_PATH="$destdir$prefix/lib" "$out/runs" "$post" >"$out/shared.txt"
# static
$cc -std=c11 -Wall -Wextra -Werror "$here/examples/runs.c" $(pkg-config --cflags benchlog) \
	-Wl,-Bstatic $(pkg-config --libs-only-L benchlog) -lbenchlog -Wl,-Bdynamic \
	$(pkg-config --static --libs-only-l benchlog | sed 's/-lbenchlog//') -o "$out/runs-static"
"$out/runs-static" "$post" >"$out/static.txt"
want=$("$destdir$prefix/bin/benchlog" parse --jsonl -q "$post" | grep -o '"tool":"[^"]*"' | wc -l)
got=$(grep -c '^line ' "$out/shared.txt")
if [ "$want" -eq 0 ] || [ "$got" -ne "$want" ] || ! cmp -s "$out/shared.txt" "$out/static.txt"; then
	echo "example: FAIL: $got runs printed, $want found by benchlog parse"
	cat "$out/shared.txt"
	exit 1
fi
echo "example: $got runs read through the installed library (shared and static)"
