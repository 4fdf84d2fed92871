"""The class exercise: one exercise the whole class answers together, led by the teacher from the projector.

Its state lives in the class database (``class_exercises``, schema version 4), so that every course server of a
class sees the same one (on a JupyterHub, each student's own server and the teacher's board service). At most one
exercise of a class runs at a time: starting one ends the one before. Its states::

    open ──(the countdown runs out, or the teacher stops it)──> closed ──(the teacher reveals)──> revealed
      └────────────────────────────(the teacher reveals)──────────────────────────────────────────┘
    any of them ──(the teacher ends it, or starts the next)──> ended

An exercise takes answers while it is open and its deadline has not passed; each student answers once (the
answers' table has one row per exercise and student), and only the exercise that runs, at its own position (kind,
seed and rules). An answer is also a drill record (``records``), so the board and the CSV count it as any other.

Every function here takes a connection inside the store's transaction (:class:`escoba_tutor.records.ClassStore`
calls them): a refused answer is a RecordsError whose code says why, and nothing is written.

Each change also notifies the servers that share the database (PostgreSQL's ``NOTIFY``, in the same transaction:
notify.py), on the channel :data:`CHANNEL`: ``state`` when the running exercise changed (started, stopped,
revealed, ended; the current class changed: store.py), ``answer`` when an answer was counted. A countdown that
runs out changes nothing in the database: every server times it from the exercise's ``deadline_at``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import Connection, Row, func, select, update

from .events import DrillAnswer, RecordsError, nickname_key
from .notify import notify
from .rows import MAX_SEED, event_row, to_db_time
from .schema import INSERT_RECORD, class_exercise_answers, class_exercises, from_db_time

__all__ = ["RunningExercise", "Tally", "STATES", "MAX_SECONDS", "CHANNEL", "start", "running", "close", "reveal",
           "end", "answer", "tally", "answered_keys", "kept_given", "MAX_GIVEN"]

STATES = ("open", "closed", "revealed", "ended")
MAX_SECONDS = 600  # the longest countdown a teacher may set (ten minutes)
MAX_TOKEN = 64
CHANNEL = "escoba_class_exercise"  # the notifications' channel (notify.py): payload "state" or "answer"


@dataclass(frozen=True)
class RunningExercise:
    """The exercise a class is answering (or has answered, until the teacher ends it)."""

    id: int
    class_id: int
    kind: str
    seed: int
    rules: str
    state: str
    started_at: datetime
    deadline_at: datetime

    def takes_answers(self, now: datetime | None = None) -> bool:
        return self.state == "open" and (now or datetime.now(timezone.utc)) < self.deadline_at

    def shown_state(self, now: datetime | None = None) -> str:
        """The state as a page shows it: an open exercise whose countdown ran out is closed."""
        return "closed" if self.state == "open" and not self.takes_answers(now) else self.state

    def stamp(self, now: datetime | None = None) -> str:
        """What changes when a page must show something else: the exercise and its state."""
        return f"{self.id}-{self.shown_state(now)}"


MAX_GIVEN = 4096  # the longest answer as given kept (JSON text); a longer one counts, and is not kept


@dataclass(frozen=True)
class Tally:
    """The answers to one exercise, without names: how many, how many right, each mistake's count, and the
    spread of answers: (the answer as given, JSON or None when not kept; whether it was right) -> how many."""

    answered: int = 0
    right: int = 0
    mistakes: dict[str, int] = field(default_factory=dict)
    given: dict[tuple[str | None, bool], int] = field(default_factory=dict)

    def counted(self, correct: bool, mistake: str | None, given: str | None) -> Tally:
        """This tally with one more answer."""
        mistakes = dict(self.mistakes)
        if not correct:
            mistakes[mistake or "wrong"] = mistakes.get(mistake or "wrong", 0) + 1
        spread = dict(self.given)
        spread[given, correct] = spread.get((given, correct), 0) + 1
        return Tally(self.answered + 1, self.right + int(correct), _by_count(mistakes), spread)


def _by_count(mistakes: dict[str, int]) -> dict[str, int]:
    return dict(sorted(mistakes.items(), key=lambda item: (-item[1], item[0])))


def _row(row: Row[Any]) -> RunningExercise:
    return RunningExercise(row.id, row.class_id, row.kind, int(row.seed), row.rules, row.state,
                           from_db_time(row.started_at), from_db_time(row.deadline_at))


def running(connection: Connection, class_id: int) -> RunningExercise | None:
    """The class's exercise that has not ended, or None."""
    row = connection.execute(select(class_exercises).where(class_exercises.c.class_id == class_id,
                                                           class_exercises.c.state != "ended")
                             .order_by(class_exercises.c.id.desc()).limit(1)).first()
    return _row(row) if row is not None else None


def start(connection: Connection, class_id: int, token: str, kind: str, seed: int, rules: str,
          seconds: int) -> tuple[RunningExercise, bool]:
    """Start an exercise in the class, ending the one that runs; a ``token`` already used (the same form sent twice)
    starts nothing and gives the exercise it started. Returns the exercise and whether it is new."""
    if not isinstance(token, str) or not 16 <= len(token) <= MAX_TOKEN or not token.isascii() \
            or not token.replace("-", "").replace("_", "").isalnum():
        raise RecordsError("a class exercise is started with its form's token", code="exercise_bad_token")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED or type(seconds) is not int \
            or not 5 <= seconds <= MAX_SECONDS:
        raise RecordsError(f"a class exercise has a seed from 0 and a countdown of 5 to {MAX_SECONDS} seconds",
                           code="exercise_bad_settings")
    found = connection.execute(select(class_exercises).where(class_exercises.c.token == token)).first()
    if found is not None:
        return _row(found), False
    connection.execute(update(class_exercises).where(class_exercises.c.class_id == class_id,
                                                     class_exercises.c.state != "ended").values(state="ended"))
    now = datetime.now(timezone.utc)
    new_id = connection.execute(class_exercises.insert().values(
        class_id=class_id, token=token, kind=kind, seed=seed, rules=rules, state="open", started_at=to_db_time(now),
        deadline_at=to_db_time(now + timedelta(seconds=seconds)))).inserted_primary_key
    assert new_id is not None
    notify(connection, CHANNEL, "state")
    return RunningExercise(int(new_id[0]), class_id, kind, seed, rules, "open", now,
                           now + timedelta(seconds=seconds)), True


