#!/usr/bin/python3
"""bench.py - parse throughput and peak memory of benchlog on large inputs.

usage: bench.py BENCHLOG [--scale F] [--runner RSS_RUN]

Generates its inputs under build/bench/ (never committed; regenerated when
this script changes), runs `benchlog parse --jsonl -q` over each, and runs
the same input through `grep -cE` over the anchors of every tool (the floor
any scanner pays) and, where installed, a peer tool, in the same run, so the
ratios hold on whatever machine this runs. Prints one table.

Inputs:
  archive.mbox  >= 500 MB mail archive: mostly prose, ~1% benchmark blocks of
                every tool (dd BSD/GNU, csh and bash time, bonnie/bonnie++,
                iozone, diskinfo, zpool iostat), some messages quoted-printable
  dense.txt     tool output and nothing else
  flat.txt      one 100 MB line: a post whose newlines an archive dropped
  chart         a 100-bar chart, PNG, SVG and PDF, once `benchlog chart` exists
  time1.txt     one report of GNU /usr/bin/time, read by benchlog and by the
                peer, Debian's `jc --time` (which reads no other `time` format)

Block templates are copied at generation time from real captures: the
samples in ../shared/samples and the posts in ../shared/seeds (when present),
and bash's own `time` output. Big files are written by repeating one
generated chunk, so generation takes seconds.
"""
import argparse
import filecmp
import hashlib
import json
import os
import quopri
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import zpool_stream  # noqa: E402 (tests/zpool_stream.py)
SHARED = ROOT.parent / "shared"
OUT = ROOT / "build" / "bench"

# The anchors of every tool, as one alternation (the brief of issue 9).
GREP_ANCHORS = ("bytes transferred|records in|Sequential Output|"
                "capacity +operations|Seek times|Iozone|real")

MB = 1 << 20

# ------------------------------------------------------------------ templates

# Used only when ../shared is absent: the formats, reproduced exactly.
FALLBACK = {
    "dd-bsd": ("srebrny# time dd if=/dev/zero of=/data02/test01 bs=1m count=2000\n"
               "2000+0 records in\n2000+0 records out\n"
               "2097152000 bytes transferred in 92.451346 secs (22683845 bytes/sec)\n"
               "0.068u 10.386s 1:32.46 11.2% 26+1497k 63+16066io 0pf+0w\n"),
    "dd-gnu": ("$ dd bs=1M count=64 if=/dev/zero of=/tmp/x/f\n"
               "64+0 records in\n64+0 records out\n"
               "67108864 bytes (67 MB, 64 MiB) copied, 0.0153913 s, 4.4 GB/s\n"),
}


def sample_blocks(path):
    """Blocks of a ../shared/samples capture: '$ command' then the
    STDOUT/STDERR text, as a user would paste them."""
    text = path.read_text(encoding="utf-8", errors="replace")
    blocks = []
    for part in re.split(r"\n=+\n", text):
        m = re.search(r"^\$ (.*)$", part, re.M)
        if not m:
            continue
        body = []
        for sec in re.finditer(r"^----- STD(?:OUT|ERR) -----\n(.*?)(?=^----- STD|\Z)",
                               part, re.M | re.S):
            if sec.group(1).strip():
                body.append(sec.group(1).rstrip("\n") + "\n")
        if body:
            blocks.append("$ " + m.group(1) + "\n" + "".join(body))
    return blocks


def seed_region(path, start_re, end_re):
    """The lines of a seed post from the first line matching start_re to
    the next line matching end_re, inclusive."""
    if not path.exists():
        return None
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    for i, line in enumerate(lines):
        if re.search(start_re, line):
            for j in range(i, min(i + 60, len(lines))):
                if re.search(end_re, lines[j]):
                    return "\n".join(lines[i:j + 1]) + "\n"
    return None


def bash_time():
    """Real output of bash's `time` keyword (a blank line, real/user/sys)."""
    try:
        r = subprocess.run(["bash", "-c", "time dd if=/dev/zero of=/dev/null bs=64k count=16"],
                           capture_output=True, text=True, timeout=10)
        if "real" in r.stderr:
            return "$ time dd if=/dev/zero of=/dev/null bs=64k count=16\n" + r.stderr
    except (OSError, subprocess.SubprocessError):
        pass
    return None


