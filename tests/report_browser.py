#!/usr/bin/env python3
"""benchlog report in a real browser: Debian's Chromium, driven headless
through ChromeDriver's WebDriver protocol (HTTP and JSON, nothing to
install beyond the two packages).

For the reports of the seeds, of one corpus case of each tool, of an mbox
and of a quoted-printable mail, it loads each page and checks the DOM:
every run `benchlog parse` finds has its row and its highlighted span,
linked both ways; every in-page link resolves; the page loads nothing from
outside; no console error; clicking a bar's cell lights its runs up; a
table sorts; at a phone's width nothing but a table's own scroller is
wider than the screen. Screenshots (desktop and phone) go to
build/report-shots/ for a person to look at.

usage: report_browser.py BENCHLOG"""
import base64
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import zpool_stream  # noqa: E402 (tests/zpool_stream.py)
SEEDS = ROOT.parent / "shared" / "seeds"
SHOTS = ROOT / "build" / "report-shots"
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"report-browser: FAIL {name}: {detail}"[:2000])


def inputs():
    """(name, path) of the posts to report on."""
    out = []
    if SEEDS.is_dir():
        out += [(p.name[:3] + "-seed", p) for p in sorted(SEEDS.glob("*.txt"))]
    else:
        print(f"report-browser: {SEEDS} not found; the seeds are skipped")
    for tool in sorted(p.name for p in (ROOT / "corpus").iterdir() if p.is_dir()):
        cases = sorted((ROOT / "corpus" / tool).iterdir())
        if tool == "ingest":
            picks = [c for c in cases if c.name in ("mbox-three-messages", "eml-qp-latin1",
                                                    "flattened-one-line", "html-pipermail",
                                                    "bad-truncated-mime")]
        else:
            picks = cases[:1]
        out += [(f"{tool}-{c.name}", c / "input") for c in picks]
    return out


class Driver:
    """The few WebDriver commands the checks need."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": shutil.which("chromium"),
                                   "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                                            "--disable-dev-shm-usage", "--hide-scrollbars"]},
            "goog:loggingPrefs": {"browser": "ALL"}}}}
        self.sid = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.loads(r.read())["value"]

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.sid}{path}", body)

    def go(self, url):
        self.s("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def size(self, w, h):
        self.s("POST", "/window/rect", {"width": w, "height": h})

    def shot(self, path):
        path.write_bytes(base64.b64decode(self.s("GET", "/screenshot")))

    def console(self):
        return self.s("POST", "/se/log", {"type": "browser"})

    def quit(self):
        try:
            self.s("DELETE", "")
        except OSError:
            pass


# What the page holds, read in the browser.
DOM = """
const ids = new Set(Array.from(document.querySelectorAll('[id]'), e => e.id));
const rows = Array.from(document.querySelectorAll('tr[id^="run-"]'), e => e.id.slice(4));
const marks = Array.from(document.querySelectorAll('mark.run'), e => ({
  id: e.id.slice(5), text: e.textContent.replace(/^run \\d+/, '').trim().length,
  back: (e.querySelector('a.tag') || {}).getAttribute ?
        e.querySelector('a.tag').getAttribute('href') : null}));
const rowLinks = rows.map(r => document.getElementById('run-' + r)
  .querySelector('a[href^="#span-"]')?.getAttribute('href'));
const broken = Array.from(document.querySelectorAll('a[href^="#"]'),
  a => a.getAttribute('href').slice(1)).filter(h => !ids.has(h));
const outside = Array.from(document.querySelectorAll('script[src], link[href], img[src], iframe'),
  e => e.outerHTML.slice(0, 120));
const perDoc = {};
rows.forEach(r => { const d = r.split('-')[0]; perDoc[d] = (perDoc[d] || 0) + 1; });
return {rows, marks, rowLinks, broken, outside, perDoc,
        sections: document.querySelectorAll('section.msg').length,
        partial: Array.from(document.querySelectorAll('section.msg'), s => !!s.querySelector('.partial')),
        svgs: document.querySelectorAll('figure.chart svg').length,
        svgText: document.querySelectorAll('figure.chart svg text').length,
        barLinks: document.querySelectorAll('figure.chart svg a[data-runs]').length,
        cmpTables: document.querySelectorAll('table.cmp').length};
