"""The class records store: events in, the board's numbers, classes, CSV, nicknames, bad places.

Every test that takes the ``store`` fixture runs twice: on a SQLite file, and on a real PostgreSQL server that
the tests start themselves (tests/records_postgres.py; skipped, saying why, where it cannot run).
"""

from __future__ import annotations

import csv
import io
import itertools
import logging
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from escoba_tutor.records import (
    ClassStore,
    DealFinished,
    DrillAnswer,
    GameFinished,
    LessonOpened,
    NicknameError,
    RecordsError,
    nickname_key,
    valid_nickname,
)
from escoba_tutor.records.events import PlayedAt, Player

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
_databases = itertools.count()  # this module's own databases (named apart from conftest's)


def minutes(n: float) -> datetime:
    return T0 + timedelta(minutes=n)


def record_all(store: ClassStore, events: list) -> None:
    for event in events:
        assert store.record(event), event


# -- the board's numbers, by hand -----------------------------------------------------------------------------------

# Three students. Ana writes her nickname "ana" in her last record (one student all the same); Bea and Carla.
CLASS_OF_THREE = [
    LessonOpened("Ana", "01-cards", "es", at=minutes(1)),
    LessonOpened("Ana", "02-captures", "es", at=minutes(2)),
    DrillAnswer("Ana", "captures", 10, True, None, lesson="02-captures", at=minutes(3)),
    DrillAnswer("Ana", "captures", 11, False, "missed_15", lesson="02-captures", at=minutes(4)),
    DrillAnswer("Ana", "captures", 12, False, "missed_15", at=minutes(5)),
    DrillAnswer("Ana", "setenta", 20, True, None, at=minutes(6)),
    DealFinished("Ana", "easy", 100, 7, 4, 1, 0, at=minutes(7)),
    GameFinished("Ana", "easy", 100, 21, 15, True, at=minutes(8)),
    GameFinished("ana", "easy", 101, 9, 21, False, at=minutes(9)),
    LessonOpened("Bea", "01-cards", "en", at=minutes(3)),
    DrillAnswer("Bea", "captures", 11, False, "missed_15", at=minutes(10)),
    DrillAnswer("Bea", "captures", 13, False, "took_too_much", at=minutes(11)),
    DrillAnswer("Bea", "setenta", 21, False, "wrong_primera", at=minutes(12)),
    DrillAnswer("Bea", "setenta", 22, False, None, at=minutes(13)),       # wrong, no mistake named
    GameFinished("Bea", "hard", 200, 21, 22, False, at=minutes(14)),      # lost by one point
    DrillAnswer("Carla", "escoba", 30, True, None, at=minutes(2)),
    DrillAnswer("Carla", "escoba", 31, True, None, at=minutes(3)),
    DrillAnswer("Carla", "escoba", 32, True, None, at=minutes(4)),
    DrillAnswer("Carla", "captures", 13, False, "took_too_much", at=minutes(5)),
    GameFinished("Carla", "easy", 102, 21, 3, True, at=minutes(6)),
    GameFinished("Carla", "hard", 201, 22, 20, True, at=minutes(7)),
]


def test_the_board_of_three_students_as_counted_by_hand(store: ClassStore) -> None:
    record_all(store, CLASS_OF_THREE)
    board = store.board()
    assert board.class_info == store.current_class()
    rows = {row.nickname: row for row in board.students}
    assert [row.nickname for row in board.students] == ["ana", "Bea", "Carla"]  # case folded order, latest spelling
    ana, bea, carla = rows["ana"], rows["Bea"], rows["Carla"]
    assert ana.lessons == ["01-cards", "02-captures"]
    assert ana.drills == {"captures": (3, 1), "setenta": (1, 1)}
    assert ana.games == {"easy": (2, 1)}
    assert ana.last_seen == minutes(9)
    assert bea.lessons == ["01-cards"]
    assert bea.drills == {"captures": (2, 0), "setenta": (2, 0)}
    assert bea.games == {"hard": (1, 0)}
    assert bea.last_seen == minutes(14)
    assert carla.lessons == []
    assert carla.drills == {"captures": (1, 0), "escoba": (3, 3)}
    assert carla.games == {"easy": (1, 1), "hard": (1, 1)}
    assert carla.last_seen == minutes(7)
    # The share right per kind, as the board shows it: answered and right.
    shares = {(row.nickname, kind): right / answered for row in board.students
              for kind, (answered, right) in row.drills.items()}
    assert shares == {("ana", "captures"): 1 / 3, ("ana", "setenta"): 1.0, ("Bea", "captures"): 0.0,
                      ("Bea", "setenta"): 0.0, ("Carla", "captures"): 0.0, ("Carla", "escoba"): 1.0}
    # Mistakes: most students first, then most times; seeds distinct, most recent first (seed 11 was last
    # missed by Bea at minute 10, after Ana's seed 12 at minute 5).
    assert [(m.kind, m.code, m.students, m.times, m.seeds) for m in board.mistakes] == [
        ("captures", "missed_15", 2, 3, [11, 12]),
        ("captures", "took_too_much", 2, 2, [13]),
        ("setenta", "wrong_primera", 1, 1, [21]),
    ]
    assert board.games_by_level == {"easy": (3, 2, 1), "hard": (2, 1, 1)}


