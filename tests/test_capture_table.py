"""CaptureTable driven in the kernel, as a lesson cell or a student would drive it (no browser)."""

from __future__ import annotations

import ipywidgets as w
import pytest
from escoba_test_helpers import BUTTONS, browser_sets, is_shown, labelled, only, parts, status_line

from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets.capture_table import CaptureTable
from escoba_tutor.widgets.primitives import CardRow, RowPicker


# The parts of the table as a student finds them: the list of captures, and each control by its label.
def picker(widget: CaptureTable) -> RowPicker:
    return only(widget, RowPicker)


def part(widget: CaptureTable, label: str, kind):
    return labelled(widget, Translator(widget.lang)(label), kind)


def table_row(widget):
    return part(widget, "Table", CardRow)


def hand_row(widget):
    return part(widget, "Your hand", CardRow)


def deck_row(widget):
    return part(widget, "The 40 cards", CardRow)


def deck_toggle(widget):
    return part(widget, "Pick cards from the pack", w.ToggleButton)


def check(widget):
    return part(widget, "Check my capture", BUTTONS)


def cells(widget):
    return [row["cells"] for row in picker(widget).rows]


def test_the_worked_example_of_the_rules():
    widget = CaptureTable(table="1o 4b 7o", hand="3c")
    assert cells(widget) == [["3c", "1o 7o 4b", "3 + 1 + 7 + 4 = 15", "una escoba y 4 cartas (el siete de oros, "
                                                                      "2 oros y 1 siete)"]]
    assert picker(widget).rows[0]["tone"] == "good"
    assert picker(widget).rows[0]["label"] == ("El tres de copas se lleva el as de oros, el siete de oros y el cuatro "
                                               "de bastos: 3 + 1 + 7 + 4 = 15. Te llevas una escoba y 4 cartas "
                                               "(el siete de oros, 2 oros y 1 siete).")


def test_two_captures_and_figures_shown_with_their_value():
    widget = CaptureTable(table="2c 3e 10b 12c", hand="5o 1e", lang="en")
    assert [row[2] for row in cells(widget)] == ["5 + king (10) = 15", "5 + 2 + jack (8) = 15", "—"]
    assert cells(widget)[2][3] == "stays on the table"
    assert picker(widget).headers == ["Card", "Takes", "Sum", "You get"]


def test_equal_cards_are_different_captures():
    widget = CaptureTable(table="7o 7c 3e", hand="10b")  # sota (8) + 7
    assert {row["id"] for row in widget.model.rows} == {"10b:7o", "10b:7c"}


def test_choosing_a_row_highlights_its_cards_and_says_it():
    widget = CaptureTable(table="2c 3e 10b 12c", hand="5o")
    # the card rows follow the row picker: the browser highlights the chosen row's cards at once
    assert table_row(widget).picker is picker(widget) and hand_row(widget).picker is picker(widget)
    picker(widget).selected = "5o:2c+10b"
    assert widget.selected == "5o:2c+10b"
    chosen = next(row for row in picker(widget).rows if row["id"] == picker(widget).selected)
    assert sorted(chosen["cards"]) == ["10b", "2c", "5o"]
    assert "El cinco de oros se lleva el dos de copas y la sota de bastos" in status_line(widget).message
    widget.selected = ""  # the view's trait drives the model too
    assert picker(widget).selected == "" and status_line(widget).message == ""


def test_a_row_picked_after_a_built_capture_replaces_it_and_its_verdict():
    widget = CaptureTable(table="2c 3e 10b 12c", hand="5o")
    # the status line shows a chosen row's label in the browser at once: the kernel must then say the same
    assert status_line(widget).picker is picker(widget)
    hand_row(widget).selected = ["5o"]
    table_row(widget).selected = ["2c", "3e"]
    check(widget).click()
    assert "no 15" in status_line(widget).message
    picker(widget).selected = "5o:12c"
    assert widget.selected == "5o:12c" and picker(widget).selected == "5o:12c"
    assert hand_row(widget).selected == [] and table_row(widget).selected == [] and widget.model.verdict is None
    label = next(row["label"] for row in picker(widget).rows if row["id"] == "5o:12c")
    assert status_line(widget).message == label
    check(widget).click()  # checked with nothing built: a verdict on its own, then a row picked replaces it
    assert widget.model.verdict is not None
    picker(widget).selected = "5o:2c+10b"
    label = next(row["label"] for row in picker(widget).rows if row["id"] == "5o:2c+10b")
    assert widget.model.verdict is None and status_line(widget).message == label


def record_messages(monkeypatch) -> list[str]:
    """What the kernel sends to the browser, as ``Widget.method(traits)``."""
    import ipywidgets

    sent: list[str] = []
    monkeypatch.setattr(ipywidgets.Widget, "_send", lambda self, msg, buffers=None: sent.append(
        f"{type(self).__name__}.{msg['method']}({','.join(sorted(msg.get('state', {})))})"))
    return sent


