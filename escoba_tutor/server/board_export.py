"""The class board's download in words: the records of a class as a teacher's spreadsheet opens them.

``class/board.csv`` (class_board.py) writes it with :func:`words_layout`; ``?format=codes`` gives the
machine-readable file instead (escoba_tutor/records/export.py). In the board's language:

- the header row and every value that is a code (the activity, the kind of exercise, the level, the mistake,
  the lesson with its title, the language, right or not, the result) in words from the ``server`` catalog
  (escoba_tutor/text/board_words.py) and the exercises' registry, as the board says them;
- the times in the teacher's time zone: a download does not tell the server where the browser is, so the board's
  link carries it (``tz=Europe/Madrid``, filled in by the page's script from the browser); a missing or unknown
  one gives the server's zone. The header names the zone used, so the file always says what its times mean;
- the separator, decimal sign and date form a spreadsheet set to that language reads without asking: Spanish
  ``;``, ``12,5`` and ``05/12/2026 09:30:00`` (Excel in Spanish reads ``,`` as the decimal sign, so its list
  separator is ``;``); English ``,``, ``12.5`` and ``2026-12-05 09:30:00`` (the one date form that British and
  American spreadsheets both read the same way).
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timezone, tzinfo
from functools import cache, lru_cache
from pathlib import Path
from urllib.parse import quote
from zoneinfo import ZoneInfo, available_timezones

from ..exercises.registry import column_words, mistake_words
from ..records.board import ClassInfo
from ..records.export import CODES, CsvLayout, ExportRecord
from ..records.tables import TABLE_LEVEL, Player
from ..text.board_words import (
    COMPUTER_SEAT,
    CSV_EVENT_WORDS,
    CSV_FILE_NAME,
    CSV_HEADER,
    CSV_LANGUAGE_WORDS,
    CSV_NO,
    CSV_OUTCOME_WORDS,
    CSV_TABLE_EVENT_WORDS,
    CSV_YES,
    level_words,
)
from ..text.phrases import and_list, one_decimal
from ..text.translator import Translator

__all__ = ["Zone", "teacher_zone", "server_zone", "words_layout", "lesson_titles", "export_layout", "attachment"]

_SEPARATOR = {"es": ";", "en": ","}
_DATE_TIME = {"es": "%d/%m/%Y %H:%M:%S", "en": "%Y-%m-%d %H:%M:%S"}
_ZONE_NAME = re.compile(r"[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+){0,2}")


class Zone:
    """A time zone and the name the file gives it. ``zone`` None: the server's own, as its clock keeps it."""

    def __init__(self, zone: tzinfo | None, name: str) -> None:
        self.zone, self.name = zone, name

    def local(self, moment: datetime) -> datetime:
        return moment.astimezone(self.zone) if self.zone is not None else moment.astimezone()


@cache
def _known_zones() -> frozenset[str]:
    return frozenset(available_timezones())


def _zone(name: str) -> Zone | None:
    """The zone of an IANA name the system's time zone data knows (``Europe/Madrid``, ``UTC``), else None."""
    if not (0 < len(name) <= 64 and _ZONE_NAME.fullmatch(name) and name in _known_zones()
            and ("/" in name or name in ("UTC", "GMT"))):  # not the data's own files (localtime, Factory)
        return None
    try:
        return Zone(ZoneInfo(name), name)
    except (ValueError, OSError):  # listed but unreadable (a broken zone file)
        return None


def server_zone() -> Zone:
    """The server's time zone: ``TZ``, else the one /etc/localtime names, else the clock's own (named by its
    abbreviation, ``CET``)."""
    candidates = [os.environ.get("TZ", "").removeprefix(":")]
    try:
        link = os.readlink("/etc/localtime")
        candidates.append(link.split("zoneinfo/", 1)[1] if "zoneinfo/" in link else "")
    except OSError:  # not a link, or no such file (Windows)
        pass
    for name in candidates:
        found = _zone(name) if name else None
        if found is not None:
            return found
    return Zone(None, datetime.now().astimezone().strftime("%Z") or "UTC")


def teacher_zone(given: str) -> Zone:
    """The zone the board's link names (the browser's), or the server's when it names none the server knows."""
    return _zone(given) or server_zone()


