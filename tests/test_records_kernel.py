"""A student's kernel records without SQLAlchemy: it writes to a SQLite class database through the standard
library's sqlite3 (records/writer.py), the very rows the SQLAlchemy store writes, and loads SQLAlchemy only to make
or migrate a database the server has not made ready (the failures and the thirty writers: test_records_failures.py
and test_records_concurrency.py run on both)."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from escoba_tutor.records import (
    SCHEMA_VERSION,
    ClassStore,
    DealFinished,
    DrillAnswer,
    GameFinished,
    LessonOpened,
    RecordsError,
)
from escoba_tutor.records.location import locate, sqlite_file
from escoba_tutor.records.recorder import Recorder
from escoba_tutor.records.writer import SqliteWriter

REFERENCES = Path(__file__).parent / "data" / "records"
MADRID = timezone(timedelta(hours=1))

EVENTS = [
    LessonOpened("Íñigo", "01-cards", "es", at=datetime(2026, 12, 1, 9, 0, 0, 123456, tzinfo=timezone.utc)),
    LessonOpened("Zoë", "index", "en", at=datetime(2026, 12, 1, 10, 0, 1, tzinfo=MADRID)),  # 09:00:01 UTC
    DrillAnswer("Ana", "captures", 2**53 - 2, False, "missed_capture", lesson="07-variants", rules="scopa",
                at=datetime(2026, 12, 1, 9, 5)),  # naive: taken to be UTC already
    DrillAnswer("ana", "captures", 0, True, None, lesson="02-captures", rules="escoba+figuras+ties_both_score",
                at=datetime(999, 1, 2, 3, 4, 5, 6)),
    DrillAnswer("Bea", "setenta", None, False, None),
    DrillAnswer("Bea", "points", 7, False, "unanswered", lesson=None),
    DealFinished("Carla", "greedy", 40, 6, 5, 1, 2),
    DealFinished("Carla", "expert", None, 0, 10_000, 0, 0),
    GameFinished("Carla", "greedy", 40, 21, 17, True),
    GameFinished("Carla", "expert", 41, 15, 21, False),
    GameFinished("Dani", "random", 42, 21, 21, None),
]


def stored_rows(path: Path) -> list[tuple]:
    """Every value of every record, with SQLite's storage class of each (text, integer, null...)."""
    with sqlite3.connect(path) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(records)")]
        shown = ", ".join(f"{name}, typeof({name})" for name in columns)
        rows = connection.execute(f"SELECT {shown} FROM records ORDER BY id").fetchall()
    connection.close()
    return rows


def test_the_kernel_writes_the_rows_the_store_writes(tmp_path: Path) -> None:
    by_store, by_kernel = tmp_path / "store.sqlite3", tmp_path / "kernel.sqlite3"
    ClassStore.open(by_kernel).close()  # the server makes the database
    with ClassStore.open(by_store) as store, SqliteWriter.open(by_kernel) as writer:
        for event in EVENTS:
            assert store.record(event), event
            assert writer.record(event), event
    rows = stored_rows(by_store)
    assert len(rows) == len(EVENTS)
    assert stored_rows(by_kernel) == rows
    # what the rows hold, seen from outside: SQLAlchemy's text form of a time, UTC; booleans as 1 and 0
    first, second, third = rows[0], rows[1], rows[2]
    assert first[4:6] == ("2026-12-01 09:00:00.123456", "text")
    assert second[4] == "2026-12-01 09:00:01.000000"
    assert third[4] == "2026-12-01 09:05:00.000000"
    assert rows[3][4] == "0999-01-02 03:04:05.000006"
    with sqlite3.connect(by_kernel) as connection:
        assert connection.execute("SELECT correct, typeof(correct) FROM records WHERE event = 'drill' "
                                  "ORDER BY id").fetchall() == [(0, "integer"), (1, "integer"), (0, "integer"),
                                                                (0, "integer")]
    connection.close()
    with ClassStore.open(by_store) as store, ClassStore.open(by_kernel) as kernel:
        same, other = kernel.board(), store.board()
        assert (same.students, same.mistakes, same.games_by_level) == (
            other.students, other.mistakes, other.games_by_level)


