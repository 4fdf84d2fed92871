"""The words that join others (lists, alternatives) and numbers with decimals: the package's own, for Spanish
and English, written exactly as Babel (the CLDR's data) writes them, which the package no longer needs to run,
but for English's serial comma, which the course does not write ("a, b and c", as its lessons do)."""

from __future__ import annotations

import re

import pytest
from babel.lists import format_list
from babel.numbers import format_decimal
from hypothesis import given
from hypothesis import strategies as st

from escoba_tutor import DECK
from escoba_tutor.text.phrases import and_list, one_decimal, or_list
from escoba_tutor.text.translator import LANGUAGES, Translator

WORDS = st.lists(st.text(alphabet="abcñó {}0,", max_size=6), max_size=7)


def babel_list(words, style, lang):
    """Babel's list, without the serial comma in English (the course's style), and with Spanish's «u» for «o»
    before the sound /o/, which the CLDR's patterns leave out."""
    said = format_list(words, style=style, locale=lang)
    if lang == "es" and style == "or" and len(words) > 1 and re.match(r"h?[oó]", words[-1], re.IGNORECASE):
        head, _sep, last = said.rpartition(" o ")
        said = f"{head} u {last}"
    if lang == "en" and len(words) > 2:
        joiner = {"standard": ", and ", "or": ", or "}[style]
        head, _sep, last = said.rpartition(joiner)
        said = f"{head} {joiner[2:]}{last}"
    return said


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_lists_of_cards_read_as_babel_writes_them(lang):
    _ = Translator(lang)
    for size in range(0, 8):
        for words in ([_.the_card(c) for c in DECK[:size]], [_.card_name(c) for c in DECK[-size:]][:size],
                      [_.suit_name(s) for s in "ocbe"][:size], [str(n) for n in range(size)]):
            assert and_list(_, words) == babel_list(words, "standard", lang), words
            assert or_list(_, words) == babel_list(words, "or", lang), words


@given(words=WORDS)
def test_any_list_reads_as_babel_writes_it(words):
    for lang in LANGUAGES:
        _ = Translator(lang)
        assert and_list(_, words) == babel_list(words, "standard", lang)
        assert or_list(_, words) == babel_list(words, "or", lang)


def test_spanish_o_is_u_before_the_sound_o():
    _ = Translator("es")
    assert or_list(_, ["copas", "oros"]) == "copas u oros"
    assert or_list(_, ["espadas", "bastos", "oros"]) == "espadas, bastos u oros"
    assert or_list(_, ["oros", "copas"]) == "oros o copas"
    assert or_list(Translator("en"), ["cups", "coins"]) == "cups or coins"


def test_lists_in_both_languages():
    es, en = Translator("es"), Translator("en")
    assert [and_list(es, list("abcd")[:n]) for n in range(5)] == ["", "a", "a y b", "a, b y c", "a, b, c y d"]
    assert [or_list(en, list("abcd")[:n]) for n in range(5)] == ["", "a", "a or b", "a, b or c", "a, b, c or d"]


@pytest.mark.parametrize("value", [0, 0.04, 0.05, 0.15, 0.25, 0.35, 1.25, 1.5, 2.0, 12.96, 0.1 + 0.2, -0.04, -1.25,
                                   1e-9, 123456.75])
def test_a_number_with_one_decimal_reads_as_babel_writes_it(value):
    for lang in LANGUAGES:
        assert one_decimal(Translator(lang), value) == format_decimal(value, format="0.0", locale=lang)
        shown = round(abs(value), 1)  # as the hint panel and the strategy drill pass it
        assert one_decimal(Translator(lang), shown) == format_decimal(shown, format="0.0", locale=lang)


@given(value=st.floats(min_value=-1000, max_value=1000, allow_nan=False))
def test_any_number_with_one_decimal_reads_as_babel_writes_it(value):
    for lang in LANGUAGES:
        assert one_decimal(Translator(lang), value) == format_decimal(value, format="0.0", locale=lang)
        assert one_decimal(Translator(lang), round(abs(value), 1)) == format_decimal(
            round(abs(value), 1), format="0.0", locale=lang)


def test_decimal_signs():
    assert one_decimal(Translator("es"), 1.5) == "1,5" and one_decimal(Translator("en"), 1.5) == "1.5"
