"""SQLite's side of the records, with the standard library only: the connection's settings (WAL,
synchronous=NORMAL, foreign keys), how a transaction begins (BEGIN IMMEDIATE for writers), when to checkpoint, and
the writers' gate, the lock file on which the writers of one SQLite file line up (the course server's threads, a
second server or a teacher's tool on the same file).

SQLite's own wait for a busy database (its busy timeout) looks at the lock less and less often (up to every
100 ms), so with thirty writers a writer that has waited long keeps losing the lock to newcomers. The writers of
one file therefore first take turns on a lock file beside it (``flock``, which wakes a waiting writer as soon as
the lock is free). A writer that cannot have that file (a read-only folder, a system without ``flock``), or that
has waited its whole time for it, goes on to SQLite's own wait.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: SQLite's own wait only
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger("escoba_tutor.records")

HAS_FLOCK: bool = fcntl is not None

GATE_SUFFIX = "-writers.lock"
WAL_CHECKPOINT_BYTES = 4 << 20   # a WAL file larger than this is checkpointed after a writer's turn
WAL_KEPT_BYTES = 1 << 20         # what SQLite leaves of the WAL file once it starts it again
CONNECT_WAIT = 10.0  # seconds a new connection may wait for the lock while it sets WAL mode


def configure_connection(connection: Any, shown: str) -> None:
    """Set up a new DB-API connection to the class database (``shown``: its name for the log); the store's engine
    does this on every connection it makes (:mod:`~escoba_tutor.records.sqlite_engine`)."""
    cursor = connection.cursor()
    try:
        # WAL mode stays with the file once set: only the first connection sets it (which takes a lock).
        mode = cursor.execute("PRAGMA journal_mode").fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            log.warning("the class database %s cannot use WAL mode (%s): readers may wait for writers",
                        shown, mode and mode[0])
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        # A delete writes zeros over what it removes (a forgotten class, a removed student), in the database and
        # in the WAL's copies of its pages: the store's wipe after a delete then leaves nothing of them readable.
        cursor.execute("PRAGMA secure_delete = ON")
        # No checkpoint inside a writer's turn (its fsync would hold every other writer up): the writer
        # checkpoints after its turn, once the WAL has grown (see wal_is_large).
        cursor.execute("PRAGMA wal_autocheckpoint = 0")
        cursor.execute(f"PRAGMA journal_size_limit = {WAL_KEPT_BYTES}")
    finally:
        cursor.close()


def begin_statements(*, write: bool, wait: float) -> tuple[str, str]:
    """How a transaction begins: SQLite waits for the lock (its busy timeout) as long as the try's share of the
    time allows (``wait`` seconds); a writer takes the write lock first thing (BEGIN IMMEDIATE: no lock upgrade
    that could fail half-way, so two writers never dead-lock), a reader a snapshot."""
    return f"PRAGMA busy_timeout = {int(wait * 1000)}", "BEGIN IMMEDIATE" if write else "BEGIN"


def wal_is_large(database: Path) -> bool:
    """The WAL file has grown past WAL_CHECKPOINT_BYTES: the writer copies it into the database after its turn (a
    passive checkpoint: it waits for nobody and nobody waits for it)."""
    try:
        return os.stat(str(database) + "-wal").st_size > WAL_CHECKPOINT_BYTES
    except OSError:
        return False


class WritersGate:
    """The lock file beside one SQLite file; see the module's text."""

    def __init__(self, database: Path) -> None:
        self._path = database.with_name(database.name + GATE_SUFFIX)

    @contextlib.contextmanager
    def held(self, deadline: float) -> Iterator[None]:
        """Hold the gate for the ``with`` block, or go on without it once ``deadline`` has passed. Each turn opens
        the lock file anew: the lock belongs to that opening alone (not to another thread's turn, nor to a forked
        process), and closing it lets the next writer in, even when this process is killed."""
        gate = self._take(deadline)
        try:
            yield
        finally:
            if gate is not None:
                with contextlib.suppress(OSError):
                    os.close(gate)

    def _take(self, deadline: float) -> int | None:
        if not HAS_FLOCK:
            return None
        try:
            gate = os.open(self._path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError:
            return None
        try:
            fcntl.flock(gate, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return gate
        except BlockingIOError:
            return gate if _wait_for_lock(gate, deadline - time.monotonic()) else None
        except OSError:
            os.close(gate)
            return None

    def close(self) -> None:
        """Nothing is kept open between turns; here for symmetry with the store's close."""


def _wait_for_lock(gate: int, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for the lock on ``gate`` (a blocking flock, in a thread: the kernel lets a
    waiter in as soon as the lock is free, whereas a writer that looks now and then may keep missing it).
    True: the lock is held on ``gate``. False: ``gate`` is closed (now or, by the thread, once it gets the lock)."""
    state = {"outcome": "waiting"}
    guard = threading.Lock()
    done = threading.Event()

    def wait() -> None:
        try:
            fcntl.flock(gate, fcntl.LOCK_EX)
            outcome = "held"
        except OSError:
            outcome = "failed"
        with guard:
            if state["outcome"] == "abandoned":
                os.close(gate)
            else:
                state["outcome"] = outcome
        done.set()

    threading.Thread(target=wait, name="escoba-records-gate", daemon=True).start()
    done.wait(max(timeout, 0.0))
    with guard:
        if state["outcome"] == "held":
            return True
        if state["outcome"] == "failed":
            os.close(gate)
        else:
            state["outcome"] = "abandoned"
        return False
