"""Cards, values and card text (docs/rules.md §1)."""

from __future__ import annotations

import pickle

import pytest
from escoba_test_helpers import ALL_CODES, CAPTURE_VALUE, SETENTA_VALUE

from escoba_tutor import DECK, Card, CardError, EscobaError, Suit, format_cards, parse_card, parse_cards

FRENCH_RANK = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 10, "Q": 11, "K": 12}
FRENCH_SUIT = {"D": "o", "H": "c", "C": "b", "S": "e", "♦": "o", "♥": "c", "♣": "b", "♠": "e"}


# ------------------------------------------------------------------------------------------------ the deck
def test_deck_is_the_forty_spanish_cards_in_deck_order():
    assert [card.code for card in DECK] == list(ALL_CODES)
    assert len(set(DECK)) == 40


def test_capture_values_sum_to_220_and_follow_rules_table():
    assert sum(card.value for card in DECK) == 220
    for card in DECK:
        assert card.value == CAPTURE_VALUE[card.rank]
    assert [parse_card(c).value for c in ("10o", "11o", "12o", "1o")] == [8, 9, 10, 1]


def test_setenta_values_follow_rules_table():
    for card in DECK:
        assert card.setenta_value == SETENTA_VALUE[card.rank]
    assert parse_card("7e").setenta_value == 21 and parse_card("1e").setenta_value == 16


def test_figures_and_suits():
    assert {c.code for c in DECK if c.is_figure} == {f"{r}{s}" for r in (10, 11, 12) for s in "oceb"}
    assert parse_card("3e").suit is Suit.ESPADAS and parse_card("3b").suit is Suit.BASTOS


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_spanish_code_parses_to_its_card(code):
    card = parse_card(code)
    assert card.code == code and str(card) == code
    assert card.rank == int(code[:-1]) and card.suit.value == code[-1]
    assert parse_card(code) is card  # interned


@pytest.mark.parametrize("rank_text", FRENCH_RANK)
@pytest.mark.parametrize("suit_text", FRENCH_SUIT)
def test_every_french_code_is_the_same_card(rank_text, suit_text):
    assert parse_card(rank_text + suit_text).code == f"{FRENCH_RANK[rank_text]}{FRENCH_SUIT[suit_text]}"


def test_rules_french_examples():
    assert [parse_card(t).code for t in ("7D", "JS", "QH", "KC", "A♦")] == ["7o", "10e", "11c", "12b", "1o"]


def test_suit_letters_are_case_sensitive():
    assert parse_card("7c").code == "7c"   # copas
    assert parse_card("7C").code == "7b"   # French clubs = bastos


def test_surrounding_white_space_is_ignored():
    assert parse_card("  12b\t\n").code == "12b"


def test_names():
    card = parse_card("7o")
    assert (card.name_es, card.name_en) == ("siete de oros", "seven of coins")
    assert parse_card("10e").name_es == "sota de espadas"
    assert parse_card("12b").name("en") == "king of clubs"


def test_card_constructor_returns_the_interned_card():
    assert Card(12, "b") is parse_card("12b")
    assert Card(1, Suit.OROS) is parse_card("1o")


@pytest.mark.parametrize("rank, suit", [(8, "o"), (9, "c"), (0, "o"), (13, "b"), (7, "x"), (7, "O"), ([7], "o")])
def test_card_constructor_refuses_cards_not_in_the_deck(rank, suit):
    with pytest.raises(CardError):
        Card(rank, suit)


def test_cards_are_immutable_and_pickle_to_the_same_card():
    card = parse_card("7o")
    with pytest.raises(AttributeError):
        card.value = 15
    with pytest.raises(AttributeError):
        del card.rank
    assert pickle.loads(pickle.dumps(card)) is card


def test_cards_order_by_deck_position():
    assert sorted(parse_cards("12b 1o 7c 10o")) == list(parse_cards("1o 10o 7c 12b"))


# ---------------------------------------------------------------------------------------- bad card text
def _card_error(text) -> CardError:
    with pytest.raises(CardError) as info:
        parse_card(text)
    error = info.value
    assert isinstance(error, EscobaError) and isinstance(error, ValueError)
    return error


