"""A student's kernel records through its course server: the kernel's recorder (records/recorder.py, standard
library only) sends each event to the server's records endpoint (server/records_endpoint.py), which writes the
very rows the store writes when given the events itself. The kernel opens no database, loads no SQLAlchemy and
is never told where the database is (the failures: test_records_failures.py; thirty kernels at once:
test_records_concurrency.py; the real server: test_records_server.py)."""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from escoba_tutor.records import (
    ClassStore,
    DealFinished,
    DrillAnswer,
    GameFinished,
    LessonOpened,
    RecordsError,
)
from escoba_tutor.records.events import from_message, to_message
from escoba_tutor.records.location import locate, sqlite_file
from escoba_tutor.records.recorder import Recorder

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
    GameFinished("Dani", "random", 42, 21, 22, False),
]


def stored_rows(path: Path) -> list[tuple]:
    """Every value of every record, with SQLite's storage class of each (text, integer, null...)."""
    with sqlite3.connect(path) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(records)")]
        shown = ", ".join(f"{name}, typeof({name})" for name in columns)
        rows = connection.execute(f"SELECT {shown} FROM records ORDER BY id").fetchall()
    connection.close()
    return rows


def test_the_kernel_s_records_are_the_rows_the_store_writes(tmp_path: Path, records_endpoint) -> None:
    by_store = tmp_path / "store.sqlite3"
    server = records_endpoint(tmp_path / "kernel.sqlite3")
    kernels = {}  # one kernel per student, each with its own token
    with ClassStore.open(by_store) as store:
        for event in EVENTS:
            assert store.record(event), event
            if event.nickname not in kernels:
                kernels[event.nickname] = Recorder(event.nickname, server.url, server.token(event.nickname))
            kernel = kernels[event.nickname]
            assert kernel.record(event), event
            assert kernel.flush(30)  # one after the other: the rows in the same order
    rows = stored_rows(by_store)
    assert len(rows) == len(EVENTS)
    assert stored_rows(server.path) == rows
    # what the rows hold, seen from outside: SQLAlchemy's text form of a time, UTC; booleans as 1 and 0
    first, second, third = rows[0], rows[1], rows[2]
    assert first[4:6] == ("2026-12-01 09:00:00.123456", "text")
    assert second[4] == "2026-12-01 09:00:01.000000"
    assert third[4] == "2026-12-01 09:05:00.000000"
    assert rows[3][4] == "0999-01-02 03:04:05.000006"
    with ClassStore.open(by_store) as store:
        same, other = server.store.board(), store.board()
        assert (same.students, same.mistakes, same.games_by_level) == (
            other.students, other.mistakes, other.games_by_level)


@pytest.mark.parametrize("event", EVENTS)
def test_a_message_is_the_event_s_own_fields_without_its_nickname(event) -> None:
    message = to_message(event)
    assert "nickname" not in message and len(str(message)) < 400
    assert from_message({**message, "nickname": "Somebody Else"}, event.nickname) == event


@pytest.mark.parametrize("message, said", [
    ([], "a record is a JSON object"), ({"event": "sql"}, "no such event"),
    ({"event": "lesson", "lesson": "01", "lang": "es", "id": 3}, "has no field id"),
    ({"event": "lesson", "lesson": "01"}, "incomplete"),
    ({"event": "lesson", "lesson": "01", "lang": "es", "at": "yesterday"}, "ISO 8601"),
    # a game at a table of classmates is the server's to record, never a kernel's
    ({"event": "game", "level": "table", "seed": 1, "points_player": 21, "points_computer": 3, "won": True},
     "no game at a table of classmates"),
    ({"event": "deal", "level": "greedy", "seed": 1, "points_player": 2, "points_computer": 3, "escobas_player": 0,
      "escobas_computer": 0, "table": {"code": "AB12C", "partner": None, "other_side": []}},
     "no game at a table of classmates"),
])
def test_a_message_that_is_no_event_is_refused_by_name(message, said) -> None:
    with pytest.raises(RecordsError, match=said):
        from_message(message, "Ana")


