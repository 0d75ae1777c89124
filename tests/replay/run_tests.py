#!/usr/bin/env python3
"""Replay tests: the safety corpus, end-to-end replays with the real tools,
Ctrl-C and timeouts. usage: run_tests.py BENCHLOG

Safety: the hostile transcripts (hostile-dd.txt, a post; hostile-docs.json,
documents for tools whose parsers are elsewhere) are replayed twice, in
bubblewrap and with --no-sandbox, under a temporary HOME and working
directory, with stub bonnie++ and iozone on PATH that try to write to every
path they are given. Each case must be refused or confined; a snapshot of
the watched places (HOME, the working directory, /etc/passwd, /etc/shadow,
/etc/cron.d, the targets the transcripts name) must be the same afterwards, and the scratch
directory must be gone.

Prints one line per failed check and 'replay: N passed, N failed'."""
import hashlib
import json
import re
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"replay: FAIL {name}" + (f": {detail}" if detail else ""))


def snapshot(paths):
    """path -> (kind, size, mtime_ns, sha256 for small files) for every
    entry under each watched path (not following symlinks); a (path, depth)
    pair limits how deep (for big trees such as /root)."""
    snap = {}
    for top in paths:
        top, depth = top if isinstance(top, tuple) else (top, 64)
        top = pathlib.Path(top)
        if not os.path.lexists(top):
            snap[str(top)] = None
            continue
        todo = [(top, 0)]
        while todo:
            p, level = todo.pop()
            try:
                st = p.lstat()
            except OSError:
                continue
            digest = None
            if p.is_file() and not p.is_symlink() and st.st_size < (1 << 20):
                try:
                    digest = hashlib.sha256(p.read_bytes()).hexdigest()
                except OSError:
                    digest = "unreadable"
            snap[str(p)] = (st.st_mode, st.st_size, st.st_mtime_ns, digest)
            if p.is_dir() and not p.is_symlink() and level < depth:
                try:
                    todo.extend((c, level + 1) for c in p.iterdir())
                except OSError:
                    pass
    return snap


def diff(before, after):
    keys = set(before) | set(after)
    return sorted(k for k in keys if before.get(k) != after.get(k))


def docs_of(text):
    dec = json.JSONDecoder()
    out, i = [], 0
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        d, i = dec.raw_decode(text, i)
        out.append(d)
    return out


