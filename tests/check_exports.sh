#!/bin/sh
# The names the installed libraries export are exactly those of the list
# (the functions of include/benchlog.h), each starting bl_: nothing of
# the library's inside is reachable from a program linked with it.
# usage: check_exports.sh LIST LIBDIR
set -eu
list=$1
dir=$2
status=0
check() {
	what=$1
	shift
	got=$("$@" | awk '$2 ~ /^[TDBRVWi]$/ { print $3 }' | sed 's/@.*//' | sort -u)
	want=$(sort -u "$list")
	if [ "$got" != "$want" ]; then
		echo "check-exports: FAIL $what exports other names than $list:"
		printf '%s\n' "$got" >"$dir/.got"
		printf '%s\n' "$want" | diff - "$dir/.got" | sed -n 's/^[<>]/  &/p' | head -n 40
		rm -f "$dir/.got"
		status=1
	fi
	if printf '%s\n' "$got" | grep -qv '^bl_'; then
		echo "check-exports: FAIL $what exports a name without bl_"
		status=1
	fi
}
check "libbenchlog.so" nm -D --defined-only "$dir/libbenchlog.so"
check "libbenchlog.a" nm --extern-only --defined-only "$dir/libbenchlog.a"
[ $status -eq 0 ] && echo "check-exports: $(wc -l <"$list") names, 2 libraries"
exit $status