def test_the_board_of_an_empty_class(store: ClassStore) -> None:
    board = store.board()
    assert (board.students, board.mistakes, board.games_by_level) == ([], [], {})


def test_a_deal_is_recorded_but_counts_no_game(store: ClassStore) -> None:
    record_all(store, [DealFinished("Ana", "easy", 5, 7, 4, 2, 1)])
    board = store.board()
    assert board.students[0].games == {} and board.games_by_level == {}
    out = io.StringIO()
    store.export_csv(out)
    (row,) = csv.DictReader(io.StringIO(out.getvalue().removeprefix("\ufeff")))
    assert (row["event"], row["level"], row["seed"], row["points_player"], row["points_computer"],
            row["escobas_player"], row["escobas_computer"]) == ("deal", "easy", "5", "7", "4", "2", "1")


def test_a_mistake_tie_is_ordered_by_kind_and_code(store: ClassStore) -> None:
    record_all(store, [DrillAnswer("Ana", "setenta", 1, False, "b_code", at=minutes(1)),
                       DrillAnswer("Ana", "captures", 2, False, "z_code", at=minutes(2)),
                       DrillAnswer("Ana", "captures", 3, False, "a_code", at=minutes(3))])
    assert [(m.kind, m.code) for m in store.board().mistakes] == [
        ("captures", "a_code"), ("captures", "z_code"), ("setenta", "b_code")]


def test_the_largest_seed_is_kept(store: ClassStore) -> None:
    record_all(store, [DrillAnswer("Ana", "captures", 2**53 - 1, False, "missed_15")])
    assert store.board().mistakes[0].seeds == [2**53 - 1]


def fresh_board(store_url: str, class_id: int | None = None):
    """The board as a store that never read it before counts it: every record read whole."""
    with ClassStore.open(store_url) as other:
        return other.board(class_id)


def test_a_board_read_again_counts_only_the_new_records_and_agrees_with_a_whole_read(store: ClassStore,
                                                                                    store_url: str) -> None:
    """The store keeps each class's running totals: read again, the board adds the records written since (here
    and by another store), and is what a whole read of the class gives, step after step; a removed student, or
    as many records removed as added elsewhere, makes it read the class whole again."""
    import random

    chance = random.Random(7)
    names = ["Ana", "ana", "Bea", "Carla", "Íñigo", "Dani"]
    info = store.current_class()

    def some_events(n: int, start: float) -> list:
        made = []
        for i in range(n):
            nickname, at = chance.choice(names), minutes(start + i + chance.random() * 40 - 20)  # clocks disagree
            roll = chance.random()
            if roll < 0.6:
                right = chance.random() < 0.5
                made.append(DrillAnswer(nickname, chance.choice(["captures", "setenta"]), chance.randrange(1, 6),
                                        right, None if right else chance.choice(["missed_15", "took_too_much", None]),
                                        lesson=chance.choice([None, "02-captures", "05-scoring"]),
                                        rules=chance.choice([None, "escoba", "scopa"]), at=at))
            elif roll < 0.75:
                made.append(LessonOpened(nickname, chance.choice(["01-cards", "index"]), "es", at=at))
            elif roll < 0.9:
                made.append(GameFinished(nickname, chance.choice(["easy", "hard"]), i, 21, 20,
                                         chance.choice([True, False]), at=at))
            else:
                made.append(DealFinished(nickname, "easy", i, 5, 6, 1, 0, at=at))
        return made

    assert store.board() == fresh_board(store_url)  # an empty class
    with ClassStore.open(store_url) as elsewhere:  # another writer (a hub: each student's server)
        minute, written = 0.0, 0
        for step in range(8):
            events = some_events(chance.randrange(1, 15), minute)
            record_all(store if step % 2 else elsewhere, events)
            minute, written = minute + 30, written + len(events)
            board = store.board()
            assert board == fresh_board(store_url), step
            assert board.version[:2] == (info.id, written) and board.version[2] > board.version[1] - 1
        unchanged = store.board()
        assert store.board() is unchanged  # nothing new: the very same board, nothing counted again
        assert store.rename_class(info.id, "renamed").name == "renamed"
        renamed = store.board()
        assert renamed.class_info.name == "renamed" and renamed.students == unchanged.students
        assert renamed == fresh_board(store_url)
        # records removed by another program while more came: the new records do not explain the count
        record_all(elsewhere, [LessonOpened("Eva", "01-cards", "es", at=minutes(minute))])
        assert "Eva" in [s.nickname for s in store.board().students]
        elsewhere.remove_student(info.id, "Eva")
        record_all(elsewhere, some_events(3, minute))
        assert store.board() == fresh_board(store_url) and "Eva" not in [s.nickname for s in store.board().students]
        before = store.board()
        elsewhere.remove_student(info.id, "Bea")
        assert store.board() == fresh_board(store_url) != before
        # removed here: read whole again
        store.remove_student(info.id, "Carla")
        assert store.board() == fresh_board(store_url)
        assert "Carla" not in [s.nickname for s in store.board().students]
        # another class: its own totals; the first's are still right
        other = store.start_new_class("other")
        record_all(elsewhere, some_events(5, minute))
        assert store.board(other.id) == fresh_board(store_url, other.id)
        assert store.board(info.id) == fresh_board(store_url, info.id)


# -- classes ------------------------------------------------------------------------------------------------------

