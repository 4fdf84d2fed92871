"""The class store: every record of every class, in SQLite (the default) or PostgreSQL, through SQLAlchemy Core.

Writing is made safe for a class of thirty kernels writing at once while the teacher's board reads:

- SQLite runs in WAL mode (readers never wait for a writer, the writer never waits for readers) with
  ``synchronous=NORMAL``: a record is in the file once :meth:`ClassStore.record` returns True and survives a
  killed kernel or server (only a power cut or an operating system crash may lose the last moments of writing);
- each record is one short transaction (``BEGIN IMMEDIATE`` on SQLite, so two writers never dead-lock); the
  writers of a SQLite file take turns on a lock file beside it (:mod:`escoba_tutor.records.sqlite`); a busy
  database is waited for (SQLite's busy timeout, set to the time left) and, when it still says it is busy, tried
  again after a short pause, at most :data:`RECORD_BUDGET` seconds in all; then the record is given up;
- :meth:`ClassStore.record` never raises: a record that cannot be written (a locked, full, read-only or deleted
  database, a server gone) is logged as a warning on the logger ``escoba_tutor.records`` naming what was not
  recorded and why, and the lesson goes on.

The course server is the one writer of its class's records: the students' kernels send their events to it
(escoba_tutor/server/records_endpoint.py), and it writes them here, in a thread off its event loop.

The current class is the one the teacher made current (the newest, unless the teacher chose an older one); a
record goes into the class that is current at the moment it is written.

Deleting (forgetting a class, removing a student's records) leaves the deleted records readable nowhere in the
database's files that SQLite can reach (``secure_delete`` and a TRUNCATE checkpoint, see :meth:`ClassStore._wipe`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any, TextIO, TypeVar

from sqlalchemy import Connection, Engine, Row, and_, create_engine, func, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, SQLAlchemyError

from . import class_exercise, tables
from .board import Board, BoardTally, ClassInfo, StudentRecords, class_version, read_student
from .class_exercise import RunningExercise, Tally
from .events import DrillAnswer, Event, RecordsError, describe, nickname_key
from .export import CODES, CsvLayout, write_csv
from .location import locate
from .notify import notify
from .rows import PAUSE, RECORD_BUDGET, event_row, to_db_time
from .schema import (
    INSERT_RECORD,
    class_exercise_answers,
    class_exercises,
    classes,
    ensure_schema,
    from_db_time,
    records,
    unique_name,
)
from .sqlite import WritersGate
from .sqlite_engine import checkpoint_if_large, sqlite_engine, wipe_wal
from .tables import LEFT_AFTER, SeatView, TableInfo, TableTop

OPEN_BUDGET = 10.0            # seconds opening may wait (thirty kernels creating one new database at once)
TABLE_BUDGET = 5.0            # seconds one change of a table (a play, a seat) may wait for a busy database
MAX_CLASS_NAME = 80
WIPE_TRY = 0.3                # seconds one try of the checkpoint after a delete may wait for readers and writers
BOARDS_KEPT = 4               # the running totals of this many classes' boards are kept (the ones looked at last)

T = TypeVar("T")

log = logging.getLogger("escoba_tutor.records")


def _busy(error: BaseException) -> bool:
    """The database is busy or the connection was lost: trying again may work."""
    if isinstance(error, IntegrityError):
        return True  # the current class was forgotten between reading and writing: the next try sees the new one
    if isinstance(error, OperationalError):
        message = str(error.orig).lower()
        if "locked" in message or "busy" in message:
            return True
        return bool(error.connection_invalidated)
    return isinstance(error, DBAPIError) and error.connection_invalidated


class ClassStore:
    """The records of every class in one database; see the module's text. Open it with :meth:`open`."""

    def __init__(self, engine: Engine, path: Path | None) -> None:
        self._engine = engine
        self._path = path
        self._gate = WritersGate(path) if path is not None else None
        # the boards' running totals, per class (board.BoardTally): a board read again reads only what is new
        self._tallies: OrderedDict[int, BoardTally] = OrderedDict()
        self._tallies_lock = threading.Lock()

    @classmethod
    def open(cls, url_or_path: str | os.PathLike[str] | None = None) -> ClassStore:
        """The store at ``url_or_path`` (a path, ``sqlite:///PATH``, ``postgresql://…``; None: the default place,
        see :mod:`escoba_tutor.records.location`), its schema created or brought up to date."""
        where = locate(url_or_path)
        shown = where.url.render_as_string(hide_password=True)
        if where.path is not None:
            try:
                where.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise RecordsError(f"cannot make the folder of the class database {where.path}: "
                                   f"{error.strerror or error}", code="records_cannot_open") from None
            engine = sqlite_engine(where.url)
        else:
            try:
                engine = create_engine(where.url, pool_pre_ping=True, pool_size=1, max_overflow=4,
                                       connect_args={"connect_timeout": 10})
            except ImportError as error:
                raise RecordsError(f"PostgreSQL needs the psycopg driver (pip install 'escoba-tutor[postgres]'): "
                                   f"{error}", code="records_no_driver") from None
        store = cls(engine, None)
        name = _default_class_name()
        try:
            store._retry(lambda c: ensure_schema(c, first_class_name=name), write=True, budget=OPEN_BUDGET)
        except RecordsError as error:
            engine.dispose()
            raise RecordsError(f"cannot open the class database {shown}: {error}", code=error.code,
                               **error.params) from None
        store._path = where.path  # from now on, a file that disappears is a failure (not a new empty database)
        store._gate = WritersGate(where.path) if where.path is not None else None
        return store

    @property
    def url(self) -> str:
        """The database's URL, its password hidden."""
        return self._engine.url.render_as_string(hide_password=True)

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for tools and tests)."""
        return self._engine

    def close(self) -> None:
        self._engine.dispose()
        if self._gate is not None:
            self._gate.close()

    def __enter__(self) -> ClassStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------------------------------

    def record(self, event: Event) -> bool:
        """Write ``event`` into the current class: True once it is stored; False (and a warning in the log, never
        an exception) when it could not be."""
        try:
            self._write_record(event)
            return True
        except Exception as error:  # a record must never break a lesson
            with contextlib.suppress(Exception):  # not even a broken log handler
                log.warning("not recorded: %s, in %s: %s", describe(event), self.url, error)
            return False

    def _write_record(self, event: Event) -> None:
        row = event_row(event)
        self._retry(lambda c: c.execute(INSERT_RECORD, row), write=True, budget=RECORD_BUDGET)
        if self._path is not None:
            checkpoint_if_large(self._engine, self._path)

    def start_new_class(self, name: str | None = None) -> ClassInfo:
        """Start a new class (the old ones are kept) and make it current. ``name`` defaults to the date and time to
        the minute, made unique with « (2)», « (3)»… when a class of that minute exists; a ``name`` given that
        another class has (case aside) is refused (RecordsError ``records_class_name_taken``)."""
        wanted = None if name is None else _class_name(name)

        def start(connection: Connection) -> ClassInfo:
            taken = _names(connection)
            if wanted is None:
                chosen = unique_name(_default_class_name(), set(taken))
            else:
                _refuse_taken(wanted, taken)
                chosen = wanted
            started = to_db_time(datetime.now(timezone.utc))
            connection.execute(update(classes).where(classes.c.is_current.is_(True)).values(is_current=False))
            new_id = connection.execute(classes.insert().values(name=chosen, started_at=started,
                                                                is_current=True)).inserted_primary_key
            assert new_id is not None
            notify(connection, class_exercise.CHANNEL, "state")  # the pages wait for the new class's exercise
            return ClassInfo(int(new_id[0]), chosen, from_db_time(started), True)

        return self._retry(start, write=True, budget=OPEN_BUDGET)

    def rename_class(self, class_id: int, name: str) -> ClassInfo:
        """Give the class ``class_id`` the name ``name`` (checked as :meth:`start_new_class` checks it; another
        class's name, case aside, is refused: ``records_class_name_taken``)."""
        wanted = _class_name(name)

        def rename(connection: Connection) -> ClassInfo:
            info = _class(connection, _class_number(class_id))
            _refuse_taken(wanted, {n: i for n, i in _names(connection).items() if i != info.id})
            connection.execute(update(classes).where(classes.c.id == info.id).values(name=wanted))
            return ClassInfo(info.id, wanted, info.started_at, info.current)

        return self._retry(rename, write=True, budget=OPEN_BUDGET)

    def make_current(self, class_id: int) -> ClassInfo:
        """Make the class ``class_id`` the current one: the records from now on go into it."""
        def choose(connection: Connection) -> ClassInfo:
            info = _class(connection, _class_number(class_id))
            connection.execute(update(classes).where(classes.c.is_current.is_(True), classes.c.id != info.id)
                               .values(is_current=False))
            connection.execute(update(classes).where(classes.c.id == info.id).values(is_current=True))
            notify(connection, class_exercise.CHANNEL, "state")
            return ClassInfo(info.id, info.name, info.started_at, True)

        return self._retry(choose, write=True, budget=OPEN_BUDGET)

    def forget_class(self, class_id: int) -> None:
        """Delete the class ``class_id`` and all its records; if it was current, a new class becomes current. What
        is deleted is then wiped from the database's files (:meth:`_wipe`)."""
        def forget(connection: Connection) -> None:
            info = _class(connection, _class_number(class_id))
            connection.execute(records.delete().where(records.c.class_id == info.id))
            ids = select(class_exercises.c.id).where(class_exercises.c.class_id == info.id).scalar_subquery()
            connection.execute(class_exercise_answers.delete().where(class_exercise_answers.c.exercise_id.in_(ids)))
            connection.execute(class_exercises.delete().where(class_exercises.c.class_id == info.id))
            tables.forget_class(connection, info.id)
            connection.execute(classes.delete().where(classes.c.id == info.id))
            if info.current:
                connection.execute(classes.insert().values(
                    name=unique_name(_default_class_name(), set(_names(connection))), is_current=True,
                    started_at=to_db_time(datetime.now(timezone.utc))))
            notify(connection, class_exercise.CHANNEL, "state")

        self._retry(forget, write=True, budget=OPEN_BUDGET)
        self._drop_tally(class_id)
        self._wipe()

    def student_records(self, class_id: int, nickname: str) -> tuple[str, int]:
        """The student ``nickname`` in the class ``class_id`` (compared as the board groups nicknames: "Ana" is
        "ana"): their nickname as the board shows it and how many records they have there. RecordsError
        ``records_no_student`` when they have none."""
        def read(connection: Connection) -> tuple[str, int]:
            return _student(connection, _class(connection, _class_number(class_id)).id, nickname)

        return self._retry(read, write=False, budget=OPEN_BUDGET)

    def remove_student(self, class_id: int, nickname: str) -> int:
        """Delete every record of the student ``nickname`` in the class ``class_id`` (the class and the others'
        records stay) and wipe them from the database's files; the number deleted. RecordsError
        ``records_no_student`` (nothing deleted) when the class has no record of them."""
        def remove(connection: Connection) -> int:
            info = _class(connection, _class_number(class_id))
            _spelling, count = _student(connection, info.id, nickname)
            connection.execute(records.delete().where(records.c.class_id == info.id,
                                                      records.c.nickname_key == nickname_key(nickname)))
            ids = select(class_exercises.c.id).where(class_exercises.c.class_id == info.id).scalar_subquery()
            connection.execute(class_exercise_answers.delete().where(
                class_exercise_answers.c.exercise_id.in_(ids),
                class_exercise_answers.c.nickname_key == nickname_key(nickname)))
            tables.forget_student(connection, info.id, nickname_key(nickname))
            notify(connection, class_exercise.CHANNEL, "state")  # their answer to the exercise is gone too
            return count

        removed = self._retry(remove, write=True, budget=OPEN_BUDGET)
        self._drop_tally(class_id)
        self._wipe()
        return removed

    def _wipe(self) -> None:
        """After a delete: leave the deleted records readable nowhere the database can help it.

        SQLite: every connection has ``secure_delete`` on (sqlite.py), so the delete wrote zeros over them in the
        pages it changed; those pages, and the older copies of them, are in the WAL file until a checkpoint: a
        TRUNCATE checkpoint copies the WAL into the database and empties the WAL file. It waits for the writers
        (the gate) and for readers to finish, WIPE_TRY seconds a try, up to OPEN_BUDGET seconds; one that still
        cannot finish is logged (the WAL then keeps the deleted pages until a later wipe, or until the last
        connection closes, when SQLite copies the WAL into the database and deletes it).

        PostgreSQL: VACUUM of the tables, which frees the deleted rows' space for new rows to overwrite
        (docs/class-board-internals.md says what it does not do). Never raises: the delete itself is done."""
        try:
            if self._engine.dialect.name == "postgresql":
                with self._engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                    connection.exec_driver_sql("VACUUM records, classes, class_exercises, class_exercise_answers, "
                                              "game_tables, game_table_seats")
                return
            if self._path is not None:
                deadline = time.monotonic() + OPEN_BUDGET
                while True:
                    gate = self._gate.held(deadline) if self._gate is not None else contextlib.nullcontext()
                    with self._engine.connect() as connection, gate:
                        # short tries: while one waits for a reader, the class's records wait for it
                        wait = min(WIPE_TRY, max(deadline - time.monotonic(), 0))
                        if wipe_wal(connection.connection.driver_connection, wait):
                            return
                    if time.monotonic() >= deadline:
                        log.warning("the class database %s still holds deleted records in its WAL file (a reader "
                                    "held it for %.0f s): they go at the next wipe or when the server stops",
                                    self.url, OPEN_BUDGET)
                        return
                    time.sleep(0.05)
        except Exception as error:
            log.warning("could not wipe the deleted records from %s: %s", self.url, error)

    # -- the class exercise (class_exercise.py), always of the current class ---------------------------------------

    def start_exercise(self, token: str, kind: str, seed: int, rules: str,
                       seconds: int) -> tuple[RunningExercise, bool]:
        """Start a class exercise (ending the one running); a token already used starts nothing. The exercise, and
        whether it is new."""
        return self._retry(lambda c: class_exercise.start(c, _current_class(c).id, token, kind, seed, rules, seconds),
                           write=True, budget=OPEN_BUDGET)

    def running_exercise(self) -> RunningExercise | None:
        """The current class's exercise that has not ended, or None."""
        return self._retry(lambda c: class_exercise.running(c, _current_class(c).id), write=False,
                           budget=OPEN_BUDGET)

    def change_exercise(self, exercise_id: int, action: str) -> RunningExercise | None:
        """``close``, ``reveal`` or ``end`` the running exercise ``exercise_id`` (RecordsError
        ``exercise_not_running`` when it is not the one running); the exercise after it, None once ended."""
        step = {"close": class_exercise.close, "reveal": class_exercise.reveal, "end": class_exercise.end}[action]
        return self._retry(lambda c: step(c, _current_class(c).id, exercise_id), write=True, budget=OPEN_BUDGET)

    def answer_exercise(self, exercise_id: int, event: DrillAnswer, given: str | None = None) -> RunningExercise:
        """Count and record a student's answer to the running exercise, with the answer as given (JSON text; see
        class_exercise.answer for what is refused, as a RecordsError, with nothing written)."""
        return self._retry(lambda c: class_exercise.answer(c, _current_class(c).id, exercise_id, event, given),
                           write=True, budget=RECORD_BUDGET)

    def exercise_tally(self, exercise_id: int) -> Tally:
        """The answers to the exercise, counted, without names."""
        return self._retry(lambda c: class_exercise.tally(c, exercise_id), write=False, budget=OPEN_BUDGET)

    def exercise_answered(self, exercise_id: int) -> dict[str, str | None]:
        """The nickname keys of the students who answered the exercise, each with the answer they gave (JSON or
        None; for the server's own use)."""
        return self._retry(lambda c: class_exercise.answered_keys(c, exercise_id), write=False, budget=OPEN_BUDGET)

    # -- tables where students play each other (tables.py) -------------------------------------------------------
    # Each change is one transaction; the computer's plays that follow a change are each one more, chosen outside
    # any transaction (the expert's search must not hold the database's lock).

    def open_table(self, token: str, nickname: str, players: int = 2, rules: str = "escoba", *,
                   seed: int | None = None, hints: bool = True) -> SeatView:
        """Open a table in the current class, its opener (``token``, ``nickname``) in seat 0; the view of that
        seat, with the table's code. ``hints``: whether a player may ask for a hint on their own turn. See
        :func:`escoba_tutor.records.tables.open_table`."""
        return self._retry(lambda c: tables.open_table(c, _current_class(c).id, token, nickname, players, rules,
                                                       seed=seed, hints=hints), write=True, budget=TABLE_BUDGET)

    def join_table(self, code: str, token: str, nickname: str, seat: int | None = None, *,
                   computer: bool = True) -> SeatView:
        """Sit at the table ``code`` (the student's own seat again, after a reload); the seat's view.
        ``computer``: the computer's turns that follow are played before the view is read (False: the caller
        plays them, as the course server does, a moment later)."""
        self._retry(lambda c: tables.join(c, code, token, nickname, seat), write=True, budget=TABLE_BUDGET)
        return self._after_change(code, token, computer)

    def give_seat_to_computer(self, code: str, seat: int, level: str, token: str, *,
                              left_after: float = LEFT_AFTER, computer: bool = True) -> SeatView:
        """The computer plays ``seat`` at ``level`` (asked by a student seated at the table: an empty seat, their
        own, or one whose student left ``left_after`` seconds ago); the asker's view after the computer's plays."""
        self._retry(lambda c: tables.give_to_computer(c, code, seat, level, token, left_after=left_after),
                    write=True, budget=TABLE_BUDGET)
        return self._after_change(code, token, computer)

    def take_seat_back(self, code: str, seat: int, token: str, nickname: str, *, computer: bool = True) -> SeatView:
        """A student takes ``seat`` back from the computer (their own, or one nobody held)."""
        self._retry(lambda c: tables.take_back(c, code, seat, token, nickname), write=True, budget=TABLE_BUDGET)
        return self._after_change(code, token, computer)

    def leave_table(self, code: str, token: str) -> TableInfo:
        """The student leaves the table (see :func:`escoba_tutor.records.tables.leave`); its public facts after."""
        return self._retry(lambda c: tables.leave(c, code, token), write=True, budget=TABLE_BUDGET)

    def play_at_table(self, code: str, seat: int, token: str, move: object, expected_version: int, *,
                      computer: bool = True) -> SeatView:
        """The student at ``seat`` plays ``move`` against the table's version ``expected_version`` (see
        :func:`escoba_tutor.records.tables.play` for what is refused, as a TableError, with nothing written); then
        the computer's seats play up to the next student's turn (unless ``computer`` is False). The seat's view
        after them."""
        self._retry(lambda c: tables.play(c, code, seat, token, move, expected_version), write=True,
                    budget=TABLE_BUDGET)
        return self._after_change(code, token, computer)

    def seen_at_table(self, code: str, token: str) -> int:
        """A sign of life from a student's page (their seat is not left); their seat's number."""
        return self._retry(lambda c: tables.seen(c, code, token), write=True, budget=RECORD_BUDGET)

    def table_view(self, code: str, token: str, *, left_after: float = LEFT_AFTER, computer: bool = True) -> SeatView:
        """The view of the student's own seat at the table: their hand, never another's. A computer's turn left
        unplayed (its server stopped half-way) is played first, unless ``computer`` is False (the caller plays
        it): a table goes on after a restart."""
        def read() -> SeatView:
            return self._retry(lambda c: tables.seat_view(c, code, token, left_after=left_after), write=False,
                               budget=OPEN_BUDGET)

        view = read()
        table = view.table
        if computer and table.state == "playing" and table.turn is not None \
                and table.seats[table.turn].computer is not None and self.play_computer_turns(code):
            view = read()
        return view

    def table_info(self, code: str, *, left_after: float = LEFT_AFTER) -> TableInfo:
        """The table's public facts (for the projector and the board: no hand)."""
        return self._retry(lambda c: tables.info(c, code, left_after=left_after), write=False, budget=OPEN_BUDGET)

    def table_top(self, code: str, *, left_after: float = LEFT_AFTER) -> TableTop:
        """The table as the projector shows it: what lies in the open, and no hand (see
        :class:`escoba_tutor.records.tables.TableTop`)."""
        return self._retry(lambda c: tables.table_top(c, code, left_after=left_after), write=False,
                           budget=OPEN_BUDGET)

    def class_tables(self, class_id: int | None = None, *, left_after: float = LEFT_AFTER) -> list[TableInfo]:
        """The tables of class ``class_id`` (None: the current class), the newest first."""
        return self._retry(lambda c: tables.class_tables(c, _class(c, class_id).id, left_after=left_after),
                           write=False, budget=OPEN_BUDGET)

    def play_computer_turns(self, code: str, limit: int = 400) -> int:
        """Make the computer's plays at the table up to a student's turn (or the game's end, or ``limit``
        plays); how many were made. Each is chosen outside any transaction and written only if the table has not
        changed meanwhile: when two servers race for one, one writes it and the other stops."""
        made = 0
        while made < limit:
            turn = self._retry(lambda c: tables.computer_turn(c, code), write=False, budget=OPEN_BUDGET)
            if turn is None:
                return made
            move = tables.choose(turn)
            if not self._retry(partial(tables.play_computer, turn=turn, move=move), write=True, budget=TABLE_BUDGET):
                return made
            made += 1
        return made

    def _after_change(self, code: str, token: str, computer: bool = True) -> SeatView:
        if computer:
            self.play_computer_turns(code)
        return self.table_view(code, token, computer=computer)

    # -- reading -------------------------------------------------------------------------------------------------

    def current_class(self) -> ClassInfo:
        """The class records go into now; one is started if the database has none."""
        try:
            return self._retry(_current_class, write=False, budget=OPEN_BUDGET)
        except RecordsError as error:
            if error.code != "records_no_class":
                raise
            return self.start_new_class()

    def classes(self) -> list[ClassInfo]:
        """Every class, newest first (``current`` says which one records go into)."""
        def read(connection: Connection) -> list[ClassInfo]:
            return [_info(row) for row in connection.execute(select(classes).order_by(classes.c.id.desc()))]

        return self._retry(read, write=False, budget=OPEN_BUDGET)

    def board(self, class_id: int | None = None) -> Board:
        """The board of class ``class_id`` (None: the current class); see :mod:`escoba_tutor.records.board`.

        The class's running totals are kept between reads (:class:`~escoba_tutor.records.board.BoardTally`): a
        read asks the class's count of records and largest id, and reads only the records written since (or
        nothing, the same board again, when there are none); the whole class is read again when the count says
        records went (a student removed, here or by another program)."""
        def read(connection: Connection) -> Board:
            info = _class(connection, class_id)
            count, last_id = class_version(connection, info.id)
            with self._tallies_lock:  # one read at a time brings a class's totals up to date
                kept = self._tallies.pop(info.id, None)
                if kept is None or not kept.catch_up(connection, count, last_id):
                    kept = BoardTally.read(connection, info.id)
                board = kept.board(info)
                self._tallies[info.id] = kept  # the last looked at, last
                while len(self._tallies) > BOARDS_KEPT:
                    self._tallies.popitem(last=False)
            return board

        return self._retry(read, write=False, budget=OPEN_BUDGET)

    def _drop_tally(self, class_id: object) -> None:
        """Records of the class went: its totals are read whole next time (the count would say so too, unless as
        many records came meanwhile from elsewhere)."""
        with self._tallies_lock:
            self._tallies.pop(class_id, None)  # type: ignore[call-overload]

    def student(self, nickname: str, class_id: int | None = None) -> StudentRecords | None:
        """One student's records in class ``class_id`` (None: the current class), the most recent first; None when
        the class has none of theirs. See :func:`escoba_tutor.records.board.read_student`."""
        return self._retry(lambda c: read_student(c, _class(c, class_id), nickname), write=False, budget=OPEN_BUDGET)

    def export_csv(self, out: TextIO, class_id: int | None = None, *, bom: bool = True,
                   layout: CsvLayout = CODES) -> None:
        """Write the records of class ``class_id`` (None: the current class) to ``out`` as CSV, laid out as
        ``layout`` says (by default the machine-readable codes); see :mod:`escoba_tutor.records.export`."""
        def export(connection: Connection) -> None:
            write_csv(connection, out, _class(connection, class_id), bom=bom, layout=layout)

        self._retry(export, write=False, budget=OPEN_BUDGET)

    # -- the one way to the database -----------------------------------------------------------------------------

    def _retry(self, work: Callable[[Connection], T], *, write: bool, budget: float) -> T:
        """``work`` in one transaction, tried again while the database is busy, for at most ``budget`` seconds.
        Every database failure comes out as a RecordsError naming it."""
        deadline = time.monotonic() + budget
        tries = 0
        while True:
            tries += 1
            try:
                self._check_file()
                gate = self._gate.held(deadline) if write and self._gate is not None else contextlib.nullcontext()
                with self._engine.connect() as connection, gate:  # the connection is ready before the turn
                    wait = max(deadline - time.monotonic(), 0.001)
                    connection = connection.execution_options(escoba_write=write, escoba_wait=wait)
                    if not write and self._engine.dialect.name == "postgresql":
                        # PostgreSQL: the board's several queries read one snapshot, as SQLite's reads do.
                        connection = connection.execution_options(isolation_level="REPEATABLE READ")
                    with connection.begin():
                        return work(connection)
            except SQLAlchemyError as error:
                pause = random.uniform(0, PAUSE)
                if _busy(error) and time.monotonic() + pause < deadline:
                    time.sleep(pause)
                    continue
                reason = str(getattr(error, "orig", None) or error).splitlines()[0]
                busy = f" after {tries} tries" if _busy(error) else ""
                raise RecordsError(f"{reason}{busy}", code="records_database") from None

    def _check_file(self) -> None:
        """A SQLite file deleted (or its folder) after opening: stop, rather than write into a file that is gone."""
        if self._path is not None and not self._path.exists():
            raise RecordsError(f"the class database {self._path} is gone (deleted or moved)", code="records_gone")


def _default_class_name() -> str:
    return datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")


def _class_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_CLASS_NAME \
            or not name.strip().isprintable():
        raise RecordsError(f"a class name is printable text of 1 to {MAX_CLASS_NAME} characters, not {name!r:.100}",
                           code="records_bad_class_name")
    return name.strip()


def _class_number(class_id: object) -> int:
    if type(class_id) is not int:
        raise RecordsError(f"a class is named by its number, not {class_id!r:.80}", code="records_no_class")
    return class_id


def _names(connection: Connection) -> dict[str, int]:
    """Every class's name -> its number."""
    return {row.name: row.id for row in connection.execute(select(classes.c.name, classes.c.id))}


def _refuse_taken(name: str, taken: dict[str, int]) -> None:
    """Another class has ``name`` (case aside): refused, naming it."""
    folded = name.casefold()
    for other in taken:
        if other.casefold() == folded:
            raise RecordsError(f"there is already a class named {other!r}: choose another name",
                               code="records_class_name_taken", name=other)


def _info(row: Row[Any]) -> ClassInfo:
    return ClassInfo(row.id, row.name, from_db_time(row.started_at), bool(row.is_current))


def _current_class(connection: Connection) -> ClassInfo:
    row = connection.execute(select(classes).where(classes.c.is_current.is_(True))).first()
    if row is None:
        raise RecordsError("the class database has no current class (its tables were changed by hand)",
                           code="records_no_class")
    return _info(row)


def _class(connection: Connection, class_id: int | None) -> ClassInfo:
    if class_id is None:
        return _current_class(connection)
    row = connection.execute(select(classes).where(classes.c.id == class_id)).first() \
        if type(class_id) is int else None
    if row is None:
        raise RecordsError(f"there is no class {class_id!r:.80}", code="records_no_class")
    return _info(row)


def _student(connection: Connection, class_id: int, nickname: object) -> tuple[str, int]:
    """The nickname as the student's latest record spells it, and their records' count in the class."""
    if not isinstance(nickname, str) or not nickname.strip() or len(nickname) > 200:
        raise RecordsError(f"the class has no student {nickname!r:.80}", code="records_no_student")
    of_student = and_(records.c.class_id == class_id, records.c.nickname_key == nickname_key(nickname))
    count = connection.execute(select(func.count()).where(of_student)).scalar() or 0
    if not count:
        raise RecordsError(f"the class has no student {nickname!r:.80}", code="records_no_student")
    spelling = connection.execute(select(records.c.nickname).where(of_student)
                                  .order_by(records.c.id.desc()).limit(1)).scalar()
    return str(spelling), int(count)
