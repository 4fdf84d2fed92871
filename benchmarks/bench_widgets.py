"""Speed of the CaptureTable page against a bare one-widget page, in real Voilà and headless Chromium.

    python benchmarks/bench_widgets.py [--reps 5] [--clicks 30] [--nodelay] [--control]

One Voilà server per notebook and Debian's Chromium (never Playwright's download, which needs the internet).
After one discarded warm-up load per server, each repetition opens every notebook once (who goes first rotates)
and alternates their clicks:

- time to first widget: from the navigation's start to the widget in view (the bare page's button; the
  CaptureTable's cards), read in the page (``performance.now()``);
- click -> update: a real mouse click (Playwright) to the DOM showing the update (the label's new count, which
  comes with the kernel's answer; the capture table's status line and highlighted cards, which the browser draws
  at once from the chosen row, before the kernel's answer, which then says the same), timed in the page from
  the click event to the mutation; beside it, for information, the time until the kernel's answer (its first
  widget message after the click) has reached the page;
- kernel RSS: VmRSS of the page's kernel (the ipykernel child of that Voilà process) once the page has settled.

Targets: first widget <= 1.2x bare, click p95 <= 1.1x bare, kernel RSS <= 1.3x bare.

On both pages one click is answered by one widget message from the kernel (the bare label's new text; the
capture table's status line, the same text the browser already shows; the choice is not echoed back). The
profile at the end, in a fresh interpreter, lists the messages one click is answered with, and the import and
build cost. ``--control`` adds a third page, a bare button that updates four
labels (four messages per answer, as the capture table once sent), to show what each extra message costs;
``--nodelay`` runs every server with TCP_NODELAY on its websockets (Nagle's algorithm off). The load average is
printed at the start and the end: figures taken while other work loads the machine are noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _voila_bench import Server, free_port, new_kernel, rss_mib, write_notebook  # noqa: E402 - the shared server helpers, beside this file

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]

NOTEBOOKS = {
    "bare": ["""
import ipywidgets as w
button, label = w.Button(description="Pulsar"), w.Label("0")
button.on_click(lambda _b: setattr(label, "value", str(int(label.value) + 1)))
w.VBox([button, label])
"""],
    "widget": ["""
from escoba_tutor.widgets import CaptureTable
CaptureTable(table="1o 4b 7o", hand="3c 5e 12b")
"""],
    # control (--control), not a target: the bare button updating four labels, so its answer is four messages, as
    # the capture table's once was (the echo of the chosen row, two card rows' highlights, the status line)
    "bare4": ["""
import ipywidgets as w
button, labels = w.Button(description="Pulsar"), [w.Label("0") for _ in range(4)]
def clicked(_b):
    for label in labels:
        label.value = str(int(label.value) + 1)
button.on_click(clicked)
w.VBox([button, *labels])
"""],
}
NAMES = {"bare": "bare", "widget": "CaptureTable", "bare4": "bare, 4 labels"}
# What "the first widget is in view" means on each page.
FIRST = {"bare": ".jupyter-button", "bare4": ".jupyter-button",
         "widget": "[role=group][aria-label=Mesa] button[data-code]"}
# The capture table's rows clicked in turn (each click changes the highlighted cards and the status line).
ROWS = ["12b:1o+4b", "3c:1o+7o+4b"]
TARGETS = {"first": 1.2, "click": 1.1, "rss": 1.3}


# ------------------------------------------------------------------------------------------------- servers
# ``--nodelay``: Voilà with TCP_NODELAY on its websockets (Tornado leaves Nagle's algorithm on), to show how much of
# a click's time is Nagle's algorithm holding back the second and later messages of one answer.
NODELAY_VOILA = """
import sys
import tornado.websocket as ws
write = ws.WebSocketProtocol13.write_message
def write_message(self, message, binary=False):
    if not getattr(self, "_bench_nodelay", False):
        self.set_nodelay(True)
        self._bench_nodelay = True
    return write(self, message, binary)
