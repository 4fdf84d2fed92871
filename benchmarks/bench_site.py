"""The static site (``escoba-tutor build-site``) against the served app, on the same machine, in one run.

    python benchmarks/bench_site.py [--reps 3] [--cache DIR]

Builds the site (with one extra, unlinked page that times the expert in the browser), serves it from a plain
static file server on 127.0.0.1, and runs the real ``escoba-tutor`` server beside it. Debian's Chromium
(headless, through Playwright) opens the capture lesson (es) on both:

- site size: every file of the built site (the extra page excluded), and its biggest parts;
- first widget, cold: a fresh browser context (empty HTTP cache) until the capture table's first card is drawn;
  on the served app a fresh context too (a fresh kernel);
- first widget, warm: a second load in the same context: the site's files come from the browser's HTTP cache
  (no request routing here: Playwright's routing turns that cache off; Chromium resolves no host but
  127.0.0.1, so nothing can come from elsewhere);
- a change → the capture table updated: type another table into the lesson's capture table and press Enter,
  until its first row is the new table's (a round trip to Python: the kernel's worker on the site, the
  server's kernel on the served app);
- the expert's decision time (p50, p95 in ms) in Pyodide, from ``simulate`` run in the page, against the same
  ``simulate`` run natively here (the served app's kernel is native CPython).

Targets (issue 16): cold ≤ 12 s, warm ≤ 3x the served app's, change → update ≤ 1.5x, site ≤ 60 MB, expert
p95 ≤ 300 ms. The load average is printed before and after: the figures are only as quiet as the machine.
"""

from __future__ import annotations

import argparse
import functools
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from _voila_bench import CHROMIUM, ERROR_TEXT, FIRST_IN_VIEW, LAUNCH_ARGS, ROOT, load_average, tutor_server

sys.path.insert(0, str(ROOT))
from escoba_tutor.players.simulate import simulate  # noqa: E402
from escoba_tutor.site.build import build_site, size_of  # noqa: E402

FIRST = ".escoba-capture-table [data-code]"
SITE_PAGE, SERVED_PAGE = "voici/render/es/02-captures.html", "voila/render/es/02-captures.ipynb"
EXPERT_PAGE = "voici/render/es/zz-bench-expert.html"
EXPERT_RUN = dict(players=2, games=2, seed=7, bots="expert,random")
EXPERT_CELL = f"""from escoba_tutor.players.simulate import simulate
r = simulate({EXPERT_RUN['players']}, {EXPERT_RUN['games']}, {EXPERT_RUN['seed']}, "escoba", "{EXPERT_RUN['bots']}",
             progress=False)
print("EXPERT-MS", round(r.decision_ms[0][0], 1), round(r.decision_ms[0][1], 1), r.decisions[0])
"""
TABLES = ("1o 4b 7o", "2c 3e 10b 12c")
ONLY_LOOPBACK = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"  # no other origin can answer
LIMIT_S = 600
# The page's clock once the capture table's first row is not ``before`` any more (its rows were recomputed).
ROWS_CHANGED = """(before) => {
  const row = document.querySelector('.escoba-capture-table [role=grid] tbody tr[data-id]');
  return row && row.dataset.id !== before && performance.now(); }"""
TARGETS = {"cold_s": 12.0, "warm_ratio": 3.0, "change_ratio": 1.5, "size_mb": 60.0, "expert_p95_ms": 300.0}


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve_folder(folder: Path) -> tuple[ThreadingHTTPServer, str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_port}/"


def lessons_with_bench_page(folder: Path) -> Path:
    import json

    lessons = folder / "lessons"
    shutil.copytree(ROOT / "lessons", lessons, ignore=shutil.ignore_patterns("source"))
    (lessons / "es" / "zz-bench-expert.ipynb").write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": "bench", "metadata": {}, "outputs": [],
                   "source": EXPERT_CELL}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}))
    return lessons


def first_widget(page, url: str) -> float:
    page.goto(url, wait_until="commit")
    ms = page.wait_for_function(FIRST_IN_VIEW, arg=FIRST, polling=16, timeout=LIMIT_S * 1000).json_value()
    text = page.locator("body").inner_text()
    if ERROR_TEXT.search(text):
        raise RuntimeError(f"{url} shows {ERROR_TEXT.search(text).group(0)!r}")
    return ms / 1000


def change_table(page, reps: int) -> list[float]:
    box = page.locator(".escoba-capture-table input[type=text]").first
    times = []
    for rep in range(reps):
        row = page.locator(".escoba-capture-table [role=grid] tbody tr[data-id]").first
        before = row.get_attribute("data-id")
        start = page.evaluate("() => performance.now()")
        box.fill(TABLES[rep % 2])
        box.press("Enter")
        done = page.wait_for_function(ROWS_CHANGED, arg=before, polling=16, timeout=60_000).json_value()
        times.append((done - start) / 1000)
    return times


