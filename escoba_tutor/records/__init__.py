"""The class records: what each student practised, for the teacher's board.

Engine-side: imports SQLAlchemy and the standard library only (no widget library, no web server). See
docs/class-board.md for where the data lives and what is recorded.
"""

from .board import Board, ClassInfo, MistakeRow, StudentRow
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
from .schema import SCHEMA_VERSION
from .store import ClassStore

__all__ = [
    "SCHEMA_VERSION", "Board", "ClassInfo", "ClassStore", "DealFinished", "DrillAnswer", "GameFinished",
    "LessonOpened", "MistakeRow", "NicknameError", "RecordsError", "StudentRow", "nickname_key", "valid_nickname",
]
