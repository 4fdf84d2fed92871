"""A sweep is named by the rules it is played under: an escoba in Escoba, a scopa in Scopa (lesson 7), on every
screen that names one: the game's messages and score table, the capture table's "You get" column, the score sheet,
the hints, the capture and strategy exercises."""

from __future__ import annotations

import re

import pytest

from escoba_tutor.engine.captures import Gains
from escoba_tutor.engine.cards import parse_cards
from escoba_tutor.engine.rules import ESCOBA, SCOPA, rules_by_name
from escoba_tutor.engine.scoring import score_deal
from escoba_tutor.exercises.kinds.captures import capture_drill
from escoba_tutor.exercises.registry import kind
from escoba_tutor.players.hints import Reason
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets.capture_table import describe_gains
from escoba_tutor.widgets.game_table import GameTable, describe_play
from escoba_tutor.widgets.hint_panel import reason_words
from escoba_tutor.widgets.score_sheet import ScoreSheetModel

WORD = {("es", "escoba"): "escoba", ("en", "escoba"): "escoba", ("es", "scopa"): "scopa", ("en", "scopa"): "scopa"}
OTHER = {"escoba": "scopa", "scopa": "escoba"}
CASES = [(lang, rules) for lang in ("es", "en") for rules in (ESCOBA, SCOPA)]


def says(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){word}s?(?!\w)", text, re.I) is not None


def test_the_rules_hold_the_sweep_word_as_data():
    assert (ESCOBA.sweep, SCOPA.sweep) == ("escoba", "scopa")
    # a house rule keeps its game's word
    assert rules_by_name("scopa+target=21").sweep == "scopa"
    assert rules_by_name("escoba+figuras").sweep == "escoba"


@pytest.mark.parametrize("lang, rules", CASES)
def test_a_sweep_in_the_game_is_named_by_the_rules(lang, rules):
    table = GameTable(players=2, seed=3, delay=0, rules=rules, lang=lang)
    word = WORD[lang, rules.sweep]
    for player in (0, 1):
        said = describe_play(Translator(lang), table.session, player, "12b", parse_cards("2c 3e"), True)
        assert says(said, word) and not says(said, OTHER[rules.sweep]), said
    # a capture that leaves cards is no sweep
    plain = describe_play(Translator(lang), table.session, 0, "12b", parse_cards("5e"), False)
    assert not says(plain, "escoba") and not says(plain, "scopa")


@pytest.mark.parametrize("lang, rules", CASES)
def test_the_wins_column_names_a_sweep_by_the_rules(lang, rules):
    said = describe_gains(Translator(lang), Gains(4, 2, 1, False, True), rules)
    assert says(said, WORD[lang, rules.sweep]) and not says(said, OTHER[rules.sweep]), said


@pytest.mark.parametrize("lang, rules", CASES)
def test_the_score_sheet_names_the_sweeps_row_by_the_rules(lang, rules):
    sheet = ScoreSheetModel(score=score_deal(["7o 6c 1e 2b", "7c 7e 6o 5b"], [1, 0], rules), rules=rules)
    row = next(r for r in sheet.rows(Translator(lang)) if r[1:3] == ["1", "1"])
    said = " ".join((row[0], row[-1]))
    # the row's title is the plural: Escobas / Scopas
    assert says(said, WORD[lang, rules.sweep]), said
    # the plural is the reader's own (scopas), never the Italian one
    assert not says(said, OTHER[rules.sweep]) and not re.search(r"(?<!\w)scope(?!\w)", said, re.I), said


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_point_by_suit_count_is_named_by_the_game(lang):
    """Scopa's point by suit count is the primera; Escoba's house rule keeps the setenta's name, as the setenta
    explainer says it in each game."""
    from escoba_tutor.widgets.score_sheet import item_name

    _ = Translator(lang)
    scopa = item_name(_, "primera", SCOPA)
    escoba = item_name(_, "primera", rules_by_name("escoba+primera_by_suit_count"))
    assert scopa == "Primera" and "setenta" not in scopa.lower(), scopa
    assert escoba.lower().startswith("setenta"), escoba


@pytest.mark.parametrize("lang, rules", CASES)
def test_a_hint_names_a_sweep_by_the_rules(lang, rules):
    _ = Translator(lang)
    for reason in (Reason("escoba", parse_cards("5b 2c 3e")),
                   Reason("leaves_sweepable", parse_cards("3c 4b"), total=7, sweeper_value=7, unseen=2)):
        said = reason_words(_, reason, rules)
        assert says(said, WORD[lang, rules.sweep]) and not says(said, OTHER[rules.sweep]), said


@pytest.mark.parametrize("lang, rules", CASES)
def test_the_capture_exercise_cries_the_rules_sweep(lang, rules):
    captures = kind("captures")
    for seed in range(400):
        drill = capture_drill(seed, rules)
        if any(len(c) == len(drill.table) for c in drill.answer):
            break
    else:
        pytest.fail("no capture exercise with a sweep in 400 seeds")
    said = " ".join(captures.worksheet.answer(Translator(lang), drill)["captures"])
    assert says(said, WORD[lang, rules.sweep]) and not says(said, OTHER[rules.sweep]), said


def test_a_sides_sweeps_are_counted_in_the_rules_word():
    from escoba_tutor.widgets.score_sheet import sweeps_count

    assert [sweeps_count(Translator(lang), n, rules) for lang in ("es", "en") for rules in (ESCOBA, SCOPA)
            for n in (1, 2)] == ["1 escoba", "2 escobas", "1 scopa", "2 scopas"] * 2
