"""Printable worksheets: the drills of the course on paper, with a separate answer key.

``escoba-tutor worksheet --seed S --lang es`` writes one self-contained HTML page (no file, font or script
from elsewhere): ``count`` exercises of each kind (find every capture, work out the setenta, who gets each
point) from the same generators as the ``Drill`` widget (:mod:`escoba_tutor.drills`), so the exercise with
position number N on paper is position N in the course, where a learner can check it. Then, after a page
break when printed, the answer key, worked out by the engine.

The words come from this module's message catalogs (``locale/<lang>/LC_MESSAGES/worksheet.po``), like the
widgets'; the scoring reasons are the score sheet's own.

>>> page = worksheet_html(7, "en", count=1)
>>> page == worksheet_html(7, "en", count=1)               # the same seed, the same page
True
>>> page.index("Position no. 7") < page.index("class='answers'") < page.index("Answer key")
True
"""

from __future__ import annotations

from html import escape

from ..cards import SUITS, Card, format_cards
from ..drills import MAX_SEED, CaptureDrill, PointsDrill, SetentaDrill, capture_drill, points_drill, setenta_drill
from ..errors import EscobaError
from ..rules import ESCOBA, Rules, as_rules
from .capture_table import describe_sum
from .i18n import Translator
from .score_sheet import item_name, join_words, reason_text, setenta_text, side_names

__all__ = ["worksheet_html", "MAX_COUNT"]

MAX_COUNT = 20  # exercises of each kind

# Fixed colours and sizes, readable on screen and on paper; the answer key starts on a new page when printed.
_STYLE = """
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; color: #111; background: #fff; line-height: 1.45;
       max-width: 52em; margin: 1.5em auto; padding: 0 1em; }
h1 { font-size: 1.6em; margin: 0 0 .2em; }
h2 { font-size: 1.25em; border-bottom: 2px solid #333; padding-bottom: .15em; margin-top: 1.6em; }
.meta { margin: .2em 0; }
.fill { display: inline-block; min-width: 12em; border-bottom: 1px solid #333; }
.note { font-size: .92em; color: #333; }
ol.exercises > li { margin: 0 0 1.2em; break-inside: avoid; page-break-inside: avoid; }
.card { display: inline-block; border: 1px solid #444; border-radius: .3em; padding: 0 .35em; margin: .1em .15em;
        white-space: nowrap; background: #fffdf7; }
.card small { color: #444; }
.line { border-bottom: 1px solid #555; height: 1.7em; margin: .2em 0; }
table { border-collapse: collapse; margin: .4em 0; }
th, td { border: 1px solid #777; padding: .2em .5em; text-align: left; vertical-align: top; }
td.box { text-align: center; font-size: 1.1em; min-width: 4.5em; }
.answers h2:first-of-type { margin-top: .5em; }
.answers ol > li { margin-bottom: .8em; break-inside: avoid; page-break-inside: avoid; }
@media screen { .answers { margin-top: 3em; border-top: 4px double #333; padding-top: .5em; } }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 11pt; }
  .answers { break-before: page; page-break-before: always; }
  h2 { break-after: avoid; page-break-after: avoid; }
}
"""


def _check(seed: object, lang: object, count: object) -> tuple[int, Translator, int]:
    if type(count) is not int or not 1 <= count <= MAX_COUNT:
        raise EscobaError(f"a worksheet has 1 to {MAX_COUNT} exercises of each kind, not {count!r}"[:100],
                          code="bad_count")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED - count + 1:
        raise EscobaError(f"the seed must be from 0 to {MAX_SEED - count + 1} for {count} exercises, not {seed!r}"
                          [:120], code="bad_seed")
    return seed, Translator(lang), count


def _card(_: Translator, card: Card) -> str:
    return f'<span class="card">{escape(_.card_name(card))} <small>{escape(card.code)}</small></span>'


def _cards(_: Translator, cards) -> str:
    return " ".join(_card(_, c) for c in cards)


def _rank(_: Translator, card: Card) -> str:
    return _.rank_name(card.rank) if card.is_figure else str(card.rank)


