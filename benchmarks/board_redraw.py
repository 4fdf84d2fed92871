"""The class board's redraw with a full class: a server's answer to ``class/board.json``, and the browser's redraw.

    nice -n 10 python benchmarks/board_redraw.py [--students 40] [--records 500] [--rounds 40] [--no-browser]

A temporary SQLite database gets a class of ``--students`` students with ``--records`` records each, over the
last two hours: every kind of exercise (right, and wrong with each kind's mistakes), lessons opened, deals and
games against the computer. Then:

1. the server's time for one ``board.json`` (the store's read on its own thread, board_view and the live part's
   template, as BoardDataHandler does them), ``--rounds`` times: p50 / p95 / max in ms (target p95 ≤ 200 ms);
   the store's read alone; and the CPU time of the whole (what a busy machine's waits do not inflate);
2. with Chromium (unless ``--no-browser``): the board page served by a real Tornado server of this process, and
   the time one redraw takes in the page (the live part put in place, the teacher's views applied again and the
   first layout after it), ``--rounds`` times: p50 / p95 / max in ms (target ≤ 100 ms).

The load average is printed beside: on a machine shared with other work the times count the waits for a core.
``fill_class`` is also what the board's tests use for a full class.
"""

from __future__ import annotations

import argparse
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
                                     chance.randrange(22), chance.randrange(22), chance.choice((True, False, None)),
                                     at=at)
            rows.append(event_row(event))
    with store.engine.begin() as connection:
        connection.execute(INSERT_RECORD, rows)
    return names


def _figures(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return f"p50 {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms ({len(times)} runs)"


def server_times(store: ClassStore, rounds: int) -> tuple[list[float], list[float], list[float]]:
    """Each round: the store's read, then the view and the live part's template, as BoardDataHandler does them."""
    from escoba_tutor.server.class_board import _jinja, board_view, lesson_titles
    from escoba_tutor.text.translator import Translator

    titles = lesson_titles(ROOT / "lessons", "es")
    template = _jinja.get_template("class_board_live.html.j2")
    whole, reads, cpu = [], [], []
    for _round in range(rounds):
        begin, begin_cpu = time.perf_counter(), time.thread_time()
        board = store.board()
        read = time.perf_counter()
        view = board_view(board, store.classes(), "es", "/", "escoba", titles)
        template.render(_=Translator("es"), v=view, lang="es", key="k",
                        address=lambda name, **query: f"/class/{name}?key=k")
        end = time.perf_counter()
        whole.append(1000 * (end - begin))
        reads.append(1000 * (read - begin))
        cpu.append(1000 * (time.thread_time() - begin_cpu))
    return whole, reads, cpu


def browser_times(database: Path, rounds: int) -> list[float]:
    """The board page from a real Tornado server of this process, in Chromium; each round one redraw (class_board.js
    with the JSON's markup, the views applied again) and the layout after it, timed in the page."""
    import asyncio
    import threading

    from playwright.sync_api import sync_playwright
    from tornado.httpserver import HTTPServer
    from tornado.netutil import bind_sockets
    from tornado.web import Application

    from escoba_tutor.server.class_board import board_handlers

    key = "benchmark-key-benchmark-key-benchmark-key"
    store = ClassStore.open(database)
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
    times = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(f"http://127.0.0.1:{port}/class/board?key={key}&lang=es")
            markup = page.evaluate("""async (source) => (await (await fetch(source)).json()).html""",
                                   f"/class/board.json?key={key}&lang=es")
            for round_ in range(rounds):
                # a different markup each round (as a new answer makes it): the page must draw it
                changed = markup.replace("</table>", f"<!-- {round_} --></table>", 1)
                times.append(page.evaluate("""(markup) => {
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
        store.close()
    return times


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
        fill_class(store, args.students, args.records)
        size = sum(f.stat().st_size for f in Path(folder).iterdir()) / 2**20
        print(f"a class of {args.students} students x {args.records} records written in "
              f"{time.perf_counter() - begin:.1f} s ({size:.1f} MiB with its WAL)")
        store.board()  # warm: the first read opens the file and fills the caches
        whole, reads, cpu = server_times(store, args.rounds)
        store.close()
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"board.json on the server (read + view + template): {_figures(whole)}")
        print(f"  of which the store's read: {_figures(reads)}")
        print(f"  its CPU time (the same, without the waits for a core): {_figures(cpu)}")
        if not args.no_browser:
            redraws = browser_times(database, args.rounds)
            print(f"the browser's redraw (1920x1080, Chromium): {_figures(redraws)}")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
