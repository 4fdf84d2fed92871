"""Tables where students play each other (escoba_tutor/records/tables.py): their games kept in the class database.

Every test that takes the ``store`` fixture runs twice: on a SQLite file, and on a real PostgreSQL server that the
tests start themselves (tests/records_postgres.py; skipped, saying why, where it cannot run). What is checked:
opening and joining by code, seats given to the computer and taken back, turn discipline (only the seat to play,
only the latest version, only plays the engine allows, nothing written by a refusal), views that hold one hand
only (a property test over random games of two and four), two players racing for one version, a table that
survives the store being closed and opened again, and finished games recorded as games against the computer are.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
import secrets
import threading
from datetime import datetime, timedelta, timezone
from functools import partial
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escoba_tutor.engine.cards import Card
from escoba_tutor.engine.game import Game
from escoba_tutor.records import ClassStore, NicknameError
from escoba_tutor.records import tables as tables_module
from escoba_tutor.records.tables import (
    BadTokenError,
    IllegalPlayError,
    NotSeatedError,
    NotYourTurnError,
    SeatTakenError,
    SeatView,
    StaleVersionError,
    TableError,
    TableFullError,
    TableNotFoundError,
    TableNotReadyError,
    TableOverError,
    TableSettingsError,
    table_code,
)

_databases = itertools.count()  # this module's own databases (named apart from conftest's)


def token() -> str:
    return secrets.token_urlsafe(24)


def game_of(store: ClassStore, code: str) -> Game:
    """The table's game as the database holds it (for the tests' own checks: no page ever gets it)."""
    from sqlalchemy import select

    from escoba_tutor.records.schema import game_tables

    with store.engine.connect() as connection:
        text = connection.execute(select(game_tables.c.game).where(game_tables.c.code == code)).scalar_one()
    return Game.from_json(text)


def two_at_a_table(store: ClassStore, rules: str = "escoba", seed: int | None = 5) -> tuple[str, dict[int, str]]:
    """A table of two, Ana at seat 0 and Leo at seat 1; its code and each seat's token."""
    ana, leo = token(), token()
    code = store.open_table(ana, "Ana", 2, rules, seed=seed).table.code
    store.join_table(code, leo, "Leo")
    return code, {0: ana, 1: leo}


def to_play(store: ClassStore, code: str, tokens: dict[int, str]) -> SeatView:
    """The view of the seat whose turn it is."""
    turn = store.table_info(code).turn
    assert turn is not None
    return store.table_view(code, tokens[turn])


# ------------------------------------------------------------------------------------------ opening and joining
def test_a_table_is_opened_with_a_code_and_joined_by_it(store: ClassStore) -> None:
    ana, leo = token(), token()
    opened = store.open_table(ana, "Ana", 2, "escoba")
    code = opened.table.code
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{5}", code)
    assert (opened.seat, opened.table.state, opened.table.players, opened.table.rules) == (0, "waiting", 2, "escoba")
    assert [(s.seat, s.nickname, s.computer, s.empty) for s in opened.table.seats] == [(0, "Ana", None, False),
                                                                                       (1, None, None, True)]
    assert len(opened.game.hand) == 3 and opened.game.player == 0
    with pytest.raises(TableNotReadyError):
        store.play_at_table(code, 0, ana, opened.game.hand[0].code, opened.version)
    # typed back by hand: lower case, a dash, a space and the letter O for the digit 0 all find it
    typed = code.lower()[:2] + "-" + code.lower()[2:] + " "
    joined = store.join_table(typed.replace("0", "o"), leo, "Leo")
    assert joined.seat == 1 and joined.table.state == "playing" and joined.version == opened.version + 1
    assert [s.nickname for s in joined.table.seats] == ["Ana", "Leo"]
    # a reload: the same token finds its own seat, and nothing changes
    again = store.join_table(code, leo, "Leo")
    assert again.seat == 1 and again.version == joined.version
    with pytest.raises(TableFullError, match="every seat of table"):
        store.join_table(code, token(), "Eva")
    assert store.class_tables()[0].code == code and store.class_tables()[0].state == "playing"


def test_four_players_sit_in_partnerships_and_may_choose_their_seat(store: ClassStore) -> None:
    tokens = [token() for _ in range(4)]
    code = store.open_table(tokens[0], "Ana", 4, "escoba+figuras").table.code
    partner = store.join_table(code, tokens[1], "Leo", seat=2)
    assert partner.seat == 2 and partner.game.side == 0 and partner.game.sides == ((0, 2), (1, 3))
    with pytest.raises(SeatTakenError, match="seat 2 of table"):
        store.join_table(code, tokens[2], "Eva", seat=2)
    assert store.join_table(code, tokens[2], "Eva").seat == 1
    last = store.join_table(code, tokens[3], "Íñigo")
    assert last.seat == 3 and last.table.state == "playing" and last.table.rules == "escoba+figuras"
    assert [s.side for s in last.table.seats] == [0, 1, 0, 1]


