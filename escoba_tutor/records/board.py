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
- ``games_by_level``: level -> (games finished, won by the students, lost by them): a game always has a winner.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
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


def read_board(connection: Connection, class_info: ClassInfo) -> Board:
    """The board of ``class_info``'s class, read on ``connection`` (in one read transaction of the caller)."""
    of_class = records.c.class_id == class_info.id
    key = records.c.nickname_key

    # one grouped pass over the class's records gives everything per student: their latest time, first and latest
    # record (the latest's spelling of the nickname is the one shown), the pages, the drills per kind and page, the
    # games per level and outcome; then the latest records by their ids
    c = records.c
    right = func.sum(case((c.correct.is_(True), 1), else_=0))
    last_seen: dict[str, datetime] = {}
    arrived: dict[str, int] = {}
    last: dict[str, int] = {}
    lessons: dict[str, set[str]] = defaultdict(set)
    drills: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
    per_lesson: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    games: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
    by_level: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    grouped = (key, c.event, c.kind, c.lesson, c.level, c.outcome)
    for row in connection.execute(select(*grouped, func.count().label("n"), right.label("right"),
                                         func.max(c.at).label("at"), func.min(c.id).label("first"),
                                         func.max(c.id).label("last")).where(of_class).group_by(*grouped)):
        k, n = row.nickname_key, int(row.n)
        at = from_db_time(row.at)
        if k not in last_seen or at > last_seen[k]:
            last_seen[k] = at
        arrived[k] = min(arrived.get(k, row.first), int(row.first))
        last[k] = max(last.get(k, row.last), int(row.last))
        if row.event in ("lesson", "drill") and row.lesson is not None:
            lessons[k].add(row.lesson)
        if row.event == "drill":
            good = int(row.right or 0)
            answered, was_right = drills[k].get(row.kind, (0, 0))
            drills[k][row.kind] = (answered + n, was_right + good)
            if row.lesson is not None:
                per_lesson[row.lesson][0] += n
                per_lesson[row.lesson][1] += good
        elif row.event == "game":
            finished, won = games[k].get(row.level, (0, 0))
            games[k][row.level] = (finished + n, won + (n if row.outcome == "won" else 0))
            totals = by_level[row.level]
            totals[0] += n
            if row.outcome == "won":
                totals[1] += n
            elif row.outcome == "lost":
                totals[2] += n
    latest = {record: k for k, record in last.items()}
    spelling = {latest[row.id]: row.nickname for row in connection.execute(
        select(c.id, c.nickname).where(c.id.in_(list(latest))))}
    number = {k: n for n, k in enumerate(sorted(arrived, key=arrived.__getitem__), start=1)}
    students_in: dict[str, int] = defaultdict(int)
    for pages in lessons.values():
        for lesson in pages:
            students_in[lesson] += 1
    progress = {lesson: LessonRow(students, per_lesson[lesson][0], per_lesson[lesson][1])
                for lesson, students in sorted(students_in.items())}

    students = [StudentRow(nickname=spelling[k], lessons=sorted(lessons[k]), drills=dict(sorted(drills[k].items())),
                           games=dict(sorted(games[k].items())), last_seen=last_seen[k], number=number[k])
                for k in sorted(spelling, key=_alphabetical)]
    return Board(class_info=class_info, students=students, mistakes=_mistakes(connection, class_info.id),
                 games_by_level={level: (t[0], t[1], t[2]) for level, t in sorted(by_level.items())},
                 lessons_progress=progress)


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


def _mistakes(connection: Connection, class_id: int) -> list[MistakeRow]:
    wrong = and_(records.c.class_id == class_id, records.c.event == "drill", records.c.correct.is_(False),
                 records.c.mistake.is_not(None))
    counts = {(row.kind, row.mistake): (int(row.students), int(row.times)) for row in connection.execute(
        select(records.c.kind, records.c.mistake, func.count(records.c.nickname_key.distinct()).label("students"),
               func.count().label("times")).where(wrong).group_by(records.c.kind, records.c.mistake))}
    exercises: dict[tuple[str, str], list[Exercise]] = defaultdict(list)
    where = (records.c.kind, records.c.mistake, records.c.seed, records.c.lesson, records.c.rules)
    for row in connection.execute(
            select(*where).where(wrong, records.c.seed.is_not(None)).group_by(*where)
            .order_by(func.max(records.c.at).desc(), func.max(records.c.id).desc())):
        exercises[(row.kind, row.mistake)].append(Exercise(int(row.seed), row.lesson, row.rules))
    rows = [MistakeRow(kind=kind, code=code, students=students, times=times,
                       seeds=list(dict.fromkeys(e.seed for e in exercises[(kind, code)])),
                       exercises=exercises[(kind, code)])
            for (kind, code), (students, times) in counts.items()]
    rows.sort(key=lambda row: (-row.students, -row.times, row.kind, row.code))
    return rows
