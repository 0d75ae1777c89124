#!/usr/bin/env python3
"""Checks `benchlog chart` and `benchlog table` end to end.

usage: chart_cli.py BENCHLOG

Renders the corpus posts and the hand-written documents in tests/render/
to PNG, SVG and PDF and checks each file opens: the PNG's header gives the
size and its text chunks the provenance, the SVG parses as XML with its
metadata, the PDF has a page per chart. Also: input from a pipe of
`benchlog parse`, --all, same bytes for the same input, atomic output
(nothing left behind on failure), exit codes, and the three table styles.
Prints 'chart-cli: N passed, N failed'."""
import csv
import io
import json
import os
import pathlib
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
from benchlog_rows import results as run_results  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name} {detail}".rstrip())


ENV = dict(os.environ, LSAN_OPTIONS=f"suppressions={ROOT / 'tests/lsan.supp'}:print_suppressions=0")
# full stacks for the PDF runs, so that the cairo suppression can match
# (slow, so only there)
PDF_ENV = dict(ENV, ASAN_OPTIONS="fast_unwind_on_malloc=0")


def run(bl, *args, stdin=None):
    pdf = any(str(a).endswith(".pdf") or a == "pdf" for a in args)
    return subprocess.run([bl, *args], input=stdin, capture_output=True, env=PDF_ENV if pdf else ENV)