def test_a_malformed_event_is_refused_by_the_server_s_checks(records_endpoint, caplog) -> None:
    server = records_endpoint()
    kernel = Recorder("Ana", server.url, server.token("Ana"))
    with caplog.at_level(logging.WARNING, logger="escoba_tutor"):
        assert kernel.record(DrillAnswer("Ana", "captures", -1, True, None))
        assert kernel.record(GameFinished("Ana", "easy", 1, 21, 3, "won"))  # type: ignore[arg-type]
        assert kernel.flush(30)
    assert "seed of DrillAnswer is a whole number from 0 to" in caplog.text
    assert "won of a finished game is True or False" in caplog.text
    assert "not recorded: drill answer by 'Ana' (kind captures, seed -1, right): the course server answered 400" \
        in caplog.text
    assert stored_rows(server.path) == []


def test_a_recording_kernel_loads_no_sqlalchemy_and_knows_no_database(records_endpoint) -> None:
    """A lesson page's kernel: the widgets, a drill checked (recorded by the drill's own hook), and nothing of
    SQLAlchemy nor of a database driver in the process."""
    server = records_endpoint()
    script = textwrap.dedent("""
        import sys
        from escoba_tutor.widgets.drills.base import DrillModel
        import escoba_tutor.widgets, escoba_tutor.records
        DrillModel(kind="captures", seed=1).check()  # nothing built: a missed capture
        from escoba_tutor.records.recorder import recorder
        assert recorder().flush(30)
        print(recorder().nickname, sorted(m for m in sys.modules if m.split(".")[0] in ("sqlalchemy", "sqlite3",
                                                                                         "psycopg"))[:3])
    """)
    environment = {**{k: v for k, v in os.environ.items() if k != "ESCOBA_TUTOR_CLASS_DB"},
                   **server.kernel_env("Íñigo"), "SCRIPT_NAME": "/voila/render/es/02-captures.ipynb"}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            env=environment)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["Íñigo", "[]"]
    board = server.store.board()
    (mistake,) = board.mistakes
    assert (mistake.kind, mistake.code, mistake.seeds) == ("captures", "missed_capture", [1])
    assert [(e.seed, e.lesson, e.rules) for e in mistake.exercises] == [(1, "02-captures", "escoba")]
    assert board.students[0].lessons == ["02-captures"]


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


def test_a_page_s_kernel_is_given_its_nickname_and_never_the_database(tmp_path: Path) -> None:
    from escoba_tutor.server.nickname import class_env

    class Page:  # what class_env reads of a page's request: the server's settings and the nickname's cookie
        settings = {"escoba_class_store": object(), "escoba_class_db": str(tmp_path / "class.sqlite3")}

        @staticmethod
        def get_cookie(name: str) -> str:
            return "Ana"

    assert class_env(Page()) == {"ESCOBA_TUTOR_NICKNAME": "Ana"}


def test_a_postgresql_url_is_left_to_the_store() -> None:
    assert sqlite_file("postgresql://escoba:pw@db.school.example/classes") == (
        "postgresql://escoba:pw@db.school.example/classes")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak memory from Linux's /proc")
def test_kernel_memory_with_and_without_recording(records_endpoint) -> None:
    """What recording adds to a lesson page's kernel: its widgets imported and a drill checked, recorded or not
    (the peak resident memory, VmHWM: getrusage's would count this test's own process, as Linux keeps it across
    the exec). Printed, and held within a few MiB (SQLAlchemy alone would add some 17 MiB)."""
    server = records_endpoint()
    script = textwrap.dedent("""
        import re
        from escoba_tutor.widgets.drills.base import DrillModel
        from escoba_tutor.records.recorder import recorder
        import escoba_tutor.widgets
        for seed in range(1, 4):
            DrillModel(kind="captures", seed=seed).check()
        recorder().flush(30)
        with open("/proc/self/status") as status:
            print(int(re.search(r"VmHWM:[^0-9]*([0-9]+) kB", status.read()).group(1)) / 1024)
    """)

    def peak_mib(recording: bool) -> float:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("ESCOBA_TUTOR_")}
        if recording:
            environment.update(server.kernel_env("Ana", client="one browser"))
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                                env=environment)
        assert result.returncode == 0, result.stderr
        return float(result.stdout)

    without, recording = min(peak_mib(False) for _ in range(2)), min(peak_mib(True) for _ in range(2))
    print(f"\na lesson kernel's peak memory: {without:.1f} MiB without recording, {recording:.1f} MiB recording")
    assert server.store.board().students[0].drills["captures"][0] == 6  # both recording runs recorded all three
    assert recording - without < 3.0
