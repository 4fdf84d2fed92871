"""A class's records as CSV, for a spreadsheet.

One header row, then one row per record, oldest first. The text starts with a byte order mark (U+FEFF): Excel
reads a CSV file without one in the computer's old 8-bit code page and would show «Íñigo» as «ÃÃ±igo»;
LibreOffice, Numbers, Google Sheets and Python (``encoding="utf-8-sig"``) read it either way. Write it to a
stream that encodes UTF-8 (not ``utf-8-sig``, which would add a second mark).

A text cell that a spreadsheet would take for a formula (starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return) gets a leading ``'``, so opening the file never runs anything a nickname or code carried.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import TextIO

from sqlalchemy import Connection, select

from .board import ClassInfo
from .schema import from_db_time, records

BOM = "\ufeff"
COLUMNS = ("class", "class_started_utc", "at_utc", "nickname", "event", "drill_kind", "level", "lesson", "lang",
           "seed", "correct", "mistake", "points_player", "points_computer", "escobas_player", "escobas_computer",
           "outcome", "rules")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """``value`` as a spreadsheet may show it: text that could start a formula gets a leading '."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def write_csv(connection: Connection, out: TextIO, class_info: ClassInfo, *, bom: bool = True) -> None:
    if bom:
        out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    query = select(records).where(records.c.class_id == class_info.id).order_by(records.c.at, records.c.id)
    started = class_info.started_at.isoformat(timespec="seconds")
    for row in connection.execute(query):
        cells: Iterable[object] = (
            class_info.name, started, from_db_time(row.at).isoformat(timespec="milliseconds"), row.nickname,
            row.event, row.kind, row.level, row.lesson, row.lang, row.seed,
            None if row.correct is None else ("yes" if row.correct else "no"), row.mistake, row.points_player,
            row.points_computer, row.escobas_player, row.escobas_computer, row.outcome, row.rules)
        writer.writerow(["" if cell is None else safe_cell(cell) for cell in cells])
