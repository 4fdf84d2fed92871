"""What wiping deleted records costs on SQLite (docs/class-board-internals.md, "Deleting leaves nothing
readable").

    python benchmarks/bench_forget.py [--classes C] [--records N]

A database of C classes of N drill answers each (thirty students), as a term of classes would leave it; then:

1. recording with ``secure_delete`` on (the store's setting) against off: p50 / p95 of one ``record``, 2000 each,
   in alternating runs (records are only ever added, so the setting should cost them nothing);
2. forgetting one class, on a fresh copy each time, three ways: the delete alone without ``secure_delete`` (what
   escoba-tutor did before: the records stay readable in the file and its WAL), the store's way (``secure_delete``
   on, then a TRUNCATE checkpoint), and the delete followed by VACUUM (which rewrites the whole file): the time of
   each and the size of the file and of its WAL afterwards;
3. removing one student's records (N/30) the store's way.

The load average is printed beside each figure: on a shared machine the times count the waits for a core.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from escoba_tutor.records import ClassStore, DrillAnswer
from escoba_tutor.records import sqlite as records_sqlite

T0 = datetime(2026, 9, 1, 9, tzinfo=timezone.utc)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def build(path: Path, classes: int, per_class: int) -> list[int]:
    ids = []
    with ClassStore.open(path) as store:
        for number in range(classes):
            info = store.start_new_class(f"class {number}")
            ids.append(info.id)
            events = [DrillAnswer(f"student {i % 30:02d}", "captures", i, i % 3 == 0, None if i % 3 == 0 else
                                  "missed_15", lesson="02-captures", at=T0 + timedelta(seconds=i))
                      for i in range(per_class)]
            with store.engine.begin() as connection:  # quicker than one transaction per record, same rows
                from escoba_tutor.records.rows import event_row
                from escoba_tutor.records.schema import records

                connection.execute(records.insert(), [{**event_row(e), "class_id": info.id} for e in events])
    return ids


def sizes(path: Path) -> str:
    wal = Path(str(path) + "-wal")
    return (f"file {path.stat().st_size / 2**20:.1f} MiB, WAL "
            f"{(wal.stat().st_size if wal.exists() else 0) / 2**20:.1f} MiB")


def recording(path: Path, secure: bool, n: int = 2000) -> list[float]:
    original = records_sqlite.configure_connection

    def configure(connection, shown):
        original(connection, shown)
        connection.execute(f"PRAGMA secure_delete = {'ON' if secure else 'OFF'}")

    records_sqlite.configure_connection = configure
    import escoba_tutor.records.sqlite_engine as engine_module

    engine_module.configure_connection = configure
    try:
        with ClassStore.open(path) as store:
            times = []
            for i in range(n):
                start = time.perf_counter()
                store.record(DrillAnswer("Ana", "captures", i, True, None))
                times.append((time.perf_counter() - start) * 1e6)
    finally:
        records_sqlite.configure_connection = original
        engine_module.configure_connection = original
    return times


def forget(base: Path, folder: Path, class_id: int, how: str) -> str:
    path = folder / f"{how}.sqlite3"
    shutil.copy(base, path)
    if how == "store":
        with ClassStore.open(path) as store:
            start = time.perf_counter()
            store.forget_class(class_id)
            took = time.perf_counter() - start
            shown = sizes(path)
    else:
        connection = sqlite3.connect(path, isolation_level=None)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA secure_delete = OFF")
        start = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("DELETE FROM records WHERE class_id = ?", (class_id,))
        connection.execute("DELETE FROM classes WHERE id = ?", (class_id,))
        connection.execute("COMMIT")
        if how == "vacuum":
            connection.execute("VACUUM")
        took = time.perf_counter() - start
        shown = sizes(path)
        connection.close()
    return f"{took * 1000:8.1f} ms   ({shown} after)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classes", type=int, default=20)
    parser.add_argument("--records", type=int, default=6000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = folder / "base.sqlite3"
        ids = build(base, options.classes, options.records)
        print(f"{options.classes} classes of {options.records} records: {sizes(base)}   [{load()}]")
        for run in range(2):
            for secure in (False, True):
                path = folder / f"rec-{run}-{secure}.sqlite3"
                shutil.copy(base, path)
                times = recording(path, secure)
                q = statistics.quantiles(times, n=20)
                print(f"record, secure_delete {'on ' if secure else 'off'} (run {run + 1}): p50 {q[9]:6.0f} µs  "
                      f"p95 {q[18]:6.0f} µs   [{load()}]")
        for how, words in (("plain", "delete, no secure_delete (before)"), ("store", "store: secure_delete + "
                                                                                       "TRUNCATE checkpoint"),
                           ("vacuum", "delete + VACUUM")):
            print(f"forget one class, {words:40}: {forget(base, folder, ids[len(ids) // 2], how)}   [{load()}]")
        path = folder / "student.sqlite3"
        shutil.copy(base, path)
        with ClassStore.open(path) as store:
            start = time.perf_counter()
            removed = store.remove_student(ids[0], "student 07")
            took = time.perf_counter() - start
        print(f"remove one student ({removed} records), store's way: {took * 1000:8.1f} ms   [{load()}]")


if __name__ == "__main__":
    main()
