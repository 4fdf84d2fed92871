"""SQLite's side of the store: the engine (WAL, synchronous=NORMAL, foreign keys, BEGIN IMMEDIATE for writers)
and the writers' gate, the lock file on which the writers of one SQLite file line up.

SQLite's own wait for a busy database (its busy timeout) looks at the lock less and less often (up to every
100 ms), so with thirty writers a writer that has waited long keeps losing the lock to newcomers. The writers of
one file therefore first take turns on a lock file beside it (``flock``), each looking every :data:`GATE_PAUSE`
seconds or so, which costs a system call, not a transaction. A writer that cannot have that file (a read-only
folder, a system without ``flock``), or that has waited its whole time for it, goes on to SQLite's own wait.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: SQLite's own wait only
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import Connection, Engine, create_engine, event

log = logging.getLogger("escoba_tutor.records")

HAS_FLOCK: bool = fcntl is not None

GATE_PAUSE = 0.002
GATE_SUFFIX = "-writers.lock"
CONNECT_WAIT = 10.0  # seconds a new connection may wait for the lock while it sets WAL mode


def sqlite_engine(url: Any) -> Engine:
    """An engine for the SQLite file of ``url``. A transaction's execution options say how it begins:
    ``escoba_write`` (BEGIN IMMEDIATE: the write lock first thing, so no lock upgrade can fail half-way; else a
    read snapshot) and ``escoba_wait`` (seconds SQLite may wait for the lock)."""
    engine = create_engine(url, connect_args={"timeout": CONNECT_WAIT, "isolation_level": None})

    @event.listens_for(engine, "connect")
    def _setup(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            # WAL mode stays with the file once set: only the first connection sets it (which takes a lock).
            mode = cursor.execute("PRAGMA journal_mode").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                log.warning("the class database %s cannot use WAL mode (%s): readers may wait for writers",
                            url.database, mode and mode[0])
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        # Writers take the write lock first thing (no lock upgrade that could fail half-way); readers a snapshot.
        # SQLite waits for the lock (its busy timeout) as long as the try's share of the time allows.
        options = connection.get_execution_options()
        connection.exec_driver_sql(f"PRAGMA busy_timeout = {int(options.get('escoba_wait', CONNECT_WAIT) * 1000)}")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if options.get("escoba_write", False) else "BEGIN")

    return engine


class WritersGate:
    """The lock file beside one SQLite file; see the module's text."""

    def __init__(self, database: Path) -> None:
        self._path = database.with_name(database.name + GATE_SUFFIX)
        self._fd: int | None = None
        self._pid: int | None = None

    @contextlib.contextmanager
    def held(self, deadline: float) -> Iterator[None]:
        """Hold the gate (or give up waiting for it at ``deadline``) for the ``with`` block."""
        gate = self._open()
        held = False
        while gate is not None:
            try:
                fcntl.flock(gate, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held = True
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    break
                time.sleep(random.uniform(GATE_PAUSE / 4, GATE_PAUSE))
            except OSError:
                break
        try:
            yield
        finally:
            if held and gate is not None:
                fcntl.flock(gate, fcntl.LOCK_UN)

    def _open(self) -> int | None:
        if not HAS_FLOCK:
            return None
        if self._pid != os.getpid():  # a forked process must not share its parent's lock
            self._fd, self._pid = None, os.getpid()
            with contextlib.suppress(OSError):
                self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        return self._fd

    def close(self) -> None:
        if self._fd is not None and self._pid == os.getpid():
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self._fd = None
