"""The class records: what each student practised, for the teacher's board.

Engine-side: imports SQLAlchemy and the standard library only (no widget library, no web server). See
docs/class-board.md for where the data lives and what is recorded, docs/class-board-internals.md for how the
store works and what it costs.

Importing this package loads the events alone (standard library): a student's kernel records without SQLAlchemy,
sending its events to the course server, which writes them (:mod:`escoba_tutor.records.recorder`). The store and
the board, which need SQLAlchemy, are loaded when first named (``from escoba_tutor.records import ClassStore``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .events import (
    DealFinished,
    DrillAnswer,
    GameFinished,
    LessonOpened,
    NicknameError,
    RecordsError,
    nickname_key,
    valid_nickname,
)
from .rows import SCHEMA_VERSION

if TYPE_CHECKING:
    from .board import Board, ClassInfo, Exercise, LessonRow, MistakeRow, StudentRecord, StudentRecords, StudentRow
    from .store import ClassStore

_LAZY = {"Board": "board", "ClassInfo": "board", "Exercise": "board", "MistakeRow": "board", "StudentRow": "board",
         "LessonRow": "board", "StudentRecord": "board", "StudentRecords": "board", "ClassStore": "store"}

__all__ = [
    "SCHEMA_VERSION", "Board", "ClassInfo", "ClassStore", "DealFinished", "DrillAnswer", "Exercise", "GameFinished",
    "LessonOpened", "LessonRow", "MistakeRow", "StudentRecord", "StudentRecords", "NicknameError", "RecordsError",
    "StudentRow", "nickname_key", "valid_nickname",
]


def __getattr__(name: str) -> object:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