def test_a_malformed_event_is_refused_by_the_same_checks(tmp_path: Path, caplog) -> None:
    path = tmp_path / "class.sqlite3"
    ClassStore.open(path).close()
    with SqliteWriter.open(path) as writer, caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
        assert writer.record(DrillAnswer("Ana", "captures", -1, True, None)) is False
        assert writer.record(GameFinished("Ana", "easy", 1, 21, 3, "won")) is False  # type: ignore[arg-type]
        assert writer.record("not an event") is False  # type: ignore[arg-type]
    assert "seed of DrillAnswer is a whole number from 0 to" in caplog.text
    assert "won of a finished game is True, False or None" in caplog.text
    assert f"in sqlite+pysqlite:///{path}" in caplog.text
    assert stored_rows(path) == []


def test_a_recording_kernel_loads_no_sqlalchemy(tmp_path: Path) -> None:
    """A lesson page's kernel: the widgets, a drill checked (recorded by the drill's own hook), and nothing of
    SQLAlchemy in the process."""
    path = tmp_path / "class.sqlite3"
    ClassStore.open(path).close()
    script = textwrap.dedent("""
        import sys
        from escoba_tutor.widgets.drills.base import DrillModel
        import escoba_tutor.widgets, escoba_tutor.records
        DrillModel(kind="captures", seed=1).check()  # nothing built: a missed capture
        from escoba_tutor.records.recorder import recorder
        print(recorder().nickname, sorted(m for m in sys.modules if m.split(".")[0] == "sqlalchemy")[:3])
    """)
    environment = {**os.environ, "ESCOBA_TUTOR_NICKNAME": "Íñigo", "ESCOBA_TUTOR_CLASS_DB": str(path),
                   "SCRIPT_NAME": "/voila/render/es/02-captures.ipynb"}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            env=environment)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Íñigo", "[]"]
    with ClassStore.open(path) as store:
        (mistake,) = store.board().mistakes
        assert (mistake.kind, mistake.code, mistake.seeds) == ("captures", "missed_capture", [1])
        assert [(e.seed, e.lesson, e.rules) for e in mistake.exercises] == [(1, "02-captures", "escoba")]
        assert store.board().students[0].lessons == ["02-captures"]


def test_a_database_the_server_has_not_made_is_made_by_the_store(tmp_path: Path) -> None:
    path = tmp_path / "new" / "class.sqlite3"
    kernel = Recorder("Ana", str(path))
    assert kernel.record(LessonOpened("Ana", "01-cards", "es"))
    assert kernel.record(LessonOpened("Ana", "02-captures", "es"))
    kernel.close()
    with ClassStore.open(path) as store:
        assert store.board().students[0].lessons == ["01-cards", "02-captures"]


