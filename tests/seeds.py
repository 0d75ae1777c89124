#!/usr/bin/env python3
"""Runs `benchlog parse` on each real post in seeds/ and checks what it finds.

Each expectation names a seed by its number and gives the runs per tool,
with a few values checked exactly. Prints 'N passed, N failed'."""
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
from benchlog_rows import results as run_results  # noqa: E402

# seed number -> {tool: number of runs}; tools not listed must find nothing
EXPECTED_RUNS = {
    "000": {"dd": 16},
    "001": {"dd": 5, "bonnie": 3, "diskinfo": 1},
    "002": {},
    "003": {"dd": 16},
    "004": {"dd": 18, "time": 18, "bonnie++": 4},
}


def results(run):
    return {r["metric"]: r["value"] for r in run_results(run)}


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
    di = [r for r in runs if r["tool"] == "diskinfo"][0]
    v = results(di)
    yield "diskinfo device and command", (di["label"], di["command"]) == ("/dev/ad10", "diskinfo -t /dev/ad10")
    yield "diskinfo -v params", {k: di["params"].get(k) for k in ("sectorsize", "mediasize", "mediasize_sectors", "firmware_cylinders", "firmware_heads", "firmware_sectors", "ident")} == {
        "sectorsize": 512, "mediasize": 1500301910016, "mediasize_sectors": 2930277168,
        "firmware_cylinders": 2907021, "firmware_heads": 16, "firmware_sectors": 63, "ident": "WD-WMAVU3127845"}
    seeks = {"full_stroke": (250, 5.759155, 23.037), "half_stroke": (250, 4.177206, 16.709),
             "quarter_stroke": (500, 7.581140, 15.162), "short_forward": (400, 2.664591, 6.661),
             "short_backward": (400, 2.181377, 5.453), "seq_outer": (2048, 0.273239, 0.133),
             "seq_inner": (2048, 0.238800, 0.117)}
    yield "diskinfo seek times", all(
        v[f"seek_{k}_iterations"] == n and abs(v[f"seek_{k}_elapsed"] - s) < 1e-9 and abs(v[f"seek_{k}"] - ms / 1000) < 1e-12
        for k, (n, s, ms) in seeks.items())
    rates = {"outside": (1.065353, 96118), "middle": (1.264815, 80960), "inside": (2.177371, 47029)}
    yield "diskinfo transfer rates (kbytes of 1024)", all(
        v[f"transfer_{k}_bytes"] == 102400 * 1024 and abs(v[f"transfer_{k}_elapsed"] - s) < 1e-9 and v[f"transfer_{k}"] == kb * 1024
        for k, (s, kb) in rates.items())
    yield "diskinfo units", all(r["unit"] == ("B/s" if r["metric"] in ("transfer_outside", "transfer_middle", "transfer_inside") else
                                              "B" if r["metric"].endswith("_bytes") else
                                              "count" if r["metric"].endswith("_iterations") else "s") for r in run_results(di))


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


def nice(tok):
    """zpool's niced number: K/M/G/T base 1024, rounded to an integer"""
    mult = {"K": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "T": 1024 ** 4}
    if tok[-1] in mult:
        return round(float(tok[:-1]) * mult[tok[-1]])
    return int(tok)


def check_zfs_fuse_sample(binary, path):
    """Every number of every zpool iostat report in the real zfs-fuse
    capture is a result, with its pool, vdev, depth and sample."""
    text = path.read_text().split("\n")
    want = []
    report = -1
    sample = 0
    in_report = new_report = False
    for line in text:
        if line.startswith("$ "):
            in_report = line.startswith("$ zpool iostat")
            new_report = in_report  # counted at its first row: errors print none
            if in_report:
                sample = -1
                seen = set()
                stack = []
            continue
        if not in_report or not line.strip() or line.startswith(("#", "-", "=")) or "capacity" in line:
            continue
        if line.strip().startswith("pool "):
            continue
        tok = line.split()
        if len(tok) == 1 or len(tok) != 7:
            if len(tok) == 1 and tok[0].isdigit():
                sample += 1
                seen = set()
            elif line.startswith(("Mon ", "Tue ", "Wed ", "Thu ", "Fri ", "Sat ", "Sun ")):
                sample += 1
                seen = set()
            continue
        if new_report:
            report += 1
            new_report = False
        depth = (len(line) - len(line.lstrip(" "))) // 2
        stack = stack[:depth] + [tok[0]]
        vdev = "/".join(stack)
        if vdev in seen or sample < 0:
            sample += 1
            seen = set()
        seen.add(vdev)
        for metric, t in zip(["alloc", "free", "read_ops", "write_ops", "read_bandwidth", "write_bandwidth"], tok[1:]):
            if t == "-":
                continue
            unit = "B" if metric in ("alloc", "free") else "ops/s" if metric.endswith("ops") else "B/s"
            want.append((report, sample, stack[0], vdev, depth, metric, nice(t), unit))
    out = subprocess.run([binary, "parse", "--jsonl", "-q", str(path)], capture_output=True, text=True, timeout=60)
    runs = [r for l in out.stdout.splitlines() if l.strip() for r in json.loads(l)["runs"] if r["tool"] == "zpool-iostat"]
    got = [(i, r["sample"], r["pool"], r["vdev"], r["depth"], r["metric"], r["value"], r["unit"])
           for i, run in enumerate(runs) for r in run_results(run)]
    yield "zfs-fuse sample: 14 reports", len(runs) == 14
    yield f"zfs-fuse sample: all {len(want)} values with pool, vdev, depth, sample, unit", got == want
    yield "zfs-fuse sample: first sample since boot only", all(
        r.get("since_boot", False) == (r["sample"] == 0) for run in runs for r in run_results(run))
    yield "zfs-fuse sample: -T u timestamps", [r["timestamp"] for r in run_results(runs[8])][::6] == [1796018647, 1796018648]


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
    sample = seeds.parent / "samples" / "zfs-fuse-zpool-iostat.txt"
    if sample.exists():
        for name, ok in check_zfs_fuse_sample(binary, sample):
            if ok:
                passed += 1
            else:
                print(f"FAIL {sample.name}: {name}")
                failed += 1
    print(f"seeds: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
