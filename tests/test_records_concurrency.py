"""Thirty kernels recording into one SQLite file at once while the teacher's board reads it; a killed kernel.

Real processes, as a class of thirty kernels are: every record that ``record`` said was stored is on the board,
nothing raises, and the board never fails to read meanwhile. Each test runs twice: the writers are SQLAlchemy
stores (thirty processes writing one file: a second server, a teacher's tool), or kernels' recorders sending
their records to the course server's endpoint, which writes them all (server/records_endpoint.py).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from escoba_tutor.records import ClassStore, DrillAnswer
from escoba_tutor.records.recorder import Recorder

WRITERS = 30
RECORDS_EACH = 50


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def open_writer(writer: str, path: str, nickname: str, token: str | None):
    """A SQLAlchemy store, or the recorder of a kernel whose student is ``nickname`` (``path``: the endpoint)."""
    return ClassStore.open(path) if writer == "store" else Recorder(nickname, path, token)


def write_records(writer: str, path: str, student: int, token: str | None, start, results) -> None:
    failures: list[str] = []
    stored = 0
    said = Collect()
    logging.getLogger("escoba_tutor.records").addHandler(said)
    store = open_writer(writer, path, f"student {student:02d}", token)
    try:
        start.wait(60)
        # Thirty students answering "now": within a quarter of a second, not all in the same microsecond.
        time.sleep(random.Random(student).uniform(0, 0.25))
        pace = random.Random(-student)
        for n in range(RECORDS_EACH):
            # a burst of several hundred records a second from the class, thirty times what thirty students
            # answering every three seconds write, and every one of them at once at the start
            time.sleep(pace.uniform(0, 0.05))
            event = DrillAnswer(f"student {student:02d}", "captures", student * 1000 + n, n % 3 != 0,
                                None if n % 3 else "missed_15")
            if store.record(event):
                stored += 1
            else:
                failures.append(f"student {student} record {n}")
        if writer != "store" and not store.flush(120):
            failures.append(f"student {student}: records still waiting")
    finally:
        store.close()
    results.put((student, stored, failures + said.messages))


def read_board(path: str, start, stop, results) -> None:
    reads, errors, most = 0, [], 0
    with ClassStore.open(path) as store:
        start.wait(60)
        while not stop.is_set():
            try:
                board = store.board()
                most = max(most, sum(answered for row in board.students for answered, _ in row.drills.values()))
                reads += 1
            except Exception as error:  # counted, and the test fails on it
                errors.append(repr(error))
    results.put(("reader", reads, errors, most))


@pytest.mark.parametrize("writer", ["store", "kernel"])
def test_thirty_kernels_write_at_once_while_the_board_reads(tmp_path: Path, writer: str, records_endpoint) -> None:
    path = str(tmp_path / "class.sqlite3")
    ClassStore.open(path).close()  # the server makes the database before the kernels start
    tokens: list[str | None] = [None] * WRITERS
    target = path
    if writer == "kernel":  # the course server, bounds far above this burst: every record is to be written
        server = records_endpoint(Path(path), record_rate=1000, record_burst=1000, address_record_rate=10_000,
                                  address_record_burst=10_000)
        tokens = [server.token(f"student {student:02d}") for student in range(WRITERS)]
        target = server.url
    context = multiprocessing.get_context("fork")
    start = context.Barrier(WRITERS + 1)
    stop = context.Event()
    results = context.Queue()
    reader = context.Process(target=read_board, args=(path, start, stop, results))
    writers = [context.Process(target=write_records, args=(writer, target, student, tokens[student], start, results))
               for student in range(WRITERS)]
    began = time.monotonic()
    for process in [reader, *writers]:
        process.start()
    outcomes = {}
    for _ in writers:
        student, stored, failures = results.get(timeout=300)
        outcomes[student] = (stored, failures)
    stop.set()
    _, reads, read_errors, most_seen = results.get(timeout=60)
    for process in [reader, *writers]:
        process.join(60)
        assert process.exitcode == 0
    elapsed = time.monotonic() - began
    failed = [failure for _, failures in outcomes.values() for failure in failures]
    assert not failed, "\n".join(failed[:20])
    assert read_errors == []
    assert reads > 0
    with ClassStore.open(path) as store:
        board = store.board()
    assert len(board.students) == WRITERS
    for row in board.students:
        assert row.drills == {"captures": (RECORDS_EACH, RECORDS_EACH - len(range(0, RECORDS_EACH, 3)))}
    (mistake,) = board.mistakes
    assert (mistake.students, mistake.times) == (WRITERS, WRITERS * len(range(0, RECORDS_EACH, 3)))
    assert most_seen <= WRITERS * RECORDS_EACH
    print(f"\n{WRITERS} {writer} writers x {RECORDS_EACH} records: {elapsed:.1f} s, the board read {reads} times "
          "meanwhile")


KILLED_STORE = """
    import sys, time
    from escoba_tutor.records import ClassStore, DrillAnswer
    store = ClassStore.open(sys.argv[1])
    for n in range(5):
        assert store.record(DrillAnswer("Ana", "captures", n, True, None))
    print("recorded", flush=True)
    time.sleep(600)
"""
KILLED_KERNEL = """
    import sys, time
    from escoba_tutor.records.events import DrillAnswer
    from escoba_tutor.records.recorder import recorder
    for n in range(5):
        assert recorder().record(DrillAnswer("whoever", "captures", n, True, None))
    assert recorder().flush(60)  # sent: the server has them
    assert "sqlalchemy" not in sys.modules
    print("recorded", flush=True)
    time.sleep(600)
"""


@pytest.mark.parametrize("script", [KILLED_STORE, KILLED_KERNEL], ids=["store", "kernel"])
def test_a_killed_kernel_keeps_what_it_recorded(tmp_path: Path, script: str, records_endpoint) -> None:
    path = tmp_path / "class.sqlite3"
    server = records_endpoint(path)  # the server makes the database before the kernels start
    environment = {**os.environ, **server.kernel_env("Ana")}
    kernel = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), str(path)], stdout=subprocess.PIPE,
                              text=True, env=environment)
    try:
        assert kernel.stdout is not None
        assert kernel.stdout.readline().strip() == "recorded"
        os.kill(kernel.pid, signal.SIGKILL)
        assert kernel.wait(30) == -signal.SIGKILL
    finally:
        if kernel.poll() is None:
            kernel.kill()
    with ClassStore.open(path) as store:
        assert [row.drills for row in store.board().students] == [{"captures": (5, 5)}]
