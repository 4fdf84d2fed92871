"""The class board's redraw with a full class: a server's answer to ``class/board.json``, and the browser's redraw.

    nice -n 10 python benchmarks/board_redraw.py [--students 40] [--records 500] [--rounds 40] [--no-browser]

A temporary SQLite database gets a class of ``--students`` students with ``--records`` records each, over the
last two hours: every kind of exercise (right, and wrong with each kind's mistakes), lessons opened, deals and
games against the computer. Then, ``--rounds`` times each, p50 / p95 / max in ms (target p95 ≤ 200 ms on the
server, ≤ 100 ms in the browser), with the CPU time of the server's work (what a busy machine's waits do not
inflate):

1. the server, as BoardDataHandler works (the store's read on its own thread, the ETag, board_view and the live
   part's template):
   - *from scratch*: the class read whole (a store that never read it: the first refresh after a start) and drawn;
   - *after a new record*: one student's answer written, then the board read again (the store adds the new record
     to the class's running totals) and drawn, as every refresh does while the class works;
   - *nothing changed*: the classes and the board read again and the ETag made: what a 304 costs;
2. with Chromium (unless ``--no-browser``): the board page served by a real Tornado server of this process,
   refreshing itself every 0.25 s; each round writes one student's answer and times the page's own redraw of the
   answer (class_board.js from its ``board-redraw`` mark: the markup parsed, what differs changed, the teacher's
   views applied again, and the first layout after it); and, for comparison, the whole live part put in place
   with ``innerHTML`` (how the page redrew itself before it changed only what differs).

The load average is printed beside: on a machine shared with other work the times count the waits for a core.
``fill_class`` is also what the board's tests use for a full class.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from escoba_tutor.exercises.registry import kind, kind_names  # noqa: E402
from escoba_tutor.records import ClassStore  # noqa: E402
from escoba_tutor.records.events import DealFinished, DrillAnswer, GameFinished, LessonOpened  # noqa: E402
from escoba_tutor.records.rows import event_row  # noqa: E402
from escoba_tutor.records.schema import INSERT_RECORD  # noqa: E402

NICKNAMES = ("Ana", "Bea", "Carlos", "Dani", "Elena", "Fer", "Gonzalo", "Héctor", "Inés", "Íñigo", "Javi", "Lucía",
             "Manu", "Nerea", "Óscar", "Paula", "Quique", "Rocío", "Sara", "Teo", "Úrsula", "Vera", "Xabi", "Yaiza",
             "Zoe", "Álvaro", "Berta", "Ciro", "Diana", "Eloy", "Fátima", "Gael", "Hugo", "Irene", "Jorge", "Lola",
             "Mario", "Noa", "Olga", "Pablo", "María José", "Nguyễn Thị Ánh")
LESSONS = ("index", "01-cards", "02-captures", "03-escoba", "04-end-of-deal", "05-scoring", "06-game", "07-variants",
           "08-strategy", "play")


def fill_class(store: ClassStore, students: int = 40, records: int = 500, seed: int = 1,
               now: datetime | None = None, span: timedelta = timedelta(hours=2)) -> list[str]:
    """Give the store's current class ``students`` students with ``records`` records each, spread over ``span``
    before ``now``, in one transaction: every kind of exercise, right and wrong (each student with a skill of their
    own, so the shares differ), lessons opened, deals and games. The nicknames, in the order they arrived."""
    chance = random.Random(seed)
    now = now or datetime.now(timezone.utc)
    names = [NICKNAMES[i] if i < len(NICKNAMES) else f"Alumno {i + 1}" for i in range(students)]
    kinds = kind_names()
    rows = []
    for number, nickname in enumerate(names):
        skill = 0.25 + 0.7 * chance.random()
        start = now - span + timedelta(seconds=number * 5)  # they come in one after another
        step = (now - start).total_seconds() / max(records, 1)
        if number % 3 == 0:  # a third of the class stopped a while ago: not active now
            step *= 0.8
        for i in range(records):
            at = start + timedelta(seconds=i * step)
            roll = chance.random()
            if i % 50 == 0:
                event = LessonOpened(nickname, LESSONS[(i // 50) % len(LESSONS)], "es", at=at)
            elif roll < 0.9:
                name = kinds[chance.randrange(len(kinds))]
                right = chance.random() < skill
                codes = [*kind(name).mistakes, "unanswered"]
                lesson = kind(name).lesson
                event = DrillAnswer(nickname, kind=name, seed=chance.randrange(1, 60), correct=right,
                                    mistake=None if right else chance.choice(codes), lesson=lesson,
                                    rules="scopa" if lesson == "07-variants" and chance.random() < 0.5 else "escoba",
                                    at=at)
            elif roll < 0.96:
                event = DealFinished(nickname, chance.choice(("random", "greedy", "expert")), chance.randrange(99),
                                     chance.randrange(8), chance.randrange(8), chance.randrange(2),
                                     chance.randrange(2), at=at)
            else:
                event = GameFinished(nickname, chance.choice(("random", "greedy", "expert")), chance.randrange(99),
                                     chance.randrange(22), chance.randrange(22), chance.choice((True, False)),
                                     at=at)
            rows.append(event_row(event))
    with store.engine.begin() as connection:
        connection.execute(INSERT_RECORD, rows)
    return names


def _figures(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return f"p50 {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms ({len(times)} runs)"


def _answer(chance: random.Random, names: list[str]) -> DrillAnswer:
    """One student's answer, right or wrong, as the class goes on."""
    name = kind_names()[chance.randrange(len(kind_names()))]
    right = chance.random() < 0.6
    return DrillAnswer(chance.choice(names), kind=name, seed=chance.randrange(1, 60), correct=right,
                       mistake=None if right else chance.choice([*kind(name).mistakes, "unanswered"]),
                       lesson=kind(name).lesson)


