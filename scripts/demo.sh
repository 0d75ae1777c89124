#!/bin/sh
# The main job on the bundled corpus, in 80 columns: parse every corpus
# post into OUT/<tool>/<case>.json and say what was found per tool and per
# post; draw each post's charts into OUT/<tool>/<case>/*.png; write a report
# (OUT/report.html) of the three posts whose comparisons it prints; say
# where everything was written.
# usage: demo.sh BENCHLOG CORPUS OUT
set -eu
bin=$1
corpus=$2
out=$3
here=$(dirname "$0")
mkdir -p "$out"
n=0
for input in "$corpus"/*/*/input; do
	case_dir=$(dirname "$input")
	tool=$(basename "$(dirname "$case_dir")")
	name=$(basename "$case_dir")
	mkdir -p "$out/$tool"
	"$bin" parse -q -o "$out/$tool/$name.json" "$input" ||
		echo "demo: $input: benchlog exited $?" >&2
	n=$((n + 1))
done
/usr/bin/python3 "$here/demo_summary.py" "$out"

# charts: one PNG per chart of each post
charts=0
for input in "$corpus"/*/*/input; do
	case_dir=$(dirname "$input")
	tool=$(basename "$(dirname "$case_dir")")
	name=$(basename "$case_dir")
	rm -rf "$out/$tool/$name"
	if files=$("$bin" chart --all --format png -o "$out/$tool/$name/" "$input" 2>/dev/null); then
		charts=$((charts + $(printf '%s\n' "$files" | grep -c .)))
	fi
done

# a page to check the three posts compared below against what was read
"$bin" report -q --title "benchlog demo: three posts and what was read from them" \
	-o "$out/report.html" "$corpus/dd/seed000-geli-mirror-csh-time/input" \
	"$corpus/dd/seed004-ufs-zfs-repeats/input" \
	"$corpus/zpool-iostat/openzfs-verbose-classes/input"

# three comparisons worth seeing
echo
echo "== Is GELI worth it? dd on a ZFS mirror, each bar as a share of no eli:"
"$bin" table --tool dd --baseline "(mirror hdd, no eli!) zfs" \
	"$corpus/dd/seed000-geli-mirror-csh-time/input"
echo
echo "== UFS against ZFS, three runs each (median, range, n):"
"$bin" table --tool dd "$corpus/dd/seed004-ufs-zfs-repeats/input"
echo
echo "== Where a pool's load goes, in zpool's own MiB/s, vdev classes named:"
"$bin" table --tool zpool-iostat "$corpus/zpool-iostat/openzfs-verbose-classes/input" |
	sed -n '1,/^$/p' | sed '$d'
echo
echo "demo: $n posts parsed into $out/<tool>/<case>.json"
echo "demo: $charts charts drawn into $out/<tool>/<case>/*.png"
echo "demo: those three posts, as read, in $out/report.html"
echo "demo: every comparison: $bin table $corpus/*/*/input"