def png_chunks(data):
    """[(type, body)] after checking the signature and every CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "signature"
    out, i = [], 8
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        (crc,) = struct.unpack(">I", data[i + 8 + n:i + 12 + n])
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc, f"crc of {kind}"
        out.append((kind.decode("latin-1"), body))
        i += 12 + n
    return out


def png_text(chunks):
    text = {}
    for kind, body in chunks:
        if kind == "tEXt":
            k, v = body.split(b"\0", 1)
            text[k.decode("latin-1")] = v.decode("latin-1")
        elif kind == "iTXt":
            k, rest = body.split(b"\0", 1)
            # compression flag, method, language NUL, translated keyword NUL
            rest = rest[2:]
            _, rest = rest.split(b"\0", 1)
            _, v = rest.split(b"\0", 1)
            text[k.decode("latin-1")] = v.decode("utf-8")
    return text


def source_of(src):
    """The source a chart names: the post itself, or what a document says."""
    if src.suffix == ".json":
        return json.load(open(src))["source"]["path"]
    return str(src)


def runs_of(bl, src):
    """The runs of an input, as benchlog parse (or the document) has them."""
    if src.suffix == ".json":
        docs = [json.load(open(src))]
    else:
        out = subprocess.run([bl, "parse", "--jsonl", "-q", str(src)], capture_output=True, text=True)
        docs = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    docs = [d for x in docs for d in (x if isinstance(x, list) else [x])]
    return [r for d in docs for r in d["runs"]]


def pdf_pages(data):
    return len(re.findall(rb"/Type /Page[^s]", data))


def squeeze(text):
    """JSON text without the whitespace outside its strings."""
    out, in_str, esc = bytearray(), False, False
    for c in text:
        if in_str:
            out.append(c)
            in_str = esc or c != 0x22
            esc = not esc and c == 0x5C
        elif c not in b" \n":
            out.append(c)
            in_str = c == 0x22
    return bytes(out)


def indented_by_depth(text):
    """Every line of indented JSON starts with two spaces a level open."""
    depth = 0
    for line in text.decode().splitlines():
        body = line.lstrip(" ")
        closing = body[:1] in ("}", "]")
        if len(line) - len(body) != 2 * (depth - closing):
            return False
        depth += opens(body)
    return depth == 0


def opens(flat):
    """Brackets opened less those closed in a line, outside its strings."""
    n, in_str, esc = 0, False, False
    for c in flat:
        if in_str:
            in_str = esc or c != '"'
            esc = not esc and c == "\\"
        elif c == '"':
            in_str = True
        elif c in "{[":
            n += 1
        elif c in "}]":
            n -= 1
    return n


def check_each_file(bl, tmp, corpus, fixtures, NS):
    """Each corpus input and fixture drawn as PNG, SVG and PDF: the same bytes
    twice, and what each format carries of its source."""
    for src in corpus + fixtures:
        name = src.parent.name if src.name == "input" else src.stem
        runs = runs_of(bl, src)
        # histogram buckets (zpool iostat -w/-r) have no default chart
        chartable = any(x["value"] is not None and x["unit"] in ("B/s", "s", "ops/s") and "bucket" not in x
                        for r in runs for x in run_results(r))
        # PNG and SVG hold the first chart only: where some runs have a
        # command and others not, that chart may hold either
        with_cmd = [bool(r.get("command")) for r in runs]
        has_command = any(with_cmd) if all(with_cmd) or not any(with_cmd) else None
        for ext in ("png", "svg", "pdf"):
            out = tmp / f"{name}.{ext}"
            r = run(bl, "chart", str(src), "-o", str(out))
            if not chartable:
                # nothing to draw is an error, and no file is left behind
                check(f"{name}.{ext}: exit 1 with nothing to chart", r.returncode == 1 and not out.exists(),
                      r.stderr.decode()[:200])
                continue
            check(f"{name}.{ext}: exit 0", r.returncode == 0, r.stderr.decode()[:200])
            if r.returncode != 0:
                continue
            data = out.read_bytes()
            again = tmp / f"{name}.again.{ext}"
            run(bl, "chart", str(src), "-o", str(again))
            check(f"{name}.{ext}: same bytes twice", again.read_bytes() == data)
            if ext == "png":
                try:
                    chunks = png_chunks(data)
                except AssertionError as e:
                    check(f"{name}.png: decodes", False, str(e))
                    continue
                w, h = struct.unpack(">II", chunks[0][1][:8])
                check(f"{name}.png: IHDR first, 960 wide", chunks[0][0] == "IHDR" and w == 960 and h >= 300)
                t = png_text(chunks)
                check(f"{name}.png: Software chunk", t.get("Software", "").startswith("benchlog "))
                check(f"{name}.png: Source chunk", t.get("Source") == source_of(src), str(t.get("Source")))
                check(f"{name}.png: Comment holds commands", has_command is None or bool(t.get("Comment")) == has_command)
            elif ext == "svg":
                try:
                    tree = ET.fromstring(data)
                except ET.ParseError as e:
                    check(f"{name}.svg: parses as XML", False, str(e))
                    continue
                check(f"{name}.svg: parses as XML", tree.tag == "{http://www.w3.org/2000/svg}svg")
                # text as <text> (selectable, searchable), not glyph outlines
                words = " ".join(t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}text")).split()
                title = tree.find("{http://www.w3.org/2000/svg}title")
                check(f"{name}.svg: the title as <text>", title is not None and
                      all(w in words for w in title.text.split()), f"{title.text if title is not None else None} {words[:12]}")
                check(f"{name}.svg: no glyph outlines", b"glyph" not in data)
                prov = tree.find(f"{{http://www.w3.org/2000/svg}}metadata/{NS}provenance")
                check(f"{name}.svg: provenance metadata", prov is not None)
                if prov is not None:
                    check(f"{name}.svg: source", [e.text for e in prov.findall(f"{NS}source")] == [source_of(src)])
                    check(f"{name}.svg: commands", has_command is None or
                          (len(prov.findall(f"{NS}command")) >= 1) == has_command)
                    check(f"{name}.svg: software", prov.find(f"{NS}software").text.startswith("benchlog "))
            else:
                tables = run(bl, "table", str(src)).stdout.decode()
                ncharts = tables.count("\n\n") + 1
                check(f"{name}.pdf: a page per chart", pdf_pages(data) == ncharts,
                      f"{pdf_pages(data)} pages, {ncharts} charts")
                check(f"{name}.pdf: no clock time", b"/CreationDate" not in data)


def check_documents(bl, tmp, seed4):
    """benchlog JSON read back: from a pipe, one document after another, cut
    short, its members in another order; a post that opens with JSON."""
    # a pipe of benchlog parse gives the same chart as the post itself
    parsed = run(bl, "parse", "-q", str(seed4)).stdout
    r = run(bl, "chart", "-", "-o", str(tmp / "pipe.svg"), stdin=parsed)
    run(bl, "chart", str(seed4), "-o", str(tmp / "direct.svg"))
    check("parse | chart -: exit 0", r.returncode == 0, r.stderr.decode()[:200])
    check("parse | chart -: same SVG as the post", (tmp / "pipe.svg").read_bytes() == (tmp / "direct.svg").read_bytes())
    jsonl = run(bl, "parse", "-q", "--jsonl", str(seed4)).stdout
    r = run(bl, "table", "-", stdin=jsonl)
    check("JSON Lines input", r.returncode == 0 and b"/zfs/testfile #2" in r.stdout)
    # documents read one at a time: indented ones one after another, a
    # JSON Lines file cut inside its last document (the documents before
    # it kept, the cut told with its line), keys in another order
    seed0 = ROOT / "corpus/dd/seed000-geli-mirror-csh-time/input"
    both = run(bl, "table", str(seed4), str(seed0)).stdout
    indented = run(bl, "parse", "-q", str(seed4)).stdout + run(bl, "parse", "-q", str(seed0)).stdout
    r = run(bl, "table", "-", stdin=indented)
    check("indented documents one after another: the posts' table",
          r.returncode == 0 and r.stdout == both, r.stderr.decode()[:200])
    cut = jsonl + run(bl, "parse", "-q", "--jsonl", str(seed0)).stdout[:-200]
    r = run(bl, "table", "-", stdin=cut)
    check("a cut last document: exit 1, its line told, the one before kept",
          r.returncode == 1 and b"<stdin>:2: document 2 is cut short" in r.stderr
          and r.stdout == run(bl, "table", str(seed4)).stdout, r.stderr.decode()[:200])
    r = run(bl, "table", "-", stdin=jsonl + b"\n[1, 2]\n")
    check("a value after the documents that is none: its line told",
          r.returncode == 1 and b"<stdin>:3: not benchlog JSON" in r.stderr, r.stderr.decode()[:200])
    sorted_keys = json.dumps(json.loads(jsonl), sort_keys=True).encode()
    r = run(bl, "table", "-", stdin=sorted_keys)
    check("a document with its keys sorted (schema not first)",
          r.returncode == 0 and r.stdout == run(bl, "table", str(seed4)).stdout, r.stderr.decode()[:200])
    # documents in another key order are read one at a time too: a cut
    # one is told as a stream's is
    jsonl0 = run(bl, "parse", "-q", "--jsonl", str(seed0)).stdout
    sorted_two = b"".join(json.dumps(json.loads(d), sort_keys=True).encode() + b"\n"
                          for d in (jsonl, jsonl0))
    r = run(bl, "table", "-", stdin=sorted_two)
    check("two documents with their keys sorted: the posts' table",
          r.returncode == 0 and r.stdout == both, r.stderr.decode()[:200])
    # a post that opens with a JSON object of its own is still a post
    r = run(bl, "table", "-", stdin=b'{"system": {"os": "FreeBSD"}, "note": "mine"}\n' +
            seed4.read_bytes())
    check("a post opening with JSON that is no document: read as a post",
          r.returncode == 0 and r.stdout == run(bl, "table", str(seed4)).stdout.replace(
              b"source: input", b"source: <stdin>"), r.stderr.decode()[:200])
    r = run(bl, "table", "-", stdin=sorted_two[:-200])
    check("two documents with their keys sorted, the last cut: told as a stream's",
          r.returncode == 1 and b"<stdin>:2: document 2 is cut short" in r.stderr
          and r.stdout == run(bl, "table", str(seed4)).stdout, r.stderr.decode()[:200])


def check_chart_options(bl, tmp, seed4, fixtures):
    """chart's formats, options and usage errors, and what it leaves behind."""
    # standard output with --format
    r = run(bl, "chart", "--format", "svg", str(seed4), "-o", "-")
    check("--format svg -o -: SVG on stdout", r.returncode == 0 and r.stdout.startswith(b"<?xml")
          and r.stdout == (tmp / "direct.svg").read_bytes())

    # --all: one file per chart, named after the chart
    r = run(bl, "chart", "--all", "--format", "svg", str(seed4), *map(str, fixtures), "-o", str(tmp / "all") + "/")
    files = sorted(p.name for p in (tmp / "all").iterdir())
    check("--all: exit 0", r.returncode == 0, r.stderr.decode()[:200])
    check("--all: a file per chart", "dd-throughput.svg" in files and "time-elapsed.svg" in files
          and "bonniepp-rates.svg" in files and "iozone-throughput-64-MiB.svg" in files
          and "zpool-iostat-bandwidth.svg" in files and "diskinfo-seek.svg" in files, str(files))
    check("--all: prints the files", len(r.stdout.decode().split()) == len(files))

    # options
    for args in (["--horizontal"], ["--vertical"], ["--log"], ["--theme", "dark"], ["--units", "binary"],
                 ["--sort", "value"], ["--group-by", "run"], ["--group-by", "source"],
                 ["--where", "ufs"], ["--width", "640", "--height", "480"], ["--title", "Ünïcode 測試"],
                 ["--metric", "elapsed"], ["--tool", "time"]):
        out = tmp / "opt.png"
        r = run(bl, "chart", *args, str(seed4), "-o", str(out))
        check(f"option {' '.join(args)}", r.returncode == 0 and out.exists(), r.stderr.decode()[:200])
    w, h = struct.unpack(">II", png_chunks((tmp / "opt.png").read_bytes())[0][1][:8])
    r = run(bl, "chart", "--width", "640", "--height", "480", str(seed4), "-o", str(tmp / "size.png"))
    w, h = struct.unpack(">II", png_chunks((tmp / "size.png").read_bytes())[0][1][:8])
    check("--width/--height", (w, h) == (640, 480), f"{w}x{h}")
    r = run(bl, "chart", "--title", "Ünïcode 測試", str(seed4), "-o", str(tmp / "t.png"))
    check("a UTF-8 title goes into an iTXt chunk",
          png_text(png_chunks((tmp / "t.png").read_bytes())).get("Title") == "Ünïcode 測試")

    # usage errors: 2, nothing written, nothing left behind
    for args, what in ((["-o", str(tmp / "x.gif")], "unknown extension"),
                       (["--theme", "neon", "-o", str(tmp / "x.png")], "unknown theme"),
                       (["--group-by", "colour", "-o", str(tmp / "x.png")], "unknown key"),
                       (["--where", "(", "-o", str(tmp / "x.png")], "bad regex"),
                       (["--width", "ten", "-o", str(tmp / "x.png")], "bad width"),
                       ([], "no -o")):
        r = run(bl, "chart", *args, str(seed4))
        check(f"usage error ({what}): exit 2", r.returncode == 2, f"exit {r.returncode}")
    # nothing to chart: 1, no file, no temporary file
    before = set(os.listdir(tmp))
    r = run(bl, "chart", "--tool", "iozone", str(seed4), "-o", str(tmp / "none.png"))
    check("nothing to chart: exit 1", r.returncode == 1)
    check("nothing to chart: no file left", set(os.listdir(tmp)) == before, str(set(os.listdir(tmp)) - before))
    r = run(bl, "chart", str(tmp / "missing.txt"), "-o", str(tmp / "m.png"))
    check("missing input: exit 1", r.returncode == 1)
    r = run(bl, "chart", str(seed4), "-o", str(tmp / "no-such-dir" / "c.png"))
    check("unwritable output: exit 1", r.returncode == 1)


