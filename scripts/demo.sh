#!/bin/sh
# The main job on the bundled corpus: parse every corpus post into
# OUT/<tool>/<case>.json and print a summary of what was found; draw each
# post's charts into OUT/<tool>/<case>/*.png, and print the comparison
# tables of the whole corpus.
# usage: demo.sh BENCHLOG CORPUS OUT
set -eu
bin=$1
corpus=$2
out=$3
mkdir -p "$out"
n=0
printf '%-34s %-6s %5s %6s %s\n' "case" "tool" "runs" "diags" "first result"
for input in "$corpus"/*/*/input; do
	case_dir=$(dirname "$input")
	tool=$(basename "$(dirname "$case_dir")")
	name=$(basename "$case_dir")
	mkdir -p "$out/$tool"
	doc="$out/$tool/$name.json"
	"$bin" parse -q -o "$doc" "$input" || echo "demo: $input: benchlog exited $?" >&2
	/usr/bin/python3 - "$doc" "$tool/$name" <<'PY'
import json, sys
path, name = sys.argv[1], sys.argv[2]
text = open(path).read()
dec = json.JSONDecoder()
docs, i = [], 0
while i < len(text):
    while i < len(text) and text[i].isspace():
        i += 1
    if i >= len(text):
        break
    d, i = dec.raw_decode(text, i)
    docs.append(d)
runs = [r for d in docs for r in d["runs"]]
diags = sum(len(d["diagnostics"]) for d in docs)
tools = sorted({r["tool"] for r in runs})
first = ""
# the headline number of the first run: its rate if it has one, else its time
for r in runs:
    by = {res["metric"]: res for res in r["results"] if res["value"] is not None}
    res = by.get("throughput") or by.get("elapsed")
    if res:
        v, u = res["value"], res["unit"]
        first = f'{r["tool"]} {res["metric"]} {v/1e6:.1f} MB/s' if u == "B/s" else f'{r["tool"]} {res["metric"]} {v:g} {u}'
        break
print(f'{name:<34.34} {",".join(tools) or "-":<6.6} {len(runs):>5} {diags:>6} {first}')
PY
	n=$((n + 1))
done
echo "demo: parsed $n corpus cases into $out/"

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
echo "demo: drew $charts charts into $out/<tool>/<case>/"
echo
"$bin" table "$corpus"/*/*/input
