"""Saves (JSON) and resume codes: round trips, and every way a file or code can be wrong."""

from __future__ import annotations

import json
import random
from pathlib import Path

import ipywidgets as w
import pytest
from escoba_test_helpers import CODE_ALPHABET, encode_code, labelled, play_randomly, play_to_end, sign_save

from escoba_tutor import (
    ESCOBA,
    SCOPA,
    ChecksumError,
    EscobaError,
    Game,
    SaveError,
    SaveFormatError,
    SaveVersionError,
)
from escoba_tutor.engine.game import MAX_SEED


def sample_games():
    """Games of both profiles and every player count, at the start, mid-deal, between deals and at the end."""
    games = []
    for number, (players, rules) in enumerate([(2, ESCOBA), (3, ESCOBA), (4, ESCOBA), (2, SCOPA), (3, SCOPA),
                                               (4, SCOPA)]):
        rng = random.Random(number)
        for moves in (0, 1, 17, 36, 80):
            game = Game(players=players, rules=rules, seed=1000 + number)
            play_randomly(game, rng, moves)
            games.append(game)
        games.append(play_to_end(Game(players=players, rules=rules, seed=2000 + number), rng))
    games.append(Game(players=2, rules=ESCOBA.replace(target=5, escoba_de_mano="15/20"), seed=MAX_SEED, dealer=1))
    return games


GAMES = sample_games()


def reference_games(version: str) -> list[dict]:
    """The reference saves of one format version (tests/data/saves/, see tests/test_save_reference.py)."""
    index = Path(__file__).parent / "data" / "saves" / version / "index.json"
    return json.loads(index.read_text("utf-8"))["games"]


def save_of(game) -> dict:
    return json.loads(game.to_json())


@pytest.fixture(scope="module")
def mid_game():
    game = Game(players=2, seed=31)
    play_randomly(game, random.Random(31), 50)
    return game


def assert_load_fails(load, text, error_type=SaveError):
    with pytest.raises(error_type) as info:
        load(text)
    assert isinstance(info.value, EscobaError) and isinstance(info.value, ValueError)
    return info.value


# ------------------------------------------------------------------------------------------------ round trips
@pytest.mark.parametrize("index", range(len(GAMES)))
def test_json_round_trip(index):
    game = GAMES[index]
    loaded = Game.from_json(game.to_json())
    assert loaded.state_key() == game.state_key()
    assert loaded.to_json() == game.to_json()
    assert Game.from_json(game.to_json().encode("utf-8")).state_key() == game.state_key()


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_resume_code_round_trip(index):
    game = GAMES[index]
    code = game.resume_code()
    assert set(code) <= set(CODE_ALPHABET) | {"-"}
    loaded = Game.from_resume_code(code)
    assert loaded.state_key() == game.state_key()
    assert loaded.resume_code() == code


def test_a_loaded_game_plays_on_like_the_original(mid_game):
    loaded = Game.from_json(mid_game.to_json())
    rng_a, rng_b = random.Random(5), random.Random(5)
    original = Game.from_resume_code(mid_game.resume_code())
    play_randomly(loaded, rng_a, 40)
    play_randomly(original, rng_b, 40)
    assert loaded.state_key() == original.state_key()


def test_resume_code_written_loosely_still_loads(mid_game):
    code = mid_game.resume_code()
    plain = code.replace("-", "")
    for variant in (code.lower(), plain, " ".join(plain), f"  {code}\n", "-".join(plain), code.replace("-", " "),
                    plain.replace("0", "O").replace("1", "I"), plain.replace("1", "l")):
        assert Game.from_resume_code(variant).state_key() == mid_game.state_key()


def test_json_save_holds_the_documented_fields(mid_game):
    data = save_of(mid_game)
    assert data["format"] == "escoba-tutor-game" and data["version"] == 2
    assert data["players"] == 2 and data["seed"] == 31 and data["first_dealer"] == mid_game.first_dealer
    assert data["level"] is None and data["mode"] is None and data["names"] == []
    assert data["moves"] == [move.text for move in mid_game.moves]
    assert data["summary"] == {"deal": mid_game.deal, "totals": list(mid_game.totals), "winner": None}


# ------------------------------------------------------------------------------------------------ bad JSON
@pytest.mark.parametrize("text", ["", "{", "not json", "[]", "null", "42", '"save"', "{}", '{"format": "other"}',
                                  "\x00", "\ufeff{}", "[" * 100_000, "1" * 5000])
