"""Legal captures: the hand-computed reference positions of data/captures.txt, and bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from escoba_test_helpers import value

from escoba_tutor import ESCOBA, SCOPA, Card, CardError, legal_captures, parse_card, parse_cards

DATA = Path(__file__).parent / "data" / "captures.txt"
PROFILES = {"escoba": ESCOBA, "scopa": SCOPA}


def _reference_positions():
    for number, line in enumerate(DATA.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        profile, card, table, captures = (part.strip() for part in line.split("|"))
        table = "" if table == "-" else table
        expected = [] if captures == "-" else [frozenset(c.split()) for c in captures.split(";")]
        yield pytest.param(profile, card, table, expected, id=f"line{number}-{profile}-{card}")


REFERENCE = list(_reference_positions())


def test_reference_file_has_the_cases_the_rules_ask_for():
    assert len(REFERENCE) >= 30
    assert {p.values[0] for p in REFERENCE} == {"escoba", "scopa"}
    assert max(len(p.values[2].split()) for p in REFERENCE) == 12


@pytest.mark.parametrize("profile, card, table, expected", REFERENCE)
def test_reference_position(profile, card, table, expected):
    rules = PROFILES[profile]
    table_codes = {c.code for c in parse_cards(table)}
    played = parse_card(card).code
    # The data itself must make sense: captures of table cards, each listed once, each adding up right.
    assert len(set(expected)) == len(expected)
    for capture in expected:
        assert capture <= table_codes
        total = sum(value(c) for c in capture)
        assert total == (15 - value(played) if profile == "escoba" else value(played))

    found = legal_captures(card, table, rules)
    assert all(isinstance(capture, frozenset) and all(type(c) is Card for c in capture) for capture in found)
    found_codes = [frozenset(c.code for c in capture) for capture in found]
    assert len(found_codes) == len(set(found_codes)), "a capture is listed twice"
    assert set(found_codes) == set(expected)


def test_rules_section_3_examples_by_count():
    assert len(legal_captures("3c", "1o 4b 7o")) == 1
    assert len(legal_captures("5o", "2c 3e 10b 12c")) == 2


def test_scopa_and_escoba_differ_on_the_same_position():
    assert legal_captures("3c", "1o 4b 7o", SCOPA) == []
    assert {frozenset(c.code for c in x) for x in legal_captures("7o", "7c 7e 3b 4b", SCOPA)} == {
        frozenset({"7c"}), frozenset({"7e"})}
    assert legal_captures("7o", "7c 7e 3b 4b", ESCOBA) == []


def test_cards_and_text_are_interchangeable():
    as_text = legal_captures("5o", "2c 3e 10b 12c")
    as_cards = legal_captures(parse_card("5o"), list(parse_cards("2c 3e 10b 12c")))
    as_tuple = legal_captures("5o", tuple(parse_cards("12c 10b 3e 2c")))
    assert set(as_text) == set(as_cards) == set(as_tuple)


def test_the_default_rules_are_escoba():
    assert set(legal_captures("11b", "6o 6c 2e 4e 1b 5b")) == set(legal_captures("11b", "6o 6c 2e 4e 1b 5b", ESCOBA))


# ------------------------------------------------------------------------------------------------ bad input
def test_played_card_on_the_table_is_refused():
    for card, table in (("7o", "7o 1c"), ("7D", "1c 7o"), ("JS", "10e")):
        with pytest.raises(CardError) as info:
            legal_captures(card, table)
        assert info.value.code == "card_on_table"
        assert parse_card(card).code in str(info.value)


def test_a_table_card_given_twice_is_refused():
    for table in ("1o 4b 1o", "1o AD", [parse_card("4b"), parse_card("4b")]):
        with pytest.raises(CardError) as info:
            legal_captures("3c", table)
        assert info.value.code == "duplicate_card"


@pytest.mark.parametrize("card, table", [("8o", "1c"), ("3c", "1o 9b"), ("", "1c"), (None, "1c"), ("3c", 5),
                                         ("3c", ["1o", 7]), (3, "1c")])
def test_bad_card_text_is_a_card_error(card, table):
    with pytest.raises(CardError):
        legal_captures(card, table)
