#!/bin/sh
# make demo's output fits an 80-column terminal, names what it found per
# tool and per post, shows its comparisons and says where it wrote.
# usage: demo_check.sh BENCHLOG
set -u
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
./scripts/demo.sh "$bin" corpus "$out/out" > "$out/demo.txt" 2>&1
rc=$?
passed=0
failed=0
check() {
	if [ "$2" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL $1"; fi
}
check "demo.sh exits 0" "$rc"
wide=$(/usr/bin/python3 -c '
import sys
print(sum(len(l) > 80 for l in open(sys.argv[1], encoding="utf-8").read().splitlines()))' "$out/demo.txt")
check "every line fits 80 columns ($wide over)" "$wide"
grep -Eq '^zpool-iostat +[0-9]+ +[0-9]+ +[0-9]+$' "$out/demo.txt"; check "a line per corpus folder" $?
grep -q '^dd/seed000-geli-mirror-csh-time  *16 ' "$out/demo.txt"; check "a line per post" $?
grep -q '^(mirror hdd, eli) zfs  *37.4  *50.6$' "$out/demo.txt"; check "the GELI comparison" $?
grep -Eq 'demo: [0-9]+ posts parsed into' "$out/demo.txt"; check "where the documents went" $?
[ -f "$out/out/dd/seed000-geli-mirror-csh-time/dd-throughput.png" ]; check "charts drawn" $?
grep -c '<mark class="run"' "$out/out/report.html" | grep -qx '[1-9][0-9]*'; check "a report written" $?
grep -q 'report.html$' "$out/demo.txt"; check "where the report went" $?
echo "demo: $passed passed, $failed failed"
[ "$failed" = 0 ]
