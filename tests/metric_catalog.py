#!/usr/bin/env python3
"""Every metric a parser writes is in its tool's catalog (`benchlog list
--json`, from the descriptors' metric tables), in a unit the catalog
gives: over every expected document of the corpus, and over what the
seeds and samples give today. `benchlog list TOOL` prints them; an
unknown tool is a usage error that lists the tools.

usage: metric_catalog.py BENCHLOG"""
import fnmatch
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
from benchlog_rows import results as run_results  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"metric-catalog: FAIL {name}: {detail}"[:1500])


def results(runs):
    for run in runs:
        for r in run_results(run) if "results" in run or "rows" in run else []:
            yield run["tool"], r["metric"], r["unit"]


def main():
    bench = sys.argv[1]
    tools = {t["name"]: t for t in json.loads(subprocess.run(
        [bench, "list", "--json"], capture_output=True, text=True, check=True).stdout)}
    seen = {}
    for exp in sorted(ROOT.glob("corpus/*/*/expected.json")):
        docs = json.loads(exp.read_text())
        for d in docs if isinstance(docs, list) else [docs]:
            for k in results(d.get("runs", [])):
                seen.setdefault(k, str(exp.parent.relative_to(ROOT)))
    posts = sorted(SHARED.glob("seeds/*.txt")) + sorted(SHARED.glob("samples/*"))
    for post in posts:
        out = subprocess.run([bench, "parse", "-q", "--runs", str(post)], capture_output=True,
                             text=True).stdout
        for k in results(json.loads(line) for line in out.splitlines() if line.strip()):
            seen.setdefault(k, post.name)
    for (tool, metric, unit), where in sorted(seen.items()):
        entries = [m for m in tools.get(tool, {}).get("metrics", [])
                   if fnmatch.fnmatchcase(metric, m["metric"])]
        check(f"{tool} {metric} ({where})", entries, "not in the catalog")
        if entries:
            check(f"{tool} {metric} {unit} ({where})", any(unit in m["units"] for m in entries),
                  f"the catalog gives {[m['units'] for m in entries]}")
    for name, t in tools.items():
        check(f"{name}: every entry says what it measures and in what",
              all(m.get("about") and m["units"] for m in t["metrics"]) and t["metrics"],
              str([m["metric"] for m in t["metrics"] if not m.get("about") or not m["units"]]))
        p = subprocess.run([bench, "list", name], capture_output=True, text=True)
        check(f"list {name}", p.returncode == 0 and "what it measures" in p.stdout and
              all(m["metric"] in p.stdout for m in t["metrics"]), p.stdout[-300:])
    p = subprocess.run([bench, "list", "nosuch"], capture_output=True, text=True)
    check("list nosuch: usage error listing the tools", p.returncode == 2 and
          all(n in p.stderr for n in tools), p.stderr)
    print(f"metric-catalog: {passed} passed, {failed} failed ({len(seen)} tool, metric, unit "
          f"triples seen)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
