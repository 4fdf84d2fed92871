"""A student's kernel writing its records straight into the class's SQLite file, with the standard library alone.

Every kernel of a class records, and SQLAlchemy costs each of them some 20 MiB: for a SQLite file the kernel
writes through Python's own ``sqlite3`` instead, with the very rules of the SQLAlchemy store
(:mod:`escoba_tutor.records.store`), shared with it rather than copied:

- the event is checked and turned into its row by :func:`escoba_tutor.records.rows.event_row`, and stored as
  SQLAlchemy stores it on SQLite (a time as ``2026-12-01 09:00:00.000000``, UTC; a boolean as 1 or 0): a record
  is the same row whichever way it was written (tests/test_records_kernel.py compares them);
- the connection is set up as the store's (:func:`escoba_tutor.records.sqlite.configure_connection`: WAL,
  ``synchronous=NORMAL``); each record is one ``BEGIN IMMEDIATE`` transaction, taken in turn through the writers'
  gate, tried again while the database is busy for at most :data:`~escoba_tutor.records.rows.RECORD_BUDGET`
  seconds in all; the current class is read in the INSERT statement itself; the WAL is checkpointed after a turn
  once it has grown;
- :meth:`SqliteWriter.record` never raises: what could not be recorded is logged as a warning naming it.

The writer creates and migrates nothing: it opens only a database whose tables are at this escoba-tutor's schema
version (the server makes or upgrades the database when it starts, before any kernel records). Anything else is
a :class:`RecordsError` from :meth:`SqliteWriter.open`, and the kernel's recorder turns to the SQLAlchemy store.
"""

from __future__ import annotations

import contextlib
import logging
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from .events import Event, RecordsError
from .rows import EVENT_COLUMNS, PAUSE, RECORD_BUDGET, SCHEMA_VERSION, event_row
from .sqlite import CONNECT_WAIT, WritersGate, begin_statements, configure_connection, wal_is_large
from .writing import RecordWriter

log = logging.getLogger("escoba_tutor.records")

KERNEL_CACHE_KIB = 256

# The current class is read in the statement that writes the record: a new class started meanwhile is followed.
INSERT_RECORD = (f"INSERT INTO records (class_id, {', '.join(EVENT_COLUMNS)}) "
                 f"VALUES ((SELECT max(classes.id) FROM classes), {', '.join('?' * len(EVENT_COLUMNS))})")


def stored_value(value: Any) -> Any:
    """A row's value as SQLAlchemy's SQLite dialect stores it: a datetime as text with microseconds (its
    ``DateTime`` format), a boolean as 1 or 0; text, whole numbers and None as they are."""
    if isinstance(value, datetime):
        return (f"{value.year:04d}-{value.month:02d}-{value.day:02d} "
                f"{value.hour:02d}:{value.minute:02d}:{value.second:02d}.{value.microsecond:06d}")
    if isinstance(value, bool):
        return int(value)
    return value


def _busy(error: sqlite3.Error) -> bool:
    """The database is busy (or the current class was forgotten between reading and writing): trying again may
    work. As the store's own test of an error."""
    if isinstance(error, sqlite3.IntegrityError):
        return True
    message = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and ("locked" in message or "busy" in message)


class SqliteWriter(RecordWriter):
    """Writes records into one SQLite class database; see the module's text. Open it with :meth:`open`.

    ``on_connect`` is called with every new connection after its own settings (for tools and tests: a PRAGMA)."""

    def __init__(self, path: Path, on_connect: Callable[[sqlite3.Connection], None] | None = None) -> None:
        self._path = path
        self._gate = WritersGate(path)
        self._on_connect = on_connect
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: Path, on_connect: Callable[[sqlite3.Connection], None] | None = None) -> SqliteWriter:
        """The writer of the SQLite class database at ``path``; RecordsError when there is no such file, or its
        tables are not at this escoba-tutor's schema version (the SQLAlchemy store creates or migrates them)."""
        writer = cls(path, on_connect)
        try:
            versions = [row[0] for row in writer._connect().execute("SELECT version FROM escoba_schema")]
        except sqlite3.Error as error:
            writer.close()
            raise RecordsError(f"cannot write to the class database {writer.url}: {error}",
                               code="records_not_ready") from None
        if versions != [SCHEMA_VERSION]:
            writer.close()
            shown = ", ".join(map(str, versions)) or "none"
            raise RecordsError(f"the class database {writer.url} has schema version {shown}, not "
                               f"{SCHEMA_VERSION}", code="records_not_ready")
        return writer

    @property
    def url(self) -> str:
        """The database as the store names it in the log."""
        return f"sqlite+pysqlite:///{self._path}"

    def close(self) -> None:
        """Close the connection (a later record opens another)."""
        with self._lock:
            if self._connection is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._connection.close()
                self._connection = None

    def _write_record(self, event: Event) -> None:
        values = [stored_value(value) for value in event_row(event).values()]
        with self._lock:
            self._write(values)

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            # mode=rw: a file that is not there is an error, never a new empty database
            connection = sqlite3.connect(f"{self._path.as_uri()}?mode=rw", uri=True, timeout=CONNECT_WAIT,
                                         isolation_level=None, check_same_thread=False)
            try:
                configure_connection(connection, str(self._path))
                # A kernel only appends a row now and then: a small page cache (SQLite's default is 2 MB) keeps the
                # writer's memory to what it needs, in each of the class's kernels.
                connection.execute(f"PRAGMA cache_size = -{KERNEL_CACHE_KIB}")
                if self._on_connect is not None:
                    self._on_connect(connection)
            except BaseException:
                connection.close()
                raise
            self._connection = connection
        return self._connection

    def _write(self, values: list[Any]) -> None:
        """One INSERT in its own transaction, tried again while the database is busy (see the module's text)."""
        deadline = time.monotonic() + RECORD_BUDGET
        tries = 0
        while True:
            tries += 1
            try:
                if not self._path.exists():  # deleted (or its folder) after opening: never write a new file
                    raise RecordsError(f"the class database {self._path} is gone (deleted or moved)",
                                       code="records_gone")
                connection = self._connect()  # ready before the turn
                with self._gate.held(deadline):
                    for statement in begin_statements(write=True, wait=max(deadline - time.monotonic(), 0.001)):
                        connection.execute(statement)
                    try:
                        connection.execute(INSERT_RECORD, values)
                        connection.execute("COMMIT")
                    except BaseException:
                        with contextlib.suppress(sqlite3.Error):
                            connection.execute("ROLLBACK")
                        raise
                break
            except sqlite3.Error as error:
                pause = random.uniform(0, PAUSE)
                if _busy(error) and time.monotonic() + pause < deadline:
                    time.sleep(pause)
                    continue
                busy = f" after {tries} tries" if _busy(error) else ""
                raise RecordsError(f"{str(error).splitlines()[0] if str(error) else error!r}{busy}",
                                   code="records_database") from None
        if wal_is_large(self._path):
            try:
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error as error:  # a busy file: the next turn tries again
                log.debug("no checkpoint of %s now: %s", self._path, error)
