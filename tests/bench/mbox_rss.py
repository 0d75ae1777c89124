#!/usr/bin/env python3
"""Peak memory of `benchlog parse` streaming a generated mbox.

usage: mbox_rss.py BENCHLOG N [N...]

For each N, writes an mbox of N messages to a temporary file (plain,
quoted-printable and base64 bodies in turn, each with a dd run, one message
in 500 with a 1 MB attachment), parses it with --jsonl to /dev/null, and
prints messages, input size, wall time and peak RSS. The file is removed
afterwards; nothing large is kept."""
import base64
import os
import quopri
import resource
import subprocess
import sys
import tempfile
import time

RUN = ("# dd if=/dev/zero of=/tank/test/f{i} bs=1m count=200\n200+0 records in\n200+0 records out\n"
       "209715200 bytes transferred in {s}.158355 secs (34053769 bytes/sec)\n")


def message(i):
    body = f"Run {i} of the nightly job, on the same pool as before.\n\n" + RUN.format(i=i, s=6 + i % 7) + "\nNothing else changed.\n"
    kind = i % 3
    head = (f"From nightly@example.org Mon Jan 11 10:{i % 60:02d}:00 2010\nFrom: Nightly <nightly@example.org>\n"
            f"Subject: nightly run {i}\nDate: Mon, 11 Jan 2010 10:{i % 60:02d}:00 +0000\nMessage-ID: <n{i}@example.org>\n"
            "MIME-Version: 1.0\n")
    if i % 500 == 499:
        att = base64.encodebytes(os.urandom(1 << 20)).decode()
        return (head + "Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\n" + body +
                "\n--b\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n" + att + "--b--\n\n")
    if kind == 0:
        return head + "Content-Type: text/plain\n\n" + body + "\n"
    if kind == 1:
        return (head + "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n" +
                quopri.encodestring(body.encode()).decode() + "\n")
    return (head + "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n" +
            base64.encodebytes(body.encode()).decode() + "\n")


def main():
    binary = sys.argv[1]
    for n in (int(a) for a in sys.argv[2:]):
        fd, path = tempfile.mkstemp(suffix=".mbox")
        with os.fdopen(fd, "w") as f:
            for i in range(n):
                f.write(message(i))
        size = os.path.getsize(path)
        t0 = time.time()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        out = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "parse", "--jsonl", "-q", path],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.time() - t0
        os.unlink(path)
        rss_kb = int(out.stderr.strip().splitlines()[-1])
        print(f"mbox: {n} messages, {size / 1e6:.1f} MB in {wall:.1f} s, peak RSS {rss_kb / 1024:.1f} MiB"
              f" (exit {out.returncode})")
        del before


if __name__ == "__main__":
    main()
