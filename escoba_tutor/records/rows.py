"""An event as a row of the ``records`` table, checked: a malformed event is a RecordsError, never a half row.

Standard library only: the store (:mod:`escoba_tutor.records.store`, whose statement is
:data:`escoba_tutor.records.schema.INSERT_RECORD`) writes the row, and the course server's records endpoint
(escoba_tutor/server/records_endpoint.py) checks a kernel's event with it before the event waits for the store.
"""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import datetime, timezone
from typing import Any

from .events import (
    TABLE_LEVEL,
    DealFinished,
    DrillAnswer,
    Event,
    GameFinished,
    LessonOpened,
    PlayedAt,
    Player,
    RecordsError,
    nickname_key,
    valid_nickname,
)

#: The version of the tables this escoba-tutor reads and writes (schema.py has the tables and the migrations).
SCHEMA_VERSION = 8
RECORD_BUDGET = 1.7           # seconds one record may spend waiting for a busy database, all tries together
PAUSE = 0.004                 # seconds at most between two tries (a random share of it)

MAX_TEXT = 64                 # a drill kind, level, lesson or mistake code
MAX_RULES = 200               # a rules' name: a profile and its house rules, escoba+figuras+ties_both_score
MAX_SEED = 2**63 - 1


def _text(event: object, name: str, value: object, *, optional: bool = False, limit: int = MAX_TEXT) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > limit or not value.isprintable():
        raise RecordsError(f"{name} of {type(event).__name__} is a printable text of 1 to {limit} characters, "
                           f"not {value!r:.80}", code="records_bad_event")
    return value


def _count(event: object, name: str, value: object, limit: int = 10_000) -> int:
    if type(value) is not int or not 0 <= value <= limit:
        raise RecordsError(f"{name} of {type(event).__name__} is a whole number from 0 to {limit}, not {value!r:.80}",
                           code="records_bad_event")
    return value


# Every column of the ``records`` table but the row's and class's numbers, in the table's order: each event gives
# all of them (None where it has none), so one statement serves every record. schema.py checks that its table
# has exactly these columns.
EVENT_COLUMNS = ("at", "nickname", "nickname_key", "event", "kind", "level", "lesson", "lang", "seed", "correct",
                 "mistake", "points_player", "points_computer", "escobas_player", "escobas_computer", "outcome",
                 "rules", "played_at")
MAX_TABLE_CODE = 16           # a table's code (records/tables.py makes them of 5 characters)


def to_db_time(moment: datetime) -> datetime:
    """``moment`` as naive UTC, the form the tables store (a naive ``moment`` is taken to be UTC already)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc).replace(tzinfo=None)
    return moment


def _checked(event: object, value: object) -> Player:
    if not isinstance(value, Player):
        raise RecordsError(f"a seat of a table in {type(event).__name__} is a Player, not {value!r:.80}",
                           code="records_bad_event")
    nickname = None if value.nickname is None else valid_nickname(value.nickname)
    return Player(nickname, _text(event, "the computer's level", value.level, optional=True), value.deleted is True)


def player_cells(player: Player) -> list[str | bool | None]:
    """``player`` as ``played_at`` holds it: ``[nickname, level]``, and ``true`` after them for a deleted one."""
    return [player.nickname, player.level, *([True] if player.deleted else [])]


def played_at_text(event: DealFinished | GameFinished) -> str | None:
    """The ``played_at`` column of a deal or game at a table of classmates: who sat where when it finished, as
    JSON ``{"code": …, "partner": [nickname, level] or null, "other_side": [[nickname, level], …]}`` (a seat
    whose student's records were deleted since: ``[null, null, true]``)."""
    table = event.table
    if table is None:
        return None
    if not isinstance(table, PlayedAt) or event.level != TABLE_LEVEL:
        raise RecordsError(f"only a deal or game of level {TABLE_LEVEL!r} names a table, not {table!r:.80}",
                           code="records_bad_event")
    if not isinstance(table.other_side, tuple) or not 1 <= len(table.other_side) <= 3:
        raise RecordsError(f"the other side at a table is 1 to 3 players, not {table.other_side!r:.80}",
                           code="records_bad_event")
    _text(event, "a table's code", table.code, limit=MAX_TABLE_CODE)
    return dump_played_at(PlayedAt(table.code, None if table.partner is None else _checked(event, table.partner),
                                   tuple(_checked(event, p) for p in table.other_side)))


def dump_played_at(table: PlayedAt) -> str:
    """``table`` as the ``played_at`` column's JSON (its values checked already)."""
    return json.dumps({"code": table.code, "partner": None if table.partner is None else player_cells(table.partner),
                       "other_side": [player_cells(p) for p in table.other_side]},
                      ensure_ascii=False, separators=(",", ":"))


def played_at_from_text(text: str | None) -> PlayedAt | None:
    """The table a ``played_at`` column names (None for NULL), as :func:`played_at_text` wrote it."""
    if text is None:
        return None
    data = json.loads(text)
    partner = data.get("partner")
    return PlayedAt(data["code"], None if partner is None else Player(*partner),
                    tuple(Player(*p) for p in data["other_side"]))


def event_row(event: Event) -> dict[str, Any]:
    """The columns of the ``records`` row for ``event``; RecordsError (or NicknameError) for a malformed one."""
    if not isinstance(event, (DrillAnswer, DealFinished, GameFinished, LessonOpened)):
        raise RecordsError(f"{type(event).__name__} is not a class record event", code="records_bad_event")
    values = {f.name: getattr(event, f.name) for f in fields(event)}
    nickname = valid_nickname(values["nickname"])
    at = values["at"]
    if not isinstance(at, datetime):
        raise RecordsError(f"the time of a record is a datetime, not {at!r:.80}", code="records_bad_event")
    row: dict[str, Any] = dict.fromkeys(EVENT_COLUMNS)
    row.update(nickname=nickname, nickname_key=nickname_key(nickname), at=to_db_time(at))
    if values.get("seed") is not None:  # a game without a seed (one typed in by hand) is recorded without one
        row["seed"] = _count(event, "seed", values["seed"], MAX_SEED)
    if isinstance(event, DrillAnswer):
        if type(event.correct) is not bool:
            raise RecordsError(f"correct of a drill answer is True or False, not {event.correct!r:.80}",
                               code="records_bad_event")
        row.update(event="drill", kind=_text(event, "kind", event.kind), correct=event.correct,
                   mistake=None if event.correct else _text(event, "mistake", event.mistake, optional=True),
                   lesson=_text(event, "lesson", event.lesson, optional=True),
                   rules=_text(event, "rules", event.rules, optional=True, limit=MAX_RULES))
    elif isinstance(event, DealFinished):
        row.update(event="deal", level=_text(event, "level", event.level), played_at=played_at_text(event),
                   **{name: _count(event, name, values[name]) for name in
                      ("points_player", "points_computer", "escobas_player", "escobas_computer")})
    elif isinstance(event, GameFinished):
        if type(event.won) is not bool:  # (a finished game has a winner: a shared highest total plays on)
            raise RecordsError(f"won of a finished game is True or False, not {event.won!r:.80}",
                               code="records_bad_event")
        row.update(event="game", level=_text(event, "level", event.level),
                   points_player=_count(event, "points_player", event.points_player),
                   points_computer=_count(event, "points_computer", event.points_computer),
                   outcome="won" if event.won else "lost", played_at=played_at_text(event))
    else:
        row.update(event="lesson", lesson=_text(event, "lesson", event.lesson), lang=_text(event, "lang", event.lang))
    return row