@lru_cache(maxsize=16)
def _titles_in(folder: str, lang: str) -> dict[str, str]:
    titles = {}
    for notebook in sorted(Path(folder, lang).glob("*.ipynb")):
        try:
            cells = json.loads(notebook.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError, AttributeError):
            continue  # a broken notebook keeps its number: the board and its download must still be drawn
        first = next((c for c in cells if isinstance(c, dict) and c.get("cell_type") == "markdown"), None)
        text = first.get("source", "") if first else ""
        text = "".join(text) if isinstance(text, list) else str(text)
        heading = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), "")
        if heading and len(heading) < 200:
            titles[notebook.stem] = heading
    return titles


def lesson_titles(folder: str | Path | None, lang: str) -> dict[str, str]:
    """Each lesson page's title in ``lang`` (``02-captures``: «2. Bazas de 15»), as the first heading of its
    notebook in ``folder/lang`` says it: the lessons the server serves are the one source, a teacher's own copy
    (``--lessons``) included, for the board and its download alike. A page whose notebook cannot be read is left
    out (it is named by its number)."""
    return _titles_in(str(folder), lang) if folder else {}


def _lesson_words(_: Translator, lesson: str | None, titles: dict[str, str]) -> str | None:
    if lesson is None:
        return None
    if lesson == "play":
        return _("game")
    if lesson == "index":
        return _("start page")
    if lesson in titles:
        return titles[lesson]
    number = lesson.split("-", 1)[0]
    return str(int(number)) if number.isdigit() else lesson


def words_layout(lang: str, zone: Zone, titles: dict[str, str] | None = None) -> CsvLayout:
    """The records' file in ``lang``'s words, times in ``zone``; ``titles``: the lessons' (:func:`lesson_titles`)."""
    _ = Translator(lang)
    titles = titles or {}
    when = _DATE_TIME[lang]
    header = [_(word, zone=zone.name) if "{zone}" in word else _(word) for word in CSV_HEADER]

    def words(table: dict[str, str], code: str | None) -> str | None:
        return None if code is None else (_(table[code]) if code in table else code)

    def player(p: Player) -> str:
        if p.deleted:
            return _("a deleted nickname")
        return p.nickname or (_(COMPUTER_SEAT, level=level_words(_, p.level)) if p.level else _("an empty seat"))

    def cells(class_info: ClassInfo, r: ExportRecord) -> list[object]:
        started = class_info.started_at.astimezone(timezone.utc)
        # a record a moment before its class began (another machine's clock) is at its start, not at "-0,0"
        minutes = max(0.0, (r.at - started).total_seconds() / 60)
        return [class_info.name, zone.local(started).strftime(when), zone.local(r.at).strftime(when),
                one_decimal(_, minutes), r.nickname,
                words(CSV_TABLE_EVENT_WORDS if r.level == TABLE_LEVEL else CSV_EVENT_WORDS, r.event),
                None if r.kind is None else column_words(_, r.kind),
                None if r.level is None else level_words(_, r.level), _lesson_words(_, r.lesson, titles),
                words(CSV_LANGUAGE_WORDS, r.lang), r.seed,
                None if r.correct is None else _(CSV_YES if r.correct else CSV_NO),
                None if r.mistake is None or r.kind is None else mistake_words(_, r.kind, r.mistake),
                r.points_player, r.points_computer, r.escobas_player, r.escobas_computer,
                words(CSV_OUTCOME_WORDS, r.outcome), r.rules,
                None if r.table is None else r.table.code,
                None if r.table is None or r.table.partner is None else player(r.table.partner),
                None if r.table is None else and_list(_, [player(p) for p in r.table.other_side])]

    return CsvLayout(header, cells, _SEPARATOR[lang])


def export_layout(fmt: str, lang: str, tz: str, lessons: str, class_name: str) -> tuple[CsvLayout, str]:
    """The download's layout and file name (without its extension): ``fmt`` ``codes`` the machine-readable file,
    anything else the file in ``lang``'s words, times in the zone ``tz`` names (else the server's);
    ``lessons``: the folder of the lessons served, for their titles ("" for none)."""
    if fmt == "codes":
        return CODES, f"escoba-class-{class_name}"
    titles = lesson_titles(lessons or None, lang)
    return words_layout(lang, teacher_zone(tz), titles), Translator(lang)(CSV_FILE_NAME, name=class_name)


def attachment(stem: str, extension: str) -> str:
    """A download's Content-Disposition: the name in UTF-8 (RFC 6266's ``filename*``) and, for an old browser,
    in ASCII (a header is Latin-1: «Саша» as it is would end the download in an error), letters and digits
    kept, anything else a ``-``."""
    safe = "".join(ch if ch.isalnum() else "-" for ch in stem)[:60] + extension
    plain = "".join(ch if ch.isascii() else "-" for ch in safe)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(safe, safe='')}"
