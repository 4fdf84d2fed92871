"""House rules: a real deal scored under the rules of the game, and one house rule of docs/rules.md §7 switched
on. What does each side score with it?"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.cards import Card
from ...engine.errors import EscobaError
from ...engine.game import DealRecord, Game
from ...engine.rules import ESCOBA, VARIANTS, Rules, as_rules
from ...engine.scoring import DealFacts, DealScore, score_piles
from ...text.phrases import and_list
from ...text.translator import N_, Translator
from .. import paper
from ..common import MAX_SEED, Answer, check_seed, form_outcome, is_whole, judged, play_deal, seeded
from ..kind import DrillKind, WorksheetPart
from . import points as points_kind

__all__ = ["HouseRulesDrill", "house_rules_drill", "HOUSE_RULES", "house_rule_words"]

#: The house rules this drill asks about (those that change how a two-side deal is scored), each with its name and
#: what it changes, as docs/rules.md §7 says them.
HOUSE_RULES: dict[str, tuple[str, str]] = {
    "ties_both_score": (N_("ties: every tied side scores"),
                        N_("If sides tie for the most cards, the most coins or (with sevens instead of the "
                           "setenta) the most sevens, each tied side gets the point.")),
    "sevens": (N_("sevens instead of the setenta"),
               N_("1 point to the side with the most sevens (a tie scores nothing), instead of the setenta point.")),
    "low_primera": (N_("setenta with low cards only"),
                    N_("Only cards from 1 to 7 count for the setenta: if a side's only cards in a suit are face "
                       "cards, its setenta is invalid.")),
    "figuras": (N_("face cards"),
                N_("1 extra point to the side with the most face cards (jacks, knights and kings); a tie scores "
                   "nothing.")),
    "all_sevens_bonus": (N_("all four sevens"), N_("1 extra point for holding all four sevens.")),
    "cards_bonus": (N_("cards bonus"),
                    N_("1 extra point to the side with the most cards when every other side has fewer than 10 "
                       "cards.")),
}

#: Deals tried for a position where the house rule changes the points (or does not), as the seed asked.
_TRIES = 120


@dataclass(frozen=True)
class HouseRulesDrill:
    """A real two-side deal (``record``), its points under the drill's rules (``standard``) and under the same
    rules with the house rule ``house_rule`` on (``house``, scored by the engine from the same piles). What does
    each side score with the house rule (``points``)?

    Mistakes per side: ``unchanged`` (the points without the house rule, which here changes them),
    ``changed_needlessly`` (another number, where the house rule changes nothing for that side),
    ``kept_replaced_point`` (the new point added but the point it replaces kept: the setenta beside the sevens),
    ``wrong_points``; ``unanswered``."""

    kind = "house_rules"
    seed: int
    rules: Rules
    house_rule: str
    record: DealRecord
    standard: DealScore
    house: DealScore

    @property
    def house_rules(self) -> Rules:
        return self.rules.replace(**VARIANTS[self.house_rule].changes)

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        return self.record.piles

    @property
    def escobas(self) -> tuple[int, ...]:
        return self.record.escobas

    @property
    def points(self) -> tuple[int, ...]:
        return self.house.points

    @property
    def changes(self) -> bool:
        return self.house.points != self.standard.points

    @property
    def items(self) -> tuple[str, ...]:
        return tuple(f"side_{i}" for i in range(len(self.points)))

    @property
    def kept_both(self) -> tuple[int, ...] | None:
        """When the house rule replaces a point (sevens for the setenta): each side's points with the new point
        added but the replaced one kept, the slip it invites; None for a house rule that replaces nothing."""
        old, new = {line.item for line in self.standard.lines}, {line.item for line in self.house.lines}
        if old <= new:
            return None
        extra = [line for line in self.house.lines if line.item not in old]
        return tuple(p + sum(line.points[side] for line in extra) for side, p in enumerate(self.standard.points))

    def check(self, given: Sequence[int | None]) -> tuple[Answer, ...]:
        """Judge one number per side (None: not answered).

        >>> drill = house_rules_drill(2)
        >>> all(a.ok for a in drill.check(drill.points))
        True
        """
        if not isinstance(given, (list, tuple)) or len(given) != len(self.points) or any(
                g is not None and not is_whole(g, 0, 99) for g in given):
            raise EscobaError(f"the points are one whole number per side, not {given!r}"[:100], code="bad_answer")
        results = []
        for side, number in enumerate(given):
            right, before = self.house.points[side], self.standard.points[side]
            if self.kept_both is not None and number == self.kept_both[side] and number != right:
                slip = "kept_replaced_point"
            elif number == before and right != before:
                slip = "unchanged"
            elif right == before:
                slip = "changed_needlessly"
            else:
                slip = "wrong_points"
            results.append(judged(f"side_{side}", number, right, slip))
        return tuple(results)

    def __str__(self) -> str:
        return f"{self.rules.name} + {self.house_rule}: {self.standard.points} -> {self.house.points}"


def _facts(record: DealRecord) -> DealFacts:
    de_mano = [0] * len(record.piles)
    de_mano[record.dealer % len(record.piles)] = record.dealer_escobas
    return DealFacts(escobas_de_mano=tuple(de_mano), hand_escobas=record.hand_escobas or None,
                     renuncios=record.renuncios or None, last_play_sweeps=record.last_play_sweeps or None)


def house_rules_for(rules: Rules) -> tuple[str, ...]:
    """The house rules of :data:`HOUSE_RULES` that change something on top of ``rules``."""
    found = []
    for name in HOUSE_RULES:
        try:
            changed = rules.replace(**VARIANTS[name].changes)
            changed.check_players(2)
        except EscobaError:
            continue
        if changed != rules:
            found.append(name)
    return tuple(found)


def house_rules_drill(seed: int, rules: Rules | str = ESCOBA) -> HouseRulesDrill:
    """A real 2-player deal under ``rules`` (random legal plays from ``seed``) and one house rule drawn from
    :data:`HOUSE_RULES`; in about three positions out of four the house rule changes the points.

    >>> drill = house_rules_drill(1)
    >>> drill.house == house_rules_drill(1).house and drill.house_rule in HOUSE_RULES
    True
    """
    seed, rules = check_seed(seed), as_rules(rules)
    rng = seeded("house_rules", seed)
    choices = house_rules_for(rules)
    if not choices:
        raise EscobaError("these rules already have every house rule of this drill", code="no_house_rule")
    house_rule = rng.choice(choices)
    want_change = rng.random() < 0.75
    house_rules = rules.replace(**VARIANTS[house_rule].changes)
    for attempt in range(_TRIES):
        record = play_deal(Game(players=2, rules=rules, seed=(seed * 7127 + attempt) % (MAX_SEED + 1)), rng)
        house = score_piles(record.piles, record.escobas, house_rules, _facts(record))
        if (house.points != record.score.points) == want_change:
            break
    return HouseRulesDrill(seed, rules, house_rule, record, record.score, house)


# ------------------------------------------------------------------------------------------------ worksheet
def house_rule_words(_: Translator, name: str) -> tuple[str, str]:
    """A house rule's name and what it changes, in the language."""
    title, change = HOUSE_RULES[name]
    return _(title), _(change)


