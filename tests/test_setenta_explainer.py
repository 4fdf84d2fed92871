"""SetentaExplainer driven in the kernel, as a lesson cell or a student would drive it (no browser).

Every expected number here is worked out by hand from docs/rules.md §1 and §5 (7 = 21, 6 = 18, as = 16, 5 = 15,
4 = 14, 3 = 13, 2 = 12, figures 10; a missing suit makes the setenta invalid; a tie gives nobody the point).
"""

from __future__ import annotations

import ipywidgets as w
import pytest
from escoba_test_helpers import is_shown, labelled, parts, shown_text, status_line

from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets.primitives import CardRow, RowPicker
from escoba_tutor.widgets.setenta_explainer import SetentaExplainer


# The explainer as a student finds it: a box per side (its pile's cards, then its table of steps), the piles typed
# in text boxes, the buttons by their labels, the point said in bold under the sides.
def cards(widget, side: int) -> CardRow:
    return [row for row in parts(widget) if isinstance(row, CardRow)][side]


def table(widget, side: int) -> RowPicker:
    return [table for table in parts(widget) if isinstance(table, RowPicker)][side]


def sides(widget) -> int:
    return len([row for row in parts(widget) if isinstance(row, CardRow)])


def texts(widget) -> list[w.Text]:
    return [text for text in parts(widget) if isinstance(text, w.Text)]


def button(widget, label: str) -> w.Button:
    return labelled(widget, Translator(widget.lang)(label), w.Button)


def point(widget) -> str:
    """Who gets the point, said in bold under the sides ("" before the last step)."""
    return "".join(part.value for part in parts(widget) if isinstance(part, w.HTML) and "<strong>" in part.value)


def rows(widget, side):
    """The rows the side's table shows, as their cells."""
    return [row["cells"] for row in table(widget, side).rows]


def test_the_default_example_step_by_step():
    widget = SetentaExplainer(names=["Ana", "Luis"])  # 7o 6c 1e 5b against 7c 7e 6o
    assert status_line(widget).message == "Pulsa «Siguiente paso» para ver la setenta paso a paso."
    assert rows(widget, 0) == [] and point(widget) == ""
    button(widget, "Next step").click()
    assert widget.step == 1
    assert status_line(widget).message == "Ana, oros: el siete de oros, que vale 21."
    assert rows(widget, 0) == [["7o", "oros", "21"]]
    assert cards(widget, 0).highlighted == ["7o"] and cards(widget, 0).marks == {"7o": "21"}
    for _ in range(4):
        button(widget, "Next step").click()
    assert rows(widget, 0) == [["7o", "oros", "21"], ["6c", "copas", "18"], ["1e", "espadas", "16"],
                               ["5b", "bastos", "15"], ["", "Suma", "21 + 18 + 16 + 15 = 70"]]
    assert status_line(widget).message == "Ana: 21 + 18 + 16 + 15 = 70."
    assert sorted(cards(widget, 0).highlighted) == ["1e", "5b", "6c", "7o"]


def test_a_missing_suit_is_invalid_and_the_point_goes_to_the_valid_setenta():
    widget = SetentaExplainer(names=["Ana", "Luis"])
    button(widget, "Show all").click()
    assert rows(widget, 1) == [["6o", "oros", "18"], ["7c", "copas", "21"], ["7e", "espadas", "21"],
                               ["—", "bastos", "ninguna carta"], ["", "Suma", "inválida: faltan bastos"]]
    assert table(widget, 1).rows[3]["tone"] == "warn"  # the words say it too: colour is not the only cue
    # ★ (the "good" tone) means an escoba row and nothing else: a valid sum is said in words, with no star
    assert all(row["tone"] != "good" for side in range(sides(widget)) for row in table(widget, side).rows)
    assert "Luis, bastos: ninguna carta de este palo, así que la setenta no vale." in [
        row["label"] for row in table(widget, 1).rows]
    assert status_line(widget).message == ("Ana se lleva el punto de la setenta: 70 es la única setenta válida "
                                      "(70 – inválida: faltan bastos).")
    assert "Ana se lleva el punto" in point(widget)
    next_step, show_all, start_again = (button(widget, label) for label in ("Next step", "Show all", "Start again"))
    assert next_step.disabled and show_all.disabled and not start_again.disabled