@pytest.mark.parametrize(("players", "rules", "words"), [
    (3, "escoba", "2 players, or 4 in partnerships"),
    (1, "escoba", "2 players, or 4 in partnerships"),
    ("2", "escoba", "2 players, or 4 in partnerships"),
    (2, "chile", "cannot be played by these rules"),        # Chile's rules need 3 or 4 players
    (2, "parchís", "cannot be played by these rules"),
    (2, "scopa+escoba_de_mano_pairs", "cannot be played by these rules"),
])
def test_a_table_with_impossible_settings_is_refused_naming_them(store: ClassStore, players: Any, rules: str,
                                                                 words: str) -> None:
    with pytest.raises(TableSettingsError, match=words) as refused:
        store.open_table(token(), "Ana", players, rules)
    assert refused.value.code == "table_bad_settings"
    assert store.class_tables() == []


def test_a_house_rule_table_plays_by_it(store: ClassStore) -> None:
    opened = store.open_table(token(), "Ana", 2, "scopa")
    assert opened.table.rules == "scopa" and opened.game.rules.capture == "match"


@pytest.mark.parametrize("bad", ["", "short", "x" * 201, "tab\there-and-long-enough", "ñandú-largo-de-verdad-sí",
                                 None, 1234567890123456789])
def test_a_token_that_is_not_one_is_refused(store: ClassStore, bad: Any) -> None:
    with pytest.raises(BadTokenError, match="the student's token"):
        store.open_table(bad, "Ana")
    assert store.class_tables() == []


def test_a_new_code_is_never_digits_alone(monkeypatch) -> None:
    """A spreadsheet opening the class's file would read a code of digits alone («01234») as a number (1234): a
    new code always has a letter. The draws are forced through codes of digits first."""
    drawn = iter("0123401234" + "9876A")  # two codes of digits, then one with a letter
    monkeypatch.setattr(tables_module.secrets, "choice", lambda alphabet: next(drawn))
    assert tables_module._new_code() == "9876A"
    monkeypatch.undo()
    assert not any(tables_module._new_code().isdigit() for _ in range(3000))  # 1 in 330 would be, unchecked


def test_a_bad_nickname_or_code_is_refused(store: ClassStore) -> None:
    with pytest.raises(NicknameError):
        store.open_table(token(), "<script>")
    code, _tokens = two_at_a_table(store)
    for bad in ("", "K7M2", "K7M2QQ", "K7M2U", None, "🂡🂡🂡🂡🂡"):
        with pytest.raises(TableNotFoundError, match="is not a table code"):
            store.join_table(bad, token(), "Eva")  # type: ignore[arg-type]
    unused = next(c for c in ("ZZZZZ", "YYYYY") if c != code)
    with pytest.raises(TableNotFoundError, match=f"there is no table {unused}"):
        store.join_table(unused, token(), "Eva")
    assert table_code(" k7m-2q ") == "K7M2Q" and table_code("IOL00") == "10100"