def test_a_new_class_keeps_the_old_one(store: ClassStore) -> None:
    first = store.current_class()
    record_all(store, [LessonOpened("Ana", "01-cards", "es")])
    second = store.start_new_class("Tuesday 3B")
    assert store.current_class() == second and second.name == "Tuesday 3B"
    assert [c.id for c in store.classes()] == [second.id, first.id]
    assert store.board().students == []
    assert [s.nickname for s in store.board(first.id).students] == ["Ana"]
    record_all(store, [LessonOpened("Bea", "01-cards", "es")])
    assert [s.nickname for s in store.board().students] == ["Bea"]
    assert [s.nickname for s in store.board(first.id).students] == ["Ana"]


def test_a_new_class_is_named_by_its_date(store: ClassStore) -> None:
    before = datetime.now().astimezone()
    started = store.start_new_class()
    assert started.name == before.strftime("%Y-%m-%d %H:%M") or started.name > before.strftime("%Y-%m-%d %H:%M")
    assert abs(started.started_at - datetime.now(timezone.utc)) < timedelta(minutes=1)


@pytest.mark.parametrize("name", ["", "   ", "x" * 81, "a\nb", 7])
def test_a_bad_class_name_is_refused_and_nothing_is_made(store: ClassStore, name) -> None:
    before = store.classes()
    with pytest.raises(RecordsError, match="class name"):
        store.start_new_class(name)
    assert store.classes() == before


def test_forgetting_the_current_class_starts_a_new_one(store: ClassStore) -> None:
    first = store.current_class()
    record_all(store, [LessonOpened("Ana", "01-cards", "es")])
    store.forget_class(first.id)
    assert first.id not in [c.id for c in store.classes()]
    assert store.current_class().id > first.id  # a forgotten class's number is never used again
    assert store.board().students == []
    with pytest.raises(RecordsError, match="no class"):
        store.board(first.id)
    with pytest.raises(RecordsError, match="no class"):
        store.forget_class(first.id)


def test_forgetting_an_old_class_keeps_the_current_one(store: ClassStore) -> None:
    old = store.current_class()
    record_all(store, [LessonOpened("Ana", "01-cards", "es")])
    new = store.start_new_class("new")
    record_all(store, [LessonOpened("Bea", "01-cards", "es")])
    store.forget_class(old.id)
    assert store.classes() == [new] and store.current_class() == new
    assert [s.nickname for s in store.board().students] == ["Bea"]
    out = io.StringIO()
    store.export_csv(out, new.id)
    assert "Ana" not in out.getvalue()


def test_an_older_class_can_be_made_current_again(store: ClassStore) -> None:
    """The current class is data, not the newest: records follow the class the teacher chose."""
    first = store.current_class()
    second = store.start_new_class("second")
    assert [c.current for c in store.classes()] == [True, False]
    assert store.make_current(first.id) == first
    assert store.current_class() == first and [c.current for c in store.classes()] == [False, True]
    record_all(store, [LessonOpened("Ana", "01-cards", "es")])
    assert [s.nickname for s in store.board(first.id).students] == ["Ana"]
    assert store.board(second.id).students == [] and store.board().class_info == first
    store.make_current(first.id)  # already current: nothing changes
    assert [c.current for c in store.classes()] == [False, True]
    with pytest.raises(RecordsError, match="no class"):
        store.make_current(999)
    with pytest.raises(RecordsError, match="named by its number"):
        store.make_current("1")  # type: ignore[arg-type]
    assert store.current_class() == first


def test_forgetting_the_current_older_class_starts_a_new_one_and_keeps_the_newer(store: ClassStore) -> None:
    first = store.current_class()
    newer = store.start_new_class("newer")
    store.make_current(first.id)
    store.forget_class(first.id)
    (made, kept) = store.classes()
    assert kept == newer and not kept.current and made.current and made.id > newer.id


def test_two_new_classes_in_one_minute_get_different_names(store: ClassStore) -> None:
    names = [store.start_new_class().name for _ in range(3)]
    assert len(set(names + [c.name for c in store.classes()][3:])) == len(store.classes())
    minute = names[0].removesuffix(" (2)")
    assert all(name.startswith(minute[:13]) for name in names)
    assert any(name.endswith(" (2)") for name in [c.name for c in store.classes()])  # same minute: numbered


@pytest.mark.parametrize("given", ["3B Tuesday", "3b tuesday", "  3B Tuesday  "])
def test_a_name_another_class_has_is_refused_and_nothing_is_made(store: ClassStore, given: str) -> None:
    store.start_new_class("3B Tuesday")
    before = store.classes()
    with pytest.raises(RecordsError) as caught:
        store.start_new_class(given)
    assert caught.value.code == "records_class_name_taken" and "3B Tuesday" in str(caught.value)
    assert store.classes() == before and store.current_class() == before[0]


def test_a_class_is_renamed_with_the_same_checks(store: ClassStore) -> None:
    first = store.current_class()
    second = store.start_new_class("3B")
    renamed = store.rename_class(first.id, "  1A Monday ")
    assert renamed.name == "1A Monday" and store.classes()[1].name == "1A Monday"
    assert store.rename_class(second.id, "3b").name == "3b"  # its own name, in other letters: fine
    before = store.classes()
    for name, code in (("1a monday", "records_class_name_taken"), ("", "records_bad_class_name"),
                       ("x" * 81, "records_bad_class_name"), ("a\tb", "records_bad_class_name")):
        with pytest.raises(RecordsError) as caught:
            store.rename_class(second.id, name)
        assert caught.value.code == code
    with pytest.raises(RecordsError, match="no class"):
        store.rename_class(999, "anything")
    assert store.classes() == before
    assert [c.current for c in store.classes()] == [True, False]


