"""What the two writers of records share: the SQLAlchemy store (:mod:`escoba_tutor.records.store`) and a
kernel's SQLite writer (:mod:`escoba_tutor.records.writer`, standard library only, so nothing here imports
SQLAlchemy).

- :meth:`RecordWriter.record` never raises: a record that could not be written is logged as a warning on the
  logger ``escoba_tutor.records`` naming what was not recorded, where and why, and the lesson goes on;
- a writer is a context manager that closes it.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TypeVar

from .events import Event, describe

log = logging.getLogger("escoba_tutor.records")

W = TypeVar("W", bound="RecordWriter")


class RecordWriter:
    """A writer of records: a subclass writes one record in :meth:`_write_record` (raising when it cannot) and
    names its database in :attr:`url`."""

    @property
    def url(self) -> str:
        raise NotImplementedError

    def _write_record(self, event: Event) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def record(self, event: Event) -> bool:
        """Write ``event`` into the current class: True once it is stored; False (and a warning in the log, never
        an exception) when it could not be."""
        try:
            self._write_record(event)
            return True
        except Exception as error:  # a record must never break a lesson
            with contextlib.suppress(Exception):  # not even a broken log handler
                log.warning("not recorded: %s, in %s: %s", describe(event), self.url, error)
            return False

    def __enter__(self: W) -> W:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
