"""Recording never breaks a lesson: a locked, full, read-only or deleted database makes the store's ``record``
return False and log what was not recorded, never raise (the course server writes every record through it); and
the kernel's recorder, built from its environment, never waits nor raises whatever its server does."""

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
from escoba_tutor.records.recorder import MAX_WAITING, Recorder, recorder, recorder_from_environment

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


@pytest.fixture
def open_writer():
    """Opens the store on a database; with ``pragma``, run on each of its connections."""
    def opened(path: Path, pragma: str | None = None):
        store = ClassStore.open(path)
        if pragma is not None:
            on_every_connection(store, pragma)
        return store

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
def environment(monkeypatch):
    monkeypatch.setattr(recorder_module, "_recorder", None)
    for name in ("ESCOBA_TUTOR_NICKNAME", "ESCOBA_TUTOR_RECORDS_URL", "ESCOBA_TUTOR_RECORDS_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_without_a_nickname_nothing_is_recorded(environment, records_endpoint) -> None:
    server = records_endpoint()
    for name, value in server.kernel_env("Ana").items():
        environment.setenv(name, value)
    environment.delenv("ESCOBA_TUTOR_NICKNAME")
    kernel = recorder()
    assert kernel.nickname is None
    assert kernel.record(ANSWER) is False


def test_the_kernel_records_under_its_owner_s_nickname(environment, records_endpoint) -> None:
    """The server records for the token's owner: neither the kernel's environment nor an event names another."""
    server = records_endpoint()
    for name, value in server.kernel_env("Íñigo").items():
        environment.setenv(name, value)
    environment.setenv("ESCOBA_TUTOR_NICKNAME", " Íñigo ")
    kernel = recorder()
    assert kernel is recorder() and kernel.nickname == "Íñigo"
    assert kernel.record(DrillAnswer("Somebody Else", "captures", 3, True, None))
    assert kernel.flush(30)
    forged = Recorder("Somebody Else", server.url, os.environ["ESCOBA_TUTOR_RECORDS_TOKEN"])  # her token
    assert forged.record(LessonOpened("Somebody Else", "01-cards", "es")) and forged.flush(30)
    assert [(s.nickname, s.lessons) for s in server.store.board().students] == [("Íñigo", ["01-cards"])]


@pytest.mark.parametrize("nickname", ["<script>", "x" * 25, "Ana\x1b[31m"])
def test_a_bad_nickname_in_the_environment_records_nothing(environment, nickname: str, caplog) -> None:
    environment.setenv("ESCOBA_TUTOR_NICKNAME", nickname)
    environment.setenv("ESCOBA_TUTOR_RECORDS_URL", "http://127.0.0.1:9/class/record")
    environment.setenv("ESCOBA_TUTOR_RECORDS_TOKEN", "t")
    with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
        kernel = recorder_from_environment()
    assert kernel.nickname is None and kernel.record(ANSWER) is False
    assert "nothing is recorded in this kernel" in caplog.text


def test_without_the_server_s_endpoint_nothing_is_recorded(environment) -> None:
    environment.setenv("ESCOBA_TUTOR_NICKNAME", "Ana")
    environment.setenv("ESCOBA_TUTOR_CLASS_DB", "/tmp/class.sqlite3")  # what a kernel once read: no longer
    assert recorder_from_environment().nickname is None


def test_a_server_that_cannot_be_reached_is_logged_and_the_lesson_goes_on(caplog) -> None:
    from escoba_test_helpers import free_port

    kernel = Recorder("Ana", f"http://127.0.0.1:{free_port()}/class/record", "token")
    with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
        began = time.monotonic()
        assert kernel.record(ANSWER) is True  # waiting to be sent
        assert time.monotonic() - began < 0.05  # the click never waits
        assert kernel.flush(30)
    assert "not recorded: drill answer by 'Ana' (kind captures, seed 12, wrong (missed_15)): the course server " \
        "cannot be reached at http://127.0.0.1:" in caplog.text


def test_a_slow_server_never_holds_a_click_and_a_full_queue_drops_with_a_warning(caplog) -> None:
    """A server that accepts the connection and never answers: every record returns at once; past the queue's
    size they are dropped, each said in the log."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    try:
        kernel = Recorder("Ana", f"http://127.0.0.1:{listener.getsockname()[1]}/class/record", "token")
        with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
            began = time.monotonic()
            results = [kernel.record(DrillAnswer("Ana", "captures", n, True, None)) for n in range(MAX_WAITING + 5)]
            assert time.monotonic() - began < 1.0
        assert results.count(False) >= 4
        assert f"not recorded ({MAX_WAITING} records are waiting to be sent already): drill answer by 'Ana'" \
            in caplog.text
    finally:
        listener.close()
        kernel.close()  # the records still waiting are dropped (and counted in the log)


def test_a_record_the_server_refuses_is_logged(records_endpoint, caplog) -> None:
    server = records_endpoint()
    kernel = Recorder("Ana", server.url, "a token no kernel holds")
    with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
        assert kernel.record(ANSWER) and kernel.flush(30)
    assert "not recorded: drill answer by 'Ana'" in caplog.text and "answered 403 no kernel holds this token" \
        in caplog.text
    assert server.store.board().students == []