# GNU time 1.9's default report (Debian 12), the fallback when
# /usr/bin/time is not installed: the one `time` format that both benchlog
# and the peer, jc --time, read (jc reads neither bash's nor csh's report).
GNU_TIME_REPORT = ("0.00user 0.00system 0:00.00elapsed 90%CPU (0avgtext+0avgdata 1876maxresident)k\n"
                   "0inputs+0outputs (0major+117minor)pagefaults 0swaps\n")


def gnu_time_report():
    """Real output of GNU /usr/bin/time over a small dd: its two report lines."""
    try:
        r = subprocess.run(["/usr/bin/time", "dd", "if=/dev/zero", "of=/dev/null",
                            "bs=64k", "count=16"], capture_output=True, text=True, timeout=10)
        lines = r.stderr.splitlines()
        for i, line in enumerate(lines[:-1]):
            if "elapsed" in line and "pagefaults" in lines[i + 1]:
                return line + "\n" + lines[i + 1] + "\n"
    except (OSError, subprocess.SubprocessError):
        pass
    return GNU_TIME_REPORT


def templates():
    """tool -> list of block texts."""
    t = {}
    samples = SHARED / "samples"
    seeds = SHARED / "seeds"

    def add(tool, block):
        if block:
            t.setdefault(tool, []).append(block)

    for name, tool in (("gnu-dd.txt", "dd-gnu"), ("bonniepp-2.00a.txt", "bonnie++"),
                       ("iozone3-489.txt", "iozone"),
                       ("zfs-fuse-zpool-iostat.txt", "zpool-iostat")):
        p = samples / name
        if not p.exists():
            continue
        for b in sample_blocks(p):
            if tool == "dd-gnu" and "records in" not in b:
                continue
            if tool == "zpool-iostat" and "capacity" not in b:
                continue
            if tool == "iozone" and len(b) > 16384:
                continue
            add(tool, b)
    s000 = next(iter(sorted(seeds.glob("000_*.txt"))), Path("/nonexistent"))
    s001 = next(iter(sorted(seeds.glob("001_*.txt"))), Path("/nonexistent"))
    add("dd-bsd", seed_region(s000, r"^srebrny# time dd", r"\du \d.*io \d+pf"))
    add("diskinfo", seed_region(s001, r"^#diskinfo -t", r"^\s+inside:"))
    add("bonnie", seed_region(s001, r"-Sequential Output-", r"^zfs .*0\.5\s*$"))
    add("time-bash", bash_time())
    for k, v in FALLBACK.items():
        if k not in t:
            t[k] = [v]
    return t


# ---------------------------------------------------------------------- prose

WORDS = ("the a of to and in is it that for on with as was this be by are not at or "
         "have from but had they which one you were all we there can an been has more "
         "if will would so no what up out about into than them only other new some "
         "disk pool mirror stripe write read cache array controller drive volume "
         "kernel release patch driver tuning memory throughput latency sector block "
         "performance benchmark numbers machine server laptop mailing list thread "
         "reply question answer problem you your Thanks Cheers Regards FreeBSD Linux "
         "ZFS UFS ext4 SATA SCSI 2 3 4 10 2010 8.0 512 GB MB/s").split()
# Words that share bytes with the anchors, as rare as in real mail: each
# makes the scanner look closer at a line that is not a block.
RARE = ("really real reality records transferred output input capacity operations "
        "sequential times seek bonnie iozone system cpu total").split()


def prose_paragraph(rnd, sentences):
    out = []
    for _ in range(sentences):
        n = rnd.randint(6, 18)
        words = [rnd.choice(RARE) if rnd.random() < 0.004 else rnd.choice(WORDS)
                 for _ in range(n)]
        if n > 10:
            words[rnd.randint(2, n - 3)] += ","
        s = " ".join(words)
        out.append(s[0].upper() + s[1:] + rnd.choice(".....?!"))
    text = " ".join(out)
    # wrap at ~72 columns like a mail client
    lines, line = [], ""
    for w in text.split(" "):
        if len(line) + len(w) + 1 > 72:
            lines.append(line)
            line = w
        else:
            line = line + " " + w if line else w
    lines.append(line)
    # an mbox never has a body line starting with "From "
    return "\n".join(">" + x if x.startswith("From ") else x for x in lines) + "\n"