def _by_suit(_: Translator, piles, names: list[str], escobas=None) -> str:
    """The piles as a table: one row per suit (the ranks held), then the number of cards (and escobas)."""
    head = "".join(f'<th scope="col">{escape(n)}</th>' for n in names)
    rows = [f'<tr><th scope="col"></th>{head}</tr>']
    for suit in SUITS:
        cells = []
        for pile in piles:
            ranks = [_rank(_, c) for c in pile if c.suit is suit]
            cells.append(f"<td>{escape(', '.join(ranks)) if ranks else '—'}</td>")
        rows.append(f'<tr><th scope="row">{escape(_.suit_name(suit))}</th>{"".join(cells)}</tr>')
    # Text first, then markup: a _() call inside an f-string is not seen by the catalog extractor.
    counts, cards_label = "".join(f"<td>{len(p)}</td>" for p in piles), _("Cards in the pile")
    rows.append(f'<tr><th scope="row">{escape(cards_label)}</th>{counts}</tr>')
    if escobas is not None:
        marks, escobas_label = "".join(f"<td>{n}</td>" for n in escobas), _("Escobas made")
        rows.append(f'<tr><th scope="row">{escape(escobas_label)}</th>{marks}</tr>')
    return f"<table>{''.join(rows)}</table>"


# ------------------------------------------------------------------------------------------------ exercises
def _capture_task(_: Translator, drill: CaptureDrill) -> str:
    number = _("Position no. {seed}.", seed=drill.seed)
    you_play, table = _("You play:"), _("On the table:")
    return (f"<li><p><b>{escape(number)}</b> {escape(you_play)} {_card(_, drill.card)}</p>"
            f"<p>{escape(table)} {_cards(_, drill.table)}</p><div class='line'></div><div class='line'></div></li>")


def _setenta_task(_: Translator, drill: SetentaDrill) -> str:
    names = side_names(_, None, len(drill.piles))
    number = _("Position no. {seed}.", seed=drill.seed)
    labels = [_("Setenta of {side}:", side=name) for name in names]
    blanks = "".join(f"<p>{escape(label)} <span class='fill'></span></p>" for label in labels)
    return f"<li><p><b>{escape(number)}</b></p>{_by_suit(_, drill.piles, names)}{blanks}</li>"


def _points_task(_: Translator, drill: PointsDrill) -> str:
    names = side_names(_, None, len(drill.piles))
    number = _("Position no. {seed}.", seed=drill.seed)
    head = "".join(f'<th scope="col">{escape(n)}</th>' for n in [*names, _("Nobody")])
    rows = "".join(f'<tr><th scope="row">{escape(item_name(_, item))}</th>'
                   + "<td class='box'>☐</td>" * (len(names) + 1) + "</tr>" for item in drill.items)
    choose = _("Tick who gets each point:")
    return (f"<li><p><b>{escape(number)}</b></p>{_by_suit(_, drill.piles, names, drill.escobas)}"
            f"<p>{escape(choose)}</p><table><tr><th scope='col'></th>{head}</tr>{rows}</table></li>")


# -------------------------------------------------------------------------------------------------- answers
def _capture_answer(_: Translator, drill: CaptureDrill) -> str:
    number = _("Position no. {seed}:", seed=drill.seed)
    if not drill.answer:
        said = _("{card} takes nothing: it stays on the table.", card=_.card_name(drill.card))
        return f"<li><b>{escape(number)}</b> {escape(said)}</li>"
    lines = []
    for taken in drill.answer:
        taken = tuple(sorted(taken))
        total = describe_sum(_, drill.card, taken, drill.rules)
        escoba = len(taken) == len(drill.table)
        text = f"{drill.card.code} + {format_cards(taken)}: {total}"
        if escoba:
            text += " — " + _("escoba!")
        lines.append(f"<li>{escape(text)}</li>")
    found = _.plural("{n} capture:", "{n} captures:", len(drill.answer))
    return f"<li><b>{escape(number)}</b> {escape(found)}<ul>{''.join(lines)}</ul></li>"


def _setenta_answer(_: Translator, drill: SetentaDrill) -> str:
    names = side_names(_, None, len(drill.piles))
    number = _("Position no. {seed}:", seed=drill.seed)
    lines = []
    for name, value in zip(names, drill.answers):
        best = [_("{suit}: {card} ({value})", suit=_.suit_name(b.suit), card=_.card_name(b.card), value=b.value)
                for b in value.best if b.card is not None]
        result = _("setenta {total}", total=value.total) if value.total is not None else setenta_text(_, value)
        lines.append(f"<li>{escape(name)}: {escape('; '.join(best))} → <b>{escape(result)}</b></li>")
    return f"<li><b>{escape(number)}</b><ul>{''.join(lines)}</ul></li>"


