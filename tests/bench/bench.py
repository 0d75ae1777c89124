#!/usr/bin/python3
"""bench.py - parse throughput and peak memory of benchlog on large inputs.

usage: bench.py BENCHLOG [--scale F] [--repeat N] [--runner RSS_RUN]

Generates its inputs under build/bench/ (never committed; regenerated when
this script, tests/zpool_stream.py or a corpus case changes), runs
`benchlog parse --jsonl -q` over each, and runs the same file through
`grep -cE` over the anchors of every tool (the floor any scanner pays) and
through `cat` (the floor of reading it at all), in the same run, so the
ratios hold on whatever machine this runs. Prints one table.

The workloads:
  W1 w1-archive.mbox  ~520 MB mail archive of ~100,000 messages: 5% carry
                      one corpus input (tool output, see plain_tool_output),
                      the rest are 2-8 KB of prose; 10% quoted-printable.
                      Parsed with one job, then with --jobs 2.
  W2 w2-tools.txt     ~105 MB of tool output only: the plain-text corpus
                      inputs, shuffled, back to back.
  W3 zpool-stream.txt a 21 MB `zpool iostat -v` stream: one run of
                      every sample
Other rows:
  flat.txt      one 100 MB line (W1's first messages with their newlines
                dropped), and its first half, for linear time
  chart         a 100-bar chart, PNG, SVG and PDF, once `benchlog chart` exists
  report        `benchlog report` on W1's first 64 MB (about 12,000 messages),
                W2's first 8 MB and W3's first 16 MB (one long post each)
  w3-three.txt  W3 three times over (66 MB, one post): table, chart and
                report, their peak RSS
  time1.txt     one report of GNU /usr/bin/time, read by benchlog and by the
                peer, Debian's `jc --time` (which reads no other `time` format)

Generation takes seconds: W1's prose is a pool of bodies drawn again and
again (each message its own headers), W2 one chunk written again and
again; everything is seeded.
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
CORPUS = ROOT / "corpus"
OUT = ROOT / "build" / "bench"

# The anchors of every tool, as one alternation, run as
# `grep -cE GREP_ANCHORS FILE` in the locale the figures were
# taken in (C.UTF-8, Debian's default), and again under LC_ALL=C.
GREP_ANCHORS = ("bytes transferred|records in|Sequential Output|"
                "capacity +operations|Seek times|Iozone|real[[:space:]]")

MB = 1 << 20
RSS_GOAL_MB = 64

# ------------------------------------------------------------- corpus inputs

# The RFC 822 fields benchlog counts when it decides that a text starts
# with a mail's headers (ingest/rfc822.c), two of them being enough.
MAIL_FIELD = re.compile(rb"^(from|to|subject|date|message-id|received|return-path|"
                        rb"mime-version|content-type|reply-to|cc|delivered-to|x-mailer|"
                        rb"user-agent|in-reply-to|references|sender):", re.I)


def plain_tool_output(data):
    """None when a corpus input is plain text, tool output as a user pasted
    it (with whatever prose, prompts and "> " quoting came with it), else
    why not.

    Chosen by reading the inputs: corpus/ingest holds mail framings (mbox,
    eml, MIME, base64), quoted-printable, HTML pages, legacy charsets,
    binary bytes and a post flattened onto one line, which are how an
    archive stores a post, not what the tool printed; three cases of the
    tool folders are HTML too (a `<pre>` paste, a blog's `<p>` lines, a
    page's `&nbsp;` runs). The rules below exclude exactly those 22 of the
    190 inputs and keep the rest, among them quoted replies, rewrapped
    lines, a Subject: line copied above a paste, CR progress lines and
    markdown fences, which are plain text."""
    if b"\0" in data:
        return "binary"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8"
    if re.match(rb"From \S[^\n]*\d\d:\d\d", data):
        return "mbox"
    head = data.split(b"\n\n", 1)[0].split(b"\n")
    if sum(bool(MAIL_FIELD.match(line)) for line in head) >= 2:
        return "mail headers"
    if re.search(rb"^(content-type|content-transfer-encoding|mime-version):", data, re.I | re.M):
        return "MIME"
    if re.search(rb"<(/?)(p|br|pre|html|head|body|div|span|table|tr|td|b|i|code|font)\b[^>]*>"
                 rb"|&(nbsp|lt|gt|amp|quot|#\d+);", data, re.I):
        return "HTML"
    # "=3D", blanks kept as "=20" at a line end, or UTF-8 as escape pairs;
    # "count=80" is no escape, and a wrapped iozone line may end in "="
    if re.search(rb"=3D|=20$|=09$|(=[89A-F][0-9A-F]){2}", data, re.M):
        return "quoted-printable"
    if b"\n" not in data.rstrip(b"\n"):
        return "one line"
    return None


def corpus_inputs():
    """[(case, text, runs its expected.json holds)] of the plain tool
    output among the corpus inputs, and {case: why} of the others."""
    kept, left = [], {}
    for path in sorted(CORPUS.glob("*/*/input")):
        case = "%s/%s" % (path.parent.parent.name, path.parent.name)
        data = path.read_bytes()
        why = plain_tool_output(data)
        if why:
            left[case] = why
            continue
        exp = json.loads((path.parent / "expected.json").read_text())
        runs = sum(len(d.get("runs", [])) for d in (exp if isinstance(exp, list) else [exp]))
        text = data.decode("utf-8")
        kept.append((case, text if text.endswith("\n") else text + "\n", runs))
    return kept, left


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
    return "\n".join(lines) + "\n"


def prose_body(rnd):
    """2-8 KB of paragraphs, and where a pasted block would go (a
    paragraph break near the middle)."""
    target = rnd.randint(2000, 7700)
    paras, size = [], 0
    while size < target:
        p = prose_paragraph(rnd, rnd.randint(2, 7)) + "\n"
        paras.append(p)
        size += len(p)
    cut = sum(len(p) for p in paras[:max(1, len(paras) // 2)])
    return "".join(paras), cut


def mboxrd(body):
    """A body as an mbox stores it: a line starting "From " (after any
    '>') gets one more '>', which the reader takes off."""
    return re.sub(r"(?m)^(>*From )", r">\1", body)


# W1: 100,000 messages drawn from a pool of this many prose bodies
BODY_POOL = 1000
W1_MESSAGES = 100_000
W1_BLOCK_SHARE = 0.05
W1_QP_SHARE = 0.10


def write_archive(path, rnd, inputs, messages):
    """W1. Returns (messages, messages with a block, runs their corpus
    cases hold, the archive's first 4 MB as text)."""
    pool = [prose_body(rnd) for _ in range(BODY_POOL)]
    stored = {}  # (pool index, qp): the body as the mbox stores it
    blocked = set(rnd.sample(range(messages), int(messages * W1_BLOCK_SHARE)))
    order, expect, first = [], 0, []
    tmp = path.with_suffix(".part")
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        batch, nfirst = [], 0
        for n in range(messages):
            k = rnd.randrange(BODY_POOL)
            body, cut = pool[k]
            qp = rnd.random() < W1_QP_SHARE
            if n in blocked:
                # the corpus inputs in turn, shuffled again each round
                if not order:
                    order = list(range(len(inputs)))
                    rnd.shuffle(order)
                case, text, runs = inputs[order.pop()]
                expect += runs
                body = body[:cut] + text + "\n" + body[cut:]
                if qp:
                    body = quopri.encodestring(body.encode("utf-8")).decode("ascii")
                body = mboxrd(body)
            else:
                if (k, qp) not in stored:
                    if qp:
                        body = quopri.encodestring(body.encode("utf-8")).decode("ascii")
                    stored[k, qp] = mboxrd(body)
                body = stored[k, qp]
            msg = ("From list-owner@example.org Mon Nov 30 %02d:%02d:00 2026\n"
                   "From: Member %d <member%d@example.org>\n"
                   "To: storage@lists.example.org\n"
                   "Subject: Re: disk performance numbers, part %d\n"
                   "Date: Mon, 30 Nov 2026 %02d:%02d:00 +0000\n"
                   "Message-ID: <bench.%d@example.org>\n"
                   "MIME-Version: 1.0\n"
                   "Content-Type: text/plain; charset=utf-8\n%s"
                   "\n%s\n" % (n // 60 % 24, n % 60, n % 997, n % 997, n // 50,
                               n // 60 % 24, n % 60, n,
                               "Content-Transfer-Encoding: quoted-printable\n" if qp else "",
                               body))
            batch.append(msg)
            if nfirst < 4 * MB:
                first.append(msg)
                nfirst += len(msg)
            if len(batch) == 2000:
                f.write("".join(batch))
                batch = []
        f.write("".join(batch))
    tmp.rename(path)
    return messages, len(blocked), expect, "".join(first)


def write_repeated(path, chunk, size):
    data = chunk.encode("utf-8")
    reps = max(1, round(size / len(data)))
    tmp = path.with_suffix(".part")
    with open(tmp, "wb") as f:
        for _ in range(reps):
            f.write(data)
    tmp.rename(path)
    return reps


def tools_chunk(rnd, inputs, rounds):
    """W2's chunk: `rounds` shuffles of the inputs, each input followed by
    a blank line (so no input's last line runs into the next one's first);
    returns the text, the runs its cases hold and [(offset, case)]."""
    parts, layout, at, expect = [], [], 0, 0
    for _ in range(rounds):
        order = list(inputs)
        rnd.shuffle(order)
        for case, text, runs in order:
            layout.append((at, case))
            parts.append(text + "\n")
            at += len((text + "\n").encode("utf-8"))
            expect += runs
    return "".join(parts), expect, layout


def generate(scale):
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = OUT / "stamp"
    h = hashlib.sha256(Path(__file__).read_bytes() + repr(scale).encode())
    h.update((ROOT / "tests" / "zpool_stream.py").read_bytes())
    for p in sorted(CORPUS.glob("*/*/*")):
        if p.name in ("input", "expected.json"):
            h.update(str(p.relative_to(CORPUS)).encode() + b"\0" + p.read_bytes())
    me = h.hexdigest()
    files = {k: OUT / v for k, v in (("w1", "w1-archive.mbox"), ("w2", "w2-tools.txt"),
                                      ("flat", "flat.txt"), ("flat_half", "flat-half.txt"),
                                      ("bars", "bars.txt"), ("w3", "zpool-stream.txt"),
                                      ("time1", "time1.txt"))}
    facts = OUT / "facts.json"
    if stamp.exists() and stamp.read_text() == me and facts.exists() and \
            all(p.exists() for p in files.values()):
        return files, json.loads(facts.read_text()), None
    stamp.unlink(missing_ok=True)
    for name in ("archive.mbox", "dense.txt"):  # inputs of an older generator
        (OUT / name).unlink(missing_ok=True)
    t0 = time.monotonic()
    inputs, left = corpus_inputs()
    # W1: the archive
    rnd = random.Random(20261130)
    nmsg, nblock, w1_runs, first = write_archive(files["w1"], rnd, inputs,
                                                 max(100, int(W1_MESSAGES * scale)))
    # W2: 20 shuffles of the inputs (~4 MB), written again up to 105 MB
    rnd = random.Random(17)
    chunk, chunk_runs, layout = tools_chunk(rnd, inputs, 20)
    reps = write_repeated(files["w2"], chunk, int(105 * MB * scale))
    # one line: W1's first messages with their newlines dropped
    flat = first.replace("\n", " ").encode("utf-8")
    size = int(100 * MB * scale)
    for key, want in (("flat", size), ("flat_half", size // 2)):
        with open(files[key], "wb") as f:
            left_b = want
            while left_b > 0:
                f.write(flat[:left_b])
                left_b -= len(flat[:left_b])
    # 100 runs with 100 labels, for the chart
    bars = "".join("*** config %03d:\n$ dd if=/dev/zero of=/tmp/x bs=1M count=64\n"
                   "64+0 records in\n64+0 records out\n"
                   "67108864 bytes (67 MB, 64 MiB) copied, %.6f s, %.1f MB/s\n\n"
                   % (i, 0.05 + i * 0.01, 67.108864 / (0.05 + i * 0.01)) for i in range(100))
    files["bars"].write_text(bars)
    files["time1"].write_text(gnu_time_report())
    # W3: a `zpool iostat -v tank 1` left running: one run of many samples
    tables = write_zpool_stream(files["w3"], int(21 * MB * scale))
    info = {"w1_messages": nmsg, "w1_blocks": nblock, "w1_runs": w1_runs,
            "w2_runs": chunk_runs * reps, "w2_chunk": len(chunk.encode("utf-8")),
            "w2_layout": layout, "w2_case_runs": {c: r for c, _, r in inputs},
            "w3_samples": tables, "inputs": len(inputs), "left_out": left}
    facts.write_text(json.dumps(info))
    stamp.write_text(me)
    note = ("generated in %.1f s: W1 %d messages, %d with a corpus input; W2 %d rounds of "
            "%d corpus inputs (%d left out: not plain text); W3 %d samples"
            % (time.monotonic() - t0, nmsg, nblock, 20 * reps, len(inputs), len(left), tables))
    return files, info, note


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


class M:
    """One measured process: wall and CPU (user + system) seconds, peak
    RSS in KiB, exit status (negative: signal) and stderr; wall None on a
    timeout."""

    def __init__(self, wall, cpu, rss, code, err):
        self.wall, self.cpu, self.rss, self.code, self.err = wall, cpu, rss, code, err

    def why(self):
        """Why the run failed, or None."""
        if self.wall is None:
            return "timeout"
        if self.code != 0:
            last = (self.err.strip().splitlines() or [""])[-1][:60]
            return "exit %d" % self.code + (": " + last if last else "")
        return None


def measure(argv, stdin_path=None, stdout_path=os.devnull, env=None):
    """Runs one process and measures it (M). The CPU time is what the
    ratios use: on a machine shared with other work the wall clock says
    more about the neighbours than about the program.

    The process is started by rss_run (tests/bench/rss_run.c), not forked
    from Python: Linux carries the RSS of the forking image into the peak
    RSS of the exec'd one, and Python's 16 MB would hide every smaller
    peak."""
    cmd = [str(RUNNER), "-t", str(TIMEOUT), "-m", str(LIMIT_AS), "-o", str(stdout_path)]
    if stdin_path:
        cmd += ["-i", str(stdin_path)]
    r = subprocess.run(cmd + ["--"] + [str(a) for a in argv], stdin=subprocess.DEVNULL,
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
        return M(None, None, rss, None, "timeout")
    kind, _, num = status.partition(":")
    return M(wall, cpu, rss, int(num) if kind == "exit" else -int(num), err)


C_ENV = dict(os.environ, LC_ALL="C")
# The yardstick of the goals: grep as a user's shell runs it. The issue's
# own figures fit it and not LC_ALL=C (W3: 8.3 s was 91-102x grep, 82-91
# ms over 21 MB, where LC_ALL=C grep reads W3 in 10-20 ms). The locale is
# named, not inherited, so that a machine without LANG measures the same.
UTF8_ENV = dict(os.environ, LC_ALL="C.UTF-8")


def floors(path):
    """grep -cE over the anchors, cat, and grep -cE under LC_ALL=C, over
    the same file: (grep, cat, grep_c). grep writes its count to a file
    (GNU grep stops at the first match when its output is /dev/null);
    cat writes to /dev/null (to a regular file, coreutils cat copies with
    copy_file_range, in the kernel, without reading a byte itself)."""
    grep = measure(["grep", "-cE", GREP_ANCHORS, path], env=UTF8_ENV,
                   stdout_path=OUT / "grep.out")
    cat = measure(["cat", path], env=C_ENV, stdout_path=os.devnull)
    grep_c = measure(["grep", "-cE", GREP_ANCHORS, path], env=C_ENV,
                     stdout_path=OUT / "grep.out")
    return grep, cat, grep_c


def median_of(ms):
    """The median wall and CPU of several runs of one command, the largest
    peak RSS; the first failed run when one failed."""
    for m in ms:
        if m.why():
            return m
    mid = lambda xs: sorted(xs)[len(xs) // 2]
    return M(mid([m.wall for m in ms]), mid([m.cpu for m in ms]), max(m.rss for m in ms),
             0, ms[-1].err)


def interleaved(path, commands, repeat):
    """grep, cat, C-locale grep, then each (argv, output path) of commands,
    over the same file, `repeat` times in turn, so that a machine whose
    speed drifts slows all of them alike: the median of each,
    (grep, cat, grep_c, [M...])."""
    fs, ms = [[], [], []], [[] for _ in commands]
    for _ in range(repeat):
        for k, f in enumerate(floors(path)):
            fs[k].append(f)
        for k, (argv, out) in enumerate(commands):
            ms[k].append(measure(argv, stdout_path=out))
    return tuple(median_of(f) for f in fs) + ([median_of(m) for m in ms],)


def warm(path):
    """Reads a file once, unmeasured, so that every command measured on it
    finds it in the page cache."""
    with open(path, "rb") as f:
        while f.read(16 * MB):
            pass


def count_runs(path):
    """The runs in `path`: its '"tool":' members, read in 16 MB blocks, each
    searched after the last 6 bytes of the one before (a member may
    straddle two blocks; 6 bytes cannot hold a whole one)."""
    key = b'"tool":'
    n, tail = 0, b""
    with open(path, "rb") as f:
        while True:
            b = f.read(16 * MB)
            if not b:
                break
            data = tail + b
            n += data.count(key)
            tail = data[-(len(key) - 1):]
    return n


SPAN = re.compile(rb'"span":\{"line":\d+,"end_line":\d+,"offset":(\d+)')


def run_offsets(path):
    """The input offset of every run of the documents in `path`, read in
    pieces (W2's one document is hundreds of MB of JSON)."""
    offs, tail = [], b""
    with open(path, "rb") as f:
        while True:
            b = f.read(16 * MB)
            data = tail + b
            # a match that starts in the last 200 bytes may be cut by the
            # block's end: it is read next time. One that starts before
            # them is read whole here (searched to the end of data, not to
            # the cut, or a match across the cut is lost, or its number
            # read short).
            keep = 0 if not b else 200
            cut = max(0, len(data) - keep)
            for m in SPAN.finditer(data):
                if m.start() >= cut:
                    break
                offs.append(int(m.group(1)))
            if not b:
                return offs
            # restart at the first byte no match was allowed to start from
            tail = data[cut:]


def w2_differences(path, info, reps_bytes):
    """{case: [(expected, got, the case before it)]} for the places of W2's
    chunk where a case's runs differ from its expected.json, over every
    repetition of the chunk (a run's offset taken modulo the chunk)."""
    import bisect
    layout = info["w2_layout"]
    offs = [o for o, _ in layout]
    chunk = info["w2_chunk"]
    got = [0] * len(layout)
    for off in run_offsets(path):
        if off < reps_bytes:
            got[bisect.bisect_right(offs, off % chunk) - 1] += 1
    reps = reps_bytes // chunk
    runs = info["w2_case_runs"]
    out = {}
    for i, (_, case) in enumerate(layout):
        if got[i] != runs[case] * reps:
            prev = layout[i - 1][1] if i else "(start)"
            out.setdefault(case, []).append((runs[case] * reps, got[i], prev))
    return out


# The finest times rss_run tells apart, near enough: its wall clock is
# CLOCK_MONOTONIC, and Linux reports a child's user + system time as the
# scheduler's own count of its run time, in nanoseconds (only the split
# between the two is taken from ticks), so their sum is exact to the
# microsecond wait4 gives: grep over W3 reads 9.3 to 9.7 ms run after run.
CLOCK = 0.001


def table_rows(binpath, src, name, ext, whole, cut, scale, repeat):
    """`benchlog table` on the first `whole` bytes of src and on its first
    half, each cut before the last `cut`, measured in turn `repeat` times
    (medians: a single pair on a shared machine read 1.8x one run and
    3.1x the next): the rows of the table."""
    paths = []
    for want in (whole, whole // 2):
        p = OUT / ("%s-first-%dm.%s" % (name.lower(), want // MB, ext))
        with src.open("rb") as f:
            head = f.read(int(want * scale))
        p.write_bytes(head[:head.rfind(cut) + 1])
        paths.append(p)
    tout = OUT / ("table-%s.txt" % name.lower())
    ws, hs = [], []
    for _ in range(repeat):
        ws.append(measure([binpath, "table", paths[0]], stdout_path=tout))
        hs.append(measure([binpath, "table", paths[1]]))
    tw, th = median_of(ws), median_of(hs)
    label = "table, %s's first %d MB" % (name, whole // MB)
    tsize = paths[0].stat().st_size / MB
    if tw.why() or th.why():
        return [row(label, tsize, tw, goal="whole/half cpu < 2.4", status=tw.why() or th.why())]
    docs_row = table_docs_row(binpath, paths[0], tout)
    # the RSS goal of every benchlog row: `table` holds the documents it
    # compares whole, so its memory grows with them
    return [row(label, tsize, tw, goal="whole/half cpu < 2.4", status=linear_status(tw, th)),
            row("  its first half", paths[1].stat().st_size / MB, th,
                status="RSS %.0f MB" % (th.rss / 1024)), docs_row]


def table_docs_row(binpath, post, post_table):
    """`benchlog table` on the documents parse writes of post (JSON
    Lines), read a document at a time: its RSS against the goal, and its
    table against the post's (post_table)."""
    docs = post.with_suffix(".jsonl")
    m = measure([binpath, "parse", "--jsonl", "-q", "-o", docs, post])
    if m.why():
        return row("  its documents (JSON)", 0, m, status="parse: " + m.why())
    out = OUT / "table-docs.txt"
    t = measure([binpath, "table", docs], stdout_path=out)
    if t.why():
        return row("  its documents (JSON)", docs.stat().st_size / MB, t, status=t.why())
    missed = [] if filecmp.cmp(out, post_table, shallow=False) else ["table DIFFERS"]
    if t.rss / 1024 > RSS_GOAL_MB:
        missed.append("RSS %.0f MB" % (t.rss / 1024))
    return row("  its documents (JSON)", docs.stat().st_size / MB, t, goal="= the post's table",
               status="MISSED: " + "; ".join(missed) if missed else "met, = the post's table")


def report_row(binpath, post, label):
    """`benchlog report` on post (an mbox is read a message at a time; the
    page's sections are kept in a temporary file, its runs as chart and
    table keep them): its RSS against the goal."""
    m = measure([binpath, "report", "-q", "-o", OUT / "report.html", post])
    size = post.stat().st_size / MB
    if m.why():
        return row(label, size, m, status=m.why())
    rss = m.rss / 1024
    return row(label, size, m, goal="RSS<=%d MB" % RSS_GOAL_MB,
               status="met" if rss <= RSS_GOAL_MB else "MISSED: RSS %.0f MB" % rss)


def long_stream_rows(binpath, w3):
    """`benchlog table`, `chart` and `report` on W3 three times over, one
    post of 66 MB: a day of `zpool iostat -v 1` is about that long. Its
    run's text (twice the post) is read from a temporary file a page at a
    time; the report also shows the post's text, which it reads twice:
    a window at a time, then through a mapping of the file."""
    post = OUT / "w3-three.txt"
    if not post.exists() or post.stat().st_size != 3 * w3.stat().st_size:
        data = w3.read_bytes()
        tmp = post.with_suffix(".part")
        with open(tmp, "wb") as f:
            for _ in range(3):
                f.write(data)
        tmp.rename(post)
    size = post.stat().st_size / MB
    rows = []
    for label, argv in (("table", [binpath, "table", post]),
                        ("chart", [binpath, "chart", "-q", "--format", "svg", "-o",
                                   OUT / "w3-three.svg", post]),
                        ("report", [binpath, "report", "-q", "-o", OUT / "report.html", post])):
        m = measure(argv)
        label = "%s, W3 three times" % label
        if m.why():
            rows.append(row(label, size, m, status=m.why()))
            continue
        rss = m.rss / 1024
        rows.append(row(label, size, m, goal="RSS<=%d MB" % RSS_GOAL_MB,
                        status="met" if rss <= RSS_GOAL_MB else "MISSED: RSS %.0f MB" % rss))
    return rows


def write_run_log(path, size):
    """A log of bonnie++ CSV lines (a nightly run appended for years):
    the corpus's three lines over and over, `size` bytes, thousands of
    runs of one machine."""
    src = (ROOT / "corpus/bonniepp/csv-192-192b-193b/input").read_text().splitlines()
    lines = [l for l in src if l[:1].isdigit() and l.count(",") > 20]
    text = ["A bonnie++ run every night, its CSV line only:", ""]
    n = len(text[0]) + 2
    while n < size:
        for l in lines:
            text.append(l)
            n += len(l) + 1
    path.write_text("\n".join(text) + "\n")


def run_log_rows(binpath, scale, repeat):
    """`chart --all` and `report` on a log of bonnie++ CSV lines and on
    its first half: one chart series a run, thousands of them. Their time
    grew with the square of the runs: each censored bar narrower than a
    pixel cost cairo's dasher a time that grew with the chart."""
    paths = []
    for want in (2 * MB, MB):
        p = OUT / ("run-log-%dk.txt" % (want // 1024))
        if not p.exists():
            write_run_log(p, int(want * scale))
        paths.append(p)
    rows = []
    for label, args in (("chart --all svg", ["chart", "-q", "--all", "--format", "svg", "-o",
                                             OUT / "run-log-charts"]),
                        ("report", ["report", "-q", "-o", OUT / "run-log.html"])):
        ws, hs = [], []
        for _ in range(repeat):
            ws.append(measure([binpath] + args + [paths[0]]))
            hs.append(measure([binpath] + args + [paths[1]]))
        tw, th = median_of(ws), median_of(hs)
        name = "%s, a run log of %d runs" % (label, count_log_runs(paths[0]))
        size = paths[0].stat().st_size / MB
        if tw.why() or th.why():
            rows.append(row(name, size, tw, status=tw.why() or th.why()))
            continue
        rows.append(row(name, size, tw, goal="whole/half cpu < 2.4",
                        status=linear_status(tw, th)))
    return rows


def linear_status(whole, half):
    """A whole input's row against its first half's: CPU less than 2.4
    times the half's, and the RSS goal."""
    grow = ratio(whole.cpu, half.cpu)
    missed = [] if grow < 2.4 else ["NOT linear"]
    if whole.rss / 1024 > RSS_GOAL_MB:
        missed.append("RSS %.0f MB" % (whole.rss / 1024))
    return "%s, whole/half cpu %.2fx" % ("MISSED: " + "; ".join(missed) if missed else "met", grow)


def count_log_runs(path):
    return sum(1 for l in path.read_text().splitlines() if l[:1].isdigit())


def ratio(a, b):
    """a over b; a b under CLOCK counts as CLOCK (a lower bound, then)."""
    return a / max(b, CLOCK)


def secs(t):
    """A time as the table prints it: milliseconds below 0.1 s."""
    return "%.3f" % t if t < 0.1 else "%.2f" % t


def xfmt(a, b):
    """ratio(a, b) as the table prints it, '>' when it is a lower bound."""
    x = ratio(a, b)
    return (">" if b < CLOCK else "") + ("%.0fx" % x if x >= 100 else "%.2fx" % x)


COLS = ("input", "MB", "wall s", "cpu s", "MB/s", "RSS MB", "runs", "runs/s", "cpu/grep",
        "wall/grep", "cpu/cat", "wall/cat", "goal", "status")
WIDTHS = (22, 4, 6, 6, 5, 6, 6, 7, 8, 9, 7, 8, 26, 0)


def fmt_row(cols):
    return "  ".join(str(c).rjust(w) if 0 < i < len(WIDTHS) - 2 else str(c).ljust(w)
                     for i, (c, w) in enumerate(zip(cols, WIDTHS))).rstrip()


def row(label, size, m, runs=None, grep=None, cat=None, goal="", status="", per_wall=False):
    """A table row for process m over `size` MB; MB/s and runs/s over its
    CPU time, or its wall time (per_wall: several processes)."""
    if m.wall is None:
        return (label, "%.0f" % size, ">%d" % TIMEOUT, "-", "-", "%.1f" % (m.rss / 1024),
                "-", "-", "-", "-", "-", "-", goal, status or "timeout")
    t = m.wall if per_wall else m.cpu

    def r(floor, attr):
        if floor is None or floor.wall is None:
            return "-"
        return xfmt(getattr(m, attr), getattr(floor, attr))

    def per_s(n):
        x = n / max(t, 1e-3)
        return "%.0f" % x if x >= 10 else "%.2f" % x
    return (label, "%.0f" % size if size >= 1 else "<1", secs(m.wall),
            secs(m.cpu), per_s(size) if size >= 1 else "-",
            "%.1f" % (m.rss / 1024), "-" if runs is None else runs,
            "-" if runs is None else per_s(runs),
            r(grep, "cpu"), r(grep, "wall"), r(cat, "cpu"), r(cat, "wall"), goal, status)


def floor_rows(size, grep, cat, grep_c):
    def floor(label, m, what):
        return row(label, size, m, status="floor: " + what if not m.why() else m.why())
    return [floor("  grep -cE (C.UTF-8)", grep, "scan, the goals' yardstick"),
            floor("  grep -cE (LC_ALL=C)", grep_c, "scan, byte locale"),
            floor("  cat", cat, "read")]


class Goals:
    """The goals of one benchlog row: those missed, those that this run
    cannot tell (a floor too quick to time)."""

    def __init__(self):
        self.missed, self.unsure, self.notes = [], [], []

    def ratio(self, what, a, floor, limit):
        """a over the grep time `floor` is at most `limit`."""
        if a is None or floor is None:
            return
        if ratio(a, floor) > limit:
            self.missed.append("%s %s grep" % (what, xfmt(a, floor)))
        elif floor < CLOCK:
            self.unsure.append("%s/grep: grep under %.3f s" % (what, CLOCK))

    def beside(self, what, a, floor_c):
        """The same ratio over LC_ALL=C grep, said beside the verdict."""
        if a is not None and floor_c is not None:
            self.notes.append("%s %s LC_ALL=C grep" % (what, xfmt(a, floor_c)))

    def verdict(self, m, notes=()):
        """'met', 'MISSED: ...' or 'unsure: ...' for benchlog's run m,
        with notes after."""
        why = m.why()
        if why:
            return why
        missed = list(self.missed)
        if m.rss / 1024 > RSS_GOAL_MB:
            missed.append("RSS %.1f MB" % (m.rss / 1024))
        head = "MISSED: " + "; ".join(missed) if missed else \
            "unsure: " + "; ".join(self.unsure) if self.unsure else "met"
        return ", ".join([head] + [n for n in list(notes) + self.notes if n])


def verdict(m, missed, notes=()):
    g = Goals()
    g.missed += missed
    return g.verdict(m, notes)


def corpus_note(runs, expected):
    """The runs against those the corpus cases in the file hold."""
    if runs is None:
        return None
    return "runs = corpus cases" if runs == expected else "corpus cases: %d runs" % expected


def machine_line():
    """The machine, as the table's first line gives it."""
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return "machine: %d cores (nproc), %s; %s" % (os.cpu_count() or 0, cpu, os.uname().release)


def size_of(files, key):
    return files[key].stat().st_size / MB


def w1_rows(parse, files, info, repeat):
    """W1: the archive, one job, then two."""
    rows = []
    path, size = files["w1"], size_of(files, "w1")
    warm(path)
    out, jout = OUT / "out-w1.jsonl", OUT / "out-w1-jobs.jsonl"
    grep, cat, grep_c, (m, mj) = interleaved(path, [(parse + [path], out),
                                            (parse + ["--jobs", "2", path], jout)], repeat)
    runs = count_runs(out) if not m.why() else None
    g = Goals()
    g.ratio("cpu", m.cpu, grep.cpu, 1.0)
    g.beside("cpu", m.cpu, grep_c.cpu)
    rows.append(row("W1 mbox, 1 job", size, m, runs, grep, cat, "cpu<=1.0x grep",
                    g.verdict(m, [corpus_note(runs, info["w1_runs"])])))
    jruns = count_runs(jout) if not mj.why() else None
    g = Goals()
    g.ratio("wall", mj.wall, grep.wall, 0.6)
    g.beside("wall", mj.wall, grep_c.wall)
    same = not mj.why() and not m.why() and filecmp.cmp(out, jout, shallow=False)
    if not same:
        g.missed.append("output DIFFERS from serial")
    rows.append(row("W1 mbox, --jobs 2", size, mj, jruns, grep, cat,
                    "wall<=0.6x grep, =serial",
                    g.verdict(mj, ["= serial" if same else None]), per_wall=True))
    rows += floor_rows(size, grep, cat, grep_c)
    return rows


def w2_rows(parse, files, info, repeat):
    """W2: tool output only; the rows and the notes on its cases."""
    rows, notes = [], []
    path, size = files["w2"], size_of(files, "w2")
    warm(path)
    out = OUT / "out-w2.jsonl"
    grep, cat, grep_c, (m,) = interleaved(path, [(parse + [path], out)], repeat)
    runs = count_runs(out) if not m.why() else None
    g = Goals()
    if not m.why():
        g.ratio("cpu", m.cpu, grep.cpu, 5)
        g.beside("cpu", m.cpu, grep_c.cpu)
        if size / max(m.cpu, 1e-3) < 50:
            g.missed.append("%.1f MB/s" % (size / max(m.cpu, 1e-3)))
    rows.append(row("W2 tool output", size, m, runs, grep, cat, "cpu<=5x grep, >=50 MB/s",
                    g.verdict(m, [corpus_note(runs, info["w2_runs"])])))
    rows += floor_rows(size, grep, cat, grep_c)
    if runs is not None and runs != info["w2_runs"]:
        diff = w2_differences(out, info, files["w2"].stat().st_size)
        reps = files["w2"].stat().st_size // info["w2_chunk"]
        for case, places in sorted(diff.items()):
            notes.append("W2: %s gives %s runs, not %d, in %d of its %d places in the chunk, "
                         "after %s" % (case, "/".join(sorted({"%g" % (g / reps) for _, g, _ in
                                                              places})),
                                       info["w2_case_runs"][case], len(places),
                                       sum(c == case for _, c in info["w2_layout"]),
                                       ", ".join(p for _, _, p in places[:5]) +
                                       (", ..." if len(places) > 5 else "")))
    return rows, notes


def w3_rows(parse, files, info, repeat):
    """W3: one `zpool iostat -v` stream, every sample counted."""
    rows = []
    path, size = files["w3"], size_of(files, "w3")
    warm(path)
    out = OUT / "out-w3.jsonl"
    grep, cat, grep_c, (m,) = interleaved(path, [(parse + [path], out)], repeat)
    runs = count_runs(out) if not m.why() else None
    g, kept = Goals(), None
    if not m.why():
        g.ratio("cpu", m.cpu, grep.cpu, 10)
        g.beside("cpu", m.cpu, grep_c.cpu)
        got, want = count_samples(out), info["w3_samples"]
        if got != want:
            g.missed.append("%d of %d samples kept" % (got, want))
        else:
            kept = "every sample kept (%d)" % got
    rows.append(row("W3 zpool iostat -v", size, m, runs, grep, cat, "cpu<=10x grep, all samples",
                    g.verdict(m, [kept])))
    rows += floor_rows(size, grep, cat, grep_c)
    return rows


def flat_rows(parse, files):
    """One 100 MB line, and its first half: linear time."""
    rows = []
    path, size = files["flat"], size_of(files, "flat")
    warm(path)
    grep, cat, grep_c = floors(path)
    m = measure(parse + [path], stdout_path=OUT / "out-flat.jsonl")
    hpath, hsize = files["flat_half"], size_of(files, "flat_half")
    warm(hpath)
    h = measure(parse + [hpath])
    rows.append(row("flat.txt (1 line)", size, m, None if m.why() else
                    count_runs(OUT / "out-flat.jsonl"), grep, cat, "RSS<=%d MB" % RSS_GOAL_MB,
                    verdict(m, [])))
    if not m.why() and not h.why():
        grow = ratio(m.cpu, h.cpu)
        rows.append(row("  its first half", hsize, h, goal="whole/half cpu < 2.4",
                        status=verdict(h, [] if grow < 2.4 else ["NOT linear"],
                                       ["whole/half cpu %.2fx" % grow])))
    rows += floor_rows(size, grep, cat, grep_c)
    return rows


def peer_rows(parse, files):
    """The peer: Debian's jc reads one `time` report."""
    rows = []
    jc = shutil.which("jc")
    t1 = files["time1"]
    tout = OUT / "out-time1.jsonl"
    m = measure(parse + [t1], stdout_path=tout)
    truns = count_runs(tout)
    rows.append(row("time report (1)", t1.stat().st_size / MB, m, truns, goal="1 run",
                    status=verdict(m, [] if truns == 1 else ["%d runs" % truns])))
    if jc:
        jout = OUT / "out-time1-jc.json"
        mj = measure([jc, "--time"], stdin_path=t1, stdout_path=jout)
        # a peer that read nothing ("{}") is no comparison
        try:
            got = json.loads(jout.read_text()).get("user_time") is not None
        except (OSError, ValueError, AttributeError):
            got = False
        r = list(row("  jc --time (peer)", t1.stat().st_size / MB, mj,
                     status=mj.why() or ("peer" if got else "peer read nothing")))
        # benchlog's time over the peer's, in the grep columns
        r[8], r[9] = xfmt(m.cpu, mj.cpu), xfmt(m.wall, mj.wall)
        rows.append(tuple(r))
    else:
        rows.append(("  jc --time (peer)", "", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-",
                     "", "not installed"))
    return rows


def chart_rows(binpath, files):
    """The chart, once the subcommand exists: the whole command, best of 3
    (wall and CPU each their least), against 50 ms."""
    rows = []
    help_txt = subprocess.run([binpath, "--help"], capture_output=True, text=True).stdout
    if not re.search(r"^\s+chart\s", help_txt, re.M):
        rows.append(("chart 100 bars", "", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-",
                     "cpu<0.050", "skipped: no `benchlog chart` yet"))
    else:
        doc = OUT / "bars.json"
        measure([binpath, "parse", "-q", "-o", doc, files["bars"]])
        for fmt in ("png", "svg", "pdf"):
            target = OUT / ("bars." + fmt)
            best = None
            for _ in range(3):
                c = measure([binpath, "chart", "-o", target, doc])
                if c.why():
                    best = None
                    break
                best = c if best is None else \
                    M(min(best.wall, c.wall), min(best.cpu, c.cpu), max(best.rss, c.rss), 0, "")
            if best is None:
                rows.append(("chart 100 bars " + fmt, "", "-", "-", "-", "-", "-", "-", "-", "-",
                             "-", "-", "cpu<0.050", "failed: " + c.why()))
            else:
                r = list(row("chart 100 bars " + fmt, 0, best, 100, goal="cpu<0.050",
                             status=verdict(best, [] if best.cpu < 0.050 else
                                            ["cpu %.3f s" % best.cpu])))
                r[1], r[2], r[3], r[7] = "", "%.3f" % best.wall, "%.3f" % best.cpu, "-"
                rows.append(tuple(r))
    return rows


def print_table(rows, info, notes):
    print()
    print(fmt_row(COLS))
    print(fmt_row(["-" * (w or 6) for w in WIDTHS]))
    for r in rows:
        print(fmt_row(r))
    print("""
MB: 2^20 bytes. wall s: wall clock; cpu s: user + system time; MB/s and runs/s
over the CPU time (--jobs: over the wall time). RSS: peak resident set (wait4
in rss_run, which forks from a ~1 MB image; --jobs: the largest process's).
Every benchlog row also has the goal RSS <= %d MB.
Ratios: benchlog's time over that of the floor rows below it, measured in this
run on the same file, its page cache warmed first; for W1 to W3 each time is
the median of --repeat runs (BENCH_REPEAT) taken in turn with its floors'
(a noisy machine: raise it) ('>': the floor took under
%.3f s, the clocks' resolution, and the ratio is over %.3f s). The goals use
the cpu ratios (the machine may be shared), but for --jobs 2's wall clock.
table rows: each the median of --repeat runs, whole and half in turn.
grep: `grep -cE 'ANCHORS' FILE` under LC_ALL=C.UTF-8 (the locale of a Debian
shell, and the one the issue's figures were taken in), its count written to
a file (GNU grep stops at its first match when its output is /dev/null); the
goals read against it. Each status also gives the ratio against LC_ALL=C
grep, several times quicker on this text (no multibyte decoding). cat: `cat FILE`
to /dev/null, where it read()s every byte as grep does: to a regular file,
coreutils cat (9.x) copies with copy_file_range, in the kernel, and never
reads the bytes itself; it would time a write of another copy to disk.
runs: the runs in benchlog's output; 'corpus cases': those that the
expected.json of the corpus inputs put in the file hold. W2's cases that give
other runs are named below the table, with the input before them (a run's
offset modulo the chunk that W2 repeats tells its case).
W1: %d messages, %d with one corpus input. W3: one run of every sample; the
status counts the samples the document holds against the tables written.
'= serial': the --jobs output is byte for byte the serial run's. jc row: the
one-report file through `jc --time`; its cpu/grep and wall/grep are
benchlog's time over jc's (below 1: benchlog is faster), both whole commands,
process start included. chart: `benchlog chart -o bars.FMT bars.json`, the
whole command, least wall and least CPU of 3 runs.""" % (RSS_GOAL_MB, CLOCK, CLOCK,
                                                         info["w1_messages"],
                                                         info["w1_blocks"]))
    for n in notes:
        print(n)


def main():
    global RUNNER
    ap = argparse.ArgumentParser()
    ap.add_argument("benchlog")
    ap.add_argument("--scale", type=float, default=float(os.environ.get("BENCH_SCALE", "1")))
    ap.add_argument("--repeat", type=int, default=int(os.environ.get("BENCH_REPEAT", "3")),
                    help="runs of W1, W2 and W3 and of their floors, in turn; "
                         "their medians are shown")
    ap.add_argument("--runner", default=str(RUNNER),
                    help="the rss_run launcher (make build/tests/rss_run)")
    args = ap.parse_args()
    binpath = str(Path(args.benchlog).resolve())
    RUNNER = Path(args.runner).resolve()
    if not os.access(RUNNER, os.X_OK):
        print("bench: no %s; run `make build/tests/rss_run`" % RUNNER, file=sys.stderr)
        return 2

    print(machine_line())
    files, info, note = generate(args.scale)
    if note:
        print(note)
    repeat = max(args.repeat, 1)
    print("each workload: grep -cE, cat and benchlog over the same file, one after the "
          "other, %d times in turn (W1 to W3; medians)" % repeat)
    sys.stdout.flush()

    parse = [binpath, "parse", "--jsonl", "-q"]
    rows = w1_rows(parse, files, info, repeat)
    w2, notes = w2_rows(parse, files, info, repeat)
    rows += w2 + w3_rows(parse, files, info, repeat) + flat_rows(parse, files)
    # `benchlog table` on W2's first 8 MB and its first 4 MB, and on W1's
    # first 128 MB and 64 MB (thousands of messages, each a source): its
    # time grows with the runs and the sources, not with their square (the
    # whole document is held in memory: the RSS is shown, not held to the
    # parse goal)
    rows += table_rows(binpath, files["w2"], "W2", "txt", 8 * MB, b"\n", args.scale, repeat)
    rows += table_rows(binpath, files["w1"], "W1", "mbox", 128 * MB, b"\nFrom ", args.scale, repeat)
    rows.append(report_row(binpath, OUT / "w1-first-64m.mbox", "report, W1's first 64 MB"))
    # and on one long post: dense tool output (every run held for the
    # comparisons), and a zpool stream (its text, a page 8 times its size)
    rows.append(report_row(binpath, OUT / "w2-first-8m.txt", "report, W2's first 8 MB"))
    rows += table_rows(binpath, files["w3"], "W3", "txt", 16 * MB, b"\n\n", args.scale, repeat)
    rows.append(report_row(binpath, OUT / "w3-first-16m.txt", "report, W3's first 16 MB"))
    rows += long_stream_rows(binpath, files["w3"])
    rows += run_log_rows(binpath, args.scale, repeat)
    rows += peer_rows(parse, files) + chart_rows(binpath, files)
    print_table(rows, info, notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