def message_body(rnd, tmpl, block_share):
    """Prose with blocks, about block_share of the bytes in blocks."""
    parts, prose_bytes, block_bytes = [], 0, 0
    target = rnd.randint(2000, 12000)
    tools = sorted(tmpl)
    while prose_bytes + block_bytes < target:
        if block_share and block_bytes < block_share * (prose_bytes + block_bytes + 1):
            tool = rnd.choice(tools)
            b = rnd.choice(tmpl[tool])
            parts.append("*** run %d on %s:\n%s\n" % (rnd.randint(1, 99), tool, b))
            block_bytes += len(b)
        p = prose_paragraph(rnd, rnd.randint(2, 7))
        parts.append(p + "\n")
        prose_bytes += len(p)
    return "".join(parts), block_bytes


def mbox_chunk(rnd, tmpl, size, block_share, qp_share=0.1):
    out, total, blocks, n = [], 0, 0, 0
    # Messages with a block are rarer than blocks: most mail is talk.
    while total < size:
        with_blocks = rnd.random() < 0.08
        body, b = message_body(rnd, tmpl, block_share / 0.15 if with_blocks else 0)
        blocks += b
        qp = rnd.random() < qp_share
        head = ("From list-owner@example.org Mon Nov 30 06:%02d:00 2026\n"
                "From: Member %d <member%d@example.org>\n"
                "To: storage@lists.example.org\n"
                "Subject: Re: disk performance numbers, part %d\n"
                "Date: Mon, 30 Nov 2026 06:%02d:00 +0000\n"
                "Message-ID: <bench.%d@example.org>\n"
                "MIME-Version: 1.0\n" % (n % 60, n, n, n, n % 60, n))
        if qp:
            head += ("Content-Type: text/plain; charset=utf-8\n"
                     "Content-Transfer-Encoding: quoted-printable\n")
            body = quopri.encodestring(body.encode()).decode("ascii")
            body = "\n".join(">" + x if x.startswith("From ") else x
                             for x in body.split("\n"))
        else:
            head += "Content-Type: text/plain; charset=utf-8\n"
        msg = head + "\n" + body + "\n"
        out.append(msg)
        total += len(msg)
        n += 1
    return "".join(out), blocks, n