ws.WebSocketProtocol13.write_message = write_message
from voila.app import main
sys.argv[0] = "voila"
sys.exit(main())
"""


def voila(notebook: Path, nodelay: bool = False) -> Server:
    """Plain Voilà serving one notebook (not yet waited for). Culling removes the kernels of the pages already
    measured (Voilà refuses the close-tab beacon)."""
    port = free_port()
    found = shutil.which("voila")
    command = [sys.executable, "-c", NODELAY_VOILA] if nodelay else [found] if found else [sys.executable, "-m",
                                                                                           "voila"]
    return Server([*command, str(notebook), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
                   "--MappingKernelManager.cull_idle_timeout=20", "--MappingKernelManager.cull_interval=10"],
                  port, notebook.parent / f"{notebook.stem}.log", notebook.parent)


# --------------------------------------------------------------------------------------------------- pages
# Arms one measurement: the capture-phase click listener notes the click, a MutationObserver notes the first DOM
# state where ``done()`` holds; window.__result resolves to the milliseconds between them.
ARM = """(doneSource) => {
  const done = new Function("return (" + doneSource + ")")();
  window.__start = null;
  window.__result = new Promise((resolve) => {
    let start = null;
    document.addEventListener("click", () => { start = window.__start = performance.now(); },
                              { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (start !== null && done()) { observer.disconnect(); resolve(performance.now() - start); }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    setTimeout(() => { observer.disconnect(); resolve(-1); }, 10000);
  });
}"""

# Notes when each widget message from the kernel reaches the page (the websocket's frames, text or binary), so a
# click's time until the kernel's answer is in can be read beside its time until the page shows the update.
WATCH_ANSWERS = """(() => {
  window.__answers = [];
  const decoder = new TextDecoder();
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Native(...args);
    socket.addEventListener("message", (event) => {
      const at = performance.now();
      const data = typeof event.data === "string" ? event.data
        : event.data instanceof ArrayBuffer ? decoder.decode(event.data) : "";
      if (data.includes('"comm_msg"')) window.__answers.push(at);
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, Native);
})();"""
ANSWER = """() => { const at = window.__answers.find((t) => t >= window.__start);
  return at === undefined ? null : at - window.__start; }"""

FIRST_IN_VIEW = """(selector) => [...document.querySelectorAll(selector)].some(
  (el) => el.offsetParent !== null && el.getBoundingClientRect().height > 0) && performance.now()"""


class Page:
    """One notebook open in its own browser context (so its own kernel)."""

    def __init__(self, browser, server: Server, kind: str):
        self.kind, self.server = kind, server
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.add_init_script(WATCH_ANSWERS)
        self.page = self.context.new_page()
        self.page.set_default_timeout(60_000)
        before = set(server.kernels())
        self.page.goto(server.url, wait_until="commit")
        self.first_ms = self.page.wait_for_function(FIRST_IN_VIEW, arg=FIRST[kind], polling=16).json_value()
        self.clicks = 0
        self.kernel = new_kernel(server, before, f"the {kind} page", timeout=20)

    def rss(self) -> float:
        time.sleep(1.5)  # let the kernel finish its start-up work (comm messages, garbage)
        return rss_mib(self.kernel)

    def click(self) -> tuple[float, float]:
        """One click: the time until the page shows the update, and until the kernel's answer is in (ms)."""
        if self.kind in ("bare", "bare4"):
            expected = json.dumps(str(self.clicks + 1))
            done = (f"() => [...document.querySelectorAll('.widget-label')].every((l) => l.textContent === {expected})")
            target = self.page.locator(".jupyter-button")
        else:
            row_id = ROWS[self.clicks % len(ROWS)]
            taken = len(row_id.split(":")[1].split("+"))
            row = f"tr[data-id={json.dumps(row_id)}]"
            done = (f"() => {{ const row = document.querySelector({json.dumps(row)});"
                    " const status = document.querySelector('.et-live');"
                    " const table = document.querySelector('[role=group][aria-label=Mesa]');"
                    " return status.textContent === row.getAttribute('aria-label')"
                    f" && table.querySelectorAll('.is-hl').length === {taken}; }}")
            target = self.page.locator(row)
        self.page.evaluate(ARM, done)
        target.click()
        ms = self.page.evaluate("window.__result")
        if ms < 0:
            raise RuntimeError(f"the {self.kind} page did not update after a click")
        answer = self.page.wait_for_function(ANSWER, polling=5, timeout=10_000).json_value()
        self.clicks += 1
        return ms, answer

    def close(self) -> None:
        self.page.goto("about:blank")
        self.context.close()


# ------------------------------------------------------------------------------------------------- profile
PROFILE = r"""
import json, sys, time
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
t0 = time.perf_counter(); import ipykernel.ipkernel, ipywidgets; t1 = time.perf_counter(); r1 = rss()
from escoba_tutor.widgets.capture_table import CaptureTable; t2 = time.perf_counter(); r2 = rss()
CaptureTable(table="1o 4b 7o", hand="3c 5e 12b"); t3 = time.perf_counter(); r3 = rss()
print(json.dumps({"base_s": t1 - t0, "import_s": t2 - t1, "build_s": t3 - t2, "base_mib": r1,
                  "import_mib": r2 - r1, "build_mib": r3 - r2,
                  "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""

# The messages the kernel sends in answer to one click, and the handler's time. Run without ipykernel imported:
# then a widget outside a kernel still calls Widget._send, which is replaced here by a recorder.
MESSAGES = r"""
import json, time
import ipywidgets as w
from escoba_tutor.widgets.capture_table import CaptureTable
sent = []
w.Widget._send = lambda self, msg, buffers=None: sent.append(
    f"{type(self).__name__}.{msg['method']}({','.join(msg.get('state', {}))})")
def clicked(widget, data):
    sent.clear()
    widget._handle_msg({"content": {"data": data}, "buffers": []})
    return list(sent)
table = CaptureTable(table="1o 4b 7o", hand="3c 5e 12b")
def row(row_id):
    return clicked(table._picker, {"method": "update", "state": {"selected": row_id}, "buffer_paths": []})
button, label = w.Button(), w.Label("0")
button.on_click(lambda _b: setattr(label, "value", str(int(label.value) + 1)))
bare = clicked(button, {"method": "custom", "content": {"event": "click"}})
answer = row("12b:1o+4b")
t0 = time.perf_counter()
for n in range(40):
    row(["3c:1o+7o+4b", "12b:1o+4b"][n % 2])
print(json.dumps({"row_msgs": answer, "bare_msgs": bare, "handler_ms": (time.perf_counter() - t0) / 40 * 1000}))
"""


def profile() -> dict:
    before = json.loads(subprocess.run([sys.executable, "-c", "import sys, json; print(json.dumps("
                                        "sorted({m.split('.')[0] for m in sys.modules})))"],
                                       capture_output=True, text=True, check=True).stdout)
    base = subprocess.run([sys.executable, "-c", "import sys, json, ipykernel.ipkernel, ipywidgets; print(json.dumps("
                           "sorted({m.split('.')[0] for m in sys.modules})))"],
                          capture_output=True, text=True, check=True).stdout
    result = json.loads(subprocess.run([sys.executable, "-c", PROFILE], capture_output=True, text=True,
                                       check=True).stdout)
    result.update(json.loads(subprocess.run([sys.executable, "-c", MESSAGES], capture_output=True, text=True,
                                            check=True).stdout))
    result["added"] = sorted(set(result.pop("modules")) - set(json.loads(base)) - set(before))
    timing = subprocess.run([sys.executable, "-X", "importtime", "-c",
                             "import ipykernel.ipkernel, ipywidgets; import escoba_tutor.widgets.capture_table"],
                            capture_output=True, text=True, check=True).stderr
    rows = []
    for line in timing.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            if name.strip().split(".")[0] in ("escoba_tutor", "anywidget", "babel", "psygnal"):
                rows.append((int(parts[1]), name))
    result["slowest"] = sorted(rows, reverse=True)[:8]
    return result


# ---------------------------------------------------------------------------------------------------- main
def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions (each loads both pages once)")
    parser.add_argument("--clicks", type=int, default=30, help="clicks per page per repetition")
    parser.add_argument("--nodelay", action="store_true",
                        help="diagnosis: both servers set TCP_NODELAY on their websockets (Nagle's algorithm off)")
    parser.add_argument("--control", action="store_true",
                        help="also measure a bare button that updates four labels (four messages per answer)")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"needs Debian's Chromium at {CHROMIUM}: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    folder = Path(tempfile.mkdtemp(prefix="bench-widgets-"))
    servers = {}
    for kind, cells in NOTEBOOKS.items():
        if kind == "bare4" and not args.control:
            continue
        write_notebook(folder / f"{kind}.ipynb", *cells)
        servers[kind] = voila(folder / f"{kind}.ipynb", nodelay=args.nodelay)
    kinds = list(servers)
    first, rss, clicks, click_p95, answers = ({k: [] for k in kinds} for _ in range(5))
    started = time.monotonic()
    try:
        for server in servers.values():
            server.wait()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            for kind, server in servers.items():  # warm-up: first kernel, templates, the OS file cache
                Page(browser, server, kind).close()
            for rep in range(args.reps):
                order = kinds[rep % len(kinds):] + kinds[:rep % len(kinds)]  # who goes first rotates
                pages = {}
                for kind in order:
                    pages[kind] = Page(browser, servers[kind], kind)
                    first[kind].append(pages[kind].first_ms / 1000)
                    rss[kind].append(pages[kind].rss())
                this_rep = {k: [] for k in kinds}
                for _ in range(args.clicks):  # the pages' clicks alternate
                    for kind in order:
                        update_ms, answer_ms = pages[kind].click()
                        this_rep[kind].append(update_ms)
                        answers[kind].append(answer_ms)
                for kind in order:
                    clicks[kind] += this_rep[kind]
                    click_p95[kind].append(p95(this_rep[kind]))
                    pages[kind].close()
                print(f"rep {rep + 1}/{args.reps} (first: {NAMES[order[0]]}): "
                      + "; ".join(f"{NAMES[k]}: first {first[k][-1]:.2f} s, click p95 {click_p95[k][-1]:.0f} ms, "
                                  f"RSS {rss[k][-1]:.1f} MiB" for k in kinds), flush=True)
            browser.close()
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    elapsed = time.monotonic() - started

    median = statistics.median
    rows = [  # (what, {kind: value}, target, format)
        ("time to first widget, median (s)", {k: median(first[k]) for k in kinds}, "first", "{:.2f}"),
        ("click -> update p95, all clicks (ms)", {k: p95(clicks[k]) for k in kinds}, "click", "{:.1f}"),
        ("click -> update p95, median of reps (ms)", {k: median(click_p95[k]) for k in kinds}, None, "{:.1f}"),
        ("click -> update median (ms)", {k: median(clicks[k]) for k in kinds}, None, "{:.1f}"),
        ("click -> kernel's answer in the page, p95 (ms)", {k: p95(answers[k]) for k in kinds}, None, "{:.1f}"),
        ("click -> kernel's answer in the page, median", {k: median(answers[k]) for k in kinds}, None, "{:.1f}"),
        ("kernel RSS after load, median (MiB)", {k: median(rss[k]) for k in kinds}, "rss", "{:.1f}"),
    ]
    print()
    print(f"escoba-tutor widgets vs a bare ipywidgets page: {args.reps} repetitions, {args.clicks} clicks per page "
          f"each ({len(clicks['bare'])} per page in all), {elapsed:.0f} s"
          + (", TCP_NODELAY on the websockets" if args.nodelay else ""))
    print(f"load average (1, 5, 15 min): {' '.join(f'{v:.2f}' for v in load_before)} at the start, "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())} at the end, on {os.cpu_count()} cores")
    control = "bare4" in kinds
    print(f"{'':48}{'bare':>8}{'CaptureTable':>14}{'ratio':>8}{'target':>9}  {'result':8}"
          + (f"{'bare, 4 labels':>16}" if control else ""))
    missed = []
    for name, value, target, fmt in rows:
        ratio = value["widget"] / value["bare"]
        verdict, limit = "", ""
        if target:
            limit = f"<= {TARGETS[target]}x"
            verdict = "met" if ratio <= TARGETS[target] else "MISSED"
            if verdict == "MISSED":
                missed.append(name)
        print(f"{name:48}{fmt.format(value['bare']):>8}{fmt.format(value['widget']):>14}{ratio:>7.2f}x{limit:>9}"
              f"  {verdict:8}" + (f"{fmt.format(value['bare4']):>16}" if control else ""))
    print()
    for label, values, fmt in (("first widget (s)", first, "{:.2f}"), ("kernel RSS (MiB)", rss, "{:.1f}"),
                               ("click p95 per rep (ms)", click_p95, "{:.0f}")):
        print(f"raw {label}: " + "; ".join(f"{NAMES[k]} " + " ".join(fmt.format(v) for v in values[k])
                                          for k in kinds))

    info = profile()
    print()
    print("profile (a fresh interpreter, after importing ipykernel and ipywidgets as any kernel does, "
          f"{info['base_s'] * 1000:.0f} ms / {info['base_mib']:.1f} MiB):")
    print(f"  import escoba_tutor.widgets.capture_table: {info['import_s'] * 1000:.0f} ms, "
          f"+{info['import_mib']:.1f} MiB")
    print(f"  CaptureTable(table='1o 4b 7o', hand='3c 5e 12b'): {info['build_s'] * 1000:.0f} ms, "
          f"+{info['build_mib']:.1f} MiB")
    print(f"  top-level packages it adds: {', '.join(info['added'])}")
    print("  slowest imports (cumulative us): "
          + ", ".join(f"{name.strip()} {us}" for us, name in info["slowest"]))
    print(f"  one click on a row of captures: the kernel's handler takes {info['handler_ms']:.1f} ms and answers "
          f"with {len(info['row_msgs'])} messages: {', '.join(info['row_msgs'])}")
    print(f"  one click on the bare button: {len(info['bare_msgs'])} message: {', '.join(info['bare_msgs'])}")
    if not args.nodelay:
        print("  (with Nagle's algorithm on the websocket, each message after the first of an answer waits for the "
              "browser's delayed ACK of the one before; compare a run with --nodelay)")
    if missed:
        print()
        print("missed:", "; ".join(missed))


if __name__ == "__main__":
    main()
