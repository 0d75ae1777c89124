#!/usr/bin/env python3
"""Checks that every number of a real iozone capture is in the document, at
the right coordinates, and nothing else is: the table cells by test, file
size and record size, the throughput figures by test, scope and count.

The expectations are read from the capture with a reader of its own
(token order: this capture's blank cells are all trailing), so that the
parser's column placement is checked against something independent.

usage: iozone_sample.py BENCHLOG CAPTURE"""
import json
import re
import subprocess
import sys

COLS = ["write", "rewrite", "read", "reread", "random_read", "random_write", "bkwd_read",
        "record_rewrite", "stride_read", "fwrite", "frewrite", "fread", "freread"]
TP = {"initial writers": "initial_writers", "rewriters": "rewriters", "readers": "readers",
      "re-readers": "re_readers"}


def expected(text):
    cells, tp = set(), set()
    in_table = False
    scope_test = None
    for line in text.splitlines():
        if re.match(r"^\s+kB\s+reclen\s+write", line):
            in_table = True
            continue
        m = re.match(r"^\s+(\d+)\s+(\d+)((?:\s+\d+)+)\s*$", line)
        if in_table and m:
            fs, rs = int(m[1]) * 1024, int(m[2]) * 1024
            for name, v in zip(COLS, m[3].split()):
                cells.add((name, fs, rs, int(v) * 1024))
            continue
        in_table = False
        m = re.match(r"^\s+(Children see|Parent sees) throughput for\s+(\d+) (.+?)\s+=\s+([\d.]+) kB/sec", line)
        if m:
            scope_test = TP[m[3]]
            n = int(m[2])
            tp.add((scope_test, "children" if m[1][0] == "C" else "parent", n, round(float(m[4]) * 1024, 2)))
            continue
        m = re.match(r"^\s+(Min|Max|Avg) throughput per process\s+=\s+([\d.]+) kB/sec", line)
        if m:
            tp.add((scope_test, m[1].lower(), n, round(float(m[2]) * 1024, 2)))
        m = re.match(r"^\s+Min xfer\s+=\s+([\d.]+) kB", line)
        if m:
            tp.add((scope_test, "min_xfer", n, round(float(m[1]) * 1024, 2)))
    return cells, tp


def main():
    binary, capture = sys.argv[1], sys.argv[2]
    text = open(capture, encoding="utf-8").read()
    want_cells, want_tp = expected(text)
    out = subprocess.run([binary, "parse", "-q", capture], capture_output=True, text=True, timeout=60)
    doc = json.loads(out.stdout)
    got_cells, got_tp = set(), set()
    for run in doc["runs"]:
        for r in run["results"]:
            if "scope" in r:
                got_tp.add((r["metric"], r["scope"], r.get("processes"), round(r["value"], 2)))
            else:
                got_cells.add((r["metric"], r["file_size"], r["record_size"], r["value"]))
    failed = 0
    for what, want, got in (("cells", want_cells, got_cells), ("throughput", want_tp, got_tp)):
        missing, extra = want - got, got - want
        ok = not missing and not extra and want
        print(f"iozone sample {what}: {len(want)} expected, {len(missing)} missing, {len(extra)} extra")
        for x in sorted(missing, key=str)[:5]:
            print("  missing", x)
        for x in sorted(extra, key=str)[:5]:
            print("  extra", x)
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
