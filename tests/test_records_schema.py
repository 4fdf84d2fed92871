"""The class database's schema version: today's database opens tomorrow; a newer one is refused by name.

tests/data/records/v<N>/ holds a reference database written by each schema version (make_reference.py) and the
board it showed: every one of them must open with the current code (migrated when older) and show that board.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import Connection, text

from escoba_tutor.records import SCHEMA_VERSION, ClassStore, DrillAnswer, LessonOpened, RecordsError, schema

REFERENCES = Path(__file__).parent / "data" / "records"
VERSIONS = sorted(REFERENCES.glob("v*/class.sqlite3"))


def board_as_json(board) -> dict:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_reference", REFERENCES / "make_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return json.loads(json.dumps(module.board_as_json(board)))


def test_there_is_a_reference_database_of_the_current_version() -> None:
    assert REFERENCES / f"v{SCHEMA_VERSION}" / "class.sqlite3" in VERSIONS
    assert REFERENCES / "v1" / "class.sqlite3" in VERSIONS
    assert REFERENCES / "v2" / "class.sqlite3" in VERSIONS
    assert REFERENCES / "v3" / "class.sqlite3" in VERSIONS
    assert REFERENCES / "v4" / "class.sqlite3" in VERSIONS
    assert REFERENCES / "v5" / "class.sqlite3" in VERSIONS
    assert REFERENCES / "v6" / "class.sqlite3" in VERSIONS


def test_a_version_5_database_gets_its_class_exercise_answers_without_what_was_given(tmp_path: Path) -> None:
    """Version 6 keeps the answer as given; the answer counted before is still counted, as not kept (None)."""
    copy = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v5" / "class.sqlite3", copy)
    with ClassStore.open(copy) as store:
        store.make_current(next(c.id for c in store.classes() if c.name == "3B Tuesday"))
        running = store.running_exercise()
        assert running is not None
        tally = store.exercise_tally(running.id)
        assert (tally.answered, tally.given) == (1, {(None, False): 1})
        assert list(store.exercise_answered(running.id).values()) == [None]
    with sqlite3.connect(copy) as connection:
        columns = [row[1] for row in connection.execute("PRAGMA table_info(class_exercise_answers)")]
        assert columns[-1] == "given"
    connection.close()


def test_a_version_6_database_keeps_the_answer_as_given(tmp_path: Path) -> None:
    copy = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v6" / "class.sqlite3", copy)
    with ClassStore.open(copy) as store:
        store.make_current(next(c.id for c in store.classes() if c.name == "3B Tuesday"))
        running = store.running_exercise()
        assert running is not None and (running.kind, running.seed) == ("setenta", 12)
        given = '{"answers":["78","inválida"],"built":[],"choices":{}}'
        assert store.exercise_tally(running.id).given == {(given, False): 1}
        assert list(store.exercise_answered(running.id).values()) == [given]


def test_a_version_6_database_s_tables_allow_hints_as_they_did(tmp_path: Path) -> None:
    """Step 6 -> 7: the tables opened before the opener could choose allow hints (the page offered no choice),
    their games go on, and a new table keeps the choice made."""
    copy = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v6" / "class.sqlite3", copy)
    with ClassStore.open(copy) as store:
        tuesday = next(c.id for c in store.classes() if c.name == "3B Tuesday")
        tables = store.class_tables(tuesday)
        assert len(tables) == 2 and all(info.hints is True for info in tables)
        opened = store.open_table("a-token-of-sixteen-chars", "Ana", 2, hints=False)
        assert store.table_info(opened.table.code).hints is False
    with sqlite3.connect(copy) as connection:
        assert connection.execute("SELECT hints FROM game_tables ORDER BY id").fetchall() == [(1,), (1,), (0,)]


def test_a_version_5_database_keeps_its_tables_and_their_games_go_on(tmp_path: Path) -> None:
    """The reference's tables (one of two under way, one of four waiting) are as they were: seats, version, turn,
    each student's own hand; and the game under way takes its next play."""
    expected = json.loads((REFERENCES / "v5" / "board.json").read_text(encoding="utf-8"))["tables"]
    copy = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v5" / "class.sqlite3", copy)
    tokens = {"Zoë": "reference-token-zoe-0001", "Ana": "reference-token-ana-0002", "Íñigo": "reference-token-inigo-03"}
    with ClassStore.open(copy) as store:
        tuesday = next(c.id for c in store.classes() if c.name == "3B Tuesday")
        tables = store.class_tables(tuesday)
        assert [t.code for t in tables] == [t["code"] for t in expected]
        for info, then in zip(tables, expected):
            assert (info.players, info.rules, info.state, info.version, info.turn, list(info.totals)) == (
                then["players"], then["rules"], then["state"], then["version"], then["turn"], then["totals"])
            assert [[s.nickname, s.computer] for s in info.seats] == then["seats"]
            for name, hand in then["hands"].items():
                assert [card.code for card in store.table_view(info.code, tokens[name]).game.hand] == hand
        playing = next(t for t in tables if t.state == "playing")
        name = playing.seats[playing.turn].nickname
        view = store.table_view(playing.code, tokens[name])
        after = store.play_at_table(playing.code, view.seat, tokens[name], view.game.legal_moves[0], view.version)
        assert after.version == playing.version + 1