def _points_answer(_: Translator, drill: PointsDrill) -> str:
    names = side_names(_, None, len(drill.piles))
    number = _("Position no. {seed}:", seed=drill.seed)
    lines = []
    for item in drill.items:
        winners = drill.expected(item)
        who = join_words(_, [names[i] for i in winners]) if winners else _("Nobody")
        try:
            why = reason_text(_, drill.answer.line(item), names)
        except KeyError:  # a bonus line is reported only when someone earns it
            why = _("nobody earns it this time")
        lines.append(f"<li><b>{escape(item_name(_, item))}</b>: {escape(who)} — {escape(why)}</li>")
    totals = "; ".join(f"{name}: {points}" for name, points in zip(names, drill.answer.points))
    total = _("Points of the deal, escobas included: {totals}.", totals=totals)
    return f"<li><b>{escape(number)}</b><ul>{''.join(lines)}</ul><p>{escape(total)}</p></li>"


# ------------------------------------------------------------------------------------------------------ page
def worksheet_html(seed: int, lang: str = "es", count: int = 3, rules: Rules | str = ESCOBA) -> str:
    """The worksheet for ``seed`` (the first position number; each kind uses ``seed`` to ``seed + count - 1``)
    in ``lang`` under ``rules``, as one HTML page. The same arguments always give the same page."""
    seed, _, count = _check(seed, lang, count)
    rules = as_rules(rules)
    seeds = range(seed, seed + count)
    captures = [capture_drill(s, rules) for s in seeds]
    setentas = [setenta_drill(s, rules=rules) for s in seeds]
    points = [points_drill(s, rules) for s in seeds]

    title = _("Escoba: worksheet no. {seed}", seed=seed)
    fifteen = rules.capture == "fifteen"
    parts_text = {
        "captures": (_("1. Find every capture"),
                     _("Write every capture the card you play can make: the table cards that add up to 15 with it. "
                       "If it can make none, write “nothing”.") if fifteen else
                     _("Write every capture the card you play can make: the table cards that add up to its own value "
                       "(an equal card must be taken alone). If it can make none, write “nothing”.")),
        "setenta": (_("2. Work out the setenta"),
                    _("For each side: the best card of each suit (7 = 21, 6 = 18, ace = 16, 5 = 15, 4 = 14, 3 = 13, "
                      "2 = 12, jack, knight and king = 10), then the sum of the four. Write “invalid” if a suit is "
                      "missing.")),
        "points": (_("3. Who gets each point?"),
                   _("The piles of a real deal, by suit. For each point, tick the side that gets it, or “Nobody” "
                     "for a tie.")),
    }
    rules_line = _("Rules: {rules}", rules=rules.name)
    name_label, date_label = _("Name:"), _("Date:")
    note = _("Each exercise has a position number: the practice exercises of the course show the same position "
             "with that number, and check your answer.")
    html = [f'<!DOCTYPE html>\n<html lang="{_.lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n<header>"
            f"<h1>{escape(title)}</h1><p class='meta'>{escape(rules_line)}</p>"
            f"<p class='meta'>{escape(name_label)} <span class='fill'></span> {escape(date_label)} "
            f"<span class='fill'></span></p><p class='note'>{escape(note)}</p></header>\n<main>"]
    for key, tasks in (("captures", [_capture_task(_, d) for d in captures]),
                       ("setenta", [_setenta_task(_, d) for d in setentas]),
                       ("points", [_points_task(_, d) for d in points])):
        heading, text = parts_text[key]
        html.append(f"<section class='part' id='{key}'><h2>{escape(heading)}</h2><p>{escape(text)}</p>"
                    f"<ol class='exercises'>{''.join(tasks)}</ol></section>\n")
    html.append("</main>\n")
    key_title = _("Answer key")
    key_note = _("Worked out by the escoba-tutor engine, for worksheet no. {seed}.", seed=seed)
    html.append(f"<section class='answers'><h1>{escape(key_title)}</h1><p class='note'>{escape(key_note)}</p>")
    for key, answers in (("captures", [_capture_answer(_, d) for d in captures]),
                         ("setenta", [_setenta_answer(_, d) for d in setentas]),
                         ("points", [_points_answer(_, d) for d in points])):
        html.append(f"<h2>{escape(parts_text[key][0])}</h2><ol>{''.join(answers)}</ol>")
    html.append("</section>\n</body>\n</html>\n")
    return "".join(html)
