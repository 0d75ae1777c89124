#!/usr/bin/env python3
"""Runs `benchlog parse` on each real post in seeds/ and checks what it finds.

Each expectation names a seed by its number and gives the runs per tool,
with a few values checked exactly. Prints 'N passed, N failed'."""
import json
import pathlib
import subprocess
import sys

# seed number -> {tool: number of runs}; tools not listed must find nothing
EXPECTED_RUNS = {
    "000": {"dd": 16},
    "001": {"dd": 5},
    "002": {},
    "003": {},
    "004": {"dd": 18, "time": 18},
}


def results(run):
    return {r["metric"]: r["value"] for r in run["results"]}


def checks_000(runs):
    dd = [r for r in runs if r["tool"] == "dd"]
    yield "every dd run is timed by csh", all(r.get("time", {}).get("variant") == "csh" for r in dd)
    r = dd[6]
    v = results(r)
    yield "run 6 label", r["label"] == "(mirror hdd, eli) zfs"
    yield "run 6 bytes/seconds/rate", (v["bytes"], v["elapsed"], v["throughput"]) == (2097152000, 67.255574, 31181832)
    yield "run 6 time", (r["time"]["real"], r["time"]["user"], r["time"]["system"], r["time"]["cpu_percent"]) == (67.25, 0.029, 6.422, 9.5)
    yield "read run takes the section heading", dd[1]["label"] == "(single hdd) UFS2, gjournal, eli."
    yield "16 distinct groups", len({r["group"] for r in dd}) == 16


def checks_001(runs):
    dd = [r for r in runs if r["tool"] == "dd"]
    yield "Chinese captions", [r["label"] for r in dd] == ["測試", "測試", "測試讀寫效能", "測試讀寫效能", "接著測看看速度"]
    yield "count=8k", dd[4]["params"].get("count") == 8192 and results(dd[4])["bytes"] == 8589934592


def checks_002(runs):
    # iozone, its -e flag and bonnie++ are only named in prose here
    yield "iozone named in prose gives no iozone run", not any(r["tool"] == "iozone" for r in runs)


def checks_004(runs):
    dd = [r for r in runs if r["tool"] == "dd"]
    tm = [r for r in runs if r["tool"] == "time"]
    sizes = lambda rs: sorted(sum(1 for r in rs if r["group"] == g) for g in {r["group"] for r in rs})
    yield "dd: six groups of three", sizes(dd) == [3] * 6
    yield "time: six groups of three", sizes(tm) == [3] * 6
    yield "ibs=64k", all(r["params"].get("input_block_size") == 65536 for r in dd)
    yield "tar command", tm[0]["command"] == "(tar xvf ports.tar 2>/dev/null)"
    yield "tar real 4m37.724s", tm[0]["time"]["real"] == 277.724 and tm[0]["time"]["variant"] == "bash"
    yield "rm command", tm[-1]["command"] == "rm -R ports"


def main():
    binary, seeds = sys.argv[1], pathlib.Path(sys.argv[2])
    passed = failed = 0
    for path in sorted(seeds.iterdir()):
        num = path.name[:3]
        out = subprocess.run([binary, "parse", "--jsonl", "-q", str(path)], capture_output=True, text=True, timeout=60)
        if out.returncode != 0:
            print(f"FAIL {path.name}: exit {out.returncode}: {out.stderr[:300]}")
            failed += 1
            continue
        runs = [r for line in out.stdout.splitlines() if line.strip() for r in json.loads(line)["runs"]]
        counts = {}
        for r in runs:
            counts[r["tool"]] = counts.get(r["tool"], 0) + 1
        want = EXPECTED_RUNS.get(num)
        if want is not None:
            if counts == want:
                passed += 1
            else:
                print(f"FAIL {path.name}: runs per tool {counts}, expected {want}")
                failed += 1
        fn = globals().get(f"checks_{num}")
        if fn and want is not None and counts == want:
            for name, ok in fn(runs):
                if ok:
                    passed += 1
                else:
                    print(f"FAIL {path.name}: {name}")
                    failed += 1
    print(f"seeds: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