# ---------------------------------------------------------------------------------------------- turn discipline
def test_only_the_seat_to_play_plays_and_a_refusal_writes_nothing(store: ClassStore) -> None:
    code, tokens = two_at_a_table(store)
    before = game_of(store, code)
    mover = to_play(store, code, tokens)
    other = 1 - mover.seat
    waiting = store.table_view(code, tokens[other])
    assert mover.my_turn and not waiting.my_turn and waiting.game.legal_moves == ()
    refusals: list[tuple[type[TableError], Any]] = [
        # the other seat, with a card of its own hand, at the latest version
        (NotYourTurnError, lambda: store.play_at_table(code, other, tokens[other], waiting.game.hand[0].code,
                                                       waiting.version)),
        # the seat to play, named by the other student's token
        (NotSeatedError, lambda: store.play_at_table(code, mover.seat, tokens[other], mover.game.legal_moves[0],
                                                     mover.version)),
        # a stranger's token
        (NotSeatedError, lambda: store.play_at_table(code, mover.seat, token(), mover.game.legal_moves[0],
                                                     mover.version)),
        # a seat that does not exist
        (NotSeatedError, lambda: store.play_at_table(code, 7, tokens[0], mover.game.legal_moves[0], mover.version)),
        # an older version, and a version that is not a number
        (StaleVersionError, lambda: store.play_at_table(code, mover.seat, tokens[mover.seat],
                                                        mover.game.legal_moves[0], mover.version - 1)),
        (StaleVersionError, lambda: store.play_at_table(code, mover.seat, tokens[mover.seat],
                                                        mover.game.legal_moves[0], str(mover.version))),
        # a card of the other hand, and text that is no card
        (IllegalPlayError, lambda: store.play_at_table(code, mover.seat, tokens[mover.seat],
                                                       waiting.game.hand[0].code, mover.version)),
        (IllegalPlayError, lambda: store.play_at_table(code, mover.seat, tokens[mover.seat], "99z", mover.version)),
        (IllegalPlayError, lambda: store.play_at_table(code, mover.seat, tokens[mover.seat], 42, mover.version)),
        (IllegalPlayError, lambda: store.play_at_table(code, mover.seat, tokens[mover.seat], "1o+" * 100_000,
                                                       mover.version)),
    ]
    for kind, attempt in refusals:
        with pytest.raises(kind) as refused:
            attempt()
        assert refused.type is kind, refused.value
        assert str(refused.value) and refused.value.code.startswith("table_")
        assert game_of(store, code).state_key() == before.state_key()
        assert store.table_info(code).version == mover.version
    legal = mover.game.legal_moves[0]
    after = store.play_at_table(code, mover.seat, tokens[mover.seat], legal.text, mover.version)
    assert after.version == mover.version + 1 and game_of(store, code).moves == (legal,)
    with pytest.raises(StaleVersionError, match=f"is at version {after.version}, not {mover.version}") as stale:
        store.play_at_table(code, other, tokens[other], store.table_view(code, tokens[other]).game.legal_moves[0],
                            mover.version)
    assert stale.value.params["current"] == after.version


def test_a_play_the_rules_forbid_says_why_as_the_engine_does(store: ClassStore) -> None:
    """A capture that does not add up to 15: refused with the engine's reason and its data (the legal captures)."""
    for seed in range(200):
        code, tokens = two_at_a_table(store, seed=seed)
        view = to_play(store, code, tokens)
        capturing = [m for m in view.game.legal_moves if m.captured]
        if not capturing:
            continue
        card = capturing[0].card
        wrong = [c for c in view.game.table if c not in capturing[0].captured]
        taken = wrong[:1] or list(view.game.table)[:1]
        if sum(c.value for c in taken) + card.value == 15:
            continue
        attempt = "+".join([card.code, *(c.code for c in taken)])
        with pytest.raises(IllegalPlayError) as refused:
            store.play_at_table(code, view.seat, tokens[view.seat], attempt, view.version)
        assert refused.value.reason in ("wrong_sum", "must_capture", "equal_card_first")
        assert refused.value.engine_error is not None and refused.value.engine_error.params["legal_captures"]
        assert store.table_info(code).version == view.version
        return
    pytest.fail("no seed gave a first player a capture")


# ---------------------------------------------------------------------------------------------- the computer
def test_an_empty_seat_goes_to_the_computer_which_plays_its_turns(store: ClassStore) -> None:
    ana = token()
    opened = store.open_table(ana, "Ana", 2, "escoba", seed=11)
    code = opened.table.code
    view = store.give_seat_to_computer(code, 1, "medio", ana)  # a level's word: the greedy bot
    assert view.table.seats[1].computer == "greedy" and view.table.state == "playing"
    assert view.table.turn == 0 and view.my_turn  # the computer, if it was its turn, played it at once
    for _ in range(6):
        view = store.play_at_table(code, 0, ana, view.game.legal_moves[0], view.version)
        assert view.table.turn == 0 or view.table.state == "finished"
    assert len(game_of(store, code).moves) >= 12
    with pytest.raises(TableSettingsError, match="level among random, greedy, expert"):
        store.give_seat_to_computer(code, 1, "genius", ana)