def test_start_again_hides_every_step():
    widget = SetentaExplainer()
    button(widget, "Show all").click()
    button(widget, "Start again").click()
    assert widget.step == 0 and rows(widget, 0) == [] and point(widget) == ""
    assert cards(widget, 0).highlighted == []
    assert button(widget, "Start again").disabled and not button(widget, "Next step").disabled


def test_a_tie_gives_the_point_to_nobody():
    # 7o 6c 1e 5b: 21 + 18 + 16 + 15 = 70; 7c 6o 1b 5e: 21 + 18 + 16 + 15 = 70.
    widget = SetentaExplainer(piles=["7o 6c 1e 5b", "7c 6o 1b 5e"])
    widget.show_all()
    assert [s.total for s in widget.model.setentas] == [70, 70]
    assert status_line(widget).message == "Empate a 70: el punto de la setenta no es para nadie."


def test_every_side_invalid_gives_the_point_to_nobody():
    widget = SetentaExplainer(piles=["7o 6c", "7e 6b"])
    widget.show_all()
    assert status_line(widget).message == "Ningún bando tiene una setenta válida: el punto no es para nadie."
    assert rows(widget, 0)[-1] == ["", "Suma", "inválida: faltan espadas y bastos"]


def test_figures_are_worth_10():
    widget = SetentaExplainer(piles=["10o 11c 12e 1b"], lang="en")
    widget.show_all()
    assert rows(widget, 0)[-1] == ["", "Sum", "10 + 10 + 10 + 16 = 46"]
    assert len(widget.model.steps) == 5  # one pile: four suits and the sum, nothing to compare
    assert status_line(widget).message == "Side 1: 10 + 10 + 10 + 16 = 46."


def test_the_best_card_of_a_suit_is_by_setenta_value_not_by_number():
    widget = SetentaExplainer(piles=["12o 1o 5o 7c 7e 7b"], lang="en")  # the as (16) beats the rey and the 5
    button(widget, "Next step").click()
    assert rows(widget, 0) == [["1o", "coins", "16"]]
    assert status_line(widget).message == "Side 1, coins: the ace of coins, worth 16."


def test_low_primera_leaves_out_the_figures():
    widget = SetentaExplainer(piles=["7o 6c 1e 12b", "7c 6o 1b 5e"], rules="escoba+low_primera", lang="en")
    assert "Setenta with low cards only: only cards 1 to 7 count" in shown_text(widget)
    widget.show_all()
    assert rows(widget, 0)[3] == ["—", "clubs", "only face cards: they do not count"]
    labels = [row["label"] for row in table(widget, 0).rows]
    assert ("Side 1, clubs: only face cards (the king of clubs), which do not count in a setenta with low cards "
            "only.") in labels
    assert status_line(widget).message.startswith("Side 2 gets the setenta point: 70 is the only valid setenta")
    # The same piles by the default rules: the rey counts 10, so 21 + 18 + 16 + 10 = 65 loses to 70.
    widget.rules = "escoba"
    widget.show_all()
    assert [s.total for s in widget.model.setentas] == [65, 70]
    assert status_line(widget).message.startswith("Side 2 gets the setenta point: 70 is the highest valid setenta")


def test_low_primera_never_says_a_suit_held_in_face_cards_is_missing():
    # both sides hold every suit, each one of them only in face cards
    widget = SetentaExplainer(piles=["7o 6c 1e 12b", "7c 6o 1b 11e"], rules="escoba+low_primera", lang="en")
    widget.show_all()
    labels = [row["label"] for row in table(widget, 0).rows]
    assert labels[-1] == "Side 1: the setenta is invalid (no clubs from 1 to 7), so it cannot win the point."
    assert rows(widget, 1)[-1] == ["", "Sum", "invalid: no swords from 1 to 7"]
    assert point(widget) == "<p><strong>No side has a valid setenta: nobody gets the point.</strong></p>"
    widget.lang = "es"
    assert [row["label"] for row in table(widget, 1).rows][-1] == (
        "Bando 2: su setenta no vale (no tiene ninguna carta del 1 al 7 de espadas), así que no puede ganar el punto.")


