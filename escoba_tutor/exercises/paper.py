"""The printed worksheet's building blocks, shared by the kinds' parts (each kind writes its own exercise and
answer with them: see :class:`escoba_tutor.exercises.kind.WorksheetPart`).

A page, not a widget: HTML for paper, with the words of the exercises' catalog. The words are said in Python
(the catalogs' extractor reads Python's ``_()`` and ``N_()`` calls, not templates); the markup is Jinja with
autoescape on, so every word and value is escaped where a template places it. One environment renders it all:
the page (``templates/worksheet.html.j2``), the shared pieces (:data:`PIECES`) and each kind's part.

The pieces and the kinds' parts are macros, written one tag a line for the reader: in them a line break and the
indentation after it are left out of the page (write a space where the page has one).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from ..engine.cards import SUITS, Card
from ..text import labels
from ..text.labels import Label
from ..text.phrases import and_list
from ..text.translator import N_, Translator

if TYPE_CHECKING:
    from jinja2 import Environment, Template

__all__ = ["word", "side_names", "player_names", "two_players", "names_of", "value_sum", "rank", "PIECES", "part",
           "page"]


def word(_: Translator, message: str, **params: object) -> str:
    """A message chosen at run time from ids marked with ``N_`` (the extractor only reads literal ids)."""
    return _(message, **params)


def side_names(_: Translator, sides: int) -> list[Label]:
    """Side 1, side 2...: labels, with the forms a sentence needs (:mod:`escoba_tutor.text.labels`)."""
    return [labels.side(_, i + 1) for i in range(sides)]


def player_names(_: Translator, players: int) -> list[Label]:
    """Player 1, player 2...: who deals and plays a card. In a game of two each player is a side, but a side
    scores points, and a player deals and plays («juega el jugador 2», never «juega el bando 2»)."""
    return [labels.player(_, i + 1) for i in range(players)]


# What each card counts in a sum of 15: said on paper wherever a sum is asked, as the setenta part prints its own
# (other) values and a pupil working on paper has no screen to look them up.
_CAPTURE_VALUES = N_("Each card counts its capture value: ace 1, 2 to 7 as printed, jack 8, knight 9, king 10.")


def capture_values(_: Translator) -> str:
    return word(_, _CAPTURE_VALUES)


def two_players(_: Translator) -> str:
    """Who is which side in a game of two, said once where an exercise names players and asks for sides: "Two
    players are playing: Player 1 is Side 1 and Player 2 is Side 2." (three players and teams say it their way)."""
    players, sides = player_names(_, 2), side_names(_, 2)
    return _("Two players are playing: {first_player} is {first_side} and {second_player} is {second_side}.",
             first_player=players[0], first_side=sides[0], second_player=players[1], second_side=sides[1])


def names_of(_: Translator, cards: Iterable[Card]) -> str:
    """Cards by name, as a list in the language: «siete de oros, as de copas y rey de bastos» (no codes)."""
    return and_list(_, [_.card_name(c) for c in cards])


def value_sum(_: Translator, cards: Iterable[Card]) -> str:
    """``jack (8) + 3 + knight (9) + king (10) = 30``: the cards' values added up, a face card with its value in
    brackets, as the course writes it for the 15 (its printed number would be misread as the value)."""
    shown = tuple(cards)
    terms = (_("{figure} ({value})", figure=_.rank_name(c.rank), value=c.value) if c.is_figure else str(c.value)
             for c in shown)
    return " + ".join(terms) + f" = {sum(c.value for c in shown)}"


def rank(_: Translator, card: Card) -> str:
    """A card's rank as a table by suit shows it: the ace and the face cards by name (as the key and the setenta's
    values name them: a pupil reading "1" would look up the value 1), the others by number."""
    return _.rank_name(card.rank) if card.is_figure or card.rank == 1 else str(card.rank)