def validator():
    try:
        import jsonschema
    except ImportError:
        return None
    schema = json.load(open(ROOT / "schema" / "replay.schema.json"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


VALIDATOR = validator()


def validate(name, doc):
    if VALIDATOR is None:
        return
    errs = sorted(VALIDATOR.iter_errors(doc), key=lambda e: list(e.path))
    check(f"{name}: schema", not errs, "; ".join(f"{list(e.path)}: {e.message}" for e in errs[:3]))


ALLOWED_DEVICES = {"/dev/null", "/dev/zero", "/dev/urandom"}


def paths_in(argv):
    """The paths an argv names: values of key=value words and words that
    start with '/' (options with attached values too: -d/x)."""
    out = []
    for a in argv[1:]:
        v = a.split("=", 1)[1] if "=" in a else a
        if v.startswith("-") and len(v) > 2 and v[2] == "/":
            v = v[2:]
        if v.startswith("/"):
            out.append(v)
    return out


# The hostile cases: command substring -> what must happen.
DD_EXPECT = [
    ("of=/dev/sda", "refused"),
    ("of=/etc/passwd", "done"),
    # the scanner ends a command at ';' and '&&': the dd part is replayed,
    # the rest never reaches the plan (the refusal of a whole command line
    # with them is in hostile-docs.json)
    ("of=/tmp/x bs=1m count=1", "done"),
    ("| tee", "refused"),
    ("$(mktemp)", "refused"),
    ("`id -un`", "refused"),
    ("$HOME", "refused"),
    ("~/.profile", "refused"),
    ("../../../../etc/cron.d", "done"),
    ("count=99999999999", "done"),
    ("if=/dev/sda", "done"),
    ("if=/etc/shadow", "done"),
    ("of=/proc/sys", "refused"),
    ("of=/dev/null bs=1m count=10", "done"),
    ("> /dev/sda", "refused"),
]
DOC_EXPECT = {
    "bonnie++ -d /": "done",
    "bonnie++ -d /etc": "done",
    "bonnie++ then reboot": "refused",
    "dd then rm": "refused",
    "dd and reboot": "refused",
    "bonnie++ semaphores": "refused",
    "iozone -f /etc/shadow": "done",
    "iozone report over /etc/passwd": "done",
    "iozone -U": "refused",
    "iozone cluster": "refused",
    "iozone on a disk": "refused",
    "zpool destroy": "refused",
    "tar": "refused",
    "rm": "unsupported",
    "diskinfo": "unavailable",
}
# Places the hostile commands aim at: none may appear or change.
TARGETS = ["/etc/benchlog-pipe", "/etc/cron.d/benchlog", "/var/tmp/big", "/root/disk.img",
           "/tmp/shadow.copy", "/tmp/x", "/boot/vmlinuz", "/tmp/bx", "/root/iozone.tmp",
           "/stub-was-here", "/etc/stub-was-here", "/tmp/stub-was-here"]


def safety(bench, sandbox):
    tag = "sandbox" if sandbox else "no-sandbox"
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="benchlog-replay-test."))
    try:
        home, cwd, sp, bindir = tmp / "home", tmp / "cwd", tmp / "scratch", tmp / "bin"
        for d in (home, cwd, sp, bindir):
            d.mkdir()
        (home / ".profile").write_text("# a file that must not change\n")
        (home / ".bashrc").write_text("# neither must this one\n")
        (cwd / "data.txt").write_text("work in progress\n")
        for stub in ("bonnie++", "iozone"):
            shutil.copy(HERE / "stubs" / stub, bindir / stub)
            os.chmod(bindir / stub, 0o755)
        # the whole of the temporary HOME and cwd, and the files the hostile
        # commands aim at outside them (not all of /etc or /root: other
        # programs on the machine may change those meanwhile)
        watched = [home, cwd, "/etc/passwd", "/etc/shadow", ("/etc/cron.d", 1), "/etc/hostname",
                   ("/boot", 1)] + TARGETS
        before = snapshot(watched)
        env = dict(os.environ, HOME=str(home), PATH=f"{bindir}:{os.environ.get('PATH', '/usr/bin:/bin')}")
        cmd = [bench, "replay", "-q", "--max-bytes", "1M", "--max-seconds", "20", "--scratch", str(sp),
               "--tools", str(bindir)]
        if not sandbox:
            cmd.append("--no-sandbox")
        cmd += [str(HERE / "hostile-dd.txt"), str(HERE / "hostile-docs.json")]
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        check(f"{tag}: exit status 0", p.returncode == 0, p.stderr[-500:])
        docs = docs_of(p.stdout)
        check(f"{tag}: two comparison documents", len(docs) == 2, f"{len(docs)}")
        if len(docs) != 2:
            return
        for d in docs:
            validate(tag, d)
        scratch_root = None
        # dd cases, in order
        for entry, (needle, want) in zip(docs[0]["replays"], DD_EXPECT):
            name = f"{tag}: dd '{needle}'"
            check(f"{name}: command", needle in (entry["command"] or ""), entry["command"])
            check(f"{name}: {want}", entry["status"] == want, f"{entry['status']} {entry.get('reason', '')}")
        check(f"{tag}: all dd cases seen", len(docs[0]["replays"]) == len(DD_EXPECT))
        for entry in docs[0]["replays"]:
            cmd = entry["command"] or ""
            check(f"{tag}: no second command in '{cmd}'", "rm -rf" not in cmd and "reboot" not in cmd)
        for entry in docs[1]["replays"]:
            want = DOC_EXPECT.get(entry["label"])
            check(f"{tag}: '{entry['label']}': {want}", entry["status"] == want,
                  f"{entry['status']} {entry.get('reason', '')}")
        check(f"{tag}: all document cases seen", len(docs[1]["replays"]) == len(DOC_EXPECT))
        # every path a tool was given is in the scratch dir (or a harmless device)
        for d in docs:
            scratch = d["environment"]["scratch"]["path"]
            scratch_root = str(pathlib.Path(scratch).parent)
            check(f"{tag}: scratch under --scratch", scratch.startswith(str(sp) + "/"), scratch)
            for entry in d["replays"]:
                argv = entry["plan"].get("argv", [])
                for path in paths_in(argv):
                    check(f"{tag}: run {entry['run']} path {path} confined",
                          path.startswith(scratch + "/") or path in ALLOWED_DEVICES)
                out = entry.get("replayed", {}).get("output", "")
                for line in out.splitlines():
                    if line.startswith("stub-wrote: "):
                        w = line[len("stub-wrote: "):]
                        check(f"{tag}: stub wrote inside the scratch ({w})", w.startswith(scratch + "/"))
        # the replays that ran did run (the stubs and the real dd)
        dd = {e["command"]: e for e in docs[0]["replays"]}
        big = next(e for c, e in dd.items() if "count=99999999999" in c)
        got = [r["value"] for run in big["replayed"]["runs"] for r in run["results"] if r["metric"] == "bytes"]
        check(f"{tag}: absurd count scaled to 1 MiB", got == [1 << 20], f"{got}")
        bon = next(e for e in docs[1]["replays"] if e["label"] == "bonnie++ -d /")
        check(f"{tag}: bonnie++ stub ran", "stub-argv:" in bon.get("replayed", {}).get("output", ""))
        after = snapshot(watched)
        changed = diff(before, after)
        check(f"{tag}: nothing outside the scratch changed", not changed, ", ".join(changed[:5]))
        check(f"{tag}: scratch removed", not any(sp.iterdir()), str(list(sp.iterdir())))
        check(f"{tag}: the scratch root was {scratch_root}", scratch_root is not None)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def probe_confined(bench, sandbox):
    """A replaced dd and iozone on the tool path (stubs/escaper) try to write
    outside the scratch directory when asked for their version as when
    run. In bubblewrap both must be stopped; without it the probe must at
    least not run in the caller's working directory."""
    tag = "escaper " + ("sandbox" if sandbox else "no-sandbox")
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="benchlog-replay-probe."))
    try:
        bindir, victim, cwd, sp = tmp / "bin", tmp / "victim", tmp / "cwd", tmp / "scratch"
        for d in (bindir, victim, cwd, sp):
            d.mkdir()
        for tool in ("dd", "iozone"):
            shutil.copy(HERE / "stubs" / "escaper", bindir / tool)
            os.chmod(bindir / tool, 0o755)
        env = dict(os.environ, PATH=f"{bindir}:{os.environ.get('PATH', '/usr/bin:/bin')}")
        cmd = [bench, "replay", "-q", "--max-bytes", "1M", "--max-seconds", "10", "--scratch", str(sp),
               "--tools", str(bindir), str(HERE / "dd-post.txt"), str(HERE / "iozone-doc.json")]
        if not sandbox:
            cmd.insert(2, "--no-sandbox")
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        docs = docs_of(p.stdout)
        check(f"{tag}: two documents", len(docs) == 2, p.stderr[-300:])
        tools = {k: v for d in docs for k, v in d["environment"]["tools"].items()}
        for tool in ("dd", "iozone"):
            check(f"{tag}: {tool} probed (the stub's version)", "escaper " + tool in (tools.get(tool) or ""),
                  json.dumps(tools))
        runs = [e for d in docs for e in d["replays"] if e["status"] == "done"]
        check(f"{tag}: the stubs ran", len(runs) == 4 and
              all("escaper " in e["replayed"]["output"] for e in runs),
              str([(e["status"], e.get("reason")) for d in docs for e in d["replays"]]))
        if sandbox:
            check(f"{tag}: nothing written outside the scratch (probe and run)",
                  not any(victim.iterdir()) and not any(cwd.iterdir()),
                  str(sorted(x.name for x in list(victim.iterdir()) + list(cwd.iterdir()))))
            for d in docs:
                scratch = d["environment"]["scratch"]["path"]
                for e in d["replays"]:
                    out = e.get("replayed", {}).get("output", "")
                    # "escaped: ./escaped-dd-run (cwd <scratch>/fs/cwd)": inside, allowed
                    bad = [x for x in out.splitlines() if x.startswith("escaped: ") and
                           (x.split(" ")[1].startswith("/") or f"(cwd {scratch}/" not in x)]
                    check(f"{tag}: run {e['run']} {e['tool']} wrote only inside the scratch", not bad, str(bad))
        else:
            check(f"{tag}: the probe does not run in the caller's directory",
                  not list(cwd.glob("*-probe")), str(list(cwd.iterdir())))
        check(f"{tag}: scratch removed", not any(sp.iterdir()), str(list(sp.iterdir())))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def rows(entry):
    return {r["metric"]: r for r in entry.get("comparison", [])}


