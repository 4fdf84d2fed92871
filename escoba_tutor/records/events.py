"""What a student's kernel records: the four events, the nickname rule, and the errors of the class records.

A nickname is the only thing that names a student. :func:`valid_nickname` decides what one may be:

- it is stripped of spaces at both ends and put in Unicode normal form NFC, so «Íñigo» typed on any keyboard is
  one nickname;
- 1 to 24 characters, each a letter or a digit of any script («Íñigo», «Zoë», «محمد», «明»), a space, ``-``, ``_``
  or ``.`` (a combining accent is allowed after a letter); nothing else: no ``<``, no emoji, no control or
  direction-changing characters;
- "Ana" and "ana" are **the same student**: the records compare nicknames by :func:`nickname_key` (case folded),
  so a student who types their nickname differently on another day keeps one row on the board; the board shows
  the spelling of their latest record.

>>> valid_nickname("  Íñigo ")
'Íñigo'
>>> nickname_key("ANA") == nickname_key("ana")
True
>>> valid_nickname("<script>")
Traceback (most recent call last):
...
escoba_tutor.records.events.NicknameError: a nickname holds letters, digits, spaces and - _ . only, not '<'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, fields
from datetime import datetime, timezone

from ..engine.errors import EscobaError

MAX_NICKNAME = 24
NICKNAME_PUNCTUATION = frozenset(" -_.")


class RecordsError(EscobaError):
    """A class database that cannot be opened, read or written, or a class or value that does not exist."""

    code = "records"


class NicknameError(RecordsError):
    """A nickname that breaks the rule of :func:`valid_nickname`."""

    code = "bad_nickname"


def valid_nickname(text: str) -> str:
    """``text`` as a nickname (stripped, NFC), or :class:`NicknameError` naming what is wrong with it."""
    if not isinstance(text, str):
        raise NicknameError(f"a nickname is text, not {type(text).__name__}", code="nickname_not_text")
    nickname = unicodedata.normalize("NFC", text).strip(" ")
    if not nickname:
        raise NicknameError("a nickname is empty", code="nickname_empty")
    if len(nickname) > MAX_NICKNAME:
        raise NicknameError(f"a nickname has at most {MAX_NICKNAME} characters, not {len(nickname)}",
                            code="nickname_too_long", length=len(nickname), limit=MAX_NICKNAME)
    for position, char in enumerate(nickname):
        category = unicodedata.category(char)
        if category[0] in "LN" or char in NICKNAME_PUNCTUATION:
            continue
        if category[0] == "M" and position > 0 and unicodedata.category(nickname[position - 1])[0] in "LM":
            continue  # an accent or vowel sign joined to the letter before it
        shown = repr(char) if char.isprintable() else f"U+{ord(char):04X}"
        raise NicknameError(f"a nickname holds letters, digits, spaces and - _ . only, not {shown}",
                            code="nickname_bad_character", character=char)
    return nickname


def nickname_key(nickname: str) -> str:
    """The key under which the records group a nickname: case folded, so "Ana" and "ana" are one student."""
    return unicodedata.normalize("NFC", nickname.casefold())


def _now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class DrillAnswer:
    """One answer to a drill: right, or wrong with the mistake's code (``None`` when the drill names none); where
    it was (``lesson``: the page, ``03-escoba``) and under which ``rules`` (their name, ``scopa``): the drill's
    kind, seed, page and rules make the very exercise again."""

    nickname: str
    kind: str
    seed: int | None  # None: a position that no seed made (recorded without one)
    correct: bool
    mistake: str | None
    lesson: str | None = None
    rules: str | None = None
    at: datetime = field(default_factory=_now)


@dataclass(frozen=True)
class DealFinished:
    """A finished deal against the computer at ``level``, with both sides' points and escobas."""

    nickname: str
    level: str
    seed: int | None  # None: a position that no seed made (recorded without one)
    points_player: int
    points_computer: int
    escobas_player: int
    escobas_computer: int
    at: datetime = field(default_factory=_now)


