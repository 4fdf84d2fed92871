"""The class records store on SQLite: events in, the board's numbers, classes, CSV, nicknames, bad places."""

from __future__ import annotations

import csv
import io
import logging
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from escoba_tutor.records import (
    ClassStore,
    DealFinished,
    DrillAnswer,
    GameFinished,
    LessonOpened,
    NicknameError,
    RecordsError,
    valid_nickname,
)


@pytest.fixture
def store(tmp_path: Path):
    with ClassStore.open(tmp_path / "class.sqlite3") as opened:
        yield opened


def test_a_record_reaches_the_board(store: ClassStore) -> None:
    assert store.record(DrillAnswer("Ana", "captures", 12, False, "missed_15", lesson="02-captures"))
    board = store.board()
    assert [s.nickname for s in board.students] == ["Ana"]
    assert board.students[0].drills == {"captures": (1, 0)}
    assert board.students[0].lessons == ["02-captures"]
    assert [(m.kind, m.code, m.students, m.times, m.seeds) for m in board.mistakes] == [
        ("captures", "missed_15", 1, 1, [12])]


def test_a_new_class_keeps_the_old_one(store: ClassStore) -> None:
    first = store.current_class()
    store.record(LessonOpened("Ana", "01-cards", "es"))
    second = store.start_new_class("Tuesday 3B")
    assert store.current_class() == second and second.name == "Tuesday 3B"
    assert [c.id for c in store.classes()] == [second.id, first.id]
    assert store.board().students == []
    assert [s.nickname for s in store.board(first.id).students] == ["Ana"]


def test_forgetting_the_current_class_starts_a_new_one(store: ClassStore) -> None:
    first = store.current_class()
    store.record(LessonOpened("Ana", "01-cards", "es"))
    store.forget_class(first.id)
    assert first.id not in [c.id for c in store.classes()]
    assert store.current_class().id != first.id
    assert store.board().students == []
    with pytest.raises(RecordsError, match="no class"):
        store.board(first.id)
    with pytest.raises(RecordsError, match="no class"):
        store.forget_class(first.id)


def test_the_csv_has_a_header_and_one_row_per_record(store: ClassStore) -> None:
    store.record(DrillAnswer("-Ana", "captures", 3, False, "=HYPERLINK(1)"))
    store.record(DealFinished("Bea", "easy", 4, 5, 2, 1, 0))
    store.record(GameFinished("Bea", "easy", 4, 21, 12, None))
    out = io.StringIO()
    store.export_csv(out)
    text = out.getvalue()
    assert text.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(text[1:])))
    assert [r["event"] for r in rows] == ["drill", "deal", "game"]
    assert rows[0]["nickname"] == "'-Ana" and rows[0]["mistake"] == "'=HYPERLINK(1)"
    assert rows[2]["outcome"] == "tied"


def test_record_never_raises_and_names_what_was_lost(store: ClassStore, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
        assert store.record(DrillAnswer("<script>", "captures", 1, True, None)) is False
        assert store.record("not an event") is False  # type: ignore[arg-type]
    assert "drill answer by '<script>'" in caplog.text
    assert store.board().students == []


@pytest.mark.parametrize(("text", "code"), [
    ("", "nickname_empty"), ("   ", "nickname_empty"), ("x" * 10_000, "nickname_too_long"),
    ("<script>", "nickname_bad_character"), ("Ana\x00", "nickname_bad_character"),
    ("Ana\u202e", "nickname_bad_character"), ("Ana 😀", "nickname_bad_character"),
])
def test_bad_nicknames_are_refused_by_name(text: str, code: str) -> None:
    with pytest.raises(NicknameError) as caught:
        valid_nickname(text)
    assert caught.value.code == code


@pytest.mark.parametrize("name", ["Íñigo", "Zoë", "ana-3_b.c", "محمد", "明美"])
def test_letters_of_any_script_make_a_nickname(name: str) -> None:
    assert valid_nickname(f"  {name} ") == name


def test_a_folder_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(RecordsError, match="is a folder"):
        ClassStore.open(tmp_path)


def test_a_bad_scheme_is_named() -> None:
    with pytest.raises(RecordsError, match="cannot be a mysql: URL"):
        ClassStore.open("mysql://u:secret@host/db")


def test_times_are_utc(store: ClassStore) -> None:
    at = datetime(2026, 12, 1, 17, 5, tzinfo=timezone(timedelta(hours=1)))
    store.record(LessonOpened("Ana", "01-cards", "es", at=at))
    assert store.board().students[0].last_seen == at
