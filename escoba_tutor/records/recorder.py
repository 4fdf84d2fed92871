"""The recorder a student's kernel writes through.

The server starts each student's kernel with the student's nickname in ``ESCOBA_TUTOR_NICKNAME`` and the class
database in ``ESCOBA_TUTOR_CLASS_DB`` (a path or a URL; ``off`` switches recording off). :func:`recorder` reads
them once and returns the kernel's one recorder:

- no nickname, an invalid one, or recording off: a recorder that records nothing (``nickname`` is None);
- otherwise a recorder that opens the class database when it first records, and writes every event with the
  kernel's own nickname (an event's ``nickname`` is replaced by it: a page cannot record for someone else).

Recording never raises and never stops a lesson: a database that cannot be opened or written is logged as a
warning on the logger ``escoba_tutor.records`` and the event is dropped; opening is tried again at most every
:data:`REOPEN_AFTER` seconds.

A SQLite file (the usual case: one server for the class) is written through the standard library's ``sqlite3``
(:class:`~escoba_tutor.records.writer.SqliteWriter`): a kernel that records never loads SQLAlchemy, which would
cost every student's kernel some 20 MiB. A PostgreSQL database is written through the SQLAlchemy store (on a
JupyterHub each student has a server of their own anyway).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .events import Event, NicknameError, describe, valid_nickname
from .location import ENV_DATABASE, sqlite_file
from .writer import SqliteWriter

if TYPE_CHECKING:
    from .store import ClassStore

ENV_NICKNAME = "ESCOBA_TUTOR_NICKNAME"
RECORDING_OFF = "off"
REOPEN_AFTER = 30.0

log = logging.getLogger("escoba_tutor.records")


class Recorder:
    """Records the events of one student (see the module's text). ``nickname`` None: it records nothing."""

    def __init__(self, nickname: str | None, database: str | None) -> None:
        self.nickname = nickname
        self._database = database
        self._store: SqliteWriter | ClassStore | None = None
        self._failed_at: float | None = None
        self._lock = threading.Lock()

    def record(self, event: Event) -> bool:
        """Write ``event`` under this recorder's nickname: True when stored, False otherwise; never raises."""
        if self.nickname is None:
            return False
        try:
            store = self._open()
            if store is None:
                log.warning("not recorded (the class database is not open): %s", describe(event))
                return False
            return store.record(dataclasses.replace(event, nickname=self.nickname))
        except Exception as error:  # a record must never break a lesson
            with contextlib.suppress(Exception):  # not even a broken log handler
                log.warning("not recorded: %s: %s", describe(event), error)
            return False

    def _open(self) -> SqliteWriter | ClassStore | None:
        with self._lock:
            if self._store is not None:
                return self._store
            if self._failed_at is not None and time.monotonic() - self._failed_at < REOPEN_AFTER:
                return None
            try:
                self._store = open_writer(self._database)
            except Exception as error:  # a database that cannot be opened is logged, not raised
                self._failed_at = time.monotonic()
                log.warning("the class database cannot be opened, nothing is recorded for %r for now: %s",
                            self.nickname, error)
                return None
            return self._store

    def close(self) -> None:
        with self._lock:
            if self._store is not None:
                self._store.close()
                self._store = None


def open_writer(database: str | None) -> SqliteWriter | ClassStore:
    """What records go through: a :class:`SqliteWriter` for a SQLite file, else the SQLAlchemy store."""
    place = sqlite_file(database)
    if isinstance(place, Path):
        try:
            return SqliteWriter.open(place)
        except Exception as error:  # noqa: BLE001 - any reason: the store below says it, or puts it right
            # The server makes the database, or brings it to this version, when it starts: a kernel finds it
            # ready. A kernel started otherwise (by hand, with the variables set) or a database deleted since then
            # gets it made or migrated by the store, as the server would (loading SQLAlchemy, this once), and then
            # writes through the standard library as usual; a database that cannot be used is refused by the
            # store with the message that names why (newer version, someone else's database...).
            log.info("the class database %s is made ready by the store first: %s", place, error)
    from .store import ClassStore

    if isinstance(place, Path):
        ClassStore.open(place).close()
        return SqliteWriter.open(place)
    return ClassStore.open(database)


_recorder: Recorder | None = None
_recorder_lock = threading.Lock()


def recorder_from_environment() -> Recorder:
    """A new recorder for ``ESCOBA_TUTOR_NICKNAME`` and ``ESCOBA_TUTOR_CLASS_DB`` as they are now."""
    database = os.environ.get(ENV_DATABASE, "").strip() or None
    raw = os.environ.get(ENV_NICKNAME, "")
    if not raw.strip() or (database or "").lower() == RECORDING_OFF:
        return Recorder(None, None)
    try:
        nickname = valid_nickname(raw)
    except NicknameError as error:
        log.warning("nothing is recorded in this kernel: %s", error)
        return Recorder(None, None)
    return Recorder(nickname, database)


def recorder() -> Recorder:
    """This kernel's recorder, made from the environment the first time it is asked for."""
    global _recorder
    with _recorder_lock:
        if _recorder is None:
            _recorder = recorder_from_environment()
        return _recorder
