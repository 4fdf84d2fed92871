"""The printed worksheet's building blocks, shared by the kinds' parts (each kind writes its own exercise and
answer with them: see :class:`escoba_tutor.exercises.kind.WorksheetPart`).

A page, not a widget: HTML for paper, with the words of the exercises' catalog.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from ..engine.cards import SUITS, Card
from ..text.phrases import and_list
from ..text.translator import Translator

__all__ = ["word", "side_names", "join", "card_html", "names_of", "cards_html", "rank", "by_suit", "the",
           "the_cards", "boxes", "blank", "number", "key_number"]


def word(_: Translator, message: str, **params: object) -> str:
    """A message chosen at run time from ids marked with ``N_`` (the extractor only reads literal ids)."""
    return _(message, **params)


def side_names(_: Translator, sides: int) -> list[str]:
    return [_("Side {n}", n=i + 1) for i in range(sides)]


def join(_: Translator, words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    first, last = ", ".join(words[:-1]), words[-1]
    return _("{first} and {last}", first=first, last=last)


def card_html(_: Translator, card: Card) -> str:
    return f'<span class="card">{escape(_.card_name(card))} <small>{escape(card.code)}</small></span>'


def names_of(_: Translator, cards: Iterable[Card]) -> str:
    """Cards by name, as a list in the language: «siete de oros, as de copas y rey de bastos» (no codes)."""
    return and_list(_, [_.card_name(c) for c in cards])


def cards_html(_: Translator, cards: Iterable[Card]) -> str:
    return " ".join(card_html(_, c) for c in cards) or escape(_("nothing"))


def rank(_: Translator, card: Card) -> str:
    return _.rank_name(card.rank) if card.is_figure else str(card.rank)


def by_suit(_: Translator, piles: Sequence[Sequence[Card]], names: list[str],
            escobas: Sequence[int] | None = None) -> str:
    """The piles as a table: one row per suit (the ranks held), then the number of cards (and escobas)."""
    head = "".join(f'<th scope="col">{escape(n)}</th>' for n in names)
    rows = [f'<tr><th scope="col"></th>{head}</tr>']
    for suit in SUITS:
        cells = []
        for pile in piles:
            ranks = [rank(_, c) for c in pile if c.suit is suit]
            cells.append(f"<td>{escape(', '.join(ranks)) if ranks else '—'}</td>")
        rows.append(f'<tr><th scope="row">{escape(_.suit_name(suit))}</th>{"".join(cells)}</tr>')
    # Text first, then markup: a _() call inside an f-string is not seen by the catalog extractor.
    counts, cards_label = "".join(f"<td>{len(p)}</td>" for p in piles), _("Cards in the pile")
    rows.append(f'<tr><th scope="row">{escape(cards_label)}</th>{counts}</tr>')
    if escobas is not None:
        marks, escobas_label = "".join(f"<td>{n}</td>" for n in escobas), _("Escobas made")
        rows.append(f'<tr><th scope="row">{escape(escobas_label)}</th>{marks}</tr>')
    return f"<table>{''.join(rows)}</table>"


def the(_: Translator, card: Card) -> str:
    """A card's name with its article: «el rey de bastos», «la sota de espadas» (the sota is the one feminine
    name), "the king of clubs"."""
    if card.rank == 10:
        return _("the {jack}", jack=_.card_name(card))
    return _("the {card}", card=_.card_name(card))


def the_cards(_: Translator, cards: Iterable[Card]) -> str:
    return join(_, [the(_, c) for c in cards])


def boxes(_: Translator, rows: list[str], columns: list[str]) -> str:
    """A table to tick: one row per question, one box per choice."""
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in columns)
    body = "".join(f'<tr><th scope="row">{escape(r)}</th>' + "<td class='box'>☐</td>" * len(columns) + "</tr>"
                   for r in rows)
    return f"<table><tr><th scope='col'></th>{head}</tr>{body}</table>"


def blank(label: str) -> str:
    return f"<p>{escape(label)} <span class='fill'></span></p>"


def number(_: Translator, drill: Any) -> str:
    said = _("Exercise no. {seed}.", seed=drill.seed)
    return f"<b>{escape(said)}</b>"


def key_number(_: Translator, drill: Any) -> str:
    said = _("Exercise no. {seed}:", seed=drill.seed)
    return f"<b>{escape(said)}</b>"
