"""A class's records as CSV, for a spreadsheet.

One header row, then one row per record, oldest first. The text starts with a byte order mark (U+FEFF): Excel
reads a CSV file without one in the computer's old 8-bit code page and would show «Íñigo» as «ÃÃ±igo»;
LibreOffice, Numbers, Google Sheets and Python (``encoding="utf-8-sig"``) read it either way. Write it to a
stream that encodes UTF-8 (not ``utf-8-sig``, which would add a second mark).

A :class:`CsvLayout` says what the file holds: its header row, each record's cells and the separator. The one
here, :data:`CODES`, is the machine-readable file (the records' codes, times in UTC, commas): a program's, and
the default. The teacher's file, in words and local time, is the server's (escoba_tutor/server/board_export.py):
the words come from the catalogs and the exercises' registry, which this layer does not import.

A game or deal at a table where students play each other (level ``table``, records/tables.py) is recorded as
a game against the computer is, its ``points_computer`` and ``escobas_computer`` holding the other side's; the
last three columns, added after the others so that a reader of the earlier file finds its columns where they
were, name its table (``table``, the code), the student's partner in a game of four (``partner``) and the other
side's players (``other_side``, joined by ``;``), each a nickname, ``computer:LEVEL`` or ``deleted``, as they sat
when the deal or game finished. They are empty for every other record.

A text cell that a spreadsheet would take for a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return) gets a leading ``'``, so opening the file never runs anything a nickname or code carried; a
layout's cells pass through the same check.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, TextIO

from sqlalchemy import Connection, select

from .board import ClassInfo
from .events import TABLE_LEVEL, PlayedAt, Player
from .rows import played_at_from_text
from .schema import from_db_time, records
from .tables import played_at_tables

__all__ = ["BOM", "COLUMNS", "CODES", "CsvLayout", "ExportRecord", "safe_cell", "write_csv"]

BOM = "\ufeff"
COLUMNS = ("class", "class_started_utc", "at_utc", "nickname", "event", "drill_kind", "level", "lesson", "lang",
           "seed", "correct", "mistake", "points_player", "points_computer", "escobas_player", "escobas_computer",
           "outcome", "rules", "table", "partner", "other_side")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class ExportRecord(NamedTuple):
    """One record as an export reads it: ``at`` in UTC (aware), the other fields as the records table holds them
    (None where the event has none)."""

    at: datetime
    nickname: str
    event: str
    kind: str | None
    level: str | None
    lesson: str | None
    lang: str | None
    seed: int | None
    correct: bool | None
    mistake: str | None
    points_player: int | None
    points_computer: int | None
    escobas_player: int | None
    escobas_computer: int | None
    outcome: str | None
    rules: str | None
    #: A game or deal at a table of classmates (level ``table``): the table it was played at (None otherwise).
    table: PlayedAt | None = None


@dataclass(frozen=True)
class CsvLayout:
    """What a CSV export holds: the header row, one record's cells (given its class), and the separator."""

    header: Sequence[str]
    cells: Callable[[ClassInfo, ExportRecord], Sequence[object]]
    delimiter: str = ","


def _player_code(player: Player) -> str:
    """A seat's player as the codes file names them: the nickname, ``computer:greedy``, ``deleted`` (a student
    whose records were deleted since), or "" (nobody)."""
    if player.deleted:
        return "deleted"
    return player.nickname or (f"computer:{player.level}" if player.level else "")


def _codes(class_info: ClassInfo, r: ExportRecord) -> Sequence[object]:
    table = r.table
    return (class_info.name, class_info.started_at.isoformat(timespec="seconds"),
            r.at.isoformat(timespec="milliseconds"), r.nickname, r.event, r.kind, r.level, r.lesson, r.lang, r.seed,
            None if r.correct is None else ("yes" if r.correct else "no"), r.mistake, r.points_player,
            r.points_computer, r.escobas_player, r.escobas_computer, r.outcome, r.rules,
            # a nickname holds no «;» (letters, digits, spaces, - _ . only): the other side's players joined by it
            None if table is None else table.code,
            None if table is None or table.partner is None else _player_code(table.partner),
            None if table is None else ";".join(_player_code(p) for p in table.other_side))


#: The machine-readable file: the columns' and values' codes, times in UTC (ISO 8601), commas.
CODES = CsvLayout(COLUMNS, _codes)


def safe_cell(value: object) -> object:
    """``value`` as a spreadsheet may show it: text that could start a formula gets a leading '."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def write_csv(connection: Connection, out: TextIO, class_info: ClassInfo, *, bom: bool = True,
              layout: CsvLayout = CODES) -> None:
    # the whole file is made first and written at once: a read tried again (a busy or lost database, see
    # ClassStore._retry) must not leave the first try's rows in ``out``
    text = io.StringIO()
    writer = csv.writer(text, delimiter=layout.delimiter, lineterminator="\r\n")
    writer.writerow([safe_cell(word) for word in layout.header])
    query = select(records).where(records.c.class_id == class_info.id).order_by(records.c.at, records.c.id)
    tables: dict[tuple[int, str], PlayedAt] | None = None  # for records older than version 8: the seats as now
    for row in connection.execute(query):
        table = played_at_from_text(row.played_at)
        if table is None and row.level == TABLE_LEVEL:
            tables = played_at_tables(connection, class_info.id) if tables is None else tables
            table = tables.get((row.seed, row.nickname_key))
        record = ExportRecord(
            from_db_time(row.at), row.nickname, row.event, row.kind, row.level, row.lesson, row.lang, row.seed,
            row.correct, row.mistake, row.points_player, row.points_computer, row.escobas_player,
            row.escobas_computer, row.outcome, row.rules, table)
        writer.writerow(["" if cell is None else safe_cell(cell) for cell in layout.cells(class_info, record)])
    out.write((BOM if bom else "") + text.getvalue())