def check_tables(bl, tmp, seed4, fixtures):
    """Tables: aligned text, Markdown, tidy CSV."""
    # tables
    r = run(bl, "table", str(ROOT / "corpus/dd/seed000-geli-mirror-csh-time/input"))
    lines = r.stdout.decode().splitlines()
    check("table: exit 0", r.returncode == 0)
    check("table: title, header, rule and 8 rows", len(lines) == 11, str(len(lines)))
    widths = {len(l) for l in lines[1:]}
    check("table: rows aligned", len(widths) == 1, str(widths))
    r = run(bl, "table", str(ROOT / "corpus/dd/seed001-raidz-captions/input"))
    rows = r.stdout.decode().split("\n\n")[0].splitlines()[3:]
    # CJK counts two columns: the numbers end in the same column
    def cols(s):
        return sum(2 if 0x2E80 <= ord(ch) <= 0xFFE6 else 1 for ch in s)
    check("table: CJK labels aligned", len({cols(x) for x in rows}) == 1, str([cols(x) for x in rows]))
    r = run(bl, "table", "--markdown", str(seed4))
    md = [l for l in r.stdout.decode().splitlines() if l.startswith("|")]
    check("markdown: pipe tables", len(md) >= 5 and all(l.endswith("|") for l in md))
    check("markdown: numbers right-aligned", any(re.match(r"^\| -+ \| -+: \|", l) for l in md), md[1] if len(md) > 1 else "")
    r = run(bl, "table", "--csv", str(seed4), *map(str, fixtures))
    table = list(csv.DictReader(io.StringIO(r.stdout.decode())))
    expect = 0
    for src in [seed4] + fixtures:
        out = run(bl, "parse", "-q", "--jsonl", str(src)).stdout.decode() if src.suffix != ".json" else json.dumps(json.load(open(src)))
        for line in out.splitlines():
            if line.strip():
                expect += sum(len(run_results(run_)) for run_ in json.loads(line)["runs"])
    check("csv: one row per result", len(table) == expect, f"{len(table)} rows, {expect} results")
    check("csv: tidy columns", table and all(k in table[0] for k in ("source", "tool", "label", "metric", "value", "unit", "record_size", "vdev")))
    check("csv: censored flag kept", any(t["flags"] == "censored" and t["metric"] == "seq_create" for t in table))
    check("csv: not-run value empty", any(t["flags"] == "not-run" and t["value"] == "" for t in table))
    r = run(bl, "table", "--csv", "--markdown", str(seed4))
    check("table: --csv with --markdown is a usage error", r.returncode == 2)
    check_csv_fields(bl, tmp)