def test_a_version_4_database_gets_the_tables_empty(tmp_path: Path) -> None:
    copy = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v4" / "class.sqlite3", copy)
    with ClassStore.open(copy) as store:
        assert all(store.class_tables(c.id) == [] for c in store.classes())
        opened = store.open_table("a-token-of-sixteen-chars", "Ana", 2)
        assert store.class_tables()[0].code == opened.table.code
    with sqlite3.connect(copy) as connection:
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert set(schema.TABLES) <= names
    connection.close()


def test_a_version_4_database_keeps_its_class_exercise(tmp_path: Path) -> None:
    """The reference's exercise (revealed, one answer) is still the one its class runs, with its answer counted."""
    copy = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v4" / "class.sqlite3", copy)
    with ClassStore.open(copy) as store:
        store.make_current(next(c.id for c in store.classes() if c.name == "3B Tuesday"))
        running = store.running_exercise()
        assert running is not None and (running.kind, running.seed, running.state) == ("setenta", 12, "revealed")
        tally = store.exercise_tally(running.id)
        assert (tally.answered, tally.right, tally.mistakes) == (1, 0, {"wrong_primera": 1})


def test_a_version_1_database_gets_the_rules_column_and_its_drills_none(tmp_path: Path) -> None:
    """Its records were made before the rules were: their exercises open on their page (or the kind's) as before."""
    copy = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v1" / "class.sqlite3", copy)
    with ClassStore.open(copy) as store:
        (captures,) = [m for m in store.board().mistakes if m.kind == "captures"]
        assert [(e.seed, e.lesson, e.rules) for e in captures.exercises] == [(9_007_199_254_740_991, "02-captures",
                                                                               None)]
        assert store.record(DrillAnswer("Ana", "captures", 4, False, "missed_15", lesson="07-variants",
                                        rules="scopa"))
        (captures,) = [m for m in store.board().mistakes if m.kind == "captures"]
        assert [(e.seed, e.lesson, e.rules) for e in captures.exercises][0] == (4, "07-variants", "scopa")
    with sqlite3.connect(copy) as connection:
        assert [row[1] for row in connection.execute("PRAGMA table_info(records)")][-2:] == ["rules", "played_at"]
    connection.close()


