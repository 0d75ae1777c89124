#!/usr/bin/python3
"""jobs.py - `benchlog parse --jobs N` gives the serial run, byte for byte.

usage: jobs.py BENCHLOG

Compared with the serial run (`--jobs 1`): standard output, standard
error (the diagnostics, in the same order) and the exit status, for
1. every corpus input and seed as separate files, with a missing file
   among them (exit 1 and its message in the same place);
2. an mbox of over 12 MB (every input as a message, repeated with messages
   of prose between them), which --jobs cuts into pieces at its messages:
   offsets, lines and message indexes must still count from the start of
   the whole file; in JSON Lines and indented, through -o, and into a
   file given as standard output (written anew, or appended to);
3. --strict on inputs with error diagnostics;
4. bad --jobs values (exit 2).
When strace is installed, 2 also checks that the mbox was read by several
processes.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROSE = ("We ran the numbers again after moving the pool to the new controller; "
         "nothing else changed on the box.\n") * 40


def run(binpath, args, **kw):
    return subprocess.run([binpath, "parse"] + args, capture_output=True, **kw)


def main():
    binpath = str(Path(sys.argv[1]).resolve())
    inputs = sorted(str(p) for p in ROOT.glob("corpus/*/*/input"))
    seeds = ROOT.parent / "shared" / "seeds"
    inputs += sorted(str(p) for p in seeds.glob("*.txt")) if seeds.is_dir() else []
    work = ROOT / "build" / "jobs"
    work.mkdir(parents=True, exist_ok=True)
    passed = failed = 0

    def same(what, a, b):
        nonlocal passed, failed
        if a.returncode == b.returncode and a.stdout == b.stdout and a.stderr == b.stderr \
                and a.stdout:
            passed += 1
            return
        failed += 1
        print("jobs: FAIL %s: exit %d and %d, stdout %s, stderr %s"
              % (what, a.returncode, b.returncode,
                 "equal" if a.stdout == b.stdout else "differs",
                 "equal" if a.stderr == b.stderr else "differs"))

    # 1. files, one missing
    files = inputs[:len(inputs) // 2] + [str(work / "missing.txt")] + inputs[len(inputs) // 2:]
    serial = run(binpath, ["--jsonl"] + files)
    for j in ("2", "3"):
        same("files -j " + j, serial, run(binpath, ["--jsonl", "-j", j] + files))

    # 2. a large mbox
    mbox = work / "archive.mbox"
    with open(mbox, "wb") as f:
        i = 0
        while f.tell() < 13 << 20:
            for path in inputs:
                body = Path(path).read_bytes()
                body = b"\n".join(b">" + x if x.startswith(b"From ") else x
                                  for x in body.split(b"\n"))
                for text in (body, PROSE.encode()):
                    f.write(b"From bench@example.org Mon Nov 30 06:%02d:00 2026\n"
                            b"Subject: case %d\nMessage-ID: <case.%d@example.org>\n\n%s\n\n"
                            % (i % 60, i, i, text.rstrip(b"\n")))
                    i += 1
    serial = run(binpath, ["--jsonl", str(mbox)])
    for j in ("2", "3", "4"):
        same("mbox -j " + j, serial, run(binpath, ["--jsonl", "-j", j, str(mbox)]))
    same("mbox indented -j 3", run(binpath, [str(mbox)]), run(binpath, ["-j", "3", str(mbox)]))
    outs = []
    for j in ("1", "2"):
        out = work / ("out-%s.json" % j)
        if out.exists():
            out.unlink()
        r = run(binpath, ["--jsonl", "-q", "-j", j, "-o", str(out), str(mbox)])
        outs.append(out.read_bytes() if r.returncode == 0 and out.exists() else b"")
    if outs[0] and outs[0] == outs[1] and outs[0] == serial.stdout:
        passed += 1
    else:
        failed += 1
        print("jobs: FAIL -o: the file written with -j 2 differs from the serial one")
    # standard output a file: copied in the kernel; opened to append
    # (which copy_file_range and sendfile refuse): copied by read()
    for mode in ("wb", "ab"):
        out = work / "stdout.json"
        with open(out, "wb") as f:
            f.write(b"kept\n")
        with open(out, mode) as f:
            if mode == "wb":
                f.truncate(0)
            r = subprocess.run([binpath, "parse", "--jsonl", "-q", "-j", "2", str(mbox)],
                               stdout=f, stderr=subprocess.DEVNULL)
        want = (b"kept\n" if mode == "ab" else b"") + serial.stdout
        if r.returncode == 0 and out.read_bytes() == want:
            passed += 1
        else:
            failed += 1
            print("jobs: FAIL standard output a file (%s): not the serial run's" % mode)
    strace = shutil.which("strace")
    if strace:
        trace = work / "strace.txt"
        subprocess.run([strace, "-f", "-e", "trace=clone,clone3,fork,vfork", "-o", str(trace),
                        binpath, "parse", "--jsonl", "-q", "-j", "3", str(mbox)],
                       capture_output=True)
        forks = sum(1 for x in trace.read_text().splitlines()
                    if ("clone" in x or "fork" in x) and "resumed" not in x)
        if forks >= 3:
            passed += 1
        else:
            failed += 1
            print("jobs: FAIL the %d MB mbox was read by %d workers with -j 3, not 3"
                  % (mbox.stat().st_size >> 20, forks))

    # 3. --strict
    a = run(binpath, ["--jsonl", "--strict", "-q"] + inputs)
    b = run(binpath, ["--jsonl", "--strict", "-q", "-j", "2"] + inputs)
    same("--strict -j 2", a, b)
    if a.returncode != 1:
        failed += 1
        print("jobs: FAIL --strict: the corpus has error diagnostics, exit was %d" % a.returncode)

    # 4. bad values
    for bad in ("x", "-1", "1025", ""):
        r = run(binpath, ["-j", bad, inputs[0]])
        if r.returncode == 2 and b"--jobs" in r.stderr:
            passed += 1
        else:
            failed += 1
            print("jobs: FAIL -j '%s': exit %d" % (bad, r.returncode))

    print("jobs: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
