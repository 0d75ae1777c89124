#!/usr/bin/python3
"""parallel.py - a run under GNU parallel gives the documents of a serial run.

usage: parallel.py BENCHLOG

1. Files: `parallel -k benchlog parse --jsonl ::: FILES` against
   `benchlog parse --jsonl FILES`: byte for byte the same.
2. One mbox split at message boundaries:
   `parallel -k --pipe --regexp --recend '\n' --recstart 'From [^ \n]+ +...'
   --block 4k benchlog parse --jsonl --input-format mbox`
   against `benchlog parse --jsonl < mbox`: the same documents in the same
   order. Positions (byte offsets, line numbers, message index) count from
   the start of each process's input, so they are compared relative to
   their message: offsets minus the message's offset, lines minus the
   line the message starts on.

   --recend matters: given --recstart alone, GNU parallel takes the record
   end to be empty and splits before any match of the start pattern, even
   in the middle of a line (after the '>' of a quoted ">From bob@... Mon
   Jan 11 11:30:00 2010" in a body), where no message starts.

3. The same split sent to another machine, `parallel --sshlogin`: an sshd
   of the test's own on 127.0.0.1 (keys made for the run, a free port).
   Skipped with a message where sshd is not installed or does not start.

Skips (exit 0 with a message) when GNU parallel is not installed, and part
2 when this build does not yet read an mbox as one document per message.
"""
import json
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def jsonl(text):
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def relative(doc, base_line):
    """The document with its positions made relative to its message, which
    starts on line `base_line` of its process's input."""
    src = doc.get("source", {})
    base_off = src.get("offset", 0)
    d = json.loads(json.dumps(doc))
    s = d.get("source", {})
    for k in ("offset",):
        s.pop(k, None)
    msg = s.get("message")
    if isinstance(msg, dict):
        msg.pop("index", None)

    def fix(o):
        if isinstance(o, dict):
            for k in list(o):
                if k in ("offset", "end_offset") and isinstance(o[k], int):
                    o[k] -= base_off
                elif k in ("line", "end_line") and isinstance(o[k], int):
                    o[k] -= base_line
                elif k == "message" and isinstance(o[k], str):
                    # "3 NUL bytes replaced by U+FFFD (first at byte 72560)"
                    o[k] = re.sub(r"(at byte )(\d+)",
                                  lambda g: g.group(1) + str(int(g.group(2)) - base_off), o[k])
                else:
                    fix(o[k])
        elif isinstance(o, list):
            for x in o:
                fix(x)
    fix(d.get("runs"))
    fix(d.get("diagnostics"))
    fix(d.get("system"))
    return d


def line_bases(sdocs, pdocs, data):
    """Start lines of each message in the serial input and in the input of
    the process that read it under parallel (a process's first message has
    index 0 and starts on its line 1; each following one starts below the
    lines of the one before, whose bytes the serial document locates)."""
    def nl(doc):
        s = doc["source"]
        return data.count(b"\n", s["offset"], s["offset"] + s["bytes"])
    sbase = [1 + data.count(b"\n", 0, d["source"]["offset"]) for d in sdocs]
    pbase = []
    for i, d in enumerate(pdocs):
        first = d["source"].get("message", {}).get("index", 0) == 0
        pbase.append(1 if first or i == 0 else pbase[-1] + nl(sdocs[i - 1]))
    return sbase, pbase


def same_mbox_docs(argv, mbox, sdocs):
    """Whether `argv` (GNU parallel splitting the mbox on its stdin) gives
    the serial documents sdocs, positions relative to each message."""
    para = subprocess.run(argv, stdin=open(mbox), capture_output=True, text=True)
    pdocs = jsonl(para.stdout) if para.returncode == 0 else []
    bad = []
    ok = len(sdocs) == len(pdocs)
    if ok:
        sbase, pbase = line_bases(sdocs, pdocs, mbox.read_bytes())
        rs = [relative(d, b) for d, b in zip(sdocs, sbase)]
        rp = [relative(d, b) for d, b in zip(pdocs, pbase)]
        bad = [i for i, (a, b) in enumerate(zip(rs, rp)) if a != b]
        ok = not bad
    if ok and len(pdocs) > 1 and len({d["source"].get("offset") for d in pdocs}) > 1 \
            and any(d["source"].get("message", {}).get("index", 0) == 0 for d in pdocs[1:]):
        return True, ""
    return False, "serial %d documents, parallel %d (exit %d)%s%s" % (
        len(sdocs), len(pdocs), para.returncode,
        ", first difference at document %d" % bad[0] if bad else "",
        (": " + para.stderr.strip().splitlines()[-1][:200]) if para.stderr.strip() else "")