def end_to_end_dd(bench, tmp):
    chart = tmp / "chart.jsonl"
    png, svg = tmp / "then-now.png", tmp / "then-now.svg"
    p = subprocess.run([bench, "replay", "--max-bytes", "8M", "--scratch", str(tmp), "--chart-data",
                        str(chart), "--chart", str(png), str(HERE / "dd-post.txt")],
                       capture_output=True, text=True, timeout=120)
    head = png.read_bytes()[:24] if png.exists() else b""
    check("dd e2e: --chart PNG written", head[:8] == b"\x89PNG\r\n\x1a\n" and
          int.from_bytes(head[16:20], "big") > 100, str(head))
    # the chart file alone, from the same post: an SVG naming both sources
    q = subprocess.run([bench, "replay", "-q", "--max-bytes", "1M", "--scratch", str(tmp), "--chart", str(svg),
                        str(HERE / "dd-post.txt")], capture_output=True, text=True, timeout=120)
    text = svg.read_text() if svg.exists() else ""
    check("dd e2e: --chart SVG names then and now, with the size and file system",
          q.returncode == 0 and "<svg" in text and "then: dd-post.txt" in text and
          re.search(r"now: 1 MiB a run on [^<\"]+", text), q.stderr[-300:])
    bad = subprocess.run([bench, "replay", "--chart", str(tmp / "chart.txt"), str(HERE / "dd-post.txt")],
                         capture_output=True, text=True, timeout=60)
    check("dd e2e: --chart with an unknown extension is a usage error",
          bad.returncode == 2 and "png, .svg or .pdf" in bad.stderr and not (tmp / "chart.txt").exists(),
          bad.stderr[-300:])
    pair = docs_of(chart.read_text()) if chart.exists() else []
    check("dd e2e: chart data: two documents", len(pair) == 2 and all(len(d["runs"]) == 3 for d in pair))
    try:
        import jsonschema
        v = jsonschema.Draft202012Validator(json.load(open(ROOT / "schema" / "benchlog.schema.json")))
        for d in pair:
            errs = list(v.iter_errors(d))
            check("dd e2e: chart data is benchlog/1", not errs, "; ".join(e.message for e in errs[:2]))
    except ImportError:
        pass
    if len(pair) == 2:
        check("dd e2e: chart data pairs labels", [r["label"] for r in pair[0]["runs"]] ==
              [r["label"] for r in pair[1]["runs"]])
    check("dd e2e: exit 0", p.returncode == 0, p.stderr[-500:])
    docs = docs_of(p.stdout)
    check("dd e2e: one document", len(docs) == 1)
    if not docs:
        return
    d = docs[0]
    validate("dd e2e", d)
    check("dd e2e: three runs done", [e["status"] for e in d["replays"]] == ["done"] * 3,
          str([(e["status"], e.get("reason")) for e in d["replays"]]))
    env = d["environment"]
    check("dd e2e: environment", env.get("kernel") and env["scratch"].get("type") and
          env["tools"].get("dd", "").startswith("dd (coreutils)"), json.dumps(env)[:300])
    w, r, g = d["replays"]
    for name, e, nbytes in (("write", w, 8 << 20), ("read", r, 8 << 20), ("linux", g, 64 << 20)):
        rs = rows(e)
        tp = rs.get("throughput", {})
        check(f"dd e2e {name}: throughput compared", isinstance(tp.get("replayed"), (int, float)) and
              tp["replayed"] > 0 and isinstance(tp.get("ratio"), float), json.dumps(tp))
        b = rs.get("bytes", {})
        check(f"dd e2e {name}: bytes as planned", b.get("replayed") == min(nbytes, 8 << 20) and b.get("ratio") == 1.0,
              json.dumps(b))
    check("dd e2e: scale recorded", abs(w["plan"]["scale"] - (8 << 20) / 2097152000) < 1e-9)
    check("dd e2e: time(1) compared", "time.real" in rows(w) and rows(w)["time.real"]["replayed"] >= 0)
    # user and system time of the tool, under bubblewrap as well
    check("dd e2e: user and system time measured",
          all(isinstance(rows(w).get(k, {}).get("replayed"), (int, float)) for k in ("time.user", "time.system")),
          json.dumps([rows(w).get(k) for k in ("time.user", "time.system")]) + " sandbox " + env.get("sandbox", ""))
    check("dd e2e: read used the file the write left",
          r["plan"]["paths"][0]["path"] == w["plan"]["paths"][0]["path"])
    check("dd e2e: BSD spelling translated", "bs=1M" in w["plan"]["argv"] and "count=8" in w["plan"]["argv"])
    # then and now measure the same thing: the write reaches the device,
    # the read starts cold; the summary says it in words, in units
    check("dd e2e: the write is flushed", "conv=fdatasync" in w["plan"]["argv"] and
          "device" in (w["plan"].get("page_cache") or ""), json.dumps(w["plan"])[:300])
    check("dd e2e: the read starts cold", "dropped" in (r["plan"].get("page_cache") or ""))
    check("dd e2e: the post's own flush kept", g["plan"]["argv"].count("conv=fdatasync") == 1)
    lines = [l for l in p.stderr.splitlines() if l.startswith("run ")]
    check("dd e2e: a summary line a run", len(lines) == 3, p.stderr[-500:])
    check("dd e2e: summary in words and units",
          lines and re.search(r"^run 0 \(dd\) \(mirror hdd, eli\) zfs: throughput 31\.2 MB/s then, "
                              r"[0-9.]+ [kMG]?B/s now, [0-9.]+× (faster|slower); written to the device", lines[0]),
          lines[0] if lines else "")


