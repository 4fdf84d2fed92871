"""Seeded drills: the generators (engine side) and the Drill widget driven in the kernel (no browser).

The reference answers come from tests/conftest.py (every subset of the table; docs/rules.md §5 scoring written out
independently) or are worked out by hand from docs/rules.md.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import ipywidgets as w
import pytest
from escoba_test_helpers import (
    SETENTA_VALUE,
    brute_captures,
    codes,
    is_shown,
    parts,
    rank,
    reference_score,
    status_line,
    suit,
)

from escoba_tutor import ESCOBA, SCOPA, EscobaError, score_deal
from escoba_tutor.exercises import (
    MAX_SEED,
    CaptureDrill,
    capture_drill,
    check_setenta,
    make_drill,
    points_drill,
    points_items,
    setenta_drill,
)
from escoba_tutor.exercises.registry import kind_names
from escoba_tutor.text import labels
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets.drills import Drill, read_setenta_answer

SEEDS = range(60)


# ================================================================================================ generators
@pytest.mark.parametrize("make", [capture_drill, setenta_drill, points_drill])
def test_a_seed_always_gives_the_same_position(make):
    for seed in (0, 1, 17, 12345, MAX_SEED):
        assert make(seed) == make(seed)
    assert len({str(make(seed)) for seed in range(12)}) >= 10  # and seeds differ


def test_another_process_gets_the_same_positions():
    # What a class relies on: a student's kernel (another process, another hash seed) shows the same exercise.
    script = ("from escoba_tutor.exercises import *; "
              "print(capture_drill(5)); print(setenta_drill(5)); print(points_drill(5).answer)")
    here = "\n".join(str(x) for x in (capture_drill(5), setenta_drill(5), points_drill(5).answer)) + "\n"
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        assert done.stdout == here


def test_the_capture_drill_of_seed_0_by_hand():
    drill = capture_drill(0)
    # 7c on 7e 1o 11e 2c: 7 + 7 + 1 = 15; the caballo (9) with 7 makes 16; 7 + 2 + 1 = 10.
    assert (drill.card.code, [c.code for c in drill.table]) == ("7c", ["7e", "1o", "11e", "2c"])
    assert [codes(c) for c in drill.answer] == [{"1o", "7e"}]


@pytest.mark.parametrize("rules", [ESCOBA, SCOPA])
def test_capture_drills_are_teachable_and_their_answer_is_complete(rules):
    counts = []
    for seed in SEEDS:
        drill = capture_drill(seed, rules)
        assert 3 <= len(drill.table) <= 8 and drill.card not in drill.table
        assert set(map(codes, drill.answer)) == brute_captures(drill.card, drill.table, rules is SCOPA)
        counts.append(len(drill.answer))
    assert counts.count(0) >= 3                       # sometimes nothing to take
    assert sum(1 for n in counts if n >= 1) >= 40     # mostly something
    assert sum(1 for n in counts if n >= 2) >= 15     # often several
    assert max(counts) <= 5


def test_setenta_drills_are_teachable_and_their_answer_is_right():
    invalid = figure_best = 0
    for seed in SEEDS:
        drill = setenta_drill(seed)
        assert len(drill.piles) == 2 and not set(drill.piles[0]) & set(drill.piles[1])
        for pile, answer in zip(drill.piles, drill.answers):
            assert 5 <= len(pile) <= 9
            best = {}
            for card in codes(pile):  # docs/rules.md §5, step by step, from the codes alone
                best[suit(card)] = max(best.get(suit(card), 0), SETENTA_VALUE[rank(card)])
            assert answer.total == (sum(best.values()) if len(best) == 4 else None)
            invalid += answer.total is None
            figure_best += answer.total is not None and 10 in best.values()
    assert 15 <= invalid <= 50 and figure_best >= 20  # about a quarter miss a suit; figures often decide a suit


def test_the_setenta_drill_of_seed_3_by_hand():
    drill = setenta_drill(3)
    assert [" ".join(c.code for c in p) for p in drill.piles] == ["2o 3o 5o 1c 3c 4e 7e 12e",
                                                                 "6o 10o 10c 3e 6e 1b 3b 6b"]
    # No bastos: invalid. 6o 18 + sota de copas 10 + 6e 18 + 6b 18 = 64.
    assert [a.total for a in drill.answers] == [None, 64]
    assert len(setenta_drill(3, sides=1).piles) == 1
    four = setenta_drill(3, sides=4).piles
    assert len(four) == 4 and len({c for pile in four for c in pile}) == sum(len(pile) for pile in four)


def test_points_drills_come_from_real_deals():
    for seed in range(25):
        drill = points_drill(seed)
        assert drill.answer == score_deal(drill.piles, drill.escobas) == drill.record.score
        assert list(drill.answer.points) == reference_score(drill.piles, drill.escobas)
        taken = [c for pile in drill.piles for c in pile]
        assert len(taken) == len(set(taken)) and len(taken) + len(drill.record.leftover) * (
            drill.record.leftover_to is None) == 40


def test_the_points_drill_of_seed_4_has_the_ties_of_the_rules():
    drill = points_drill(4)
    assert [len(p) for p in drill.piles] == [20, 20]
    assert {item: drill.expected(item) for item in drill.items} == {
        "cards": (), "oros": (), "siete_de_oros": (1,), "setenta": (1,)}


def test_points_items_follow_the_rules():
    assert points_items() == ("cards", "oros", "siete_de_oros", "setenta")
    assert points_items("escoba+sevens+cards_bonus+all_sevens_bonus") == (
        "cards", "cards_bonus", "oros", "siete_de_oros", "sevens", "all_sevens")
    with pytest.raises(EscobaError):
        points_drill(0).expected("escobas")  # the escobas are given, not asked


@pytest.mark.parametrize("seed", [-1, 1.5, True, "3", MAX_SEED + 1, None])
def test_bad_seeds_are_refused(seed):
    for make in (capture_drill, setenta_drill, points_drill):
        with pytest.raises(EscobaError) as caught:
            make(seed)
        assert caught.value.code == "bad_seed"


def test_bad_kinds_and_rules_are_refused():
    with pytest.raises(EscobaError, match="no drill is called"):
        make_drill("poker", 0)
    with pytest.raises(EscobaError):
        capture_drill(0, rules=42)
    with pytest.raises(EscobaError):
        points_drill(0, rules="escoba+chile")  # Chile needs 3 or 4 players


# ============================================================================================= answer checks
def test_a_capture_list_is_judged():
    drill = capture_drill(36)  # 5o on 6o 12c 10b 11b 2e: the rey (5 + 10) or the 2 and the sota (5 + 2 + 8)
    assert [codes(c) for c in drill.answer] == [{"12c"}, {"2e", "10b"}]
    result = drill.check([["12c"], ["10b"], ["11b"], ["12c"]])  # listed twice: counted once
    assert [codes(c) for c in result.right] == [{"12c"}] and [codes(c) for c in result.missing] == [{"2e", "10b"}]
    assert [(codes(w.taken), w.reason, w.total) for w in result.wrong] == [
        ({"10b"}, "figure_face_value", 13),   # 5 + sota: right only if the sota counted 10
        ({"11b"}, "wrong_sum", 14)]
    assert not result.ok and drill.check(["12c", "10b 2e"]).ok


@pytest.mark.parametrize("pile, given, mistake, cards", [
    ("7o 6c 1e 5b", 70, "", []),
    ("7o 6c 1e 10b", 63, "figure_capture_value", ["10b"]),        # sota counted 8
    ("7o 6c 1e 11b", 64, "figure_capture_value", ["11b"]),        # caballo counted 9
    ("7o 6c 1e 11b 10b", 64, "figure_capture_value", ["11b"]),    # the caballo is the figure one would pick
    ("7o 6c 1e 11b", 66, "figure_printed", ["11b"]),              # caballo counted 11
    ("7o 6c 1e 12b", 67, "figure_printed", ["12b"]),              # rey counted 12
    ("7o 6c 1e 12b 1b", 65, "wrong_best", ["12b"]),               # the rey (10) instead of the as (16)
    ("7o 6c 1e 5b", 19, "capture_values", []),                    # 7 + 6 + 1 + 5
    ("7o 6o 6c 1e 5b", 88, "summed_all", []),                     # 21 + 18 + 18 + 16 + 15
    ("7o 6c 1e", 55, "missing_suit", []),
    ("7o 6c 1e 5b", None, "not_invalid", []),
    ("7o 6c 1e 5b", 71, "other", []),
])
def test_setenta_answers_name_the_mistake(pile, given, mistake, cards):
    check = check_setenta(pile, given)
    assert (check.ok, check.mistake, [c.code for c in check.cards]) == (not mistake, mistake, cards)


def test_low_primera_answers():
    assert check_setenta("7o 6c 1e 12b", None, "escoba+low_primera").ok
    check = check_setenta("7o 6c 1e 12b", 65, "escoba+low_primera")
    assert check.mistake == "only_figures" and [s.value for s in check.suits] == ["b"]
    assert check_setenta("7o 6c 1e 12b", 65).ok  # by the default rules the rey counts 10


def test_bad_setenta_answers_are_refused():
    for given in ("70", -1, 7.5, True):
        with pytest.raises(EscobaError):
            check_setenta("7o 6c 1e 5b", given)


def test_points_answers_are_judged():
    drill = points_drill(4)
    results = drill.check({"cards": (0,), "oros": (), "siete_de_oros": (1,)})
    assert [(r.item, r.ok) for r in results] == [("cards", False), ("oros", True), ("siete_de_oros", True),
                                                 ("setenta", False)]
    assert results[3].given is None and results[0].line.reason == "tie"


def test_typed_setenta_answers_are_read():
    assert read_setenta_answer("  64 ") == ("number", 64)
    assert [read_setenta_answer(t)[0] for t in ("inválida", "Invalid", "NO VALE", "coja", "-")] == ["invalid"] * 5
    assert read_setenta_answer("") == ("blank", None) and read_setenta_answer("seventy") == ("bad", None)
    assert read_setenta_answer(None) == ("bad", None) and read_setenta_answer("12345") == ("bad", None)


# ================================================================================================== widget
def picker_rows(widget):
    return [row["cells"] for row in widget.view.captures_list.rows]


def test_the_widget_shows_the_seeded_position_and_the_seed():
    widget = Drill("captures", seed=0)
    assert [widget.view.hand_row.cards, widget.view.table_row.cards] == [["7c"], ["7e", "1o", "11e", "2c"]]
    assert "Encuentra todas las bazas · n.º 0" in widget.title.value
    assert "Ejercicio n.º 0: con este número, toda la clase tiene el mismo ejercicio." in widget.task.value
    assert widget.seed_box.value == 0 and widget.seed_box.description == "Ejercicio"
    assert widget.view.table_row.marks == {"11e": "9"}  # a figure shows its capture value on the card


def test_new_position_and_a_typed_seed():
    widget = Drill("captures", seed=0)
    widget.new_button.click()
    assert widget.seed == 1 and widget.seed_box.value == 1
    assert widget.view.hand_row.cards == [capture_drill(1).card.code]
    widget.seed_box.value = 36  # a student types the number the teacher gave
    assert widget.seed == 36 and widget.view.table_row.cards == ["6o", "12c", "10b", "11b", "2e"]


def test_captures_built_one_by_one_then_checked():
    widget = Drill("captures", seed=36)  # 5o on 6o 12c 10b 11b 2e
    widget.view.add_button.click()
    assert widget.status.message == "Primero elige las cartas de la mesa que forman la baza."
    widget.view.table_row.selected = ["12c"]
    widget.view.add_button.click()
    assert widget.status.message == "Baza añadida: llevas 1 baza en la lista."
    assert widget.view.table_row.selected == [] and picker_rows(widget) == [["5o", "12c", ""]]
    widget.view.table_row.selected = ["12c"]
    widget.view.add_button.click()
    assert widget.status.message == "Esa baza ya está en tu lista."
    widget.view.table_row.selected = ["10b"]
    widget.view.add_button.click()
    widget.check_button.click()
    lines = widget.status.message.split("\n")
    assert lines == ["Correctas: 1 · Sin encontrar: 1 · Incorrectas: 1.",
                     "Mal: el cinco de oros con la sota de bastos: 5 + sota (8) = 13, no 15: cuidado, la sota vale "
                     "8, el caballo 9 y el rey 10.",
                     "Falta: el cinco de oros también puede llevarse el dos de espadas y la sota de bastos "
                     "(5 + 2 + sota (8) = 15)."]
    assert picker_rows(widget) == [["5o", "12c", "bien"],
                                   ["5o", "10b", "mal: 5 + sota (8) = 13, no 15: cuidado, la sota vale 8, el "
                                                 "caballo 9 y el rey 10"],
                                   ["5o", "2e 10b", "falta: no la has puesto en la lista"]]
    # "bien" in words; ★ (the "good" tone) would say "escoba", and this capture is none
    assert [row["tone"] for row in widget.view.captures_list.rows] == ["", "warn", "info"]
    assert "<li>Mal: el cinco de oros con la sota de bastos" in widget.feedback.value
    # Put the list right: remove the wrong one, add the missing one.
    widget.view.captures_list.selected = "10b"
    widget.view.remove_button.click()
    assert widget.model.result is None and picker_rows(widget) == [["5o", "12c", ""]]
    widget.view.table_row.selected = ["2e", "10b"]
    widget.view.add_button.click()
    widget.check_button.click()
    assert widget.status.message == "¡Bien! Has encontrado las dos bazas."
    widget.lang = "en"  # "both", never "all 2 captures"
    assert widget.status.message == "Right! You found both captures."


def test_a_card_that_takes_nothing():
    widget = Drill("captures", seed=7, lang="en")  # 2e on 5e 6c 5o: 2 + 5 + 6 = 13, 2 + 5 + 5 = 12, nothing
    widget.check_button.click()
    assert widget.status.message == "Right: the two of swords takes nothing here, so it stays on the table."
    widget.view.table_row.selected = ["5e", "6c"]
    widget.view.add_button.click()
    widget.check_button.click()
    assert widget.status.message.split("\n") == ["0 right, 0 missing, 1 wrong.",
                                                 "Wrong: the two of swords with the six of cups and the five "
                                                 "of swords: 2 + 6 + 5 = 13, not 15.",
                                                 "The two of swords takes nothing here: it stays on the table."]
    widget.view.clear_button.click()
    assert widget.model.built == [] and widget.status.message == ""


def test_scopa_captures():
    widget = Drill("captures", seed=0, rules="scopa", lang="en")  # 7c on 7e 1o 11e 2c: the equal 7 alone
    assert [codes(c) for c in widget.model.drill.answer] == [{"7e"}]
    widget.view.table_row.selected = ["1o", "7e"]  # a capture of 15 is not Scopa
    widget.view.add_button.click()
    widget.check_button.click()
    assert ("Wrong: the seven of cups with the ace of coins and the seven of swords: 1 + 7 = 8, not 7."
            in widget.status.message)


def test_setenta_answers_typed_and_checked():
    widget = Drill("setenta", seed=3)  # no bastos: invalid; 6o 18 + sota 10 + 6e 18 + 6b 18 = 64
    texts = [part[2] for part in widget.view.parts]
    assert [t.description for t in texts] == ["Setenta del bando 1", "Setenta del bando 2"]
    texts[0].value, texts[1].value = "52", "62"
    widget.check_button.click()
    assert widget.status.message.split("\n") == [
        "Aciertos: 0 de 2.",
        "Bando 1: faltan bastos, así que la setenta no vale.",
        "Bando 2: has contado la sota de copas como 8, pero en la setenta las figuras valen 10."]
    texts[0].value, texts[1].value = "inválida", "64"
    assert widget.model.result is None  # a changed answer clears the old verdict
    widget.check_button.click()
    assert widget.status.message.split("\n") == ["Aciertos: 2 de 2.", "Bando 1: bien, la setenta no vale (faltan "
                                                                  "bastos).", "Bando 2: bien, 64."]


def test_setenta_answers_that_are_not_numbers():
    widget = Drill("setenta", seed=3, lang="en")
    widget.view.parts[0][2].value = "lots"
    widget.check_button.click()
    assert widget.status.message.split("\n")[1:] == [
        "Side 1: “lots” is not a number: write one like 70, or “invalid”.",
        "Side 2: write a number, or “invalid”."]


def test_points_chosen_item_by_item():
    widget = Drill("points", seed=4, names=["Ana", "Luis"])  # cards 20–20, oros 5–5, Luis: 7o and setenta
    toggles = widget.view.choices
    assert list(toggles) == ["cards", "oros", "siete_de_oros", "setenta"]
    assert toggles["cards"].options == (("elige…", ""), ("Ana", "0"), ("Luis", "1"), ("Nadie", "none"))
    assert toggles["cards"].value == "" and toggles["cards"].description == "Cartas"
    toggles["cards"].value = "0"
    toggles["oros"].value = "none"
    toggles["siete_de_oros"].value = "1"
    widget.check_button.click()
    assert widget.status.message.split("\n") == [
        "Aciertos: 2 de 4.",
        "Cartas — no: nadie: empate a 20.",
        "Oros — bien: nadie: empate a 5.",
        "Siete de oros — bien: Luis tiene el siete de oros.",
        "Setenta: elige quién se lleva el punto."]
    toggles["cards"].value = "none"
    toggles["setenta"].value = "1"
    widget.check_button.click()
    assert widget.status.message.split("\n")[0] == "Aciertos: 4 de 4."
    toggles["oros"].value = ""  # back to "choose": not answered
    assert "oros" not in widget.model.choices


def test_both_score_is_offered_with_that_variant():
    widget = Drill("points", seed=4, rules="escoba+ties_both_score", lang="en")
    assert ("Both", "both") in widget.view.choices["cards"].options
    assert ("Both", "both") not in widget.view.choices["siete_de_oros"].options
    widget.view.choices["cards"].value = "both"
    widget.check_button.click()
    assert "Cards — right: tie at 20: Side 1 and Side 2 each score." in widget.status.message


@pytest.mark.parametrize("kind, shown", [("captures", "RowPicker"), ("setenta", "SetentaExplainer"),
                                         ("points", "ScoreSheet")])
def test_show_the_answer(kind, shown):
    widget = Drill(kind, seed=4)
    assert widget.answer_box.children == ()
    widget.answer_button.click()
    assert type(widget.answer_box.children[0]).__name__ == shown
    assert widget.answer_button.description == "Ocultar la solución"
    widget.new_button.click()  # a new position hides it again
    assert widget.answer_box.children == () and widget.answer_button.description == "Ver la solución"
    widget.answer_button.click()
    widget.answer_button.click()
    assert widget.answer_box.children == ()


def test_the_answer_of_a_setenta_drill_is_the_explainer_shown_whole():
    widget = Drill("setenta", seed=3, lang="en")
    widget.answer_button.click()
    explainer = widget.answer_box.children[0]
    typed = [text for text in parts(explainer) if isinstance(text, w.Text)]  # the piles' text boxes
    assert explainer.model.done and typed and not any(is_shown(explainer, text) for text in typed)
    assert status_line(explainer).message == ("Side 2 gets the setenta point: 64 is the only valid setenta "
                                         "(invalid: no clubs – 64).")


@pytest.mark.parametrize("change, message", [
    ({"kind": "poker"}, "Revisa el ejercicio: los tipos de ejercicio son: encuentra todas las bazas (código: "
                        "captures), calcula la setenta (código: setenta), quién se lleva cada punto (código: "
                        "points), las cartas que quedan al final (código: leftover), la escoba de mano (código: "
                        "escoba_de_mano), qué carta jugarías (código: strategy), cuenta las escobas (código: "
                        "escobas), quién gana la partida (código: game_end), a quién le toca, cuándo se reparte "
                        "(código: dealing) y lo que cambia una regla de la casa (código: house_rules)"),
    ({"seed": -5}, "Revisa el ejercicio: el número de ejercicio es un número entero, de 0 en adelante"),
    ({"seed": "abc"}, "Revisa el ejercicio: el número de ejercicio es un número entero, de 0 en adelante"),
    ({"rules": "escoba+chile"}, "Revisa el ejercicio: estas reglas necesitan otro número de jugadores"),
    ({"rules": 3}, "Revisa el ejercicio: estas reglas no son válidas"),
])
def test_bad_settings_are_explained_and_keep_the_exercise(change, message):
    widget = Drill("points", seed=4)
    before = (widget.model.drill, [row.cards for _h, row, _n in widget.view.parts])
    for name, value in change.items():
        setattr(widget, name, value)  # never raises
    assert widget.status.message == message
    assert (widget.model.drill, [row.cards for _h, row, _n in widget.view.parts]) == before


def test_scopa_has_no_escoba_de_mano_exercise():
    widget = Drill("escoba_de_mano", seed=3)
    before = widget.model.drill
    widget.rules = "scopa"
    assert widget.status.message == ("Revisa el ejercicio: estas reglas no tienen escoba de mano, así que no hay "
                                     "ejercicio sobre ella")
    assert widget.model.drill is before and widget.view.table_row.cards == ["2c", "6c", "1b", "6b"]


def test_a_bad_first_setting_shows_only_the_problem_then_recovers():
    widget = Drill("poker")
    assert widget.model.drill is None and widget.status.message.startswith("Revisa el ejercicio")
    assert widget.new_button.description == "Otro ejercicio" and widget.check_button.description == "Comprobar"
    widget.check_button.click()  # nothing to check: nothing happens
    assert widget.model.result is None
    widget.kind = "captures"
    assert widget.view.hand_row.cards == ["7c"] and widget.status.message == ""


def test_switching_kinds_and_language():
    widget = Drill("captures", seed=4, lang="en")
    widget.kind = "setenta"
    assert "Work out the setenta · no. 4" in widget.title.value and len(widget.view.parts) == 2
    widget.lang = "es"
    assert "Calcula la setenta · n.º 4" in widget.title.value
    assert widget.check_button.description == "Comprobar" and widget.answer_button.description == "Ver la solución"
    with pytest.raises(Exception, match="choose es"):
        widget.lang = "de"


def test_same_layout_positions_reuse_their_controls():
    widget = Drill("setenta", seed=0)
    first = widget.view.parts[0][1]
    widget.new_button.click()
    assert widget.view.parts[0][1] is first and widget.model.answers == ["", ""]
    assert first.cards == [c.code for c in setenta_drill(1).piles[0]]


def test_the_capture_drill_object_is_the_engines():
    widget = Drill("captures", seed=12)
    assert isinstance(widget.model.drill, CaptureDrill) and widget.model.drill == capture_drill(12)
    assert widget.model.add_capture(["not a card"]) == "bad"



def test_positional_arguments_in_the_documented_order():
    widget = Drill("setenta", 3, "en", "escoba+low_primera")
    assert widget.model.drill.rules.setenta_cards == "low" and widget.lang == "en"


def test_the_missing_rows_cannot_be_removed():
    widget = Drill("captures", seed=36)
    widget.check_button.click()  # nothing listed: both captures are missing
    widget.view.captures_list.selected = "missing:12c"
    widget.view.remove_button.click()
    assert [row["id"] for row in widget.view.captures_list.rows] == ["missing:12c", "missing:2e+10b"]


def test_in_the_capture_drill_the_star_marks_the_escoba_only():
    widget = Drill("captures", seed=65, lang="es")  # lesson 3's exercise: one capture takes the whole table
    drill = widget.model.drill
    sweep = next(taken for taken in drill.answer if set(taken) == set(drill.table))
    for taken in drill.answer:
        widget.view.table_row.selected = [c.code for c in sorted(taken)]
        widget.view.add_button.click()
    widget.check_button.click()
    tones = {row["id"]: row["tone"] for row in widget.view.captures_list.rows}
    assert {key for key, tone in tones.items() if tone == "good"} == {"+".join(c.code for c in sorted(sweep))}
    assert all(row["cells"][2] == "bien" for row in widget.view.captures_list.rows)
    widget.answer_button.click()
    answer_rows = widget.answer_box.children[0].rows
    assert [row["id"] for row in answer_rows if row.get("tone") == "good"] == ["+".join(c.code for c in sorted(sweep))]



def _every_word(widget) -> str:
    """Every text a drill shows: its parts' values, labels, placeholders, captions, options and status lines."""
    said = []
    for part in parts(widget):
        said.extend(value for name in ("value", "description", "placeholder", "caption", "group_label", "message")
                    if isinstance(value := getattr(part, name, None), str))
        if isinstance(part, w.Dropdown):
            said.extend(str(option[0]) if isinstance(option, tuple) else str(option) for option in part.options)
    return "\n".join(said)


