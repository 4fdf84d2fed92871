"""The student's own label never lands after «de»: «Escobas de ti», «Montón de ti» are not Spanish. A message that
puts a side after "of" ({side:of}) is either said only of numbered sides (the exercises and drills: «Bando 1») or
has its own form for the student («Tu montón», «Tu setenta»), which the screen says instead."""

from __future__ import annotations

import random
import re
import string
from pathlib import Path

from babel.messages.pofile import read_po

from escoba_tutor.text import labels, translator
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets.game_table import GameTable
from escoba_tutor.widgets.setenta_explainer import YOU_FORMS

ES = Translator("es")
# The catalogs whose sides are always numbered labels (the exercises' and drills' «Bando 1», «Pareja 2»): the
# student's label never reaches them, so their «{side:of}» needs no form for the student.
NUMBERED_ONLY = {"drills", "exercises"}


def _templates():
    for path in sorted((translator.LOCALE_DIR / "es" / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale="es"):
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                for text in texts:
                    if text and re.search(r"\{\w+:of\}", text):
                        yield Path(path).stem, message, text


def test_every_template_with_the_student_as_the_side_says_no_de_ti():
    you = labels.you(ES)
    found, checked = [], 0
    for catalog, message, text in _templates():
        # every label placeholder the student; any other ({suits:or}, {n}) a word
        fields = [(name, spec) for _lit, name, spec, _conv in string.Formatter().parse(text) if name]
        label_fields = {name for name, spec in fields if spec in ("of", "the", "The", "to")}
        params = {name: you if name in label_fields else "oros" for name, _spec in fields}
        said = translator._Formatter().vformat(text, (), params)
        checked += 1
        if "de ti" not in said:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        if catalog in NUMBERED_ONLY:
            continue
        # a screen that may name the student says the student's own form instead
        if msgid in YOU_FORMS:
            assert "de ti" not in ES(YOU_FORMS[msgid], side=you, suits="oros", top="", values="", winner=you)
            continue
        found.append((catalog, msgid, said))
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