def test_a_row_clicked_in_the_browser_is_answered_with_one_message(monkeypatch):
    widget = CaptureTable(table="1o 4b 7o", hand="3c 5e 12b")
    sent = record_messages(monkeypatch)
    for row_id in ("12b:1o+4b", "3c:1o+7o+4b", "12b:1o+4b"):
        sent.clear()
        browser_sets(picker(widget), selected=row_id)
        assert widget.selected == row_id
        # no echo of the choice, no highlight updates (the card rows follow the picker): the status line only
        assert sent == ["LiveRegion.update(message)"], sent
    assert status_line(widget).message.startswith("El rey de bastos se lleva el as de oros y el cuatro de bastos")


def test_a_stale_click_from_the_browser_is_dropped_not_an_error(monkeypatch):
    widget = CaptureTable(table="1o 4b 7o", hand="3c 5e 12b")
    sent = record_messages(monkeypatch)
    browser_sets(picker(widget), selected="7c:1o+7o")  # a row of a position that has changed meanwhile
    assert picker(widget).selected == "" and sent == ["RowPicker.update(clicks,selected)"]  # the browser is corrected
    sent.clear()
    browser_sets(table_row(widget), selected=["1o", "2e"])  # 2e has left the table
    assert table_row(widget).selected == ["1o"] and "CardRow.update(clicks,selected)" in sent


@pytest.mark.parametrize("hand, taken, expected", [
    ("5o", ["10b"], "Cuidado con las figuras"),                       # 5 + sota counted as 10
    ("5o", ["2c", "3e"], "Estas cartas suman 10, no 15"),              # a plain wrong sum
    ("5o", [], "puede hacer baza, así que debe hacerla"),              # laid down, but it could capture
    ("", ["12c"], "Elige primero una carta de tu mano"),               # no hand card
    ("5o", ["12c"], "¡Bien! El cinco de oros se lleva el rey de copas: juntas suman 15."),  # names with articles
    # alternatives read as language: "or" between captures, "and" inside one
    ("5o", ["2c", "3e"], "no 15. El cinco de oros puede llevarse el rey de copas, o el dos de copas y la sota de "
                         "bastos."),
])
def test_a_capture_built_by_the_student_is_judged(hand, taken, expected):
    widget = CaptureTable(table="2c 3e 10b 12c", hand="5o")
    hand_row(widget).selected = [hand] if hand else []
    table_row(widget).selected = taken
    check(widget).click()
    assert expected in status_line(widget).message


def test_bad_text_is_explained_and_changes_nothing():
    widget = CaptureTable(table="1o 4b 7o", hand="3c")
    before = (widget.model.table_cards, cells(widget))
    part(widget, "Table", w.Text).value = "1o 4b 8o"  # what a student types
    assert "«8o» no es una carta" in status_line(widget).message
    assert (widget.model.table_cards, cells(widget)) == before
    part(widget, "Table", w.Text).value = "1o 4b 7o"
    part(widget, "Hand", w.Text).value = "3c 1o"
    assert "el as de oros está a la vez en la mano y en la mesa" in status_line(widget).message
    part(widget, "Hand", w.Text).value = "3c 5e 6e 7e"
    assert "como mucho 3 cartas" in status_line(widget).message
    part(widget, "Hand", w.Text).value = "3c"
    part(widget, "Table", w.Text).value = "1o 4b 7o 5c"
    assert status_line(widget).message == "" and len(widget.model.rows) == 2  # 3c: 1o+4b+7o or 5c+7o


def test_the_deck_picker_sets_the_table_and_the_hand():
    widget = CaptureTable(table="", hand="")
    deck_toggle(widget).value = True
    assert is_shown(widget, deck_row(widget))
    deck_row(widget).selected = ["1o", "4b", "7o"]
    assert widget.table == "1o 4b 7o"
    only(widget, w.ToggleButtons).index = 1
    deck_row(widget).selected = ["3c"]
    assert widget.hand == "3c" and widget.table == "1o 4b 7o"
    assert [row["id"] for row in widget.model.rows] == ["3c:1o+7o+4b"]


def test_the_deck_picker_is_built_only_when_opened():
    widget = CaptureTable(table="1o", hand="3c")
    assert [row.cards for row in parts(widget) if isinstance(row, CardRow)] == [["1o"], ["3c"]]  # the table, the hand
    assert not [choice for choice in parts(widget) if isinstance(choice, w.ToggleButtons)]
    deck_toggle(widget).value = True
    assert len(deck_row(widget).cards) == 40 and deck_row(widget).selected == ["1o"]


