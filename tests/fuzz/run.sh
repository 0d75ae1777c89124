#!/bin/sh
# Runs each libFuzzer target for SECONDS, seeded with the corpus inputs, the
# regression inputs and the format dictionary. A finding fails the run; its
# reproducer is left in build-fuzz/findings/.
#
# usage: run.sh SECONDS TARGET...
#
# Before fuzzing, each target replays every regression input in
# tests/fuzz/regress/ (past findings, kept forever) once, so a finding that
# comes back fails at once and deterministically. Each target also runs
# under `timeout` (twice its time plus a margin), so a fuzzer stuck in a
# slow input can never hang `make check`.
set -u
if [ $# -lt 1 ]; then
	echo "usage: run.sh SECONDS TARGET..." >&2
	exit 2
fi
secs=$1
shift
case $secs in
'' | *[!0-9]*)
	echo "run.sh: SECONDS must be a whole number, got '$secs'" >&2
	exit 2
	;;
esac
here=$(cd "$(dirname "$0")/../.." && pwd)
findings="$here/build-fuzz/findings"
regress="$here/tests/fuzz/regress"
mkdir -p "$findings"
status=0
passed=0
failed=0
for t in "$@"; do
	name=$(basename "$t")
	if [ ! -x "$t" ]; then
		echo "fuzz: $name: target $t not built"
		failed=$((failed + 1))
		status=1
		continue
	fi
	log="$here/build-fuzz/$name-${secs}s.log"
	work="$here/build-fuzz/corpus-$name"
	mkdir -p "$work"
	# Seed with every corpus input (copied, so the fuzzer never writes into
	# corpus/); names are content hashes, so reruns do not pile up copies.
	# A reader of benchlog JSON is seeded with the corpus documents too.
	docs=""
	case $name in fuzz_jsonread | fuzz_doc_split) docs="$here/corpus/*/*/expected.json" ;; esac
	# shellcheck disable=SC2086
	for f in "$here"/corpus/*/*/input "$here"/corpus/*/*/*/input "$regress"/* $docs; do
		[ -f "$f" ] || continue
		sum=$(cksum <"$f" | cut -d' ' -f1)
		cp "$f" "$work/seed-$sum"
	done
	# Replay the regression inputs first: one run each, no mutation.
	if ls "$regress"/* >/dev/null 2>&1; then
		if ! timeout 300 "$t" -runs=1 -rss_limit_mb=2048 -timeout=20 "$regress"/* \
			>"$log.regress" 2>&1; then
			echo "fuzz: $name fails on a regression input; see $log.regress"
			tail -n 30 "$log.regress"
			failed=$((failed + 1))
			status=1
			continue
		fi
	fi
	dict=""
	[ -f "$here/tests/fuzz/$name.dict" ] && dict="-dict=$here/tests/fuzz/$name.dict"
	echo "fuzz: $name for ${secs}s"
	# shellcheck disable=SC2086
	timeout $((secs * 2 + 120)) "$t" -max_total_time="$secs" -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$findings/$name-" \
		-print_final_stats=1 $dict "$work" >"$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		grep -aE '^#[0-9]+.*DONE' "$log" | tail -n 1
	else
		failed=$((failed + 1))
		status=1
		if [ $rc -eq 124 ]; then
			echo "fuzz: $name did not stop in time (hang); see $log"
		else
			echo "fuzz: $name found a problem (exit $rc); see $log and $findings/"
		fi
		tail -n 30 "$log"
	fi
done
echo "fuzz: $passed passed, $failed failed"
exit $status