_SHEET = """
{% macro task(drill, rule, names, standard, blanks) %}
  <li><p>{{ paper.number(drill) }} {{ rule }}</p>
  {{ paper.by_suit(drill.piles, names, drill.escobas) }}
  <p>{{ standard }}</p>
  {% for label in blanks %}{{ paper.blank(label) }}{% endfor %}
  </li>
{% endmacro %}

{% macro answer(drill, said) %}<li>{{ paper.key_number(drill) }} {{ said }}</li>{% endmacro %}
"""


def _points_words(_: Translator, names: Sequence[str], points: Sequence[int]) -> str:
    return "; ".join(_("{side}: {points}", side=name, points=p) for name, p in zip(names, points))


def _house_rules_task(_: Translator, drill: HouseRulesDrill) -> dict[str, object]:
    names = paper.side_names(_, 2)
    title, change = house_rule_words(_, drill.house_rule)
    return {"rule": _("House rule: {rule}. {change}", rule=title, change=change), "names": names,
            "standard": _("Points for this deal without the house rule: {points}.",
                          points=_points_words(_, names, drill.standard.points)),
            "blanks": [_("Points for {side} with the house rule:", side=name) for name in names]}


def _house_rules_answer(_: Translator, drill: HouseRulesDrill) -> dict[str, object]:
    names = paper.side_names(_, 2)
    points = _points_words(_, names, drill.points)
    said = [_("{points}. The house rule changes the points.", points=points) if drill.changes else
            _("{points}. In this deal the house rule does not change the totals.", points=points)]
    # Why: each point the house rule adds, each it scores differently, then each it no longer scores.
    standard_items = {line.item for line in drill.standard.lines}
    moved = [line for line in drill.house.lines if line not in drill.standard.lines]
    added = [_("{item} — {reason}", item=points_kind.item_in_sentence(_, line.item),
               reason=points_kind.reason_words(_, line, names)) for line in moved if line.item not in standard_items]
    changed = [_("{item} — {reason}", item=points_kind.item_in_sentence(_, line.item),
                 reason=points_kind.reason_words(_, line, names)) for line in moved if line.item in standard_items]
    house_items = {line.item for line in drill.house.lines}
    gone = [points_kind.item_in_sentence(_, line.item) for line in drill.standard.lines
            if line.item not in house_items and any(line.points)]
    # joined outside the calls: the extractor reads a second text as a plural
    added_said, changed_said = "; ".join(added), "; ".join(changed)
    # A point the house rule adds that nobody scores in this deal is no "new point" (the totals may not change).
    if added and any(any(line.points) for line in moved if line.item not in standard_items):
        said.append(_("New points: {items}.", items=added_said))
    elif added:
        said.append(_.plural("The house rule's point: {items}.", "The house rule's points: {items}.", len(added),
                             items=added_said))
    if changed:
        said.append(_("Points that change: {items}.", items=changed_said))
    if gone:
        said.append(_("Points no longer scored: {items}.", items=and_list(_, gone)))
    return {"said": " ".join(said)}


def _intro(_: Translator, rules: Rules) -> str:
    return _("Here is a deal that has already been played, with its points. If you play with the house rule, how "
             "many points does each side score?")


KIND = DrillKind(
    name="house_rules",
    make=house_rules_drill,
    label=N_("house_rules (what a house rule changes)"),
    column=N_("House rules"),
    lesson="07-variants",
    mistakes={
        "unchanged": N_("Keeping the usual points when the house rule changes them"),
        "changed_needlessly": N_("Changing the points when the house rule does not change that side's total"),
        "kept_replaced_point": N_("Adding the house rule's point but keeping the point it replaces"),
        "wrong_points": N_("Counting the points under the house rule wrongly"),
    },
    outcome=form_outcome,
    worksheet=WorksheetPart(N_("What a house rule changes"), _intro, _SHEET, _house_rules_task,
                            _house_rules_answer),
    view="escoba_tutor.widgets.drills.house_rules:HouseRulesView",
    available=lambda rules: bool(house_rules_for(rules)),
)