def test_a_present_students_seat_is_not_given_away_but_a_left_one_is(store: ClassStore) -> None:
    code, tokens = two_at_a_table(store)
    with pytest.raises(SeatTakenError, match="Leo is at seat 1"):
        store.give_seat_to_computer(code, 1, "random", tokens[0])
    with pytest.raises(NotSeatedError, match="only a student seated"):
        store.give_seat_to_computer(code, 1, "random", token())
    version = store.table_info(code).version
    left = store.give_seat_to_computer(code, 1, "random", tokens[0], left_after=0)  # Leo "left" 0 s ago
    assert left.table.seats[1].computer == "random" and left.table.seats[1].nickname == "Leo"
    assert left.version > version
    # nobody else takes Leo's seat back; Leo does, and plays on
    with pytest.raises(SeatTakenError, match="for another student"):
        store.take_seat_back(code, 1, token(), "Eva")
    with pytest.raises(SeatTakenError, match="the computer plays seat 1 now"):
        store.play_at_table(code, 1, tokens[1], "1o", left.version)
    back = store.take_seat_back(code, 1, tokens[1], "Leo")
    assert back.seat == 1 and back.table.seats[1].computer is None and back.table.seats[1].nickname == "Leo"
    # a student may hand their own seat to the computer at any time
    own = store.give_seat_to_computer(code, 0, "greedy", tokens[0])
    assert own.table.seats[0].computer == "greedy"


def test_a_seat_nobody_held_is_taken_from_the_computer_by_a_newcomer(store: ClassStore) -> None:
    ana, eva = token(), token()
    code = store.open_table(ana, "Ana", 2, "escoba").table.code
    store.give_seat_to_computer(code, 1, "random", ana)
    with pytest.raises(TableFullError):
        store.join_table(code, eva, "Eva")
    with pytest.raises(SeatTakenError):  # Ana has a seat already: she cannot take a second one
        store.take_seat_back(code, 1, ana, "Ana")
    taken = store.take_seat_back(code, 1, eva, "Eva")
    assert taken.seat == 1 and [s.nickname for s in taken.table.seats] == ["Ana", "Eva"]


def test_leaving_empties_a_waiting_seat_and_marks_a_playing_one_left(store: ClassStore) -> None:
    ana, leo, eva = token(), token(), token()
    code = store.open_table(ana, "Ana", 4, "escoba").table.code
    store.join_table(code, leo, "Leo")
    before = store.table_info(code).version
    left = store.leave_table(code, leo)  # the table still waits: the seat is free for a classmate
    assert left.seats[1].empty and left.state == "waiting" and left.version == before + 1
    with pytest.raises(NotSeatedError):
        store.table_view(code, leo)
    with pytest.raises(NotSeatedError):  # leaving twice, or a table one never sat at
        store.leave_table(code, leo)
    assert store.join_table(code, eva, "Eva").seat == 1
    code, tokens = two_at_a_table(store)  # under way: the seat is kept, and counts as left at once
    version = store.table_info(code).version
    gone = store.leave_table(code, tokens[1])
    assert gone.state == "playing" and gone.seats[1].nickname == "Leo" and gone.seats[1].left
    assert gone.version == version + 1
    given = store.give_seat_to_computer(code, 1, "random", tokens[0])  # a left seat goes to the computer
    assert given.table.seats[1].computer == "random"
    back = store.take_seat_back(code, 1, tokens[1], "Leo")  # and its student takes it back
    assert back.seat == 1 and not back.table.seats[1].left


def test_the_computer_s_turns_may_be_left_to_the_caller(store: ClassStore) -> None:
    ana = token()
    code = store.open_table(ana, "Ana", 2, "escoba", seed=3).table.code
    view = store.give_seat_to_computer(code, 1, "random", ana, computer=False)
    while not view.my_turn:  # the computer deals first, or Ana plays
        assert store.play_computer_turns(code, 1) == 1
        view = store.table_view(code, ana, computer=False)
    after = store.play_at_table(code, 0, ana, view.game.legal_moves[0], view.version, computer=False)
    assert after.table.turn == 1 and after.version == view.version + 1  # the computer has not played yet
    assert store.table_view(code, ana, computer=False).version == after.version
    assert store.play_computer_turns(code, 1) == 1 and store.table_info(code).turn == 0


def test_the_computer_alone_at_a_table_waits_for_a_student(store: ClassStore) -> None:
    ana = token()
    code = store.open_table(ana, "Ana", 2, "escoba").table.code
    store.give_seat_to_computer(code, 1, "random", ana)
    view = store.give_seat_to_computer(code, 0, "random", ana)
    moves = len(game_of(store, code).moves)
    assert view.table.state == "playing" and moves <= 1 and store.play_computer_turns(code) == 0


