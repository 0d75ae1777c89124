#!/bin/sh
# Runs each libFuzzer target for SECONDS, seeded with the corpus inputs and
# the format dictionary. A finding fails the run; its reproducer is left in
# build-fuzz/findings/. usage: run.sh SECONDS TARGET...
set -eu
secs=$1
shift
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$here/build-fuzz/findings"
status=0
for t in "$@"; do
	name=$(basename "$t")
	work="$here/build-fuzz/corpus-$name"
	mkdir -p "$work"
	# seed with every corpus input (copied, so the fuzzer never writes into corpus/)
	for f in "$here"/corpus/*/*/input; do
		[ -f "$f" ] && cp "$f" "$work/$(echo "$f" | cksum | cut -d' ' -f1)"
	done
	dict=""
	[ -f "$here/tests/fuzz/$name.dict" ] && dict="-dict=$here/tests/fuzz/$name.dict"
	echo "fuzz: $name for ${secs}s"
	if ! "$t" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$here/build-fuzz/findings/$name-" -print_final_stats=0 \
		$dict "$work" >"$here/build-fuzz/$name.log" 2>&1; then
		echo "fuzz: $name found a problem; see build-fuzz/$name.log and build-fuzz/findings/"
		tail -n 30 "$here/build-fuzz/$name.log"
		status=1
	else
		grep -E '^#[0-9]+.*DONE' "$here/build-fuzz/$name.log" | tail -n 1 || true
	fi
done
if [ $status -eq 0 ]; then
	echo "fuzz: $# passed, 0 failed"
else
	echo "fuzz: some targets failed"
fi
exit $status