def test_primera_by_suit_count_scores_where_the_default_gives_nobody():
    piles = ["7o 7c 7e", "6o 6c 6b"]  # 3 suits each: 63 and 54
    default = SetentaExplainer(piles=piles, lang="en")
    default.show_all()
    assert status_line(default).message == "No side has a valid setenta: nobody gets the point."
    by_suits = SetentaExplainer(piles=piles, rules="escoba+primera_by_suit_count", lang="en")
    assert "The setenta by suit count, step by step" in shown_text(by_suits)
    by_suits.show_all()
    assert rows(by_suits, 0)[-1] == ["", "Sum", "3 suits: 21 + 21 + 21 = 63"]
    assert status_line(by_suits).message == ("Side 1 gets the setenta point: with the same number of suits, the "
                                             "higher sum wins (3 suits, 63 – 3 suits, 54).")
    more = SetentaExplainer(piles=["7o 7c 7e", "1o 2c 3e 4b"], rules="scopa", lang="en")
    more.show_all()
    assert status_line(more).message == ("Side 2 gets the primera point: more suits (3 suits, 63 – 4 suits, 55) win, "
                                    "whatever the sums.")


@pytest.mark.parametrize("rules, lang, title, rule, point, tie", [
    ("escoba+primera_by_suit_count", "en", "The setenta by suit count, step by step", "Setenta by suit count:",
     "Side 2 gets the setenta point: more suits", "nobody gets the setenta point."),
    ("escoba+primera_by_suit_count", "es", "La setenta por número de palos, paso a paso",
     "Setenta por número de palos:", "El bando 2 se lleva el punto de la setenta: más palos",
     "el punto de la setenta no es para nadie."),
    ("scopa", "en", "The primera, step by step", "Primera by suit count:",
     "Side 2 gets the primera point: more suits", "nobody gets the primera point."),
    ("scopa", "es", "La primera, paso a paso", "Primera por número de palos:",
     "El bando 2 se lleva el punto de la primera: más palos", "el punto de la primera no es para nadie."),
])
def test_the_point_by_suits_is_named_as_each_game_names_it(rules, lang, title, rule, point, tie):
    """Escoba's house rule keeps the setenta's name for the point counted by suits (the point a pupil has learnt
    all along); Scopa's rules call it the primera. Title, rule, winner and tie all say the same word."""
    other = {"setenta": "primera", "primera": "setenta"}["setenta" if "escoba" in rules else "primera"]
    widget = SetentaExplainer(piles=["7o 7c 7e", "1o 2c 3e 4b"], rules=rules, lang=lang)
    shown = shown_text(widget)
    assert title in shown and rule in shown
    widget.show_all()
    assert status_line(widget).message.startswith(point)
    tied = SetentaExplainer(piles=["7o 6c", "6o 7c"], rules=rules, lang=lang)
    tied.show_all()
    assert status_line(tied).message.endswith(tie)
    assert other not in " ".join((shown, status_line(widget).message, status_line(tied).message)).lower()


def test_three_sides_and_the_three_player_tie_rule():
    piles = ["7o 6c 1e 5b", "7c 6o 1b 5e", "4o 4c 4e 4b"]  # 70, 70 and 56
    widget = SetentaExplainer(piles=piles, names=["A", "B", "C"], rules="escoba+three_player_ties", lang="en")
    widget.show_all()
    assert status_line(widget).message == "Two sides tie at the top (70 – 70 – 56): the point goes to the third, C."
    plain = SetentaExplainer(piles=piles, lang="en")
    plain.show_all()  # three sides: the two that share the top are named, the third (56) does not take the point
    assert status_line(plain).message == "Tie at 70 between Side 1 and Side 2: nobody gets the setenta point."
    spanish = SetentaExplainer(piles=piles, names=["Ana", "Luis", "Eva"])
    spanish.show_all()
    assert status_line(spanish).message == "Empate a 70 entre Ana y Luis: el punto de la setenta no es para nadie."


def test_the_sevens_rule_says_where_the_point_goes():
    widget = SetentaExplainer(piles=["7o 7c 1e 5b", "6c 6o 7e 5e"], rules="escoba+sevens", lang="en")
    assert "most sevens instead" in shown_text(widget)
    widget.show_all()
    assert status_line(widget).message == ("With these rules the point goes to the side with the most sevens: "
                                           "Side 1 has the most sevens (2 – 1).")


def test_typing_a_pile_recomputes_from_the_start():
    widget = SetentaExplainer()
    widget.show_all()
    texts(widget)[0].value = "7o 6c 1e 10b"  # what a student types: 21 + 18 + 16 + 10 = 65
    assert widget.piles == ["7o 6c 1e 10b", "7c 7e 6o"]
    assert [s.total for s in widget.model.setentas] == [65, None]
    assert widget.step == 0