# ------------------------------------------------------------------------------------------ one hand per view
def cards_in(value: Any, seen: set[int] | None = None) -> set[Card]:
    """Every card anywhere inside ``value``: its fields, items, keys, properties that are plain data."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return set()
    seen.add(id(value))
    if isinstance(value, Card):
        return {value}
    found: set[Card] = set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        items: Any = [getattr(value, f.name) for f in dataclasses.fields(value)]
    elif isinstance(value, dict):
        items = [*value.keys(), *value.values()]
    elif isinstance(value, (tuple, list, set, frozenset)):
        items = list(value)
    else:
        return found
    for item in items:
        found |= cards_in(item, seen)
    return found


CARD_TEXT = re.compile(r"(?<![0-9A-Za-z])(1[0-2]|[1-7])[oceb](?![0-9A-Za-z])")


def assert_no_other_hand(view: SeatView, game: Game) -> None:
    """No card of another seat's hand anywhere in ``view``: as an object, or as text in any string it holds. (The
    history of the deals before this one is left out: its cards were all played in the open, and are dealt
    again.)"""
    others = {card for seat, hand in enumerate(game.hands) if seat != view.seat for card in hand}
    assert set(view.game.hand) == set(game.hand(view.seat))
    deal = view.game.deal
    assert all(getattr(event, "deal", deal) <= deal for event in view.game.history)
    view = dataclasses.replace(view, game=view.game._replace(
        history=tuple(event for event in view.game.history if getattr(event, "deal", deal) == deal)))
    assert not cards_in(view) & others, f"seat {view.seat} sees {cards_in(view) & others}"
    shown = {match.group(0) for match in CARD_TEXT.finditer(repr(view))}
    assert not shown & {card.code for card in others}
    assert "seed" not in repr(view)  # the seed would give every hand away: no field holds it
    if game.seed >= 10**6:
        assert str(game.seed) not in repr(view)


def seated_table(store: ClassStore, players: int, rules: str, computers, seed: int):
    """A table opened by Ana with every seat taken: the computer (at ``random``) in ``computers``, a student in
    the others. Its code, each seat's token, and the students' seats."""
    tokens = {seat: token() for seat in range(players)}
    code = store.open_table(tokens[0], "Ana", players, rules, seed=seed).table.code
    for seat in range(1, players):
        if seat in computers:
            store.give_seat_to_computer(code, seat, "random", tokens[0])
        else:
            store.join_table(code, tokens[seat], f"Alumno {seat}", seat=seat)
    return code, tokens, [seat for seat in range(players) if seat not in computers]


def seeded_codes(seed: int):
    """New tables' codes drawn from ``seed``. The computer's plays follow from a table's code (its bot's seed), and
    a property test must replay an example exactly: hypothesis checks that its draws depend on nothing else."""
    rng = random.Random(seed)
    return mock.patch.object(tables_module, "_new_code", lambda: "".join(
        rng.choice(tables_module.CODE_ALPHABET) for _ in range(tables_module.CODE_LENGTH)))


@st.composite
def table_setups(draw: st.DrawFn) -> tuple[int, str, frozenset[int], int]:
    players = draw(st.sampled_from([2, 4]))
    rules = draw(st.sampled_from(["escoba+target=5", "scopa+target=3", "escoba+capture_optional+target=5"]))
    computers = draw(st.sets(st.integers(1, players - 1), max_size=players - 2))
    return players, rules, frozenset(computers), draw(st.integers(0, 2**40))


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(setup=table_setups(), data=st.data())
def test_random_games_keep_turns_and_show_each_seat_its_own_hand_only(tmp_path: Path, setup, data) -> None:
    """Random legal games of two and four, some seats played by the computer, through the table's own calls:
    at every turn only the seat to play may play, and no seat's view holds a card of another hand."""
    players, rules, computers, seed = setup
    with ClassStore.open(tmp_path / f"class-{next(_databases)}.sqlite3") as store, seeded_codes(seed):
        code, tokens, humans = seated_table(store, players, rules, computers, seed)
        for _step in range(data.draw(st.integers(10, 60), label="plays")):
            game = game_of(store, code)
            views = {seat: store.table_view(code, tokens[seat]) for seat in humans}
            for view in views.values():
                assert_no_other_hand(view, game)
                assert view.version == views[humans[0]].version
            info = store.table_info(code)
            assert cards_in(info) == set() and cards_in(store.class_tables()) == set()  # the projector's: no card
            if info.state == "finished":
                assert game.is_over and info.winner == game.winner
                break
            assert info.turn in humans  # the computer's seats have played up to a student's turn
            mover = views[info.turn]
            assert mover.my_turn and set(mover.game.legal_moves) == set(game.legal_moves())
            for seat in humans:
                if seat != info.turn:
                    assert views[seat].game.legal_moves == ()
                    with pytest.raises(NotYourTurnError):
                        store.play_at_table(code, seat, tokens[seat], "1o", mover.version)
            move = data.draw(st.sampled_from(mover.game.legal_moves), label="move")
            after = store.play_at_table(code, info.turn, tokens[info.turn], move, mover.version)
            replayed = game_of(store, code)
            assert replayed.moves[len(game.moves)] == move and after.version >= mover.version + 1
            computer_plays = len(replayed.moves) - len(game.moves) - 1
            assert after.version == mover.version + 1 + computer_plays


