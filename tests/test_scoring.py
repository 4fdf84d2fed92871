"""Scoring a deal: the hand-computed reference cases of data/scoring.json, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from escoba_test_helpers import reference_score

from escoba_tutor import (
    DECK,
    ESCOBA,
    SCOPA,
    CardError,
    EscobaError,
    Suit,
    parse_cards,
    rules_by_name,
    score_deal,
    setenta,
)

DATA = json.loads((Path(__file__).parent / "data" / "scoring.json").read_text(encoding="utf-8"))
SUIT_ORDER = (Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS)


@pytest.mark.parametrize("case", DATA["setenta"], ids=lambda case: case["pile"][:30] or "empty")
def test_reference_setenta(case):
    result = setenta(case["pile"])
    assert result.total == case["total"]
    assert result.valid is (case["total"] is not None)
    assert [suit.value for suit in result.missing] == case["missing"]
    assert [step.suit for step in result.best] == list(SUIT_ORDER)
    assert [None if step.card is None else step.card.code for step in result.best] == case["best"]
    for step in result.best:
        assert step.value == (None if step.card is None else step.card.setenta_value)


def _line_values(line):
    if line.item in ("setenta", "primera"):
        return [[s.suit_count, s.sum] if line.item == "primera" else s.total for s in line.values]
    return list(line.values)


@pytest.mark.parametrize("case", DATA["deals"], ids=lambda case: case["name"][:50])
def test_reference_deal(case):
    rules = rules_by_name(case["rules"])
    score = score_deal(case["piles"], case["escobas"], rules)
    assert list(score.points) == case["points"]
    assert [line.item for line in score.lines] == list(case["lines"])
    for item, expected in case["lines"].items():
        line = score.line(item)
        assert _line_values(line) == expected["values"], item
        assert list(line.winners) == expected["winners"], item
        assert line.reason == expected["reason"], item
        if item != "escobas":
            assert list(line.points) == [1 if i in expected["winners"] else 0 for i in range(len(case["piles"]))]
    assert sum(sum(line.points) for line in score.lines) == sum(score.points)


@pytest.mark.parametrize("case", DATA["deals"], ids=lambda case: case["name"][:50])
def test_reference_deals_agree_with_the_test_suites_own_scorer(case):
    """Cross-checks the data file and the independent scorer used by the property tests."""
    piles = [[c.code for c in parse_cards(pile)] for pile in case["piles"]]
    assert reference_score(piles, case["escobas"], suit_count=case["rules"] == "scopa") == case["points"]


def test_the_rule_books_example_is_worth_six_points():
    case = next(c for c in DATA["deals"] if c["name"].startswith("docs/rules.md §5, the example"))
    pile = parse_cards(case["piles"][0])
    assert len(pile) == 22 and sum(c.suit is Suit.OROS for c in pile) == 6 and "7o" in {c.code for c in pile}
    assert score_deal(case["piles"], [2, 0]).points == (6, 0)


def test_scopa_scores_the_primera_where_escoba_gives_nobody_the_setenta():
    piles = ["7o 7c 7e", "10o 10c"]
    assert score_deal(piles, [0, 0], SCOPA).line("primera").winners == (0,)
    assert score_deal(piles, [0, 0], ESCOBA).line("setenta").winners == ()


def test_score_lines_print_readably():
    text = str(score_deal(["7o 7c 7e 7b", "1o"], [1, 0]))
    assert "escobas: 1–0" in text and "cards: side 0" in text and "oros: nobody" in text


# ------------------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize("piles", [["7o"], ["7o", "7c", "7e", "7b", "1o"], []])
def test_two_to_four_sides(piles):
    with pytest.raises(EscobaError) as info:
        score_deal(piles, [0] * len(piles))
    assert info.value.code == "side_count"


@pytest.mark.parametrize("escobas", [[0], [0, 0, 0], [-1, 0], [0, 41], [True, 0], [0.0, 1], ["1", 0], None, 3])
def test_escobas_must_be_one_whole_number_per_side(escobas):
    with pytest.raises(EscobaError) as info:
        score_deal(["7o", "7c"], escobas)
    assert info.value.code == "bad_escobas"


def test_a_card_in_two_piles_is_refused():
    with pytest.raises(CardError) as info:
        score_deal(["7o 1c", "2c 7D"], [0, 0])
    assert info.value.code == "card_in_two_piles" and "7o" in str(info.value)


def test_a_card_twice_in_one_pile_is_refused():
    with pytest.raises(CardError):
        score_deal(["7o 1c 7o", "2c"], [0, 0])


def test_bad_card_text_in_a_pile_is_refused():
    with pytest.raises(CardError) as info:
        score_deal(["7o 8c", "2c"], [0, 0])
    assert info.value.token == "8c"


def test_piles_that_are_not_a_list_are_refused():
    with pytest.raises(EscobaError):
        score_deal(None, [0, 0])


def test_setenta_of_bad_input():
    with pytest.raises(CardError):
        setenta("7o 9c")
    with pytest.raises(CardError):
        setenta("7o 7o")
    assert setenta(DECK).total == 84


def test_the_low_cards_house_rule_gives_its_own_reason_when_a_suit_is_held_only_in_face_cards():
    """Under "setenta with low cards only" both sides may hold every suit and still have no valid setenta: the
    reason must not say that no side has a card of every suit."""
    low = rules_by_name("escoba+low_primera")
    # each side holds all four suits, but one of them only in face cards: clubs (the king), swords (the knight)
    line = score_deal(["7o 6c 1e 12b", "7c 6o 1b 11e"], [0, 0], low).line("setenta")
    assert (line.winners, line.reason) == ((), "all_invalid_low")
    assert [s.face_only for s in line.values] == [(Suit.BASTOS,), (Suit.ESPADAS,)]
    assert str(line) == "setenta: nobody, invalid (no bastos from 1 to 7) vs invalid (no espadas from 1 to 7)"
    # the same rule with suits really missing: the usual reason, and nothing held in face cards only
    line = score_deal(["7o 6c 1e", "7c 6o 1b"], [0, 0], low).line("setenta")
    assert (line.reason, [s.face_only for s in line.values]) == ("all_invalid", [(), ()])
    # one side missing a suit outright, the other holding a suit in face cards only: the low reason (the usual one
    # would be false of the second side)
    assert score_deal(["7o 6c 1e", "7c 6o 1b 11e"], [0, 0], low).line("setenta").reason == "all_invalid_low"
    # without the house rule the face cards count (10 each): both setentas are valid, 21 + 18 + 16 + 10 = 65
    assert [s.total for s in score_deal(["7o 6c 1e 12b", "7c 6o 1b 11e"], [0, 0]).line("setenta").values] == [65, 65]
    assert setenta("7o 6c 1e 12b", low).face_only == (Suit.BASTOS,) and setenta("7o 6c 1e 12b").face_only == ()