def test_one_student_s_records_are_removed_and_the_class_kept(store: ClassStore) -> None:
    record_all(store, CLASS_OF_THREE)
    info = store.current_class()
    other = store.start_new_class("other")
    record_all(store, [LessonOpened("Ana", "01-cards", "es")])
    assert store.student_records(info.id, "ANA") == ("ana", 9)  # as the board groups and spells her
    assert store.remove_student(info.id, "Ana") == 9
    board = store.board(info.id)
    assert [s.nickname for s in board.students] == ["Bea", "Carla"]
    assert [(m.code, m.students, m.times) for m in board.mistakes][0] == ("took_too_much", 2, 2)
    assert [s.nickname for s in store.board(other.id).students] == ["Ana"]  # another class: untouched
    assert store.current_class() == other
    for nickname in ("Ana", "Nobody", "", "x" * 300, None):
        with pytest.raises(RecordsError) as caught:
            store.remove_student(info.id, nickname)  # type: ignore[arg-type]
        assert caught.value.code == "records_no_student"
    with pytest.raises(RecordsError, match="no class"):
        store.remove_student(999, "Bea")
    assert [s.nickname for s in store.board(info.id).students] == ["Bea", "Carla"]


def test_the_wipe_waits_for_a_reader_that_holds_the_wal(tmp_path: Path) -> None:
    """A reader in the middle of a read (another program, the board) holds the WAL: the checkpoint after the delete
    tries again until the reader is done, and then wipes."""
    import sqlite3
    import threading

    folder = tmp_path / "db"
    with ClassStore.open(folder / "class.sqlite3") as store:
        record_all(store, [LessonOpened("Zorglubqx", "01-cards", "es"), LessonOpened("Bea", "01-cards", "es")])
        reader = sqlite3.connect(folder / "class.sqlite3", isolation_level=None, check_same_thread=False)
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM records").fetchone() == (2,)  # its snapshot holds the WAL
        threading.Timer(1.0, lambda: reader.execute("COMMIT")).start()
        started = time.monotonic()
        assert store.remove_student(store.current_class().id, "Zorglubqx") == 1
        assert 0.9 < time.monotonic() - started < 8
        reader.close()
        assert _files_holding(folder, ["Zorglubqx", "zorglubqx"]) == []


def test_a_version_2_database_is_migrated_on_either_database(store_url: str) -> None:
    """The step from version 2 on SQLite and PostgreSQL alike: a database taken back to version 2 by hand (no
    current class column, two classes of one name) opens with its newest class current and the names unique."""
    from sqlalchemy import create_engine, text

    from escoba_tutor.records.location import locate

    with ClassStore.open(store_url) as store:
        first = store.current_class()
        store.start_new_class("3B")
        record_all(store, [LessonOpened("Ana", "01-cards", "es")])
    engine = create_engine(locate(store_url).url)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE game_table_seats"))  # version 5's
        connection.execute(text("DROP TABLE game_tables"))
        connection.execute(text("DROP TABLE class_exercise_answers"))  # version 4's
        connection.execute(text("DROP TABLE class_exercises"))
        connection.execute(text("DROP INDEX ux_classes_name"))
        connection.execute(text("DROP INDEX ux_classes_one_current"))
        connection.execute(text("ALTER TABLE classes DROP COLUMN is_current"))
        connection.execute(text("UPDATE classes SET name = '3B'"))
        connection.execute(text("UPDATE escoba_schema SET version = 2"))
    engine.dispose()
    with ClassStore.open(store_url) as store:
        (newest, oldest) = store.classes()
        assert (newest.name, oldest.name, oldest.id) == ("3B (2)", "3B", first.id)
        assert newest.current and not oldest.current
        assert [s.nickname for s in store.board().students] == ["Ana"]
        with pytest.raises(RecordsError):
            store.rename_class(oldest.id, "3b (2)")


def _files_holding(folder: Path, words: list[str]) -> list[str]:
    """The files of the folder (the database, its -wal, -shm, -journal…) whose raw bytes hold one of ``words``."""
    return [f"{path.name}: {word}" for path in sorted(folder.iterdir()) if path.is_file()
            for word in words if word.encode("utf-8") in path.read_bytes()]


@pytest.mark.parametrize("how", ["forget the class", "remove the student"])
def test_what_is_deleted_is_in_no_file_of_the_sqlite_database(tmp_path: Path, how: str) -> None:
    """A distinctive nickname (and the class's name), then forgotten: not one byte of them is left in the database,
    its WAL or any other file beside it, while the server still has it open (and after it is closed)."""
    folder = tmp_path / "db"
    nickname, class_name = "Zorglubqx", "Grupo Wqxzy"
    with ClassStore.open(folder / "class.sqlite3") as store:
        kept = store.current_class()
        record_all(store, [LessonOpened("Bea", "01-cards", "es")])
        doomed = store.start_new_class(class_name) if how == "forget the class" else kept
        record_all(store, [LessonOpened(nickname, "01-cards", "es")] + [
            DrillAnswer(nickname, "captures", seed, False, "missed_15", lesson="02-captures") for seed in range(300)])
        store.board()  # a reader's snapshot, as the open board has
        words = [nickname, nickname_key(nickname)] + ([class_name] if how == "forget the class" else [])
        assert _files_holding(folder, words)  # the test can see them while they are there
        if how == "forget the class":
            store.make_current(kept.id)
            store.forget_class(doomed.id)
        else:
            assert store.remove_student(doomed.id, nickname) == 301
        assert _files_holding(folder, words) == []
        assert [s.nickname for s in store.board(kept.id).students] == ["Bea"]
        record_all(store, [LessonOpened("Bea", "02-captures", "es")])  # and it goes on as before
    assert _files_holding(folder, words) == []


