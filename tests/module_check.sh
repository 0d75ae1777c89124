#!/bin/sh
# module_check.sh - the program draws through benchlog-draw.so, loaded
# when it first draws (render/draw_module.h).
#
# usage: module_check.sh INSTALLED_BENCHLOG LINKED_BENCHLOG INPUT
#
# INSTALLED_BENCHLOG: the program as `make install` put it (under a
# DESTDIR, so that only its own ../lib/benchlog can hold the module);
# LINKED_BENCHLOG: one with the drawing code linked in (build-san). Checks
# that the installed program finds its module and draws each format and
# a report byte for byte as the linked one does, and that a program moved
# away from any module still parses, and says why it cannot draw.
set -u
bin=$1 linked=$2 input=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "module: FAIL: $*"; }

for fmt in png svg pdf; do
	if "$bin" chart -q -o "$tmp/mod.$fmt" "$input" && "$linked" chart -q -o "$tmp/lin.$fmt" "$input" &&
		cmp -s "$tmp/mod.$fmt" "$tmp/lin.$fmt"; then ok; else bad "chart .$fmt differs or failed"; fi
done
if "$bin" report -q -o "$tmp/mod.html" "$input" && "$linked" report -q -o "$tmp/lin.html" "$input" &&
	cmp -s "$tmp/mod.html" "$tmp/lin.html"; then ok; else bad "report differs or failed"; fi

# moved away from its module
mkdir "$tmp/alone"
cp "$bin" "$tmp/alone/benchlog"
if "$tmp/alone/benchlog" parse -q "$input" >/dev/null; then ok; else bad "parse needs the module"; fi
"$tmp/alone/benchlog" chart -q -o "$tmp/alone/c.png" "$input" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'cannot draw charts: benchlog-draw.so is in none of' "$tmp/err" &&
	[ ! -e "$tmp/alone/c.png" ]; then ok; else bad "chart without module: exit $rc, $(cat "$tmp/err")"; fi
"$tmp/alone/benchlog" report -q -o "$tmp/alone/r.html" "$input" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'report: cannot draw charts: ' "$tmp/err"; then ok; else
	bad "report without module: exit $rc, $(cat "$tmp/err")"; fi
# a file of that name that is no module
printf 'not a module\n' >"$tmp/alone/benchlog-draw.so"
"$tmp/alone/benchlog" chart -q -o "$tmp/alone/c.png" "$input" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'cannot draw charts: .*benchlog-draw.so' "$tmp/err"; then ok; else
	bad "chart with a broken module: exit $rc, $(cat "$tmp/err")"; fi

echo "module: $pass passed, $fail failed"
[ $fail -eq 0 ]