def _change(connection: Connection, class_id: int, exercise_id: int, state: str,
            allowed: tuple[str, ...]) -> RunningExercise:
    """Move the running exercise ``exercise_id`` to ``state``; one that is not the running one is refused (a
    teacher's page left behind by another tab's next exercise), and a move already made changes nothing."""
    now = running(connection, class_id)
    if now is None or now.id != exercise_id:
        raise RecordsError("this exercise is no longer the one the class is answering", code="exercise_not_running")
    if now.state == state or now.state not in allowed:
        return now
    values: dict[str, Any] = {"state": state}
    if state == "closed":
        values["deadline_at"] = to_db_time(min(datetime.now(timezone.utc), now.deadline_at))
    connection.execute(update(class_exercises).where(class_exercises.c.id == exercise_id).values(**values))
    notify(connection, CHANNEL, "state")
    return _row(connection.execute(select(class_exercises).where(class_exercises.c.id == exercise_id)).one())


def close(connection: Connection, class_id: int, exercise_id: int) -> RunningExercise:
    """Stop the countdown: no more answers."""
    return _change(connection, class_id, exercise_id, "closed", ("open",))


def reveal(connection: Connection, class_id: int, exercise_id: int) -> RunningExercise:
    """Show the answer on every page (answers are no longer taken)."""
    return _change(connection, class_id, exercise_id, "revealed", ("open", "closed"))


def end(connection: Connection, class_id: int, exercise_id: int) -> None:
    """The exercise is over: the students' pages go back to waiting."""
    _change(connection, class_id, exercise_id, "ended", ("open", "closed", "revealed"))


def answer(connection: Connection, class_id: int, exercise_id: int, event: DrillAnswer,
           given: str | None = None) -> RunningExercise:
    """Count a student's answer to the running exercise, and record it as a drill answer; ``given``, the answer as
    the student gave it (JSON text, at most :data:`MAX_GIVEN` characters, else not kept), is kept with it. Refused
    (RecordsError, nothing written): another exercise than the one running (``exercise_not_running``), one no
    longer taking answers (``exercise_closed``), another position than the exercise's
    (``exercise_other_position``), a second answer of the student (``exercise_answered``)."""
    now = running(connection, class_id)
    if now is None or now.id != exercise_id:
        raise RecordsError("this exercise is no longer the one the class is answering", code="exercise_not_running")
    if (event.kind, event.seed, event.rules) != (now.kind, now.seed, now.rules):
        raise RecordsError("the answer is to another position than the class exercise's",
                           code="exercise_other_position")
    if not now.takes_answers():
        raise RecordsError("the class exercise takes no more answers", code="exercise_closed")
    row = event_row(event)
    key = nickname_key(event.nickname)
    already = connection.execute(select(func.count()).where(class_exercise_answers.c.exercise_id == exercise_id,
                                                            class_exercise_answers.c.nickname_key == key)).scalar()
    if already:
        raise RecordsError("this student has answered this exercise already", code="exercise_answered")
    connection.execute(class_exercise_answers.insert().values(exercise_id=exercise_id, nickname_key=key,
                                                              correct=row["correct"], mistake=row["mistake"],
                                                              at=row["at"], given=kept_given(given)))
    connection.execute(INSERT_RECORD, row)
    notify(connection, CHANNEL, "answer")
    return now


def kept_given(given: object) -> str | None:
    """The answer as given, as it is kept: JSON text of at most :data:`MAX_GIVEN` characters, else None."""
    return given if isinstance(given, str) and len(given) <= MAX_GIVEN else None


def tally(connection: Connection, exercise_id: int) -> Tally:
    """The answers to the exercise, counted (no nicknames leave the database)."""
    right, total, mistakes, spread = 0, 0, dict[str, int](), dict[tuple[str | None, bool], int]()
    answers = class_exercise_answers.c
    for row in connection.execute(select(answers.correct, answers.mistake, answers.given, func.count().label("n"))
                                  .where(answers.exercise_id == exercise_id)
                                  .group_by(answers.correct, answers.mistake, answers.given)):
        total += row.n
        key = (row.given, bool(row.correct))
        spread[key] = spread.get(key, 0) + row.n
        if row.correct:
            right += row.n
        else:
            code = row.mistake or "wrong"
            mistakes[code] = mistakes.get(code, 0) + row.n
    return Tally(total, right, _by_count(mistakes), spread)


def answered_keys(connection: Connection, exercise_id: int) -> dict[str, str | None]:
    """The students (their nicknames' keys) who answered the exercise, each with the answer they gave (JSON, or
    None): for the server's own use (a student who reloads is shown their own answer), never shown to others."""
    return {row.nickname_key: row.given for row in connection.execute(
        select(class_exercise_answers.c.nickname_key, class_exercise_answers.c.given)
        .where(class_exercise_answers.c.exercise_id == exercise_id))}