def test_forgetting_and_removing_vacuum_on_postgresql(postgres_server) -> None:
    """PostgreSQL: the tables are vacuumed after the delete (the rows' space is freed for new ones)."""
    import psycopg

    url = postgres_server.create_database(f"records_{next(_databases)}")
    with ClassStore.open(url) as store:
        record_all(store, [LessonOpened("Zorglub", "01-cards", "es"), LessonOpened("Bea", "01-cards", "es")])
        store.remove_student(store.current_class().id, "Zorglub")
        with psycopg.connect(host=postgres_server.host, port=postgres_server.port, user=postgres_server.user,
                             dbname=url.rsplit("/", 1)[1], autocommit=True) as admin:
            vacuumed = admin.execute("SELECT relname, vacuum_count FROM pg_stat_user_tables "
                                     "WHERE relname IN ('records', 'classes') ORDER BY relname").fetchall()
            dead = admin.execute("SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'records'").fetchone()
        assert [name for name, count in vacuumed if count] == ["classes", "records"]
        assert dead == (0,)
        assert [s.nickname for s in store.board().students] == ["Bea"]


# -- CSV --------------------------------------------------------------------------------------------------------

def test_the_csv_reads_back_one_row_per_record(store: ClassStore) -> None:
    record_all(store, CLASS_OF_THREE)
    record_all(store, [DrillAnswer("-Íñigo", "captures", 3, False, "=HYPERLINK(1)", at=minutes(20)),
                       DrillAnswer("Zoë", "@SUM(A1)", 4, False, "+1", at=minutes(21))])
    out = io.StringIO()
    store.export_csv(out)
    text = out.getvalue()
    assert text.startswith("\ufeff")  # Excel reads UTF-8 only with it
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert len(rows) == len(CLASS_OF_THREE) + 2
    assert list(rows[0]) == ["class", "class_started_utc", "at_utc", "nickname", "event", "drill_kind", "level",
                             "lesson", "lang", "seed", "correct", "mistake", "points_player", "points_computer",
                             "escobas_player", "escobas_computer", "outcome", "rules",
                             "table", "partner", "other_side"]  # (a table's columns after the earlier ones)
    assert {(r["table"], r["partner"], r["other_side"]) for r in rows} == {("", "", "")}  # no table game here
    assert {row["class"] for row in rows} == {store.current_class().name}
    assert [row["at_utc"] for row in rows] == sorted(row["at_utc"] for row in rows)
    first = rows[0]
    assert (first["nickname"], first["event"], first["lesson"], first["lang"], first["at_utc"]) == (
        "Ana", "lesson", "01-cards", "es", "2026-12-01T09:01:00.000+00:00")
    hostile = rows[-2:]
    assert [(r["nickname"], r["drill_kind"], r["mistake"]) for r in hostile] == [
        ("'-Íñigo", "captures", "'=HYPERLINK(1)"), ("Zoë", "'@SUM(A1)", "'+1")]
    for row in rows:
        for cell in row.values():
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    outcomes = [(r["nickname"], r["outcome"]) for r in rows if r["event"] == "game"]
    assert sorted(outcomes) == [("Ana", "won"), ("Bea", "lost"), ("Carla", "won"), ("Carla", "won"), ("ana", "lost")]


def test_the_csv_of_an_empty_class_is_its_header(store: ClassStore) -> None:
    out = io.StringIO()
    store.export_csv(out, bom=False)
    assert out.getvalue().splitlines() == [",".join(next(csv.reader(io.StringIO(out.getvalue()))))]
    assert out.getvalue().startswith("class,")


# -- recording never breaks a lesson ------------------------------------------------------------------------------

@pytest.mark.parametrize("event", [
    DrillAnswer("<script>", "captures", 1, True, None),
    DrillAnswer("x" * 10_000, "captures", 1, True, None),
    DrillAnswer("Ana", "", 1, True, None),
    DrillAnswer("Ana", "captures", -1, True, None),
    DrillAnswer("Ana", "captures", 1, "yes", None),  # type: ignore[arg-type]
    DrillAnswer("Ana", "captures\n", 1, True, None),
    DealFinished("Ana", "easy", 1, -3, 0, 0, 0),
    GameFinished("Ana", "easy", 1, 21, 3, "won"),  # type: ignore[arg-type]
    LessonOpened("Ana", "x" * 65, "es"),
    LessonOpened("Ana", "01-cards", "es", at="today"),  # type: ignore[arg-type]
    "not an event",
], ids=lambda event: type(event).__name__)
def test_a_malformed_event_is_not_recorded_and_nothing_raises(store: ClassStore, event, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="escoba_tutor.records"):
        assert store.record(event) is False
    assert "not recorded" in caplog.text
    assert store.board().students == []


