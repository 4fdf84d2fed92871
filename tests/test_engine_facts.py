"""The engine's results a lesson shows (show_engine): sentences in the page's language, cards in words, and the
numbers the engine itself works out."""

from __future__ import annotations

import re

import pytest

from escoba_tutor import DECK, EscobaError, Game, legal_captures, setenta
from escoba_tutor.exercises import points_drill
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets.engine_facts import fact_lines
from escoba_tutor.widgets.page import show_engine

CODE = re.compile(r"\b(1[0-2]|[1-7])[oceb]\b")
FACTS = [("card_values", {"cards": "1o 2o 3o 4o 5o 6o 7o 10o 11o 12o"}),
         ("captures", {"card": "5o", "table": "2c 3e 10b 12c"}),
         ("captures", {"card": "5o", "table": "2c 3e 10b 12c", "profiles": ("escoba", "scopa")}),
         ("dealt_escobas", {"game": 22}),
         ("leftover_check", {"cards": "12o 3b 11b 12b 10o"}),
         ("setenta", {"pile": "7o 3o 6c 12c 1e 10e 5b 12b", "name": "Ana"}),
         ("setenta", {"pile": "7o 3o 6c 12c"})]


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("fact, details", FACTS)
def test_each_fact_is_sentences_with_cards_in_words(lang, fact, details):
    lines = fact_lines(Translator(lang), fact, **details)
    assert lines and all(line[:1].isupper() or line[:1].isdigit() for line in lines), lines
    assert not any(CODE.search(line) or "[" in line or "(Card" in line for line in lines), lines


def test_the_numbers_are_the_engines():
    es = Translator("es")
    assert fact_lines(es, "card_values", cards="1o 2o 3o 4o 5o 6o 7o 10o 11o 12o")[1].endswith(
        f"suman {sum(c.value for c in DECK)}.")
    said = fact_lines(es, "captures", card="5o", table="2c 3e 10b 12c")[0]
    assert f"{len(legal_captures('5o', '2c 3e 10b 12c'))} bazas" in said
    assert fact_lines(es, "dealt_escobas", game=22)[1:] == [
        f"Bando {i + 1}{' (el bando del que reparte)' if i == Game(players=2, seed=22).dealer else ''}: {n} escoba"
        f"{'' if n == 1 else 's'}." for i, n in enumerate(Game(players=2, seed=22).escobas)]
    left = " ".join(c.code for c in points_drill(8).record.leftover)  # lesson 4's deal: the same five cards
    assert sorted(left.split()) == sorted(["12o", "3b", "11b", "12b", "10o"])
    assert fact_lines(es, "leftover_check", cards=left)[1:] == ["Suman 40 = 15 × 2 + 10.",
                                                                "El resto es 10: la mano cuadra."]
    assert fact_lines(es, "setenta", pile="7o 3o 6c 12c 1e 10e 5b 12b", name="Ana")[0].endswith(
        f"= {setenta('7o 3o 6c 12c 1e 10e 5b 12b').total}.")
    assert fact_lines(Translator("en"), "setenta", pile="7o 3o 6c")[0] == \
        "This pile's setenta is invalid: the pile has no swords or clubs."
    wrong = fact_lines(es, "leftover_check", cards="7c 5o 11e")[-1]
    assert wrong == ("El resto es 6, no 10: algo falló en la mano (una baza que no sumaba 15, o una carta que falta "
                     "o que se contó dos veces).")


def _texts(widget) -> list[str]:
    return [getattr(widget, "value", "") or ""] + [t for c in getattr(widget, "children", ()) for t in _texts(c)]


def test_the_page_shows_the_fact_as_html_and_refuses_an_unknown_one():
    shown = show_engine("en", "setenta", pile="7o 3o 6c 12c 1e 10e 5b 12b", name="Ana")
    html = "".join(_texts(shown))  # (the page's first widget comes inside a box with the page's notice)
    assert "<p>Ana&#x27;s setenta: 21 (the seven of coins) + 18 (the six of cups)" in html, html
    with pytest.raises(EscobaError):
        show_engine("en", "nonsense")


def test_a_leftover_that_does_not_check_out_is_said_with_its_number():
    """«Sobran 1» read wrong, and "There are 6 left over" read as six cards: the number left over is said alone,
    «El resto es 1», "1 is left over", as a deal that checks out says «El resto es 10», "10 is left over"."""
    es, en = Translator("es"), Translator("en")
    message = ("{n} is left over, not 10: something went wrong in the deal (a capture that did not make 15, or a "
               "card missing or counted twice).")
    assert es(message, n=1).startswith("El resto es 1, no 10") and es(message, n=4).startswith("El resto es 4, no 10")
    assert en(message, n=1).startswith("1 is left over, not 10") and en(message, n=6).startswith("6 is left over")
