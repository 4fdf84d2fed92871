"""The student's own label never lands after «de»: «Escobas de ti», «Montón de ti» are not Spanish. A message that
puts a side after "of" ({side:of}) is either said only of numbered sides (the exercises and drills: «Bando 1») or
has its own form for the student («Tu montón», «Tu setenta»), which the screen says instead."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from escoba_tutor.text import labels, translator
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets.drills.base import YOU_FORMS as DRILLS_YOU_FORMS
from escoba_tutor.widgets.engine_facts import YOU_FORMS as FACTS_YOU_FORMS
from escoba_tutor.widgets.game_table import GameTable
from escoba_tutor.widgets.setenta_explainer import YOU_FORMS as EXPLAINER_YOU_FORMS

ES = Translator("es")
# The catalog whose sides are always numbered labels (the worksheet's and the exercises' keys: «Bando 1»,
# «Pareja 2»): the student's label never reaches it, so its «{side:of}» needs no form for the student. (The drills
# may name a side "you": their messages are checked, with the forms for "you" in their YOU_FORMS.)
NUMBERED_ONLY = {"exercises"}
# The drills' messages said only of numbered players: the dealing drill numbers its players whatever names a
# page gives (test_placeholders.py, test_the_dealing_drill_never_names_the_student).
NUMBERED_MESSAGES = {
    "Who plays next: not {player}. Play goes to the right (anticlockwise), so after {before} comes {right}.",
}


def _templates():
    for path in sorted((translator.LOCALE_DIR / "es" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale="es"):
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                for text in texts:
                    if text and re.search(r"\{\w+:of\}", text):
                        yield Path(path).stem, message, text


def test_the_student_has_no_of_form():
    """«de ti», "of you" are in no catalog: the student's label refuses the "of" form, with a message saying what
    to do instead, and so does a list of labels with the student in it; the other forms are there."""
    for _ in (ES, Translator("en")):
        you = labels.you(_)
        with pytest.raises(ValueError, match="no 'of' form"):
            format(you, "of")
        with pytest.raises(ValueError, match="no 'of' form"):
            _("{side:of}", side=labels.joined(_, [labels.side(_, 2), you]))
        assert [format(you, form) for form in ("", "the", "The", "to")] == {
            "es": ["Tú", "tú", "Tú", "a ti"], "en": ["You", "you", "You", "to you"]}[_.lang]
        assert format(labels.joined(_, [labels.side(_, 1), labels.side(_, 2)]), "of") == {
            "es": "del bando 1 y del bando 2", "en": "of Side 1 and of Side 2"}[_.lang]
    for lang in ("es", "en"):
        for path in (translator.LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po"):
            assert 'msgid "of you"' not in path.read_text(encoding="utf-8"), path


def test_every_template_with_the_student_as_the_side_has_the_student_s_own_form():
    """A message that puts a side after "of" ({side:of}) cannot be said of the student (there is no «de ti»): it
    is said only of numbered sides (the exercises' catalog), or the screen says its form for the student, which
    reads without «de ti»."""
    you = labels.you(ES)
    found, checked = [], 0
    for catalog, message, text in _templates():
        checked += 1
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        if catalog in NUMBERED_ONLY or msgid in NUMBERED_MESSAGES:
            continue
        if msgid in (you_forms := EXPLAINER_YOU_FORMS | FACTS_YOU_FORMS | DRILLS_YOU_FORMS):
            assert "de ti" not in ES(you_forms[msgid], side=you, suits="oros", top="", values="", winner=you,
                                     terms="", total="")
            continue
        found.append((catalog, msgid, text))
    assert checked >= 5 and not found, found


def test_a_deal_of_the_game_in_spanish_never_says_de_ti():
    """The game names the student with the student's label on every screen (the score table, the score sheet,
    the deal's review): a whole deal is played and every text shown is read."""
    from escoba_test_helpers import shown_text
    from test_game_table import my_turn, play_a_row  # (the game's own test helpers)

    for seed in (5, 8):
        table = GameTable(players=2, seed=seed, delay=0, lang="es")
        s, rng = table.session, random.Random(seed)
        while s.phase != "deal_over":
            if my_turn(table):
                play_a_row(table, rng)
        shown = shown_text(table)
        assert "Setenta" in shown, shown[:400]  # the deal's score sheet is shown
        assert "de ti" not in shown, re.findall(r".{40}de ti.{20}", shown)


def test_the_setenta_explainer_names_the_students_pile_and_setenta_with_tu():
    from escoba_test_helpers import shown_text

    from escoba_tutor.widgets.setenta_explainer import SetentaExplainer

    for piles in (("7o 6c 1e 5b", "7c 7e 6o"), ("7c 7e 6o", "7o 6c 1e 5b")):
        shown = shown_text(SetentaExplainer(piles=piles, names=[labels.you(ES), labels.computer(ES)], lang="es"))
        assert "<h4>Tú</h4>" in shown and "de ti" not in shown, re.findall(r".{40}de ti.{20}", shown)


#: The student's label where a sentence needs "your", "you take", «tu», «ti», «te llevas»: what the checks below
#: look for in each language.
_BROKEN_FOR_YOU = {
    "es": re.compile(r"(?<!\w)(?:de ti|para tú|de tú)(?!\w)|\b[Tt]ú,? (?:que reparte, )?se (?:lleva|apunta)\b"
                     r"|\btú y [^.:]* se apuntan\b"),
    "en": re.compile(r"\b[Yy]ou's\b|\bof you\b|\b[Yy]ou, who [^.]*\btakes\b|\b[Yy]ou (?:takes|scores|has)\b"),
}


def test_the_broken_forms_are_caught():
    assert all(_BROKEN_FOR_YOU["es"].search(text) for text in (
        "Setenta de ti:", "es de ti, el bando del que reparte", "tú, que reparte, se lleva las cuatro cartas",
        "tú y el bando 2 se apuntan un punto cada uno"))
    assert all(_BROKEN_FOR_YOU["en"].search(text) for text in (
        "You's setenta: 70.", "12: you, who dealt, takes the four cards", "the pile of you"))
    assert not _BROKEN_FOR_YOU["es"].search("Tu setenta: 21 + 18 = 39.")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_students_setenta_sum_says_your_setenta(lang):
    """The engine's facts name a pile by its side's label: the student's pile is "your setenta", «tu setenta»."""
    from escoba_tutor.widgets.engine_facts import setenta_sum

    _ = Translator(lang)
    said = [*setenta_sum(_, "7o 6c 1e 5b", labels.you(_)), *setenta_sum(_, "7o 6c 1e", labels.you(_))]
    assert [line.split(":")[0] for line in said] == {"es": ["Tu setenta", "Tu setenta no vale"],
                                                     "en": ["Your setenta", "Your setenta is invalid"]}[lang]
    assert not any(_BROKEN_FOR_YOU[lang].search(line) for line in said), said
    # a side's label takes its "of" form in Spanish: «La setenta del bando 2», never «de el bando 2»
    assert setenta_sum(Translator("es"), "7o 6c 1e 5b", labels.side(Translator("es"), 2))[0].startswith(
        "La setenta del bando 2:")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_escoba_de_mano_drill_tells_the_student_who_dealt(lang):
    """The escoba de mano drill with the student's side first: when the student deals and sweeps the four cards,
    the worked answer says so to the student ("you dealt, so you take…"), never "you, who dealt, takes"."""
    from test_drills import _every_word

    from escoba_tutor.widgets.drills import Drill

    _ = Translator(lang)
    names = [labels.you(_), *(labels.side(_, n) for n in (2, 3))]
    said = []
    for seed in range(60):
        widget = Drill("escoba_de_mano", seed=seed, lang=lang, names=names)
        widget.toggle_answer()
        said.append(_every_word(widget))
    text = "\n".join(said)
    assert {"es": "repartes tú, así que te llevas", "en": "you dealt, so you take"}[lang] in text
    assert not _BROKEN_FOR_YOU[lang].search(text), _BROKEN_FOR_YOU[lang].findall(text)


def test_a_tie_that_everyone_scores_reads_well_with_the_student():
    """The points' tie where every tied side scores, said of the student and another side."""
    es = Translator("es")
    tied = labels.joined(es, [labels.you(es), labels.side(es, 2)])
    said = es("a tie ({values}): one point each for {winner}", values="5 – 5", winner=tied)
    assert said == "empate (5 – 5): cada uno de los que empatan se apunta el punto (tú y el bando 2)"
    assert not _BROKEN_FOR_YOU["es"].search(said)
