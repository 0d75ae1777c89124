#!/bin/sh
# A valgrind pass: every corpus input (and the seed posts, when present)
# through one `benchlog parse`, and again in each wrapped form the decoders
# undo (quoted-printable, mbox, MIME and HTML, quoting, flattened), the -o
# path, `list` and `schema`, a few hostile inputs, and the test of patterns
# on unpadded subjects. Any memory error or any leak (definite, indirect
# or possible) fails. Skips when valgrind is not installed.
# usage: valgrind.sh BENCHLOG [TEST_RE]
set -u
# jansson on malloc: its leak check cannot see into the pool (cli/json_pool.c)
export BENCHLOG_MALLOC=system
bin=$1
here=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind: not installed; skipped (0 passed, 0 failed)"
	exit 0
fi
work="$here/build/valgrind"
mkdir -p "$work"
# hostile inputs, small: cut blocks, invalid UTF-8, NUL bytes, a long line
printf '2000+0 records in\n2000+0 rec' >"$work/cut.txt"
printf 'real\t0m\xff\xfe1.5s\nuser\t\x000m0.1s\n64+0 records in\n64+0 records out\n\x00\x00\x00' >"$work/bytes.txt"
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "64+0 records in 64+0 records out 1 real 0m1s "; print "" }' >"$work/long.txt"
test_re=${2:-}
rm -rf "$work/wrapped"
forms=$(python3 "$here/tests/wrapped_forms.py" "$here/corpus" "$work/wrapped") || exit 1
set -- $(ls "$here"/corpus/*/*/input "$here"/corpus/*/*/*/input "$here"/../shared/seeds/*.txt 2>/dev/null) \
	"$work/cut.txt" "$work/bytes.txt" "$work/long.txt"
vg="valgrind -q --suppressions=$(dirname "$0")/valgrind.supp --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible"
passed=0
failed=0
run() {
	what=$1
	shift
	if $vg "$@" >"$work/out" 2>"$work/err"; then
		passed=$((passed + 1))
	else
		rc=$?
		if [ $rc -eq 99 ] || grep -q '^==[0-9]*==' "$work/err"; then
			failed=$((failed + 1))
			echo "valgrind: FAIL $what (exit $rc)"
			grep '^==[0-9]*==' "$work/err" | head -n 40
		else
			passed=$((passed + 1)) # a data error exit is fine here
		fi
	fi
}
run "parse $# inputs" "$bin" parse --jsonl -q "$@"
run "parse $forms wrapped forms" "$bin" parse --jsonl -q "$work"/wrapped/*
[ -n "$test_re" ] && run "patterns on unpadded subjects" "$test_re"
run "parse -o" "$bin" parse -q -o "$work/doc.json" "$1"
run "list" "$bin" list
run "schema" "$bin" schema
run "parse stdin" sh -c "\"$bin\" parse -q < \"$1\""
# a chart drawn through the module the program loads (render/draw_module.h):
# memory errors only, pango keeping its default language for good
vg="valgrind -q --suppressions=$(dirname "$0")/valgrind.supp --error-exitcode=99 --leak-check=no"
rm -f "$work/chart.png"
run "chart through the drawing module" "$bin" chart -q -o "$work/chart.png" "$1"
if [ ! -s "$work/chart.png" ]; then # drawn, not only without errors
	failed=$((failed + 1))
	passed=$((passed - 1))
	echo "valgrind: FAIL no chart drawn: $(head -c 300 "$work/err")"
fi
echo "valgrind: $passed passed, $failed failed"
[ $failed -eq 0 ]
