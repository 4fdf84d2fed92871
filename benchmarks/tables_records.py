"""Tables of students playing each other, at the records layer: what a play and a seat's view cost in the class
database with a class at its tables.

    python benchmarks/tables_records.py [--tables 15] [--seconds 60] [--db URL]

Opens ``--tables`` tables of two in a fresh SQLite file (or the database ``--db`` names), each seat a thread of
this process doing what a course server will do for its student's page: read the seat's view, and on its turn
think for 1 to 3 seconds and play a random legal play against the version it read; off its turn, look again
every 0.2 s (a stand-in for the notification the server will have). Printed: the plays made, play (the store's
``play_at_table``: the locked read, the engine's check, the write, the view after) and view (``table_view``) as
p50 / p95 / max in milliseconds, any error, and the load average beside (the machine may be shared). No server
and no page: the delay from a play to the other page is this play's time plus the server's and the page's, which
a later benchmark measures.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import statistics
import tempfile
import threading
import time
from pathlib import Path

from escoba_tutor.records import ClassStore
from escoba_tutor.records.tables import TableError


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"p50 {statistics.median(ordered) * 1000:.0f} / p95 {p95 * 1000:.0f} / max {ordered[-1] * 1000:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=15)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--db", default=None, help="a class database's URL (default: a fresh SQLite file)")
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="escoba-tables-bench-"))
    store = ClassStore.open(options.db or folder / "class.sqlite3")
    seats: list[tuple[str, str]] = []
    for number in range(options.tables):
        opener, joiner = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        code = store.open_table(opener, f"Alumno {2 * number}", 2).table.code
        store.join_table(code, joiner, f"Alumno {2 * number + 1}")
        seats += [(code, opener), (code, joiner)]
    plays: list[float] = []
    views: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.monotonic() + options.seconds

    def player(code: str, token: str, seed: int) -> None:
        chance = random.Random(seed)
        while time.monotonic() < stop:
            started = time.perf_counter()
            view = store.table_view(code, token)
            looked = time.perf_counter() - started
            with lock:
                views.append(looked)
            if view.table.state == "finished":
                return
            if not view.my_turn:
                time.sleep(0.2)
                continue
            time.sleep(chance.uniform(1, 3))
            started = time.perf_counter()
            try:
                store.play_at_table(code, view.seat, token, chance.choice(view.game.legal_moves), view.version)
            except TableError as error:
                with lock:
                    errors.append(f"{error.code}: {error}")
                continue
            with lock:
                plays.append(time.perf_counter() - started)

    threads = [threading.Thread(target=player, args=(code, token, n)) for n, (code, token) in enumerate(seats)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store.close()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{options.tables} tables of two, {options.seconds:.0f} s, {store.url}")
    print(f"plays made: {len(plays)}; errors: {len(errors)} {errors[:3]}")
    print(f"play: {percentiles(plays)}")
    print(f"view: {percentiles(views)} ({len(views)} reads)")
    print(f"load average: {load}")


if __name__ == "__main__":
    main()
