"""Write the reference class database of the current schema version: tests/data/records/v<N>/class.sqlite3 and,
beside it, board.json, the board it must show.

Run once per schema version (``python tests/data/records/make_reference.py``) and commit both files; never
change them afterwards. tests/test_records_schema.py opens every reference database with the current code, which
migrates it, and checks that its board is still the one written here.
"""

from __future__ import annotations

import json
import shutil
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from escoba_tutor.records import (
    SCHEMA_VERSION,
    ClassStore,
    DealFinished,
    DrillAnswer,
    GameFinished,
    LessonOpened,
)
from escoba_tutor.records.board import Board

HERE = Path(__file__).resolve().parent
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


EVENTS = [
    LessonOpened("Íñigo", "01-cards", "es", at=at(1)),
    DrillAnswer("Íñigo", "captures", 9_007_199_254_740_991, False, "missed_15", lesson="02-captures", at=at(2)),
    DrillAnswer("íñigo", "captures", 12, True, None, at=at(3)),
    DealFinished("Zoë", "easy", 40, 6, 5, 1, 2, at=at(4)),
    GameFinished("Zoë", "easy", 40, 21, 17, True, at=at(5)),
    GameFinished("Zoë", "expert", 41, 15, 21, False, at=at(6)),
    GameFinished("Ana", "expert", 42, 21, 21, None, at=at(7)),
    DrillAnswer("Ana", "setenta", 7, False, "wrong_primera", at=at(8)),
    # since version 2: the rules a drill ran under (the Scopa lesson's captures drill; the same seed in lesson 2)
    DrillAnswer("Zoë", "captures", 4, False, "missed_15", lesson="07-variants", rules="scopa", at=at(9)),
    DrillAnswer("Ana", "captures", 4, False, "missed_15", lesson="02-captures", rules="escoba", at=at(10)),
]


def board_as_json(board: Board) -> dict:
    return {
        "class": {"name": board.class_info.name, "started_at": board.class_info.started_at.isoformat()},
        "students": [{"nickname": s.nickname, "lessons": s.lessons, "drills": s.drills, "games": s.games,
                      "last_seen": s.last_seen.isoformat()} for s in board.students],
        "mistakes": [{"kind": m.kind, "code": m.code, "students": m.students, "times": m.times, "seeds": m.seeds,
                      "exercises": [[e.seed, e.lesson, e.rules] for e in m.exercises]} for m in board.mistakes],
        "games_by_level": board.games_by_level,
    }


#: Zoë's answer to the class exercise, as given (since version 6).
GIVEN = '{"answers":["78","inválida"],"built":[],"choices":{}}'

#: The students' tokens at the reference's tables (since version 5).
TOKENS = {"Zoë": "reference-token-zoe-0001", "Ana": "reference-token-ana-0002", "Íñigo": "reference-token-inigo-03",
          "Bea": "reference-token-bea-0004"}


def table_as_json(store: ClassStore, code: str) -> dict:
    """A table as the reference keeps it: its public facts, and each student's own hand."""
    info = store.table_info(code)
    hands = {}
    for name, token in TOKENS.items():
        try:
            hands[name] = [card.code for card in store.table_view(code, token).game.hand]
        except Exception:  # noqa: BLE001 - not seated there
            continue
    return {"code": info.code, "players": info.players, "rules": info.rules, "state": info.state,
            "version": info.version, "turn": info.turn, "totals": list(info.totals),
            "seats": [[s.nickname, s.computer] for s in info.seats], "hands": hands}


def main() -> None:
    folder = HERE / f"v{SCHEMA_VERSION}"
    if folder.exists() and "--overwrite" not in sys.argv:
        sys.exit(f"{folder} exists: reference data is never rewritten")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    with ClassStore.open(folder / "class.sqlite3") as store:
        first = store.current_class()
        old = store.start_new_class("Older class")
        assert store.record(LessonOpened("Old student", "01-cards", "en", at=at(-60 * 24)))
        store.start_new_class("3B Tuesday")
        for event in EVENTS:
            recorded = store.record(event)
            # a game without a winner (a tie) is refused since a game was made to always have one: the older
            # references hold one, the newer ones not
            assert recorded or getattr(event, "won", True) is None, event
        if SCHEMA_VERSION >= 4:  # since version 4: a class exercise, answered by one student (a drill record too)
            exercise, _new = store.start_exercise("reference-exercise-token", "setenta", 12, "escoba", 60)
            # since version 6: the answer as the student gave it (the drill model's answers, as JSON)
            given = GIVEN if SCHEMA_VERSION >= 6 else None
            store.answer_exercise(exercise.id, DrillAnswer("Zoë", "setenta", 12, False, "wrong_primera",
                                                           lesson="class", rules="escoba", at=at(11)), given)
            store.change_exercise(exercise.id, "reveal")
        tables = []
        if SCHEMA_VERSION >= 5:  # since version 5: a table of two under way, and a table of four still waiting
            code = store.open_table(TOKENS["Zoë"], "Zoë", 2, "escoba", seed=77).table.code
            store.join_table(code, TOKENS["Ana"], "Ana")
            for _ in range(7):  # the second round dealt, one card of it played
                turn = store.table_info(code).turn
                view = store.table_view(code, TOKENS[["Zoë", "Ana"][turn]])
                store.play_at_table(code, view.seat, TOKENS[["Zoë", "Ana"][turn]], view.game.legal_moves[-1],
                                    view.version)
            four = store.open_table(TOKENS["Íñigo"], "Íñigo", 4, "escoba+figuras", seed=78).table.code
            store.give_seat_to_computer(four, 1, "greedy", TOKENS["Íñigo"])
            if SCHEMA_VERSION >= 8:  # since version 8: a game played out at a table (who sat where, in its records)
                done = store.open_table(TOKENS["Bea"], "Bea", 2, "escoba+target=3", seed=79).table.code
                store.join_table(done, TOKENS["Ana"], "Ana")
                while (info := store.table_info(done)).state == "playing":
                    token = TOKENS[["Bea", "Ana"][info.turn]]
                    view = store.table_view(done, token)
                    store.play_at_table(done, view.seat, token, view.game.legal_moves[0], view.version)
            tables = [table_as_json(store, info.code) for info in store.class_tables()]
        store.forget_class(first.id)
        store.make_current(old.id)  # since version 3 the current class is chosen: here not the newest
        board = store.board()
        classes = [{"id": c.id, "name": c.name} for c in store.classes()]
        old_board = store.board(old.id)
    (folder / "class.sqlite3-writers.lock").unlink(missing_ok=True)
    expected = {"schema_version": SCHEMA_VERSION, "classes": classes, "current_class": board.class_info.id,
                "board": board_as_json(board),
                "older_board": board_as_json(old_board)}
    if tables:
        expected["tables"] = tables
    (folder / "board.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {folder}")


if __name__ == "__main__":
    main()