def test_a_version_2_database_gets_its_newest_class_current_and_unique_names(tmp_path: Path) -> None:
    """Until version 3 the newest class was the current one, and two classes started in one minute had one name:
    the migration keeps the first name as it was and numbers the others; records stay with their classes."""
    copy = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v2" / "class.sqlite3", copy)
    with sqlite3.connect(copy) as connection:
        for name in ("2026-12-01 16:05", "2026-12-01 16:05", "3B Tuesday", "x" * 80, "x" * 80):
            connection.execute("INSERT INTO classes (name, started_at) VALUES (?, '2026-12-01 16:05:00')", (name,))
        newest = connection.execute("SELECT max(id) FROM classes").fetchone()[0]
        connection.execute("INSERT INTO records (class_id, at, nickname, nickname_key, event, lesson, lang) "
                           "VALUES (?, '2026-12-01 16:06:00', 'Eva', 'eva', 'lesson', '01-cards', 'es')", (newest,))
    connection.close()
    with ClassStore.open(copy) as store:
        names = [c.name for c in store.classes()]
        assert names[:5] == ["x" * 76 + " (2)", "x" * 80, "3B Tuesday (2)", "2026-12-01 16:05 (2)",
                             "2026-12-01 16:05"]
        assert len(set(names)) == len(names)
        assert store.current_class().id == newest and [s.nickname for s in store.board().students] == ["Eva"]
        assert store.start_new_class().name != names[0]
    # the database itself refuses a second current class
    with sqlite3.connect(copy) as connection, pytest.raises(sqlite3.IntegrityError):
        connection.execute("UPDATE classes SET is_current = 1")
    connection.close()


def as_written_then(board: dict, expected: dict) -> dict:
    """``board`` with only what the reference's version wrote down (a mistake's exercises: since version 2)."""
    for mistake, then in zip(board["mistakes"], expected["mistakes"]):
        for key in set(mistake) - set(then):
            del mistake[key]
    return board


@pytest.mark.parametrize("reference", VERSIONS, ids=lambda path: path.parent.name)
def test_every_reference_database_opens_and_shows_its_board(reference: Path, tmp_path: Path) -> None:
    expected = json.loads((reference.parent / "board.json").read_text(encoding="utf-8"))
    copy = tmp_path / "class.sqlite3"
    shutil.copy(reference, copy)  # opening may migrate: never the committed file
    with ClassStore.open(copy) as store:
        assert [{"id": c.id, "name": c.name} for c in store.classes()] == expected["classes"]
        # the current class: as the reference chose it (since version 3), else the newest, as it was then
        current = expected.get("current_class", expected["classes"][0]["id"])
        assert store.current_class().id == current and [c.id for c in store.classes() if c.current] == [current]
        assert as_written_then(board_as_json(store.board()), expected["board"]) == expected["board"]
        older = expected["older_board"]
        assert as_written_then(board_as_json(store.board(expected["classes"][1]["id"])), older) == older
        assert store.record(LessonOpened("Ana", "02-captures", "es"))  # and it is written to as before
        assert "02-captures" in store.board(current).students[0].lessons
    with sqlite3.connect(copy) as connection:
        assert connection.execute("SELECT version FROM escoba_schema").fetchall() == [(SCHEMA_VERSION,)]


def set_version(path: Path, version: int) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE escoba_schema SET version = ?", (version,))
    connection.close()