@dataclass(frozen=True)
class GameFinished:
    """A finished game against the computer; ``won`` is None for a tie."""

    nickname: str
    level: str
    seed: int | None  # None: a position that no seed made (recorded without one)
    points_player: int
    points_computer: int
    won: bool | None
    at: datetime = field(default_factory=_now)


@dataclass(frozen=True)
class LessonOpened:
    """A lesson page opened, in ``lang``."""

    nickname: str
    lesson: str
    lang: str
    at: datetime = field(default_factory=_now)


Event = DrillAnswer | DealFinished | GameFinished | LessonOpened


#: The name of each event in a message from a kernel to its server (and in the ``records`` table's ``event``).
EVENT_NAMES: dict[type, str] = {DrillAnswer: "drill", DealFinished: "deal", GameFinished: "game",
                                LessonOpened: "lesson"}
_EVENT_TYPES = {name: kind for kind, name in EVENT_NAMES.items()}
MAX_MESSAGE_BYTES = 4096  # a message is a few hundred bytes: a drill answer with long rules is under 600


def to_message(event: Event) -> dict[str, object]:
    """``event`` as the small JSON object a kernel sends its server: the event's own fields, its time in ISO
    8601, and no nickname (the server knows whose kernel sends it)."""
    message: dict[str, object] = {"event": EVENT_NAMES[type(event)]}
    for item in fields(event):
        if item.name == "nickname":
            continue
        value = getattr(event, item.name)
        message[item.name] = value.isoformat() if isinstance(value, datetime) else value
    return message


def from_message(message: object, nickname: str) -> Event:
    """The event a kernel's message describes, recorded for ``nickname`` (the kernel's owner: a ``nickname`` in the
    message is ignored); RecordsError for anything that is not such a message. The values themselves are checked
    when the event is turned into a row (:func:`escoba_tutor.records.rows.event_row`)."""
    if not isinstance(message, dict):
        raise RecordsError(f"a record is a JSON object, not {type(message).__name__}", code="records_bad_event")
    kind = _EVENT_TYPES.get(message.get("event"))  # type: ignore[arg-type]
    if kind is None:
        raise RecordsError(f"no such event {str(message.get('event'))[:20]!r}", code="records_bad_event")
    names = {item.name for item in fields(kind)} - {"nickname"}
    unknown = sorted(str(name)[:20] for name in message if name not in names and name not in ("event", "nickname"))
    if unknown:
        raise RecordsError(f"a {message['event']} record has no field {', '.join(unknown[:3])}",
                           code="records_bad_event")
    values = {name: message[name] for name in names if name in message}
    at = values.get("at")
    if at is not None:
        try:
            values["at"] = datetime.fromisoformat(at) if isinstance(at, str) and len(at) <= 40 else None
        except ValueError:
            values["at"] = None
        if values["at"] is None:
            raise RecordsError(f"the time of a record is ISO 8601 text, not {str(at)[:40]!r}",
                               code="records_bad_event")
    try:
        return kind(nickname=nickname, **values)  # type: ignore[no-any-return]
    except TypeError as error:  # a field missing
        raise RecordsError(f"a {message['event']} record is incomplete: {error}", code="records_bad_event") from None


def describe(event: object) -> str:
    """A short account of ``event`` for the log line that says it was not recorded."""
    nickname = getattr(event, "nickname", "?")
    if isinstance(event, DrillAnswer):
        outcome = "right" if event.correct else f"wrong ({event.mistake})"
        return f"drill answer by {nickname!r} (kind {event.kind}, seed {event.seed}, {outcome})"
    if isinstance(event, DealFinished):
        return (f"finished deal by {nickname!r} (level {event.level}, seed {event.seed}, "
                f"{event.points_player}-{event.points_computer})")
    if isinstance(event, GameFinished):
        outcome = {True: "won", False: "lost", None: "tied"}.get(event.won, "?")
        return (f"finished game by {nickname!r} (level {event.level}, seed {event.seed}, "
                f"{event.points_player}-{event.points_computer}, {outcome})")
    if isinstance(event, LessonOpened):
        return f"lesson {event.lesson!r} ({event.lang}) opened by {nickname!r}"
    return f"{type(event).__name__} (not a class record event)"