def assert_no_hand(top: Any, game: Game) -> None:
    """No card of any hand in ``top`` (the projector's picture), as an object or as text in any string it holds."""
    hands = {card for hand in game.hands for card in hand}
    assert not cards_in(top) & hands, f"the projector shows {cards_in(top) & hands}"
    shown = {match.group(0) for match in CARD_TEXT.finditer(repr(top))}
    assert not shown & {card.code for card in hands}
    assert "seed" not in repr(top)


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(setup=table_setups(), data=st.data())
def test_the_projector_s_picture_of_random_games_holds_no_hand(tmp_path: Path, setup, data) -> None:
    """Random legal games of two and four (some seats the computer's): at every turn the table as the projector
    shows it holds what lies in the open (the table's cards, each side's captures and escobas, hand sizes, the
    last play) and no card of any hand."""
    players, rules, computers, seed = setup
    with ClassStore.open(tmp_path / f"class-{next(_databases)}.sqlite3") as store, seeded_codes(seed):
        tokens = {seat: token() for seat in range(players)}
        code = store.open_table(tokens[0], "Ana", players, rules, seed=seed).table.code
        waiting = store.table_top(code)
        assert waiting.table.state == "waiting" and waiting.last_play is None
        assert_no_hand(waiting, game_of(store, code))
        for seat in range(1, players):
            if seat in computers:
                store.give_seat_to_computer(code, seat, "random", tokens[0])
            else:
                store.join_table(code, tokens[seat], f"Alumno {seat}", seat=seat)
        for _step in range(data.draw(st.integers(10, 60), label="plays")):
            game = game_of(store, code)
            top = store.table_top(code)
            assert_no_hand(top, game)
            assert top.cards == game.table and top.hand_sizes == tuple(map(len, game.hands))
            assert top.captured == tuple(map(len, game.piles)) and top.escobas == game.escobas
            assert top.table.totals == game.totals and top.table.turn == game.turn and top.deal == game.deal
            plays = [e for e in game.history if e.kind == "play" and e.deal == game.deal]
            assert top.last_play == (plays[-1] if plays else None)
            if top.table.state == "finished":
                break
            view = store.table_view(code, tokens[top.table.turn])
            move = data.draw(st.sampled_from(view.game.legal_moves), label="move")
            store.play_at_table(code, view.seat, tokens[view.seat], move, view.version)