def test_malformed_json(text):
    assert_load_fails(Game.from_json, text, SaveFormatError)


@pytest.mark.parametrize("value", [None, 42, ["{}"], {"format": "escoba-tutor-game"}])
def test_save_must_be_text(value):
    assert_load_fails(Game.from_json, value, SaveFormatError)


def test_save_bytes_that_are_not_utf8():
    assert_load_fails(Game.from_json, b"\xff\xfe{}", SaveFormatError)


def test_huge_save_is_refused():
    error = assert_load_fails(Game.from_json, " " * 2_000_000 + "{}", SaveFormatError)
    assert error.code == "save_too_large"


def test_truncated_saves(mid_game):
    text = mid_game.to_json()
    for end in list(range(0, len(text), max(1, len(text) // 97))) + [len(text) - 1]:
        assert_load_fails(Game.from_json, text[:end])


@pytest.mark.parametrize("field", ["format", "version", "rules", "players", "seed", "first_dealer", "moves",
                                   "summary", "checksum", "level", "mode", "names"])
def test_a_missing_field(field, mid_game):
    data = save_of(mid_game)
    del data[field]
    text = json.dumps(data) if field == "checksum" else sign_save(data)
    error = assert_load_fails(Game.from_json, text, SaveFormatError)
    if field != "format":
        assert field in str(error)


FIELD_TYPES = {"version": int, "rules": dict, "players": int, "seed": int, "first_dealer": int, "moves": list,
               "summary": dict}
BAD_VALUES = [None, True, 1.0, -1, 10**30, "x", [], {}, [1, 2]]
WRONG_VALUES = [(field, bad) for field, kind in FIELD_TYPES.items() for bad in BAD_VALUES
                if type(bad) is not kind or bad == -1 or bad == [1, 2] or (field != "version" and bad == 10**30)]


@pytest.mark.parametrize("field, bad", WRONG_VALUES, ids=repr)
def test_wrong_types_in_every_field(field, bad, mid_game):
    data = save_of(mid_game)
    data[field] = bad
    assert_load_fails(Game.from_json, sign_save(data), SaveFormatError)


@pytest.mark.parametrize("field, bad", [
    ("level", "medio"), ("level", 2), ("level", True), ("level", ["greedy"]), ("level", ""),
    ("mode", "solo"), ("mode", 1), ("mode", {}),
    ("names", None), ("names", "Ana"), ("names", ["Ana"]), ("names", ["Ana", "Luis", "Eva"]), ("names", [1, 2]),
    ("names", ["Ana", "x" * 25]), ("names", ["Ana", "Luis\n"]), ("names", ["Ana", "\u202eLuis"]),
], ids=repr)
def test_wrong_setup_fields(field, bad, mid_game):
    data = save_of(mid_game)
    data[field] = bad
    error = assert_load_fails(Game.from_json, sign_save(data), SaveFormatError)
    assert error.params["field"] == field


def test_wrong_checksum_type(mid_game):
    data = save_of(mid_game)
    data["checksum"] = 12345
    assert_load_fails(Game.from_json, json.dumps(data), SaveFormatError)


def test_tampered_move_is_caught_by_the_checksum(mid_game):
    data = save_of(mid_game)
    other = next(m.text for m in Game(players=2, seed=31).legal_moves() if m.text != data["moves"][0])
    data["moves"][0] = other
    assert_load_fails(Game.from_json, json.dumps(data), ChecksumError)


def test_tampered_total_is_caught_by_the_checksum_and_by_the_summary(mid_game):
    data = save_of(mid_game)
    data["summary"]["totals"][0] += 5
    assert_load_fails(Game.from_json, json.dumps(data), ChecksumError)
    error = assert_load_fails(Game.from_json, sign_save(data), ChecksumError)
    assert "summary" in str(error)
    data = save_of(mid_game)
    data["summary"]["winner"] = 0
    assert_load_fails(Game.from_json, sign_save(data), ChecksumError)


def test_future_version(mid_game):
    data = save_of(mid_game)
    data["version"] = 3
    for text in (sign_save(data), json.dumps(data)):   # even with a checksum this version cannot check
        error = assert_load_fails(Game.from_json, text, SaveVersionError)
        assert "format version 3" in str(error) and "newer" in str(error) and error.params["version"] == 3
    data["version"] = 0
    assert_load_fails(Game.from_json, sign_save(data), SaveFormatError)


@pytest.mark.parametrize("edit", [
    lambda moves: moves.append(moves[0]),            # a card played twice
    lambda moves: moves.__setitem__(3, "8o"),        # a 41st card
    lambda moves: moves.__setitem__(3, "13b"),
    lambda moves: moves.__setitem__(3, ""),
    lambda moves: moves.__setitem__(0, moves[1]),    # the other player's card
    lambda moves: moves.__setitem__(2, moves[2] + "+" + moves[2].split("+")[0]),
    lambda moves: moves.insert(0, 7),
    lambda moves: moves.__delitem__(0),
])
def test_an_illegal_move_in_the_list(edit, mid_game):
    data = save_of(mid_game)
    edit(data["moves"])
    error = assert_load_fails(Game.from_json, sign_save(data))
    assert isinstance(error, (SaveFormatError, ChecksumError))


def test_moves_after_the_game_is_over():
    game = play_to_end(Game(players=2, seed=4), random.Random(4))
    data = save_of(game)
    data["moves"].append(data["moves"][-1])
    error = assert_load_fails(Game.from_json, sign_save(data), SaveFormatError)
    assert "over" in str(error)


@pytest.mark.parametrize("rules", [
    {"profile": "tute"}, {"profile": "escoba", "capture": "sideways"}, {"profile": "escoba", "target": 0},
    {"profile": "escoba", "target": "21"}, {"profile": "escoba", "speed": 3}, {"profile": 7}, {"target": 21.5},
    {"profile": "escoba", "capture": "match", "escoba_de_mano": "15/25"},
])
def test_edited_rules(rules, mid_game):
    data = save_of(mid_game)
    data["rules"] = rules
    assert_load_fails(Game.from_json, json.dumps(data), ChecksumError)
    error = assert_load_fails(Game.from_json, sign_save(data), SaveFormatError)
    assert "rules" in str(error)


def test_other_profile_in_a_signed_save_is_not_the_same_game(mid_game):
    data = save_of(mid_game)
    data["rules"] = SCOPA.to_dict()
    assert_load_fails(Game.from_json, sign_save(data))


@pytest.mark.parametrize("field, bad", [("players", 5), ("players", 1), ("seed", MAX_SEED + 1), ("seed", -3),
                                        ("first_dealer", 2), ("first_dealer", -1)])
def test_impossible_setup(field, bad, mid_game):
    data = save_of(mid_game)
    data[field] = bad
    assert_load_fails(Game.from_json, sign_save(data), SaveFormatError)


def test_extra_fields_are_covered_by_the_checksum(mid_game):
    data = save_of(mid_game)
    data["note"] = "hello"
    assert_load_fails(Game.from_json, json.dumps(data), ChecksumError)


# ------------------------------------------------------------------------------------------- bad resume codes
@pytest.mark.parametrize("code", ["", "   ", "----", "\n"])
def test_empty_resume_code(code):
    error = assert_load_fails(Game.from_resume_code, code, SaveFormatError)
    assert error.code == "empty_code"


@pytest.mark.parametrize("value", [None, 42, b"ABCDE", ["ABCDE"]])
def test_resume_code_must_be_text(value):
    assert_load_fails(Game.from_resume_code, value, SaveFormatError)


@pytest.mark.parametrize("char", ["U", "u", "*", "!", "é", "\x00", "Ж", "_", "+"])
def test_invalid_characters_are_named(char, mid_game):
    code = mid_game.resume_code()
    bad = code[:3] + char + code[3:]
    error = assert_load_fails(Game.from_resume_code, bad, SaveFormatError)
    assert error.code == "bad_code_char" and error.params["position"] == 4


def test_too_long_resume_code():
    assert_load_fails(Game.from_resume_code, "0" * 30_000, SaveFormatError)


@pytest.mark.parametrize("index", range(0, len(GAMES), 3))
def test_every_truncation_of_a_code_is_refused(index):
    code = GAMES[index].resume_code().replace("-", "")
    for end in range(len(code)):
        assert_load_fails(Game.from_resume_code, code[:end])


@pytest.mark.parametrize("index", range(0, len(GAMES), 2))
def test_every_changed_character_is_refused(index):
    code = GAMES[index].resume_code().replace("-", "")
    for position, old in enumerate(code):
        for new in CODE_ALPHABET:
            if new != old:
                assert_load_fails(Game.from_resume_code, code[:position] + new + code[position + 1:], ChecksumError)


@pytest.mark.parametrize("index", range(1, len(GAMES), 4))
def test_deleted_doubled_and_swapped_characters_are_refused(index):
    code = GAMES[index].resume_code().replace("-", "")
    for position in range(len(code)):
        assert_load_fails(Game.from_resume_code, code[:position] + code[position + 1:])
        assert_load_fails(Game.from_resume_code, code[:position] + code[position] + code[position:])
        if position + 1 < len(code) and code[position] != code[position + 1]:
            swapped = code[:position] + code[position + 1] + code[position] + code[position + 2:]
            assert_load_fails(Game.from_resume_code, swapped)


# Codes below are built with a valid check, to reach the checks behind it. Numbers: version, players,
# first dealer, seed, profile, number of rule changes, (option, value) per change; from version 2 the level,
# the mode, the number of names and each name (its length, then its characters); then the number of moves and
# the choices.
@pytest.mark.parametrize("numbers, error_type", [
    ([3, 2, 0, 5, 0, 0, 0], SaveVersionError),
    ([3], SaveVersionError),
    ([0, 2, 0, 5, 0, 0, 0], SaveFormatError),
    ([1], SaveFormatError),
    ([1, 2, 0], SaveFormatError),
    ([1, 2, 0, 5], SaveFormatError),
    ([1, 2, 0, 5, 0], SaveFormatError),
    ([1, 2, 0, 5, 9, 0, 0], SaveFormatError),          # no such profile
    ([1, 2, 0, 5, 0, 1, 200, 0, 0], SaveFormatError),  # no such option
    ([1, 2, 0, 5, 0, 1, 0, 7, 0], SaveFormatError),    # no such choice
    ([1, 2, 0, 5, 0, 1, 3, 0, 0], SaveFormatError),    # target 0
    ([1, 5, 0, 5, 0, 0, 0], SaveFormatError),          # 5 players
    ([1, 2, 2, 5, 0, 0, 0], SaveFormatError),          # dealer 2 of 2
    ([1, 2, 0, MAX_SEED + 1, 0, 0, 0], SaveFormatError),
    ([1, 2, 0, 5, 0, 0, 3], SaveFormatError),          # moves announced, none given
    ([1, 2, 0, 5, 0, 0, 1, 99], SaveFormatError),      # not one of the legal moves
    ([1, 2, 0, 5, 0, 0, 0, 1], SaveFormatError),       # extra choices
    ([1, 2, 0, 5, 0, 0, 20_000], SaveFormatError),     # more moves than any game
    ([2, 2, 0, 5, 0, 0, 0], SaveFormatError),          # version 2 without level, mode and names
    ([2, 2, 0, 5, 0, 0, 0, 0], SaveFormatError),
    ([2, 2, 0, 5, 0, 0, 0, 0, 0], SaveFormatError),    # no move count
    ([2, 2, 0, 5, 0, 0, 4, 0, 0, 0], SaveFormatError),  # no level 4
    ([2, 2, 0, 5, 0, 0, 0, 3, 0, 0], SaveFormatError),  # no mode 3
    ([2, 2, 0, 5, 0, 0, 0, 0, 1, 1, 65, 0], SaveFormatError),          # one name for two players
    ([2, 2, 0, 5, 0, 0, 0, 0, 9, 0], SaveFormatError),                 # nine names
    ([2, 2, 0, 5, 0, 0, 0, 0, 2, 1, 65, 3, 66, 0], SaveFormatError),   # the second name cut short
    ([2, 2, 0, 5, 0, 0, 0, 0, 2, 1, 65, 30, *[66] * 30, 0], SaveFormatError),  # a name too long
    ([2, 2, 0, 5, 0, 0, 0, 0, 2, 1, 65, 1, 10, 0], SaveFormatError),   # a control character
    ([2, 2, 0, 5, 0, 0, 0, 0, 2, 1, 65, 1, 0xD800, 0], SaveFormatError),  # half of a surrogate pair
    ([2, 2, 0, 5, 0, 0, 0, 0, 2, 1, 65, 1, 0x110000, 0], SaveFormatError),  # beyond Unicode
    ([2, 2, 0, 5, 0, 0, 0, 0, 0, 1, 99], SaveFormatError),     # not one of the legal moves
    ([2, 2, 0, 5, 0, 0, 0, 0, 0, 0, 1], SaveFormatError),      # extra choices
])
def test_crafted_codes_with_a_valid_check(numbers, error_type):
    assert_load_fails(Game.from_resume_code, encode_code(numbers), error_type)


def test_a_newer_version_is_named_in_the_refusal():
    error = assert_load_fails(Game.from_resume_code, encode_code([7, 2, 0, 5, 0, 0, 0]), SaveVersionError)
    assert "format version 7" in str(error) and "newer" in str(error) and error.params["version"] == 7


def test_crafted_version_2_code_with_level_mode_and_names():
    from escoba_tutor.engine.save import read_code

    names = ("Ana", "Íñigo")
    numbers = [2, 2, 1, 12345, 0, 0, 2, 2, 2, *[n for name in names for n in (len(name), *map(ord, name))], 0]
    saved = read_code(encode_code(numbers), Game)
    assert (saved.level, saved.mode, saved.names) == ("greedy", "pass_and_play", names)
    assert saved.game.state_key() == Game(players=2, seed=12345, dealer=1).state_key()


def test_crafted_code_for_a_new_game_loads():
    for numbers in ([1, 3, 1, 12345, 1, 0, 0], [2, 3, 1, 12345, 1, 0, 0, 0, 0, 0]):
        game = Game.from_resume_code(encode_code(numbers))
        assert game.state_key() == Game(players=3, rules=SCOPA, seed=12345, dealer=1).state_key()


def test_crafted_code_without_a_move_count():
    assert_load_fails(Game.from_resume_code, encode_code([1, 2, 0, 5, 0, 0]), SaveFormatError)
    assert_load_fails(Game.from_resume_code, encode_code([2, 2, 0, 5, 0, 0, 0, 0, 0]), SaveFormatError)


def test_code_with_a_huge_number():
    assert_load_fails(Game.from_resume_code, encode_code([1, 2, 0, 2**80, 0, 0, 0]), SaveFormatError)


# ------------------------------------------------------------------------- level, mode and names (version 2)
@pytest.mark.parametrize("setup", [
    {"level": "greedy"}, {"level": "expert", "mode": "computer"}, {"mode": "pass_and_play", "names": ("Ana", "Íñigo")},
    {"level": "random", "mode": "computer", "names": ("", "Ordenador")}, {},
], ids=repr)
def test_level_mode_and_names_round_trip(setup, mid_game):
    from escoba_tutor.engine.save import dump_code, dump_json, read_save

    for text in (dump_json(mid_game, **setup), dump_code(mid_game, **setup)):
        saved = read_save(text, Game)
        assert saved.game.state_key() == mid_game.state_key()
        assert (saved.level, saved.mode, saved.names) == (
            setup.get("level"), setup.get("mode"), tuple(setup.get("names", ())))


@pytest.mark.parametrize("setup", [{"level": "medio"}, {"mode": "solo"}, {"names": ("Ana",)},
                                   {"names": ("Ana", "x" * 25)}, {"names": ("Ana", "a\tb")}], ids=repr)
def test_a_setup_the_format_cannot_hold_is_refused_when_saving(setup, mid_game):
    from escoba_tutor.engine.save import dump_code, dump_json

    for dump in (dump_json, dump_code):
        with pytest.raises(SaveFormatError):
            dump(mid_game, **setup)


# ---------------------------------------------------------------------------------- the save format's order
def test_codes_do_not_depend_on_the_order_the_engine_offers_moves(monkeypatch):
    """The code numbers moves in the save format's own order: an engine that offered its moves in another order
    (a new capture search) writes the same codes and reads every reference code to the same game."""
    from escoba_tutor.engine.game import Game as EngineGame

    references = [game for version in ("v1", "v2") for game in reference_games(version)]
    games = GAMES[::3]
    codes = [game.resume_code() for game in games]
    before = Game(players=2, seed=5).legal_moves()
    offered = EngineGame.legal_moves
    monkeypatch.setattr(EngineGame, "legal_moves", lambda self: tuple(reversed(offered(self))))
    assert Game(players=2, seed=5).legal_moves() == tuple(reversed(before)) != before
    assert [game.resume_code() for game in games] == codes
    for expected in references[::3]:
        game = Game.from_resume_code(expected["code"])
        assert [move.text for move in game.moves] == expected["position"]["moves"], expected["name"]


# ---------------------------------------------------------------------------------------- seeds and deals
# docs/save-format.md: a seed's deal depends on Python's random module (the seeding of random.Random from text,
# the Mersenne Twister and random.shuffle). These are the deals of a few seeds: if a Python upgrade changed
# them, every saved game would turn into another game, and these tests would say so first.
@pytest.mark.parametrize("players, seed, dealer, hands, table", [
    (2, 0, 0, ["12c 12e 6b", "7b 10b 11b"], "7c 5b 10c 11c"),
    (2, 1, 0, ["12c 6e 10b", "6o 2e 1b"], "3b 3o 5c 10e"),
    (3, 42, 0, ["11c 12e 10b", "1c 4b 5b", "10c 10e 1b"], "4e 6e 3c 7b"),
    (4, MAX_SEED, 0, ["1c 6e 2b", "7c 11b 12b", "10o 10c 11e", "2c 4b 7b"], "4c 3e 12o 11c"),
    (2, 123456789, 0, ["1o 4o 5o", "7c 1e 10b"], "6o 7b 10o 6b"),
])
def test_a_seed_deals_the_same_cards(players, seed, dealer, hands, table):
    game = Game(players=players, seed=seed, dealer=dealer)
    assert [" ".join(card.code for card in hand) for hand in game.hands] == hands
    assert " ".join(card.code for card in game.table) == table


def test_a_seed_draws_the_same_first_dealer_and_second_deal():
    assert [Game(players=n, seed=seed).first_dealer for n, seed in ((2, 7), (3, 8), (4, 9))] == [1, 1, 2]
    game = Game(players=2, seed=5, dealer=0)
    while game.deal == 0:
        game.play(game.legal_moves()[0])
    assert game.dealer == 1
    assert [" ".join(card.code for card in hand) for hand in game.hands] == ["10c 4b 12b", "3o 4o 2e"]
    assert " ".join(card.code for card in game.table) == "4e 11b 5e 11o"


# ------------------------------------------------------------------------------- the session at the screen
def play_some(session, moves: int) -> None:
    rng = random.Random(moves)
    for _ in range(moves):
        session.finish_computer_turns()
        if session.phase == "deal_over":
            session.next_deal()
        elif session.phase == "handover":
            session.take_over()
        elif session.phase == "play":
            session.play(rng.choice(session.game.legal_moves()))


@pytest.mark.parametrize("kind", ["code", "file"])
def test_a_game_at_medio_resumed_comes_back_at_medio(kind):
    from escoba_tutor.widgets.session import GameSession

    session = GameSession(players=2, seed=8, level="medio")
    assert session.level == "greedy"
    play_some(session, 7)
    text = session.resume_code() if kind == "code" else session.save_json()
    other = GameSession(players=3, seed=1)
    assert other.level == "random"
    assert other.load(text)
    assert other.level == "greedy" and other.mode == "computer"
    assert other.game.state_key() == session.game.state_key()


def test_pass_and_play_and_names_come_back_with_the_game():
    from escoba_tutor.widgets.session import GameSession

    session = GameSession(players=2, seed=9, mode="pass_and_play", names=["Lucía", "Íñigo"])
    play_some(session, 5)
    for text in (session.resume_code(), session.save_json()):
        other = GameSession(players=2, seed=1, level="expert")
        assert other.load(text)
        assert other.mode == "pass_and_play" and other.humans == (0, 1)
        assert other.names == ["Lucía", "Íñigo"]
        assert other.game.state_key() == session.game.state_key()


def test_a_version_1_code_keeps_the_sessions_own_level():
    from escoba_tutor.widgets.session import GameSession

    reference = next(game for game in reference_games("v1") if game["players"] == 2 and game["position"]["moves"])
    session = GameSession(players=2, seed=1, level="expert")
    assert session.load(reference["code"])
    assert session.level == "expert" and session.game.moves and session.problem is None


def test_a_bad_save_changes_neither_the_game_nor_the_level():
    from escoba_tutor.widgets.session import GameSession

    session = GameSession(players=2, seed=3, level="difícil")
    before = session.game.state_key()
    assert not session.load(encode_code([3, 2, 0, 5, 0, 0, 0]))
    assert isinstance(session.problem, SaveVersionError) and "format version 3" in str(session.problem)
    assert session.level == "expert" and session.game.state_key() == before


def test_an_unknown_level_is_refused_by_name():
    from escoba_tutor.widgets.session import GameSession

    with pytest.raises(EscobaError, match="genius"):
        GameSession(level="genius")


def test_the_game_table_resumed_shows_the_saved_level():
    from escoba_tutor.widgets import GameTable

    table = GameTable(players=2, seed=4, level="greedy", delay=0)
    code = table.session.resume_code()
    other = GameTable(players=2, seed=5, delay=0)
    assert other.session.load(code)
    assert other.session.level == "greedy"
    level = labelled(other, "Ordenador", w.Dropdown)
    labels = {value: label for label, value in level.options}
    assert labels[level.value] == "medio"