def server_times(database: Path, names: list[str], rounds: int) -> dict[str, tuple[list[float], list[float]]]:
    """Each way of answering board.json, ``rounds`` times: its clock times and CPU times in ms."""
    from escoba_tutor.records.board import BoardTally
    from escoba_tutor.server.board_export import lesson_titles
    from escoba_tutor.server.class_board import ACTIVE_MINUTES, _jinja, board_view
    from escoba_tutor.text.translator import Translator

    titles = lesson_titles(ROOT / "lessons", "es")
    template = _jinja.get_template("class_board_live.html.j2")
    chance = random.Random(5)

    def draw(board, classes) -> None:
        now = datetime.now(timezone.utc)
        etag(board, classes, now)
        view = board_view(board, classes, "es", "/", "escoba", titles, now=now)
        template.render(_=Translator("es"), v=view, lang="es", key="k",
                        address=lambda name, **query: f"/class/{name}?key=k")

    def etag(board, classes, now) -> str:  # as BoardMixin.board_etag makes it
        active = tuple(now - s.last_seen <= timedelta(minutes=ACTIVE_MINUTES) for s in board.students)
        return hashlib.blake2b(repr((board.version, tuple((c.id, c.name, c.current) for c in classes), active))
                               .encode(), digest_size=16).hexdigest()

    store = ClassStore.open(database)
    writer = ClassStore.open(database)  # the students' records come from elsewhere (a hub: their own servers)

    def from_scratch() -> None:
        with store.engine.connect() as connection:
            info = store.current_class()
            board = BoardTally.read(connection, info.id).board(info)
        draw(board, store.classes())

    def after_a_record() -> None:
        draw(store.board(), store.classes())

    def unchanged() -> None:
        board = store.board()
        etag(board, store.classes(), datetime.now(timezone.utc))

    figures = {}
    store.board()
    for label, work, before in (("from scratch", from_scratch, None),
                                ("after a new record", after_a_record, lambda: writer.record(_answer(chance, names))),
                                ("nothing changed", unchanged, None)):
        whole, cpu = [], []
        for _round in range(rounds):
            if before is not None:
                before()
            begin, begin_cpu = time.perf_counter(), time.thread_time()
            work()
            whole.append(1000 * (time.perf_counter() - begin))
            cpu.append(1000 * (time.thread_time() - begin_cpu))
        figures[label] = (whole, cpu)
    writer.close()
    store.close()
    return figures


# Installed in the page after its own scripts: the time from class_board.js's «board-redraw» mark to the end of
# the teacher's views' «board:drawn», with the layout forced at once (the browser would do it before painting).
TIMER = """() => {
  window.redraws = [];
  document.getElementById("board-live").addEventListener("board:drawn", () => {
    const mark = performance.getEntriesByName("board-redraw").pop();
    document.body.getBoundingClientRect();
    if (mark) window.redraws.push(performance.now() - mark.startTime);
    performance.clearMarks("board-redraw");
  });
}"""