def end_to_end_time(bench, tmp):
    p = subprocess.run([bench, "replay", "-q", "--max-bytes", "8M", "--scratch", str(tmp),
                        str(HERE / "time-post.txt")], capture_output=True, text=True, timeout=60)
    docs = docs_of(p.stdout)
    if not docs:
        check("time e2e: a document", False, p.stderr[-300:])
        return
    validate("time e2e", docs[0])
    e, tar = docs[0]["replays"][0], docs[0]["replays"][1]
    check("time e2e: the timed dd ran", e["status"] == "done" and e["plan"]["argv"][0] == "dd",
          f"{e['status']} {e.get('reason')}")
    rs = rows(e)
    check("time e2e: time.real compared, scaled", isinstance(rs.get("time.real", {}).get("replayed"), float) and
          rs["time.real"]["scaled"] is True, json.dumps(rs.get("time.real")))
    check("time e2e: tar not run", tar["status"] == "unsupported" and "tar" in tar["reason"], json.dumps(tar)[:200])


def have(tool):
    return shutil.which(tool) or os.path.exists(f"/usr/sbin/{tool}")


def end_to_end_bonnie(bench, tmp):
    if not have("bonnie++"):
        print("replay: bonnie++ not installed: end-to-end bonnie++ skipped")
        return
    # the post itself once the bonnie++ parser is in the build; until then
    # the document that parser makes of it (bonnie-doc.json)
    parsed = subprocess.run([bench, "parse", "--jsonl", "-q", str(HERE / "bonnie-post.txt")],
                            capture_output=True, text=True, timeout=30).stdout
    has_parser = any(r["tool"] == "bonnie++" for d in docs_of(parsed) for r in d["runs"])
    src = HERE / ("bonnie-post.txt" if has_parser else "bonnie-doc.json")
    p = subprocess.run([bench, "replay", "-q", "--max-bytes", "4M", "--scratch", str(tmp),
                        str(src)], capture_output=True, text=True, timeout=120)
    check("bonnie++ e2e: exit 0", p.returncode == 0, p.stderr[-500:])
    docs = docs_of(p.stdout)
    if not docs:
        check("bonnie++ e2e: a document", False)
        return
    d = docs[0]
    validate("bonnie++ e2e", d)
    e = d["replays"][0]
    check("bonnie++ e2e: done", e["status"] == "done", f"{e['status']} {e.get('reason')}")
    argv = e["plan"]["argv"]
    check("bonnie++ e2e: budget -s4 -r2 -n1", "-s4" in argv and "-r2" in argv and "-n1" in argv, str(argv))
    out = e.get("replayed", {}).get("output", "")
    check("bonnie++ e2e: real output (CSV line)", ",4M," in out, out[-300:])
    check("bonnie++ e2e: version recorded", (d["environment"]["tools"].get("bonnie++") or "").startswith("bonnie++"))
    # 4 MiB with nothing to keep the page cache out: the entry says it may
    # have timed memory
    fit = e.get("fits_in_memory") or {}
    check("bonnie++ e2e: says it fits in memory", e["plan"].get("page_cache") is None and
          fit.get("replay_bytes", 0) > 0 and fit.get("memory_bytes", 0) > fit.get("replay_bytes", 0) and
          "memory" in fit.get("note", ""), json.dumps(fit))
    if has_parser:
        vals = [r for r in e["comparison"] if r["replayed"] is not None]
        check("bonnie++ e2e: values compared", len(vals) > 0, json.dumps(e["comparison"])[:300])
        # the replay's +++++ cells (too fast at 4 MiB) say so, as in the CSV
        plus = out.count("+++++")
        flagged = [r for r in e["comparison"] if r["replayed"] is None and
                   "censored" in r.get("replayed_flags", [])]
        check("bonnie++ e2e: +++++ cells flagged censored", (plus == 0) == (len(flagged) == 0),
              f"{plus} in the output, {len(flagged)} rows flagged")
    else:
        check("bonnie++ e2e: says there is no parser yet", "no parser" in e.get("note", ""))


