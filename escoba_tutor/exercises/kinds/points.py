"""Who gets each point: the piles and escobas of a real end of deal, scored item by item (docs/rules.md §5).

>>> from escoba_tutor import score_deal
>>> p = points_drill(0)
>>> p.answer == score_deal(p.piles, p.escobas)     # a real deal, scored by the engine
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...engine.cards import Card
from ...engine.errors import EscobaError
from ...engine.game import DealRecord, Game
from ...engine.rules import ESCOBA, Rules, as_rules
from ...engine.scoring import DealScore, ScoreLine, Setenta
from ...text import labels
from ...text.phrases import and_list
from ...text.translator import N_, Translator
from .. import given as giving
from .. import paper
from ..common import (
    check_seed,
    seeded,
)
from ..kind import DrillKind, Outcome, Variety, WorksheetPart

#: The item of the fifth point for each ``Rules.primera``.
PRIMERA_ITEM = {"setenta": "setenta", "suit_count": "primera", "sevens": "sevens"}


def points_items(rules: Rules | str = ESCOBA) -> tuple[str, ...]:
    """The scoring items a learner is asked about (who gets each point) under ``rules``, in scoring order.

    The escobas are not asked: they are part of the position (each side's count is given).

    >>> points_items()
    ('cards', 'oros', 'siete_de_oros', 'setenta')
    >>> points_items("scopa+figuras")
    ('cards', 'oros', 'siete_de_oros', 'primera', 'figuras')
    """
    rules = as_rules(rules)
    items = ["cards"]
    if rules.cards_bonus:
        items.append("cards_bonus")
    items += ["oros", "siete_de_oros", PRIMERA_ITEM[rules.primera]]
    if rules.all_sevens_bonus:
        items.append("all_sevens")
    if rules.figuras:
        items.append("figuras")
    return tuple(items)


@dataclass(frozen=True)
class PointsCheck:
    """One item of a points drill, judged: the sides the learner gave it to and the sides that get it (``()``:
    nobody), with the engine's line (None when the item did not come up, e.g. no cards bonus)."""

    item: str
    ok: bool
    given: tuple[int, ...] | None
    expected: tuple[int, ...]
    line: object


@dataclass(frozen=True)
class PointsDrill:
    """A real end of deal: each side's pile and escobas. Who gets each point? ``answer`` is the engine's
    :class:`DealScore` of the deal, ``record`` the whole deal as the game played it."""

    kind = "points"
    seed: int
    rules: Rules
    piles: tuple[tuple[Card, ...], ...]
    escobas: tuple[int, ...]
    answer: DealScore
    record: DealRecord

    @property
    def items(self) -> tuple[str, ...]:
        return points_items(self.rules)

    def expected(self, item: str) -> tuple[int, ...]:
        """The sides that score ``item`` (empty: nobody)."""
        if item not in self.items:
            raise EscobaError(f"{item!r} is not asked in this drill: the items are {', '.join(self.items)}",
                              code="bad_item")
        try:
            return tuple(self.answer.line(item).winners)
        except KeyError:  # a bonus line appears only when someone earns it
            return ()

    def check(self, choices: Mapping[str, Iterable[int]]) -> tuple[PointsCheck, ...]:
        """Judge the learner's choices: item -> the sides they give it to (empty: nobody). An item left out
        counts as unanswered (``given`` None is never right).

        >>> drill = points_drill(0)
        >>> [c.ok for c in drill.check({item: drill.expected(item) for item in drill.items})]
        [True, True, True, True]
        """
        results = []
        for item in self.items:
            chosen = choices.get(item)
            given = None if chosen is None else tuple(sorted(chosen))
            expected = self.expected(item)
            try:
                line = self.answer.line(item)
            except KeyError:
                line = None
            results.append(PointsCheck(item, given == expected, given, expected, line))
        return tuple(results)


def points_drill(seed: int, rules: Rules | str = ESCOBA) -> PointsDrill:
    """Two piles and escobas from a real deal: a 2-player game from ``seed`` played with random legal moves
    until its first deal ends, with that deal's score.

    >>> drill = points_drill(1)
    >>> drill.escobas == drill.record.escobas and sum(len(p) for p in drill.piles) <= 40
    True
    >>> drill.answer == drill.record.score
    True
    """
    seed, rules = check_seed(seed), as_rules(rules)
    game = Game(players=2, rules=rules, seed=seed)
    rng = seeded("points", seed)
    while not game.deals:
        game.play(rng.choice(game.legal_moves()))
    record = game.deals[0]
    return PointsDrill(seed, rules, tuple(tuple(sorted(p)) for p in record.piles), record.escobas, record.score,
                       record)


# ------------------------------------------------------------------------------------------------ worksheet
# The scoring items and the reasons of a score line, in this page's own words (a page has its own catalog).
_ITEMS = {
    "escobas": N_("Escobas"), "cards": N_("Cards"), "cards_bonus": N_("Cards bonus"), "oros": N_("Coins"),
    "siete_de_oros": N_("Seven of coins"), "setenta": N_("Setenta"), "primera": N_("Primera (by suits)"),
    "sevens": N_("Most sevens"), "all_sevens": N_("All four sevens"), "figuras": N_("Most face cards"),
}


_MOST = {"cards": N_("{winner} has the most cards ({values})"), "oros": N_("{winner} has the most coins ({values})"),
         "setenta": N_("{winner} has the best setenta ({values})"),
         "primera": N_("{winner} has the best primera ({values})"),
         "sevens": N_("{winner} has the most sevens ({values})"),
         "figuras": N_("{winner} has the most face cards ({values})")}


_ONLY_VALID_SETENTA = N_("{winner} has the only valid setenta ({values})")
# A point nobody gets is said after "Nobody —" in the key: its reason never says "nobody" again.
_REASONS = {
    "count": N_("one point for each escoba"), "more_suits": N_("{winner} has cards in the most suits ({values})"),
    "tie": N_("a {values} tie"), "tie_both_score": N_("a tie ({values}): one point each for {winner}"),
    # three sides: which share the top, each value with its side ("5–5–2" hid who tied)
    "tie_of_three_sides": N_("a tie at the top between {tied} ({values})"),
    "third_side": N_("a tie at the top ({values}): the point goes to {winner}"),
    "holds": N_("{winner} holds the seven of coins"),
    "all_invalid": N_("no side has a card of every suit"),
    # (the low-cards house rule) a side may hold every suit, one of them only in face cards, which do not count
    "all_invalid_low": N_("no side has a card from 1 to 7 in every suit (face cards do not count with this house "
                          "rule)"),
    "all_oros": N_("{winner} has all ten coins: 2 points"),
    "others_below_10": N_("{winner} has the most cards and every other side has fewer than 10: 1 extra point"),
    "all_four": N_("{winner} has all four sevens"),
}
# (two sides, as in a team game: the other one is named, where "every other side" had the pupil look for more)
_OTHER_BELOW_10 = N_("{winner} has the most cards and {other} has fewer than 10: 1 extra point")
# The point nobody holds: the seven of coins, or all four sevens.
_NOBODY_HOLDS = {"siete_de_oros": N_("the seven of coins is in no pile"), "all_sevens": N_("no side has all four")}
# Why the expert plays a move (escoba_tutor.players.hints' reason codes), for the strategy key.


def _line_value(_: Translator, line: ScoreLine, side: int) -> str:
    value = line.values[side]
    if line.item == "siete_de_oros":
        return _("yes") if value else _("no")
    if isinstance(value, Setenta):
        if line.item == "primera":
            return _.plural("{n} suit, {total}", "{n} suits, {total}", value.suit_count, total=value.sum)
        return str(value.total) if value.total is not None else _("invalid")
    return str(value)


def _reason(_: Translator, line: ScoreLine, names: list[labels.Label]) -> str:
    winner = labels.joined(_, [names[i] for i in line.winners])
    values = "–".join(_line_value(_, line, i) for i in range(len(line.values)))
    # Beside a winner, each value with its side: "Side 2 has the best setenta (Side 1: 71; Side 2: 81)", never
    # "(71 – 81)", where the winner's value could be read as the first.
    named = "; ".join(_("{side}: {points}", side=names[i], points=_line_value(_, line, i))
                      for i in range(len(line.values)))
    if (line.reason == "most" and line.item == "setenta"
            and sum(isinstance(v, Setenta) and v.total is not None for v in line.values) == 1):
        return paper.word(_, _ONLY_VALID_SETENTA, winner=winner, values=named)  # ("best" of one is no comparison)
    if line.reason == "most" and line.item in _MOST:
        return paper.word(_, _MOST[line.item], winner=winner, values=named)
    if line.reason == "more_suits":
        return paper.word(_, _REASONS["more_suits"], winner=winner, values=named)
    if line.reason == "tie" and len(line.values) > 2:
        return paper.word(_, _REASONS["tie_of_three_sides"], values=named,
                          tied=labels.joined(_, [names[i] for i in line.top_sides]))
    if line.reason == "nobody_holds" and line.item in _NOBODY_HOLDS:
        return paper.word(_, _NOBODY_HOLDS[line.item])
    if line.reason == "others_below_10" and len(line.values) == 2:
        other = names[1 - line.winners[0]]
        return paper.word(_, _OTHER_BELOW_10, winner=winner, other=other)
    if line.reason in _REASONS:
        return paper.word(_, _REASONS[line.reason], winner=winner, values=values)
    return line.reason


def _item(_: Translator, item: str) -> str:
    return paper.word(_, _ITEMS[item]) if item in _ITEMS else item.replace("_", " ")


# An item named inside a sentence, after a colon: "Points no longer scored: the setenta" («la setenta»).
_IN_SENTENCE = {
    "escobas": N_("escobas"), "cards": N_("most cards"), "cards_bonus": N_("cards bonus"), "oros": N_("most coins"),
    "siete_de_oros": N_("the seven of coins"), "setenta": N_("the setenta"), "primera": N_("the primera (by suits)"),
    "sevens": N_("most sevens"), "all_sevens": N_("all four sevens"), "figuras": N_("most face cards"),
}


#: The items :func:`item_in_sentence` has words for.
SENTENCE_ITEMS = frozenset(_IN_SENTENCE)


def item_in_sentence(_: Translator, item: str) -> str:
    """A scoring item named inside a sentence (lowercase, with its article where the language wants one)."""
    return paper.word(_, _IN_SENTENCE[item]) if item in _IN_SENTENCE else item.replace("_", " ")


# (the house-rules key says why its points change in these same words)
item_words, reason_words, value_words = _item, _reason, _line_value


_SHEET = """
{% macro task(drill, names, choose, items, choices, blanks) %}
  <li><p>{{ paper.number(drill) }}</p>{{ paper.by_suit(drill.piles, names, drill.escobas) }}
  <p>{{ choose }}</p>{{ paper.boxes(items, choices) }}
  {% for label in blanks %}{{ paper.blank(label) }}{% endfor %}</li>
{% endmacro %}

{% macro answer(drill, lines, total) %}
  <li>{{ paper.key_number(drill) }}<ul>
  {% for item, who, why in lines %}<li><b>{{ item }}:</b> {{ who }} — {{ why }}</li>{% endfor %}
  </ul><p>{{ total }}</p></li>
{% endmacro %}
"""


def _points_task(_: Translator, drill: PointsDrill) -> dict[str, object]:
    names = paper.side_names(_, len(drill.piles))
    # (the key adds up each side's points for the deal: asked here, so that the key answers a question)
    blanks = [_("{side}'s points for the deal, escobas included:", side=name) for name in names]
    return {"names": names, "choose": _("Tick who gets each point:"), "items": [_item(_, i) for i in drill.items],
            "choices": [*names, _("Nobody")], "blanks": blanks}


def _points_answer(_: Translator, drill: PointsDrill) -> dict[str, object]:
    """Who gets each point and why, then the points of the deal."""
    names = paper.side_names(_, len(drill.piles))
    lines = []
    for item in drill.items:
        winners = drill.expected(item)
        who = and_list(_, [names[i] for i in winners]) if winners else _("Nobody")
        try:
            why = _reason(_, drill.answer.line(item), names)
        except KeyError:  # a bonus line is reported only when someone earns it (said after "Nobody —")
            why = _("not earned in this deal")
        lines.append((_item(_, item), who, why))
    totals = "; ".join(f"{name}: {points}" for name, points in zip(names, drill.answer.points))
    return {"lines": lines, "total": _("Points for the deal, escobas included: {totals}.", totals=totals)}


def _outcome(result: Any) -> Outcome:
    if all(c.given is None for c in result):
        return None
    if all(c.ok for c in result):
        return True, None
    wrong = [c.item for c in result if not c.ok and c.given is not None]
    return False, (wrong[0] if wrong else "unanswered")


def _intro(_: Translator, rules: Rules) -> str:
    return _("The piles at the end of one deal, by suit. For each point, tick the side that gets it, or “Nobody” "
             "for a tie (or, for the setenta, when no setenta is valid).")



def _given(_: Translator, drill: PointsDrill, given: giving.Given) -> str:
    """Who each point was given to: «Most coins: Side 1 · Setenta: Nobody»."""
    names = paper.side_names(_, len(drill.piles))
    return giving.joined([giving.said(_, _item(_, item), giving.side(_, given, item, names)) for item in drill.items])


def _shape(drill: PointsDrill) -> str:
    """"nobody": some point goes to nobody (a tie, no valid setenta); "split": both sides score; "sweep": one side
    takes every point."""
    lines = [drill.answer.line(item) for item in drill.items]
    if any(not line.winners for line in lines):
        return "nobody"
    return "split" if len({side for line in lines for side in line.winners}) > 1 else "sweep"


# A part where one side takes every point in every deal never asks for "Nobody", nor for a split: one deal of a
# side taking everything, the rest split or tied.
_VARIETY = Variety(_shape, lambda rules: ("split", "nobody", "sweep"), frozenset({"sweep"}))


KIND = DrillKind(
    name="points",
    make=points_drill,
    label=N_("points (who gets each point)"),
    column=N_("Points"),
    lesson="06-game",
    mistakes={
        "cards": N_("Giving the point for the most cards to the wrong side"),
        "cards_bonus": N_("Giving the cards bonus to the wrong side"),
        "oros": N_("Giving the point for the most coins to the wrong side"),
        "siete_de_oros": N_("Giving the seven of coins to the wrong side"),
        "setenta": N_("Giving the setenta to the wrong side"),
        "primera": N_("Giving the primera to the wrong side"),
        "all_sevens": N_("Giving the point for all four sevens to the wrong side"),
        "figuras": N_("Giving the face cards point to the wrong side"),
    },
    outcome=_outcome,
    worksheet=WorksheetPart(N_("Who gets each point?"), _intro, _SHEET, _points_task, _points_answer,
                            variety=_VARIETY),
    view="escoba_tutor.widgets.drills.points:PointsView",
    given=_given,
)