# ------------------------------------------------------------------------------------------ the shared pieces
#: The pieces every kind's part may use, as ``paper.<piece>(...)``: a card (its name and code), a row of cards
#: ("nothing" when there is none; commas between them and the code in brackets, so that the page copied as plain
#: text still reads «sota de espadas (10e), cinco de oros (5o)»), the piles as a table by suit (the ranks held, the
#: number of cards and, given ``escobas``, the escobas made), a table of boxes to tick (a row per question, a box
#: per choice), a blank line to write on after its label, and an exercise's number (``number``) or its number in
#: the answer key.
PIECES = """
{% macro card(card) -%}
  <span class="card">{{ said.card_name(card) }} <small>({{ card.code }})</small></span>
{%- endmacro %}

{#- each card with its comma in one unbreakable piece (``.in-row``: white-space nowrap): a line may break after a
    comma, never between a card and its comma #}
{% macro cards(shown) -%}
  {%- for one in shown -%}
    <span class="in-row">{{ card(one) }}{{ "," if not loop.last else "" }}</span>{{ " " if not loop.last else "" }}
  {%- else -%}{{ said.nothing }}{%- endfor -%}
{%- endmacro %}

{% macro by_suit(piles, names, escobas=none) %}
  <table><tr><th scope="col"></th>
    {% for name in names %}<th scope="col">{{ name }}</th>{% endfor %}
  </tr>
  {% for suit in suits %}
    <tr><th scope="row">{{ said.suit_name(suit) }}</th>
      {% for pile in piles %}
        <td>
          {% for held in pile|sort(attribute="rank") if held.suit is sameas suit %}
            {{ ", " if not loop.first else "" }}{{ said.rank(held) }}
          {% else %}—{% endfor %}
        </td>
      {% endfor %}
    </tr>
  {% endfor %}
  <tr><th scope="row">{{ said.cards_in_pile }}</th>{% for pile in piles %}<td>{{ pile|length }}</td>{% endfor %}</tr>
  {% if escobas is not none %}
    <tr><th scope="row">{{ said.escobas_made }}</th>{% for made in escobas %}<td>{{ made }}</td>{% endfor %}</tr>
  {% endif %}
  </table>
{% endmacro %}

{% macro boxes(rows, columns) %}
  <table><tr><th scope='col'></th>{% for column in columns %}<th scope="col">{{ column }}</th>{% endfor %}</tr>
  {% for row in rows %}
    <tr><th scope="row">{{ row }}</th>{% for column in columns %}<td class='box'>☐</td>{% endfor %}</tr>
  {% endfor %}
  </table>
{% endmacro %}

{% macro blank(label) %}<p>{{ label }} <span class='fill'></span></p>{% endmacro %}

{% macro number(drill) %}<b>{{ said.number(drill) }}</b>{% endmacro %}

{% macro key_number(drill) %}<b>{{ said.key_number(drill) }}</b>{% endmacro %}
"""


class _Said:
    """What the shared pieces say, in one language (said here, in Python, where the extractor finds it)."""

    def __init__(self, _: Translator) -> None:
        self._ = _
        self.card_name, self.suit_name = _.card_name, _.suit_name
        self.nothing, self.cards_in_pile, self.escobas_made = _("nothing"), _("Cards in the pile"), _("Escobas made")

    def rank(self, card: Card) -> str:
        return rank(self._, card)

    def number(self, drill: Any) -> str:
        return self._("Exercise no. {seed}.", seed=drill.seed)

    def key_number(self, drill: Any) -> str:
        return self._("Exercise no. {seed}:", seed=drill.seed)


# ----------------------------------------------------------------------------------------------- the rendering
@cache
def _environment() -> Environment:
    # Jinja is imported on the first page, not with this module: the kinds import this module for its words, in
    # the browser's kernel too (the static site), which prints no worksheet and carries no Jinja.
    from jinja2 import Environment, PackageLoader, StrictUndefined

    environment = Environment(loader=PackageLoader("escoba_tutor.exercises", "templates"), autoescape=True,
                              undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              keep_trailing_newline=True)
    environment.globals["suits"] = SUITS
    return environment


@cache
def _macros(source: str) -> Template:
    """Macros written one tag a line: their line breaks, and the indentation after each, are not the page's."""
    return _environment().from_string(re.sub(r"\n\s*", "", source))


def part(template: str, _: Translator) -> Any:
    """A kind's part (the macros of its ``template``) ready to render in ``_``'s language: ``.task(drill,
    **words)`` and ``.answer(drill, **words)`` give markup. The shared pieces are there as ``paper``."""
    pieces = _macros(PIECES).make_module({"said": _Said(_)})
    return _macros(template).make_module({"paper": pieces})


def page(name: str, values: Mapping[str, object]) -> str:
    """The page template ``name`` (in ``templates/``) with ``values``."""
    return _environment().get_template(name).render(values)