def end_to_end_iozone(bench, tmp):
    if not (shutil.which("iozone") or (ROOT / "tools" / "bin" / "iozone").exists()):
        print("replay: iozone not installed (scripts/fetch-iozone.sh): end-to-end iozone skipped")
        return
    p = subprocess.run([bench, "replay", "-q", "--max-bytes", "4M", "--scratch", str(tmp),
                        str(HERE / "iozone-doc.json")], capture_output=True, text=True, timeout=120)
    check("iozone e2e: exit 0", p.returncode == 0, p.stderr[-500:])
    docs = docs_of(p.stdout)
    if not docs:
        check("iozone e2e: a document", False)
        return
    d = docs[0]
    validate("iozone e2e", d)
    e = d["replays"][0]
    check("iozone e2e: done", e["status"] == "done", f"{e['status']} {e.get('reason')}")
    argv = e["plan"]["argv"]
    check("iozone e2e: -s scaled, -f confined", "-s4m" in argv and argv[argv.index("-f") + 1].startswith(
        d["environment"]["scratch"]["path"] + "/"), str(argv))
    out = e.get("replayed", {}).get("output", "")
    check("iozone e2e: real output", "iozone test complete." in out, out[-300:])
    check("iozone e2e: version recorded", "Version" in (d["environment"]["tools"].get("iozone") or ""))
    lst = subprocess.run([bench, "list"], capture_output=True, text=True).stdout
    if any(line.startswith("iozone") for line in lst.splitlines()):
        vals = [r for r in e["comparison"] if r["replayed"] is not None]
        check("iozone e2e: values compared", len(vals) > 0, json.dumps(e["comparison"])[:300])
    else:
        check("iozone e2e: says there is no parser yet", "no parser" in e.get("note", ""))


def end_to_end_zpool(bench, tmp):
    if not (have("zpool") and have("zfs-fuse") and os.path.exists("/dev/fuse") and os.geteuid() == 0):
        print("replay: zfs-fuse (root, /dev/fuse) not available: end-to-end zpool iostat skipped")
        return
    p = subprocess.run([bench, "replay", "-q", "--max-bytes", "16M", "--max-seconds", "3", "--scratch", str(tmp),
                        str(HERE / "zpool-doc.json")], capture_output=True, text=True, timeout=120)
    docs = docs_of(p.stdout)
    if not docs:
        check("zpool e2e: a document", False, p.stderr[-300:])
        return
    d = docs[0]
    validate("zpool e2e", d)
    e = d["replays"][1]
    check("zpool e2e: done", e["status"] == "done", f"{e['status']} {e.get('reason')}")
    plan = e["plan"]
    check("zpool e2e: mirror of two files", plan.get("pool") == [{"type": "mirror", "disks": 2}], str(plan.get("pool")))
    steps = e.get("replayed", {}).get("steps", [])
    create = [s for s in steps if s.get("argv", [None, None])[1:2] == ["create"]]
    destroy = [s for s in steps if s.get("argv", [None, None])[1:2] == ["destroy"]]
    check("zpool e2e: pool created and destroyed", len(create) == 1 and create[0]["exit_status"] == 0 and
          destroy and destroy[-1]["exit_status"] == 0,
          json.dumps([s for s in steps if s.get("argv", [None, None])[1:2] != ["iostat"]])[:1500])
    out = e.get("replayed", {}).get("output", "")
    check("zpool e2e: iostat output", "capacity     operations    bandwidth" in out and "mirror" in out, out[:300])
    check("zpool e2e: vdev names mapped", set(plan.get("vdev_names", {}).values()) == {"tank", "ad4", "ad6"},
          str(plan.get("vdev_names")))
    pools = subprocess.run(["zpool", "list", "-H"], capture_output=True, text=True).stdout
    check("zpool e2e: no pool left behind", plan["argv"][-3] not in pools, pools)
    zpool_confined(bench, tmp)


