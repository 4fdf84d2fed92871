"""Where the static site's first widget spends its time, in the browser: Pyodide's start, the kernel's own
packages, escoba-tutor's wheels (download and unpacking), each import, and the widget itself.

    python benchmarks/site_breakdown.py [--site DIR] [--cache DIR] [--top 25]

Builds the site (or takes a built one with ``--site``, which must hold the extra page this script adds, see
``--keep``) with one extra, unlinked page whose cells time, in the kernel's worker:

1. the first cell's start (the kernel is up: Pyodide, its standard library, the kernel's wheels, IPython);
2. ``pyodide.loadPackage`` of escoba-tutor and the wheels it depends on (fetched and unpacked);
3. ``from escoba_tutor.widgets.page import show_capture_table`` under an import timer (``-X importtime`` in
   Pyodide: each module's own and cumulative time);
4. the message catalogs, then the capture lesson's first widget built.

The site's pages start Python from a snapshot made at build time (escoba_tutor/site/snapshot.py), whose
modules are already imported: the import timer lists only what is imported after it (``import pyodide_kernel``
and anything the snapshot left out).

The worker's resource timings (every file the kernel fetched, its size and when) and the page's are printed on
one clock (the page's navigation start). Chromium resolves no host but 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from _voila_bench import CHROMIUM, LAUNCH_ARGS, ROOT, load_average
from bench_site import ONLY_LOOPBACK, serve_folder

sys.path.insert(0, str(ROOT))
from escoba_tutor.site.build import build_site  # noqa: E402

PAGE = "voici/render/es/zz-probe.html"
# ``python -X importtime`` in Pyodide: each module's own and cumulative time, in ``_ImportTimer().rows``.
IMPORT_TIMER = """import importlib.abc, sys, time

class _ImportTimer(importlib.abc.MetaPathFinder):
    def __init__(self):
        self.stack, self.rows = [], []

    def find_spec(self, name, path, target=None):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or isinstance(loader, type) or not hasattr(loader, "exec_module"):
            return spec
        run, timer = loader.exec_module, self

        def exec_module(module):
            timer.stack.append(0.0)
            started = time.perf_counter()
            try:
                run(module)
            finally:
                total = time.perf_counter() - started
                inner = timer.stack.pop()
                if timer.stack:
                    timer.stack[-1] += total
                timer.rows.append((name, round((total - inner) * 1000, 1), round(total * 1000, 1), len(timer.stack)))

        loader.exec_module = exec_module
        return spec

"""
CELLS = [
    """import js, json, time
_probe = {"first_cell": js.performance.now()}""",
    """import pyodide_js
_probe["load_start"] = js.performance.now()
await pyodide_js.loadPackage(["escoba-tutor"])
_probe["load_end"] = js.performance.now()""",
    IMPORT_TIMER + """_timer = _ImportTimer()
sys.meta_path.insert(0, _timer)
_probe["import_start"] = js.performance.now()
from escoba_tutor.widgets.page import show_capture_table
_probe["import_end"] = js.performance.now()
sys.meta_path.remove(_timer)
_probe["imports"] = _timer.rows""",
    """from escoba_tutor.text import translator as i18n
_probe["catalogs_start"] = js.performance.now()
i18n.Translator("es")
_probe["catalogs_end"] = js.performance.now()
show_capture_table("es", table="2c 3e 10b 12c", hand="5o 1e 12o")
_probe["widget_built"] = js.performance.now()""",
    """import builtins