#: What a sentence written for a side says when the side is the student: «Montón de ti», «para tú», «Gana tú», «Tú
#: juega», «Reparte tú» (the student deals: «Repartes tú»), "You deals", "You wins".
_BROKEN_YOU = {
    "es": re.compile(r"(?<!\w)(?:de ti|para tú|de tú|a tú|(?:gana|se apunta|tiene|reparte|sale|juega|la hizo|"
                     r"se lleva|repartió|jugó) tú|tú,? (?:que reparte, )?(?:tiene|juega|jugó|gana|deja|dejó|está|ha|"
                     r"hace|hizo|reparte|repartió|se lleva|lleva|se apunta|sale))(?!\w)", re.I),
    "en": re.compile(r"\b[Yy]ou (?:deals|takes|scores|has|is|plays|played last, but laid|wins|makes|gets|was|lays)\b"
                     r"|\b[Yy]ou's\b|\bof you\b|\bby you\b"),
}


def test_the_broken_forms_for_the_student_are_caught():
    assert all(_BROKEN_YOU["es"].search(text) for text in (
        "Montón de ti", "Tú juega el as de oros", "Reparte tú.", "La última baza la hizo tú", "gana tú."))
    assert not any(_BROKEN_YOU["es"].search(text) for text in (
        "Juegas el as de oros", "Repartes tú.", "La última baza la hiciste tú", "ganas tú.", "Ganas tú"))
    assert all(_BROKEN_YOU["en"].search(text) for text in ("You deals.", "You plays the ace", "You wins."))
    assert not _BROKEN_YOU["en"].search("You deal. You play the ace of coins and take the king: escoba!")


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", kind_names())
def test_a_side_named_you_is_said_in_the_second_person(name, lang):
    """A page may name a side "you" (``names`` may hold ``labels.you``): what belongs to it is «Tu montón», «Tus
    escobas», never «Montón de ti»; what the student does is «Juegas…», «Repartes tú», "You deal", never «Tú
    juega», «Reparte tú», "You deals". Every kind, with the student as each of the first three sides, before and
    after a check, with its answer shown."""
    _ = Translator(lang)
    reached = False
    for place in range(3):
        names = [labels.side(_, n) for n in (1, 2, 3, 4)]
        names[place] = labels.you(_)
        for seed in range(12):
            widget = Drill(name, seed=seed, lang=lang, names=names)
            widget.check()  # nothing answered: each question's line names the sides
            widget.toggle_answer()
            said = _every_word(widget)
            reached = reached or bool(re.search(r"(?<!\w)(?:tú|tus?|ti|te|you|your)(?!\w)", said, re.I))
            assert not _BROKEN_YOU[lang].search(said), (name, place, seed, _BROKEN_YOU[lang].findall(said))
    # the label did reach the kinds that name sides
    assert reached or name in {"captures", "strategy", "dealing"}, name


def test_the_student_s_own_things_are_said_with_possessives():
    es = Translator("es")
    names = [labels.you(es), labels.side(es, 2)]
    said = {name: _every_word(Drill(name, seed=1, lang="es", names=names)) for name in ("setenta", "points", "escobas")}
    assert "Tu montón" in said["setenta"] and "Tu setenta" in said["setenta"] and "Montón del bando 2" in said["points"]
    assert "Tus escobas" in said["escobas"] and "Escobas del bando 2" in said["escobas"]
