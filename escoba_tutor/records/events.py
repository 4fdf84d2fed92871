"""What a student's kernel records: the four events, the nickname rule, and the errors of the class records.

A nickname is the only thing that names a student. :func:`valid_nickname` decides what one may be:

- it is put in Unicode normal form NFKC, stripped of spaces at both ends, and a run of spaces inside it becomes
  one: «Íñigo» typed on any keyboard is one nickname, and letters that only look different are folded into the
  usual ones (full-width «Ａｎａ» is «Ana», a non-breaking space a space);
- 1 to 24 characters, each a letter or a digit of any script («Íñigo», «Zoë», «محمد», «明»), a space, ``-``, ``_``
  or ``.``; nothing else: no ``<``, no emoji, no control characters;
- no invisible character (a zero-width space or joiner, a direction change, a Hangul filler, a variation
  selector: Unicode's default-ignorable characters) (code ``nickname_invisible``);
- one script: letters of different scripts are not mixed (a Latin «Ana» with a Cyrillic «а» in it looks like
  «Ana» and is refused), except the mixes a language writes (Latin with the Japanese scripts and Han, with
  Korean's Hangul and Han, with Bopomofo and Han) (code ``nickname_mixed_scripts``);
- an accent only as names write it: at most one combining mark on a letter, and on a Latin, Greek or Cyrillic
  letter none that has no composed form with it (Spanish, French, German, Vietnamese... all have theirs, while
  stacked accents and a «q́» are look-alike tricks) (code ``nickname_stacked_marks``);
- "Ana" and "ana" are **the same student**: the records compare nicknames by :func:`nickname_key` (case folded,
  NFKC, and a letter of the Cyrillic or Greek scripts that looks like a Latin one read as that Latin letter), so
  a student who types their nickname differently on another day keeps one row on the board, and a nickname
  written wholly in Cyrillic look-alikes is the Latin one it looks like; the board shows the spelling of their
  latest record.

>>> valid_nickname("  Íñigo ")
'Íñigo'
>>> valid_nickname("Ｍａｒíａ  José")
'María José'
>>> nickname_key("ANA") == nickname_key("ana"), nickname_key("\u0430\u0441\u0435") == nickname_key("ace")
(True, True)
>>> valid_nickname("An\u0430")  # the last letter is Cyrillic
Traceback (most recent call last):
...
escoba_tutor.records.events.NicknameError: a nickname is written in one script, not LATIN and CYRILLIC together
>>> valid_nickname("<script>")
Traceback (most recent call last):
...
escoba_tutor.records.events.NicknameError: a nickname holds letters, digits, spaces and - _ . only, not '<'
"""

from __future__ import annotations

import re
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


# Unicode's default-ignorable code points (DerivedCoreProperties.txt): drawn as nothing, or changing only how the
# text around them is drawn. Besides those of category Cf (format), which are all refused, these are letters or
# marks that show nothing: Hangul fillers, variation selectors, the combining grapheme joiner...
_INVISIBLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
# The scripts that may be mixed in one nickname, as languages write them (Unicode TR39's "highly restrictive").
_MIXES = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}), frozenset({"LATIN", "HAN", "BOPOMOFO"}),
          frozenset({"LATIN", "HAN", "HANGUL"}))
_SCRIPT_ALIASES = {"CJK": "HAN", "IDEOGRAPHIC": "HAN", "ARABIC-INDIC": "ARABIC", "EXTENDED": "ARABIC",
                   "KATAKANA-HIRAGANA": None}
# Scripts whose every accented letter in use has a composed form (NFC): a mark left over is a look-alike trick.
_COMPOSED_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC"})
# Lower-case Cyrillic and Greek letters drawn like Latin ones: read as those in a nickname's key (after case
# folding), so a nickname written in them is the Latin one it looks like. (Mixed with Latin letters they are
# refused anyway.)
_LOOKALIKES = str.maketrans({
    "а": "a", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j", "ӏ": "l", "о": "o", "р": "p",
    "ԛ": "q", "ѕ": "s", "ԝ": "w", "х": "x", "у": "y",
    "α": "a", "ι": "i", "ϳ": "j", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "υ": "u", "χ": "x",
})


def _invisible(char: str) -> bool:
    code = ord(char)
    return unicodedata.category(char) == "Cf" or any(low <= code <= high for low, high in _INVISIBLE)


def _script(char: str) -> str | None:
    """The script of a letter or digit (from its Unicode name: LATIN, CYRILLIC, HAN...); None for what every
    script shares (ASCII digits, spaces and signs, marks, which belong to their letter)."""
    if char.isascii() and not char.isalpha():
        return None
    if unicodedata.category(char)[0] not in "LN":
        return None
    word = unicodedata.name(char, "").split(" ", 1)[0]
    return _SCRIPT_ALIASES.get(word, word) or None


