"""The cost of one class record on SQLite, alone and with thirty writers at once.

    python benchmarks/bench_records.py [--records N] [--writers W] [--pace SECONDS] [--writer kernel|store]

``--writer kernel`` (the default) records as a student's kernel does: the kernel sends each event to its course
server's records endpoint (escoba_tutor/server/records_endpoint.py, its real handler in a Tornado server of this
process, bounds set out of the way), which writes it through the class store off its event loop. ``--writer
store`` writes through the store directly, in each writer's own process (a second server, a teacher's tool).

1. One writer, N drill answers into a fresh SQLite file (after a warm-up): p50 / p95 / max in microseconds of one
   record's round trip (kernel: sent, written by the server, answered, as the kernel's sending thread waits for
   it; store: ``record``); for the kernel also what ``Recorder.record`` costs the click (it only queues).
2. W writer processes (forked, as W kernels) recording N/4 records each into one file at the same moment, each
   pausing a random 0..PACE seconds between records (0: as fast as it can), while one more process reads the
   board over and over: p50 / p95 / max of one record's round trip, records that failed (there should be none),
   total time, and the board's reads.

The load average is printed beside: on a machine shared with other work, the times count the waits for a core.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import tempfile
import time
from pathlib import Path

from _loopback import LoopbackServer, percentiles

from escoba_tutor.records import ClassStore, DrillAnswer
from escoba_tutor.records.events import to_message
from escoba_tutor.records.recorder import TOKEN_HEADER, Recorder


def answer(student: int, n: int) -> DrillAnswer:
    return DrillAnswer(f"student {student:02d}", "captures", student * 100_000 + n, n % 3 != 0,
                       None if n % 3 else "missed_15", lesson="02-captures")


class Endpoint(LoopbackServer):
    """The course server's records endpoint on loopback, in a thread of this process; ``url`` its address."""

    def __init__(self, path: Path) -> None:
        from escoba_tutor.server.records_endpoint import RECORD_PATH, RecordHandler

        super().__init__(path, [(f"/{RECORD_PATH}", RecordHandler)], address="10.0.0.5")
        self.url = f"http://127.0.0.1:{self.port}/{RECORD_PATH}"


class Sender:
    """What a kernel's sending thread does for one record: POST it and wait for the server's answer."""

    def __init__(self, url: str, token: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", int(url.split(":")[2].split("/")[0]), timeout=30)
        self.path, self.headers = "/" + url.split("/", 3)[3], {TOKEN_HEADER: token,
                                                                "Content-Type": "application/json"}

    def record(self, event: DrillAnswer) -> bool:
        self.connection.request("POST", self.path, body=json.dumps(to_message(event)).encode(), headers=self.headers)
        reply = self.connection.getresponse()
        reply.read()
        return reply.status == 204

    def close(self) -> None:
        self.connection.close()


def open_writer(kind: str, path: Path, endpoint: Endpoint | None, student: int):
    if kind == "store":
        return ClassStore.open(path)
    assert endpoint is not None
    return Sender(endpoint.url, endpoint.token(student))


def one_writer(kind: str, path: Path, records: int) -> None:
    endpoint = Endpoint(path) if kind == "kernel" else None
    if endpoint is None:
        ClassStore.open(path).close()  # the server makes the database
    store = open_writer(kind, path, endpoint, 0)
    try:
        for n in range(50):
            store.record(answer(0, 10_000 + n))
        times = []
        for n in range(records):
            began = time.perf_counter()
            assert store.record(answer(0, n))
            times.append(time.perf_counter() - began)
    finally:
        store.close()
    print(f"1 {kind} writer, {records} records:       {percentiles(times, 'µs')}")
    if endpoint is not None:  # what a click pays: the recorder only puts the event in its queue
        recorder, clicks = Recorder("student 01", endpoint.url, endpoint.token(1)), []
        for n in range(records):
            began = time.perf_counter()
            recorder.record(answer(1, n))
            clicks.append(time.perf_counter() - began)
            time.sleep(0.001)
        assert recorder.flush(60)
        print(f"  the click's share (Recorder.record):     {percentiles(clicks, 'µs')}")


def writer(kind: str, path: str, endpoint: Endpoint | None, student: int, records: int, pace: float, start,
           results) -> None:
    times, failed = [], 0
    store = open_writer(kind, Path(path), endpoint, student)
    try:
        start.wait(120)
        for n in range(records):
            if pace:
                time.sleep(random.uniform(0, pace))
            began = time.perf_counter()
            failed += not store.record(answer(student, n))
            times.append(time.perf_counter() - began)
    finally:
        store.close()
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
    endpoint = Endpoint(path) if kind == "kernel" else None
    if endpoint is None:
        ClassStore.open(path).close()
    context = multiprocessing.get_context("fork")
    start, stop, results, reads_out = context.Barrier(writers + 2), context.Event(), context.Queue(), context.Queue()
    senders = [None if endpoint is None else Sender(endpoint.url, endpoint.token(s)) for s in range(writers)]

    def run(student: int, *args) -> None:
        sender = senders[student]
        times, failed = [], 0
        if sender is None:
            writer(kind, str(path), None, student, *args)
            return
        records_, pace_, start_, results_ = args
        start_.wait(120)
        for n in range(records_):
            if pace_:
                time.sleep(random.uniform(0, pace_))
            began = time.perf_counter()
            failed += not sender.record(answer(student, n))
            times.append(time.perf_counter() - began)
        results_.put((times, failed))

    processes = [context.Process(target=run, args=(s, records, pace, start, results)) for s in range(writers)]
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
    print(f"{writers} {kind} writers x {records} records: {percentiles(times, 'µs')}   failed {failed}   "
          f"{elapsed:.1f} s   board read {reads} times")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--writers", type=int, default=30)
    parser.add_argument("--pace", type=float, default=0.0)
    parser.add_argument("--writer", choices=("kernel", "store"), default="kernel")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-records-") as folder:
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        one_writer(args.writer, Path(folder) / "one.sqlite3", args.records)
        many_writers(args.writer, Path(folder) / "many.sqlite3", args.writers, args.records // 4 or 1, args.pace)
        print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
