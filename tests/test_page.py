"""The one call a lesson cell makes (``show_*`` in widgets/page.py): the address and the server's rules reach the
widgets, the notice and the connection watch come once, with the page's first widget."""

from __future__ import annotations

import ipywidgets as w
import pytest

from escoba_tutor.exercises import make_drill
from escoba_tutor.widgets import page as page_module
from escoba_tutor.widgets.page import (
    ConnectionWatch,
    current_page,
    show_capture_table,
    show_drill,
    show_game,
    show_hints,
    show_tournament,
)


@pytest.fixture
def address(monkeypatch):
    """Open a page at an address (the query string Voilà gives the kernel), as a fresh kernel would."""

    def open_page(query: str = "", rules: str = "") -> None:
        monkeypatch.setenv("QUERY_STRING", query)
        if rules:
            monkeypatch.setenv("ESCOBA_TUTOR_RULES", rules)
        else:
            monkeypatch.delenv("ESCOBA_TUTOR_RULES", raising=False)
        page_module._PAGES.clear()

    return open_page


def inner(shown):
    """The widget a ``show_*`` call made (the first one of a page comes inside the notice box)."""
    if isinstance(shown, w.VBox) and isinstance(shown.children[-1], ConnectionWatch):
        return shown.children[1]
    return shown


def test_the_first_widget_carries_the_notice_and_the_watch_and_later_ones_do_not(address):
    address("seed=abc")
    first = show_capture_table("es", table="1o 4b 7o", hand="3c")
    assert isinstance(first.children[-1], ConnectionWatch)
    assert "número" in first.children[0].value.lower(), "the bad seed is told, in Spanish"
    second = show_drill("es", "captures", seed=9)
    assert not any(isinstance(c, ConnectionWatch) for c in getattr(second, "children", ()))


def test_the_seed_in_the_address_reaches_every_drill_and_game(address):
    address("seed=42")
    show_capture_table("en", table="1o 4b 7o", hand="3c")
    assert inner(show_drill("en", "captures", seed=9)).model.seed == 42
    game = inner(show_game("en", seed=1, level="difícil"))
    assert game.session.seed == 42 and game.session.level == "expert"
    address("")
    assert inner(show_drill("en", "captures", seed=9)).model.seed == 9


def test_a_drill_kept_to_some_house_rules_opens_the_address_s_exercise_as_it_is(address):
    only = ("escoba_de_mano_15_20", "sevens", "three_player_ties")  # lesson 7's drill
    address("")
    kept = inner(show_drill("es", "house_rules", seed=4, only=only)).model
    assert kept.drill.seed == 7 and kept.drill.house_rule in only  # exercise 4 asks about another house rule
    address("seed=4")  # a board link to exercise 4, answered in a class exercise: that very exercise
    opened = inner(show_drill("es", "house_rules", seed=7, only=only)).model
    assert opened.drill == make_drill("house_rules", 4) and opened.drill.house_rule not in only


def test_the_position_in_the_address_goes_to_the_first_board_only(address):
    address("table=2c+3e&hand=5o")
    first = inner(show_capture_table("es", table="1o 4b 7o", hand="3c"))
    assert (first.table, first.hand) == ("2c 3e", "5o")
    later = inner(show_hints("es", table="2o 1c", hand="4b 11c 12e"))
    assert (later.model.table, later.model.hand) == ("2o 1c", "4b 11c 12e")


def test_a_fixed_board_ignores_the_address(address):
    address("table=2c+3e&hand=5o")
    fixed = inner(show_capture_table("es", table="1o 4b 7o", hand="3c", editable=False))
    assert (fixed.table, fixed.hand) == ("1o 4b 7o", "3c")


def test_the_server_rules_reach_the_widgets_unless_the_lesson_names_its_own(address):
    address("", rules="scopa")
    assert current_page("es").rules.profile == "scopa"
    assert inner(show_drill("es", "captures", seed=1)).model.rules.profile == "scopa"
    address("")
    named = inner(show_drill("es", "captures", seed=1, rules="scopa")).model.rules
    assert getattr(named, "profile", named) == "scopa"
    assert inner(show_drill("es", "captures", seed=1)).model.rules.profile == "escoba"


@pytest.mark.parametrize(("lang", "names", "words"), [
    ("es", ("medio", "fácil"), ("Partidas ganadas", "Puntos por mano", "partidas a 21 puntos")),
    ("en", ("medium", "easy"), ("Games won", "Points per deal", "games to 21 points")),
])
def test_the_tournament_speaks_the_lesson_language_and_names_the_levels(address, lang, names, words):
    address("")
    table = inner(show_tournament(lang, games=4, seed=1)).value
    for text in (*names, *words):
        assert text in table
    for internal in ("greedy", "random", "expert", "interval", "simulate"):
        assert internal not in table
    if lang == "es":
        assert "," in table.split("<td>")[2] and "%" in table, "the decimal comma"
