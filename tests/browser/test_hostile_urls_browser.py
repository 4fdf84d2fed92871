"""Hostile URL parameters through the real `escoba-tutor` server, in real headless Chromium: each one is left
out with a note in the page's language, the lesson still opens with its own position, and no error page,
traceback or notebook source shows. (The parameters' checks one by one: tests/test_hostile_input.py.)
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from helpers import new_page
from playwright.sync_api import expect

ERRORS = re.compile(r"Traceback|There was an error|Error executing|Exception|import escoba_tutor", re.I)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page(browser):
    with new_page(browser, 60_000) as page:
        yield page


FIFTY_CARDS = "+".join(["1o", "2o", "3o", "4o", "5o", "6o", "7o", "10o", "11o", "12o"] * 5)

# (page language, query, what the note says, a card the page then shows: the lesson's own position is
# "2c 3e 10b 12c" on the table and "5o 1e 12o" in the hand)
CASES = [
    ("es", "seed=abc", "El número de ejercicio «abc» no vale", "dos de copas"),
    ("es", "seed=%C2%B2", "El número de ejercicio «²» no vale", "dos de copas"),
    ("es", "seed=3&seed=4", "«seed» aparece más de una vez", "dos de copas"),
    ("es", f"table={FIFTY_CARDS}", "el as de oros está dos veces", "dos de copas"),
    ("es", "table=1o+4b&hand=4b", "el cuatro de bastos está a la vez en la mano y en la mesa", "cinco de oros"),
    ("en", "table=1o+4b&hand=4b", "the four of clubs is both in the hand and on the table", "five of coins"),
    ("en", "hand=" + quote("7\u200do") + "+%F0%9F%82%A1", "“🂡” is not a card", "five of coins"),
    ("en", "seed=1&" + "x=y&" * 600, "The address is too long", "two of cups"),
]


@pytest.mark.parametrize("lang, query, said, card", CASES, ids=[f"{c[0]}-{c[1][:24]}" for c in CASES])
def test_a_bad_parameter_is_left_out_with_a_note(tutor, page, lang, query, said, card):
    page.goto(f"{tutor.url}voila/render/{lang}/02-captures.ipynb?{query}")
    expect(page.locator(".escoba-capture-table .et-card:visible").first).to_be_visible(timeout=90_000)
    notice = page.locator(".escoba-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(said)
    body = page.locator("body").inner_text()
    assert not ERRORS.search(body), ERRORS.search(body).group(0)
    expect(page.locator(f".escoba-capture-table [aria-label='{card}']:visible").first).to_be_visible()


def test_an_unknown_language_opens_the_default_landing_page_with_a_note(tutor, page):
    page.goto(f"{tutor.url}?lang=xx&lang=yy")
    expect(page.locator(".escoba-notice")).to_contain_text("«lang» aparece más de una vez", timeout=90_000)
    assert page.url.split("?")[0].endswith("/voila/render/es/index.ipynb")
    assert not ERRORS.search(page.locator("body").inner_text())