def test_the_password_is_hidden(store: ClassStore, store_url: str, request) -> None:
    if store_url.startswith("postgresql"):
        server = request.getfixturevalue("postgres_server")
        name = store_url.rsplit("/", 1)[1]
        with ClassStore.open(server.url(name, password="s3cret")) as secret:
            assert "s3cret" not in secret.url and "***" in secret.url
            assert secret.url.startswith("postgresql+psycopg://escoba:***@127.0.0.1:")
    else:
        assert store.url == f"sqlite+pysqlite:///{store_url}"


def test_records_from_two_stores_meet(store_url: str) -> None:
    with ClassStore.open(store_url) as one, ClassStore.open(store_url) as two:
        assert one.record(LessonOpened("Ana", "01-cards", "es"))
        assert two.record(LessonOpened("Bea", "01-cards", "es"))
        assert [s.nickname for s in one.board().students] == ["Ana", "Bea"]
        two.start_new_class("next")
        assert one.current_class().name == "next"  # every writer follows the current class at once
        assert one.record(LessonOpened("Carla", "01-cards", "es"))
        assert [s.nickname for s in two.board().students] == ["Carla"]


# -- nicknames ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "code"), [
    ("", "nickname_empty"), ("   ", "nickname_empty"),
    ("x" * 10_000, "nickname_too_long"), ("x" * 25, "nickname_too_long"),
    ("<script>", "nickname_bad_character"), ("Ana\x00", "nickname_bad_character"),
    ("Ana\u202eX", "nickname_invisible"), ("Ana 😀", "nickname_bad_character"), ("a\tb", "nickname_bad_character"),
    ("Ana\nBea", "nickname_bad_character"), ("=1+1", "nickname_bad_character"), ("\u0301a", "nickname_bad_character"),
])
def test_bad_nicknames_are_refused_by_name(text: str, code: str) -> None:
    with pytest.raises(NicknameError) as caught:
        valid_nickname(text)
    assert caught.value.code == code
    assert isinstance(caught.value, RecordsError)


@pytest.mark.parametrize(("text", "code"), [
    ("An\u0430", "nickname_mixed_scripts"),            # a Cyrillic а at the end of a Latin name
    ("M\u0430r\u00eda", "nickname_mixed_scripts"),     # and in the middle of «María»
    ("\u039f\u03bb\u03b3a", "nickname_mixed_scripts"),  # Greek letters with a Latin one
    ("Za\u0308\u0301\u0301", "nickname_stacked_marks"),  # accents piled on a letter
    ("a\u0301\u0301", "nickname_stacked_marks"), ("q\u0301", "nickname_stacked_marks"),  # an accent q never takes
    ("Bea\u200d", "nickname_invisible"), ("B\u200bea", "nickname_invisible"),  # zero-width joiner and space
    ("Ana\u3164", "nickname_invisible"), ("Ana\ufe0f", "nickname_invisible"),  # a Hangul filler, a selector
    ("\u00adAna", "nickname_invisible"),                   # a soft hyphen
])
def test_look_alike_nicknames_are_refused_by_name(text: str, code: str) -> None:
    with pytest.raises(NicknameError) as caught:
        valid_nickname(text)
    assert caught.value.code == code


@pytest.mark.parametrize(("typed", "kept"), [
    ("\uff21\uff4e\uff41", "Ana"),                 # full-width letters
    ("Ana\u00a0Mar\u00eda", "Ana María"),             # a non-breaking space
    ("Ana   Mar\u00eda", "Ana María"),               # spaces that show as one on the board
    ("\u2168", "IX"), ("\ufb01lo", "filo"),           # a Roman numeral, a ligature
])
def test_look_alike_nicknames_are_folded_into_the_usual_letters(typed: str, kept: str) -> None:
    assert valid_nickname(typed) == kept
    assert nickname_key(typed) == nickname_key(kept)


@pytest.mark.parametrize("name", ["Íñigo", "María José", "Ñandú", "Begoña", "Güell", "Nguyễn Thị Ánh", "Søren",
                                  "Dvořák", "Саша", "Ἀθηνᾶ", "山田さくら", "Yuki山田", "김민준", "शांति"])
def test_names_of_real_languages_stay_nicknames(name: str) -> None:
    assert valid_nickname(name) == name


def test_a_nickname_in_look_alike_letters_is_the_student_it_looks_like(store: ClassStore) -> None:
    """«асе» written in Cyrillic letters looks like the Latin «ace»: one student, not two on the board."""
    record_all(store, [DrillAnswer("ace", "captures", 1, True, None, at=minutes(1)),
                       DrillAnswer("\u0430\u0441\u0435", "captures", 2, True, None, at=minutes(2)),
                       DrillAnswer("\uff41\uff43\uff45", "captures", 3, True, None, at=minutes(3))])
    assert [(s.nickname, s.drills) for s in store.board().students] == [("ace", {"captures": (3, 3)})]


def test_a_nickname_that_is_not_text_is_refused() -> None:
    with pytest.raises(NicknameError, match="is text"):
        valid_nickname(7)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["Íñigo", "Zoë", "ana-3_b.c", "محمد", "明美", "x" * 24, "Ana María"])