def measure(browser, url: str, reps: int) -> dict:
    """Cold and warm first widget (one context per repetition), and change → update on the warm page."""
    cold, warm, change = [], [], []
    for _rep in range(reps):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            cold.append(first_widget(page, url))
            page.close()
            page = context.new_page()
            warm.append(first_widget(page, url))
            page.wait_for_timeout(1500)  # the rest of the lesson's cells
            change += change_table(page, 4)
        finally:
            context.close()
    return {"cold": cold, "warm": warm, "change": change}


def expert_in_browser(browser, url: str) -> tuple[float, float, int]:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        line = page.locator("text=/EXPERT-MS/").first
        line.wait_for(timeout=LIMIT_S * 1000)
        _tag, p50, p95, count = line.inner_text().split()[:4]
        return float(p50), float(p95), int(count)
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3, help="repetitions of each page load")
    parser.add_argument("--cache", help="keep the site build's downloads here between runs")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"needs Debian's Chromium at {CHROMIUM}: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    commit = subprocess.run(["git", "log", "-1", "--oneline"], cwd=ROOT, capture_output=True, text=True).stdout
    print(f"tree: {commit.strip()}; load average before: {load_average()}", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="bench-site-"))
    started = time.monotonic()
    try:
        site = build_site(folder / "site", cache=args.cache, lessons=lessons_with_bench_page(folder),
                          log=lambda line: None)
        build_s = time.monotonic() - started
        extra = sum(p.stat().st_size for p in site.rglob("zz-bench-expert*") if p.is_file())
        size_mb = (size_of(site) - extra) / 1e6
        parts = sorted(((size_of(p) if p.is_dir() else p.stat().st_size, p.relative_to(site))
                        for p in [*site.glob("*"), *(site / "static").glob("*"), *(site / "static/pyodide").glob(
                            "*.w*")]), reverse=True)[:8]
        print(f"site built in {build_s:.0f} s: {size_mb:.1f} MB; biggest: "
              + ", ".join(f"{name} {size / 1e6:.1f}" for size, name in parts), flush=True)
        httpd, site_url = serve_folder(site)
        server = tutor_server(folder, "--cull-idle", "1")
        server.wait()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[*LAUNCH_ARGS, ONLY_LOOPBACK])
            served = measure(browser, server.url + SERVED_PAGE, args.reps)
            print("served: " + "; ".join(f"{k} " + " ".join(f"{v:.2f}" for v in vs) for k, vs in served.items()),
                  flush=True)
            static = measure(browser, site_url + SITE_PAGE, args.reps)
            print("site:   " + "; ".join(f"{k} " + " ".join(f"{v:.2f}" for v in vs) for k, vs in static.items()),
                  flush=True)
            p50, p95, count = expert_in_browser(browser, site_url + EXPERT_PAGE)
            browser.close()
        native = simulate(EXPERT_RUN["players"], EXPERT_RUN["games"], EXPERT_RUN["seed"], "escoba",
                          EXPERT_RUN["bots"], progress=False)
        server.stop()
        httpd.shutdown()
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    median = statistics.median
    rows = [
        ("site size (MB)", size_mb, None, size_mb <= TARGETS["size_mb"], "<= 60 MB"),
        ("first widget, cold (s)", median(static["cold"]), median(served["cold"]),
         median(static["cold"]) <= TARGETS["cold_s"], "<= 12 s"),
        ("first widget, warm (s)", median(static["warm"]), median(served["warm"]),
         median(static["warm"]) <= TARGETS["warm_ratio"] * median(served["warm"]), "<= 3x served"),
        ("change -> table updated (s)", median(static["change"]), median(served["change"]),
         median(static["change"]) <= TARGETS["change_ratio"] * median(served["change"]), "<= 1.5x served"),
        ("expert decision p95 (ms)", p95, native.decision_ms[0][1], p95 <= TARGETS["expert_p95_ms"], "<= 300 ms"),
    ]
    print()
    print(f"static site vs served app: {args.reps} repetitions, {time.monotonic() - started:.0f} s in all; "
          f"load average after: {load_average()} (2 cores)")
    print(f"{'':30}{'site':>9}{'served':>9}{'ratio':>8}  {'target':16}result")
    for label, mine, theirs, met, target in rows:
        ratio = f"{mine / theirs:.2f}x" if theirs else ""
        theirs_text = f"{theirs:.2f}" if theirs is not None else ""
        print(f"{label:30}{mine:>9.2f}{theirs_text:>9}{ratio:>8}  {target:16}{'met' if met else 'MISSED'}")
    print(f"expert decision p50 (ms): site {p50:.1f}, native {native.decision_ms[0][0]:.1f}; decisions timed: "
          f"site {count}, native {native.decisions[0]}")


if __name__ == "__main__":
    main()