def zpool_confined(bench, tmp):
    """zfs-fuse, zpool and the workload run in a jail of their own: the
    host's /run/zfs and /run/lock/zfs are not touched, a daemon of the
    host's is not used, and a replaced zpool on the tool path (the
    escaper) cannot write outside the scratch. --no-zpool turns them off;
    without bubblewrap the plan says they run unconfined."""
    watched = ["/run/zfs", "/run/lock/zfs", "/var/run/zfs", "/var/lock/zfs", ("/etc/zfs", 1)]
    before = snapshot(watched)
    host_daemon = subprocess.run(["zpool", "list"], capture_output=True).returncode == 0
    p = subprocess.run([bench, "replay", "-q", "--max-bytes", "16M", "--max-seconds", "3", "--scratch", str(tmp),
                        str(HERE / "zpool-doc.json")], capture_output=True, text=True, timeout=180)
    docs = docs_of(p.stdout)
    e = docs[0]["replays"][1] if docs else {}
    notes = [s.get("note", "") for s in e.get("replayed", {}).get("steps", [])]
    check("zpool jail: the steps say bubblewrap", e.get("status") == "done" and
          any(n.startswith("in bubblewrap:") for n in notes), json.dumps(notes))
    check("zpool jail: its own daemon, never the host's", "started zfs-fuse --no-daemon --no-kstat-mount" in notes,
          f"host daemon: {host_daemon}; {notes}")
    changed = diff(before, snapshot(watched))
    check("zpool jail: the host's /run/zfs, /run/lock/zfs, /etc/zfs untouched", not changed, str(changed))
    # a replaced zpool binary
    work = tmp / "zpool-escape"
    bindir, victim, cwd = work / "bin", work / "victim", work / "cwd"
    for d in (bindir, victim, cwd):
        d.mkdir(parents=True)
    shutil.copy(HERE / "stubs" / "escaper", bindir / "zpool")
    os.chmod(bindir / "zpool", 0o755)
    env = dict(os.environ, PATH=f"{bindir}:{os.environ.get('PATH', '/usr/bin:/bin')}")
    p = subprocess.run([bench, "replay", "-q", "--max-bytes", "4M", "--max-seconds", "2", "--scratch", str(tmp),
                        str(HERE / "zpool-doc.json")], capture_output=True, text=True, timeout=180, env=env, cwd=cwd)
    docs = docs_of(p.stdout)
    e = docs[0]["replays"][1] if docs else {}
    out = json.dumps(e.get("replayed", {}).get("steps", []))
    check("zpool jail: the replaced zpool ran", "escaper zpool" in out, out[:300])
    check("zpool jail: the replaced zpool wrote nothing outside the scratch",
          not any(victim.iterdir()) and not any(cwd.iterdir()),
          str(list(victim.iterdir()) + list(cwd.iterdir())))
    check("zpool jail: nothing of the host's touched", not diff(before, snapshot(watched)))
    # --no-zpool, and the dry run without bubblewrap
    p = subprocess.run([bench, "replay", "-q", "--no-zpool", "--max-bytes", "1M", "--scratch", str(tmp),
                        str(HERE / "zpool-doc.json")], capture_output=True, text=True, timeout=60)
    docs = docs_of(p.stdout)
    e = docs[0]["replays"][1] if docs else {}
    check("--no-zpool: not run, says why", e.get("status") == "unavailable" and
          "--no-zpool" in e.get("reason", "") and "steps" not in e.get("replayed", {}), json.dumps(e)[:300])
    p = subprocess.run([bench, "replay", "-n", "--no-sandbox", str(HERE / "zpool-doc.json")],
                       capture_output=True, text=True, timeout=60)
    check("dry run --no-sandbox: zpool said to run unconfined", "UNCONFINED: without bubblewrap (--no-sandbox)"
          in p.stdout, p.stdout[-600:])
    p = subprocess.run([bench, "replay", "-n", str(HERE / "zpool-doc.json")], capture_output=True, text=True,
                       timeout=60)
    check("dry run: zpool said to run in its jail", "run in a bubblewrap jail of their own" in p.stdout,
          p.stdout[-600:])


def wait_for_process(needle, parent, seconds):
    """Whether a process whose command line holds `needle` runs within
    `seconds` while `parent` is alive (bwrap's children show in /proc)."""
    deadline = time.time() + seconds
    while time.time() < deadline and parent.poll() is None:
        for d in pathlib.Path("/proc").iterdir():
            try:
                if d.name.isdigit() and needle in (d / "cmdline").read_bytes():
                    return True
            except OSError:
                pass
        time.sleep(0.1)
    return False