def test_letters_of_any_script_make_a_nickname(name: str) -> None:
    assert valid_nickname(f"  {name} ") == name


def test_a_nickname_is_put_in_one_normal_form() -> None:
    assert valid_nickname("In\u0303igo") == "Iñigo"  # n + combining tilde -> ñ


def test_ana_and_ANA_are_one_student(store: ClassStore) -> None:
    record_all(store, [DrillAnswer("ANA", "captures", 1, True, None, at=minutes(1)),
                       DrillAnswer("ana", "captures", 2, False, "missed_15", at=minutes(2)),
                       DrillAnswer("Ana", "captures", 3, False, "missed_15", at=minutes(3))])
    board = store.board()
    assert [(s.nickname, s.drills) for s in board.students] == [("Ana", {"captures": (3, 1)})]
    assert board.mistakes[0].students == 1


# -- places that are no database ------------------------------------------------------------------------------------

def test_a_folder_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(RecordsError, match="is a folder") as caught:
        ClassStore.open(tmp_path)
    assert caught.value.code == "records_path_is_folder"


@pytest.mark.parametrize("url", ["mysql://u:secret@host/db", "http://example.org/x.db", "ftp://host/x"])
def test_a_bad_scheme_is_named_and_its_password_hidden(url: str) -> None:
    scheme = url.split(":")[0]
    with pytest.raises(RecordsError, match=f"cannot be a {scheme}: URL") as caught:
        ClassStore.open(url)
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "", "   ", "postgresql://host/"])
def test_a_url_that_names_no_database_is_refused(url: str) -> None:
    with pytest.raises(RecordsError):
        ClassStore.open(url)


def test_a_path_under_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    with pytest.raises(RecordsError, match="cannot make the folder"):
        ClassStore.open(tmp_path / "plain" / "class.sqlite3")


def test_a_file_that_is_not_a_database_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are my notes\n" * 100)
    with pytest.raises(RecordsError, match="not a database"):
        ClassStore.open(path)
    assert path.read_text() == "these are my notes\n" * 100