@pytest.mark.parametrize("piles, message", [
    (["7o 8c", "7c"], "Revisa los montones: «8c» no es una carta"),
    (["7o 6c", "7o 5b"], "Revisa los montones: el siete de oros está en dos montones"),
    (["7o 7o"], "Revisa los montones: el siete de oros está dos veces"),
    (5, "Revisa los montones: da un montón de cartas por bando"),
    ([], "Revisa los montones: da un montón de cartas por bando"),
    ([5, "7o"], "Revisa los montones: escribe las cartas como texto"),
    (["1o", "2o", "3o", "4o", "5o"],
     "Revisa los montones: como mucho 4 montones para comparar, uno por jugador o por bando"),
])
def test_bad_piles_are_explained_and_change_nothing(piles, message):
    widget = SetentaExplainer(names=["Ana", "Luis"])
    button(widget, "Next step").click()
    before = (widget.model.pile_cards, widget.model.steps, widget.step, rows(widget, 0))
    widget.piles = piles  # never raises
    assert status_line(widget).message.startswith(message)
    assert (widget.model.pile_cards, widget.model.steps, widget.step, rows(widget, 0)) == before
    widget.piles = ["7o 6c 1e 5b", "7c 7e 6o"]
    assert widget.model.error == {} and widget.step == 0


def test_a_typed_mistake_keeps_the_text_so_it_can_be_corrected():
    widget = SetentaExplainer()
    texts(widget)[1].value = "7c 7e 6o 13b"
    assert "«13b» no es una carta" in status_line(widget).message
    assert texts(widget)[1].value == "7c 7e 6o 13b"
    assert [s.total for s in widget.model.setentas] == [70, None]


def test_bad_rules_and_names_do_not_raise():
    widget = SetentaExplainer(rules=42)
    assert status_line(widget).message == "Revisa los montones: estas reglas no son válidas"
    widget.rules = "nonsense"
    assert status_line(widget).message == "Revisa los montones: no hay reglas con ese nombre"
    widget.rules = "escoba"
    assert widget.model.error == {}
    widget.names = 42  # not a list: the default names
    assert texts(widget)[0].description == "Bando 1"


def test_the_language_and_the_deck_switch():
    widget = SetentaExplainer(names=["Ana", "Luis"])
    button(widget, "Show all").click()
    widget.lang = "en"
    assert status_line(widget).message == ("Ana gets the setenta point: 70 is the only valid setenta "
                                      "(70 – invalid: no clubs).")
    assert labelled(widget, "Next step", w.Button).icon == "step-forward"  # the English label, on the same button
    assert table(widget, 0).caption == "Ana's setenta"
    assert table(widget, 0).headers == ["Best card", "Suit", "Setenta value"]
    widget.deck = "french"
    assert cards(widget, 0).deck == "french" and table(widget, 0).deck == "french"
    with pytest.raises(Exception, match="choose es"):
        widget.lang = "xx"
    with pytest.raises(Exception, match="spanish"):
        widget.deck = "german"
    assert widget.lang == "en" and widget.deck == "french"


def test_a_lesson_can_set_the_step_and_not_editable_hides_the_inputs():
    widget = SetentaExplainer(editable=False)
    assert texts(widget) and not any(is_shown(widget, text) for text in texts(widget))
    widget.step = 5
    assert widget.model.step == 5 and status_line(widget).message == "Bando 1: 21 + 18 + 16 + 15 = 70."
    widget.step = 99  # clamped to the last step
    assert widget.step == len(widget.model.steps) == 11
    widget.step = -3
    assert widget.step == 0


def test_the_number_of_sides_can_change():
    widget = SetentaExplainer()
    widget.piles = ["7o 6c 1e 5b", "7c 6o 1b 5e", "4o 4c 4e 4b"]
    assert len(texts(widget)) == 3 and sides(widget) == 3
    widget.piles = ["7o"]
    assert len(texts(widget)) == 1 and sides(widget) == 1
    assert widget.model.line is None


def test_positional_arguments_in_the_documented_order():
    widget = SetentaExplainer(["7o 6c 1e 5b"], ["Ana"], "escoba", "en", "french")
    assert texts(widget)[0].description == "Ana" and cards(widget, 0).deck == "french"
    assert widget.lang == "en" and widget.model.rules_used.name == "escoba"
