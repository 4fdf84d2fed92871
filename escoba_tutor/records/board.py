"""The teacher's board: one class's records counted per student, per mistake and per level.

Every number comes from the records of one class:

- a student is a nickname compared case folded ("Ana" and "ana" are one student, shown with the spelling of
  their latest record); students are sorted alphabetically, case and accents aside («Íñigo» among the I's);
- ``lessons``: the lessons a student opened, or answered a drill in, sorted by name;
- ``drills``: drill kind -> (answers, right answers); ``games``: level -> (games finished, games won);
- ``last_seen``: the time of the student's latest record (UTC); ``number``: the student's place in the order the
  class arrived in (1 for the first to make a record), which a projector shows instead of the nickname;
- ``lessons_progress`` (the board's): per lesson page, the students who opened it or answered in it, and the drill
  answers given there and the right ones;
- mistakes: the wrong drill answers that name a mistake, grouped by (drill kind, code); ``students`` counts the
  students who made it, ``times`` how often; most students first, then most times, then by kind and code;
  ``exercises``: the exercises where it happened (seed, lesson page and rules: that very exercise can be opened
  again), each once, the most recent first; ``seeds``: their seeds, each once, in the same order;
- ``games_by_level``: level -> (games finished, won by the students, lost by them), a tie being neither.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy import Connection, and_, case, func, select

from .events import nickname_key
from .schema import from_db_time, records


@dataclass(frozen=True)
class ClassInfo:
    id: int
    name: str
    started_at: datetime
    #: records go into this class now (as it was when read: not part of what makes two ClassInfo equal)
    current: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class StudentRow:
    nickname: str
    lessons: list[str]
    drills: dict[str, tuple[int, int]]
    games: dict[str, tuple[int, int]]
    last_seen: datetime
    number: int = 0


@dataclass(frozen=True)
class LessonRow:
    """A lesson page's progress: students who opened it (or answered in it), drill answers there, right ones."""

    students: int
    answered: int
    right: int


@dataclass(frozen=True)
class StudentRecord:
    """One record of a student, as their page on the board lists it (UTC time; None where the event has none)."""

    at: datetime
    event: str
    kind: str | None
    seed: int | None
    correct: bool | None
    mistake: str | None
    lesson: str | None
    rules: str | None
    level: str | None
    outcome: str | None


@dataclass(frozen=True)
class StudentRecords:
    """A student's records in one class, the most recent first (at most ``limit`` of them), how many in all, and
    the student's ``number`` (as :class:`StudentRow`'s)."""

    class_info: ClassInfo
    nickname: str
    records: list[StudentRecord]
    total: int
    number: int = 0


@dataclass(frozen=True)
class Exercise:
    """Where a drill was answered: its seed, the lesson page and the rules' name (None where not recorded)."""

    seed: int
    lesson: str | None
    rules: str | None


@dataclass(frozen=True)
class MistakeRow:
    kind: str
    code: str
    students: int
    times: int
    seeds: list[int]
    exercises: list[Exercise]


@dataclass(frozen=True)
class Board:
    class_info: ClassInfo
    students: list[StudentRow]
    mistakes: list[MistakeRow]
    games_by_level: dict[str, tuple[int, int, int]]
    lessons_progress: dict[str, LessonRow] = field(default_factory=dict)
    #: what the class's records were when this board was counted (:attr:`BoardTally.version`): another version, a
    #: board that may differ (not part of what makes two boards equal)
    version: tuple[int, int, int] = field(default=(0, 0, 0), compare=False)