def browser_times(database: Path, names: list[str], rounds: int) -> tuple[list[float], list[float], int]:
    """The board page from a real Tornado server of this process, in Chromium, refreshing itself; each round one
    student's answer is written and the page's own redraw of it timed. Then the whole live part put in place with
    innerHTML, for comparison. And the size of the live part."""
    import asyncio
    import threading

    from playwright.sync_api import sync_playwright
    from tornado.httpserver import HTTPServer
    from tornado.netutil import bind_sockets
    from tornado.web import Application

    from escoba_tutor.server import class_board
    from escoba_tutor.server.class_board import board_handlers

    class_board.REFRESH_S = 0.25  # the benchmark's pages refresh often, not every 2.5 s
    key = "benchmark-key-benchmark-key-benchmark-key"
    store = ClassStore.open(database)
    writer = ClassStore.open(database)
    chance = random.Random(9)
    sockets = bind_sockets(0, "127.0.0.1")
    port = sockets[0].getsockname()[1]
    ready = threading.Event()
    loop_box = {}

    def serve() -> None:
        asyncio.set_event_loop(asyncio.new_event_loop())
        app = Application(board_handlers("/"), escoba_class_store=store, escoba_teacher_key=key,
                          xsrf_cookies=True, cookie_secret="x" * 32)
        HTTPServer(app).add_sockets(sockets)
        loop_box["loop"] = asyncio.get_event_loop()
        ready.set()
        loop_box["loop"].run_forever()

    threading.Thread(target=serve, daemon=True).start()
    ready.wait()
    rebuilds: list[float] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"http://127.0.0.1:{port}/class/board?key={key}&lang=es")
            page.evaluate(TIMER)
            for round_ in range(rounds):
                assert writer.record(_answer(chance, names))
                page.wait_for_function("(n) => window.redraws.length > n", arg=round_, timeout=30_000)
            redraws = page.evaluate("() => window.redraws.slice(0)")[:rounds]
            markup = page.evaluate("""async (source) => (await (await fetch(source)).json()).html""",
                                   f"/class/board.json?key={key}&lang=es")
            page.evaluate("() => { window.redraws = null; }")
            for round_ in range(rounds):
                # a different markup each round (as a new answer makes it): the page must draw it
                changed = markup.replace("</table>", f"<!-- {round_} --></table>", 1)
                rebuilds.append(page.evaluate("""(markup) => {
                    const live = document.getElementById("board-live");
                    const begin = performance.now();
                    live.innerHTML = markup;
                    live.dispatchEvent(new CustomEvent("board:drawn"));
                    document.body.getBoundingClientRect();  // the layout, forced now
                    return performance.now() - begin;
                }""", changed))
            browser.close()
    finally:
        loop_box["loop"].call_soon_threadsafe(loop_box["loop"].stop)
        writer.close()
        store.close()
    return redraws, rebuilds, len(markup.encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--records", type=int, default=500, help="records per student")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "class.sqlite3"
        store = ClassStore.open(database)
        begin = time.perf_counter()
        names = fill_class(store, args.students, args.records)
        size = sum(f.stat().st_size for f in Path(folder).iterdir()) / 2**20
        print(f"a class of {args.students} students x {args.records} records written in "
              f"{time.perf_counter() - begin:.1f} s ({size:.1f} MiB with its WAL)")
        store.board()  # warm: the first read opens the file and fills the caches
        store.close()
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for label, (whole, cpu) in server_times(database, names, args.rounds).items():
            print(f"board.json on the server, {label}: {_figures(whole)}")
            print(f"  its CPU time: {_figures(cpu)}")
        if not args.no_browser:
            redraws, rebuilds, size = browser_times(database, names, args.rounds)
            print(f"the browser's redraw after a new record (1920x1080, Chromium): {_figures(redraws)}")
            print(f"  for comparison, the whole live part put in place (innerHTML): {_figures(rebuilds)}")
            print(f"  the live part: {size / 1024:.0f} KiB (a 304 while nothing changed: no body)")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
