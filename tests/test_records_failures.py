"""Recording never breaks a lesson: a locked, full, read-only or deleted database makes ``record`` return False
and log what was not recorded, never raise; and the kernel's recorder built from its environment.

The tests of a failing database run twice: on the SQLAlchemy store, and on the writer a student's kernel records
through (records/writer.py, the standard library's sqlite3), which must behave the same."""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import event

from escoba_tutor.records import ClassStore, DrillAnswer, LessonOpened
from escoba_tutor.records import recorder as recorder_module
from escoba_tutor.records.recorder import Recorder, recorder, recorder_from_environment
from escoba_tutor.records.writer import SqliteWriter

ANSWER = DrillAnswer("Ana", "captures", 12, False, "missed_15")


@pytest.fixture
def path(tmp_path: Path) -> Path:
    path = tmp_path / "class" / "class.sqlite3"
    ClassStore.open(path).close()
    return path


def on_every_connection(store: ClassStore, pragma: str) -> None:
    """Run ``pragma`` on each new connection of ``store`` (and drop the ones it has)."""
    @event.listens_for(store.engine, "connect")
    def _apply(dbapi_connection, _record) -> None:
        dbapi_connection.execute(pragma)

    store.engine.dispose()


@pytest.fixture(params=["store", "kernel"])
def open_writer(request):
    """Opens what records into a database: the SQLAlchemy store, or a kernel's standard library writer; with
    ``pragma``, run on each of its connections."""
    def opened(path: Path, pragma: str | None = None):
        if request.param == "store":
            store = ClassStore.open(path)
            if pragma is not None:
                on_every_connection(store, pragma)
            return store
        return SqliteWriter.open(path, on_connect=None if pragma is None else lambda c: c.execute(pragma))

    return opened


def test_a_locked_database_gives_up_within_two_seconds(path: Path, open_writer, caplog) -> None:
    with open_writer(path) as store, ClassStore.open(path) as board:
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock and does not let go
        try:
            with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
                began = time.monotonic()
                assert store.record(ANSWER) is False
                waited = time.monotonic() - began
            assert 1.0 < waited < 2.0
            assert "not recorded: drill answer by 'Ana' (kind captures, seed 12, wrong (missed_15))" in caplog.text
            assert "database is locked" in caplog.text
            assert board.board().students == []  # the board still reads (WAL: readers never wait for writers)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert store.record(ANSWER) is True


def test_a_lock_held_for_a_moment_is_waited_for(path: Path, open_writer) -> None:
    with open_writer(path) as store, ClassStore.open(path) as board:
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")
        threading.Timer(0.4, lambda: holder.execute("COMMIT")).start()
        began = time.monotonic()
        assert store.record(ANSWER) is True
        assert time.monotonic() - began >= 0.3
        holder.close()
        assert board.board().students[0].drills == {"captures": (1, 0)}


def test_a_stuck_writers_lock_file_delays_but_does_not_stop_recording(path: Path, open_writer) -> None:
    gate = os.open(str(path) + "-writers.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(gate, fcntl.LOCK_EX)  # a hung kernel holding the line
    try:
        with open_writer(path) as store:
            began = time.monotonic()
            assert store.record(ANSWER) is True
            assert time.monotonic() - began > 1.0  # it waited for its turn, most of its time, then went on
    finally:
        os.close(gate)


def test_a_full_disk_is_logged_not_raised(path: Path, open_writer, caplog) -> None:
    pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0]
    with open_writer(path, f"PRAGMA max_page_count = {pages}") as store:  # the file may not grow: a full disk
        with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
            results = [store.record(DrillAnswer("Ana", "captures", n, True, None, lesson="x" * 60))
                       for n in range(300)]
        assert False in results
        assert "database or disk is full" in caplog.text
        stored = results.count(True)
    with ClassStore.open(path) as store:  # what was stored is there, whole
        assert store.board().students[0].drills == {"captures": (stored, stored)}


def test_a_read_only_database_is_logged_not_raised(path: Path, open_writer, caplog) -> None:
    with open_writer(path, "PRAGMA query_only = ON") as store:
        with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
            assert store.record(ANSWER) is False
        assert "readonly" in caplog.text.replace("read-only", "readonly")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file permissions: the read-only file is "
                    "checked through SQLite's query_only above")
