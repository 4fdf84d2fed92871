"""Fuzzing the parsers and loaders: whatever the input, only an EscobaError (a ValueError) may come out."""

from __future__ import annotations

import json
import random

from escoba_test_helpers import ALL_CODES, CODE_ALPHABET, encode_code, play_randomly, sign_save
from hypothesis import example, given, settings
from hypothesis import strategies as st

from escoba_tutor import (
    ESCOBA,
    SCOPA,
    Card,
    EscobaError,
    Game,
    Move,
    Rules,
    parse_card,
    parse_cards,
    rules_by_name,
)
from escoba_tutor.engine.rules import OPTIONS


def escoba_errors_only(call, *args):
    """``call(*args)``; an EscobaError is fine (None is returned) as long as it is a ValueError with a message."""
    try:
        return call(*args)
    except EscobaError as error:
        assert isinstance(error, ValueError)
        assert str(error) and isinstance(error.code, str)
        return None


JSON_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=10)
ODD_OBJECTS = st.one_of(JSON_VALUES, st.binary(max_size=12), st.tuples(st.text(max_size=3)),
                        st.frozensets(st.integers(), max_size=3), st.just(object()), st.just(Card(7, "o")))
CARD_TOKENS = st.sampled_from(ALL_CODES) | st.sampled_from(["AD", "JS", "K♠", "Q♥", "7C", "8o", "10D", "1D", "7O"])
CARDISH_TEXT = st.lists(CARD_TOKENS | st.text(max_size=4), max_size=6).flatmap(
    lambda parts: st.sampled_from([" ", "+", ",", ";", "", " + "]).map(lambda sep: sep.join(parts)))


# --------------------------------------------------------------------------------------------------- cards
@settings(max_examples=300)
@given(st.text() | CARDISH_TEXT)
def test_parse_card_text(text):
    card = escoba_errors_only(parse_card, text)
    if card is not None:
        assert card.code in ALL_CODES
        assert parse_card(card.code) is card


@settings(max_examples=200)
@given(ODD_OBJECTS)
def test_parse_card_any_object(thing):
    card = escoba_errors_only(parse_card, thing)
    assert card is None or isinstance(card, Card)


@settings(max_examples=300)
@given(st.text() | CARDISH_TEXT | st.lists(st.text(max_size=4) | CARD_TOKENS, max_size=6) | ODD_OBJECTS,
       st.booleans())
def test_parse_cards(value, allow_empty):
    cards = escoba_errors_only(lambda v: parse_cards(v, allow_empty=allow_empty), value)
    if cards is not None:
        assert len(set(cards)) == len(cards)
        assert cards or allow_empty


@settings(max_examples=300)
@given(st.text() | CARDISH_TEXT | ODD_OBJECTS)
def test_move_from_text(text):
    move = escoba_errors_only(Move.from_text, text)
    if move is not None:
        assert Move.from_text(move.text) == move
        assert move.card not in move.captured


# --------------------------------------------------------------------------------------------------- rules
OPTION_NAMES = [option.name for option in OPTIONS] + ["profile"]
OPTION_VALUES = st.sampled_from(["fifteen", "match", "15/30", "15/20", "none", "setenta", "suit_count", "21", "0",
                                 "999", "1000", "-3", "x", "", "true"]) | st.text(max_size=6)
RULES_NAMES = st.tuples(st.sampled_from(["escoba", "scopa", "Escoba ", "tute", ""]) | st.text(max_size=6),
                        st.lists(st.tuples(st.sampled_from(OPTION_NAMES) | st.text(max_size=5), OPTION_VALUES),
                                 max_size=3)).map(lambda t: t[0] + "".join(f"+{k}={v}" for k, v in t[1]))


@settings(max_examples=250)
@given(st.text() | RULES_NAMES | ODD_OBJECTS)
def test_rules_by_name(name):
    rules = escoba_errors_only(rules_by_name, name)
    if rules is not None:
        assert isinstance(rules, Rules)
        assert rules_by_name(rules.name) == rules


RULES_DICTS = st.dictionaries(st.sampled_from(OPTION_NAMES) | st.text(max_size=6),
                              JSON_VALUES | OPTION_VALUES | st.integers(-5, 1005), max_size=5)


@settings(max_examples=250)
@given(RULES_DICTS | JSON_VALUES)
def test_rules_from_dict(data):
    rules = escoba_errors_only(Rules.from_dict, data)
    if rules is not None:
        assert Rules.from_dict(rules.to_dict()) == rules


# --------------------------------------------------------------------------------------------------- saves
def _sample_saves():
    saves = []
    for number, (players, rules, moves) in enumerate([(2, ESCOBA, 0), (3, SCOPA, 25), (4, ESCOBA, 70),
                                                      (2, SCOPA, 500)]):
        game = Game(players=players, rules=rules, seed=number)
        play_randomly(game, random.Random(number), moves)
        saves.append(game)
    return saves