class Sshd:
    """An sshd of the test's own on 127.0.0.1 (a free port, keys made
    here, only this key let in), for `parallel --sshlogin`; `why` says
    why there is none."""

    def __init__(self, d):
        self.proc = None
        self.why = None
        self.login = None
        sshd = shutil.which("sshd") or "/usr/sbin/sshd"
        if not os.access(sshd, os.X_OK) or not shutil.which("ssh"):
            self.why = "no sshd or ssh (Debian: openssh-server)"
            return
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        for k in ("host", "user"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(d / k)],
                           check=True)
        shutil.copy(d / "user.pub", d / "authorized_keys")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        (d / "sshd_config").write_text(
            "Port %d\nListenAddress 127.0.0.1\nHostKey %s\nAuthorizedKeysFile %s\n"
            "PasswordAuthentication no\nKbdInteractiveAuthentication no\nStrictModes no\n"
            "UsePAM no\nPermitRootLogin prohibit-password\nPidFile %s\n"
            % (port, d / "host", d / "authorized_keys", d / "sshd.pid"))
        os.makedirs("/run/sshd", exist_ok=True) if os.geteuid() == 0 else None
        self.proc = subprocess.Popen([sshd, "-D", "-e", "-f", str(d / "sshd_config")],
                                     stdout=subprocess.DEVNULL, stderr=open(d / "log", "w"))
        user = pwd.getpwuid(os.geteuid()).pw_name
        self.login = ("ssh -p %d -i %s -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
                      " -o BatchMode=yes -o LogLevel=ERROR %s@127.0.0.1" % (port, d / "user", user))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            t = subprocess.run(self.login.split() + ["true"], capture_output=True)
            if t.returncode == 0:
                return
            time.sleep(0.2)
        log = (d / "log").read_text(errors="replace").strip().splitlines()
        self.why = "sshd did not let the test in: %s" % (log[-1][:200] if log else "no log")
        self.stop()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()


def main():
    binpath = str(Path(sys.argv[1]).resolve())
    par = shutil.which("parallel")
    if not par:
        print("parallel: GNU parallel is not installed; skipped (0 passed, 0 failed)")
        return 0
    inputs = sorted(str(p) for p in ROOT.glob("corpus/*/*/input"))
    seeds = ROOT.parent / "shared" / "seeds"
    inputs += sorted(str(p) for p in seeds.glob("*.txt")) if seeds.is_dir() else []
    passed = failed = 0

    serial = subprocess.run([binpath, "parse", "--jsonl", "-q"] + inputs,
                            capture_output=True, text=True)
    para = subprocess.run([par, "--will-cite", "-k", "-j", "2", binpath, "parse", "--jsonl",
                           "-q", ":::"] + inputs, capture_output=True, text=True)
    if serial.returncode == 0 and para.returncode == 0 and serial.stdout == para.stdout \
            and serial.stdout.strip():
        passed += 1
    else:
        failed += 1
        print("parallel: FAIL files: serial exit %d, parallel exit %d, outputs %s"
              % (serial.returncode, para.returncode,
                 "equal" if serial.stdout == para.stdout else "differ"))

    # an mbox of every input, one message each
    work = ROOT / "build" / "parallel"
    work.mkdir(parents=True, exist_ok=True)
    mbox = work / "corpus.mbox"
    with open(mbox, "w", encoding="utf-8", errors="surrogateescape") as f:
        for i, path in enumerate(inputs * 3):
            body = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
            body = "\n".join(">" + x if x.startswith("From ") else x for x in body.split("\n"))
            f.write("From bench@example.org Mon Nov 30 06:00:00 2026\n"
                    "Subject: case %d\nMessage-ID: <case.%d@example.org>\n\n%s\n\n"
                    % (i, i, body.rstrip("\n")))
    serial = subprocess.run([binpath, "parse", "--jsonl", "-q"], stdin=open(mbox),
                            capture_output=True, text=True)
    sdocs = jsonl(serial.stdout) if serial.returncode == 0 else []
    if len(sdocs) <= 1:
        print("parallel: this build reads an mbox as one document; the mbox part is skipped")
    else:
        # split only where an mbox separator line starts ("From sender Day Mon ..."),
        # not at a body line that happens to begin with "From "
        split = ["--pipe", "--regexp", "--recend", "\n", "--recstart",
                 "From [^ \n]+ +[A-Z][a-z][a-z] [A-Z][a-z][a-z] ", "--block", "4k"]
        command = [binpath, "parse", "--jsonl", "-q", "--input-format", "mbox"]
        ways = [("mbox", [par, "--will-cite", "-k", "-j", "2"] + split + command)]
        sshd = Sshd(work / "ssh")
        if sshd.why:
            print("parallel: the --sshlogin part is skipped: %s" % sshd.why)
        else:
            # the remote side runs the command through its shell: one string
            ways.append(("mbox over ssh", [par, "--will-cite", "-k", "-j", "2",
                                           "--sshlogin", sshd.login] + split +
                         [shlex.join(command)]))
        for name, argv in ways:
            ok, why = same_mbox_docs(argv, mbox, sdocs)
            passed += ok
            failed += not ok
            if not ok:
                print("parallel: FAIL %s: %s" % (name, why))
        sshd.stop()
    print("parallel: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