def test_a_newer_database_is_refused_naming_both_versions(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    ClassStore.open(path).close()
    set_version(path, SCHEMA_VERSION + 1)
    with pytest.raises(RecordsError) as caught:
        ClassStore.open(path)
    message = str(caught.value)
    assert f"schema version {SCHEMA_VERSION + 1}" in message and f"up to {SCHEMA_VERSION}" in message
    assert caught.value.code == "records_newer_version"
    with sqlite3.connect(path) as connection:  # left as it was
        assert connection.execute("SELECT version FROM escoba_schema").fetchall() == [(SCHEMA_VERSION + 1,)]


def test_an_older_database_is_migrated_step_by_step(tmp_path: Path, monkeypatch) -> None:
    """A next version that adds a column: the step runs once, inside the opening transaction."""
    path = tmp_path / "class.sqlite3"
    with ClassStore.open(path) as store:
        store.record(LessonOpened("Ana", "01-cards", "es"))
    steps: list[int] = []

    def add_device_column(connection: Connection) -> None:
        steps.append(SCHEMA_VERSION)
        connection.execute(text("ALTER TABLE records ADD COLUMN device VARCHAR(16)"))

    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(schema.MIGRATIONS, SCHEMA_VERSION, add_device_column)
    with ClassStore.open(path) as store:
        assert [s.nickname for s in store.board().students] == ["Ana"]
    with ClassStore.open(path):
        pass
    assert steps == [SCHEMA_VERSION]  # the second opening found the new version and migrated nothing
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version FROM escoba_schema").fetchall() == [(SCHEMA_VERSION + 1,)]
        assert "device" in [row[1] for row in connection.execute("PRAGMA table_info(records)")]


def test_a_failed_migration_leaves_the_database_as_it_was(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "class.sqlite3"
    with ClassStore.open(path) as store:
        store.record(LessonOpened("Ana", "01-cards", "es"))

    def half_done(connection: Connection) -> None:
        connection.execute(text("ALTER TABLE records ADD COLUMN device VARCHAR(16)"))
        raise RecordsError("the step failed half-way")

    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(schema.MIGRATIONS, SCHEMA_VERSION, half_done)
    with pytest.raises(RecordsError, match="failed half-way"):
        ClassStore.open(path)
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version FROM escoba_schema").fetchall() == [(SCHEMA_VERSION,)]
        assert "device" not in [row[1] for row in connection.execute("PRAGMA table_info(records)")]
        assert connection.execute("SELECT count(*) FROM records").fetchone() == (1,)


def test_a_database_without_its_version_row_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    ClassStore.open(path).close()
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM escoba_schema")
    with pytest.raises(RecordsError, match="lost its schema version"):
        ClassStore.open(path)


def test_the_board_queries_use_the_indexes(tmp_path: Path) -> None:
    path = tmp_path / "class.sqlite3"
    ClassStore.open(path).close()
    with sqlite3.connect(path) as connection:
        plan = " ".join(str(row) for row in connection.execute(
            "EXPLAIN QUERY PLAN SELECT nickname_key, kind, count(*) FROM records "
            "WHERE class_id = 1 AND event = 'drill' GROUP BY nickname_key, kind"))
        assert "ix_records_class_event" in plan
        plan = " ".join(str(row) for row in connection.execute(
            "EXPLAIN QUERY PLAN SELECT kind, mistake, count(*) FROM records "
            "WHERE class_id = 1 AND event = 'drill' AND correct = 0 AND mistake IS NOT NULL GROUP BY kind, mistake"))
        assert "ix_records_class_event" in plan


def test_a_version_5_database_on_postgresql_gets_the_answers_as_given(postgres_server) -> None:
    """The step 5 -> 6 on PostgreSQL: a database of version 5 (today's made, less the column) gets the column, its
    answer counted before keeps None, and a new answer keeps what was given."""
    url = postgres_server.create_database("schema_v5_to_v6")
    with ClassStore.open(url) as store:
        exercise, _new = store.start_exercise("a-token-of-sixteen-chars", "captures", 3, "escoba", 60)
        store.answer_exercise(exercise.id, DrillAnswer("Ana", "captures", 3, True, None, lesson="class",
                                                       rules="escoba"))
        with store.engine.begin() as connection:
            connection.execute(text("ALTER TABLE class_exercise_answers DROP COLUMN given"))
            connection.execute(text("UPDATE escoba_schema SET version = 5"))
    with ClassStore.open(url) as store:
        given = '{"answers":[],"built":[["1o","4c"]],"choices":{}}'
        store.answer_exercise(exercise.id, DrillAnswer("Leo", "captures", 3, True, None, lesson="class",
                                                       rules="escoba"), given)
        assert store.exercise_tally(exercise.id).given == {(None, True): 1, (given, True): 1}
        with store.engine.connect() as connection:
            assert connection.execute(text("SELECT version FROM escoba_schema")).scalar() == SCHEMA_VERSION


def test_a_version_6_database_on_postgresql_gets_its_tables_hints_allowed(postgres_server) -> None:
    """The step 6 -> 7 on PostgreSQL: a table of a version 6 database (today's made, less the column) allows hints."""
    url = postgres_server.create_database("schema_v6_to_v7")
    with ClassStore.open(url) as store:
        code = store.open_table("a-token-of-sixteen-chars", "Ana", 2, hints=False).table.code
        with store.engine.begin() as connection:
            connection.execute(text("ALTER TABLE game_tables DROP COLUMN hints"))
            connection.execute(text("UPDATE escoba_schema SET version = 6"))
    with ClassStore.open(url) as store:
        assert store.table_info(code).hints is True
        assert store.open_table("b-token-of-sixteen-chars", "Leo", 2, hints=False).table.hints is False
