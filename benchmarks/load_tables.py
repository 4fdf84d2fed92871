"""A class at its tables, through the real pages: 15 tables of two on one course server, each student's page a real
Voilà page with its kernel, driven at the protocol level (as benchmarks/load_class.py drives lesson pages).

    nice -n 10 python benchmarks/load_tables.py [--students 30] [--active 90] [--think 1 4]

Two classes of ``--students`` on two fresh servers, one after the other, each with its class database (SQLite):
1. **the lessons**: the class on its lesson pages, a click every 3 s each (load_class.py's students: the play page
   against the computer and the captures lesson), the board on and every student with a nickname;
2. **the tables**: the same number of students, each on the tables page alone (``<lang>/tables.ipynb``, Spanish
   and English in turn); the even-numbered student opens a table of two, the next one types its code and sits;
   then on their turn each thinks for ``--think`` seconds (1 to 4), chooses a play in the list of every legal play
   and presses "Play".
Printed for the tables: the tables playing, the plays made; play -> seen on the other page (from the click's message
sent to the moment the other page's kernel sent the new table to it: the other player's page draws it from that
message) p50 / p95 / max, target p95 <= 500 ms; play -> the server's answer drawn on the player's own page (which
shows the play at once, and marks itself busy until then); the students' clicks (choosing and "Play", each until
its kernel's whole answer) p50 / p95 against the lesson class's clicks, and their ratio (target: within 10 %);
the memory of the server and its kernels at the peak, per student above the idle server (target <= 90 MiB);
errors. The load average is printed beside each class: these machines are shared.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _voila_bench import (  # noqa: E402
    ROOT,
    PageClient,
    PageError,
    load_average,
    percentile,
    tutor_server,
    widget_outputs,
)
from load_class import PAGES, Student, nickname_cookie, pause, protocol_student  # noqa: E402

TABLE_PAGES = ("voila/render/es/tables.ipynb", "voila/render/en/tables.ipynb")
TABLE_WORDS = ("Mesa", "Table")  # the capture table's row of the cards on the table
SENDING = "escoba-play-sending"  # the game's mark while a play shown at once waits for the server's answer
CODE = re.compile(r'escoba-code[^>]*>([0-9A-Z]{5})<')
TARGETS = {"seen_p95_ms": 500, "mib_per_student": 90, "click_ratio": 1.10}


class TablePage(PageClient):
    """A tables page that notes when its kernel sent it new table cards (the other player's play arriving)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table_changes: list[float] = []

    def _receive(self, message: dict) -> None:
        content = message.get("content", {})
        data = content.get("data", {}) if isinstance(content, dict) else {}
        model = self.models.get(content.get("comm_id", "")) if isinstance(content, dict) else None
        if (model is not None and data.get("method") == "update" and "cards" in data.get("state", {})
                and model.get("group_label") in TABLE_WORDS and data["state"]["cards"] != model.get("cards")):
            self.table_changes.append(time.monotonic())
        super()._receive(message)

    def with_class(self, name: str) -> list[str]:
        return [m for m, state in self.models.items() if name in state.get("_dom_classes", ())]

    def one_with_class(self, name: str) -> str:
        found = self.with_class(name)
        if not found:
            raise PageError(f"{self.path}: no widget of class {name}")
        return found[0]


@dataclass
class TableRun:
    plays: list[tuple[float, int]] = field(default_factory=list)  # (when the Play message was sent, the player)
    clicks: list[tuple[str, float]] = field(default_factory=list)  # ("choose a capture" or "play", seconds)
    confirmed: list[float] = field(default_factory=list)  # Play -> the server's answer drawn on the page, seconds
    usable: list[float] = field(default_factory=list)
    playing: int = 0  # tables whose game started
    errors: list[str] = field(default_factory=list)
    pages: dict[int, TablePage] = field(default_factory=dict)
    turns: dict[int, int] = field(default_factory=dict)  # student -> turns played


async def table_student(number: int, base: str, start: float, arrive_at: float, stop: asyncio.Event,
                        run: TableRun, codes: dict[int, asyncio.Future], think: tuple[float, float],
                        entry_timeout: float) -> None:
    rng = random.Random(3000 + number)
    await asyncio.sleep(max(0.0, start + arrive_at - time.monotonic()))
    path = TABLE_PAGES[number % len(TABLE_PAGES)]
    page = TablePage(base, path, views=widget_outputs(ROOT / "lessons" / path.split("render/")[1]),
                     cookies=nickname_cookie(Student(number, path, False, arrive_at)))
    run.pages[number] = page
    pair = number // 2
    try:
        times = await asyncio.wait_for(page.open(), entry_timeout)
        run.usable.append(times["usable_s"])
        if number % 2 == 0:  # opens the table, and gives its code to the next student
            await page.click(page.one_with_class("escoba-tables-open"))
            found = None
            while found is None and not stop.is_set():
                found = next((CODE.search(s["value"]) for s in page.models.values()
                              if isinstance(s.get("value"), str) and CODE.search(s["value"])), None)
                if found is None:
                    await pause(stop, 0.2)
            if found is None:
                return
            codes[pair].set_result(found.group(1))
        else:
            code = await asyncio.wait_for(asyncio.shield(codes[pair]), entry_timeout)
            box = next(m for m, s in page.models.items() if s.get("_model_name") == "TextModel")
            await page.update(box, {"value": code})
            await page.click(page.one_with_class("escoba-tables-join"))
        game, play = page.one_with_class("escoba-game-table"), page.one_with_class("escoba-play")
        picker = next(m for m, s in page.models.items() if "rows" in s and "headers" in s)
        began = False
        while not stop.is_set():
            mine = ("escoba-not-my-turn" not in page.models[game].get("_dom_classes", ())
                    and not page.models[play].get("disabled"))
            rows = page.models[picker].get("rows") or []
            if not mine or not rows:
                await pause(stop, 0.05)
                continue
            if not began and number % 2 == 0:
                run.playing += 1
            began = True
            run.turns[number] = run.turns.get(number, 0) + 1
            await pause(stop, rng.uniform(*think))
            if stop.is_set():
                break
            run.clicks.append(("choose a capture", await page.update(picker, {"selected": rng.choice(rows)["id"]})))
            sent = time.monotonic()
            run.plays.append((sent, number))
            run.clicks.append(("play", await page.click(play)))
            # the page shows the play at once; the server's answer follows (its view drawn, the busy mark gone)
            while SENDING in page.models[game].get("_dom_classes", ()) and not stop.is_set():
                await asyncio.sleep(0.005)
            run.confirmed.append(time.monotonic() - sent)
            if page.errors:
                break
    except asyncio.TimeoutError:
        run.errors.append(f"student {number}: the tables page was not usable, or no code came, in time")
    except (PageError, OSError, StopIteration) as error:
        run.errors.append(f"student {number}: {error!r}"[:200])
    finally:
        run.errors += [f"student {number}: {e}"[:200] for e in page.errors]
        await page.close()


def _last_words(page: TablePage | None) -> list[str]:
    """The status lines a page shows (its live regions' messages), to say why a table did not play."""
    if page is None:
        return ["(no page)"]
    return [state["message"][:120] for state in page.models.values()
            if isinstance(state.get("message"), str) and state["message"]]


async def lesson_class(n: int, args, folder: Path) -> dict:
    """The class on its lesson pages, as load_class.py --board runs it: the clicks to compare with."""
    server = tutor_server(folder, "--cull-idle", "5", "--class-db", str(folder / "lessons.sqlite3"))
    try:
        server.wait()
        await asyncio.sleep(3)
        stop, start = asyncio.Event(), time.monotonic()
        students = [Student(i, PAGES[i % len(PAGES)], False, args.arrival * i / max(1, n - 1)) for i in range(n)]
        tasks = [asyncio.ensure_future(protocol_student(s, server.url, start, stop, 3.0, args.entry_timeout,
                                                        seed=1000 * n + s.number, nickname=True))
                 for s in students]
        while time.monotonic() - start < args.arrival + args.entry_timeout:
            if all(s.usable_s is not None or s.errors for s in students):
                break
            await asyncio.sleep(0.5)
        active_from = time.monotonic() - start
        await asyncio.sleep(args.active)
        active_to = time.monotonic() - start
        load = load_average()
        stop.set()
        await asyncio.gather(*tasks)
    finally:
        server.stop()
    clicks = [(what, s * 1000) for st in students for when, s, what in st.clicks if active_from <= when <= active_to]
    return {"clicks": clicks, "load": load, "in": sum(s.usable_s is not None for s in students),
            "errors": [f"student {s.number}: {e}"[:200] for s in students for e in s.errors]}


async def tables_class(n: int, args, folder: Path) -> dict:
    server = tutor_server(folder, "--cull-idle", "5", "--class-db", str(folder / "tables.sqlite3"))
    run = TableRun()
    try:
        server.wait()
        await asyncio.sleep(3)
        idle = server.tree_rss_mib()
        stop, start = asyncio.Event(), time.monotonic()
        codes = {pair: asyncio.get_running_loop().create_future() for pair in range(n // 2)}
        tasks = [asyncio.ensure_future(table_student(i, server.url, start, args.arrival * i / max(1, n - 1), stop,
                                                     run, codes, tuple(args.think), args.entry_timeout))
                 for i in range(n)]
        peak = idle

        async def sample() -> None:
            nonlocal peak
            while not stop.is_set():
                peak = max(peak, server.tree_rss_mib())
                await pause(stop, 2)

        sampler = asyncio.ensure_future(sample())
        while time.monotonic() - start < args.arrival + args.entry_timeout and run.playing < n // 2:
            if len(run.errors) >= n:
                break
            await asyncio.sleep(0.5)
        in_s = time.monotonic() - start
        clicks_from = len(run.clicks)
        plays_from = time.monotonic()
        await asyncio.sleep(args.active)
        load = load_average()
        stop.set()
        await asyncio.gather(*tasks)
        await sampler
        log = server.log_tail(10_000_000)
    finally:
        server.stop()
    seen = []
    missed = 0
    for sent, player in run.plays:
        if sent < plays_from:
            continue
        other = run.pages.get(player ^ 1)
        later = [t for t in (other.table_changes if other else []) if t >= sent]
        if later:
            seen.append((later[0] - sent) * 1000)
        else:
            missed += 1
    errors = list(run.errors)
    for pair in range(n // 2):  # a table where a player never had a turn: what both pages said last
        without_turn = [number for number in (2 * pair, 2 * pair + 1) if not run.turns.get(number)]
        if without_turn:
            said = {number: _last_words(run.pages.get(number)) for number in (2 * pair, 2 * pair + 1)}
            errors.append(f"table {pair}: student(s) {without_turn} never had a turn; the pages said {said}"[:600])
    if args.logs:
        args.logs.mkdir(parents=True, exist_ok=True)
        (args.logs / "tables-server.log").write_text(log)
    if log.count("Traceback"):
        errors.append(f"server log: {log.count('Traceback')} traceback(s)")
    return {"playing": run.playing, "in_s": in_s, "plays": len(seen) + missed, "missed": missed, "seen": seen,
            "clicks": [(what, c * 1000) for what, c in run.clicks[clicks_from:]], "usable": run.usable,
            "confirmed": [c * 1000 for (sent, _p), c in zip(run.plays, run.confirmed) if sent >= plays_from],
            "idle_mib": idle, "peak_mib": peak, "load": load, "errors": errors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30, help="students in each class, an even number (30)")
    parser.add_argument("--active", type=float, default=90, help="seconds of play once all are in (90)")
    parser.add_argument("--arrival", type=float, default=10, help="seconds over which students arrive (10)")
    parser.add_argument("--think", type=float, nargs=2, default=(1.0, 4.0), help="seconds a player thinks (1 4)")
    parser.add_argument("--entry-timeout", type=float, default=180, help="seconds a student may wait to get in")
    parser.add_argument("--logs", type=Path, help="keep the tables' server log in this folder")
    args = parser.parse_args()
    n = args.students - args.students % 2
    commit = subprocess.run(["git", "log", "-1", "--oneline"], cwd=ROOT, capture_output=True, text=True).stdout
    print(f"tree: {commit.strip()}; {time.strftime('%Y-%m-%d %H:%M')}; load average {load_average()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="load-tables-") as folder:
        lessons = asyncio.run(lesson_class(n, args, Path(folder)))
        print(f"the lessons: {lessons['in']}/{n} in; {len(lessons['clicks'])} clicks; errors "
              f"{len(lessons['errors'])} (load {lessons['load']})" + "".join(f"\n  {e}" for e in lessons["errors"][:5]),
              flush=True)
        tables = asyncio.run(tables_class(n, args, Path(folder)))
    seen = tables["seen"]
    per_student = (tables["peak_mib"] - tables["idle_mib"]) / n
    print(f"the tables: {tables['playing']}/{n // 2} tables playing {tables['in_s']:.0f} s after the first student "
          f"arrived; pages usable p50 {percentile(tables['usable'], 50):.1f} s, p95 "
          f"{percentile(tables['usable'], 95):.1f} s")
    print(f"  {tables['plays']} plays in {args.active:.0f} s; play -> seen on the other page: p50 "
          f"{percentile(seen, 50):.0f} ms, p95 {percentile(seen, 95):.0f} ms, max "
          f"{max(seen, default=float('nan')):.0f} ms (target p95 <= {TARGETS['seen_p95_ms']} ms); "
          f"never seen: {tables['missed']}")
    confirmed = tables["confirmed"]
    print(f"  Play -> the server's answer drawn on the player's own page (it shows the play at once): p50 "
          f"{percentile(confirmed, 50):.0f} ms, p95 {percentile(confirmed, 95):.0f} ms")
    # like with like: choosing in the list of captures is the same widget on both pages; "Play" at a table stores
    # the play and draws the table, against the computer it also draws the computer's answer
    for title, kinds in (("all clicks", None), ("choosing a capture", {"choose a capture"}), ("Play", {"play"})):
        at_tables = [ms for what, ms in tables["clicks"] if kinds is None or what in kinds]
        in_lessons = [ms for what, ms in lessons["clicks"] if kinds is None or what in kinds]
        p50, p95 = percentile(at_tables, 50), percentile(at_tables, 95)
        l50, l95 = percentile(in_lessons, 50), percentile(in_lessons, 95)
        print(f"  {title}: at the tables {len(at_tables)}, p50 {p50:.0f} / p95 {p95:.0f} ms; in the lessons "
              f"{len(in_lessons)}, p50 {l50:.0f} / p95 {l95:.0f} ms; ratio p50 {p50 / l50:.2f}, p95 {p95 / l95:.2f}")
    print(f"  server + kernels memory: idle {tables['idle_mib']:.0f} MiB, peak {tables['peak_mib']:.0f} MiB: "
          f"{per_student:.0f} MiB per student (target <= {TARGETS['mib_per_student']})")
    print(f"  errors: {len(tables['errors'])}" + "".join(f"\n    {e}" for e in tables["errors"][:10]))
    print(f"  load average at the end of the tables' play: {tables['load']}")


if __name__ == "__main__":
    main()