_probe["boot_imports"] = getattr(builtins, "_boot_imports", [])
print("PROBE-JSON " + json.dumps(_probe))""",
]
RESOURCES = """() => ({origin: performance.timeOrigin, entries: performance.getEntriesByType('resource').map(e => ({
  name: e.name, start: e.startTime, end: e.responseEnd, size: e.encodedBodySize}))})"""


#: The kernel worker's start, phase by phase (jupyterlite-pyodide-kernel 0.6.1's bundle, patched in a copy of
#: the site): Pyodide's own start, the preloaded packages, piplite, ``import pyodide_kernel`` (timed module by
#: module), the kernel's globals.
_PHASES = ("await this.initRuntime(e),await this.initFilesystem(e),await this.initPackageManager(e),"
           "await this.initKernel(e),await this.initGlobals(e)")
_TIMED_PHASES = ("self.__t={start:performance.now()},await this.initRuntime(e),self.__t.runtime=performance.now(),"
                 "await this.initFilesystem(e),await this.initPackageManager(e),self.__t.piplite=performance.now(),"
                 "await this.initKernel(e),self.__t.kernel=performance.now(),await this.initGlobals(e),"
                 "self.__t.globals=performance.now()")
_BOOT = "this._pyodide=await t({indexURL:i,...e.loadPyodideOptions})"
_TIMED_BOOT = ("this._pyodide=await t({indexURL:i,...e.loadPyodideOptions,packages:[]}),"
               "self.__t.pyodide=performance.now(),"
               "await this._pyodide.loadPackage((e.loadPyodideOptions||{}).packages||[]),"
               "self.__t.packages=performance.now()")
_KERNEL_IMPORT = 'i.push("import pyodide_kernel")'
_TIMED_KERNEL_IMPORT = "i.push({})".format(json.dumps(
    IMPORT_TIMER + "_timer = _ImportTimer()\nsys.meta_path.insert(0, _timer)\nimport pyodide_kernel\n"
    "sys.meta_path.remove(_timer)\nimport builtins\nbuiltins._boot_imports = _timer.rows\n"))


def instrument(site: Path, into: Path) -> Path:
    """A copy of the site whose kernel worker notes when each phase of its start ends (``self.__t``)."""
    shutil.copytree(site, into)
    patched = 0
    for script in (into / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static").glob("*.js"):
        text = script.read_text(encoding="utf-8")
        if _PHASES in text:
            text = text.replace(_PHASES, _TIMED_PHASES).replace(_BOOT, _TIMED_BOOT)
            text = text.replace(_KERNEL_IMPORT, _TIMED_KERNEL_IMPORT)
            script.write_text(text, encoding="utf-8")
            patched += 1
    if not patched:
        raise SystemExit("the kernel's bundle is not the one this script knows how to time")
    return into


def lessons_with_probe(folder: Path) -> Path:
    lessons = folder / "lessons"
    shutil.copytree(ROOT / "lessons", lessons, ignore=shutil.ignore_patterns("source"))
    (lessons / "es" / "zz-probe.ipynb").write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"probe{i}", "metadata": {}, "outputs": [],
                   "source": source} for i, source in enumerate(CELLS)],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}))
    return lessons


def short(url: str) -> str:
    return url.split("/")[-1].split("?")[0][:60]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", help="a site already built by this script (--keep)")
    parser.add_argument("--keep", help="build the site into this (new) folder and keep it")
    parser.add_argument("--cache", help="keep the site build's downloads here between runs")
    parser.add_argument("--top", type=int, default=25, help="how many imports to list")
    parser.add_argument("--warm", action="store_true", help="time a second load in the same browser context")
    parser.add_argument("--phases", action="store_true",
                        help="time the kernel's start phase by phase, in a patched copy of the site")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average before: {load_average()}", flush=True)
    scratch = Path(tempfile.mkdtemp(prefix="site-breakdown-"))
    try:
        if args.site:
            site = Path(args.site)
        else:
            site = build_site(Path(args.keep) if args.keep else scratch / "site", cache=args.cache,
                              lessons=lessons_with_probe(scratch), log=lambda line: None)
        if args.phases:
            site = instrument(site, scratch / "instrumented")
        httpd, url = serve_folder(site)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[*LAUNCH_ARGS, ONLY_LOOPBACK])
            context = browser.new_context()
            for label in ("cold", "warm") if args.warm else ("cold",):
                page = context.new_page()
                said: list[tuple[float, str]] = []
                page.on("console", lambda message, said=said: said.append(
                    (time.monotonic(), message.text)))
                started = time.monotonic()
                page.goto(url + PAGE, wait_until="commit")
                line = page.locator("text=/PROBE-JSON/").first
                line.wait_for(timeout=600_000)
                wall = time.monotonic() - started
                probe = json.loads(line.inner_text().split("PROBE-JSON ", 1)[1])
                mine = page.evaluate(RESOURCES)
                worker = page.workers[-1].evaluate(RESOURCES)
                worker["phases"] = page.workers[-1].evaluate("() => self.__t || null")
                report(label, wall, probe, mine, worker, args.top)
                print("console (s after navigation):")
                for at, text in said:
                    print(f"  {at - started:6.2f} s  {text[:150]}")
                page.close()
            browser.close()
        httpd.shutdown()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"load average after: {load_average()}")


def report(label: str, wall: float, probe: dict, page: dict, worker: dict, top: int) -> None:
    shift = worker["origin"] - page["origin"]  # the worker's clock, on the page's

    def at(ms: float) -> str:
        return f"{(ms + shift) / 1000:6.2f} s"

    print(f"\n=== {label}: probe page done in {wall:.1f} s (wall)")
    files = sorted(page["entries"], key=lambda e: e["start"])
    kb = sum(e["size"] for e in files) / 1e3
    last = max(e["end"] for e in files) / 1000
    print(f"page fetched {len(files)} files, {kb:.0f} kB; the last ended at {last:.2f} s")
    print("worker fetched:")
    for entry in sorted(worker["entries"], key=lambda e: e["start"]):
        print(f"  {at(entry['start'])} → {at(entry['end'])}  {entry['size'] / 1e3:8.0f} kB  {short(entry['name'])}")
    phases = worker.get("phases")
    if phases:
        last = phases["start"]
        print(f"kernel worker starts:              {at(last)}")
        for name, what in (("pyodide", "Pyodide started (wasm, stdlib)"), ("packages", "preloaded packages loaded"),
                           ("runtime", "runtime ready"), ("piplite", "piplite set up"),
                           ("kernel", "import pyodide_kernel"), ("globals", "kernel's globals")):
            if name in phases:
                print(f"  {what:32} {at(phases[name])}  (+{(phases[name] - last) / 1000:.2f} s)")
                last = phases[name]
    print(f"first cell runs (kernel up):      {at(probe['first_cell'])}")
    print(f"loadPackage(escoba-tutor):         {at(probe['load_start'])} → {at(probe['load_end'])} "
          f"({(probe['load_end'] - probe['load_start']) / 1000:.2f} s)")
    print(f"import widgets.page:               {(probe['import_end'] - probe['import_start']) / 1000:.2f} s")
    print(f"catalogs (Translator('es')):       {(probe['catalogs_end'] - probe['catalogs_start']) / 1000:.2f} s")
    print(f"show_capture_table built:          {(probe['widget_built'] - probe['catalogs_end']) / 1000:.2f} s")
    for title, rows in (("the kernel's start (import pyodide_kernel)", probe.get("boot_imports") or []),
                        ("the lesson's first cell", probe["imports"])):
        if rows:
            imports(title, rows, top)


def imports(title: str, rows: list, top: int) -> None:
    print(f"imports of {title}: {len(rows)} modules; by cumulative time (ms, own | cumulative):")
    for name, own, total, depth in sorted(rows, key=lambda r: -r[2])[:top]:
        print(f"  {own:8.1f} | {total:8.1f}  {'  ' * depth}{name}")
    print("by own time:")
    for name, own, total, _depth in sorted(rows, key=lambda r: -r[1])[:top]:
        print(f"  {own:8.1f} | {total:8.1f}  {name}")
    tops: dict[str, float] = {}
    for name, own, _total, _depth in rows:
        tops[name.split(".")[0]] = tops.get(name.split(".")[0], 0.0) + own
    print("own time per top-level package: " + ", ".join(
        f"{name} {ms:.0f}" for name, ms in sorted(tops.items(), key=lambda kv: -kv[1])[:12]))


if __name__ == "__main__":
    main()
