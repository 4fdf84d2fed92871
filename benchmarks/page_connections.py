"""How many connections one student's browser holds open to the class server: the figure behind the server's cap
on connections per network address (``connections_per_address``, docs/hostile-input.md).

    nice -n 10 python benchmarks/page_connections.py [--pages 3]

One ``escoba-tutor`` server (the course's lessons) and one headless Chromium (Debian's ``/usr/bin/chromium``):
the browser opens the landing page, then ``--pages`` lessons more, each in a tab of its own, and keeps them all
open. The server's side of every established connection on its port is counted every 20 ms (``ss``): printed are
the most open at once while the pages loaded, and how many stay open once they have (a page's websocket to its
kernel, and the browser's idle connections until the server closes them, ``idle_connection_s``).
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import tempfile
import time
from pathlib import Path

from _voila_bench import CHROMIUM, LAUNCH_ARGS, load_average, tutor_server

LESSONS = ["es/index.ipynb", "es/play.ipynb", "es/02-captures.ipynb", "en/03-escoba.ipynb", "es/06-game.ipynb"]


def open_connections(port: int) -> int:
    """The server's side of the established TCP connections on ``port``."""
    listing = subprocess.run(["ss", "-Htn", "state", "established", f"( sport = :{port} )"], capture_output=True,
                             text=True, check=True).stdout
    return sum(1 for line in listing.splitlines() if line.strip())


async def measure(server, pages: int) -> None:
    from playwright.async_api import async_playwright

    samples: list[tuple[float, int]] = []
    stop = asyncio.Event()

    async def sample() -> None:
        while not stop.is_set():
            samples.append((time.monotonic(), open_connections(server.port)))
            await asyncio.sleep(0.02)

    sampler = asyncio.ensure_future(sample())
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        context = await browser.new_context()
        tabs = []
        for lesson in LESSONS[:pages + 1]:
            tab = await context.new_page()
            await tab.goto(server.url + "voila/render/" + lesson, wait_until="networkidle", timeout=180_000)
            await tab.wait_for_selector(".jupyter-widgets", timeout=180_000)
            tabs.append(tab)
            print(f"  {lesson}: usable; at most {max(n for _t, n in samples)} connections open so far", flush=True)
        loaded = time.monotonic()
        await asyncio.sleep(5)
        settled = samples[-1][1]
        stop.set()
        await sampler
        await browser.close()
    during = max(n for _t, n in samples if _t <= loaded)
    print(f"{len(tabs)} tabs of one browser (the landing page and {pages} lessons): at most {during} connections "
          f"open at once while they loaded, {settled} open 5 s after (load {load_average()})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=3, help=f"lessons after the landing page (at most "
                                                              f"{len(LESSONS) - 1})")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="page-connections-") as folder:
        server = tutor_server(Path(folder), "--no-class-board")
        try:
            server.wait()
            time.sleep(2)
            asyncio.run(measure(server, min(args.pages, len(LESSONS) - 1)))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