class BoardTally:
    """One class's board as running totals, so that reading it again after a few new records reads only those.

    Made from one grouped read of the class's records (:meth:`read`), then brought up to date with the records
    written since, those with a larger id (:meth:`catch_up`): records are only ever added or deleted, never changed,
    and an id is never given twice, so the class's count of records and its largest id say whether anything
    changed. A count that the new records do not explain (a student's records removed, or, on PostgreSQL, a record
    of a smaller id whose transaction ended later) makes the caller read the whole class again."""

    def __init__(self, class_id: int) -> None:
        self.class_id = class_id
        self.count = 0
        self.last_id = 0
        self.last_seen: dict[str, datetime] = {}
        self.arrived: dict[str, int] = {}
        self.last: dict[str, int] = {}
        self.spelling: dict[str, str] = {}
        self.lessons: dict[str, set[str]] = defaultdict(set)
        self.drills: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
        self.per_lesson: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.games: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
        self.by_level: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        # a mistake (kind, code): how often each student made it; its exercises with their latest (time, id)
        self.mistake_students: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
        self.mistake_exercises: dict[tuple[str, str], dict[Exercise, tuple[datetime, int]]] = defaultdict(dict)
        self._board: Board | None = None  # the last board made from these totals, until they change

    @property
    def version(self) -> tuple[int, int, int]:
        """What the class's records were when counted: the class, its number of records, its largest id."""
        return (self.class_id, self.count, self.last_id)

    @classmethod
    def read(cls, connection: Connection, class_id: int) -> BoardTally:
        """The totals of the class ``class_id``, read whole on ``connection`` (in one read transaction of the
        caller): one grouped pass gives everything per student (their latest time, first and latest record, the
        pages, the drills per kind and page, the games per level and outcome), two more the mistakes."""
        tally = cls(class_id)
        c = records.c
        of_class = c.class_id == class_id
        right = func.sum(case((c.correct.is_(True), 1), else_=0))
        grouped = (c.nickname_key, c.event, c.kind, c.lesson, c.level, c.outcome)
        for row in connection.execute(select(*grouped, func.count().label("n"), right.label("right"),
                                             func.max(c.at).label("at"), func.min(c.id).label("first"),
                                             func.max(c.id).label("last")).where(of_class).group_by(*grouped)):
            tally._add(row.nickname_key, None, row.event, row.kind, row.lesson, row.level, row.outcome,
                       int(row.n), int(row.right or 0), from_db_time(row.at), int(row.first), int(row.last))
        latest = {record: k for k, record in tally.last.items()}
        for row in connection.execute(select(c.id, c.nickname).where(c.id.in_(list(latest)))):
            tally.spelling[latest[row.id]] = row.nickname
        wrong = and_(of_class, c.event == "drill", c.correct.is_(False), c.mistake.is_not(None))
        for row in connection.execute(select(c.kind, c.mistake, c.nickname_key, func.count().label("times"))
                                      .where(wrong).group_by(c.kind, c.mistake, c.nickname_key)):
            tally.mistake_students[(row.kind, row.mistake)][row.nickname_key] = int(row.times)
        where = (c.kind, c.mistake, c.seed, c.lesson, c.rules)
        for row in connection.execute(select(*where, func.max(c.at).label("at"), func.max(c.id).label("last"))
                                      .where(wrong, c.seed.is_not(None)).group_by(*where)):
            tally.mistake_exercises[(row.kind, row.mistake)][Exercise(int(row.seed), row.lesson, row.rules)] = (
                from_db_time(row.at), int(row.last))
        return tally

    def catch_up(self, connection: Connection, count: int, last_id: int) -> bool:
        """Add the class's records written since these totals were made, given the class's ``count`` of records
        and largest id ``last_id`` now (read in the same transaction): True when that explains the count; False
        (these totals are then of no use) when it does not, and the class must be read whole again."""
        if count < self.count or last_id < self.last_id:
            return False
        if (count, last_id) == (self.count, self.last_id):
            return True
        c = records.c
        rows = connection.execute(select(c.id, c.nickname, c.nickname_key, c.event, c.kind, c.lesson, c.level,
                                         c.outcome, c.correct, c.mistake, c.seed, c.rules, c.at)
                                  .where(c.class_id == self.class_id, c.id > self.last_id).order_by(c.id)).all()
        if self.count + len(rows) != count:
            return False
        for row in rows:
            at, record = from_db_time(row.at), int(row.id)
            self._add(row.nickname_key, row.nickname, row.event, row.kind, row.lesson, row.level, row.outcome, 1,
                      1 if row.correct is True else 0, at, record, record)
            if row.event == "drill" and row.correct is False and row.mistake is not None:
                mistake = (row.kind, row.mistake)
                made = self.mistake_students[mistake]
                made[row.nickname_key] = made.get(row.nickname_key, 0) + 1
                if row.seed is not None:
                    where = self.mistake_exercises[mistake]
                    exercise = Exercise(int(row.seed), row.lesson, row.rules)
                    seen_at, seen_id = where.get(exercise, (at, record))
                    where[exercise] = (max(seen_at, at), max(seen_id, record))
        self._board = None
        return True

    def _add(self, k: str, nickname: str | None, event: str, kind: str | None, lesson: str | None,
             level: str | None, outcome: str | None, n: int, good: int, at: datetime, first: int,
             last: int) -> None:
        """``n`` records of the student ``k`` alike in what the board counts (``good`` of them right answers), the
        latest at ``at``, their smallest and largest ids ``first`` and ``last``; ``nickname``: the spelling of the
        one of id ``last``, when known."""
        self.count += n
        self.last_id = max(self.last_id, last)
        if k not in self.last_seen or at > self.last_seen[k]:
            self.last_seen[k] = at
        self.arrived[k] = min(self.arrived.get(k, first), first)
        if last >= self.last.get(k, 0):
            self.last[k] = last
            if nickname is not None:
                self.spelling[k] = nickname
        if event in ("lesson", "drill") and lesson is not None:
            self.lessons[k].add(lesson)
        if event == "drill" and kind is not None:
            answered, was_right = self.drills[k].get(kind, (0, 0))
            self.drills[k][kind] = (answered + n, was_right + good)
            if lesson is not None:
                self.per_lesson[lesson][0] += n
                self.per_lesson[lesson][1] += good
        elif event == "game" and level is not None:
            finished, won = self.games[k].get(level, (0, 0))
            self.games[k][level] = (finished + n, won + (n if outcome == "won" else 0))
            totals = self.by_level[level]
            totals[0] += n
            if outcome == "won":
                totals[1] += n
            elif outcome == "lost":
                totals[2] += n

    def board(self, class_info: ClassInfo) -> Board:
        """The board these totals make, for ``class_info`` (the same board again while nothing changed)."""
        made = self._board
        if made is not None:
            return made if made.class_info == class_info and made.class_info.current == class_info.current \
                else replace(made, class_info=class_info)
        number = {k: n for n, k in enumerate(sorted(self.arrived, key=self.arrived.__getitem__), start=1)}
        students_in: dict[str, int] = defaultdict(int)
        for pages in self.lessons.values():
            for lesson in pages:
                students_in[lesson] += 1
        progress = {lesson: LessonRow(students, self.per_lesson[lesson][0], self.per_lesson[lesson][1])
                    for lesson, students in sorted(students_in.items())}
        students = [StudentRow(nickname=self.spelling[k], lessons=sorted(self.lessons[k]),
                               drills=dict(sorted(self.drills[k].items())), games=dict(sorted(self.games[k].items())),
                               last_seen=self.last_seen[k], number=number[k])
                    for k in sorted(self.spelling, key=_alphabetical)]
        mistakes = []
        for (kind, code), made_by in self.mistake_students.items():
            exercises = self.mistake_exercises.get((kind, code), {})
            latest_first = sorted(exercises, key=exercises.__getitem__, reverse=True)
            mistakes.append(MistakeRow(kind=kind, code=code, students=len(made_by), times=sum(made_by.values()),
                                       seeds=list(dict.fromkeys(e.seed for e in latest_first)),
                                       exercises=latest_first))
        mistakes.sort(key=lambda row: (-row.students, -row.times, row.kind, row.code))
        self._board = Board(class_info=class_info, students=students, mistakes=mistakes,
                            games_by_level={level: (t[0], t[1], t[2]) for level, t in sorted(self.by_level.items())},
                            lessons_progress=progress, version=self.version)
        return self._board


