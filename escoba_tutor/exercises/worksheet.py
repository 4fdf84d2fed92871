"""Printable worksheets: the drills of the course on paper, with a separate answer key.

``escoba-tutor worksheet --seed S --lang es`` writes one self-contained HTML page (no file, font or script
from elsewhere): ``count`` exercises of each kind of drill (find every capture, work out the setenta, who gets
each point, the leftover, the escoba de mano, which card to play, the escobas line, who wins the game) from the
same generators as the ``Drill`` widget (:mod:`escoba_tutor.exercises`), so exercise N on paper is exercise N in
the course, where a learner can check it. Then, after a page break when printed, the answer key, worked out by
the engine. Each kind writes its own part (its :class:`escoba_tutor.exercises.WorksheetPart`); this page puts
them together.

A page, not a widget: this module imports no widget library (the command starts fast, and prints without a
kernel). Its words are in the exercises' message catalog (``text/locale/<lang>/LC_MESSAGES/exercises.po``).

>>> page = worksheet_html(7, "en", count=1)
>>> page == worksheet_html(7, "en", count=1)               # the same seed, the same page
True
>>> page.index("Exercise no. 7") < page.index("class='answers'") < page.index("Answer key")
True
"""

from __future__ import annotations

from html import escape

from ..engine.errors import EscobaError
from ..engine.rules import ESCOBA, Rules, as_rules
from ..text.translator import Translator
from . import paper
from .common import MAX_SEED
from .registry import kind, kinds_for, make_drill

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
    return seed, Translator(str(lang)), count


def worksheet_html(seed: int, lang: str = "es", count: int = 3, rules: Rules | str = ESCOBA,
                   kinds: tuple[str, ...] | None = None) -> str:
    """The worksheet for ``seed`` (the first exercise number; each kind uses ``seed`` to ``seed + count - 1``)
    in ``lang`` under ``rules``, as one HTML page: by default every kind of drill these rules have (``kinds``
    chooses some). The same arguments always give the same page."""
    seed, _, count = _check(seed, lang, count)
    rules = as_rules(rules)
    available = kinds_for(rules)
    kinds = available if kinds is None else tuple(kinds)
    unknown = [k for k in kinds if k not in available]
    if unknown or not kinds:
        raise EscobaError(f"no worksheet part {str(unknown[:1])[:30]}: choose from {', '.join(available)}",
                          code="bad_kind")
    drills = {name: [make_drill(name, s, rules) for s in range(seed, seed + count)] for name in kinds}

    title = _("Escoba: worksheet no. {seed}", seed=seed)
    rules_line = _("Rules: {rules}", rules=rules.name)
    name_label, date_label = _("Name:"), _("Date:")
    note = _("Each exercise has a number: the practice exercises of the course show the same exercise with that "
             "number, and check your answer.")
    html = [f'<!DOCTYPE html>\n<html lang="{_.lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n<header>"
            f"<h1>{escape(title)}</h1><p class='meta'>{escape(rules_line)}</p>"
            f"<p class='meta'>{escape(name_label)} <span class='fill'></span> {escape(date_label)} "
            f"<span class='fill'></span></p><p class='note'>{escape(note)}</p></header>\n<main>"]
    headings = {}
    for number, name in enumerate(kinds, 1):
        part = kind(name).worksheet
        headings[name] = f"{number}. {paper.word(_, part.heading)}"
        said = part.intro(_, rules)
        tasks = "".join(part.task(_, d) for d in drills[name])
        html.append(f"<section class='part' id='{name}'><h2>{escape(headings[name])}</h2><p>{escape(said)}</p>"
                    f"<ol class='exercises'>{tasks}</ol></section>\n")
    html.append("</main>\n")
    key_title = _("Answer key")
    key_note = _("Worked out by the escoba-tutor engine, for worksheet no. {seed}.", seed=seed)
    html.append(f"<section class='answers'><h1>{escape(key_title)}</h1><p class='note'>{escape(key_note)}</p>")
    for name in kinds:
        answers = "".join(kind(name).worksheet.answer(_, d) for d in drills[name])
        html.append(f"<h2>{escape(headings[name])}</h2><ol>{answers}</ol>")
    html.append("</section>\n</body>\n</html>\n")
    return "".join(html)

