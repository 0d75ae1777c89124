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
    "001": {"dd": 5, "bonnie": 3},
    "002": {},
    "003": {},
    "004": {"dd": 18, "time": 18, "bonnie++": 4},
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
    yield "bs=1m: records x 1 MiB = bytes", all(results(r)["records_out_full"] * 1048576 == results(r)["bytes"] for r in dd)
    yield "every dd has the BSD summary", all(r["variant"] == "bsd" for r in dd)


def checks_001(runs):
    dd = [r for r in runs if r["tool"] == "dd"]
    yield "Chinese captions", [r["label"] for r in dd] == ["測試", "測試", "測試讀寫效能", "測試讀寫效能", "接著測看看速度"]
    yield "count=8k", dd[4]["params"].get("count") == 8192 and results(dd[4])["bytes"] == 8589934592
    bo = [r for r in runs if r["tool"] == "bonnie"]
    yield "bonnie rows labelled by machine", [r["label"] for r in bo] == ["zfs"] * 3
    yield "bonnie 4096 MB", all(r["params"].get("file_size") == 4096 * 1048576 for r in bo)
    v = results(bo[0])
    yield "bonnie row 1 block write 106960 K/sec", v["seq_output_block"] == 106960 * 1024 and v["seq_output_block_cpu"] == 20.8
    yield "bonnie row 1 seeks 121.5/s", v["random_seeks"] == 121.5 and v["random_seeks_cpu"] == 0.5
    v = results(bo[2])
    yield "bonnie row 3 input block 81775 K/sec", v["seq_input_block"] == 81775 * 1024 and v["seq_input_char_cpu"] == 53.0
    yield "two rows of one table are repeats", bo[0]["group"] == bo[1]["group"] != bo[2]["group"]


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
    # ibs=64k with obs left at 512: the records out are 512-byte blocks
    yield "records out x 512 = bytes", all(results(r)["records_out_full"] * 512 == results(r)["bytes"] for r in dd)
    yield "records in x 64k = bytes", all(results(r)["records_in_full"] * 65536 == results(r)["bytes"] for r in dd)
    yield "every tar/rm report is bash's", all(r["time"]["variant"] == "bash" for r in tm)
    bp = [r for r in runs if r["tool"] == "bonnie++"]
    yield "bonnie++ 1.93d text", all(r["variant"] == "1.9x" and r["params"]["version"] == "1.93d" for r in bp)
    yield "bonnie++ machine from the file table", all(r["label"] == "freebsd.javaforum.h" for r in bp)
    yield "bonnie++ sizes 2G, 2G, 2G, 8G", [r["params"]["file_size"] >> 30 for r in bp] == [2, 2, 2, 8]
    yield "bonnie++ -n 128", all(r["params"]["num_files"] == 128 * 1024 for r in bp)
    v = results(bp[0])
    yield "bonnie++ run 1 IO", (v["seq_output_char"], v["seq_output_block"], v["random_seeks"], v["random_seeks_cpu"]) == (430 * 1024, 44175 * 1024, 160.6, 3)
    yield "bonnie++ run 1 latency", (v["seq_output_char_latency"], v["random_seeks_latency"]) == (0.088046, 3.532)
    yield "bonnie++ run 1 files", (v["seq_create"], v["seq_read"], v["random_delete"], v["seq_read_latency"]) == (336, 97558, 403, 58e-6)
    v = results(bp[3])
    yield "bonnie++ run 4", (v["seq_output_block"], v["seq_create"], v["seq_create_latency"], v["random_read_latency"]) == (39459 * 1024, 19152, 0.055629, 0.026973)
    yield "bonnie++ repeats: three 2G runs grouped", bp[0]["group"] == bp[1]["group"] == bp[2]["group"] != bp[3]["group"]


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