def csv_text(v):
    """A document's value as --csv writes it: reals as jansson dumps them."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):  # "1.5e-07" as "1.5e-7", "2" as "2.0"
        t = format(v, ".17g")
        if "e" in t:
            mant, exp = t.split("e")
            t = mant + "e" + ("-" if exp[0] == "-" else "") + (exp.lstrip("+-").lstrip("0") or "0")
        return t if any(c in t for c in ".en") else t + ".0"
    if isinstance(v, (dict, list)):
        return json.dumps(v)
    return str(v)


def check_csv_fields(bl, tmp):
    """--csv against the document it reads, field by field: quoting of
    commas, quotes and line breaks, reals to 17 digits, coordinates in
    columns sorted by name (a run's own and the other runs')."""
    label = 'fast, "tuned"\nsecond line'
    doc = {"schema": "benchlog/1", "source": {"path": "p,q.txt", "decoding": []}, "runs": [
        {"tool": "dd", "variant": "gnu", "label": label, "command": "dd bs=1M", "group": 0,
         "span": {"line": 3, "end_line": 5, "offset": 0, "end_offset": 10}, "params": {},
         "results": [
             {"metric": "throughput", "value": 0.1, "unit": "B/s", "raw": "0,1 \"MB/s\"",
              "zz": "a\"b", "size": 4096},
             {"metric": "elapsed", "value": 12, "unit": "s", "flags": ["approximate", "computed"],
              "aa": True}]},
        {"tool": "dd", "variant": "gnu", "label": None, "command": None, "group": 1,
         "span": {"line": 9, "end_line": 9, "offset": 20, "end_offset": 30}, "params": {},
         "results": [{"metric": "throughput", "value": None, "unit": "B/s", "flags": ["not-run"],
                      "size": 1.5e-07}]}]}
    path = tmp / "csv-fields.json"
    path.write_text(json.dumps(doc))
    r = run(bl, "table", "--csv", str(path))
    rows = list(csv.reader(io.StringIO(r.stdout.decode(), newline="")))
    head = ["source", "message", "tool", "variant", "label", "command", "group", "line",
            "metric", "value", "unit", "flags", "raw", "aa", "size", "zz"]
    check("csv fields: exit 0", r.returncode == 0, r.stderr.decode()[-300:])
    check("csv fields: header, coordinates sorted", rows[:1] == [head], str(rows[:1]))
    want = []
    for run_ in doc["runs"]:
        for res in run_["results"]:
            line = [doc["source"]["path"], "", run_["tool"], run_["variant"], csv_text(run_["label"]),
                    csv_text(run_["command"]), str(run_["group"]), str(run_["span"]["line"]),
                    res["metric"], csv_text(res["value"]), res["unit"],
                    ";".join(res.get("flags", [])), csv_text(res.get("raw"))]
            want.append(line + [csv_text(res.get(k)) for k in head[13:]])
    check("csv fields: every field as the document has it", rows[1:] == want,
          f"{rows[1:]} != {want}")
    # rows whose coordinates take the names of a result's own members:
    # those columns show the result's own, the first "a" its value
    doc["runs"] = [dict(doc["runs"][1], results=None, rows=[
        {"shape": 0, "coords": ["metric", "value", "raw", "flags", "unit", "a", "a"],
         "cells": [{"metric": "bw", "unit": "MB/s"}]},
        [0, "X", "Y", "Z", "F", "U", 1, 2, [5, "5.0", "approximate"]]])]
    del doc["runs"][0]["results"]
    path.write_text(json.dumps(doc))
    r = run(bl, "table", "--csv", str(path))
    rows = list(csv.reader(io.StringIO(r.stdout.decode(), newline="")))
    check("csv fields: own names as coordinates", rows[1:] == [
        ["p,q.txt", "", "dd", "gnu", "", "", "1", "9", "bw", "5", "MB/s", "approximate", "5.0",
         "1", "", "bw", "5.0", "MB/s", "5"]], str(rows))


def check_model(bl, tmp, seed4):
    """The chart model as data, as Vega-Lite, and --baseline."""
    # the chart model as data, and the same chart as Vega-Lite
    r = run(bl, "chart", "--model", str(seed4))
    model = json.loads(r.stdout) if r.returncode == 0 else []
    keys = {"id", "title", "unit", "log", "lower_is_better", "series", "bars"}
    check("--model: every chart has its members", model and all(keys <= set(c) for c in model), str(model)[:200])
    dd = next((c for c in model if c["id"] == "dd-throughput"), None)
    check("--model: dd in MB/s, higher is better", dd and dd["unit"] == "MB/s" and dd["lower_is_better"] is False)
    check("--model: one colour per series", dd and len({s["color"] for s in dd["series"]}) == len(dd["series"]))
    tm = next((c for c in model if c["id"] == "time-elapsed"), None)
    check("--model: times are lower-is-better", tm and tm["lower_is_better"] is True)
    bar_keys = {"label", "series", "value", "n", "min", "max", "censored", "flags"}
    check("--model: bars have their members", dd and all(bar_keys <= set(b) for b in dd["bars"]))
    vl = tmp / "dd.vl.json"
    r = run(bl, "chart", str(seed4), "-o", str(vl))
    spec = json.loads(vl.read_text()) if r.returncode == 0 and vl.exists() else {}
    check("-o .vl.json: a Vega-Lite spec", "vega-lite" in spec.get("$schema", ""))
    check("-o .vl.json: the model's bars as data", dd and len(spec.get("data", {}).get("values", [])) == len(dd["bars"]))
    r = run(bl, "chart", "--model", "--all", str(seed4), "-o", str(tmp / "models"))
    check("--model --all: a JSON file per chart", r.returncode == 0 and len(list((tmp / "models").glob("*.json"))) == len(model))

    r = run(bl, "table", "--baseline", "/ufs/testfile", "--tool", "dd", str(seed4))
    check("--baseline: percentages of the named bar", r.returncode == 0 and "% of /ufs/testfile" in r.stdout.decode()
          and re.search(r"^/ufs/testfile +100 \(99–106, n=3\) +100 ", r.stdout.decode(), re.M), r.stdout.decode()[:300])
    r = run(bl, "chart", "--baseline", "nosuch", str(seed4), "-o", str(tmp / "nosuch.png"))
    check("--baseline: an unknown label names the labels", r.returncode != 0 and "'/ufs/testfile'" in r.stderr.decode()
          and not (tmp / "nosuch.png").exists(), r.stderr.decode()[:300])


def check_habits(bl, tmp, seed4):
    """The habits of the command line: errors, -q, --runs, diagnostics."""
    # the habits of the command line: errors that say where help is, -q
    # on every command, no option that does nothing
    for cmd in ("parse", "chart", "table", "replay"):
        r = run(bl, cmd, "--nosuch")
        err = r.stderr.decode()
        check(f"{cmd} --nosuch: named, with a hint", r.returncode == 2 and
              f"benchlog {cmd}: unknown option '--nosuch'" in err and f"Try 'benchlog {cmd} --help'." in err, err)
    r = run(bl, "chart", "-o")
    check("chart -o without a value", r.returncode == 2 and "option '-o' needs a value" in r.stderr.decode())
    r = run(bl, "chart", "-q", "--all", str(seed4), "-o", str(tmp / "quiet"))
    check("chart -q: quiet", r.returncode == 0 and r.stdout == b"" and r.stderr == b"" and
          any((tmp / "quiet").iterdir()), r.stderr.decode()[:200])
    # a reader that stops early (`| head`) is no error to report
    for args in (["replay", "-n", "--json"], ["parse", "--jsonl"], ["table"]):
        p = subprocess.run(f"'{bl}' {' '.join(args)} '{seed4}' '{seed4}' '{seed4}' | head -c 1 >/dev/null",
                           shell=True, capture_output=True, env=ENV)
        check(f"{args[0]} | head: no write error", b"write error" not in p.stderr and
              b"standard output" not in p.stderr, p.stderr.decode()[:200])
    prose = tmp / "prose.txt"
    prose.write_text("Nothing measured in this one, only a question about ZFS tuning.\n")
    r = run(bl, "parse", str(prose))
    check("parse: a post without runs says so, exit 0", r.returncode == 0 and
          r.stderr.decode().count("\n") == 1 and "no benchmark output found" in r.stderr.decode(), r.stderr.decode())
    r = run(bl, "parse", "-q", str(prose))
    check("parse -q: no word about it", r.returncode == 0 and r.stderr == b"")
    r = run(bl, "parse", str(seed4))
    check("parse: a post with runs: no such line", b"no benchmark output" not in r.stderr)
    r = run(bl, "table", "--tool", "nosuch", str(seed4))
    check("--tool nosuch: the tools there are", r.returncode == 1 and
          "(its tools: dd, time, bonnie++)" in r.stderr.decode(), r.stderr.decode())
    r = run(bl, "chart", "--tool", "dd", "--metric", "nosuch", str(seed4), "-o", str(tmp / "m.png"))
    check("--metric nosuch: the metrics there are", r.returncode == 1 and
          "its metrics of dd: " in r.stderr.decode() and "throughput" in r.stderr.decode(), r.stderr.decode())
    # --runs: a run a line, each saying where it came from
    mbox = ROOT / "corpus/ingest/mbox-three-messages/input"
    r = run(bl, "parse", "--runs", str(mbox), str(seed4))
    lines = [json.loads(x) for x in r.stdout.decode().splitlines()]
    docs = [json.loads(x) for x in run(bl, "parse", "--jsonl", str(mbox), str(seed4)).stdout.decode().splitlines()]
    check("--runs: a line per run", r.returncode == 0 and len(lines) == sum(len(d["runs"]) for d in docs),
          f"{len(lines)} lines")
    check("--runs: source, message index and id first",
          lines and list(lines[0])[:4] == ["source", "message_index", "message_id", "tool"] and
          lines[1]["message_index"] == 1 and lines[1]["message_id"] == "<m2@example.org>" and
          lines[-1]["message_index"] is None and lines[-1]["source"] == str(seed4), json.dumps(lines[:2])[:300])
    want = [dict([("source", d["source"]["path"]),
                  ("message_index", d["source"].get("message", {}).get("index")),
                  ("message_id", d["source"].get("message", {}).get("message_id"))] + list(run_.items()))
            for d in docs for run_ in d["runs"]]
    check("--runs: each line its document's run, keys in order",
          [list(x.items()) for x in lines] == [list(x.items()) for x in want])
    r2 = run(bl, "parse", "--runs", "-j", "2", str(mbox), str(seed4))
    check("--runs -j 2: the serial output", r2.stdout == r.stdout)
    compact = r.stdout
    r = run(bl, "parse", "--runs", "--pretty", str(mbox), str(seed4))
    check("--runs --pretty: indented runs", r.returncode == 0 and r.stdout.startswith(b'{\n  "source": '))
    check("--runs --pretty: the compact lines, indented and nothing else",
          squeeze(r.stdout) == compact.replace(b"\n", b"") and indented_by_depth(r.stdout))
    r = run(bl, "parse", "--jsonl", "--runs", str(seed4))
    check("--jsonl with --runs: a usage error", r.returncode == 2)
    # diagnostics on stderr in line order, as a compiler prints them
    for case in ("diskinfo/malformed-no-numbers", "diskinfo/wrapped-rows-cut", "bonniepp/v200a-fast-and-files-spec"):
        r = run(bl, "parse", str(ROOT / "corpus" / case / "input"))
        nums = [int(x.split(":")[1]) for x in r.stderr.decode().splitlines() if x.count(":") >= 3]
        check(f"diagnostics in line order: {case}", len(nums) >= 2 and nums == sorted(nums), str(nums))
    r = run(bl, "table", "--log", str(seed4))
    check("table --log: refused (a table has no axis)", r.returncode == 2 and "--log" in r.stderr.decode())


def check_long_inputs(bl, tmp):
    """Inputs longer than a read window, archives mostly of prose, a long
    zpool iostat stream: read as their documents are."""
    # a post longer than a read window (6 MB) is read as parse reads it, a
    # window at a time: its table is that of parse's document, from a file
    # or from standard input, and a zpool iostat run that crosses the cuts
    # keeps every sample
    zp = (ROOT / "corpus/zpool-iostat/old-used-avail-verbose-interval/input").read_bytes()
    dd_input = next(iter(sorted(ROOT.glob("corpus/dd/*/input"))))
    dd = dd_input.read_bytes()
    big = tmp / "long.txt"
    big.write_bytes(dd + b"\n" + b"\n".join([zp] * (7 * 2**20 // len(zp) + 1)))
    doc = tmp / "long.json"
    r = run(bl, "parse", "-q", str(big), "-o", str(doc))
    direct, via_doc = run(bl, "table", str(big)), run(bl, "table", str(doc))
    piped = run(bl, "table", "-", stdin=big.read_bytes())
    check("long post: table exits 0", direct.returncode == 0, direct.stderr.decode()[:200])
    check("long post: the table of parse's document", direct.stdout == via_doc.stdout)
    check("long post: from standard input, the same",
          piped.stdout == direct.stdout.replace(big.name.encode(), b"<stdin>"))
    # an archive mostly of prose keeps, of its messages without runs, only
    # what names it: the table, CSV and chart model are those of parse's
    # documents, where every message has one; so with a post of no runs
    # among the inputs (its path tells the others' names apart)
    mails = []
    for i in range(300):
        body = dd if i in (150, 299) else b"Nothing measured in message %d.\n" % i
        mails.append(b"From m%d@example.org Mon Nov 30 10:00:00 2026\nSubject: s%d\n\n%s\n" % (i, i, body))
    arch = tmp / "prose.mbox"
    arch.write_bytes(b"".join(mails))
    (tmp / "a").mkdir(exist_ok=True)
    (tmp / "b").mkdir(exist_ok=True)
    (tmp / "a" / "input").write_bytes(b"No numbers here.\n")
    (tmp / "b" / "input").write_bytes(dd)
    posts = [str(arch), str(tmp / "a" / "input"), str(tmp / "b" / "input")]
    parsed = tmp / "posts.jsonl"
    parsed.write_bytes(run(bl, "parse", "-q", "--jsonl", *posts).stdout)
    for args in (["table"], ["table", "--csv"], ["chart", "--model"]):
        from_posts, from_docs = run(bl, *args, *posts), run(bl, *args, str(parsed))
        check(f"posts with few runs: {' '.join(args)} as from their documents",
              from_posts.returncode == 0 and from_posts.stdout == from_docs.stdout,
              from_posts.stderr.decode()[:200])
    # a zpool iostat -v stream of 3,000 samples (2,999 past the one since
    # boot), one run of 1 MB of text whose rows are read where the text
    # lies: its table, CSV and chart model are those of parse's document
    lines = ["$ zpool iostat -v tank 1"]
    for s in range(3000):
        lines += ["              capacity     operations    bandwidth",
                  "pool        alloc   free   read  write   read  write",
                  "----------  -----  -----  -----  -----  -----  -----",
                  "tank        1.07T  2.55T  %5d  %5d  %4dM  %4dM" % (s % 997, s % 89, s % 61, s % 7),
                  "  mirror    1.07T  2.55T  %5d  %5d  %4dM  %4dM" % (s % 31, s % 17, s % 13, s % 5),
                  "    ada0        -      -  %5d  %5d  %4dM  %4dM" % (s % 29, s % 11, s % 3, s % 2),
                  "----------  -----  -----  -----  -----  -----  -----", ""]
    stream = tmp / "stream.txt"
    stream.write_text("\n".join(lines))
    sdoc = tmp / "stream.json"
    run(bl, "parse", "-q", str(stream), "-o", str(sdoc))
    for args in (["table"], ["table", "--csv"], ["chart", "--model"]):
        from_post, from_doc = run(bl, *args, str(stream)), run(bl, *args, str(sdoc))
        check(f"a long zpool stream: {' '.join(args)} as from its document",
              from_post.returncode == 0 and from_post.stdout == from_doc.stdout and
              b"n=2999" in run(bl, "table", str(stream)).stdout, from_post.stderr.decode()[:200])
    # benchlog JSON after a BOM and more blanks than the first bytes read
    bom = tmp / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + b" " * 5000 + doc.read_bytes())
    check("JSON after a BOM and 5,000 blanks: read as JSON", run(bl, "table", str(bom)).stdout == via_doc.stdout)
    # --metric's unit outlives the documents (detect a pointer into a
    # function's stack or a result already let go)
    r = subprocess.run([bl, "chart", "--model", "--metric", "throughput", str(dd_input)], capture_output=True,
                       env=dict(ENV, ASAN_OPTIONS="detect_stack_use_after_return=1"))
    check("--metric: the chart's unit", r.returncode == 0 and b'"base_unit": "B/s"' in r.stdout.replace(b'":"', b'": "'),
          r.stderr.decode()[-300:])
    # the pool's read bandwidth: one value a sample past the first (since boot)
    objs = json.loads(run(bl, "parse", "--objects", "-q", str(big)).stdout)
    want = 0
    for zr in (x for x in objs["runs"] if x["tool"] == "zpool-iostat"):
        later = any((v.get("sample") or 0) > 0 for v in zr["results"])
        want += sum(1 for v in zr["results"] if v.get("vdev") == "tank" and v["metric"] == "read_bandwidth"
                    and not (later and v.get("sample") == 0))
    tank = [ln for ln in direct.stdout.decode().splitlines() if ln.startswith("tank ")]
    check("long post: every sample in the table", want > 5000 and tank and f"n={want})" in tank[0],
          f"{want} {tank[:1]}")


def main():
    bl = sys.argv[1]
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="benchlog-chart-"))
    corpus = sorted(ROOT.glob("corpus/*/*/input"))
    fixtures = sorted(ROOT.glob("tests/render/*.json"))
    NS = "{https://benchlog.invalid/ns/provenance-1}"
    seed4 = ROOT / "corpus/dd/seed004-ufs-zfs-repeats/input"
    check_each_file(bl, tmp, corpus, fixtures, NS)
    check_documents(bl, tmp, seed4)
    check_chart_options(bl, tmp, seed4, fixtures)
    check_tables(bl, tmp, seed4, fixtures)
    check_model(bl, tmp, seed4)
    check_habits(bl, tmp, seed4)
    check_long_inputs(bl, tmp)
    print(f"chart-cli: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
