#!/usr/bin/env python3
"""-o replaces its target atomically and keeps the target's permission bits,
and, run as root, its owner and group; a new file gets 0666 less the umask.
Checked for every command that takes -o (parse, table, chart, replay and
replay's --chart-data and --chart). What is no regular file is written in
place, not replaced: a FIFO, /dev/null; a symbolic link's file is replaced
and the link stays; a directory is refused. usage: output_mode.py BENCHLOG

Prints one line per failed check and 'output-mode: N passed, N failed'."""
import grp
import os
import pathlib
import pwd
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
POST = HERE / "replay" / "dd-post.txt"
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"output-mode: FAIL {name}" + (f": {detail}" if detail else ""))


def other_owner():
    """A user and group other than the caller's, for root's case."""
    for user in ("nobody", "daemon"):
        try:
            pw = pwd.getpwnam(user)
        except KeyError:
            continue
        gid = pw.pw_gid
        for g in ("nogroup", "daemon"):
            try:
                gid = grp.getgrnam(g).gr_gid
                break
            except KeyError:
                pass
        return pw.pw_uid, gid
    return None


def commands(bench, target):
    """Each command writing `target`, and the option that names it."""
    t = str(target)
    return [
        ("parse -o", [bench, "parse", "-q", "-o", t, str(POST)]),
        ("table -o", [bench, "table", "-o", t, str(POST)]),
        ("chart -o", [bench, "chart", "-o", t + ".svg", str(POST)]),
        ("replay -n -o", [bench, "replay", "-n", "-o", t, str(POST)]),
        ("replay --chart-data", [bench, "replay", "-q", "--max-bytes", "64K", "--scratch",
                                 str(target.parent), "-o", "/dev/null", "--chart-data", t, str(POST)]),
        ("replay --chart", [bench, "replay", "-q", "--max-bytes", "64K", "--scratch",
                            str(target.parent), "-o", "/dev/null", "--chart", t + ".svg", str(POST)]),
    ]


def in_place(bench, tmp):
    """-o to what is no regular file, or to a link: parse's output lands
    in the file or the reader behind it, and the link, the FIFO and the
    device stay what they were."""
    parse = [bench, "parse", "-q", "-o"]
    want = subprocess.run([bench, "parse", "-q", str(POST)], capture_output=True,
                          text=True, timeout=60).stdout
    # a symbolic link to a file: the file replaced, the link kept
    real, link = tmp / "real.json", tmp / "link.json"
    real.write_text("old content\n")
    link.symlink_to(real.name)
    p = subprocess.run(parse + [str(link), str(POST)], capture_output=True, text=True, timeout=60)
    check("link: exit 0", p.returncode == 0, p.stderr[-300:])
    check("link: still a link", link.is_symlink())
    check("link: its file written", real.read_text() == want)
    # a link to nothing yet: the file it names is made, and only once
    # the output is whole (nothing made when no input was read); through
    # a chain of links, relative ones read from their own directory
    dangling = tmp / "dangling.json"
    dangling.symlink_to("made.json")
    p = subprocess.run(parse + [str(dangling), str(tmp / "no-such-post")], capture_output=True,
                       text=True, timeout=60)
    check("dangling link, no input: nothing made",
          p.returncode != 0 and not (tmp / "made.json").exists(), p.stderr[-300:])
    p = subprocess.run(parse + [str(dangling), str(POST)], capture_output=True, text=True,
                       timeout=60)
    check("dangling link: its file made", p.returncode == 0 and dangling.is_symlink() and
          (tmp / "made.json").read_text() == want, p.stderr[-300:])
    (tmp / "sub").mkdir()
    (tmp / "sub" / "inner.json").symlink_to("../real.json")
    chain = tmp / "chain.json"
    chain.symlink_to("sub/inner.json")
    p = subprocess.run(parse + [str(chain), str(POST)], capture_output=True, text=True, timeout=60)
    check("a chain of links: the file at its end written", p.returncode == 0 and
          chain.is_symlink() and (tmp / "sub" / "inner.json").is_symlink() and
          real.read_text() == want, p.stderr[-300:])
    # -o /dev/stdout where the shell appends to a file: what it held stays
    appended = tmp / "appended.txt"
    appended.write_text("held before\n")
    with open(appended, "a") as f:
        p = subprocess.run(parse + ["/dev/stdout", str(POST)], stdout=f, stderr=subprocess.PIPE,
                           text=True, timeout=60)
    check("-o /dev/stdout appended to a file: what it held kept",
          p.returncode == 0 and appended.read_text() == "held before\n" + want, p.stderr[-300:])
    # a FIFO: a reader gets the document, the FIFO stays
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE, text=True)
    p = subprocess.run(parse + [str(fifo), str(POST)], capture_output=True, text=True, timeout=60)
    check("fifo: exit 0", p.returncode == 0, p.stderr[-300:])
    check("fifo: still a FIFO", fifo.is_fifo())
    if not fifo.is_fifo():
        reader.kill()  # replaced by a file: no writer ever opens the FIFO
    got = reader.communicate(timeout=60)[0]
    check("fifo: its reader got the document", got == want)
    # /dev/null: never replaced (as root a rename over it would)
    p = subprocess.run(parse + ["/dev/null", str(POST)], capture_output=True, text=True,
                       timeout=60)
    check("/dev/null: exit 0", p.returncode == 0, p.stderr[-300:])
    check("/dev/null: still a device", pathlib.Path("/dev/null").is_char_device())
    # a directory: refused at once, nothing made beside it
    d = tmp / "dir"
    d.mkdir()
    p = subprocess.run(parse + [str(d), str(POST)], capture_output=True, text=True, timeout=60)
    check("directory: refused", p.returncode != 0 and "Is a directory" in p.stderr,
          f"{p.returncode} {p.stderr[-200:]}")
    check("no temporary file left", not list(tmp.glob("*.tmp*")), str(list(tmp.glob("*.tmp*"))))


