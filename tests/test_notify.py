"""The class database's notifications (escoba_tutor/records/notify.py) on a real PostgreSQL: a ``NOTIFY`` sent in a
change's transaction wakes a server's listener (and one in a transaction rolled back does not); a listener whose
connection the database drops connects again and has its state read again (a change made meanwhile, whose
notification was lost, is seen); and a student's long poll on a real course server over PostgreSQL is answered
within a second of a change another process makes through its own store (the hub's board service's case).
"""

from __future__ import annotations

import asyncio
import threading
import time
from itertools import count

import pytest
from own_loop import run_apart
from sqlalchemy import text

from escoba_tutor.records import ClassStore, RecordsError
from escoba_tutor.records.class_exercise import CHANNEL
from escoba_tutor.records.notify import Listener, notify

_names = count()


@pytest.fixture
def pg_url(postgres_server) -> str:
    return postgres_server.create_database(f"notify_{next(_names)}")


async def until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.02)


def test_sqlite_has_no_listener_and_notify_does_nothing(tmp_path):
    with ClassStore.open(tmp_path / "c.sqlite3") as store:
        assert Listener.for_store(store.engine) is None
        with store.engine.begin() as connection:
            notify(connection, CHANNEL, "state")  # no error, nothing to tell


def test_a_channel_s_name_is_a_plain_name(pg_url):
    with ClassStore.open(pg_url) as store:
        listener = Listener.for_store(store.engine)
        assert listener is not None
        with pytest.raises(ValueError, match="channel"):
            listener.add("x; DROP TABLE records", lambda payload: None)


def test_a_notify_wakes_the_listener_once_its_transaction_commits(pg_url):
    store = ClassStore.open(pg_url)
    heard: list[tuple[str, str | None, float]] = []

    async def run() -> None:
        listener = Listener.for_store(store.engine)
        assert listener is not None
        listener.add("escoba_test", lambda payload: heard.append(("test", payload, time.monotonic())))
        listener.add("escoba_other", lambda payload: heard.append(("other", payload, time.monotonic())))
        listener.start()
        await asyncio.wait_for(listener.connected.wait(), 10)
        await until(lambda: len(heard) == 2)
        assert [(c, p) for c, p, _at in heard] == [("test", None), ("other", None)]  # connected: read your state
        heard.clear()

        def rolled_back() -> None:
            with store.engine.connect() as connection, connection.begin() as transaction:
                notify(connection, "escoba_test", "never")
                transaction.rollback()

        def committed(channel: str = "escoba_test", payload: str = "hello") -> float:
            with store.engine.begin() as connection:
                notify(connection, channel, payload)
                sent = time.monotonic()
            return sent

        await asyncio.to_thread(rolled_back)
        sent = await asyncio.to_thread(committed)
        await until(lambda: heard)
        await asyncio.sleep(0.3)  # nothing else comes: not the rolled-back one, not the other channel's
        assert [(c, p) for c, p, _at in heard] == [("test", "hello")]
        assert heard[0][2] - sent < 1.0

        # a channel added while connected (a later part of the server): listened to at once, on a new connection
        listener.add("escoba_late", lambda payload: heard.append(("late", payload, time.monotonic())))
        await until(lambda: listener.connections == 2 and listener.connected.is_set())
        await asyncio.to_thread(committed, "escoba_late", "x")
        await until(lambda: ("late", "x") in [(c, p) for c, p, _at in heard])
        await listener.stop()
        assert not listener.connected.is_set()

    try:
        run_apart(run())
    finally:
        store.close()


def test_a_dropped_connection_is_opened_again_and_the_exercise_read_again(pg_url):
    """The database drops the listener's connection (as a restart would); while it is down the teacher starts an
    exercise, whose notification nobody hears; once connected again the server's bell holds that exercise."""
    from escoba_tutor.server.class_exercise import ExerciseBell

    store, teacher = ClassStore.open(pg_url), ClassStore.open(pg_url)  # the board service's store is another

    async def run() -> None:
        listener = Listener.for_store(store.engine, first_pause=1.0)
        assert listener is not None
        bell = ExerciseBell(store, tallies=False)
        listener.add(CHANNEL, bell.notified)
        listener.start()
        await asyncio.wait_for(listener.connected.wait(), 10)
        await until(lambda: bell.stamp() == "none" and bell._loaded)
        first_pid = listener.backend_pid

        def drop() -> None:
            with teacher.engine.connect() as connection:
                assert connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first_pid}).scalar()
                connection.commit()

        await asyncio.to_thread(drop)
        await until(lambda: not listener.connected.is_set())
        started, _new = await asyncio.to_thread(teacher.start_exercise, "t" * 20, "captures", 4, "escoba", 60)
        await asyncio.sleep(0.2)
        assert bell.current is None  # its notification was sent while nobody listened
        await until(lambda: listener.connections == 2)
        assert listener.backend_pid != first_pid
        await until(lambda: bell.current is not None and bell.current.id == started.id)

        # and the new connection hears the next change
        await asyncio.to_thread(teacher.change_exercise, started.id, "reveal")
        await until(lambda: bell.current is not None and bell.current.state == "revealed", timeout=2)
        await listener.stop()

    try:
        run_apart(run())
    finally:
        store.close()
        teacher.close()


class FlakyStore:
    """The server's store whose next reads of the running exercise fail (``fail`` of them), as a read would when
    the database's pool lost its connection while the listening one stayed up."""

    def __init__(self, store: ClassStore) -> None:
        self.store, self.fail, self.failed = store, 0, 0

    def running_exercise(self):
        if self.fail:
            self.fail -= 1
            self.failed += 1
            raise RecordsError("the class database could not be read", code="records_unavailable")
        return self.store.running_exercise()

    def __getattr__(self, name: str):
        return getattr(self.store, name)