def test_an_older_database_is_migrated_by_the_store_then_written_to(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v1" / "class.sqlite3", path)
    kernel = Recorder("Ana", str(path))
    assert kernel.record(LessonOpened("Ana", "03-escoba", "es"))
    kernel.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version FROM escoba_schema").fetchall() == [(SCHEMA_VERSION,)]
    connection.close()
    with ClassStore.open(path) as store:
        assert "03-escoba" in next(s for s in store.board().students if s.nickname == "Ana").lessons


def test_a_newer_database_is_refused_and_left_alone(tmp_path: Path, caplog) -> None:
    path = tmp_path / "class.sqlite3"
    ClassStore.open(path).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE escoba_schema SET version = ?", (SCHEMA_VERSION + 1,))
    connection.close()
    with pytest.raises(RecordsError, match=f"schema version .*{SCHEMA_VERSION + 1}"):
        SqliteWriter.open(path)
    kernel = Recorder("Ana", str(path))
    with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
        assert kernel.record(LessonOpened("Ana", "01-cards", "es")) is False
    assert "written by a newer escoba-tutor" in caplog.text
    assert stored_rows(path) == []


def test_the_writer_never_makes_a_file(tmp_path: Path) -> None:
    with pytest.raises(RecordsError, match="cannot write to the class database"):
        SqliteWriter.open(tmp_path / "class.sqlite3")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("text", [
    "sqlite:///class.sqlite3", "sqlite:////abs/dir/class.sqlite3", "sqlite:///a%20b/class.sqlite3",
    "sqlite:///class.sqlite3?mode=ro", "sqlite://somehost/class.sqlite3", "sqlite+pysqlite:///class.sqlite3",
    "sqlite:///dir/a@b.sqlite3", "sqlite:///dir/a?b.sqlite3", "sqlite:///~/class.sqlite3",
])
def test_a_sqlite_url_names_the_file_sqlalchemy_reads(text: str, tmp_path: Path, monkeypatch) -> None:
    from sqlalchemy.engine import make_url

    monkeypatch.chdir(tmp_path)
    expected = Path(make_url(text).database).expanduser()
    expected = expected if expected.is_absolute() else tmp_path / expected
    assert sqlite_file(text) == expected
    assert locate(text).path == expected


@pytest.mark.parametrize("text", ["sqlite://", "sqlite:///:memory:", "sqlite:///x?mode=memory",
                                  "sqlite+aiosqlite:///x.sqlite3"])
def test_a_sqlite_url_without_a_file_is_refused(text: str) -> None:
    with pytest.raises(RecordsError):
        sqlite_file(text)


def test_the_kernels_are_given_the_file_the_server_opened(tmp_path: Path, monkeypatch) -> None:
    """A kernel runs in its lesson's folder: a relative path (``--class-db class.sqlite3``) reaches it absolute."""
    from escoba_tutor.records.location import for_kernels
    from escoba_tutor.server.nickname import class_env

    monkeypatch.chdir(tmp_path)
    assert for_kernels("class.sqlite3") == str(tmp_path / "class.sqlite3")
    assert for_kernels("sqlite:///3B/class.sqlite3") == str(tmp_path / "3B" / "class.sqlite3")
    assert for_kernels("postgresql://escoba:pw@db/classes") == "postgresql://escoba:pw@db/classes"
    assert for_kernels("mysql://host/db") == "mysql://host/db"  # refused by the kernel, which says why

    class Page:  # what class_env reads of a page's request: the server's settings and the nickname's cookie
        settings = {"escoba_class_store": object(), "escoba_class_db": "groups/3B.sqlite3"}

        @staticmethod
        def get_cookie(name: str) -> str:
            return "Ana"

    assert class_env(Page()) == {"ESCOBA_TUTOR_NICKNAME": "Ana",
                                 "ESCOBA_TUTOR_CLASS_DB": str(tmp_path / "groups" / "3B.sqlite3")}


def test_a_postgresql_url_is_left_to_the_store() -> None:
    assert sqlite_file("postgresql://escoba:pw@db.school.example/classes") == (
        "postgresql://escoba:pw@db.school.example/classes")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak memory from Linux's /proc")
def test_kernel_memory_with_and_without_recording(tmp_path: Path) -> None:
    """What recording adds to a lesson page's kernel: its widgets imported and a drill checked, recorded or not
    (the peak resident memory, VmHWM: getrusage's would count this test's own process, as Linux keeps it across
    the exec). Printed, and held within a few MiB (SQLAlchemy alone would add some 17 MiB)."""
    path = tmp_path / "class.sqlite3"
    ClassStore.open(path).close()
    script = textwrap.dedent("""
        import re
        from escoba_tutor.widgets.drills.base import DrillModel
        import escoba_tutor.widgets
        for seed in range(1, 4):
            DrillModel(kind="captures", seed=seed).check()
        with open("/proc/self/status") as status:
            print(int(re.search(r"VmHWM:[^0-9]*([0-9]+) kB", status.read()).group(1)) / 1024)
    """)

    def peak_mib(recording: bool) -> float:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("ESCOBA_TUTOR_")}
        if recording:
            environment.update(ESCOBA_TUTOR_NICKNAME="Ana", ESCOBA_TUTOR_CLASS_DB=str(path))
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                                env=environment)
        assert result.returncode == 0, result.stderr
        return float(result.stdout)

    without, recording = min(peak_mib(False) for _ in range(2)), min(peak_mib(True) for _ in range(2))
    print(f"\na lesson kernel's peak memory: {without:.1f} MiB without recording, {recording:.1f} MiB recording")
    with ClassStore.open(path) as store:
        assert store.board().students[0].drills["captures"][0] == 6  # both recording runs recorded all three
    assert recording - without < 3.0