# ---------------------------------------------------------------------------------------------- concurrency
def race(*attempts: Any) -> list[Any]:
    """Run the attempts at once (threads released together); each one's result or the error it raised."""
    start = threading.Barrier(len(attempts))
    results: list[Any] = [None] * len(attempts)

    def run(index: int) -> None:
        start.wait()
        try:
            results[index] = attempts[index]()
        except Exception as error:  # noqa: BLE001 - kept as the attempt's outcome
            results[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(attempts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_two_plays_racing_for_one_version_one_wins_the_other_is_stale(store_url: str) -> None:
    """A student with two tabs plays two different cards at once, each through a store of its own (two servers
    of a hub): one play is written, the other refused as stale, ten times over."""
    with ClassStore.open(store_url) as first, ClassStore.open(store_url) as second:
        code, tokens = two_at_a_table(first, seed=21)
        for _round in range(10):
            view = to_play(first, code, tokens)
            if view.table.state == "finished":
                break
            moves = list(dict.fromkeys(view.game.legal_moves))
            one, other = moves[0], moves[-1]
            before = len(game_of(first, code).moves)
            results = race(partial(first.play_at_table, code, view.seat, tokens[view.seat], one, view.version),
                           partial(second.play_at_table, code, view.seat, tokens[view.seat], other, view.version))
            won = [r for r in results if isinstance(r, SeatView)]
            stale = [r for r in results if isinstance(r, StaleVersionError)]
            assert len(won) == 1 and len(stale) == 1, results
            assert "another change came first" in str(stale[0])
            game = game_of(first, code)
            assert len(game.moves) == before + 1 and game.moves[-1] in (one, other)
            assert first.table_info(code).version == view.version + 1


def test_two_students_racing_for_the_last_seat(store_url: str) -> None:
    with ClassStore.open(store_url) as first, ClassStore.open(store_url) as second:
        for _round in range(5):
            code = first.open_table(token(), "Ana", 2).table.code
            results = race(partial(first.join_table, code, token(), "Leo"),
                           partial(second.join_table, code, token(), "Eva"))
            assert sorted(type(r).__name__ for r in results) == ["SeatView", "TableFullError"], results
            assert first.table_info(code).state == "playing" and first.table_info(code).version == 2


# ----------------------------------------------------------------------------------------------- a restart
def test_a_table_survives_the_store_being_closed_and_opened_again(store_url: str) -> None:
    with ClassStore.open(store_url) as store:
        code, tokens = two_at_a_table(store, seed=33)
        for _ in range(5):
            view = to_play(store, code, tokens)
            store.play_at_table(code, view.seat, tokens[view.seat], view.game.legal_moves[-1], view.version)
        before = {seat: store.table_view(code, tokens[seat]) for seat in (0, 1)}
        moves = game_of(store, code).moves
    with ClassStore.open(store_url) as store:
        after = {seat: store.table_view(code, tokens[seat]) for seat in (0, 1)}
        for seat in (0, 1):
            assert after[seat].game == before[seat].game and after[seat].version == before[seat].version
        assert game_of(store, code).moves == moves
        view = to_play(store, code, tokens)
        store.play_at_table(code, view.seat, tokens[view.seat], view.game.legal_moves[0], view.version)
        assert game_of(store, code).moves == (*moves, view.game.legal_moves[0])


def test_the_opener_s_choice_of_hints_is_kept_with_the_table(store_url: str) -> None:
    """Hints are allowed unless the opener says no; the choice is the table's, seen by every seat and in the
    class's list, and it survives the store being closed and opened again. Anything but yes or no is refused."""
    with ClassStore.open(store_url) as store:
        allowed = store.open_table(token(), "Ana", 2).table.code
        first, second = token(), token()
        without = store.open_table(first, "Leo", 2, hints=False).table.code
        store.join_table(without, second, "Eva")
        with pytest.raises(TableSettingsError):
            store.open_table(token(), "Noa", 2, hints="no")  # type: ignore[arg-type]
    with ClassStore.open(store_url) as store:
        assert store.table_info(allowed).hints is True and store.table_info(without).hints is False
        assert {t.code: t.hints for t in store.class_tables()} == {allowed: True, without: False}
        assert store.table_view(without, second).table.hints is False


def test_a_computer_turn_left_unplayed_is_played_after_a_restart(store_url: str) -> None:
    """A server stopped between a student's play and the computer's: the next look at the table plays it."""
    seed = next(seed for seed in range(100) if Game(players=2, seed=seed).turn == 0)  # Ana, at seat 0, first
    with ClassStore.open(store_url) as store:
        ana = token()
        code = store.open_table(ana, "Ana", 2, seed=seed).table.code
        store.join_table(code, token(), "Leo")
        # written straight through the table's own functions, as by a server stopped before the computer's turn
        with store.engine.begin() as connection:
            view = tables_module.seat_view(connection, code, ana)
            tables_module.give_to_computer(connection, code, 1, "greedy", ana, left_after=0)
            tables_module.play(connection, code, 0, ana, view.game.legal_moves[0], view.version + 1)
        assert store.table_info(code).turn == 1 and len(game_of(store, code).moves) == 1
    with ClassStore.open(store_url) as store:
        view = store.table_view(code, ana)
        assert view.my_turn and len(game_of(store, code).moves) == 2


# ---------------------------------------------------------------------------------------- finished, recorded
def play_out(store: ClassStore, code: str, tokens: dict[int, str]) -> Game:
    for _ in range(2000):
        info = store.table_info(code)
        if info.state == "finished":
            return game_of(store, code)
        assert info.turn is not None
        view = store.table_view(code, tokens[info.turn])
        store.play_at_table(code, view.seat, tokens[view.seat], view.game.legal_moves[0], view.version)
    pytest.fail("the game did not end")


def rows_of(store: ClassStore, nickname: str) -> list[Any]:
    from sqlalchemy import select

    from escoba_tutor.records.schema import records

    with store.engine.connect() as connection:
        return list(connection.execute(select(records).where(records.c.nickname == nickname)
                                       .order_by(records.c.id)))


def test_a_finished_game_is_recorded_for_each_student_like_a_game_against_the_computer(store: ClassStore) -> None:
    code, tokens = two_at_a_table(store, rules="escoba+target=3", seed=8)
    game = play_out(store, code, tokens)
    assert game.is_over and store.table_info(code).winner == game.winner
    board = store.board()
    games = {s.nickname: s.games for s in board.students}
    winner = ["Ana", "Leo"][game.winner]
    assert games == {"Ana": {"table": (1, int(winner == "Ana"))}, "Leo": {"table": (1, int(winner == "Leo"))}}
    assert board.games_by_level == {"table": (2, 1, 1)}
    for seat, name in ((0, "Ana"), (1, "Leo")):
        rows = rows_of(store, name)
        deals = [r for r in rows if r.event == "deal"]
        assert len(deals) == len(game.deals) and {r.level for r in rows} == {"table"}
        assert sum(r.points_player for r in deals) == game.totals[seat]
        assert sum(r.points_computer for r in deals) == game.totals[1 - seat]
        (finished,) = [r for r in rows if r.event == "game"]
        assert (finished.points_player, finished.points_computer, finished.seed) == (
            game.totals[seat], game.totals[1 - seat], game.seed)
    with pytest.raises(TableOverError):
        store.play_at_table(code, 0, tokens[0], "1o", store.table_info(code).version)
    with pytest.raises(TableOverError):
        store.join_table(code, token(), "Eva")
    assert store.join_table(code, tokens[0], "Ana").table.state == "finished"  # its players still see it


def test_partners_each_get_their_sides_result(store: ClassStore) -> None:
    tokens = {seat: token() for seat in range(4)}
    code = store.open_table(tokens[0], "Ana", 4, "escoba+target=3", seed=9).table.code
    for seat, name in ((1, "Leo"), (2, "Eva"), (3, "Íñigo")):
        store.join_table(code, tokens[seat], name, seat=seat)
    game = play_out(store, code, tokens)
    won = {name: rows_of(store, name)[-1].outcome for name in ("Ana", "Leo", "Eva", "Íñigo")}
    partners = ("won", "lost") if game.winner == 0 else ("lost", "won")
    assert won == {"Ana": partners[0], "Eva": partners[0], "Leo": partners[1], "Íñigo": partners[1]}


def test_forgetting_a_student_takes_them_off_the_tables_and_the_game_goes_on(store: ClassStore) -> None:
    code, tokens = two_at_a_table(store, seed=4)
    view = to_play(store, code, tokens)
    store.play_at_table(code, view.seat, tokens[view.seat], view.game.legal_moves[0], view.version)
    from escoba_tutor.records import LessonOpened

    assert store.record(LessonOpened("Leo", "01-cards", "es"))
    store.remove_student(store.current_class().id, "leo")
    info = store.table_info(code)
    assert [(s.nickname, s.computer) for s in info.seats] == [("Ana", None), (None, "greedy")]
    with pytest.raises(NotSeatedError):
        store.table_view(code, tokens[1])
    assert store.table_view(code, tokens[0]).my_turn or info.state == "finished"
    store.forget_class(store.current_class().id)
    with pytest.raises(TableNotFoundError):
        store.table_info(code)


# ------------------------------------------------------------------------------------------------- PostgreSQL
def test_every_change_is_announced_on_postgresql(postgres_server) -> None:
    """The servers showing a table learn of a change from PostgreSQL (LISTEN escoba_tables): 'CODE VERSION'."""
    import psycopg

    url = postgres_server.create_database(f"tables_{next(_databases)}")
    with ClassStore.open(url) as store, psycopg.connect(host=postgres_server.host, port=postgres_server.port,
                                                        user=postgres_server.user, dbname=url.rsplit("/", 1)[1],
                                                        autocommit=True) as listener:
        listener.execute("LISTEN escoba_tables")
        code, tokens = two_at_a_table(store, seed=6)
        view = to_play(store, code, tokens)
        store.play_at_table(code, view.seat, tokens[view.seat], view.game.legal_moves[0], view.version)
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=3)]
        assert heard == [f"{code} 1", f"{code} 2", f"{code} 3"]  # the opening (for the board), the join, the play


def test_a_stale_time_is_read_in_utc(store: ClassStore) -> None:
    """A seat is left when its student has not been seen for ``left_after`` seconds, whatever the zones."""
    code, tokens = two_at_a_table(store)
    late = datetime.now(timezone.utc) + timedelta(seconds=300)
    info = tables_module.info  # the function itself, with a moment of its own
    with store.engine.begin() as connection:
        assert [s.left for s in info(connection, code).seats] == [False, False]
        assert [s.left for s in info(connection, code, now=late).seats] == [True, True]
        # a sign of life from Leo's page, later: his seat is not left then, and no version changed
        assert tables_module.seen(connection, code, tokens[1], now=late) == 1
        assert [s.left for s in info(connection, code, now=late).seats] == [True, False]
        assert info(connection, code).version == 2
    assert store.seen_at_table(code, tokens[0]) == 0
    with pytest.raises(NotSeatedError):
        store.seen_at_table(code, token())
