"""ScoreSheet driven in the kernel (no browser): the table a learner reads, parsed back from its HTML.

The expected points are worked out by hand from docs/rules.md §5 and §7.
"""

from __future__ import annotations

import random
from html.parser import HTMLParser

import ipywidgets as w
import pytest
from escoba_test_helpers import html_with, status_line

from escoba_tutor import Game
from escoba_tutor.engine.scoring import DealFacts, score_deal
from escoba_tutor.widgets.score_sheet import ScoreSheet


class _Table(HTMLParser):
    """The sheet's table as text: caption, header cells with their scope, body rows and footer rows."""

    def __init__(self) -> None:
        super().__init__()
        self.caption, self.scopes = "", []
        self.head, self.body, self.foot = [], [], []
        self.part, self.cell, self.row, self.in_caption = None, None, None, False

    def handle_starttag(self, tag, attrs):
        if tag in ("thead", "tbody", "tfoot"):
            self.part = {"thead": self.head, "tbody": self.body, "tfoot": self.foot}[tag]
        elif tag == "tr":
            self.row = []
        elif tag in ("th", "td"):
            self.cell = ""
            if tag == "th":
                self.scopes.append(dict(attrs).get("scope"))
        elif tag == "caption":
            self.in_caption = True

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr":
            self.part.append(self.row)
        elif tag == "caption":
            self.in_caption = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        elif self.in_caption:
            self.caption += data


def sheet_html(sheet: ScoreSheet) -> str:
    """The sheet under its title: the table of points, or why there is none."""
    (shown,) = [part.value for part in sheet.children if isinstance(part, w.HTML) and "<h3" not in part.value]
    return shown


def table(sheet: ScoreSheet) -> _Table:
    parsed = _Table()
    parsed.feed(sheet_html(sheet))
    return parsed


def body(sheet: ScoreSheet) -> dict[str, list[str]]:
    """Each body row by its item name: [side 1 had, side 1 points, side 2 had, ..., why]."""
    return {row[0]: row[1:] for row in table(sheet).body}


# docs/rules.md §5, the example: 22 cards, 6 oros, the 7o, the best setenta and 2 escobas score 1+1+1+1+2 = 6.
SIX_POINTS = ["1o 2o 3o 5o 6o 7o 7c 7e 7b 1c 2c 3c 4c 5c 6c 1e 2e 3e 4e 5e 6e 10e",
              "4o 10o 11o 12o 10c 11c 12c 11e 12e 1b 2b 3b 4b 5b 6b 10b 11b 12b"]


def test_the_worked_example_of_the_rules():
    sheet = ScoreSheet(piles=SIX_POINTS, escobas=[2, 0], names=["Ana", "Luis"])
    rows = body(sheet)
    assert list(rows) == ["Escobas", "Cartas", "Oros", "Siete de oros", "Setenta"]
    assert rows["Escobas"] == ["2", "2", "0", "0", "un punto por escoba"]
    assert rows["Cartas"] == ["22", "1", "18", "0", "Ana tiene más cartas (22 – 18)"]
    assert rows["Oros"] == ["6", "1", "4", "0", "Ana tiene más oros (6 – 4)"]
    assert rows["Siete de oros"] == ["sí", "1", "no", "0", "Ana tiene el siete de oros"]
    # Ana: 7o 7c 7e 7b = 84; Luis: 4o 14 + figures 10 + 10 + 6b 18 = 52.
    assert rows["Setenta"] == ["84", "1", "52", "0", "Ana tiene la mejor setenta (84 – 52)"]
    assert table(sheet).foot == [["Total de la mano", "", "6", "", "0", ""]]