def _problem(nickname: str) -> NicknameError | None:
    """What breaks the rules of the module's text in a nickname already normalised, or None."""
    scripts: list[str] = []
    marks = 0  # combining marks on the letter before
    for position, char in enumerate(nickname):
        category = unicodedata.category(char)
        shown = repr(char) if char.isprintable() else f"U+{ord(char):04X}"
        if _invisible(char):
            return NicknameError(f"a nickname holds no invisible character, not U+{ord(char):04X}",
                                 code="nickname_invisible", character=char)
        if category[0] == "M" and position > 0 and unicodedata.category(nickname[position - 1])[0] in "LM":
            if category in ("Mn", "Me"):  # an accent drawn on the letter (a spacing vowel sign is a letter's own)
                marks += 1
                base = next(c for c in reversed(nickname[:position]) if unicodedata.category(c)[0] == "L")
                if marks > 1 or _script(base) in _COMPOSED_SCRIPTS:
                    return NicknameError(f"a nickname has at most one accent on a letter, and only one the letter "
                                         f"takes, not {shown} on {base!r}", code="nickname_stacked_marks",
                                         character=char)
            continue
        marks = 0
        if category[0] not in "LN" and char not in NICKNAME_PUNCTUATION:
            return NicknameError(f"a nickname holds letters, digits, spaces and - _ . only, not {shown}",
                                 code="nickname_bad_character", character=char)
        script = _script(char)
        if script is not None and script not in scripts:
            scripts.append(script)
    if len(scripts) > 1 and not any(mix.issuperset(scripts) for mix in _MIXES):
        return NicknameError(f"a nickname is written in one script, not {' and '.join(scripts[:3])} together",
                             code="nickname_mixed_scripts", scripts=scripts)
    return None


def valid_nickname(text: str) -> str:
    """``text`` as a nickname (NFKC, stripped, one space at most between words), or :class:`NicknameError`
    naming what is wrong with it (see the module's text)."""
    if not isinstance(text, str):
        raise NicknameError(f"a nickname is text, not {type(text).__name__}", code="nickname_not_text")
    nickname = re.sub(" {2,}", " ", unicodedata.normalize("NFKC", text).strip(" "))
    if not nickname:
        raise NicknameError("a nickname is empty", code="nickname_empty")
    if len(nickname) > MAX_NICKNAME:
        raise NicknameError(f"a nickname has at most {MAX_NICKNAME} characters, not {len(nickname)}",
                            code="nickname_too_long", length=len(nickname), limit=MAX_NICKNAME)
    problem = _problem(nickname)
    if problem is not None:
        raise problem
    return nickname


def nickname_key(nickname: str) -> str:
    """The key under which the records group a nickname: NFKC and case folded, so "Ana" and "ana" are one
    student, and Cyrillic and Greek look-alikes read as the Latin letters they look like (the module's text)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", nickname).casefold())
    return re.sub(" {2,}", " ", folded.strip(" ")).translate(_LOOKALIKES)


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
class Player:
    """Who played a seat at a table of classmates: the student who sat there (``nickname``, kept while the computer
    plays it for them), else the computer at its ``level``; both None for a seat nobody took. ``deleted``: the
    student who sat there had their records deleted since (their nickname is gone)."""

    nickname: str | None
    level: str | None
    deleted: bool = False


@dataclass(frozen=True)
class PlayedAt:
    """The table a student's deal or game was played at, as it was when it finished: the table's code, the
    student's partner (a game of four; None for two) and the other side's players, in seat order."""

    code: str
    partner: Player | None
    other_side: tuple[Player, ...]


#: The level of a deal or game played at a table of classmates: recorded by the server, never by a kernel.
TABLE_LEVEL = "table"


@dataclass(frozen=True)
class DealFinished:
    """A finished deal against the computer at ``level``, with both sides' points and escobas; at a table of
    classmates (level :data:`TABLE_LEVEL`), the other side's, and ``table`` says who sat where."""

    nickname: str
    level: str
    seed: int | None  # None: a position that no seed made (recorded without one)
    points_player: int
    points_computer: int
    escobas_player: int
    escobas_computer: int
    at: datetime = field(default_factory=_now)
    table: PlayedAt | None = None


@dataclass(frozen=True)
class GameFinished:
    """A finished game against the computer, won or lost by the student: a game always has a winner (a shared
    highest total plays more deals, docs/rules.md §6), so there is no tie."""

    nickname: str
    level: str
    seed: int | None  # None: a position that no seed made (recorded without one)
    points_player: int
    points_computer: int
    won: bool
    at: datetime = field(default_factory=_now)
    table: PlayedAt | None = None


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
        if item.name == "table":  # the server's alone (from_message refuses one)
            continue
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
    if values.pop("table", None) is not None or values.get("level") == TABLE_LEVEL:  # a kernel plays the computer
        raise RecordsError("a kernel records no game at a table of classmates: the server does",
                           code="records_bad_event")
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
        outcome = {True: "won", False: "lost"}.get(event.won, "?")
        return (f"finished game by {nickname!r} (level {event.level}, seed {event.seed}, "
                f"{event.points_player}-{event.points_computer}, {outcome})")
    if isinstance(event, LessonOpened):
        return f"lesson {event.lesson!r} ({event.lang}) opened by {nickname!r}"
    return f"{type(event).__name__} (not a class record event)"
