"""The class database's tables, its schema version, and the step that brings an older database up to date.

The version lives in a one-row table, ``escoba_schema``. Opening a database (:func:`ensure_schema`, in one
transaction that holds the database's write lock):

- an empty database gets the tables of :data:`SCHEMA_VERSION` and its first class;
- a database of an older version is migrated one version at a time by the functions in :data:`MIGRATIONS`
  (``MIGRATIONS[n]`` turns version ``n`` into ``n + 1``), then its version row says :data:`SCHEMA_VERSION`;
  a failed step leaves the database as it was (the transaction is rolled back);
- a database of a newer version (written by a later escoba-tutor) is refused, naming both versions;
- a database that holds other tables but no version is not a class database, and is refused.

To change the schema: raise :data:`SCHEMA_VERSION` (in rows.py, with the columns a record fills,
``EVENT_COLUMNS``), change the tables below to the new shape, add the step from the previous version to
:data:`MIGRATIONS`, and add a reference database of the new version to tests/data/records/ (the old ones stay:
every one of them must still open).

The versions: 1, the first; 2 adds ``records.rules``, the rules a drill was answered under (a mistake's link on
the board opens that exercise under them); 3 adds ``classes.is_current`` (which class records go into, chosen
by the teacher: before, it was always the newest) and makes class names unique (``ux_classes_name``; two classes
of one name in an older database are told apart by a number, «2026-12-01 16:05 (2)»); 4 adds the class exercises
the teacher leads from the projector (``class_exercises``, one row per exercise started, and
``class_exercise_answers``, one row per student who answered it: its key keeps a student to one answer); 5 adds
the tables where students play each other (``game_tables``, one row per table with its game in the save format
and a version number, and ``game_table_seats``, one row per seat: the student holding it, or the computer's
level; tables.py); 6 adds ``class_exercise_answers.given``, the answer as the student gave it (the drill
model's answers, as JSON: the projected view's spread of answers, and the student's own reloaded page; NULL in the
answers counted before); 7 adds ``game_tables.hints``, whether the players at a table may ask for a hint (the
opener's choice; the tables opened before allow them, as the page did then); 8 adds ``records.played_at``, who
sat where at a table of classmates when a deal or game there finished (the download named the seats as they were
when it was made).

Times are stored as UTC without a zone (``DateTime``), read back as UTC.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
    func,
    inspect,
    select,
    text,
    true,
    update,
)

from .events import RecordsError
from .rows import EVENT_COLUMNS, SCHEMA_VERSION, to_db_time

metadata = MetaData()

schema_table = Table(
    "escoba_schema", metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
)

# One row per class; the current class (the one records go into) is the one row whose is_current is true.
classes = Table(
    "classes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=False),
    Column("started_at", DateTime(timezone=False), nullable=False),
    Column("is_current", Boolean, nullable=False, server_default=false()),  # since version 3
    sqlite_autoincrement=True,  # a forgotten class's number is never given to a new one
)
# Since version 3: no two classes of one name, and at most one current class (a partial unique index: only the
# current row is in it), so a half-made change can never leave two.
Index("ux_classes_name", classes.c.name, unique=True)
Index("ux_classes_one_current", classes.c.is_current, unique=True, sqlite_where=classes.c.is_current.is_(True),
      postgresql_where=classes.c.is_current.is_(True))

# One row per recorded event. ``event`` says which; the columns an event does not have are NULL:
#   drill:  kind, seed, correct, mistake, lesson, rules
#   deal:   level, seed, points_player, points_computer, escobas_player, escobas_computer
#   game:   level, seed, points_player, points_computer, outcome ('won', 'lost': a game always has a winner)
#   lesson: lesson, lang
records = Table(
    "records", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("at", DateTime(timezone=False), nullable=False),
    Column("nickname", String(24), nullable=False),
    Column("nickname_key", String(96), nullable=False),
    Column("event", String(8), nullable=False),
    Column("kind", String(64)),
    Column("level", String(64)),
    Column("lesson", String(64)),
    Column("lang", String(8)),
    Column("seed", BigInteger),
    Column("correct", Boolean),
    Column("mistake", String(64)),
    Column("points_player", Integer),
    Column("points_computer", Integer),
    Column("escobas_player", Integer),
    Column("escobas_computer", Integer),
    Column("outcome", String(4)),
    Column("rules", String(200)),  # since version 2 (a column added by a migration comes last)
    Column("played_at", Text),  # since version 8: who sat where at a table of classmates (rows.played_at_text)
    # The board groups a class's records by event and student, and its mistakes by drill kind and code.
    Index("ix_records_class_event_student", "class_id", "event", "nickname_key"),
    Index("ix_records_class_event_mistake", "class_id", "event", "kind", "mistake"),
    sqlite_autoincrement=True,
)

# Since version 4: the exercises the teacher leads (class_exercise.py). ``token`` is the start form's own: a second
# press of one form finds the exercise the first one started. ``state``: open (answers taken until
# ``deadline_at``), closed (the teacher stopped the countdown), revealed (the answer shown), ended.
class_exercises = Table(
    "class_exercises", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("token", String(64), nullable=False, unique=True),
    Column("kind", String(64), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("rules", String(200), nullable=False),
    Column("state", String(8), nullable=False),
    Column("started_at", DateTime(timezone=False), nullable=False),
    Column("deadline_at", DateTime(timezone=False), nullable=False),
    Index("ix_class_exercises_class_state", "class_id", "state"),
    sqlite_autoincrement=True,
)
# One answer per student and exercise (the primary key); the answer's record is in ``records`` as every drill's.
class_exercise_answers = Table(
    "class_exercise_answers", metadata,
    Column("exercise_id", Integer, ForeignKey("class_exercises.id", ondelete="CASCADE"), primary_key=True),
    Column("nickname_key", String(96), primary_key=True),
    Column("correct", Boolean, nullable=False),
    Column("mistake", String(64)),
    Column("at", DateTime(timezone=False), nullable=False),
    Column("given", Text),  # since version 6: the answer as given, JSON (NULL: not kept, or counted before)
)

# Since version 5: the tables where students play each other (tables.py). ``code`` is the short code classmates
# join by; ``game`` the game in the engine's save format (docs/save-format.md), never shown to a page (its seed and
# moves give every hand away); ``version`` goes up by one at every change of the table or its seats, and a play
# names the version it was made against. ``state``: waiting (a seat is empty), playing, finished.
game_tables = Table(
    "game_tables", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("class_id", Integer, ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
    Column("code", String(8), nullable=False, unique=True),
    Column("players", Integer, nullable=False),
    Column("rules", String(200), nullable=False),
    Column("state", String(8), nullable=False),
    Column("version", Integer, nullable=False),
    Column("game", Text, nullable=False),
    Column("opened_at", DateTime(timezone=False), nullable=False),
    Column("updated_at", DateTime(timezone=False), nullable=False),
    # since version 7: whether a player may ask for a hint on their turn (the opener's choice; before, always)
    Column("hints", Boolean, nullable=False, server_default=true()),
    Index("ix_game_tables_class_state", "class_id", "state"),
    sqlite_autoincrement=True,
)
# One row per seat. ``holder``: the SHA-256 of the student's token (the token itself is never stored), kept while
# the computer plays the seat so that its student can take it back; ``computer``: the level, while the computer
# plays it; ``seen_at``: the last sign of its student (a seat not seen for a while may be given to the computer).
game_table_seats = Table(
    "game_table_seats", metadata,
    Column("table_id", Integer, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("holder", String(64)),
    Column("nickname", String(24)),
    Column("nickname_key", String(96)),
    Column("computer", String(16)),
    Column("seen_at", DateTime(timezone=False)),
    # one seat per student at a table (NULLs, the empty seats, are all distinct)
    Index("ux_game_table_seats_holder", "table_id", "holder", unique=True),
)

TABLES = ("escoba_schema", "classes", "records", "class_exercises", "class_exercise_answers", "game_tables",
          "game_table_seats")

if tuple(c.name for c in records.columns if c.name not in ("id", "class_id")) != EVENT_COLUMNS:
    raise AssertionError("rows.EVENT_COLUMNS must name the records table's columns, in its order")

# The current class is read in the statement that writes the record: a class made current meanwhile is followed.
# (max: one row at most, by the unique index; none, in a database emptied by hand, is a NULL that the table
# refuses.)
CURRENT_CLASS_ID = select(func.max(classes.c.id)).where(classes.c.is_current.is_(True)).scalar_subquery()
INSERT_RECORD = records.insert().values(class_id=CURRENT_CLASS_ID)



def _add_drill_rules(connection: Connection) -> None:
    """1 -> 2: the rules a drill was answered under (NULL in the records made before: the board's link then opens
    the page's own rules, as it did)."""
    connection.execute(text("ALTER TABLE records ADD COLUMN rules VARCHAR(200)"))


def _current_and_unique_names(connection: Connection) -> None:
    """2 -> 3: the current class becomes data (the newest class, as it was until now), and class names unique: a
    name that several classes share is kept by the oldest, the others get « (2)», « (3)»… (cut to fit)."""
    false_word = "0" if connection.dialect.name == "sqlite" else "FALSE"
    connection.execute(text(f"ALTER TABLE classes ADD COLUMN is_current BOOLEAN NOT NULL DEFAULT {false_word}"))
    connection.execute(update(classes).where(classes.c.id == select(func.max(classes.c.id)).scalar_subquery())
                       .values(is_current=true()))
    taken: set[str] = set()
    for row in connection.execute(select(classes.c.id, classes.c.name).order_by(classes.c.id)).all():
        name = unique_name(row.name, taken)
        if name != row.name:
            connection.execute(update(classes).where(classes.c.id == row.id).values(name=name))
        taken.add(name)
    for index in classes.indexes:
        index.create(connection)


def unique_name(name: str, taken: set[str], limit: int = 80) -> str:
    """``name``, or when ``taken`` has it, ``name (2)``, ``name (3)``… (``name`` cut so that it fits ``limit``)."""
    number = 1
    candidate = name
    while candidate in taken:
        number += 1
        tail = f" ({number})"
        candidate = name[:limit - len(tail)].rstrip() + tail
    return candidate


def _add_class_exercises(connection: Connection) -> None:
    """3 -> 4: the tables of the exercises the teacher leads (empty: none was led before)."""
    class_exercises.create(connection)
    class_exercise_answers.create(connection)


def _add_game_tables(connection: Connection) -> None:
    """4 -> 5: the tables where students play each other (empty: none was played before)."""
    game_tables.create(connection)
    game_table_seats.create(connection)


def _add_given_answers(connection: Connection) -> None:
    """5 -> 6: the answer each student gave to a class exercise (NULL in the answers counted before: the spread
    of answers shows them as not kept). A database older than version 4 has it already: step 3 -> 4 made the
    table in today's shape."""
    if "given" not in {c["name"] for c in inspect(connection).get_columns("class_exercise_answers")}:
        connection.execute(text("ALTER TABLE class_exercise_answers ADD COLUMN given TEXT"))


def _add_table_hints(connection: Connection) -> None:
    """6 -> 7: whether a table's players may ask for a hint (the tables opened before allow them: the page gave no
    choice then). A database older than version 5 has it already: step 4 -> 5 made the table in today's shape."""
    if "hints" not in {c["name"] for c in inspect(connection).get_columns("game_tables")}:
        true_word = "1" if connection.dialect.name == "sqlite" else "TRUE"
        connection.execute(text(f"ALTER TABLE game_tables ADD COLUMN hints BOOLEAN NOT NULL DEFAULT {true_word}"))


def _add_played_at(connection: Connection) -> None:
    """7 -> 8: who sat where when a deal or game at a table finished (NULL in the records written before: the
    download then names the table's seats as they are now)."""
    if "played_at" not in {c["name"] for c in inspect(connection).get_columns("records")}:
        connection.execute(text("ALTER TABLE records ADD COLUMN played_at TEXT"))


# MIGRATIONS[n] turns a database of version n into version n + 1, inside the opening transaction.
MIGRATIONS: dict[int, Callable[[Connection], None]] = {1: _add_drill_rules, 2: _current_and_unique_names,
                                                        3: _add_class_exercises, 4: _add_game_tables,
                                                        5: _add_given_answers, 6: _add_table_hints,
                                                        7: _add_played_at}


def from_db_time(stored: datetime) -> datetime:
    return stored.replace(tzinfo=timezone.utc)


def database_version(connection: Connection) -> int | None:
    """The schema version of the database, None for an empty database; RecordsError for someone else's."""
    names = set(inspect(connection).get_table_names())
    if "escoba_schema" not in names:
        if names:
            shown = ", ".join(sorted(names)[:5])
            raise RecordsError(f"this database is not an escoba-tutor class database (it holds tables {shown})",
                               code="records_foreign_database")
        return None
    version = connection.execute(select(schema_table.c.version)).scalar()
    if version is None:
        raise RecordsError("this class database has lost its schema version row", code="records_no_version")
    return int(version)


def ensure_schema(connection: Connection, *, first_class_name: str) -> None:
    """Create, check or migrate the schema on ``connection`` (inside the caller's write transaction)."""
    if connection.dialect.name == "postgresql":
        # Kernels opening a new database at once: one creates the tables, the others wait for it.
        connection.execute(text("SELECT pg_advisory_xact_lock(7151731)"))
    version = database_version(connection)
    if version is None:
        metadata.create_all(connection)
        connection.execute(schema_table.insert().values(version=SCHEMA_VERSION))
        connection.execute(classes.insert().values(name=first_class_name, is_current=True,
                                                   started_at=to_db_time(datetime.now(timezone.utc))))
        return
    if version > SCHEMA_VERSION:
        raise RecordsError(f"this class database has schema version {version}, written by a newer escoba-tutor; "
                           f"this one reads versions up to {SCHEMA_VERSION}: upgrade escoba-tutor",
                           code="records_newer_version", version=version, supported=SCHEMA_VERSION)
    for step in range(version, SCHEMA_VERSION):
        MIGRATIONS[step](connection)
    if version < SCHEMA_VERSION:
        connection.execute(schema_table.update().values(version=SCHEMA_VERSION))