def test_a_fourth_card_picked_for_the_hand_is_refused_with_a_reason(caplog):
    widget = CaptureTable(table="2c 3e 10b 12c", hand="5o 1e 12o")
    deck_toggle(widget).value = True
    only(widget, w.ToggleButtons).index = 1
    deck_row(widget).selected = ["5o", "1e", "12o", "1c"]
    assert "como mucho 3 cartas" in status_line(widget).message  # said, not "something failed"
    assert [c.code for c in widget.model.hand_cards] == ["5o", "1e", "12o"]  # the last valid hand stays
    assert deck_row(widget).selected == ["5o", "1e", "12o"]  # and the deck shows it again
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    deck_row(widget).selected = ["5o", "1e"]
    assert widget.hand == "5o 1e" and status_line(widget).message == ""


def test_scopa_and_the_language_switch():
    widget = CaptureTable(table="2c 3e 5b", hand="5o", rules="scopa", lang="en")
    assert [row["id"] for row in widget.model.rows] == ["5o:5b"]
    assert cells(widget)[0][2] == "5 = 5"
    widget.lang = "es"
    assert picker(widget).headers == ["Carta", "Se lleva", "Suma", "Te llevas"]
    with pytest.raises(Exception, match="choose es"):
        widget.lang = "xx"
    assert widget.lang == "es"


def test_not_editable_hides_the_inputs():
    widget = CaptureTable(table="1o", hand="7o", editable=False)
    typed = [part(widget, "Table", w.Text), part(widget, "Hand", w.Text), deck_toggle(widget)]
    assert not any(is_shown(widget, control) for control in typed)


def test_a_failing_callback_is_logged_and_told_never_silent(monkeypatch, caplog):
    widget = CaptureTable(table="1o 4b 7o", hand="3c")

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(widget.model, "check_built", broken)
    with caplog.at_level("ERROR", logger="escoba_tutor.widgets"):
        check(widget).click()
    assert "Algo ha fallado" in status_line(widget).message
    assert "CaptureTable._check_clicked failed" in caplog.text and "boom" in caplog.text


@pytest.mark.parametrize(("lang", "hand", "taken", "said"), [
    # lesson 7's table under Scopa: the taken cards add up to the card's value, without the card
    ("en", "5o", ["2c", "3e"], "Right! The five of coins takes the two of cups and the three of swords: they add up "
                               "to 5, just what the card played is worth."),
    ("es", "5o", ["2c", "3e"], "¡Bien! El cinco de oros se lleva el dos de copas y el tres de espadas: suman 5, justo "
                               "lo que vale la carta que juegas."),
    ("en", "12o", ["12c"], "Right! The king of coins takes the king of cups, a card of the same value."),
    ("es", "12o", ["12c"], "¡Bien! El rey de oros se lleva el rey de copas, que vale lo mismo."),
    ("en", None, ["12c"], "Choose a card from your hand first: the cards it takes must add up to its value."),
    ("es", None, ["12c"], "Elige primero una carta de tu mano: las cartas que se lleve tienen que sumar lo que vale."),
])
def test_a_capture_built_under_scopa_is_judged_in_scopas_words(lang, hand, taken, said):
    widget = CaptureTable(table="2c 3e 10b 12c", hand="5o 1e 12o", rules="scopa", lang=lang)
    hand_row(widget).selected = [hand] if hand else []
    table_row(widget).selected = taken
    check(widget).click()
    assert status_line(widget).message == said
    assert "15" not in status_line(widget).message and "together" not in status_line(widget).message


def test_the_same_capture_under_escoba_speaks_of_the_15():
    widget = CaptureTable(table="2c 3e 10b 12c", hand="5o 1e 12o", lang="en")
    hand_row(widget).selected = ["5o"]
    table_row(widget).selected = ["10b", "2c"]
    check(widget).click()
    assert status_line(widget).message == ("Right! The five of coins takes the two of cups and the jack of clubs: "
                                           "together they make 15.")
    hand_row(widget).selected = []
    check(widget).click()
    assert status_line(widget).message == "Choose a card from your hand first: it is part of the 15."


def test_what_a_capture_wins_names_cards_of_coins_and_agrees_with_one():
    """A reader of the course: "It wins 3 cards, 1 coin" read like money; another: "a card of coins" is a calque.
    Beside a count of cards the course says "coin cards"."""
    from escoba_tutor.engine.captures import Gains
    from escoba_tutor.widgets.capture_table import describe_gains

    en, es = Translator("en"), Translator("es")
    assert describe_gains(en, Gains(3, 1, 0, False, False)) == "3 cards (1 coin card)"
    assert describe_gains(en, Gains(4, 2, 1, False, True)) == "an escoba and 4 cards (2 coin cards and 1 seven)"
    assert describe_gains(es, Gains(3, 1, 0, False, False)) == "3 cartas (1 oro)"
    assert describe_gains(es, Gains(4, 2, 2, False, False)) == "4 cartas (2 oros y 2 sietes)"
