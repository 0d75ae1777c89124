#!/usr/bin/python3
"""man_check.py - the manual page renders without a warning (groff -ww),
and every option each command's --help lists has an entry of its own
(a .B, .BR or .BI line).

usage: man_check.py BENCHLOG MANPAGE"""
import re
import subprocess
import sys

COMMANDS = ("parse", "chart", "table", "report", "replay")


def main():
    binary, page = sys.argv[1], sys.argv[2]
    failed = 0
    r = subprocess.run(["groff", "-ww", "-man", "-z", page], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        print("man: FAIL groff -ww warns:\n" + r.stderr.strip())
        failed += 1
    # the lines that define options (.B, .BR, .BI), roff's escaped hyphens
    # plain: an option named only in prose is not documented
    text = "\n".join(line for line in open(page, encoding="utf-8").read().replace("\\-", "-")
                     .splitlines() if re.match(r"\.B[IR]? ", line))
    for cmd in COMMANDS:
        help_text = subprocess.run([binary, cmd, "--help"], capture_output=True,
                                   text=True).stdout
        for opt in sorted(set(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", help_text, re.M))):
            if opt in ("--help",):
                continue
            if not re.search(re.escape(opt) + r"(?![a-z-])", text):
                print("man: FAIL %s %s is not in %s" % (cmd, opt, page))
                failed += 1
    print("man: %d failed" % failed if failed else "man: 1 passed, 0 failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