def write_repeated(path, chunk, size):
    data = chunk.encode("utf-8")
    reps = max(1, -(-size // len(data)))
    tmp = path.with_suffix(".part")
    with open(tmp, "wb") as f:
        for _ in range(reps):
            f.write(data)
    tmp.rename(path)
    return reps * len(data)


def generate(scale):
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = OUT / "stamp"
    me = hashlib.sha256(Path(__file__).read_bytes() + repr(scale).encode()).hexdigest()
    files = {k: OUT / v for k, v in (("archive", "archive.mbox"), ("dense", "dense.txt"),
                                      ("flat", "flat.txt"), ("flat_half", "flat-half.txt"),
                                      ("bars", "bars.txt"), ("zpool", "zpool-stream.txt"),
                                      ("time1", "time1.txt"))}
    if stamp.exists() and stamp.read_text() == me and all(p.exists() for p in files.values()):
        return files, None
    t0 = time.monotonic()
    rnd = random.Random(20261130)
    tmpl = templates()
    # (a) the archive: a 4 MB chunk of messages, repeated
    chunk, blocks, nmsg = mbox_chunk(rnd, tmpl, 4 * MB, 0.01)
    write_repeated(files["archive"], chunk, int(512 * MB * scale))
    share = blocks / len(chunk)
    # (b) dense: every template, back to back, as one post
    dense = "".join(b + "\n" for tool in sorted(tmpl) for b in tmpl[tool])
    write_repeated(files["dense"], dense, int(32 * MB * scale))
    # (c) one line: the archive chunk's text with its newlines dropped
    flat = chunk.replace("\n", " ")
    size = int(100 * MB * scale)
    data = flat.encode()
    for key, want in (("flat", size), ("flat_half", size // 2)):
        with open(files[key], "wb") as f:
            left = want
            while left > 0:
                f.write(data[:left])
                left -= len(data[:left])
    # (d) 100 runs with 100 labels, for the chart
    bars = "".join("*** config %03d:\n$ dd if=/dev/zero of=/tmp/x bs=1M count=64\n"
                   "64+0 records in\n64+0 records out\n"
                   "67108864 bytes (67 MB, 64 MiB) copied, %.6f s, %.1f MB/s\n\n"
                   % (i, 0.05 + i * 0.01, 67.108864 / (0.05 + i * 0.01)) for i in range(100))
    files["bars"].write_text(bars)
    files["time1"].write_text(gnu_time_report())
    # (e) a `zpool iostat -v tank 1` left running: one run of many samples
    tables = write_zpool_stream(files["zpool"], int(21 * MB * scale))
    (OUT / "zpool-stream.samples").write_text("%d\n" % tables)
    stamp.write_text(me)
    note = ("generated in %.1f s: archive %d messages per 4 MB chunk, %.2f%% of bytes in "
            "blocks, tools: %s" % (time.monotonic() - t0, nmsg, 100 * share,
                                   ", ".join(sorted(tmpl))))
    return files, note


def write_zpool_stream(path, size):
    """Writes `zpool iostat -v` samples up to `size` bytes; returns how many."""
    rnd = random.Random(7)
    n = written = 0
    with open(path, "w") as f:
        f.write("# zpool iostat -v tank 1\n")
        while written < size:
            block = zpool_stream.sample(lambda k: (
                rnd.randint(0, 999), rnd.randint(0, 999), "%.1fM" % (rnd.random() * 50),
                "%.1fM" % (rnd.random() * 50)))
            f.write(block)
            written += len(block)
            n += 1
    return n


def count_samples(path):
    """The samples the documents in `path` hold (each run's params)."""
    n = 0
    pat = re.compile(rb'"samples": ?(\d+)')
    with open(path, "rb") as f:
        for line in f:
            n += sum(int(m.group(1)) for m in pat.finditer(line))
    return n


# ------------------------------------------------------------------ measuring

LIMIT_AS = 8 << 30      # no run may take the machine down
TIMEOUT = 900


RUNNER = HERE.parent.parent / "build" / "tests" / "rss_run"


def measure(argv, stdin_path=None, stdout_path=os.devnull, env=None):
    """(wall seconds, cpu seconds, peak RSS in KiB, (exit status, stderr))
    of one process, or (None, None, RSS, "timeout"). The CPU time (user +
    system) is what the ratios use: on a machine shared with other work the
    wall clock says more about the neighbours than about the program.

    The process is started by rss_run (tests/bench/rss_run.c), not forked
    from Python: Linux carries the RSS of the forking image into the peak
    RSS of the exec'd one, and Python's 16 MB would hide every smaller
    peak."""
    cmd = [str(RUNNER), "-t", str(TIMEOUT), "-m", str(LIMIT_AS), "-o", stdout_path]
    if stdin_path:
        cmd += ["-i", stdin_path]
    r = subprocess.run(cmd + ["--"] + list(argv), stdin=subprocess.DEVNULL,
                       capture_output=True, env=env)
    lines = r.stdout.decode(errors="replace").strip().splitlines()
    try:
        f = dict(kv.split("=", 1) for kv in lines[-1].split())
        wall, cpu = float(f["wall"]), float(f["user"]) + float(f["sys"])
        rss, status = int(f["maxrss_kb"]), f["status"]
    except (IndexError, KeyError, ValueError):
        raise SystemExit("bench: rss_run failed: %s" % r.stderr.decode(errors="replace")[-300:])
    err = r.stderr.decode(errors="replace")
    if status == "timeout":
        return None, None, rss, "timeout"
    kind, _, num = status.partition(":")
    code = int(num) if kind == "exit" else -int(num)
    return wall, cpu, rss, (code, err)


def count_runs(path):
    n = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(16 * MB)
            if not b:
                break
            n += b.count(b'"tool":')
    return n


def fmt_row(cols, widths):
    return "  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                     for i, (c, w) in enumerate(zip(cols, widths)))


def main():
    global RUNNER
    ap = argparse.ArgumentParser()
    ap.add_argument("benchlog")
    ap.add_argument("--scale", type=float, default=float(os.environ.get("BENCH_SCALE", "1")))
    ap.add_argument("--runner", default=str(RUNNER),
                    help="the rss_run launcher (make build/tests/rss_run)")
    args = ap.parse_args()
    binpath = str(Path(args.benchlog).resolve())
    RUNNER = Path(args.runner).resolve()
    if not os.access(RUNNER, os.X_OK):
        print("bench: no %s; run `make build/tests/rss_run`" % RUNNER, file=sys.stderr)
        return 2

    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    print("machine: %d cores (nproc), %s; %s" % (os.cpu_count() or 0, cpu,
                                                 os.uname().release))
    files, note = generate(args.scale)
    if note:
        print(note)

    grep_env = dict(os.environ, LC_ALL="C")
    rows = []
    widths = (22, 6, 7, 7, 7, 7, 9, 9, 6, 12, 8)
    head = ("input", "MB", "wall s", "cpu s", "MB/s", "RSS MB", "cpu/grep", "wall/grep",
            "runs", "target", "status")
    targets = {"archive": "<=2x, <64MB", "dense": "<64MB", "flat": "<64MB",
               "zpool": "every sample"}
    for key, label in (("archive", "archive.mbox (prose)"), ("dense", "dense.txt (tools)"),
                       ("flat", "flat.txt (1 line)"), ("zpool", "zpool-stream.txt")):
        path = files[key]
        size = path.stat().st_size / MB
        out = OUT / ("out-%s.jsonl" % key)
        dt, cpu, rss, st = measure([binpath, "parse", "--jsonl", "-q", str(path)],
                                   stdout_path=str(out))
        # to a file: GNU grep stops at the first match when its output is /dev/null
        gdt, gcpu, grss, gst = measure(["grep", "-cE", GREP_ANCHORS, str(path)], env=grep_env,
                                       stdout_path=str(OUT / "grep.out"))
        if dt is None:
            rows.append((label, "%.0f" % size, ">%d" % TIMEOUT, "-", "-", "%.1f" % (rss / 1024),
                         "-", "-", "-", targets[key], "timeout"))
            continue
        status = "ok" if st[0] == 0 else "exit %d" % st[0]
        if st[0] != 0 and st[1]:
            status += ": " + st[1].strip().splitlines()[-1][:60]
        elif key == "archive":
            status += ", met" if cpu / max(gcpu, 1e-3) <= 2 else ", MISSED"
        elif key == "zpool":
            want = int((OUT / "zpool-stream.samples").read_text())
            got = count_samples(out)
            status += ", %d of %d samples" % (got, want) + ("" if got == want else " LOST")
        rows.append((label, "%.0f" % size, "%.2f" % dt, "%.2f" % cpu,
                     "%.0f" % (size / max(cpu, 1e-3)), "%.1f" % (rss / 1024),
                     "%.2fx" % (cpu / max(gcpu, 1e-3)), "%.2fx" % (dt / max(gdt, 1e-3)),
                     count_runs(out), targets[key], status))
        rows.append(("  grep -cE (LC_ALL=C)", "%.0f" % size, "%.2f" % gdt, "%.2f" % gcpu,
                     "%.0f" % (size / max(gcpu, 1e-3)), "%.1f" % (grss / 1024), "1.00x",
                     "1.00x", "-", "", "floor"))
        if key == "flat":
            # linear time: the first half of the same line, against the whole
            hpath = files["flat_half"]
            hsize = hpath.stat().st_size / MB
            hdt, hcpu, hrss, hst = measure([binpath, "parse", "--jsonl", "-q", str(hpath)])
            if hdt is not None:
                grow = cpu / max(hcpu, 1e-3)
                rows.append(("  its first half", "%.0f" % hsize, "%.2f" % hdt, "%.2f" % hcpu,
                             "%.0f" % (hsize / max(hcpu, 1e-3)), "%.1f" % (hrss / 1024), "-",
                             "-", "-", "linear",
                             "whole/half cpu %.2fx: %s" % (grow, "linear" if grow < 2.4
                                                             else "NOT linear")))
        if key != "archive":
            continue
        # the same archive with --jobs (one process per core, pieces cut at
        # its messages): wall clock against grep's, output against serial
        jobs = os.cpu_count() or 1
        jout = OUT / "out-archive-jobs.jsonl"
        jdt, jcpu, jrss, jst = measure([binpath, "parse", "--jsonl", "-q", "--jobs", str(jobs),
                                        str(path)], stdout_path=str(jout))
        if jdt is None:
            rows.append(("  --jobs %d" % jobs, "%.0f" % size, ">%d" % TIMEOUT, "-", "-", "-",
                         "-", "-", "-", "wall<=2x", "timeout"))
            continue
        equal = jst[0] == 0 and filecmp.cmp(str(out), str(jout), shallow=False)
        ratio = jdt / max(gdt, 1e-3)
        rows.append(("  --jobs %d" % jobs, "%.0f" % size, "%.2f" % jdt, "%.2f" % jcpu,
                     "%.0f" % (size / max(jdt, 1e-3)), "%.1f" % (jrss / 1024),
                     "%.2fx" % (jcpu / max(gcpu, 1e-3)), "%.2fx" % ratio, count_runs(jout),
                     "wall<=2x", ("met" if ratio <= 2 else "MISSED") +
                     (", = serial" if equal else ", DIFFERS from serial")))

    # the peer: Debian's jc reads one `time` report
    jc = shutil.which("jc")
    t1 = files["time1"]
    tout = OUT / "out-time1.jsonl"
    dt, cpu, rss, st = measure([binpath, "parse", "--jsonl", "-q", str(t1)],
                               stdout_path=str(tout))
    truns = count_runs(tout)
    rows.append(("time report (1)", "%.3f" % (t1.stat().st_size / MB), "%.3f" % dt,
                 "%.3f" % cpu, "-", "%.1f" % (rss / 1024), "-", "-", truns, "",
                 ("ok" if truns == 1 else "%d runs, not 1" % truns) if st[0] == 0
                 else "exit %d" % st[0]))
    if jc:
        jout = OUT / "out-time1-jc.json"
        jdt, jcpu, jrss, jst = measure([jc, "--time"], stdin_path=str(t1),
                                       stdout_path=str(jout))
        # a peer that read nothing ("{}") is no comparison
        try:
            got = json.loads(jout.read_text()).get("user_time") is not None
        except (OSError, ValueError, AttributeError):
            got = False
        rows.append(("  jc --time (peer)", "", "%.3f" % jdt, "%.3f" % jcpu, "-",
                     "%.1f" % (jrss / 1024), "%.2fx" % (cpu / max(jcpu, 1e-3)),
                     "%.2fx" % (dt / max(jdt, 1e-3)), "-", "",
                     ("ok" if got else "peer read nothing") if jst[0] == 0
                     else "exit %d" % jst[0]))
    else:
        rows.append(("  jc --time (peer)", "", "-", "-", "-", "-", "-", "-", "-", "",
                     "not installed"))

    # the chart, once the subcommand exists: the whole command, best of 3
    # (wall and CPU each their least), against the 50 ms
    help_txt = subprocess.run([binpath, "--help"], capture_output=True, text=True).stdout
    if not re.search(r"^\s+chart\s", help_txt, re.M):
        rows.append(("chart 100 bars", "", "-", "-", "-", "-", "-", "-", "-", "cpu<0.050",
                     "skipped: no `benchlog chart` yet"))
    else:
        doc = OUT / "bars.json"
        measure([binpath, "parse", "-q", "-o", str(doc), str(files["bars"])])
        for fmt in ("png", "svg", "pdf"):
            target = OUT / ("bars." + fmt)
            best = None
            for _ in range(3):
                cdt, ccpu, crss, cst = measure([binpath, "chart", "-o", str(target), str(doc)])
                if cdt is None or cst[0] != 0:
                    best = None
                    break
                best = (cdt, ccpu, crss) if best is None else \
                    (min(best[0], cdt), min(best[1], ccpu), max(best[2], crss))
            if best is None:
                why = (cst[1].strip().splitlines() or ["?"])[-1][:60] if cdt else "timeout"
                rows.append(("chart 100 bars " + fmt, "", "-", "-", "-", "-", "-", "-", "-",
                             "cpu<0.050", "failed: " + why))
            else:
                rows.append(("chart 100 bars " + fmt, "", "%.3f" % best[0], "%.3f" % best[1], "-",
                             "%.1f" % (best[2] / 1024), "-", "-", "100", "cpu<0.050",
                             "ok, met" if best[1] < 0.050 else "ok, MISSED"))

    print()
    print(fmt_row(head, widths))
    print(fmt_row(["-" * w for w in widths], widths))
    for r in rows:
        print(fmt_row(r, widths))
    print("\nwall s: wall clock; cpu s: user + system time, and MB/s over it; RSS: peak")
    print("resident set (wait4 in rss_run, which forks from a ~1 MB image). cpu/grep is")
    print("the ratio the targets use (the machine may be shared); both ratios are")
    print("measured in this run. chart: `benchlog chart -o bars.FMT bars.json`, the")
    print("whole command, least wall and least CPU of 3 runs. --jobs N: the archive in")
    print("N processes (N = cores), its MB/s over wall time, RSS the largest process's;")
    print("'= serial': its output is byte for byte the serial run's. jc row: the same")
    print("one-report file through `jc --time`; its ratios are benchlog's time over jc's")
    print("(below 1: benchlog is faster), both whole commands, process start included.")
    print("zpool-stream.txt: one `zpool iostat -v` run of that many samples; the status")
    print("counts the samples the document holds against the tables written.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