def interrupt_and_timeout(bench, tmp):
    # Ctrl-C: stops the tool, still writes what finished, removes the scratch
    out = tmp / "int.json"
    sp = tmp / "int"
    sp.mkdir()
    proc = subprocess.Popen([bench, "replay", "-q", "--max-bytes", "8G", "--scratch", str(sp), "-o", str(out),
                             str(HERE / "dd-quick.txt"), str(HERE / "dd-slow.txt")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Ctrl-C once the slow read's dd itself runs, not while its version is
    # probed or its scratch directory made (that would be "not-run")
    t_start = time.time()
    running = wait_for_process(b"if=/dev/urandom", proc, 300)
    check("ctrl-c: the slow read started", running, f"after {time.time() - t_start:.0f} s")
    time.sleep(0.5)
    t0 = time.time()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        check("ctrl-c: stops within 30 s", False)
        return
    check("ctrl-c: stops promptly", time.time() - t0 < 10, f"{time.time() - t0:.1f}s")
    check("ctrl-c: exit 1", proc.returncode == 1, f"{proc.returncode} {err[-300:]}")
    docs = docs_of(out.read_text()) if out.exists() else []
    check("ctrl-c: both documents written", len(docs) == 2, f"{len(docs)}")
    if len(docs) == 2:
        check("ctrl-c: the first document finished", [e["status"] for e in docs[0]["replays"]] == ["done"] * 3)
        slow = docs[1]
        check("ctrl-c: marked interrupted", slow["interrupted"] is True and
              slow["replays"][0]["status"] == "interrupted", json.dumps(slow["summary"]))
        validate("ctrl-c", slow)
    check("ctrl-c: scratch removed", not any(sp.iterdir()), str(list(sp.iterdir())))

    # --max-seconds: the tool is stopped and the run says timeout
    p = subprocess.run([bench, "replay", "-q", "--max-bytes", "8G", "--max-seconds", "1", "--scratch", str(tmp),
                        str(HERE / "dd-slow.txt")], capture_output=True, text=True, timeout=60)
    docs = docs_of(p.stdout)
    check("timeout: exit 1", p.returncode == 1, p.stderr[-300:])
    if docs:
        e = docs[0]["replays"][0]
        check("timeout: status", e["status"] == "timeout", e["status"])
        check("timeout: within budget", e["replayed"]["time"]["real"] < 5, str(e["replayed"]["time"]))


def dd_mbox(path, n, mib):
    """An mbox of n messages, each with one dd that wrote `mib` MiB."""
    with open(path, "w") as f:
        for i in range(n):
            f.write(f"From alice@example.org Mon Jan  1 00:{i // 60:02d}:{i % 60:02d} 2024\n"
                    f"From: alice@example.org\nSubject: dd run {i}\n"
                    f"Message-ID: <dd{i}@example.org>\n\n"
                    f"$ dd if=/dev/zero of=/data/test.{i} bs=1M count={mib}\n"
                    f"{mib}+0 records in\n{mib}+0 records out\n"
                    f"{mib << 20} bytes ({mib} MiB) copied, 0.1 s, {mib * 10} MB/s\n\n")


def total_budget(bench, tmp):
    """--max-total-bytes over an mbox of 100 dd commands: the runs that fit
    are done and kept, the rest not-run with the reason, the summary says
    why; a dd wrapper lists what the scratch holds as each run starts."""
    sp, bindir = tmp / "budget", tmp / "budget-bin"
    sp.mkdir()
    bindir.mkdir()
    real_dd = shutil.which("dd")
    (bindir / "dd").write_text(f"#!/bin/sh\n[ \"$1\" = --version ] || find {sp} -type f "
                               f"-printf 'scratch-file: %p %s\\n'\nexec {real_dd} \"$@\"\n")
    os.chmod(bindir / "dd", 0o755)
    mbox = tmp / "100-dd.mbox"
    dd_mbox(mbox, 100, 16)
    env = dict(os.environ, PATH=f"{bindir}:{os.environ.get('PATH', '/usr/bin:/bin')}")
    p = subprocess.run([bench, "replay", "-q", "--max-total-bytes", "64M", "--scratch", str(sp),
                        "--tools", str(bindir), str(mbox)], capture_output=True, text=True, timeout=300, env=env)
    docs = docs_of(p.stdout)
    check("total budget: exit 1", p.returncode == 1, p.stderr[-300:])
    check("total budget: 100 documents", len(docs) == 100, str(len(docs)))
    for d in docs[:6] + docs[-2:]:
        validate("total budget", d)
    entries = [e for d in docs for e in d["replays"]]
    done = [e for e in entries if e["status"] == "done"]
    not_run = [e for e in entries if e["status"] == "not-run"]
    check("total budget: 4 runs of 16 MiB done", len(done) == 4, str(len(done)))
    check("total budget: the other 96 listed as not run", len(not_run) == 96 and len(entries) == 100,
          str(len(not_run)))
    check("total budget: each says why", all("not run: the whole replay's data budget (--max-total-bytes "
                                             "64 MiB) is spent" in e.get("reason", "") for e in not_run),
          not_run[0].get("reason", "") if not_run else "")
    moved = sum(r["value"] for e in done for run in e["replayed"]["runs"] for r in run["results"]
                if r["metric"] == "bytes")
    check("total budget: within 64 MiB", moved <= 64 << 20, str(moved))
    check("total budget: what ran is kept", all(rows(e).get("throughput", {}).get("replayed") for e in done))
    first, last = (docs[0]["budget"], docs[-1]["budget"]) if docs else ({}, {})
    check("total budget: the documents say so", last.get("stopped", "").startswith(
        "the whole replay's data budget") and last.get("total_used_bytes") == 64 << 20 and
        "stopped" not in first, json.dumps(last))
    check("total budget: the summary says why", "replay stopped: the whole replay's data budget "
          "(--max-total-bytes 64 MiB) is spent" in p.stderr and "4 runs done, 96 not run" in p.stderr,
          p.stderr[-400:])
    for e in done:
        out = e["replayed"]["output"]
        files = [x for x in out.splitlines() if x.startswith("scratch-file: ")]
        check(f"total budget: run of {e['command']} started on an empty scratch", not files, str(files))
        check(f"total budget: it held one run's files", e["replayed"]["scratch_bytes"] <= (16 << 20) + (1 << 20),
              str(e["replayed"]["scratch_bytes"]))
    check("total budget: scratch removed", not any(sp.iterdir()), str(list(sp.iterdir())))
    # the dry run shows where the budget would stop
    p = subprocess.run([bench, "replay", "-n", "--max-total-bytes", "64M", str(mbox)], capture_output=True,
                       text=True, timeout=120)
    check("total budget: dry run says which would not run",
          p.stdout.count("would not run: --max-total-bytes") == 96, p.stdout[:300])

    # --max-total-seconds: the slow read is stopped by the whole replay's
    # clock, the next document's runs are not run
    t0 = time.time()
    p = subprocess.run([bench, "replay", "-q", "--max-bytes", "8G", "--max-total-seconds", "2", "--scratch",
                        str(sp), str(HERE / "dd-slow.txt"), str(HERE / "dd-post.txt")],
                       capture_output=True, text=True, timeout=120)
    docs = docs_of(p.stdout)
    check("total seconds: stops in time", time.time() - t0 < 15, f"{time.time() - t0:.1f}s")
    check("total seconds: two documents", len(docs) == 2, p.stderr[-300:])
    if len(docs) == 2:
        slow = docs[0]["replays"][0]
        check("total seconds: the slow run stopped by the total", slow["status"] == "timeout" and
              "--max-total-seconds" in slow.get("reason", ""), json.dumps(slow)[:300])
        check("total seconds: later runs not run", [e["status"] for e in docs[1]["replays"]] == ["not-run"] * 3 and
              "--max-total-seconds 2" in docs[1]["replays"][0]["reason"], json.dumps(docs[1]["replays"][0])[:300])
        validate("total seconds", docs[1])
    check("total seconds: exit 1, summary", p.returncode == 1 and "replay stopped: the whole replay's time" in p.stderr,
          p.stderr[-300:])

    # free space: a 40 MiB file system cannot hold a 32 MiB run and the
    # 16 MiB kept free
    small = tmp / "small"
    small.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=40m", "tmpfs", str(small)],
                                           capture_output=True).returncode != 0:
        print("replay: cannot mount a small tmpfs: the free-space check is not tested")
        return
    try:
        p = subprocess.run([bench, "replay", "-q", "--max-bytes", "32M", "--max-total-bytes", "1G", "--scratch",
                            str(small), str(HERE / "dd-post.txt")], capture_output=True, text=True, timeout=60)
        docs = docs_of(p.stdout)
        first = docs[0]["replays"][0] if docs else {}
        check("free space: the run that does not fit is not run", first.get("status") == "not-run" and
              "the scratch file system has" in first.get("reason", ""), json.dumps(first)[:300])
        check("free space: exit 1, summary", p.returncode == 1 and "free" in p.stderr, p.stderr[-300:])
    finally:
        subprocess.run(["umount", str(small)])


def dry_run(bench):
    p = subprocess.run([bench, "replay", "--dry-run", str(HERE / "dd-post.txt")], capture_output=True,
                       text=True, timeout=30)
    check("dry-run: exit 0", p.returncode == 0)
    check("dry-run: argv shown", "argv:    dd if=/dev/zero of=" in p.stdout and "bs=1M count=256" in p.stdout, p.stdout[:400])
    check("dry-run: nothing created", "benchlog-replay.XXXXXX" in p.stdout)
    p = subprocess.run([bench, "replay", "--dry-run", "--json", str(HERE / "hostile-dd.txt")],
                       capture_output=True, text=True, timeout=30)
    plans = docs_of(p.stdout)
    check("dry-run --json: 15 plans", len(plans) == 1 and len(plans[0]) == 15)
    seeds = ROOT.parent / "shared" / "seeds"
    seed = sorted(seeds.glob("000_*.txt")) if seeds.is_dir() else []
    if seed:
        p = subprocess.run([bench, "replay", "--dry-run", str(seed[0])], capture_output=True, text=True, timeout=30)
        check("seed 000: 16 safe dd plans", "16 of 16 runs would be replayed" in p.stdout, p.stdout[-200:])


def unusable_bwrap(bench, tmp):
    # bwrap installed but unable to make namespaces (containers with user
    # namespaces off): the runs still happen, unsandboxed, and say so
    fake = tmp / "fakebin"
    fake.mkdir()
    (fake / "bwrap").write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    os.chmod(fake / "bwrap", 0o755)
    env = dict(os.environ, PATH=f"{fake}:{os.environ.get('PATH', '/usr/bin:/bin')}")
    p = subprocess.run([bench, "replay", "--max-bytes", "1M", "--scratch", str(tmp), str(HERE / "dd-post.txt")],
                       capture_output=True, text=True, timeout=120, env=env)
    docs = docs_of(p.stdout)
    check("unusable bwrap: runs done without it", p.returncode == 0 and len(docs) == 1 and
          [e["status"] for e in docs[0]["replays"]] == ["done"] * 3, p.stderr[-300:])
    check("unusable bwrap: the document says so", bool(docs) and
          docs[0]["environment"]["sandbox"].startswith("none (bwrap cannot"))
    check("unusable bwrap: a warning on stderr", "cannot make its namespaces" in p.stderr)


def main():
    bench = str(pathlib.Path(sys.argv[1]).resolve())
    t0 = time.time()
    dry_run(bench)
    safety(bench, sandbox=True)
    safety(bench, sandbox=False)
    probe_confined(bench, sandbox=True)
    probe_confined(bench, sandbox=False)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="benchlog-replay-e2e."))
    try:
        end_to_end_dd(bench, tmp)
        unusable_bwrap(bench, tmp)
        end_to_end_time(bench, tmp)
        end_to_end_bonnie(bench, tmp)
        end_to_end_iozone(bench, tmp)
        end_to_end_zpool(bench, tmp)
        interrupt_and_timeout(bench, tmp)
        total_budget(bench, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"replay: {passed} passed, {failed} failed ({time.time() - t0:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