def test_a_failed_read_after_a_notification_is_tried_again_until_the_view_catches_up(pg_url):
    """The notification comes, the read it starts fails (twice): the bell reads again after a pause, with no new
    notification and no new connection, and holds the exercise; a callback that always fails is given up."""
    from escoba_tutor.server.class_exercise import ExerciseBell

    store, teacher = ClassStore.open(pg_url), ClassStore.open(pg_url)
    flaky = FlakyStore(store)

    async def run() -> None:
        listener = Listener.for_store(store.engine, first_pause=0.1, retries=3)
        assert listener is not None
        bell = ExerciseBell(flaky, tallies=True)
        listener.add(CHANNEL, bell.notified)
        listener.start()
        await asyncio.wait_for(listener.connected.wait(), 10)
        await until(lambda: bell._loaded)
        flaky.fail = 2
        started, _new = await asyncio.to_thread(teacher.start_exercise, "f" * 20, "captures", 4, "escoba", 60)
        await until(lambda: flaky.failed == 2)
        assert bell.current is None  # the read the notification started failed: the view is behind
        await until(lambda: bell.current is not None and bell.current.id == started.id, timeout=3)
        assert (listener.retried, listener.connections) == (2, 1)  # no new connection, no new notification

        # a read that never succeeds is tried again a bounded number of times, then left to the next notification
        flaky.fail = 100
        await asyncio.to_thread(teacher.change_exercise, started.id, "reveal")
        await until(lambda: flaky.failed == 2 + 4, timeout=5)  # the call and its three retries
        await asyncio.sleep(1.0)
        assert flaky.failed == 6 and bell.current.state == "open"
        flaky.fail = 0
        await asyncio.to_thread(teacher.change_exercise, started.id, "end")
        await until(lambda: bell.current is None)
        await listener.stop()

    try:
        run_apart(run())
    finally:
        store.close()
        teacher.close()


def test_answers_elsewhere_are_counted_on_the_projector_s_server_and_not_read_by_a_student_s(pg_url):
    from escoba_tutor.records.events import DrillAnswer
    from escoba_tutor.server.class_exercise import ExerciseBell

    board, student, other = ClassStore.open(pg_url), ClassStore.open(pg_url), ClassStore.open(pg_url)

    async def run() -> None:
        listeners = []
        bells = {}
        for name, store, tallies in (("board", board, True), ("student", student, False)):
            listener = Listener.for_store(store.engine)
            assert listener is not None
            bells[name] = ExerciseBell(store, tallies=tallies)
            listener.add(CHANNEL, bells[name].notified)
            listener.start()
            listeners.append(listener)
        for listener in listeners:
            await asyncio.wait_for(listener.connected.wait(), 10)
        started, _new = await asyncio.to_thread(board.start_exercise, "u" * 20, "captures", 3, "escoba", 60)
        await until(lambda: all(b.current is not None and b.current.id == started.id for b in bells.values()))
        stamp = bells["student"].stamp()
        woken = asyncio.ensure_future(bells["student"].wait_state(stamp, timeout=1.5))
        for name in ("Ana", "Leo", "Eva"):
            await asyncio.to_thread(other.answer_exercise, started.id,
                                    DrillAnswer(name, kind="captures", seed=3, correct=True, mistake=None,
                                                lesson="class", rules="escoba"))
        await until(lambda: bells["board"].tally is not None and bells["board"].tally.answered == 3)
        assert bells["student"].tally is not None and bells["student"].tally.answered == 0  # not read there
        began = time.monotonic()
        await woken
        assert time.monotonic() - began > 1.0  # the student's long poll was not woken by others' answers
        for listener in listeners:
            await listener.stop()

    try:
        run_apart(run())
    finally:
        for store in (board, student, other):
            store.close()


# ----------------------------------------------------------------------------------------------- the real server
def test_a_student_s_long_poll_wakes_within_a_second_of_another_process_s_change(pg_url, class_tutor_factory):
    """A real course server over PostgreSQL, a real kernel's token; the exercise is started by this test's own
    store (another process, as the hub's board service is)."""
    from test_class_board import KEYS
    from test_class_exercise import Kernel, token

    server = class_tutor_factory(database=pg_url)
    KEYS[server.url] = server.key
    kernel = Kernel(server, "Ana")
    status, data = kernel.wait()
    assert status == 200 and data["exercise"] is None
    woken: dict[str, object] = {}

    def wait() -> None:
        woken["answer"] = kernel.wait(data["stamp"])
        woken["at"] = time.monotonic()

    with ClassStore.open(pg_url) as board:
        for seed in (5, 6):  # twice: the first change may find the server's listener still connecting
            waiting = threading.Thread(target=wait)
            woken.clear()
            waiting.start()
            time.sleep(1.0)
            assert not woken, "the long poll was answered with nothing changed"
            began = time.monotonic()
            started, _new = board.start_exercise(token(), "captures", seed, "escoba", 60)
            waiting.join(30)
            status, said = woken["answer"]
            assert status == 200 and said["exercise"]["id"] == started.id and said["exercise"]["seed"] == seed
            took = woken["at"] - began
            print(f"\nstart in another process -> long poll answered: {took * 1000:.0f} ms")
            assert took < 1.0
            data = said
        # and an answer sent to the server is counted by the other process's store
        status, said = kernel.answer(data["exercise"])
        assert status == 200, said
        assert board.exercise_tally(data["exercise"]["id"]).answered == 1