def main():
    bench = str(pathlib.Path(sys.argv[1]).resolve())
    root = os.geteuid() == 0
    owner = other_owner() if root else None
    with tempfile.TemporaryDirectory(prefix="benchlog-output-mode.") as tmp:
        tmp = pathlib.Path(tmp)
        os.chmod(tmp, 0o755)
        for i in range(len(commands(bench, tmp / "x"))):
            name = commands(bench, tmp / "x")[i][0]
            target = tmp / f"out{i}"
            cmd = commands(bench, target)[i][1]
            # chart files are named by their extension
            real = pathlib.Path(str(target) + ".svg") if str(target) + ".svg" in cmd else target
            # an existing file of mode 600 (owned by nobody, as root)
            real.write_text("old content\n")
            os.chmod(real, 0o600)
            if owner:
                os.chown(real, *owner)
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            check(f"{name}: exit 0", p.returncode == 0, p.stderr[-300:])
            st = real.stat()
            check(f"{name}: replaced", real.read_text() != "old content\n")
            check(f"{name}: mode 600 kept", (st.st_mode & 0o7777) == 0o600, oct(st.st_mode & 0o7777))
            if owner:
                check(f"{name}: owner kept", (st.st_uid, st.st_gid) == owner,
                      f"{st.st_uid}:{st.st_gid}, want {owner[0]}:{owner[1]}")
            check(f"{name}: no temporary file left", not list(tmp.glob("*.tmp*")),
                  str(list(tmp.glob("*.tmp*"))))
            # a new file: 0666 less the umask
            real.unlink()
            old = os.umask(0o027)
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            finally:
                os.umask(old)
            mode = real.stat().st_mode & 0o7777 if real.exists() else None
            check(f"{name}: new file 640 under umask 027", p.returncode == 0 and mode == 0o640,
                  f"{oct(mode) if mode is not None else 'missing'} {p.stderr[-200:]}")
            for leftover in tmp.glob("benchlog-replay.*"):
                check(f"{name}: scratch removed", False, str(leftover))
        in_place(bench, tmp)
    print(f"output-mode: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
