"""The served app against a bare one-widget notebook: time to first widget and kernel RSS, in one run.

    python benchmarks/bench_app.py [--reps 5]

Two servers side by side: the real ``escoba-tutor`` server (no browser) and plain Voilà on a notebook with one
button and one label. Debian's Chromium (headless, through Playwright; never Playwright's download, which
needs the internet) opens the pages. After one discarded warm-up load of each page, every repetition opens
each page once in a fresh browser context (so a fresh kernel); who goes first rotates from one repetition to
the next, so a slow spell of the machine falls on all of them alike.

- time to first widget: from the navigation's start to the first widget drawn on the page, read in the page
  (``performance.now()``): the bare page's button; the landing page's and the capture lesson's first cards.
  The landing page is opened at ``/``, so its time includes the redirect to ``es/index.ipynb``.
- kernel RSS: VmRSS of the page's kernel (the ipykernel child of that server) once the page has settled.

Targets (issue 6): first widget <= 1.2x bare, kernel RSS <= 1.3x bare. The machine's load average is printed
before and after: the figures are only as quiet as the machine was.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _voila_bench import (
    BARE_CELL,
    CHROMIUM,
    ERROR_TEXT,
    FIRST_IN_VIEW,
    LAUNCH_ARGS,
    ROOT,
    load_average,
    new_kernel,
    rss_mib,
    tutor_server,
    voila_server,
    write_notebook,
)

# page -> (server, path under the server's URL, the first widget's selector)
PAGES = {
    "bare": ("bare", "", ".jupyter-button"),
    "landing": ("tutor", "", ".escoba-capture-table [data-code]"),
    "captures-es": ("tutor", "voila/render/es/02-captures.ipynb", ".escoba-capture-table [data-code]"),
    "captures-en": ("tutor", "voila/render/en/02-captures.ipynb", ".escoba-capture-table [data-code]"),
}
NAMES = {"bare": "bare one-widget notebook", "landing": "landing page (/)",
         "captures-es": "CaptureTable lesson, es", "captures-en": "CaptureTable lesson, en"}
TARGETS = {"first": 1.2, "rss": 1.3}


def open_page(browser, server, path: str, selector: str) -> tuple[float, float]:
    """Open one page in a context of its own: (seconds to the first widget, its kernel's RSS in MiB)."""
    before = set(server.kernels())
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(server.url + path, wait_until="commit")
        first_ms = page.wait_for_function(FIRST_IN_VIEW, arg=selector, polling=16).json_value()
        text = page.locator("body").inner_text()
        if ERROR_TEXT.search(text):
            raise RuntimeError(f"{server.url + path} shows {ERROR_TEXT.search(text).group(0)!r}")
        kernel = new_kernel(server, before, server.url + path)
        time.sleep(1.5)  # let the kernel finish its start-up work (comm messages, garbage)
        rss = rss_mib(kernel)
        page.goto("about:blank")
    finally:
        context.close()
    return first_ms / 1000, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions (each opens every page once)")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"needs Debian's Chromium at {CHROMIUM}: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    commit = subprocess.run(["git", "log", "-1", "--oneline"], cwd=ROOT, capture_output=True, text=True).stdout
    print(f"tree: {commit.strip()}; load average before: {load_average()}", flush=True)
    folder = Path(tempfile.mkdtemp(prefix="bench-app-"))
    servers = {"bare": voila_server(write_notebook(folder / "bare.ipynb", BARE_CELL)),
               "tutor": tutor_server(folder, "--cull-idle", "1")}
    kinds = list(PAGES)
    first, rss = ({k: [] for k in kinds} for _ in range(2))
    started = time.monotonic()
    try:
        for server in servers.values():
            server.wait()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            for kind in kinds:  # warm-up: the first kernel, the templates, the OS file cache
                where, path, selector = PAGES[kind]
                open_page(browser, servers[where], path, selector)
            for rep in range(args.reps):
                order = kinds[rep % len(kinds):] + kinds[:rep % len(kinds)]
                for kind in order:
                    where, path, selector = PAGES[kind]
                    seconds, mib = open_page(browser, servers[where], path, selector)
                    first[kind].append(seconds)
                    rss[kind].append(mib)
                print(f"rep {rep + 1}/{args.reps} (first: {order[0]}): "
                      + "; ".join(f"{k} {first[k][-1]:.2f} s {rss[k][-1]:.0f} MiB" for k in kinds)
                      + f"; load {load_average()}", flush=True)
            browser.close()
        server_rss = {name: rss_mib(server.process.pid) for name, server in servers.items()}
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)

    median = statistics.median
    print()
    print(f"escoba-tutor served app vs a bare one-widget notebook under plain Voilà: {args.reps} repetitions, "
          f"{time.monotonic() - started:.0f} s; load average after: {load_average()} (2 cores)")
    print(f"{'':42}{'median':>9}{'ratio to bare':>15}{'target':>9}  result")
    missed = []
    for label, values, target, unit in (("time to first widget", first, "first", "s"),
                                        ("kernel RSS", rss, "rss", "MiB")):
        bare = median(values["bare"])
        print(f"{label} ({unit})")
        for kind in kinds:
            value = median(values[kind])
            if kind == "bare":
                print(f"  {NAMES[kind]:40}{value:>9.2f}")
                continue
            ratio = value / bare
            verdict = "met" if ratio <= TARGETS[target] else "MISSED"
            if verdict == "MISSED":
                missed.append(f"{label}, {NAMES[kind]} ({ratio:.2f}x)")
            print(f"  {NAMES[kind]:40}{value:>9.2f}{ratio:>14.2f}x{'<= ' + str(TARGETS[target]) + 'x':>9}  {verdict}")
    print()
    for label, values, fmt in (("first widget (s)", first, "{:.2f}"), ("kernel RSS (MiB)", rss, "{:.1f}")):
        print(f"raw {label}: " + "; ".join(f"{k} " + " ".join(fmt.format(v) for v in values[k]) for k in kinds))
    # the ratio within each repetition: the pages of one repetition share the machine's mood of the moment
    print("time to first widget, ratio to bare per repetition (median): " + "; ".join(
        f"{k} " + " ".join(f"{v / b:.2f}" for v, b in zip(first[k], first["bare"]))
        + f" ({median([v / b for v, b in zip(first[k], first['bare'])]):.2f})" for k in kinds if k != "bare"))
    print("server RSS at the end (MiB): " + ", ".join(f"{k} {v:.0f}" for k, v in server_rss.items()))
    if missed:
        print("missed: " + "; ".join(missed))


if __name__ == "__main__":
    main()
