#!/usr/bin/python3
"""demo_summary.py - what `make demo` found, in 80 columns.

usage: demo_summary.py OUT

Reads the documents demo.sh wrote (OUT/<tool>/<case>.json, one or more
benchlog/1 documents each) and prints, per tool, how many posts gave how
many runs and diagnostics, then one line per post: its runs, its
diagnostics and its headline figure (the first run's rate, else its
time), each line at most 80 columns."""
import json
import pathlib
import sys

from benchlog_rows import results as run_results  # noqa: E402

WIDTH = 80


def documents(path):
    text = path.read_text()
    dec = json.JSONDecoder()
    docs, i = [], 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        d, i = dec.raw_decode(text, i)
        docs.append(d)
    return docs


def human(value, unit):
    """22683845 B/s -> '22.7 MB/s'; 135.04 s -> '135 s'."""
    if unit in ("B/s", "B"):
        for div, name in ((1e9, "G"), (1e6, "M"), (1e3, "k"), (1, "")):
            if abs(value) >= div or div == 1:
                return f"{value / div:.3g} {name}{unit}"
    if unit == "s" and 0 < value < 1:
        return f"{value * 1e3:.3g} ms"
    return f"{value:.3g} {unit}"


def headline(runs):
    """The first run's rate (B/s, then ops/s), else its time."""
    for want in ("B/s", "ops/s", "s"):
        for r in runs:
            for res in run_results(r):
                if res.get("unit") == want and isinstance(res.get("value"), (int, float)):
                    return f'{human(res["value"], want)} {res["metric"]}'
    return "-"


def fit(text, width):
    return text if len(text) <= width else text[: width - 2] + ".."


def main():
    out = pathlib.Path(sys.argv[1])
    per_tool = {}
    lines = []
    for path in sorted(out.glob("*/*.json")):
        docs = documents(path)
        runs = [r for d in docs for r in d["runs"]]
        diags = sum(len(d["diagnostics"]) for d in docs)
        folder = path.parent.name
        t = per_tool.setdefault(folder, [0, 0, 0])
        t[0] += 1
        t[1] += len(runs)
        t[2] += diags
        name = fit(f"{folder}/{path.stem}", 38)
        lines.append(f"{name:<38} {len(runs):>4} {diags:>5}  {fit(headline(runs), WIDTH - 51)}")
    print(f"{'corpus folder':<20} {'posts':>5} {'runs':>6} {'diagnostics':>11}")
    for tool, (posts, runs, diags) in sorted(per_tool.items()):
        print(f"{tool:<20} {posts:>5} {runs:>6} {diags:>11}")
    print()
    print(f"{'post':<38} {'runs':>4} {'diags':>5}  first result")
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
