"""The cost of one class record on SQLite, alone and with thirty writers at once.

    python benchmarks/bench_records.py [--records N] [--writers W] [--pace SECONDS] [--writer store|kernel]

``--writer kernel`` (the default) writes as a student's kernel does, through the standard library's sqlite3
(``SqliteWriter``, records/writer.py); ``--writer store`` through the SQLAlchemy store, as the server does.

1. One writer: ``record`` of a drill answer, N times into a fresh SQLite file (after a warm-up):
   p50 / p95 / max in microseconds.
2. W writer processes (forked, each with its own store, as W kernels) recording N records each into one file at
   the same moment, each pausing a random 0..PACE seconds between records (0: as fast as it can), while one more
   process reads the board over and over: p50 / p95 / max of one ``record`` call in microseconds, records that
   failed (there should be none), total time, and the board's reads.

The load average is printed beside: on a machine shared with other work, the times count the waits for a core.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from escoba_tutor.records import ClassStore, DrillAnswer
from escoba_tutor.records.writer import SqliteWriter

WRITERS = {"kernel": SqliteWriter.open, "store": ClassStore.open}


def percentiles(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"p50 {p50 * 1e6:8.0f} µs   p95 {p95 * 1e6:8.0f} µs   max {ordered[-1] * 1e6:8.0f} µs"


def answer(student: int, n: int) -> DrillAnswer:
    return DrillAnswer(f"student {student:02d}", "captures", student * 100_000 + n, n % 3 != 0,
                       None if n % 3 else "missed_15", lesson="02-captures")


def one_writer(kind: str, path: Path, records: int) -> None:
    ClassStore.open(path).close()  # the server makes the database
    with WRITERS[kind](path) as store:
        for n in range(50):
            store.record(answer(99, n))
        times = []
        for n in range(records):
            began = time.perf_counter()
            assert store.record(answer(0, n))
            times.append(time.perf_counter() - began)
    print(f"1 {kind} writer, {records} records:       {percentiles(times)}")


def writer(kind: str, path: str, student: int, records: int, pace: float, start, results) -> None:
    times, failed = [], 0
    with WRITERS[kind](Path(path)) as store:
        start.wait(120)
        for n in range(records):
            if pace:
                time.sleep(random.uniform(0, pace))
            began = time.perf_counter()
            failed += not store.record(answer(student, n))
            times.append(time.perf_counter() - began)
    results.put((times, failed))


def reader(path: str, start, stop, results) -> None:
    reads = 0
    with ClassStore.open(path) as store:
        start.wait(120)
        while not stop.is_set():
            store.board()
            reads += 1
    results.put(reads)


def many_writers(kind: str, path: Path, writers: int, records: int, pace: float) -> None:
    ClassStore.open(path).close()
    context = multiprocessing.get_context("fork")
    start, stop, results, reads_out = context.Barrier(writers + 2), context.Event(), context.Queue(), context.Queue()
    processes = [context.Process(target=writer, args=(kind, str(path), s, records, pace, start, results))
                 for s in range(writers)]
    board = context.Process(target=reader, args=(str(path), start, stop, reads_out))
    for process in [board, *processes]:
        process.start()
    start.wait(120)
    began = time.perf_counter()
    outcomes = [results.get(timeout=600) for _ in processes]
    elapsed = time.perf_counter() - began
    stop.set()
    reads = reads_out.get(timeout=60)
    for process in [board, *processes]:
        process.join(60)
    times = [t for ts, _ in outcomes for t in ts]
    failed = sum(f for _, f in outcomes)
    print(f"{writers} {kind} writers x {records} records: {percentiles(times)}   failed {failed}   "
          f"{elapsed:.1f} s   board read {reads} times")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--writers", type=int, default=30)
    parser.add_argument("--pace", type=float, default=0.0)
    parser.add_argument("--writer", choices=sorted(WRITERS), default="kernel")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-records-") as folder:
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        one_writer(args.writer, Path(folder) / "one.sqlite3", args.records)
        many_writers(args.writer, Path(folder) / "many.sqlite3", args.writers, args.records // 4 or 1, args.pace)
        print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
