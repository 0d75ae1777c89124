#!/usr/bin/env python3
"""Round-trip check: every bare corpus case, wrapped the ways archives wrap
posts, must give the same runs as the case itself.

usage: roundtrip.py BENCHLOG CORPUS_DIR

A case is bare when benchlog applies no decoding to it (plain text). Each
bare input is wrapped as:
  qp        quoted-printable, no headers (=3D, soft breaks at 76 columns)
  mbox      one message of an mbox archive, quoted-printable body
  mime-html multipart/alternative: text/plain (base64) and a text/html twin
  quoted    every line prefixed with "> "
  html      an HTML page with the text in <pre>, entities escaped
  flat      all lines joined onto one line
and parsed again. Runs must match in tool, variant, command, params,
results and label; the flattened form may lose labels and commands and
must keep every number (tool, metric, value, unit). Prints one line per
failure and 'roundtrip: N passed, N failed'."""
import base64
import html
import json
import pathlib
import quopri
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
from benchlog_rows import results as run_results  # noqa: E402


def parse(binary, data, fmt="auto"):
    out = subprocess.run([binary, "parse", "--jsonl", "-q", "--input-format", fmt, "-"],
                         input=data, capture_output=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"exit {out.returncode}: {out.stderr[:300]!r}")
    return [json.loads(line) for line in out.stdout.decode().splitlines() if line.strip()]


def runs_of(docs):
    return [r for d in docs for r in d["runs"]]


def full_key(r):
    key = {k: r.get(k) for k in ("tool", "variant", "label", "command", "params")}
    key["results"] = run_results(r)
    return key


def number_key(r):
    return (r["tool"], [(x["metric"], x["value"], x["unit"]) for x in run_results(r)],
            {k: r["time"].get(k) for k in ("real", "user", "system", "cpu_percent")} if "time" in r else None)


def qp(text):
    return quopri.encodestring(text)


def wrap_mbox(text):
    body = qp(text).replace(b"\nFrom ", b"\n>From ")
    return (b"From someone@example.org Mon Jan 11 10:00:00 2010\n"
            b"From: Someone <someone@example.org>\n"
            b"Subject: =?UTF-8?Q?Benchmark_r=C3=A9sults?=\n"
            b"Date: Mon, 11 Jan 2010 10:00:00 +0000\n"
            b"Message-ID: <roundtrip@example.org>\n"
            b"MIME-Version: 1.0\n"
            b"Content-Type: text/plain; charset=utf-8\n"
            b"Content-Transfer-Encoding: quoted-printable\n\n" + body + b"\n")


def html_page(text):
    return (b"<!DOCTYPE html>\n<html><head><title>Archive</title>"
            b"<style>pre { color: #333 }</style><script>var x = '2000+0 records in';</script></head>\n"
            b"<body><h1>Re: benchmarks</h1>\n<pre>" + html.escape(text.decode("utf-8", "replace"), quote=False).encode()
            + b"</pre>\n<p>Next message&nbsp;&raquo;</p></body></html>\n")


def wrap_mime(text):
    b64 = base64.encodebytes(text)
    page = html_page(text)
    return (b"From: Someone <someone@example.org>\nSubject: results\n"
            b"Date: Mon, 11 Jan 2010 10:00:00 +0000\nMIME-Version: 1.0\n"
            b"Content-Type: multipart/alternative; boundary=\"==alt==\"\n\n"
            b"This is a multi-part message in MIME format.\n\n"
            b"--==alt==\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
            + b64 + b"\n--==alt==\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + qp(page) + b"\n--==alt==--\n")


def quoted(text):
    return b"".join(b"> " + line if line.strip() else b">" + line for line in text.splitlines(True))


def flat(text):
    return b" ".join(line.strip(b"\r") for line in text.split(b"\n"))


WRAPPERS = [
    ("qp", lambda t: qp(t), "auto"),
    ("mbox", wrap_mbox, "auto"),
    ("mime-html", wrap_mime, "auto"),
    ("quoted", quoted, "auto"),
    ("html", html_page, "auto"),
    ("flat", flat, "auto"),
]


def known_gaps():
    """Cases and wrappers that do not round-trip yet, from
    tests/roundtrip-known-gaps.txt ('tool/case [wrapper]' per line). A gap
    that starts passing fails the run, so that the list only shrinks."""
    path = pathlib.Path(__file__).with_name("roundtrip-known-gaps.txt")
    gaps = set()
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                gaps.add(line)
    return gaps


def main():
    binary, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
    passed = failed = skipped = known = 0
    gaps = known_gaps()
    for inp in sorted(corpus.glob("*/*/input")):
        data = inp.read_bytes()
        name = f"{inp.parent.parent.name}/{inp.parent.name}"
        try:
            bare = parse(binary, data)
        except Exception as e:  # noqa: BLE001
            print(f"FAIL {name}: bare: {e}")
            failed += 1
            continue
        if len(bare) != 1 or bare[0]["source"]["decoding"] or "message" in bare[0]["source"] or not bare[0]["runs"]:
            skipped += 1  # not a bare text case: it is itself a wrapped form
            continue
        want = runs_of(bare)
        for wname, fn, fmt in WRAPPERS:
            try:
                got = runs_of(parse(binary, fn(data), fmt))
            except Exception as e:  # noqa: BLE001
                print(f"FAIL {name} [{wname}]: {e}")
                failed += 1
                continue
            key = number_key if wname == "flat" else full_key
            w = [key(r) for r in want]
            g = [key(r) for r in got]
            gap = f"{name} [{wname}]" in gaps
            if w == g:
                if gap:
                    failed += 1
                    print(f"FAIL {name} [{wname}]: round-trips now: remove it from roundtrip-known-gaps.txt")
                else:
                    passed += 1
                continue
            if gap:
                known += 1
                continue
            failed += 1
            print(f"FAIL {name} [{wname}]: {len(want)} runs bare, {len(got)} wrapped")
            for i, (a, b) in enumerate(zip(w, g)):
                if a != b:
                    print(f"    run {i}: bare    {json.dumps(a, ensure_ascii=False)[:300]}")
                    print(f"    run {i}: wrapped {json.dumps(b, ensure_ascii=False)[:300]}")
                    break
    print(f"roundtrip: {known} known gaps (tests/roundtrip-known-gaps.txt)")
    print(f"roundtrip: {passed} passed, {failed} failed ({skipped} cases not bare text, skipped)")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
