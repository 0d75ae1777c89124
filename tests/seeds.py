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
    "003": {"dd": 16},
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


def checks_003(runs):
    """A whole quoted-printable mail flattened onto one line."""
    dd = [r for r in runs if r["tool"] == "dd"]
    yield "every run has bytes, seconds and a rate", all(
        {"bytes", "elapsed", "throughput"} <= set(results(r)) and all(v is not None for v in results(r).values())
        for r in dd)
    yield "QP decoded in the commands", all("=3D" not in (r["command"] or "") and r["command"].startswith("dd if=") for r in dd)
    v = results(dd[0])
    yield "first run", (v["bytes"], v["elapsed"], v["throughput"]) == (209715200, 6.158355, 34053769)
    raw = dd[12]
    yield "raw-device read", raw["params"].get("input") == "/dev/ad4s1a" and raw["params"].get("count") == 2000 \
        and results(raw)["records_in_full"] == 1024
    yield "2 GB writes", [results(r)["bytes"] for r in dd[9:12]] == [2097152000] * 3
    yield "last run", results(dd[15])["throughput"] == 61431828


def doc_checks_000(docs):
    sysd = docs[0].get("system", {})
    yield "system: cpu", [c.get("cores") for c in sysd.get("cpu", [])] == [2] and "Atom 330" in sysd["cpu"][0]["value"]
    yield "system: chipset", [c["value"] for c in sysd.get("chipset", [])] == ["Intel 82945G"]
    yield "system: os", [(o.get("name"), o.get("release")) for o in sysd.get("os", [])] == [("FreeBSD", "8.0-RELEASE")]
    disks = sysd.get("disks", [])
    yield "system: disks", [(d["device"], d["bytes"], d["model"], d["attachment"], d["interface"]) for d in disks] == [
        ("ad4", 953869 * 1048576, "Seagate ST31000533CS SC15", "ata2-master", "SATA150"),
        ("ad6", 953869 * 1048576, "Seagate ST31000533CS SC15", "ata3-master", "SATA150")]
    yield "system: geli", [(g["action"], g["sector_size"], g["keyfile"], g["provider"]) for g in sysd.get("geli", [])] == [
        ("init", 4096, "/etc/keys/ad4s2.key", "/dev/ad4s2"), ("init", 4096, "/etc/keys/ad6s2.key", "/dev/ad6s2")]
    yield "system: empty loader.conf", any(f.get("path") == "/boot/loader.conf" and f.get("empty") for f in sysd.get("files", []))
    yield "system: gmirror list", [g.get("fields", {}).get("balance") for g in sysd.get("gmirror", [])] == ["round-robin"]


def doc_checks_001(docs):
    tun = docs[0].get("system", {}).get("tunables", [])
    yield "system: loader.conf tunables", [(t["key"], t["value"]) for t in tun[:4]] == [
        ("ahci_load", "YES"), ("vm.kmem_size_max", "1024M"), ("vm.kmem_size", "1024M"), ("vfs.zfs.arc_max", "100M")]
    yield "system: tunables name their file", all(t.get("file") == "/boot/loader.conf" for t in tun)
    yield "system: arc_max bytes", tun[3].get("bytes") == 100 * 1048576
    yield "system: second loader.conf", [t["key"] for t in tun[4:]] == [
        "vm.kmem_size", "vm.kmem_size_max", "vfs.zfs.arc_max", "vfs.zfs.vdev.cache.size"]
    zp = [z for z in docs[0]["system"].get("zpool", []) if "vdevs" in z]
    yield "system: zpool status layout", len(zp) == 1 and zp[0]["pool"] == "tank" and \
        [v["name"] for v in zp[0]["vdevs"]] == ["tank", "raidz1"] + [f"label/raidz1{i}" for i in range(1, 5)]


def doc_checks_004(docs):
    tun = docs[0].get("system", {}).get("tunables", [])
    yield "system: tunables", [(t["key"], t["value"]) for t in tun] == [
        ("vm.kmem_size", "768M"), ("kern.ipc.semmni", "1024"), ("kern.ipc.semmnu", "2048"), ("kern.ipc.semmns", "4096"),
        ("vfs.zfs.arc_max", "512M"), ("vfs.zfs.prefetch_disable", "1"), ("vfs.zfs.txg.timeout", "5"), ("hw.bge.allow_asf", "1")]
    yield "system: vm.kmem_size bytes", tun and tun[0].get("bytes") == 768 * 1048576


def doc_checks_003(docs):
    d = docs[0]
    yield "decodings", d["source"]["decoding"] == ["quoted-printable", "unflatten"]
    msg = d["source"].get("message", {})
    yield "flattened headers", (msg.get("subject"), msg.get("from"), msg.get("date"), msg.get("message_id")) == (
        "More zfs benchmarks", "Jonathan Belson", "Sun, 14 Feb 2010 17:28:28 +0000", None)
    mism = [x for x in d["diagnostics"] if x["code"] == "dd.count-mismatch"]
    yield "count-mismatch on the raw-device read", len(mism) == 1 and mism[0].get("run") == 12


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
        docs = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
        runs = [r for d in docs for r in d["runs"]]
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
        dfn = globals().get(f"doc_checks_{num}")
        checks = []
        if fn and want is not None and counts == want:
            checks += list(fn(runs))
        if dfn:
            checks += list(dfn(docs))
        if checks:
            for name, ok in checks:
                if ok:
                    passed += 1
                else:
                    print(f"FAIL {path.name}: {name}")
                    failed += 1
    print(f"seeds: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