SAVED_GAMES = _sample_saves()
SAVE_FIELDS = ["format", "version", "rules", "players", "seed", "first_dealer", "moves", "summary", "checksum"]


def load_json_safely(text):
    game = escoba_errors_only(Game.from_json, text)
    if game is not None:   # whatever loads must be a whole, consistent game
        assert Game.from_json(game.to_json()).state_key() == game.state_key()
    return game


@settings(max_examples=200)
@given(st.text() | st.binary() | JSON_VALUES.map(json.dumps))
@example("{" * 5000)
@example('{"format": "escoba-tutor-game", "version": 1e400}')
@example('{"format": "escoba-tutor-game", "version": NaN}')
def test_from_json_arbitrary_input(text):
    load_json_safely(text)


@settings(max_examples=150)
@given(st.sampled_from(range(len(SAVED_GAMES))), st.sampled_from(SAVE_FIELDS) | st.text(max_size=5),
       st.none() | JSON_VALUES, st.booleans())
def test_from_json_with_a_changed_field(index, field, new_value, resign):
    data = json.loads(SAVED_GAMES[index].to_json())
    if new_value is None and field in data:
        del data[field]
    else:
        data[field] = new_value
    load_json_safely(sign_save(data) if resign else json.dumps(data))


@settings(max_examples=150)
@given(st.sampled_from(range(len(SAVED_GAMES))), st.sampled_from(["rules", "summary", "moves"]), st.data())
def test_from_json_with_a_changed_inner_value(index, field, data):
    save = json.loads(SAVED_GAMES[index].to_json())
    inner = save[field]
    if isinstance(inner, dict):
        key = data.draw(st.sampled_from(sorted(inner) + ["extra"]))
        inner[key] = data.draw(JSON_VALUES | OPTION_VALUES)
    elif inner:
        position = data.draw(st.integers(0, len(inner) - 1))
        inner[position] = data.draw(JSON_VALUES | CARDISH_TEXT)
    else:
        inner.append(data.draw(CARDISH_TEXT))
    load_json_safely(sign_save(save))


@settings(max_examples=200)
@given(st.sampled_from(range(len(SAVED_GAMES))), st.integers(0, 10**6), st.integers(0, 255), st.booleans())
def test_from_json_with_damaged_bytes(index, position, byte, cut):
    raw = bytearray(SAVED_GAMES[index].to_json().encode("utf-8"))
    position %= len(raw)
    if cut:
        raw = raw[:position]
    else:
        raw[position] = byte
    load_json_safely(bytes(raw))


# --------------------------------------------------------------------------------------------- resume codes
def load_code_safely(code):
    game = escoba_errors_only(Game.from_resume_code, code)
    if game is not None:
        assert Game.from_resume_code(game.resume_code()).state_key() == game.state_key()
    return game


@settings(max_examples=200)
@given(st.text() | st.text(alphabet=CODE_ALPHABET + "-oilu ", max_size=40) | ODD_OBJECTS)
def test_from_resume_code_arbitrary_input(code):
    load_code_safely(code)


EDITS = st.lists(st.tuples(st.sampled_from(["delete", "insert", "replace", "swap", "lower"]), st.integers(0, 10**6),
                           st.sampled_from(CODE_ALPHABET + "-UO *é")), min_size=1, max_size=4)


@settings(max_examples=200)
@given(st.sampled_from(range(len(SAVED_GAMES))), EDITS)
def test_from_resume_code_with_edits(index, edits):
    code = list(SAVED_GAMES[index].resume_code())
    for kind, position, char in edits:
        position %= len(code) + 1
        if kind == "insert":
            code.insert(position, char)
        elif position < len(code):
            if kind == "delete":
                del code[position]
            elif kind == "replace":
                code[position] = char
            elif kind == "lower":
                code[position] = code[position].lower()
            elif position + 1 < len(code):
                code[position], code[position + 1] = code[position + 1], code[position]
    load_code_safely("".join(code))


SMALL = st.integers(0, 5) | st.integers(0, 2**70)


@settings(max_examples=300)
@given(st.lists(SMALL, max_size=12) | st.tuples(
    st.just(1), st.integers(0, 5), st.integers(0, 4), st.integers(0, 2**54), st.integers(0, 2),
    st.lists(st.integers(0, 12), max_size=5), st.integers(0, 60), st.lists(st.integers(0, 30), max_size=60),
).map(lambda t: [*t[:5], *t[5], t[6], *t[7]]))
def test_from_resume_code_with_a_valid_check(numbers):
    """Codes that pass the check character test, to reach the decoding behind it."""
    load_code_safely(encode_code(numbers))