def test_someone_elses_database_is_refused_and_kept(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE accounts (id INTEGER)")
    with pytest.raises(RecordsError, match="not an escoba-tutor class database"):
        ClassStore.open(path)
    with sqlite3.connect(path) as connection:
        assert [r[0] for r in connection.execute("SELECT name FROM sqlite_master")] == ["accounts"]


def test_the_default_place_and_the_environment(tmp_path: Path, monkeypatch) -> None:
    from escoba_tutor.records.location import default_database_path, locate

    monkeypatch.delenv("ESCOBA_TUTOR_CLASS_DB", raising=False)
    assert locate(None).path == default_database_path()
    assert default_database_path().name == "class.sqlite3" and "escoba-tutor" in default_database_path().parts
    monkeypatch.setenv("ESCOBA_TUTOR_CLASS_DB", str(tmp_path / "from-env.sqlite3"))
    with ClassStore.open() as store:
        assert store.url.endswith("from-env.sqlite3")
    assert (tmp_path / "from-env.sqlite3").exists()
    monkeypatch.setenv("ESCOBA_TUTOR_CLASS_DB", f"sqlite:///{tmp_path}/url.sqlite3")
    with ClassStore.open() as store:
        assert store.record(LessonOpened("Ana", "01-cards", "es"))
    assert (tmp_path / "url.sqlite3").exists()


def test_students_are_in_alphabetical_order_accents_aside(store: ClassStore) -> None:
    record_all(store, [LessonOpened(name, "01-cards", "es") for name in ["Zoë", "íñigo", "Ana", "Ignacio", "Óscar"]])
    assert [s.nickname for s in store.board().students] == ["Ana", "Ignacio", "íñigo", "Óscar", "Zoë"]


def test_a_game_without_a_seed_is_recorded(store: ClassStore) -> None:
    record_all(store, [GameFinished("Ana", "easy", None, 21, 3, True)])
    assert store.board().games_by_level == {"easy": (1, 1, 0)}


def test_many_kernels_open_a_new_database_at_once(store_url: str) -> None:
    """Kernels that start together on a database nobody has opened yet: one schema, one class, no error."""
    import threading

    start = threading.Barrier(12)
    errors: list[BaseException] = []

    def open_and_record(n: int) -> None:
        try:
            start.wait(30)
            with ClassStore.open(store_url) as store:
                assert store.record(LessonOpened(f"student {n}", "01-cards", "es"))
        except BaseException as error:  # collected, the test fails on it
            errors.append(error)

    threads = [threading.Thread(target=open_and_record, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    with ClassStore.open(store_url) as store:
        assert len(store.classes()) == 1
        assert len(store.board().students) == 12


def test_an_unwritable_place_is_refused() -> None:
    with pytest.raises(RecordsError, match="cannot make the folder of the class database /proc/escoba"):
        ClassStore.open("/proc/escoba/class.sqlite3")


def test_a_postgresql_server_that_is_not_there_is_named_without_its_password() -> None:
    pytest.importorskip("psycopg")
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(RecordsError) as caught:
        ClassStore.open(f"postgresql://escoba:s3cret@127.0.0.1:{port}/classes")
    message = str(caught.value)
    assert f"cannot open the class database postgresql+psycopg://escoba:***@127.0.0.1:{port}/classes" in message
    assert "s3cret" not in message


def test_a_postgresql_database_that_does_not_exist_is_named(postgres_server) -> None:
    with pytest.raises(RecordsError, match='database "no_such_database" does not exist'):
        ClassStore.open(postgres_server.url("no_such_database"))


def test_the_records_load_no_widget_library_nor_web_server() -> None:
    import subprocess
    import sys

    script = ("import sys, escoba_tutor.records, escoba_tutor.records.recorder\n"
              "print(sorted(m for m in ('ipywidgets', 'traitlets', 'anywidget', 'voila', 'tornado', 'jupyter_server',"
              " 'escoba_tutor.widgets', 'escoba_tutor.server', 'escoba_tutor.server.app') if m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_class_name_that_looks_like_a_formula_is_neutralised_in_the_csv(store: ClassStore) -> None:
    store.start_new_class("=cmd|' /C calc'!A0")
    record_all(store, [LessonOpened("Ana", "01-cards", "es")])
    out = io.StringIO()
    store.export_csv(out)
    (row,) = csv.DictReader(io.StringIO(out.getvalue().removeprefix("\ufeff")))
    assert row["class"] == "'=cmd|' /C calc'!A0"


@pytest.mark.parametrize("url", ["postgres://escoba:pw@db.school.example/classes",
                                 "postgresql://escoba:pw@db.school.example/classes",
                                 "postgresql+psycopg2://escoba:pw@db.school.example/classes"])
def test_every_postgresql_url_goes_through_psycopg_3(url: str) -> None:
    from escoba_tutor.records.location import locate

    where = locate(url)
    assert where.path is None
    assert where.url.render_as_string(hide_password=True) == "postgresql+psycopg://escoba:***@db.school.example/classes"


def test_a_postgresql_connection_cut_by_the_server_is_made_again(postgres_server) -> None:
    import psycopg

    url = postgres_server.create_database(f"records_{next(_databases)}")
    with ClassStore.open(url) as store:
        assert store.record(LessonOpened("Ana", "01-cards", "es"))
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(host=postgres_server.host, port=postgres_server.port, user=postgres_server.user,
                             dbname="postgres", autocommit=True) as admin:
            cut = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s",
                                (name,)).fetchone()
        assert cut is not None and cut[0] >= 1  # the store's pooled connection was among them
        assert store.record(LessonOpened("Bea", "01-cards", "es"))
        assert [s.nickname for s in store.board().students] == ["Ana", "Bea"]


def test_a_finished_game_has_a_winner_so_a_tie_is_refused(store: ClassStore) -> None:
    """The board once counted "ties" against the computer, but a game always has a winner (a shared highest
    total plays more deals): a finished game without one is a malformed record, refused, and nothing is written."""
    from escoba_tutor.records.rows import event_row

    with pytest.raises(RecordsError, match="True or False") as caught:
        event_row(GameFinished("Ana", "easy", 1, 21, 21, None))  # type: ignore[arg-type]
    assert caught.value.code == "records_bad_event"
    assert not store.record(GameFinished("Ana", "easy", 1, 21, 21, None))  # type: ignore[arg-type]
    assert event_row(GameFinished("Ana", "easy", 1, 21, 22, False))["outcome"] == "lost"


@pytest.mark.parametrize("table, said", [
    ("AB12C", "names a table"),
    (PlayedAt("AB12C", None, ()), "1 to 3 players"),
    (PlayedAt("AB12C", None, ("Leo",)), "is a Player"),  # type: ignore[arg-type]
    (PlayedAt("AB12C", None, (Player("<b>Leo</b>", None),)), "letters, digits"),
    (PlayedAt("", None, (Player("Leo", None),)), "a table's code"),
    (PlayedAt("AB12C", Player(None, "x" * 65), (Player("Leo", None),)), "the computer's level"),
])
def test_who_sat_at_a_table_is_checked_before_anything_is_written(store: ClassStore, table, said) -> None:
    """A deal or game at a table names who sat where (the ``played_at`` column): a malformed one is refused by
    name and no row is written."""
    from escoba_tutor.records.rows import event_row

    event = DealFinished("Ana", "table", 5, 3, 2, 0, 1, table=table)
    with pytest.raises(RecordsError, match=said) as caught:
        event_row(event)
    assert caught.value.code in ("records_bad_event", "nickname_bad_character")
    assert not store.record(event) and store.board().students == []


def test_who_sat_at_a_table_goes_with_a_table_s_deal_only_and_round_trips() -> None:
    from escoba_tutor.records.rows import event_row, played_at_from_text

    with pytest.raises(RecordsError, match="only a deal or game of level 'table'"):
        event_row(GameFinished("Ana", "greedy", 5, 21, 2, True, table=PlayedAt("AB12C", None, (Player("Leo", None),))))
    seats = PlayedAt("AB12C", Player("Bea", None), (Player("Íñigo", None), Player(None, "expert"),))
    row = event_row(GameFinished("Ana", "table", 5, 21, 2, True, table=seats))
    assert played_at_from_text(row["played_at"]) == seats and "Íñigo" in row["played_at"]
    gone = PlayedAt("AB12C", None, (Player(None, None, deleted=True),))
    assert played_at_from_text(event_row(DealFinished("Ana", "table", 5, 1, 2, 0, 0, table=gone))["played_at"]) == gone
    assert event_row(DealFinished("Ana", "greedy", 5, 1, 2, 0, 0))["played_at"] is None