def read_board(connection: Connection, class_info: ClassInfo) -> Board:
    """The board of ``class_info``'s class, read whole on ``connection`` (in one read transaction of the caller)."""
    return BoardTally.read(connection, class_info.id).board(class_info)


def class_version(connection: Connection, class_id: int) -> tuple[int, int]:
    """The class's number of records and its largest record id (0 for none): what says that its board changed."""
    count, last = connection.execute(select(func.count(), func.max(records.c.id))
                                     .where(records.c.class_id == class_id)).one()
    return int(count or 0), int(last or 0)


STUDENT_RECORDS_SHOWN = 500  # a student's page lists their latest records, this many at most


def read_student(connection: Connection, class_info: ClassInfo, nickname: str,
                 limit: int = STUDENT_RECORDS_SHOWN) -> StudentRecords | None:
    """The records of the student ``nickname`` (compared as the board compares nicknames) in ``class_info``'s
    class, the most recent first; None when the class has no record of them."""
    wanted = and_(records.c.class_id == class_info.id, records.c.nickname_key == nickname_key(nickname))
    total, first = connection.execute(select(func.count(), func.min(records.c.id)).where(wanted)).one()
    if not total:
        return None
    firsts = select(func.min(records.c.id).label("first")).where(records.c.class_id == class_info.id) \
        .group_by(records.c.nickname_key).subquery()
    number = 1 + int(connection.execute(select(func.count()).select_from(firsts).where(firsts.c.first < first))
                     .scalar() or 0)
    rows = list(connection.execute(
        select(records.c.at, records.c.nickname, records.c.event, records.c.kind, records.c.seed, records.c.correct,
               records.c.mistake, records.c.lesson, records.c.rules, records.c.level, records.c.outcome)
        .where(wanted).order_by(records.c.id.desc()).limit(limit)))
    return StudentRecords(class_info=class_info, nickname=rows[0].nickname, total=int(total), number=number, records=[
        StudentRecord(at=from_db_time(r.at), event=r.event, kind=r.kind, seed=None if r.seed is None else int(r.seed),
                      correct=r.correct, mistake=r.mistake, lesson=r.lesson, rules=r.rules, level=r.level,
                      outcome=r.outcome) for r in rows])


def _alphabetical(key: str) -> tuple[str, str]:
    """Sort key of a student: by letters without their accents first, so «Íñigo» comes among the I's."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", key) if not unicodedata.combining(c))
    return bare, key
