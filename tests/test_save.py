"""Saves (JSON) and resume codes: round trips, and every way a file or code can be wrong."""

from __future__ import annotations

import json
import random

import pytest
from escoba_test_helpers import CODE_ALPHABET, encode_code, play_randomly, play_to_end, sign_save

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
from escoba_tutor.game import MAX_SEED


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
    assert data["format"] == "escoba-tutor-game" and data["version"] == 1
    assert data["players"] == 2 and data["seed"] == 31 and data["first_dealer"] == mid_game.first_dealer
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
                                   "summary", "checksum"])
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
    data["version"] = 2
    for text in (sign_save(data), json.dumps(data)):   # even with a checksum this version cannot check
        error = assert_load_fails(Game.from_json, text, SaveVersionError)
        assert "2" in str(error) and "newer" in str(error)
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
# first dealer, seed, profile, number of rule changes, (option, value) per change, number of moves, choices.
@pytest.mark.parametrize("numbers, error_type", [
    ([2, 2, 0, 5, 0, 0, 0], SaveVersionError),
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
])
def test_crafted_codes_with_a_valid_check(numbers, error_type):
    assert_load_fails(Game.from_resume_code, encode_code(numbers), error_type)


def test_crafted_code_for_a_new_game_loads():
    game = Game.from_resume_code(encode_code([1, 3, 1, 12345, 1, 0, 0]))
    assert game.state_key() == Game(players=3, rules=SCOPA, seed=12345, dealer=1).state_key()


def test_crafted_code_without_a_move_count():
    assert_load_fails(Game.from_resume_code, encode_code([1, 2, 0, 5, 0, 0]), SaveFormatError)


def test_code_with_a_huge_number():
    assert_load_fails(Game.from_resume_code, encode_code([1, 2, 0, 2**80, 0, 0, 0]), SaveFormatError)
