#!/usr/bin/python3
"""run.py - hostile inputs, each with a bound on time and memory.

usage: run.py BENCHLOG [--full] [--only NAME]

Every input is generated at test time under build/pathological/ (never
committed). Each case runs `benchlog parse --jsonl -q` under a CPU-time
limit, a wall-clock timeout and an address-space limit (RLIMIT_AS, the
`ulimit -v` of the shell), and must exit 0 with valid JSON documents, in
less CPU time and peak memory than its bound. `make check` runs the
smaller sizes (the suite stays well under a minute on two busy cores);
`--full` (run by `make bench`) uses the sizes of the issue: a 100 MB line,
a 1 GB sparse file, a million messages.

Memory bounds: 64 MB for every case. An mbox is streamed message by
message; a plain-text input larger than a window (6 MB, ingest/window.h)
is decoded and scanned a window at a time into one document; a document is
written run by run. (Before windows, a long line of 24 MB took 63 MB and
the 96 MB sparse file 104 MB, growing with the input; measured now at
check size: long line 44 MB, sparse 19 MB, header lines 20 MB.)
"""
import argparse
import base64
import io
import json
import pathlib
import random
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import zpool_stream  # noqa: E402 (tests/zpool_stream.py)
WORK = ROOT / "build" / "pathological"
MB = 1 << 20
BENCHLOG = None  # the binary under test (main)

DD_BSD = ("srebrny# time dd if=/dev/zero of=/data02/test01 bs=1m count=2000\n"
          "2000+0 records in\n2000+0 records out\n"
          "2097152000 bytes transferred in 92.451346 secs (22683845 bytes/sec)\n"
          "0.068u 10.386s 1:32.46 11.2% 26+1497k 63+16066io 0pf+0w\n")
DD_GNU = ("$ time dd bs=1M count=64 if=/dev/zero of=/tmp/x/f\n"
          "64+0 records in\n64+0 records out\n"
          "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s\n\n"
          "real\t0m0.020s\nuser\t0m0.000s\nsys\t0m0.019s\n")
PROSE = ("We ran the same test again after the upgrade, and the numbers were "
         "really close to the first run, 3 disks in a mirror.\n")


def write_repeated(path, chunk, size):
    data = chunk if isinstance(chunk, bytes) else chunk.encode()
    with open(path, "wb") as f:
        left = size
        while left > 0:
            f.write(data[:left])
            left -= min(left, len(data))


# ------------------------------------------------------------------ cases
# Each returns (path, cpu seconds bound, peak RSS bound in MB, check).


def case_long_line(scale):
    """one line of N bytes: a post whose newlines an archive dropped"""
    size = 100 * MB if scale == "full" else 24 * MB
    p = WORK / "long-line.txt"
    write_repeated(p, (PROSE + DD_BSD + DD_GNU).replace("\n", " "), size)
    return p, 30, 64, None