@pytest.mark.parametrize("text, hint_words", [
    ("8o", ["no 8"]),
    ("9c", ["no 8 or 9"]),
    ("8D", ["8s, 9s and 10s"]),
    ("10D", ["sota is J", "JD"]),
    ("1D", ["AD"]),
    ("11S", ["QS"]),
    ("12H", ["KH"]),
    ("7O", ["lowercase", "7o"]),
    ("5E", ["lowercase", "5e"]),
    ("7d", ["capitals", "7D"]),
    ("Ao", ["1o"]),
    ("jS", ["JS"]),
    ("13o", ["1 to 7, then 10, 11 and 12"]),
    ("0c", ["1 to 7, then 10, 11 and 12"]),
    ("7", ["add a suit"]),
])
def test_mistakes_get_a_hint_and_both_forms(text, hint_words):
    error = _card_error(text)
    assert error.token == text
    message = str(error)
    assert repr(text) in message
    for words in hint_words:
        assert words in error.hint and words in message
    assert "7o" in message and "7D" in message   # both notations are shown


@pytest.mark.parametrize("text", ["o7", "7x", "7oo", "10", "XY", "7 o", "7-o", "10♦", "🂧", "7ο", "7\u20e3o",
                                  "\x00", "\ud800", "7o 7c", "+", "siete de oros"])
def test_other_bad_text_is_a_card_error_naming_the_token(text):
    error = _card_error(text)
    assert error.code == "bad_card"
    assert str(error).startswith(repr(text.strip())[:10])


@pytest.mark.parametrize("text", ["７o", "７ｏ", "7º", "7o\u200b", "\u200f7o", "7\u200do", "\ufeff7o",
                                  "\u20667o\u2069"])
def test_text_that_looks_like_a_card_is_that_card(text):
    """Full-width forms fold to their letters, and invisible format characters (zero-width, direction marks,
    a byte-order mark: what copying from a document or a chat adds) are dropped."""
    assert parse_card(text) is parse_card("7o")
    assert parse_cards(f"1o {text}, 4b") == parse_cards("1o 7o 4b")


def test_an_invisible_character_is_shown_in_the_error():
    error = _card_error("7\u200do\u200dx")
    assert error.token != "7o"  # the joiners are dropped, but 7ox is still no card: say what was really typed
    error = _card_error("8\x00o")
    assert error.token == "8\\x00o" and "\\x00" in str(error)


def test_empty_text_is_its_own_error():
    for text in ("", "   ", "\n\t"):
        error = _card_error(text)
        assert error.code == "empty_card" and "empty" in str(error)


def test_huge_text_gives_a_short_message():
    for text in ("7" * 100_000 + "o", "x" * 1_000_000, "7o" * 50_000):
        error = _card_error(text)
        assert len(str(error)) < 500
        assert len(error.token) <= 24


@pytest.mark.parametrize("value", [7, 7.0, None, b"7o", ["7o"], ("7", "o"), {"7o"}, True, object()])
def test_non_text_is_refused(value):
    error = _card_error(value)
    assert error.code == "not_text"
    assert type(value).__name__ in str(error)


# --------------------------------------------------------------------------------------------- card lists
def test_parse_cards_keeps_order_and_accepts_separators():
    assert [c.code for c in parse_cards("1o, 4b;7o\t3c")] == ["1o", "4b", "7o", "3c"]
    assert [c.code for c in parse_cards(["AD", "7o", parse_card("12b")])] == ["1o", "7o", "12b"]
    assert parse_cards("") == () and parse_cards([]) == ()


def test_parse_cards_refuses_a_card_given_twice_in_either_notation():
    with pytest.raises(CardError) as info:
        parse_cards("7o 7D")
    assert info.value.code == "duplicate_card"
    assert "7o" in str(info.value) and "7D" in str(info.value) and "twice" in str(info.value)
    with pytest.raises(CardError):
        parse_cards("1c 2c 1c")
    with pytest.raises(CardError):
        parse_cards([parse_card("JS"), "10e"])


def test_parse_cards_names_the_bad_token_in_a_list():
    with pytest.raises(CardError) as info:
        parse_cards("1o 4b 9o 7o")
    assert info.value.token == "9o"


def test_parse_cards_can_require_cards():
    with pytest.raises(CardError) as info:
        parse_cards(" , ", allow_empty=False)
    assert info.value.code == "no_cards"


@pytest.mark.parametrize("value", [7, None, 3.5, object()])
def test_parse_cards_refuses_non_iterables(value):
    with pytest.raises(CardError):
        parse_cards(value)


@pytest.mark.parametrize("value", [[7], [None], [b"7o"], ["7o", ["1c"]]])
def test_parse_cards_refuses_non_text_items(value):
    with pytest.raises(CardError):
        parse_cards(value)


def test_format_cards_is_canonical_deck_order():
    assert format_cards(parse_cards("7o 1o 4b 3c 12o")) == "1o 7o 12o 3c 4b"
    assert format_cards([]) == ""
