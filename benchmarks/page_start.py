"""What one page's start costs, three ways: a kernel started for the page, a kernel from the server's pool, and
Voilà's own preheated kernels.

    nice -n 10 python benchmarks/page_start.py [--pages 6]

Each way gets a fresh server; the pool (``--class-size``) and Voilà's preheated kernels are filled first, then
``--pages`` pages of the play lesson are opened one after the other at protocol level (``_voila_bench.PageClient``:
the page, its kernel's websocket and every widget's state), a few seconds apart. Printed per way: the wall time to
a usable page (median and slowest) and the CPU seconds the server and its kernels used for it (the process tree's,
from the GET to the usable page: the start that each student's arrival costs the machine), and the idle memory of
the server with its waiting kernels.

- ``fresh``: ``escoba-tutor --class-size 0``: every page starts its own kernel (Python, ipykernel, the widgets and
  the course imported) and runs its lesson.
- ``pool``: ``escoba-tutor --class-size N``: a page takes a ready kernel (the course imported), gives it its
  environment and runs its lesson.
- ``voila-preheat``: plain Voilà on the play notebook with ``--preheat_kernel=True --pool_size=N``: its kernels have
  run the notebook already, for no particular page; a page takes the rendered result. (Plain Voilà: none of the
  course server's limits, and the page's query and a nickname cannot reach a kernel that ran before the page
  existed unless the notebook waits for them: see docs/classroom.md.)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _voila_bench import ROOT, PageClient, Server, free_port, load_average, tutor_server

PAGE = "voila/render/es/play.ipynb"


def voila_preheated(folder: Path, pool: int) -> Server:
    port = free_port()
    notebook = ROOT / "lessons" / "es" / "play.ipynb"
    command = [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1", "--preheat_kernel=True", f"--pool_size={pool}"]
    return Server(command, port, folder / f"voila-{port}.log", cwd=notebook.parent)


async def measure(way: str, pages: int, folder: Path) -> dict:
    if way == "voila-preheat":
        server, path = voila_preheated(folder, pages), ""
    else:
        server = tutor_server(folder, "--no-class-board", "--class-size", str(pages if way == "pool" else 0))
        path = PAGE
    try:
        server.wait()
        deadline = time.monotonic() + 300
        wanted = pages if way != "fresh" else 0
        while len(server.kernels()) < wanted or (way == "pool" and "kernels ready" not in server.log_tail(10**7)):
            assert time.monotonic() < deadline, server.log_tail()
            await asyncio.sleep(0.5)
        await asyncio.sleep(8)  # the waiting kernels have done their work (Voilà's: rendered the notebook)
        idle = server.tree_rss_mib()
        walls, cpus = [], []
        for _ in range(pages):
            before, start = server.tree_cpu_s(), time.monotonic()
            page = PageClient(server.url, path)
            await page.open()
            walls.append(time.monotonic() - start)
            cpus.append(server.tree_cpu_s() - before)
            await page.close()
            await asyncio.sleep(3)
        return {"way": way, "wall_p50": statistics.median(walls), "wall_max": max(walls),
                "cpu_p50": statistics.median(cpus), "cpu_max": max(cpus), "idle_mib": idle,
                "load": load_average()}
    finally:
        server.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=6, help="pages opened one after the other (default 6)")
    parser.add_argument("--ways", default="fresh,pool,voila-preheat")
    args = parser.parse_args()
    print(f"load average {load_average()} before", flush=True)
    with tempfile.TemporaryDirectory(prefix="page-start-") as folder:
        for way in args.ways.split(","):
            r = await measure(way, args.pages, Path(folder))
            print(f"{r['way']:>14}: usable page {r['wall_p50']:.2f} s median, {r['wall_max']:.2f} s slowest; "
                  f"CPU {r['cpu_p50']:.2f} s median, {r['cpu_max']:.2f} s most per page; idle with its waiting "
                  f"kernels {r['idle_mib']:.0f} MiB (load average {r['load']})", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
