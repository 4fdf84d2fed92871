"""The SQLAlchemy engine of a SQLite class database: every connection set up, and every transaction begun, as
:mod:`escoba_tutor.records.sqlite` says."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event

from .sqlite import CONNECT_WAIT, begin_statements, configure_connection, wal_is_large

log = logging.getLogger("escoba_tutor.records")


def sqlite_engine(url: Any) -> Engine:
    """An engine for the SQLite file of ``url``. A transaction's execution options say how it begins:
    ``escoba_write`` (BEGIN IMMEDIATE: the write lock first thing, so no lock upgrade can fail half-way; else a
    read snapshot) and ``escoba_wait`` (seconds SQLite may wait for the lock)."""
    engine = create_engine(url, connect_args={"timeout": CONNECT_WAIT, "isolation_level": None})

    @event.listens_for(engine, "connect")
    def _setup(dbapi_connection: Any, _record: Any) -> None:
        configure_connection(dbapi_connection, url.database)

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        options = connection.get_execution_options()
        for statement in begin_statements(write=options.get("escoba_write", False),
                                          wait=options.get("escoba_wait", CONNECT_WAIT)):
            connection.exec_driver_sql(statement)

    return engine


def checkpoint_if_large(engine: Engine, database: Path) -> None:
    """Copy the WAL into the database when it has grown (see :func:`~escoba_tutor.records.sqlite.wal_is_large`).
    Never raises: a checkpoint left undone is done by a later one."""
    try:
        if not wal_is_large(database):
            return
        with engine.connect() as connection:
            connection.connection.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")  # type: ignore[union-attr]
    except Exception as error:  # a busy or vanished file: the next turn tries again
        log.debug("no checkpoint of %s now: %s", database, error)


def wipe_wal(driver_connection: Any, wait: float) -> bool:
    """Copy the whole WAL into the database and empty the WAL file (a TRUNCATE checkpoint), waiting up to ``wait``
    seconds for readers and writers: True once done. With ``secure_delete`` on, what a delete removed is then in
    neither file."""
    driver_connection.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")
    busy, _frames, _copied = driver_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return bool(busy == 0)