"""

CLICK = """
const a = document.querySelector('table.cmp a[data-runs]');
if (!a) return null;
a.click();
const want = a.dataset.runs.split(' ');
const lit = Array.from(document.querySelectorAll('.lit'), e => e.id);
return {want, lit};
"""

SORT = """
const t = document.querySelector('table.runs');
if (!t || t.tBodies[0].rows.length < 2) return null;
const th = t.querySelectorAll('thead th')[0];
th.click(); th.click();   // ascending, then descending
const v = Array.from(t.tBodies[0].rows, r => parseFloat(r.cells[0].dataset.v));
return v;
"""

WIDE = """
const w = document.documentElement.clientWidth;
const over = Array.from(document.body.querySelectorAll('*')).filter(e => {
  // a table scrolls in its own box; an SVG clips what it holds; the text's
  // marks span lines whose trailing blanks hang (the <pre> itself is checked)
  if (e.closest('.scroll') || e.closest('details:not([open])') ||
      (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') ||
      (e.closest('pre.text') && e.tagName !== 'PRE')) return false;
  // a box wider than the screen, or text wider than its box
  const r = e.getBoundingClientRect();
  const spills = getComputedStyle(e).overflowX === 'visible' && e.scrollWidth > e.clientWidth + 4;
  return r.width > 0 && (r.right > w + 4 || spills);
}).map(e => e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 60)).slice(0, 5);
return {w, scroll: document.documentElement.scrollWidth, over};
"""


def parse_docs(bench, path):
    """(runs, partial) per document, as `benchlog parse` finds them."""
    p = subprocess.run([bench, "parse", "--jsonl", str(path)], capture_output=True, text=True,
                       timeout=120)
    docs = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    return [(len(d.get("runs", [])), bool(d.get("partial"))) for d in docs]


def check_page(drv, bench, name, post, html):
    drv.size(1200, 900)
    drv.go(html.as_uri())
    dom = drv.js(DOM)
    docs = parse_docs(bench, post)
    want = [n for n, _ in docs]
    check(f"{name}: a section per message", dom["sections"] == len(want),
          f"{dom['sections']} sections, {len(want)} documents")
    got = [dom["perDoc"].get(str(d), 0) for d in range(len(want))]
    check(f"{name}: a row per run", got == want, f"rows {got}, runs {want}")
    marks = {m["id"]: m for m in dom["marks"]}
    check(f"{name}: every run highlighted", sorted(marks) == sorted(dom["rows"]),
          f"marks {sorted(marks)[:10]}, rows {dom['rows'][:10]}")
    empty = [m["id"] for m in dom["marks"] if m["text"] == 0]
    check(f"{name}: every highlight holds text", not empty, str(empty[:10]))
    check(f"{name}: spans link to their rows",
          all(m["back"] == f"#run-{m['id']}" for m in dom["marks"]), str(dom["marks"][:3]))
    check(f"{name}: rows link to their spans",
          dom["rowLinks"] == [f"#span-{r}" for r in dom["rows"]], str(dom["rowLinks"][:3]))
    check(f"{name}: every link resolves", not dom["broken"], str(dom["broken"][:10]))
    check(f"{name}: nothing loaded from outside", not dom["outside"], str(dom["outside"]))
    check(f"{name}: a partial document says so", dom["partial"] == [p for _, p in docs],
          f"{dom['partial']} {docs}")
    if dom["svgs"]:
        check(f"{name}: chart text as <text>", dom["svgText"] > 0, str(dom))
        check(f"{name}: bars link to runs", dom["barLinks"] > 0, str(dom))
        click = drv.js(CLICK)
        if click:
            lit = set(click["lit"])
            check(f"{name}: a cell's runs light up", all(f"run-{r}" in lit and f"span-{r}" in lit
                                                          for r in click["want"]), str(click))
            drv.shot(SHOTS / f"{name}-desktop-clicked.png")
    drv.js("window.scrollTo(0, 0);")
    drv.shot(SHOTS / f"{name}-desktop-top.png")
    drv.js("const m = document.querySelector('mark.run'); if (m) m.scrollIntoView();")
    drv.shot(SHOTS / f"{name}-desktop-text.png")
    order = drv.js(SORT)
    if order:
        check(f"{name}: the runs table sorts", order == sorted(order, reverse=True), str(order))
    drv.size(390, 844)
    drv.go(html.as_uri())  # laid out afresh at this width
    wide = drv.js(WIDE)
    check(f"{name}: fits a phone's width", not wide["over"] and wide["scroll"] <= wide["w"] + 1,
          str(wide))
    drv.js("const m = document.querySelector('mark.run'); if (m) m.scrollIntoView();")
    drv.shot(SHOTS / f"{name}-phone.png")
    errors = [e for e in drv.console() if e.get("level") == "SEVERE"]
    check(f"{name}: no console error", not errors, str(errors[:3]))


def check_cli(bench, tmp):
    """What needs no browser: an mbox read from a pipe (a message at a
    time) gives the page of the file; benchlog JSON, whatever the order of
    its members, is refused with a reason."""
    mbox = ROOT / "corpus" / "ingest" / "mbox-three-messages" / "input"
    from_file = subprocess.run([bench, "report", "-q", str(mbox)], capture_output=True,
                               timeout=120)
    with open(mbox, "rb") as f:
        from_pipe = subprocess.run([bench, "report", "-q", "-"], stdin=f, capture_output=True,
                                   timeout=120)
    def summary(page):  # "1 input, 3 messages, 3 runs, 0 diagnostics" and the marks
        meta = re.search(rb'<p class="meta">([^.]*)\.', page)
        return (meta.group(1) if meta else None, page.count(b'<mark class="run"'))
    check("an mbox from a pipe: the file's messages and runs",
          from_file.returncode == 0 and from_pipe.returncode == 0 and
          summary(from_pipe.stdout) == summary(from_file.stdout) and
          summary(from_file.stdout)[1] >= 3,
          f"{summary(from_pipe.stdout)} {summary(from_file.stdout)} {from_pipe.stderr[-300:]}")
    with open("/dev/full", "wb") as full:
        p = subprocess.run([bench, "report", "-q", str(mbox)], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=120)
    check("a full disk: a write error", p.returncode == 1 and "report: write error" in p.stderr,
          p.stderr[-300:])
    doc = subprocess.run([bench, "parse", "-q", str(mbox)], capture_output=True, text=True,
                         timeout=120).stdout
    sorted_doc = json.dumps(json.loads(doc.split("\n}\n")[0] + "\n}"), sort_keys=True)
    for name, text in (("parse's order", doc), ("keys sorted", sorted_doc)):
        path = tmp / "doc.json"
        path.write_text(text)
        p = subprocess.run([bench, "report", "-q", str(path), "-o", str(tmp / "doc.html")],
                           capture_output=True, text=True, timeout=120)
        check(f"benchlog JSON ({name}) refused", p.returncode == 1 and
              "is benchlog JSON, which keeps no text to show" in p.stderr and
              not (tmp / "doc.html").exists(), p.stderr[-300:])


def check_long_post(bench, tmp):
    """A post whose section is megabytes (report writes it a megabyte at a
    time): every line of it is in the page with its number, every run
    marked and in the runs table, the page whole."""
    block = (ROOT / "corpus" / "dd" / "bsd-freebsd-ibs-obs" / "input").read_text()
    post = tmp / "long.txt"
    post.write_text("".join(f"Disk {i} of the shelf, a second try:\n\n{block}\n"
                            for i in range(600)))
    lines = post.read_text().count("\n")
    html = tmp / "long.html"
    p = subprocess.run([bench, "report", "-q", str(post), "-o", str(html)],
                       capture_output=True, timeout=600)
    doc = json.loads(subprocess.run([bench, "parse", "-q", str(post)], capture_output=True,
                                    timeout=600).stdout)
    runs = len(doc["runs"])
    page = html.read_bytes() if html.exists() else b""
    numbers = [int(n) for n in re.findall(rb'<span class="ln" id="L0-(\d+)">', page)]
    check("a long post: its page is megabytes", p.returncode == 0 and len(page) > 3 << 20,
          f"{len(page)} bytes, {p.stderr[-300:]}")
    check("a long post: every line, numbered in order", numbers == list(range(1, lines + 1)),
          f"{len(numbers)} numbered lines of {lines}")
    check("a long post: every run marked and in the runs table", runs >= 600 and
          page.count(b'<mark class="run"') == runs and
          all(b'id="run-0-%d"' % i in page for i in range(runs)), f"{runs} runs")
    check("a long post: the page is whole", page.endswith(b"</html>\n") and
          page.count(b"<section") == page.count(b"</section>"), page[-200:])
    # one run of 600 KB: its original bytes go into the page a piece at a
    # time, each cut after a line
    stream = "zpool iostat -v tank 1\n" + "".join(
        zpool_stream.sample(lambda k, i=i: ((i + k) % 997, k, "%d.%dM" % (i % 50, k), "0"))
        for i in range(1200))
    post.write_text(stream)
    p = subprocess.run([bench, "report", "-q", str(post), "-o", str(html)],
                       capture_output=True, timeout=600)
    page = html.read_bytes() if html.exists() else b""
    orig = re.findall(rb'<summary>original bytes</summary><pre>(.*?)</pre>', page, re.S)
    run = json.loads(subprocess.run([bench, "parse", "-q", str(post)], capture_output=True,
                                    timeout=600).stdout)["runs"][0]["span"]
    want = stream.encode()[run["offset"]:run["end_offset"]]  # nothing in it to escape
    check("a long run: its original bytes whole", p.returncode == 0 and len(want) > 600000 and
          orig == [want],
          f"{len(orig)} blocks, {p.stderr[-300:]}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    bench = str(pathlib.Path(sys.argv[1]).resolve())
    if not shutil.which("chromium") or not shutil.which("chromedriver"):
        print("report-browser: chromium or chromedriver missing (scripts/install-deps.sh "
              "installs them)")
        return 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="benchlog-report."))
    check_cli(bench, tmp)
    check_long_post(bench, tmp)
    port = free_port()
    cd = subprocess.Popen(["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    drv = None
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        drv = Driver(port)
        for name, post in inputs():
            html = tmp / f"{name}.html"
            p = subprocess.run([bench, "report", "-q", str(post), "-o", str(html)],
                               capture_output=True, text=True, timeout=120)
            check(f"{name}: report written", p.returncode == 0 and html.exists(), p.stderr[-500:])
            if html.exists():
                check_page(drv, bench, name, post, html)
    finally:
        if drv:
            drv.quit()
        cd.terminate()
        cd.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"report-browser: {passed} passed, {failed} failed; screenshots in {SHOTS}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