def test_a_read_only_file_is_logged_not_raised(path: Path, open_writer, caplog) -> None:
    with open_writer(path) as store:
        store.close()  # its next record connects anew, to the read-only file
        path.chmod(0o444)
        path.parent.chmod(0o555)
        try:
            with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
                assert store.record(ANSWER) is False
        finally:
            path.parent.chmod(0o755)
            path.chmod(0o644)


def test_a_deleted_folder_is_logged_not_raised_nor_made_again(path: Path, open_writer, caplog) -> None:
    with open_writer(path) as store:
        assert store.record(ANSWER)
        shutil.rmtree(path.parent)
        with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
            assert store.record(ANSWER) is False
        assert "is gone" in caplog.text
        assert not path.parent.exists()


def test_a_broken_log_does_not_break_recording(path: Path, open_writer, monkeypatch) -> None:
    def broken(*_args, **_kwargs):
        raise RuntimeError("the log handler is broken")

    monkeypatch.setattr(logging.getLogger("escoba_tutor.records"), "warning", broken)
    with open_writer(path) as store:
        assert store.record(DrillAnswer("<b>", "captures", 1, True, None)) is False


# -- the kernel's recorder ------------------------------------------------------------------------------------------

@pytest.fixture
def environment(monkeypatch, tmp_path: Path):
    monkeypatch.setattr(recorder_module, "_recorder", None)
    monkeypatch.delenv("ESCOBA_TUTOR_NICKNAME", raising=False)
    monkeypatch.setenv("ESCOBA_TUTOR_CLASS_DB", str(tmp_path / "class.sqlite3"))
    return monkeypatch


def test_without_a_nickname_nothing_is_recorded(environment, tmp_path: Path) -> None:
    kernel = recorder()
    assert kernel.nickname is None
    assert kernel.record(ANSWER) is False
    assert not (tmp_path / "class.sqlite3").exists()


def test_the_kernel_records_under_its_own_nickname(environment, tmp_path: Path) -> None:
    environment.setenv("ESCOBA_TUTOR_NICKNAME", " Íñigo ")
    kernel = recorder()
    assert kernel is recorder() and kernel.nickname == "Íñigo"
    assert kernel.record(DrillAnswer("Somebody Else", "captures", 3, True, None))
    with ClassStore.open(tmp_path / "class.sqlite3") as store:
        assert [s.nickname for s in store.board().students] == ["Íñigo"]


@pytest.mark.parametrize("nickname", ["<script>", "x" * 25, "Ana\x1b[31m"])
def test_a_bad_nickname_in_the_environment_records_nothing(environment, nickname: str, caplog) -> None:
    environment.setenv("ESCOBA_TUTOR_NICKNAME", nickname)
    with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
        kernel = recorder_from_environment()
    assert kernel.nickname is None and kernel.record(ANSWER) is False
    assert "nothing is recorded in this kernel" in caplog.text


def test_recording_switched_off(environment) -> None:
    environment.setenv("ESCOBA_TUTOR_NICKNAME", "Ana")
    environment.setenv("ESCOBA_TUTOR_CLASS_DB", "off")
    assert recorder_from_environment().nickname is None


@pytest.mark.parametrize("database", ["mysql://host/db", "/proc/escoba/class.sqlite3"])
def test_a_database_that_cannot_be_opened_is_logged_and_the_lesson_goes_on(environment, database: str,
                                                                            caplog) -> None:
    environment.setenv("ESCOBA_TUTOR_NICKNAME", "Ana")
    environment.setenv("ESCOBA_TUTOR_CLASS_DB", database)
    kernel = recorder_from_environment()
    with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
        assert kernel.record(ANSWER) is False
        assert kernel.record(LessonOpened("Ana", "01-cards", "es")) is False  # not tried again at once
    assert "the class database cannot be opened" in caplog.text
    assert "not recorded (the class database is not open): lesson '01-cards' (es) opened by 'Ana'" in caplog.text


def test_the_recorder_opens_again_later(environment, tmp_path: Path, monkeypatch) -> None:
    environment.setenv("ESCOBA_TUTOR_NICKNAME", "Ana")
    folder = tmp_path / "later"
    (tmp_path / "later").write_text("a file where the folder will be")
    environment.setenv("ESCOBA_TUTOR_CLASS_DB", str(folder / "class.sqlite3"))
    kernel = Recorder("Ana", str(folder / "class.sqlite3"))
    assert kernel.record(ANSWER) is False
    folder.unlink()
    monkeypatch.setattr(recorder_module, "REOPEN_AFTER", 0.0)
    assert kernel.record(ANSWER) is True
    kernel.close()