def case_header_lines(scale):
    """a million lines that look like the head of a table, and no data"""
    heads = ("records in\n"
             "Version  1.96       ------Sequential Output------ --Sequential Input- --Random-\n"
             "               capacity     operations    bandwidth\n"
             "Seek times:\n"
             "\tIozone: Performance Test of File I/O\n"
             "real\n"
             "Subject: Re: real numbers\n"
             "              KB  reclen   write rewrite    read    reread\n")
    n = 1000000
    p = WORK / "header-lines.txt"
    chunk = heads * 1000
    write_repeated(p, chunk, len(heads) * n // 8)
    return p, 30, 64, None


def case_nested_quotes(scale):
    """blocks under 1,000 levels of '>' quoting"""
    p = WORK / "nested-quotes.txt"
    lines = []
    for depth in (1, 10, 100, 1000):
        q = "> " * depth
        for line in (PROSE + DD_BSD + DD_GNU).splitlines():
            lines.append(q + line)
        q = ">" * depth  # the compact form
        for line in (DD_BSD + DD_GNU).splitlines():
            lines.append(q + " " + line)
    text = "\n".join(lines) + "\n"
    write_repeated(p, text, len(text) * (40 if scale == "full" else 8))
    return p, 30, 64, None


def case_truncated(scale):
    """each block cut at every byte, followed by prose"""
    p = WORK / "truncated.txt"
    with open(p, "w") as f:
        for block in (DD_BSD, DD_GNU):
            for cut in range(len(block) + 1):
                f.write(block[:cut] + "\n" + PROSE + "\n")
    return p, 30, 64, None


def case_invalid_utf8(scale):
    """invalid UTF-8 bytes everywhere, inside and around blocks"""
    p = WORK / "invalid-utf8.txt"
    src = (PROSE + DD_BSD + DD_GNU).encode()
    bad = [b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc0\xaf", b"\xed\xa0\x80", b"\x80"]
    out = bytearray()
    for i, c in enumerate(src):
        out.append(c)
        if i % 3 == 0:
            out += bad[i % len(bad)]
    size = (64 if scale == "full" else 8) * MB
    write_repeated(p, bytes(out), size)
    return p, 30, 64, None


def case_nul_bytes(scale):
    """NUL bytes inside blocks, and long runs of them"""
    p = WORK / "nul-bytes.txt"
    src = (PROSE + DD_BSD + DD_GNU).encode()
    out = bytearray()
    for i, c in enumerate(src):
        out.append(c)
        if i % 5 == 0:
            out += b"\0"
    out += b"\0" * 100000
    size = (64 if scale == "full" else 8) * MB
    write_repeated(p, bytes(out), size)
    return p, 30, 64, None


def case_sparse(scale):
    """a sparse file: a gigabyte of NUL bytes with a block in the middle"""
    p = WORK / "sparse.bin"
    size = 1024 * MB if scale == "full" else 96 * MB
    with open(p, "wb") as f:
        f.truncate(size)
        f.seek(size // 2)
        f.write(DD_BSD.encode())
    return p, 60, 64, None


def case_empty_messages(scale):
    """an mbox of a million empty messages"""
    n = 1000000 if scale == "full" else 100000
    p = WORK / "empty-messages.mbox"
    msg = "From nobody@example.org Mon Nov 30 06:00:00 2026\n\n"
    write_repeated(p, msg * 1000, len(msg) * n)
    return p, 60, 64, None


def zpool_sample(i):
    return zpool_stream.sample(lambda k: ((i * 7 + k) % 1000, (i * 13 + k) % 1000,
                                          "%d.%dM" % (i % 50, k), "%d.%dM" % ((i + k) % 50, i % 10)))


def write_stream(f, size, sep="\n"):
    """A `zpool iostat -v tank 1` of at least `size` bytes onto f, its
    lines ended by sep; returns its samples."""
    f.write("# zpool iostat -v tank 1" + sep)
    n = written = 0
    while written < size:
        block = zpool_sample(n).replace("\n", sep)
        f.write(block)
        written += len(block)
        n += 1
    return n


def zpool_stream_case(scale, name, sep, full_cpu=60):
    """A `zpool iostat -v tank 1` left running, its lines ended by `sep`,
    checked to be one run with every sample and every value."""
    size = (100 if scale == "full" else 30) * MB
    p = WORK / name
    with open(p, "w") as f:
        n = write_stream(f, size, sep)

    def check(docs):
        runs = [r for d in docs for r in d["zpool"]]
        if sum(sum(d["tools"].values()) for d in docs) != len(runs):
            return ["runs of other tools: %s" % [d["tools"] for d in docs]]
        got = [(r["samples"], r["results"]) for r in runs]
        want = [(n, n * zpool_stream.VALUES)]
        if got != want or [r["sample_numbers"] for r in runs] != [[0, n - 1, n]]:
            return ["%d samples, %d values in the input; read: %s" % (
                n, n * zpool_stream.VALUES, [(r["samples"], r["results"], r["sample_numbers"])
                                      for r in runs][:4])]
        if any(d["partial"] for d in docs):
            return ["partial: %s" % [c for d in docs for c in d["diagnostics"]][:4]]
        return []
    return p, full_cpu if scale == "full" else 60, 64, check


def case_zpool_stream(scale):
    """a `zpool iostat -v tank 1` left running: tens of megabytes, one run"""
    return zpool_stream_case(scale, "zpool-stream.txt", "\n")


def case_flattened_stream(scale):
    """the same stream flattened onto one line"""
    # about 0.6 s of CPU a megabyte: its 100 MB at full size take a minute
    return zpool_stream_case(scale, "flattened-stream.txt", " ", full_cpu=120)


class Utf16Writer:
    """Text written to it goes to f in UTF-16LE after a byte order mark,
    as Windows PowerShell's `>` writes it, CRLF line breaks."""

    def __init__(self, f):
        self.f = f
        f.write(b"\xff\xfe")

    def write(self, text):
        self.f.write(text.replace("\n", "\r\n").encode("utf-16-le"))


def case_utf16_stream(scale):
    """a `zpool iostat -v tank 1` redirected by Windows PowerShell (UTF-16,
    tens of megabytes): read in windows cut between its characters, one
    run with every sample"""
    size = (50 if scale == "full" else 20) * MB
    p = WORK / "utf16-stream.txt"
    with open(p, "wb") as f:
        n = write_stream(Utf16Writer(f), size)
    return p, 60, 64, streams_check([n])


def case_qp_flattened_mail(scale):
    """a post flattened onto one line, with words in other scripts, sent
    as a quoted-printable mail: its line is broken every 76 bytes, inside
    characters too; read in windows, every run, and no character cut in
    two where a window starts (a charset repair a whole reading does not
    make)"""
    import binascii
    size = (60 if scale == "full" else 20) * MB
    words = "\u00dcberpr\u00fcfung \u6f22\u5b57 \u0436\u0436 caf\u00e9 \u4e0a\u040a "
    dd = DD_BSD.replace("\n", " ")
    p = WORK / "qp-flattened-mail.mbox"
    runs = written = 0
    with open(p, "wb") as f:
        f.write(b"From a@example.org Mon Feb  1 10:00:00 2010\nFrom: a@example.org\n"
                b"Subject: the whole log\nMIME-Version: 1.0\n"
                b"Content-Type: text/plain; charset=utf-8\n"
                b"Content-Transfer-Encoding: quoted-printable\n\n")
        while written < size:
            block = "".join(words * (1 + (runs + k) % 7) + "Run %d: " % (runs + k) + dd
                            for k in range(1000))
            enc = binascii.b2a_qp(block.encode())
            # one line of text: the encoder's soft breaks only
            f.write(enc.rstrip(b"\n") + b"=\n")
            written += len(enc)
            runs += 1000
        f.write(b"\n")

    def check(docs):
        if len(docs) != 1:
            return ["%d documents" % len(docs)]
        if docs[0]["tools"].get("dd") != runs:
            return ["runs %s, want %d dd" % (docs[0]["tools"], runs)]
        if "charset" in docs[0]["decoding"]:
            return ["decodings %s: a character cut in two" % docs[0]["decoding"]]
        return []
    return p, 60, 64, check


def case_flattened_post(scale):
    """every bare corpus input flattened onto one line, repeated to 60 MB"""
    size = (100 if scale == "full" else 60) * MB
    one = []
    for inp in sorted((ROOT / "corpus").glob("*/*/input")):
        t = inp.read_bytes()
        head = t[:2000].lower()
        if (t.startswith((b"From ", b"\xff\xfe", b"\xfe\xff")) or b"content-type" in head
                or b"<html" in head or b"=\n" in t):
            continue
        one.append(b" ".join(line.strip(b"\r") for line in t.split(b"\n")))
    one = b" ".join(one)
    copies = size // len(one) + 1
    p = WORK / "flattened-post.txt"
    with open(p, "wb") as f:
        f.write(b" ".join([one] * copies))
    single = WORK / "flattened-one.txt"
    single.write_bytes(one)
    with open(WORK / "flattened-one.jsonl", "wb") as f:
        subprocess.run([str(BENCHLOG), "parse", "--jsonl", "-q", str(single)],
                       stdout=f, check=True)
    expect = {}
    for d in summarize(WORK / "flattened-one.jsonl"):
        for tool, n in d["tools"].items():
            expect[tool] = expect.get(tool, 0) + n
    single.unlink()
    (WORK / "flattened-one.jsonl").unlink()

    def check(docs):
        got = {}
        for d in docs:
            for tool, n in d["tools"].items():
                got[tool] = got.get(tool, 0) + n
        want = {k: v * copies for k, v in expect.items()}
        if got != want:
            return ["runs by tool %s, want %s" % (sorted(got.items()), sorted(want.items()))]
        return []
    return p, 60, 64, check


def streams_check(counts, ndocs=1):
    """A check that the first of `ndocs` documents holds one run a stream,
    with every sample and value of each, and is not partial."""
    def check(docs):
        if len(docs) != ndocs:
            return ["%d documents, want %d" % (len(docs), ndocs)]
        got = [(r["samples"], r["results"], r["sample_numbers"]) for r in docs[0]["zpool"]]
        want = [(n, n * zpool_stream.VALUES, [0, n - 1, n]) for n in counts]
        if got != want:
            return ["read %s, want %s" % (got, want)]
        if docs[0]["partial"]:
            return ["partial: %s" % docs[0]["diagnostics"][:4]]
        return []
    return check


def case_mailed_streams(scale):
    """`zpool iostat -v` streams back to back in one mail of an mbox, of
    sizes that end them at many places of the windows the mail is read
    in (a stream's end in the context before a window's own part once
    held the whole fragment's values: 88 MB), then a short mail: each
    stream its own run, every sample in it"""
    scale_mb = 4 if scale == "full" else 1
    sizes = [(2.9 + 0.2 * k) * scale_mb * MB for k in range(8)]
    p = WORK / "mailed-streams.mbox"
    with open(p, "w") as f:
        f.write("From member@example.org Mon Jan  1 00:00:00 2024\n"
                "From: member@example.org\nSubject: iostat while it ran\n"
                "Date: Mon, 1 Jan 2024 00:00:00 +0000\n\n")
        counts = [write_stream(f, size) for size in sizes]
        f.write("\nFrom other@example.org Mon Jan  1 00:01:00 2024\n"
                "From: other@example.org\nSubject: thanks\n\nThanks.\n")

    return p, 60, 64, streams_check(counts, 2)


class Base64Writer:
    """Text written to it goes to f in base64, lines of 76 characters."""

    def __init__(self, f):
        self.f, self.pending = f, b""

    def write(self, text):
        self.pending += text.encode()
        whole = len(self.pending) // (57 * 1024) * (57 * 1024)
        if whole:
            self.f.write(base64.encodebytes(self.pending[:whole]))
            self.pending = self.pending[whole:]

    def close(self):
        self.f.write(base64.encodebytes(self.pending))


def case_base64_mail(scale):
    """a `zpool iostat -v` stream sent as a base64 mail (.eml), tens of
    megabytes: read in windows, one run with every sample"""
    size = (60 if scale == "full" else 20) * MB
    p = WORK / "base64-mail.eml"
    with open(p, "wb") as f:
        f.write(b"From: member@example.org\nSubject: iostat while it ran\n"
                b"Date: Mon, 1 Jan 2024 00:00:00 +0000\nMIME-Version: 1.0\n"
                b"Content-Type: text/plain; charset=utf-8\n"
                b"Content-Transfer-Encoding: base64\n\n")
        # encoded as written, not held: this process's memory is the
        # child's until it runs benchlog, and its peak RSS counts it
        enc = Base64Writer(f)
        n = write_stream(enc, size)
        enc.close()

    return p, 60, 64, streams_check([n])


class TextTo:
    """Text written to it goes to the binary file f as UTF-8."""

    def __init__(self, f):
        self.f = f

    def write(self, text):
        self.f.write(text.encode())


def case_multipart_mail(scale):
    """a mail of four parts (.eml), tens of megabytes: a few lines with a
    dd run, two binary attachments in base64 (in lines, and on one line,
    the larger), and a `zpool iostat -v` stream attached as
    text: read part by part, the attachments passed over as they are read
    (held, either would pass the bound of 40 MB), one stream run with
    every sample, and the dd run"""
    size = (60 if scale == "full" else 36) * MB
    p = WORK / "multipart-mail.eml"
    rnd = random.Random(7)
    with open(p, "wb") as f:
        f.write(b"From: member@example.org\nSubject: the dump and the iostat\n"
                b"Date: Mon, 1 Jan 2024 00:00:00 +0000\nMIME-Version: 1.0\n"
                b"Content-Type: multipart/mixed; boundary=\"=_cut\"\n\n"
                b"This is a multi-part message in MIME format.\n--=_cut\n"
                b"Content-Type: text/plain; charset=utf-8\n\nThe copy first:\n\n" +
                DD_BSD.encode() +
                b"\n--=_cut\nContent-Type: application/gzip; name=\"dump.gz\"\n"
                b"Content-Transfer-Encoding: base64\n\n")
        for _ in range(size // 8 // (57 * 1024)):
            f.write(base64.encodebytes(rnd.randbytes(57 * 1024)))
        # another on one line, as some senders write base64
        f.write(b"--=_cut\nContent-Type: application/gzip; name=\"dump2.gz\"\n"
                b"Content-Transfer-Encoding: base64\n\n")
        for _ in range(size // 2 // (57 * 1024)):
            f.write(base64.b64encode(rnd.randbytes(57 * 1024)))
        f.write(b"\n--=_cut\nContent-Type: text/plain; charset=utf-8; name=\"iostat.txt\"\n"
                b"Content-Disposition: attachment\n\n")
        n = write_stream(TextTo(f), size // 2)
        f.write(b"\n--=_cut--\n")
    streams = streams_check([n])

    def check(docs):
        dd = docs[0]["tools"].get("dd") if docs else None
        return streams(docs) + ([] if dd == 1 else ["%s dd runs, want 1" % dd])
    return p, 60, 40, check


def case_html_mail(scale):
    """a mail whose body is an HTML page sent as is (8bit), a `zpool
    iostat -v` stream in its <pre>, tens of megabytes: read in windows as
    a page is (130 MB of memory read whole at 40 MB), one run with every
    sample"""
    size = (60 if scale == "full" else 20) * MB
    p = WORK / "html-mail.eml"
    with open(p, "w") as f:
        f.write("From: member@example.org\nSubject: iostat while it ran\n"
                "Date: Mon, 1 Jan 2024 00:00:00 +0000\nMIME-Version: 1.0\n"
                "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
                "<html><body><p>While the scrub ran:</p>\n<pre>")
        n = write_stream(f, size)
        f.write("</pre>\n</body></html>\n")
    return p, 60, 64, streams_check([n])


def case_long_page(scale):
    """an HTML page of two `zpool iostat -v` streams, each in its own
    <pre>, tens of megabytes: read in windows, each stream one run with
    every sample"""
    size = (50 if scale == "full" else 15) * MB
    p = WORK / "long-page.html"
    with open(p, "w") as f:
        f.write("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                "<title>iostat on tank</title></head><body>\n"
                "<h1>iostat on tank</h1>\n<p>While the scrub ran:</p>\n<pre>")
        counts = [write_stream(f, size)]
        f.write("</pre>\n<p>And after it, with the cache &amp; log added:</p>\n<pre>")
        counts.append(write_stream(f, size))
        f.write("</pre>\n</body></html>\n")

    return p, 60, 64, streams_check(counts)


def write_progress_log(path, seconds, bsd=False, warn_at=None):
    """A log of `dd status=progress` (2>dd.log): an update a second, each
    after a '\r', all on one line, then the records and the summary; in
    GNU's form or FreeBSD's, and with a `dd: warning` line parting the
    display before update `warn_at`."""
    with open(path, "w", newline="") as f:
        f.write("$ dd if=/dev/zero of=/dev/sdb bs=1M status=progress 2>dd.log; cat dd.log\n")
        for t in range(1, seconds + 1):
            b = t * 104857600
            if t == warn_at:
                f.write("\ndd: warning: partial read (131072 bytes); suggest iflag=fullblock\n")
            if bsd:
                f.write("\r%d bytes (%d MB, %d MiB) transferred %d.000s, 104858 kB/s"
                        % (b, b // 10**6, b >> 20, t))
            else:
                f.write("\r%d bytes (%.1f GB, %.1f GiB) copied, %d s, 105 MB/s"
                        % (b, b / 1e9, b / 2**30, t))
        b = seconds * 104857600
        f.write("\n%d+0 records in\n%d+0 records out\n" % (b >> 20, b >> 20))
        if bsd:
            f.write("%d bytes transferred in %d.250000 secs (104595232 bytes/sec)\n" % (b, seconds))
        else:
            f.write("%d bytes (%.1f GB, %.1f GiB) copied, %d.25 s, 105 MB/s\n"
                    % (b, b / 1e9, b / 2**30, seconds))


def one_display_check(seconds):
    """A check that the input's one progress display is read whole: every
    update of `seconds`, each exact, and the document not partial."""
    def check(docs):
        got = [x for d in docs for x in d["dd_progress"]]
        want = [{"updates": seconds, "at": [1, seconds], "exact": True}]
        if got != want or any(d["partial"] for d in docs):
            return ["read %s, want %s; diagnostics %s" % (got, want,
                                                         [d["diagnostics"] for d in docs])]
        return []
    return check


def case_progress_lengths(scale):
    """progress logs of 60 to 260 seconds, one after another, every other
    one under a `dd: warning` line: each length puts the cut of the line's
    4 KB pieces elsewhere (in an update, or just before the last), and
    every update of every log is read exactly"""
    p = WORK / "progress-lengths.txt"
    lengths = list(range(60, 261))
    with open(p, "w") as f:
        for i, seconds in enumerate(lengths):
            f.write("\nRun %d:\n\n$ dd if=/dev/zero of=/dev/sdb bs=1M status=progress\n" % i)
            if i % 2:
                f.write("dd: warning: partial read (131072 bytes); suggest iflag=fullblock\n")
            for t in range(1, seconds + 1):
                f.write("\r" + gnu_update(t))
            b = seconds * 104857600
            f.write("\n%d+0 records in\n%d+0 records out\n%d bytes (%.1f GB, %.1f GiB) copied, "
                    "%d.25 s, 105 MB/s\n" % (b >> 20, b >> 20, b, b / 1e9, b / 2**30, seconds))

    def check(docs):
        got = [x for d in docs for x in d["dd_progress"]]
        want = [{"updates": n, "at": [1, n], "exact": True} for n in lengths]
        bad = [(w["updates"], g) for g, w in zip(got, want) if g != w]
        if len(got) != len(want) or bad:
            return ["%d logs read, want %d; wrong: %s" % (len(got), len(want), bad[:4])]
        return []
    return p, 30, 64, check


def case_progress_across_windows(scale):
    """half a day of progress (2.6 MB) after 5 MB of prose: the display
    starts in the first window, its summary lies past all that window
    reads; the next window keeps the run, every update"""
    seconds = 43200
    p = WORK / "progress-across-windows.txt"
    tail = WORK / "progress-across-windows.part"
    write_progress_log(tail, seconds)
    with open(p, "w") as f:
        while f.tell() < 5000000:
            f.write(PROSE * 40 + "\n")
    with open(p, "ab") as f, open(tail, "rb") as g:
        f.write(g.read())
    tail.unlink()
    return p, 30, 64, one_display_check(seconds)


def case_progress_log(scale):
    """half a day of `dd status=progress` in a log: one line of 43,200
    updates (2.6 MB, wrapped at its '\r's), every one read exactly"""
    seconds = 43200
    p = WORK / "progress-log.txt"
    write_progress_log(p, seconds)
    return p, 30, 64, one_display_check(seconds)


def case_progress_past_window(scale):
    """a progress line longer than a read window (160,000 updates, 10 MB):
    the window its end cuts holds the run, the next reads it on, and every
    update is read exactly, numbered as one display"""
    seconds = 160000
    p = WORK / "progress-past-window.txt"
    write_progress_log(p, seconds)
    return p, 30, 64, one_display_check(seconds)


def case_progress_bsd_past_window(scale):
    """FreeBSD's progress line ("... transferred 415.226s, 9667 kB/s"),
    150,000 updates: held and read on as GNU's is, every update exact"""
    seconds = 150000
    p = WORK / "progress-bsd-past-window.txt"
    write_progress_log(p, seconds, bsd=True)
    return p, 30, 64, one_display_check(seconds)


def case_progress_parted_past_window(scale):
    """a display over two windows that a `dd: warning` line parts near its
    end, then 2 MB of prose: both parts are the run's, in order, the
    updates the next window reads past its own part among them"""
    seconds = 150000
    p = WORK / "progress-parted-past-window.txt"
    write_progress_log(p, seconds, warn_at=140001)
    with open(p, "a") as f:
        for i in range(20000):
            f.write("The second try went no faster, see line %d.\n" % i)
    return p, 30, 64, one_display_check(seconds)


def case_progress_tail_piece(scale):
    """a display of 40,000 updates that a `dd: warning` parts before update
    20,009: the first part's last 4 KB piece, once wrapped, holds one
    update, no '\r' in it, read as a summary before; it is the display's"""
    seconds = 40000
    p = WORK / "progress-tail-piece.txt"
    write_progress_log(p, seconds, warn_at=20009)
    return p, 30, 64, one_display_check(seconds)


def case_progress_no_summary(scale):
    """four days of progress (400,000 updates, 28 MB, five windows) that the
    input cuts inside an update, no summary below it: every whole update
    read, numbered on across the windows, and the missing summary told"""
    seconds = 400000
    p = WORK / "progress-no-summary.txt"
    write_progress_log(p, seconds + 1)
    data = p.read_bytes()
    p.write_bytes(data[:data.index(b"\n", 100) - 20])

    def check(docs):
        got = [x for d in docs for x in d["dd_progress"]]
        want = [{"updates": seconds, "at": [1, seconds], "exact": True}]
        codes = [c for d in docs for c in d["diagnostics"]]
        if got != want or any(d["partial"] for d in docs) or "dd.no-summary" not in codes:
            return ["read %s, want %s; diagnostics %s" % (got, want, codes)]
        return []
    return p, 30, 64, check


def write_zpool_log(path, seconds, pools, stamped, date_above=False):
    """`zpool iostat -l [-T u] POOLS 1 > log`: away from a terminal zpool
    prints its header once, at the top, then a row a pool a second."""
    head = ("              capacity     operations     bandwidth    total_wait     disk_wait    "
            "syncq_wait    asyncq_wait  scrub   trim  rebuild\n"
            "pool        alloc   free   read  write   read  write   read  write   read  write   "
            "read  write   read  write   wait   wait   wait\n"
            "----------  -----  -----  -----  -----  -----  -----  -----  -----  -----  -----  "
            "-----  -----  -----  -----  -----  -----  -----\n")
    with open(path, "w") as f:
        f.write("# zpool iostat -l %s%s 1 > iostat.log\n" % ("-T u " if stamped else "",
                                                           " ".join(pools)))
        if date_above:
            f.write("Tue Mar  5 13:22:11 UTC 2024\n")
        f.write(head)
        for t in range(seconds):
            if stamped:
                f.write("%d\n" % (1709647331 + t))
            for pool in pools:
                # read ops: the second's number mod 9, in thousands
                f.write("%-10s  3.39T  18.6T  %4dK  2.16K   187M  96.6M    8ms    2ms    6ms    1ms"
                        "      -    1ms    2ms    1ms   45ms      -      -\n"
                        % (pool, 1 + t % 9))


def zpool_log_case(name, seconds, pools, stamped, date_above=False):
    p = WORK / name
    write_zpool_log(p, seconds, pools, stamped, date_above)

    def check(docs):
        got = [s for d in docs for s in d["zpool"]]
        want = [{"samples": seconds, "results": seconds * len(pools) * 17,
                 "sample_numbers": [0, seconds - 1, seconds]}]
        if got != want or any(d["partial"] for d in docs):
            return ["read %s, want %s; diagnostics %s" % (got, want,
                                                         [d["diagnostics"] for d in docs])]
        return []
    return p, 60, 64, check


def case_dd_loop_blocks(scale):
    """a loop's dd blocks back to back, each larger (100,000 of them, 10 MB):
    every one a run of its own (no summaries so far: dd is not signalled),
    in linear time"""
    n = 100000
    p = WORK / "dd-loop-blocks.txt"
    with open(p, "w") as f:
        f.write("# for n in $(seq 100000); do dd if=/dev/zero of=f bs=1M count=$n; done\n")
        for k in range(1, n + 1):
            f.write("%d+0 records in\n%d+0 records out\n%d bytes transferred in %d.5 secs "
                    "(%d bytes/sec)\n" % (k, k, k << 20, k, (k << 20) * 2 // (2 * k + 1)))

    def check(docs):
        runs = sum(d["tools"].get("dd", 0) for d in docs)
        return [] if runs == n else ["%d dd runs, want %d" % (runs, n)]
    return p, 30, 64, check


BPP_CSV = ("1.92,1.92a,oldbox,1,%d,1G,,300,95,20011,30,9011,10,400,90,25012,12,101.1,1,16,,,,,"
           "1200,50,+++++,+++,1500,40,1100,45,+++++,+++,1300,39,15ms,220ms,380ms,9801us,70ms,"
           "250ms,1200us,300us,900us,1100us,40us,800us\n")


def case_bonniepp_csv_log(scale):
    """a log of bonnie++ CSV lines, 3,000 of one test (`-x 3000`, or a
    night's run kept every day), then 1,000 of another: two groups of
    repeats, however many blocks of records the parser reads them in"""
    first, second = 3000, 1000
    p = WORK / "bonniepp-csv-log.txt"
    with open(p, "w") as f:
        f.write("bonnie++ -x 3000 -m oldbox, its CSV lines:\n\n")
        for k in range(first):
            f.write(BPP_CSV % (1000 + k))
        for k in range(second):
            f.write(BPP_CSV.replace("oldbox,1,", "oldbox,2,") % (5000 + k))

    def check(docs):
        got = [(d["tools"].get("bonnie++", 0), d["groups"].get("bonnie++", 0), d["partial"])
               for d in docs]
        want = [(first + second, 2, False)]
        return [] if got == want else ["read %s, want %s (runs, groups, partial)" % (got, want)]
    return p, 30, 64, check


BPP_X_HEAD = """Version  1.97       ------Sequential Output------ --Sequential Input- --Random-
Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
db-replica-07.ex 8G   702  97 98011  14 40321   6  1533  96 120455   9 402.1   5
Latency             12043us     301ms     512ms    9822us   88310us     410ms
"""
BPP_X_ROW = """                      699  97 97345  14 41002   6  1529  96 119800   9 398.7   5
Latency             11987us     298ms     530ms   10201us   90122us     395ms
"""


def case_bonniepp_x_table(scale):
    """one bonnie++ table of 1,000 rows (`-x 1000`, or bon_csv2txt over a
    log of nightly runs): a run a row, every one, one group of repeats"""
    n = 1000
    p = WORK / "bonniepp-x-table.txt"
    with open(p, "w") as f:
        f.write("bonnie++ -x 1000, the table it printed:\n\n" + BPP_X_HEAD + BPP_X_ROW * (n - 1))

    def check(docs):
        got = [(d["tools"].get("bonnie++", 0), d["groups"].get("bonnie++", 0), d["partial"])
               for d in docs]
        want = [(n, 1, False)]
        return [] if got == want else ["read %s, want %s (runs, groups, partial)" % (got, want)]
    return p, 30, 64, check


def case_bonniepp_long_table(scale):
    """one bonnie++ table of 50,000 rows (8 MB, longer than a read
    window): read 1,024 rows at a time, each block going on with the
    table's columns, every row a run, one group of repeats"""
    n = 50000
    p = WORK / "bonniepp-long-table.txt"
    with open(p, "w") as f:
        f.write("bonnie++ -x 50000, the table it printed:\n\n" + BPP_X_HEAD + BPP_X_ROW * (n - 1))

    def check(docs):
        got = [(d["tools"].get("bonnie++", 0), d["groups"].get("bonnie++", 0),
                d["values"].get("bonnie++", 0), d["partial"]) for d in docs]
        # a row: 6 rates, their 6 CPU figures and 6 latencies
        want = [(n, 1, 18 * n, False)]
        return [] if got == want else ["read %s, want %s (runs, groups, values, partial)"
                                       % (got, want)]
    return p, 60, 64, check


BPP_103_IO = """Version  1.03       ------Sequential Output------ --Sequential Input- --Random-
                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--
Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP
"""
BPP_103_FILES = """                    ------Sequential Create------ --------Random Create--------
                    -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--
files:max:min        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP
"""


def case_bonniepp_103_tables(scale):
    """bonnie++ 1.03 -x 3000: its IO table of 3,000 rows, then its file
    table of as many: every value of every row kept (a file row whose IO
    row an earlier block read is a run of its own)"""
    n = 3000
    p = WORK / "bonniepp-103-tables.txt"
    with open(p, "w") as f:
        f.write("./bonnie++ -s 1g -n 10 -x %d\n\n" % n + BPP_103_IO)
        f.write("v4.128M          1G 19903  89 37911  20 15392  11 13624  58 41807  12 131.0   0\n"
                * n)
        f.write(BPP_103_FILES)
        f.write("v4.128M          10 18503 100 +++++ +++  9488  99 10158  99 +++++ +++ 11635  99\n"
                * n)

    def check(docs):
        got = [(d["values"].get("bonnie++", 0), d["partial"]) for d in docs]
        want = [(24 * n, False)]  # 24 values a machine: 12 of the IO row, 12 of the files'
        return [] if got == want else ["read %s, want %s (values, partial)" % (got, want)]
    return p, 30, 64, check


def write_bonnie_table(f, n, sep="\n"):
    """Tim Bray's bonnie: one header over n machines, each line ended by
    sep (" ": pasted without line breaks)"""
    f.write(sep.join(["% bonnie -s 100",
                      "              -------Sequential Output-------- ---Sequential Input-- "
                      "--Random--",
                      "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- "
                      "--Seeks---",
                      "Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec "
                      "%CPU"]) + sep)
    for i in range(n):
        f.write("box%06d  100  %4d 95.1  4012 31.0  1733 15.2  2301 97.0  4810 20.3  88.2  "
                "5.1%s" % (i, 1000 + i % 9000, sep))


def case_bonnie_long_table(scale):
    """Tim Bray's bonnie, one header over 100,000 machines (8 MB, longer
    than a read window): read 512 rows at a time, every row a run, and
    the memory of a block, not of the table"""
    n = 100000
    p = WORK / "bonnie-long-table.txt"
    with open(p, "w") as f:
        write_bonnie_table(f, n)

    def check(docs):
        got = [(d["tools"].get("bonnie", 0), d["values"].get("bonnie", 0), d["partial"])
               for d in docs]
        want = [(n, 12 * n, False)]  # a row: 6 rates and their 6 CPU figures
        return [] if got == want else ["read %s, want %s (runs, values, partial)" % (got, want)]
    return p, 60, 64, check


IOZONE_HEAD = """\tIozone: Performance Test of File I/O
\t        Version $Revision: 3.489 $
\t\tCompiled for 64 bit mode.
\t\tBuild: linux-AMD64

\tRun began: Sat Jan  4 10:02:11 2025

\tAuto Mode
\tCommand line used: iozone -a -n 64k -g 4t
\tOutput is in kBytes/sec
                                                              random    random     bkwd    record    stride
              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread
"""


def case_iozone_long_table(scale):
    """one iozone -a table of 80,000 rows (11 MB, longer than a read
    window): read 2,048 rows at a time, each block a run going on with
    the table's command and columns, every cell kept once"""
    n = 80000
    p = WORK / "iozone-long-table.txt"
    with open(p, "w") as f:
        f.write("$ iozone -a -n 64k -g 4t\n" + IOZONE_HEAD)
        for i in range(n):
            f.write("%16d%8d" % (64 * (i + 1), 4) +
                    "".join("%9d" % (1000 + 13 * i + k) for k in range(13)) + "\n")
        f.write("\niozone test complete.\n")
    cell_sum = sum(13 * (1000 + 13 * i) + 78 for i in range(n))

    def check(docs):
        got = [(d["values"].get("iozone", 0), d["iozone_cells"], d["partial"]) for d in docs]
        want = [(13 * n, [13 * n, cell_sum], False)]
        return [] if got == want else ["read %s, want %s (values, [cells, their sum], partial)"
                                       % (got, want)]
    return p, 60, 64, check


def iozone_rows(n, first=0, short_at=None, recs=(4,)):
    """n rows of an iozone -a table, each cell its own number; row
    `short_at` one cell short (a test iozone skipped for that size)"""
    out = []
    for i in range(first, first + n):
        for r in recs:
            k = 12 if i == short_at else 13
            out.append("%16d%8d" % (64 * (i + 1), r) +
                       "".join("%9d" % (1000 + 13 * i + r + c) for c in range(k)) + "\n")
    return "".join(out)


def iozone_sum(n, short_at=None, recs=(4,)):
    return sum(sum(1000 + 13 * i + r + c for c in range(12 if i == short_at else 13))
               for i in range(n) for r in recs)


def iozone_case(name, text, cells, total, what):
    p = WORK / name
    p.write_text(text)

    def check(docs):
        got = [(d["values"].get("iozone", 0), d["iozone_cells"], d["partial"],
                sorted(set(d["diagnostics"]) - {"iozone.table-goes-on", "iozone.report-not-read"}))
               for d in docs]
        want = [(cells, [cells, total], False, [])]
        return [] if got == want else ["read %s, want %s (%s)" % (got, want, what)]
    return p, 30, 64, check


def case_iozone_table_at_cut(scale):
    """iozone tables of 60,000 rows (8.7 MB) placed so that a block of
    2,048 rows straddles where the next window's bytes start: each block
    ends at the first row past that place, so that both windows cut the
    table into the same blocks and nothing is lost or read twice"""
    text = ("Some prose line before the benchmark, padding the post out a bit.....\n" * 2800 +
            "\n$ iozone -a\n" + IOZONE_HEAD + iozone_rows(60000) + "\niozone test complete.\n")
    return iozone_case("iozone-table-at-cut.txt", text, 13 * 60000, iozone_sum(60000),
                       "values, [cells, their sum], partial, other diagnostics")


def case_long_tables_two_tools(scale):
    """a bonnie table of 100,000 machines, then an iozone table of 80,000
    rows (19 MB): each tool hands its table on across the windows it
    spans (one table a window), and every row and cell is kept"""
    p = WORK / "long-tables-two-tools.txt"
    with open(p, "w") as f:
        write_bonnie_table(f, 100000)
        f.write("\nThen iozone on the same box:\n\n$ iozone -a\n" + IOZONE_HEAD +
                iozone_rows(80000) + "\niozone test complete.\n")

    def check(docs):
        got = [(d["tools"].get("bonnie", 0), d["values"].get("bonnie", 0),
                d["values"].get("iozone", 0), d["iozone_cells"], d["partial"]) for d in docs]
        want = [(100000, 1200000, 13 * 80000, [13 * 80000, iozone_sum(80000)], False)]
        return [] if got == want else ["read %s, want %s (bonnie runs and values, iozone "
                                       "values, [cells, their sum], partial)" % (got, want)]
    return p, 60, 64, check


def case_iozone_blocks_report(scale):
    """a table of 2,100 rows with an Excel report below it, and one of
    3,000 rows whose row 2,048 is one cell short: each block's last row
    is whole (it has a row after it), and the report, which repeats the
    whole table, is not read against the last block alone"""
    report = ['\niozone test complete.\nExcel output is below:\n\n"Writer report"\n'
              '        "4"  "8"  "16"\n']
    for j in range(700):
        report.append('"%d"   %s \n' % (64 * (j + 1), "  ".join(
            str(1000 + 13 * j + r) for r in (4, 8, 16))))
    text = ("$ iozone -a -R\n" + IOZONE_HEAD + iozone_rows(700, recs=(4, 8, 16)) +
            "".join(report) + "\n\nThe same box, another day:\n\n$ iozone -a\n" +
            IOZONE_HEAD + iozone_rows(3000, first=700, short_at=2747) +
            "\niozone test complete.\n")
    cells = 13 * 2100 + 13 * 3000 - 1
    total = iozone_sum(700, recs=(4, 8, 16)) + sum(
        sum(1000 + 13 * i + 4 + c for c in range(12 if i == 2747 else 13))
        for i in range(700, 3700))
    return iozone_case("iozone-blocks-report.txt", text, cells, total,
                       "values, [cells, their sum], partial, other diagnostics")


def case_flattened_long_table(scale):
    """bonnie's table of 100,000 machines pasted without line breaks (8 MB
    on one line): the windows after the first have no header to cut its
    rows back apart by, and the document says the rest is not read"""
    n = 100000
    p = WORK / "flattened-long-table.txt"
    with open(p, "w") as f:
        write_bonnie_table(f, n, sep=" ")

    def check(docs):
        got = [(d["partial"], "scan.table-not-read-on" in d["diagnostics"],
                0 < d["tools"].get("bonnie", 0) < n) for d in docs]
        return [] if got == [(True, True, True)] else [
            "read %s, want [(True, True, True)] (partial, the rows past the first window "
            "said to be lost, some rows read)" % got]
    return p, 60, 64, check


def case_flattened_short_tables(scale):
    """a post of short bonnie tables and dd runs pasted without line
    breaks (20 MB on one line): a table that crosses where the next read
    window starts ends in this window's part, so the next window has
    nothing of it to read on, and no warning says rows were lost"""
    f = io.StringIO()
    write_bonnie_table(f, 2, sep=" ")
    unit = ("The old box, bonnie -s 100 on the mirror: " + f.getvalue() +
            "That was before the new controller went in. Then dd of a gigabyte: "
            "1024+0 records in 1024+0 records out 1073741824 bytes transferred in 9.812 "
            "secs (109432181 bytes/sec) which is about what the disks give. ")
    k = (20 << 20) // len(unit)
    p = WORK / "flattened-short-tables.txt"
    p.write_text(unit * k)

    def check(docs):
        got = [(d["tools"], d["values"].get("bonnie"), d["partial"],
                "scan.table-not-read-on" in d["diagnostics"]) for d in docs]
        want = [({"bonnie": 2 * k, "dd": k}, 24 * k, False, False)]
        return [] if got == want else ["read %s, want %s (runs, bonnie's values, partial, "
                                       "the warning)" % (got, want)]
    return p, 60, 64, check


def case_hdparm_loop(scale):
    """hdparm -tT in a loop 50,000 times (7 MB): a run each, every timing,
    read 256 runs at a time (each device line starts a block), not held
    until the loop ends"""
    n = 50000
    p = WORK / "hdparm-loop.txt"
    with open(p, "w") as f:
        f.write("# while true; do hdparm -tT /dev/sdb; done\n")
        for i in range(n):
            f.write("\n/dev/sdb:\n Timing cached reads:   %d MB in  2.00 seconds = %.2f MB/sec\n"
                    " Timing buffered disk reads:  300 MB in  3.01 seconds =  99.67 MB/sec\n"
                    % (20000 + i % 500, (20000 + i % 500) / 2))

    def check(docs):
        got = [(d["tools"].get("hdparm", 0), d["partial"]) for d in docs]
        want = [(n, False)]
        return [] if got == want else ["read %s, want %s (runs, partial)" % (got, want)]
    return p, 60, 64, check


def case_diskinfo_devices(scale):
    """diskinfo -tv over 5,000 devices (4 MB): a run each, read 256
    devices at a time, each taking the command of the first"""
    n = 5000
    p = WORK / "diskinfo-devices.txt"
    with open(p, "w") as f:
        f.write("# diskinfo -tv %s\n" % " ".join("da%d" % i for i in range(n)))
        for i in range(n):
            f.write("da%d\n\t512         \t# sectorsize\n"
                    "\t1000204886016\t# mediasize in bytes (932G)\n"
                    "\t1953525168  \t# mediasize in sectors\n\n"
                    "Seek times:\n"
                    "\tFull stroke:\t  250 iter in   4.571128 sec =   18.285 msec\n"
                    "\tHalf stroke:\t  250 iter in   3.301264 sec =   13.205 msec\n"
                    "\tQuarter stroke:\t  500 iter in   6.145562 sec =   12.291 msec\n"
                    "\tShort forward:\t  400 iter in   2.214402 sec =    5.536 msec\n"
                    "\tShort backward:\t  400 iter in   2.112935 sec =    5.282 msec\n"
                    "\tSeq outer:\t 2048 iter in   0.294321 sec =    0.144 msec\n"
                    "\tSeq inner:\t 2048 iter in   0.310045 sec =    0.151 msec\n"
                    "Transfer rates:\n"
                    "\toutside:       102400 kbytes in   0.885312 sec =   115665 kbytes/sec\n"
                    "\tmiddle:        102400 kbytes in   1.001947 sec =   102201 kbytes/sec\n"
                    "\tinside:        102400 kbytes in   1.612374 sec =    63509 kbytes/sec\n\n"
                    % i)

    def check(docs):
        got = [(d["tools"].get("diskinfo", 0), d["partial"]) for d in docs]
        want = [(n, False)]
        return [] if got == want else ["read %s, want %s (runs, partial)" % (got, want)]
    return p, 60, 64, check


def case_dd_usr1_chain(scale):
    """dd in the background, its summary so far asked for 60,000 times
    (kill -USR1, 7 MB over two windows): one run, every summary so far
    numbered, handed on as read (before, 245 MB held) and continued in
    the window after"""
    n = 60000
    p = WORK / "dd-usr1-chain.txt"
    with open(p, "w") as f:
        f.write("$ dd if=/dev/zero of=/dev/null bs=1M count=100000000 &\n")
        for k in range(1, n + 1):
            f.write("%d+0 records in\n%d+0 records out\n%d bytes (%d MB, %d MiB) copied, %d.5 s, "
                    "1.0 GB/s\n" % (k * 1000, k * 1000, k * 1000 << 20, k * 1049, k * 1000, k))

    def check(docs):
        snaps = [x for d in docs for x in d["dd_snapshots"]]
        want = [[n - 1, 0, n - 2]]
        return [] if snaps == want else ["summaries so far: %s, want %s" % (snaps, want)]
    return p, 30, 64, check


def gnu_update(t):
    """GNU dd's status=progress update at second t, 100 MiB a second."""
    b = t * 104857600
    return "%d bytes (%.1f GB, %.1f GiB) copied, %d s, 105 MB/s" % (b, b / 1e9, b / 2**30, t)


def case_progress_lines_log(scale):
    """a day and more of `dd status=progress` whose '\\r's a log turned
    into line breaks (100,000 updates a line, 7 MB): one run, each update
    a summary so far, numbered, none lost past the first window (before,
    the updates past it were dropped)"""
    n = 100000
    p = WORK / "progress-lines-log.txt"
    with open(p, "w") as f:
        f.write("$ dd if=/dev/zero of=/dev/sdb bs=1M status=progress 2>dd.log; cat dd.log\n")
        for t in range(1, n + 1):
            f.write(gnu_update(t) + "\n")
        b = n * 104857600
        f.write("%d+0 records in\n%d+0 records out\n" % (b >> 20, b >> 20))
        f.write("%d bytes (%.1f GB, %.1f GiB) copied, %d.25 s, 105 MB/s\n"
                % (b, b / 1e9, b / 2**30, n))

    def check(docs):
        snaps = [x for d in docs for x in d["dd_snapshots"]]
        runs = sum(d["tools"].get("dd", 0) for d in docs)
        # the last update is the display above the final summary's records
        want = [[n - 1, 0, n - 2]]
        if snaps != want or runs != 1 or any(d["partial"] for d in docs):
            return ["%d runs, summaries so far %s, want %s; diagnostics %s"
                    % (runs, snaps, want, [d["diagnostics"] for d in docs])]
        return []
    return p, 30, 64, check


def case_progress_lines_then_transfer(scale):
    """a display of updates one a line that a window's end cuts (8,000 of
    them after 6 MB of prose), its records and summary, then another
    transfer's right below: two runs, the second not a summary so far of
    the first (dd was not signalled), whichever window reads it"""
    p = WORK / "progress-lines-then-transfer.txt"
    with open(p, "w") as f:
        n = 0
        while n < 6100000:
            f.write(PROSE)
            n += len(PROSE)
        f.write("$ dd if=/dev/zero of=/dev/sdb bs=1M status=progress 2>dd.log; cat dd.log\n")
        for t in range(1, 8001):
            f.write(gnu_update(t) + "\n")
        for k, secs in ((1, "8000.25"), (2, "16000.5")):
            b = k * 8000 * 104857600
            f.write("%d+0 records in\n%d+0 records out\n%d bytes (%.1f GB, %.1f GiB) copied, "
                    "%s s, 105 MB/s\n" % (b >> 20, b >> 20, b, b / 1e9, b / 2**30, secs))
        f.write("That was the second disk.\n")
        for _ in range(1000):
            f.write(PROSE)

    def check(docs):
        runs = sum(d["tools"].get("dd", 0) for d in docs)
        snaps = [x for d in docs for x in d["dd_snapshots"]]
        if runs != 2 or snaps != [[7999, 0, 7998]]:
            return ["%d dd runs, summaries so far %s; want 2 runs, [[7999, 0, 7998]]"
                    % (runs, snaps)]
        return []
    return p, 30, 64, check


def case_zpool_log_one_header(scale):
    """a day of `(date; zpool iostat -l tank 1) > log` (11 MB): its header
    once at the top, under the date, and every sample in the windows
    after it read with it"""
    return zpool_log_case("zpool-log-one-header.txt", 86400, ["tank"], False, True)


def case_zpool_log_pools_stamped(scale):
    """two pools and a time line a second under one header (16 MB): each
    window after the first reads on from a sample's first line"""
    return zpool_log_case("zpool-log-pools-stamped.txt", 60000, ["tank", "scratch"], True)


LATENCY_BUCKETS = ("1ns 3ns 7ns 15ns 31ns 63ns 127ns 255ns 511ns 1us 2us 4us 8us 16us 32us "
                   "65us 131us 262us 524us 1ms 2ms 4ms 8ms 16ms 33ms 67ms 134ms 268ms 536ms "
                   "1s 2s 4s 8s").split()


def write_histograms(f, size, vdevs):
    """`zpool iostat -wv tank 10` left running, at least `size` bytes: a
    latency histogram of each of `vdevs` in turn, a header naming it above
    each; returns its samples."""
    f.write("# zpool iostat -wv tank 10\n\n")
    rule = "-" * 100 + "\n\n"
    n = written = 0
    while written < size:
        parts = []
        for v, vdev in enumerate(vdevs):
            parts.append("%-10s   total_wait     disk_wait    syncq_wait    asyncq_wait\n"
                         "latency      read  write   read  write   read  write   read  write  "
                         "scrub   trim  rebuild\n"
                         "----------  -----  -----  -----  -----  -----  -----  -----  -----  "
                         "-----  -----  -----\n" % vdev)
            for b, bucket in enumerate(LATENCY_BUCKETS):
                parts.append("%-10s" % bucket + "".join(
                    "  %5d" % ((n * 31 + v * 7 + b * 3 + c) % 997) for c in range(11)) + "\n")
            parts.append(rule)
        block = "".join(parts)
        f.write(block)
        written += len(block)
        n += 1
    return n


def histograms_case(name, disks):
    """A -wv stream of 20 MB over a pool of `disks` disks, checked to be one
    run with every sample and every value."""
    vdevs = ["tank", "raidz2-0"] + ["da%d" % k for k in range(disks)]
    p = WORK / name
    with open(p, "w") as f:
        n = write_histograms(f, 20 * MB, vdevs)
    values = len(vdevs) * len(LATENCY_BUCKETS) * 11

    def check(docs):
        got = [s for d in docs for s in d["zpool"]]
        want = [{"samples": n, "results": n * values, "sample_numbers": [0, n - 1, n]}]
        if got != want or any(d["partial"] for d in docs):
            return ["read %s, want %s; diagnostics %s" % (got, want,
                                                         [d["diagnostics"] for d in docs])]
        return []
    return p, 60, 64, check


def case_zpool_histograms(scale):
    """`zpool iostat -wv tank 10` left running (20 MB): a header names each
    vdev, not a sample; every window after a cut reads on from the sample's
    first vdev, every sample and value kept, numbered on"""
    return histograms_case("zpool-histograms.txt", 6)


def case_zpool_histograms_wide(scale):
    """the same over 100 disks (20 MB): a sample (320 KB) is longer than the
    context read around a cut, so the window whose end cuts it leaves it
    to the next, which reads it whole"""
    return histograms_case("zpool-histograms-wide.txt", 100)


CASES = [case_long_line, case_header_lines, case_nested_quotes, case_truncated,
         case_invalid_utf8, case_nul_bytes, case_sparse, case_empty_messages,
         case_zpool_stream, case_flattened_stream, case_flattened_post, case_mailed_streams,
         case_long_page, case_base64_mail, case_utf16_stream, case_qp_flattened_mail,
         case_multipart_mail, case_html_mail, case_progress_lengths,
         case_progress_across_windows, case_progress_log, case_progress_past_window,
         case_progress_no_summary, case_progress_bsd_past_window, case_progress_parted_past_window,
         case_progress_tail_piece,
         case_zpool_log_one_header, case_zpool_log_pools_stamped, case_dd_loop_blocks,
         case_dd_usr1_chain, case_progress_lines_log, case_progress_lines_then_transfer,
         case_zpool_histograms, case_zpool_histograms_wide,
         case_bonniepp_csv_log, case_bonniepp_x_table, case_bonniepp_long_table,
         case_bonniepp_103_tables, case_bonnie_long_table, case_iozone_long_table,
         case_iozone_table_at_cut, case_iozone_blocks_report, case_long_tables_two_tools,
         case_flattened_long_table,
         case_flattened_short_tables,
         case_hdparm_loop,
         case_diskinfo_devices]


# ---------------------------------------------------------------- running

def run(argv, cpu_limit, wall_limit, as_limit, stdout):
    """(wall seconds, rusage of that process, exit code, stderr text)."""
    def limits():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))
        resource.setrlimit(resource.RLIMIT_AS, (as_limit, as_limit))
    errpath = WORK / "stderr.txt"
    with open(errpath, "wb") as ferr:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdout=stdout, stderr=ferr, preexec_fn=limits)
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > wall_limit:
                p.kill()
                os.wait4(p.pid, 0)
                p.returncode = -9
                return None, None, None, "timeout"
            time.sleep(0.01)
        p.returncode = os.waitstatus_to_exitcode(status)
    err = errpath.read_text(errors="replace")
    return time.monotonic() - t0, ru, p.returncode, err


SUMMARY = r"""
import json, sys
DD_STEP = %d  # the bytes a second of the progress displays made below
sys.path.insert(0, sys.argv[2])
from benchlog_rows import results as run_results
for line in open(sys.argv[1], "rb"):
    if not line.strip():
        continue
    d = json.loads(line)
    if d.get("schema") != "benchlog/1":
        sys.exit("not a benchlog/1 document")
    tools, groups, streams, progress, snapshots = {}, {}, [], [], []
    values = {}  # a tool's results, in all
    cells, cell_sum = set(), 0  # iozone's table cells: (test, file, record), their sum
    for r in d["runs"]:
        tools[r["tool"]] = tools.get(r["tool"], 0) + 1
        if r["tool"] in ("bonnie", "bonnie++", "iozone"):
            values[r["tool"]] = values.get(r["tool"], 0) + len(run_results(r))
        if r["tool"] == "iozone":
            for x in run_results(r):
                if "file_size" in x and "record_size" in x and str(x.get("raw")).isdigit():
                    cells.add((x["metric"], x["file_size"], x["record_size"]))
                    cell_sum += int(x["raw"])
        groups.setdefault(r["tool"], set()).add(r["group"])
        if r["tool"] == "dd":
            ups = [x for x in run_results(r) if x["metric"] == "progress_bytes"]
            if ups:
                progress.append({"updates": len(ups),
                                 "at": [ups[0]["at"], ups[-1]["at"]],
                                 "exact": all(x["value"] == x["at"] * DD_STEP and
                                              x["sample"] == i for i, x in enumerate(ups))})
            snaps = [x["sample"] for x in run_results(r) if x["metric"] == "snapshot_bytes"]
            if snaps:
                snapshots.append([len(snaps), min(snaps), max(snaps)])
        if r["tool"] == "zpool-iostat" and len(streams) < 20:
            res = run_results(r)
            nums = sorted({x["sample"] for x in res if "sample" in x})
            streams.append({"samples": r["params"].get("samples"), "results": len(res),
                            "sample_numbers": [nums[0], nums[-1], len(nums)] if nums else []})
    print(json.dumps({"partial": d["partial"], "tools": tools, "values": values,
                      "iozone_cells": [len(cells), cell_sum],
                      "groups": {t: len(g) for t, g in groups.items()}, "zpool": streams,
                      "dd_progress": progress, "dd_snapshots": snapshots[:20],
                      "decoding": d["source"].get("decoding", []),
                      "diagnostics": [x["code"] for x in d["diagnostics"]][:20]}))
""" % 104857600


def summarize(path):
    """Every line one document; returns a summary of each (read in a
    process of its own: a document of a million results would grow this
    one, and every process forked from it would seem to use as much)."""
    scripts = pathlib.Path(__file__).resolve().parents[2] / "scripts"
    p = subprocess.run([sys.executable, "-c", SUMMARY, str(path), str(scripts)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode:
        raise ValueError(p.stderr.decode(errors="replace").strip()[-200:])
    return [json.loads(line) for line in p.stdout.splitlines()]


def default_signals():
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


def interrupted_output(binpath):
    """Ctrl-C while `parse -o` writes: no temporary file stays, and the
    target keeps its old content."""
    d = WORK / "sigint"
    d.mkdir(parents=True, exist_ok=True)
    for f in d.iterdir():
        f.unlink()
    target = d / "out.json"
    target.write_text("old\n")
    fifo = d / "in.fifo"
    os.mkfifo(fifo)
    failures = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        # Default dispositions in the child: a shell starts a background job
        # (`make check &`, nohup) with SIGINT ignored, benchlog keeps an
        # ignored signal ignored (cli/io.c), and Ctrl-C would not be tested.
        p = subprocess.Popen([binpath, "parse", "-q", "-o", str(target), str(fifo)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             preexec_fn=default_signals)
        w = open(fifo, "w")  # benchlog blocks reading until we write
        w.write(DD_BSD)
        w.flush()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(".tmp" in f.name for f in d.iterdir()):
            time.sleep(0.01)
        if not any(".tmp" in f.name for f in d.iterdir()):
            failures.append("no temporary file appeared while writing")
        p.send_signal(sig)
        try:
            rc = p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = p.wait()
        try:
            w.close()
        except BrokenPipeError:
            pass
        left = sorted(f.name for f in d.iterdir() if ".tmp" in f.name)
        if rc != -sig:
            failures.append("%s: exit %s, want killed by the signal" % (sig.name, rc))
        if left:
            failures.append("%s: temporary file left: %s" % (sig.name, left))
        if target.read_text() != "old\n":
            failures.append("%s: the old output was replaced" % sig.name)
    fifo.unlink()
    return failures


def unwritable_spill(binpath):
    """A stream too long to hold (its runs wait in a temporary file until
    its end) with TMPDIR where no file can be made: exit 1, a message that
    names the directory and why, and `-o`'s target untouched."""
    d = WORK / "spill"
    d.mkdir(parents=True, exist_ok=True)
    post = d / "zpool.txt"
    with open(post, "w") as f:
        f.write("# zpool iostat -v tank 1\n")
        i = 0
        while f.tell() < 12 * MB:
            f.write(zpool_sample(i))
            i += 1
    target = d / "out.json"
    target.write_text("old\n")
    tmpdir = d / "no-such-dir"
    env = dict(os.environ, TMPDIR=str(tmpdir))
    p = subprocess.run([binpath, "parse", "-q", "-o", str(target), str(post)], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                       timeout=120)
    failures = []
    want = "cannot keep its runs in a temporary file in %s" % tmpdir
    if p.returncode != 1:
        failures.append("exit %s, want 1" % p.returncode)
    if want not in p.stderr or "No such file or directory" not in p.stderr:
        failures.append("stderr: %r" % p.stderr.strip()[-200:])
    if target.read_text() != "old\n" or any(".tmp" in f.name for f in d.iterdir()):
        failures.append("the output was replaced or a temporary file left")
    post.unlink()
    return failures


def count_in_file(path, needle):
    """How often needle occurs in a file, read a megabyte at a time."""
    n, tail = 0, b""
    with open(path, "rb") as f:
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                return n
            data = tail + chunk
            n += data.count(needle)
            tail = data[-(len(needle) - 1):]


def runs_stream(binpath):
    """`parse --runs` of a long `zpool iostat -v` stream: its one run a
    line with every value, in the memory a document takes (the run is cut
    from the document as it is written, never held). With --objects: each
    value a "metric" member to count, and a line ten times as long as
    its rows would make."""
    p = WORK / "runs-stream.txt"
    with open(p, "w") as f:
        n = write_stream(f, 20 * MB)
    out = WORK / "runs-stream.jsonl"
    with open(out, "wb") as fout:
        wall, ru, rc, err = run([binpath, "parse", "--runs", "--objects", "-q", str(p)], 60, 150, 8 << 30,
                                fout)
    failures = []
    if ru is None or rc != 0:
        failures.append("exit %s: %s" % (rc, err.strip()[-100:]))
    elif ru.ru_maxrss / 1024 > 64:
        failures.append("peak RSS %.0f MB > 64 MB" % (ru.ru_maxrss / 1024))
    with open(out, "rb") as f:
        head = f.read(len(b'{"source":'))
    lines = count_in_file(out, b"\n")
    values = count_in_file(out, b'"metric":')
    if head != b'{"source":' or lines != 1 or values != n * zpool_stream.VALUES:
        failures.append("%d lines, %d values, want 1 line, %d values" % (
            lines, values, n * zpool_stream.VALUES))
    out.unlink(missing_ok=True)
    p.unlink(missing_ok=True)
    return failures


def readers_stream(binpath):
    """`table` and `chart` of a long `zpool iostat -v` stream, read from
    the post: every sample in each cell of the table (n=), in the memory
    bound. The run's text (twice the input) is read from a temporary file
    a page at a time (base/mapped.h); held, it alone would pass the
    bound."""
    p = WORK / "readers-stream.txt"
    with open(p, "w") as f:
        n = write_stream(f, 40 * MB)
    failures = []
    out = WORK / "readers-stream.out"
    for argv in ([binpath, "table", str(p)], [binpath, "chart", "-q", "-o", str(out) + ".svg",
                                              str(p)]):
        with open(out, "wb") as fout:
            wall, ru, rc, err = run(argv, 60, 150, 8 << 30, fout)
        if ru is None or rc != 0:
            failures.append("%s: exit %s: %s" % (argv[1], rc, err.strip()[-100:]))
        elif ru.ru_maxrss / 1024 > 64:
            failures.append("%s: peak RSS %.0f MB > 64 MB" % (argv[1], ru.ru_maxrss / 1024))
        if argv[1] == "table" and rc == 0:
            # 6 vdevs in each of 2 tables, 2 columns each; every sample
            # but the first (since boot)
            counts = re.findall(r"n=(\d+)", out.read_text())
            if counts != [str(n - 1)] * 24:
                failures.append("table: %s, want n=%d in each of 24 cells" % (counts[:4], n - 1))
    svg = Path(str(out) + ".svg")
    if not svg.exists() or b"</svg>" not in svg.read_bytes()[-200:]:
        failures.append("chart: no whole SVG")
    for f in (out, svg, p):
        f.unlink(missing_ok=True)
    return failures


def report_long_post(binpath):
    """`report` of a long plain post (prose, a dd run, a `zpool iostat -v`
    stream of 40 MB): read twice, a window at a time and then through a
    mapping of the file, in the memory bound; its page the one the same
    post gives read whole from a pipe (then held: no bound)."""
    p = WORK / "report-long.txt"
    with open(p, "w") as f:
        f.write("Before the stream, the copy took this long:\n\n" + DD_BSD +
                "\nThen the pool, every second for a while:\n\n")
        n = write_stream(f, 40 * MB)
        f.write("\nThat is all.\n")
    failures = []
    page, piped = WORK / "report-long.html", WORK / "report-piped.html"
    wall, ru, rc, err = run([binpath, "report", "-q", "-o", str(page), str(p)], 60, 150, 8 << 30,
                            subprocess.DEVNULL)
    if ru is None or rc != 0:
        failures.append("exit %s: %s" % (rc, err.strip()[-100:]))
    elif ru.ru_maxrss / 1024 > 64:
        failures.append("peak RSS %.0f MB > 64 MB" % (ru.ru_maxrss / 1024))
    with open(p, "rb") as fin:
        q = subprocess.run(["sh", "-c", 'cat | "$0" report -q -o "$1" -', binpath, str(piped)],
                           stdin=fin, stderr=subprocess.PIPE, timeout=150)
    if q.returncode != 0:
        failures.append("piped: exit %d: %s" % (q.returncode, q.stderr[-100:]))
    elif not failures:
        a = page.read_bytes().replace(str(p).encode(), b"&lt;stdin&gt;")
        a = a.replace(p.name.encode(), b"&lt;stdin&gt;")
        b = piped.read_bytes()
        if a != b:
            at = next(i for i in range(min(len(a), len(b))) if a[i] != b[i]) \
                if a[:min(len(a), len(b))] != b[:min(len(a), len(b))] else min(len(a), len(b))
            failures.append("the page differs from the piped one at byte %d: %r / %r" % (
                at, a[at - 40:at + 40], b[at - 40:at + 40]))
    for f in (page, piped, p):
        f.unlink(missing_ok=True)
    return failures


# Bounds the code does not meet yet, with the reason. Only the peak-RSS
# bound of these cases is waived, and only while it is exceeded: a case
# that meets its bound again fails the run until it is taken off this list.
KNOWN_RSS_GAPS = {
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("benchlog")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--only")
    args = ap.parse_args()
    global BENCHLOG
    binpath = str(Path(args.benchlog).resolve())
    BENCHLOG = binpath
    scale = "full" if args.full else "check"
    WORK.mkdir(parents=True, exist_ok=True)
    passed = failed = 0
    print("%-18s %8s %8s %8s %8s %6s  %s" % ("case", "MB", "cpu s", "bound", "RSS MB",
                                           "bound", "result"))
    for case in CASES:
        name = case.__name__[5:].replace("_", "-")
        if args.only and args.only != name:
            continue
        path, cpu_bound, rss_bound, check = case(scale)
        size = path.stat().st_size / MB
        out = WORK / (name + ".jsonl")
        with open(out, "wb") as fout:
            wall, ru, rc, err = run([binpath, "parse", "--jsonl", "-q", str(path)],
                                    cpu_bound, cpu_bound * 4 + 30, 8 << 30, fout)
        problems = []
        cpu = rss = 0.0
        if ru is None:
            problems.append("timeout")
        else:
            cpu = ru.ru_utime + ru.ru_stime
            rss = ru.ru_maxrss / 1024
            if rc != 0:
                last = (err.strip().splitlines() or ["?"])[-1]
                problems.append("exit %s: %s" % (rc, last[:100]))
            if cpu > cpu_bound:
                problems.append("cpu %.1f s > %d s" % (cpu, cpu_bound))
            if rss > rss_bound and name in KNOWN_RSS_GAPS:
                print("  known gap: %s: peak RSS %.0f MB > %d MB (%s)" % (
                    name, rss, rss_bound, KNOWN_RSS_GAPS[name]))
            elif rss > rss_bound:
                problems.append("peak RSS %.0f MB > %d MB" % (rss, rss_bound))
            elif name in KNOWN_RSS_GAPS and scale == "check":
                problems.append("meets its RSS bound now: take it off KNOWN_RSS_GAPS")
            if rc == 0:
                try:
                    docs = summarize(out)
                    if not docs:
                        problems.append("no document")
                    elif check:
                        problems += check(docs)
                except ValueError as e:
                    problems.append("bad output: %s" % e)
        out.unlink(missing_ok=True)
        path.unlink(missing_ok=True)
        ok = not problems
        passed += ok
        failed += not ok
        print("%-18s %8.0f %8.2f %8d %8.0f %6d  %s" % (name, size, cpu, cpu_bound, rss,
                                                     rss_bound,
                                                     "ok" if ok else "; ".join(problems)))
    # checks of how a run ends rather than of a case's size: (--only, row, check)
    for only, name, check in (("sigint", "sigint-output", interrupted_output),
                              ("unwritable-spill", "unwritable-spill", unwritable_spill),
                              ("runs-stream", "runs-stream", runs_stream),
                              ("readers-stream", "readers-stream", readers_stream),
                              ("report-long", "report-long", report_long_post)):
        if args.only and args.only != only:
            continue
        problems = check(binpath)
        ok = not problems
        passed += ok
        failed += not ok
        print("%-18s %8s %8s %8s %8s %6s  %s" % (name, "", "", "", "", "",
                                               "ok" if ok else "; ".join(problems)))
    print("pathological: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