def test_ties_and_an_invalid_setenta_in_words():
    # Oros and copas against espadas and bastos: 20 cards each, every oro on one side, both setentas invalid.
    oros_copas = " ".join(f"{r}{s}" for s in "oc" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))
    espadas_bastos = " ".join(f"{r}{s}" for s in "eb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))
    sheet = ScoreSheet(piles=[oros_copas, espadas_bastos], escobas=[0, 1])
    rows = body(sheet)
    assert rows["Cartas"][-1] == "nadie: empate a 20"
    assert rows["Oros"][-1] == "el bando 1 tiene más oros (10 – 0)"
    assert rows["Setenta"] == ["inválida: faltan espadas y bastos", "0", "inválida: faltan oros y copas", "0",
                               "nadie: ningún bando tiene cartas de los cuatro palos"]
    assert table(sheet).foot[0] == ["Total de la mano", "", "2", "", "1", ""]


def test_a_suit_held_only_in_face_cards_under_the_low_cards_house_rule():
    # both sides hold every suit; the first holds clubs only in the king, the second swords only in the knight
    sheet = ScoreSheet(piles=["7o 6c 1e 12b", "7c 6o 1b 11e"], rules="escoba+low_primera", lang="en")
    assert body(sheet)["Setenta"] == [
        "invalid: no clubs from 1 to 7", "0", "invalid: no swords from 1 to 7", "0",
        "nobody: no side has a card from 1 to 7 in every suit (face cards do not count with this house rule)"]
    sheet.lang = "es"
    assert body(sheet)["Setenta"][-1] == ("nadie: ningún bando tiene una carta del 1 al 7 de cada palo (con esta "
                                          "regla de la casa, las figuras no cuentan)")
    # suits really missing under the same rule: the usual words
    sheet.set_deal(piles=["7o 6c 1e", "7c 6o 1b"])
    assert body(sheet)["Setenta"][-1] == "nadie: ningún bando tiene cartas de los cuatro palos"


def test_the_table_is_semantic_and_escapes_names():
    sheet = ScoreSheet(piles=SIX_POINTS, escobas=[2, 0], names=["<b>Ana</b>", "Luis & Co"], totals=[10, 3])
    parsed = table(sheet)
    assert parsed.caption == "Puntos de la mano"
    assert parsed.head[0] == ["Punto", "<b>Ana</b>", "Luis & Co", "Por qué"]  # shown as text, not markup
    assert parsed.head[1] == ["Tiene", "Puntos", "Tiene", "Puntos"]
    assert "<b>Ana</b>" not in sheet_html(sheet) and "&lt;b&gt;Ana&lt;/b&gt;" in sheet_html(sheet)
    assert parsed.scopes.count("row") == 5 + 2 and parsed.scopes.count("colgroup") == 2
    assert parsed.foot[1] == ["Total de la partida", "", "10", "", "3", ""]


def test_a_deal_from_a_game_as_a_record_or_a_score():
    game = Game(players=2, seed=11)
    rng = random.Random(1)
    while not game.deals:
        game.play(rng.choice(game.legal_moves()))
    record = game.deals[0]
    from_record = ScoreSheet(score=record, lang="en")
    assert from_record.model.deal is record.score
    assert table(from_record).foot[0][2::2] == [str(p) for p in record.score.points]
    assert table(from_record).foot[1] == ["Game total", "", str(record.totals[0]), "", str(record.totals[1]), ""]
    from_score = ScoreSheet(score=record.score, lang="en")
    assert table(from_score).body == table(from_record).body and len(table(from_score).foot) == 1
    # The same deal given as piles and escobas: the engine scores it the same way.
    from_piles = ScoreSheet(piles=[list(p) for p in record.piles], escobas=list(record.escobas), lang="en")
    assert table(from_piles).body == table(from_record).body


@pytest.mark.parametrize("rules, piles, escobas, item, expected", [
    # ties_both_score: 20–20 cards gives both the point.
    ("escoba+ties_both_score", ["1o 2o 3o 4o 5o 6o 7o 10o 11o 12o 1c 2c 3c 4c 5c 6c 7c 10c 11c 12c",
                                "1e 2e 3e 4e 5e 6e 7e 10e 11e 12e 1b 2b 3b 4b 5b 6b 7b 10b 11b 12b"], [0, 0],
     "Cards", ["20", "1", "20", "1", "tie at 20: Side 1 and Side 2 each score"]),
    # all_oros_bonus: the ten oros are worth 2.
    ("escoba+all_oros_bonus", ["1o 2o 3o 4o 5o 6o 7o 10o 11o 12o", "1c"], [0, 0],
     "Coins", ["10", "2", "0", "0", "Side 1 has all ten coins: 2 points"]),
    # figuras: 3 figures against 1.
    ("escoba+figuras", ["10o 11o 12o 1c", "10c 2e"], [0, 0],
     "Face cards", ["3", "1", "1", "0", "Side 1 has the most face cards (3 – 1)"]),
    # all_sevens_bonus: nobody has all four.
    ("escoba+all_sevens_bonus", ["7o 7c 7e", "7b"], [0, 0],
     "All four sevens", ["3", "0", "1", "0", "nobody has all four sevens"]),
    # cards_bonus: the most cards, and the other side below 10.
    ("escoba+cards_bonus", ["1o 2o 3o 4o 5o 6o 7o 10o 11o 12o 1c", "2c 3c"], [0, 0],
     "Cards bonus", ["11", "1", "2", "0", "Side 1 has the most cards and every other side has fewer than "
                                        "10: 1 extra point"]),
    # sevens instead of setenta.
    ("escoba+sevens", ["7o 7c 1e", "7e 6b"], [0, 0],
     "Sevens", ["2", "1", "1", "0", "Side 1 has the most sevens (2 – 1)"]),
    # Scopa: primera by suit count; 4 suits beat 3 with a higher sum.
    ("scopa", ["1o 2c 3e 4b", "7o 7c 7e"], [0, 0],
     "Primera", ["4 suits, 55", "1", "3 suits, 63", "0",
                 "Side 1 has cards in the most suits (4 suits, 55 – 3 suits, 63)"]),
    # Escoba's house rule: the same point keeps the setenta's name.
    ("escoba+primera_by_suit_count", ["1o 2c 3e 4b", "7o 7c 7e"], [0, 0],
     "Setenta (primera) by suit count", ["4 suits, 55", "1", "3 suits, 63", "0",
                                          "Side 1 has cards in the most suits (4 suits, 55 – 3 suits, 63)"]),
])
def test_variant_lines(rules, piles, escobas, item, expected):
    sheet = ScoreSheet(piles=piles, escobas=escobas, rules=rules, lang="en")
    assert sheet.model.error == {}
    assert body(sheet)[item] == expected


@pytest.mark.parametrize("lang, cards, coins", [
    ("en", "nobody: tie at 4 between Ana and Luis", "nobody: tie at 1 between Ana, Luis and Eva"),
    ("es", "nadie: empate a 4 entre Ana y Luis", "nadie: empate a 1 entre Ana, Luis y Eva"),
])
def test_a_tie_at_the_top_of_three_sides_names_the_sides_that_share_it(lang, cards, coins):
    """With three sides, "tie at 4" alone hides who tied, and that the side below (2 cards) does not get the
    point either; with two sides the tie needs no names."""
    sheet = ScoreSheet(piles=["7o 7c 1e 5b", "6o 6c 6e 6b", "1o 1c"], escobas=[0, 0, 0], names=["Ana", "Luis", "Eva"],
                       lang=lang)
    rows = body(sheet)
    assert rows[{"en": "Cards", "es": "Cartas"}[lang]][-1] == cards
    assert rows[{"en": "Coins", "es": "Oros"}[lang]][-1] == coins
    two = ScoreSheet(piles=["7o 7c 1e 5b", "6o 6c 6e 6b"], escobas=[0, 0], names=["Ana", "Luis"], lang=lang)
    assert body(two)[{"en": "Cards", "es": "Cartas"}[lang]][-1] == {"en": "nobody: tie at 4",
                                                                     "es": "nadie: empate a 4"}[lang]


def test_the_three_player_tie_rule_and_facts_of_the_deal():
    piles = ["7o 6c 1e 5b", "7c 6o 1b 5e", "4o 4c 4e 4b"]  # setenta 70, 70, 56
    sheet = ScoreSheet(piles=piles, escobas=[0, 0, 0], rules="escoba+three_player_ties", names=["A", "B", "C"],
                       lang="en")
    assert body(sheet)["Setenta"][-1] == "tie at 70 between A and B: the point goes to C"
    chile = ScoreSheet(piles=piles, escobas=[2, 0, 0], rules="escoba+chile", lang="en",
                       facts=DealFacts(escobas_de_mano=(1, 0, 0), hand_escobas=(0, 1, 0)))
    rows = body(chile)
    assert rows["Escobas"][:2] == ["1", "1"]  # the escoba de mano is counted on its own line
    assert rows["Escoba de mano at 4 points (Chile)"] == ["1", "4", "0", "0", "0", "0",
                                                          "an escoba de mano is worth 4 points (Chile)"]
    assert rows["Escoba en mano: 15 in hand (Chile)"][2:4] == ["1", "3"]


def test_the_renuncio_penalty_shows_signed_changes():
    sheet = ScoreSheet(piles=["7o 7c 7e 6b", "1o 2c"], escobas=[1, 0], rules="escoba+renuncio", lang="en",
                       facts=DealFacts(renuncios=(1, 0)))
    rows = body(sheet)
    # Side 1 made 1 + cards 1 + siete 1 + setenta 1 = 4 and loses them; side 2 adds them.
    # (the points the OFFENDING side made: "the points it would have scored" read as each other side's own)
    assert rows["Renuncio"] == ["1", "−4", "0", "+4", "a renuncio (a card laid down that could have captured): the "
                                                    "side that made it scores nothing in this deal, and each other "
                                                    "side adds the points the offending side made"]
    assert table(sheet).foot[0][2::2] == ["0", "4"]


def test_no_deal_yet():
    sheet = ScoreSheet()
    assert sheet_html(sheet) == "<p>Todavía no hay ninguna mano que contar.</p>"
    assert status_line(sheet).message == ""


@pytest.mark.parametrize("change, message", [
    ({"piles": ["7o 6c", "7o 5b"]}, "Revisa los datos: el siete de oros está en dos montones"),
    ({"piles": ["7o 8c", "1o"]}, "Revisa los datos: «8c» no es una carta"),
    ({"piles": "7o 6c"}, "Revisa los datos: da un montón de cartas por bando"),
    # never "2, 3 o 4 bandos": four players play as two teams
    ({"piles": ["1o"]}, "Revisa los datos: una mano se cuenta para 2 bandos (dos jugadores, o cuatro por parejas) "
                        "o para 3 (tres jugadores)"),
    ({"escobas": [1]}, "Revisa los datos: escobas: un número entero por bando"),
    ({"escobas": "two"}, "Revisa los datos: escobas: un número entero por bando"),
    ({"totals": [1, 2, 3]}, "Revisa los datos: totales de la partida: un número entero por bando"),
    ({"totals": ["1", 2]}, "Revisa los datos: totales de la partida: un número entero por bando"),
    ({"score": "6-0"}, "Revisa los datos: esto no es el recuento de una mano"),
    ({"rules": "poker"}, "Revisa los datos: no hay reglas con ese nombre"),
    ({"facts": "none"}, "Revisa los datos: los datos de la mano no son válidos"),
])
def test_bad_input_is_explained_and_keeps_the_sheet(change, message):
    sheet = ScoreSheet(piles=SIX_POINTS, escobas=[2, 0], totals=[6, 0])
    before = sheet_html(sheet)
    for name, value in change.items():
        setattr(sheet, name, value)  # never raises
    assert status_line(sheet).message.startswith(message)
    assert sheet_html(sheet) == before


def test_several_inputs_at_once_and_recovery():
    sheet = ScoreSheet(piles=SIX_POINTS, escobas=[2, 0])
    sheet.set_deal(piles=["7o", "1c", "2c"], escobas=[0, 0, 1])  # three sides at once: never a half-made state
    assert sheet.model.error == {} and len(sheet.model.deal.points) == 3
    assert table(sheet).head[0] == ["Punto", "Bando 1", "Bando 2", "Bando 3", "Por qué"]
    with pytest.raises(TypeError):
        sheet.set_deal(pile=["7o"])  # a misspelt input name is a programming error


def test_the_language_switch():
    sheet = ScoreSheet(piles=SIX_POINTS, escobas=[2, 0], names=["Ana", "Luis"])
    sheet.lang = "en"
    rows = body(sheet)
    assert rows["Seven of coins"] == ["yes", "1", "no", "0", "Ana has the seven of coins"]
    assert table(sheet).caption == "Points for the deal" and "Points for the deal" in html_with(sheet, "<h3").value
    # said once on the screen: the caption (the table's name for screen readers) is not drawn under the heading
    assert "caption{position:absolute;width:1px;height:1px;overflow:hidden" in sheet_html(sheet)
    with pytest.raises(Exception, match="choose es"):
        sheet.lang = "fr"


def test_the_sheet_agrees_with_score_deal():
    piles, escobas = ["7o 7c 7e 6b", "1o 2c"], [0, 3]
    sheet = ScoreSheet(piles=piles, escobas=escobas)
    assert sheet.model.deal == score_deal(piles, escobas)
    assert [row[0] for row in table(sheet).body] == ["Escobas", "Cartas", "Oros", "Siete de oros", "Setenta"]
    assert table(sheet).foot[0][2::2] == ["3", "3"]  # 1 + 1 + 1 against 3 escobas


def test_positional_arguments_in_the_documented_order():
    sheet = ScoreSheet(None, SIX_POINTS, [2, 0], ["Ana", "Luis"], "escoba", "en")
    assert table(sheet).head[0] == ["Point", "Ana", "Luis", "Why"] and sheet.model.deal.points == (6, 0)


def test_names_inside_a_sentence_read_as_part_of_it():
    piles = ["1o 2o 3o 4o 5o 6o 7o 10o 11o 12o 1c 2c 3c 4c 5c 6c 7c 10c 11c 12c",
             "1e 2e 3e 4e 5e 6e 7e 10e 11e 12e 1b 2b 3b 4b 5b 6b 7b 10b 11b 12b"]
    sheet = ScoreSheet(piles=piles, escobas=[0, 0], rules="escoba+ties_both_score", names=["Tú", "El ordenador"],
                       you=0)
    rows = body(sheet)
    # not «puntúan Tú y El ordenador», nor the stiff «puntuáis el ordenador y tú»
    assert rows["Cartas"][-1] == "empate a 20: el punto es para ti y para el ordenador"
    assert rows["Siete de oros"][-1] == "tienes el siete de oros"  # not «Tú tiene»
    sheet.names, sheet.lang = ["You", "The computer"], "en"
    assert body(sheet)["Cards"][-1] == "tie at 20: the computer and you each score"
    assert body(sheet)["Seven of coins"][-1] == "you have the seven of coins"  # not "You has"


def test_a_setenta_missing_two_suits_says_or_after_no_in_english():
    """"invalid: no cups and clubs" read as "no card that is both": after a negative, English joins with "or";
    Spanish says what is missing, with «y»."""
    from escoba_tutor.engine.scoring import setenta
    from escoba_tutor.text.translator import Translator
    from escoba_tutor.widgets.score_sheet import setenta_text

    pile = setenta("7o 6e 1o")
    assert setenta_text(Translator("en"), pile) == "invalid: no cups or clubs"
    assert setenta_text(Translator("es"), pile) == "inválida: faltan copas y bastos"


@pytest.mark.parametrize("lang, said, broken", [
    ("es", "tienes el siete de oros", "tú tiene"),
    ("en", "you have the seven of coins", "you has"),
])
def test_the_students_own_label_takes_the_second_person_even_unnamed_as_you(lang, said, broken):
    """A sheet given the student's own label among its names, without saying which side is "you": the student's
    label alone chooses the second-person sentences («tienes», "You have"), never «tú tiene» / "you has"."""
    from escoba_tutor.text import labels
    from escoba_tutor.text.translator import Translator

    _ = Translator(lang)
    sheet = ScoreSheet(piles=["7o 6c 1e 5b 7c", "6o 2e 3b"], escobas=[0, 0], lang=lang,
                       names=[labels.you(_), labels.computer(_)])
    text = sheet_html(sheet)
    assert said in text and broken not in text.lower()
    assert _("You have") in text
