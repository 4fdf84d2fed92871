"""Who gets each point: the piles and escobas of a real deal; the learner says who gets each point, and is
told why with the score sheet's own reasons."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...exercises import PointsDrill
from ...text.translator import N_, Translator
from ..primitives import CardRow
from ..score_sheet import ScoreSheet, item_name, reason_text, sweeps_count
from .base import DrillModel, KindView, choice_box, fill_row, of_side, set_options

__all__ = ["PointsView", "sides_of"]

# Items whose tie the "both score" variant gives to every tied side (docs/rules.md §7).
_TIE_ITEMS = ("cards", "oros", "sevens")


def sides_of(key: object) -> tuple[int, ...] | None:
    """A choice as the sides it gives the point to: ``"0"`` -> (0,), ``"none"`` -> (), ``"both"`` -> (0, 1)."""
    if key == "none":
        return ()
    if key == "both":
        return (0, 1)
    if isinstance(key, str) and key.isascii() and key.isdigit():
        return (int(key),)
    return None


class PointsView(KindView):
    """Per side a heading (cards, escobas) and the pile (``parts``); a select per scoring item (``choices``)."""

    kind = "points"
    title = N_("Who gets each point?")
    task = N_("For each point, choose the side that gets it, or nobody. Then press “Check”.")

    @staticmethod
    def layout_of(drill: PointsDrill) -> tuple:
        return (drill.kind, len(drill.piles), drill.items)

    @staticmethod
    def judge(drill: PointsDrill, model: DrillModel):
        return drill.check({item: sides for item, key in model.choices.items()
                            if (sides := sides_of(key)) is not None})

    def build(self, drill: PointsDrill) -> list[w.Widget]:
        self.parts = []
        boxes = []
        for _side in range(len(drill.piles)):
            heading, row = w.HTML(), CardRow(mode="none", size="small")
            self.parts.append((heading, row, None))
            boxes.append(w.VBox([heading, row]))
        self.choices = {item: choice_box(lambda change, item=item: self.chose(item, change)) for item in drill.items}
        return [*boxes, *self.choices.values()]

    def draw(self, _: Translator, drill: PointsDrill, names: Sequence[str]) -> None:
        for side, (heading, row, _none) in enumerate(self.parts):
            pile = drill.piles[side]
            escobas = sweeps_count(_, drill.escobas[side], drill.rules)
            pile_size = _.plural("{n} card", "{n} cards", len(pile))
            heading.value = f"<h4>{escape(names[side])} · {escape(pile_size)} · {escape(escobas)}</h4>"
            fill_row(row, _, pile, of_side(_, "{side}'s pile", names[side]), self.frame.deck)
        for item, choice in self.choices.items():
            options = [(_("choose…"), "")] + [(names[side], str(side)) for side in range(len(drill.piles))]
            options.append((_("Nobody"), "none"))
            if drill.rules.ties == "both_score" and item in _TIE_ITEMS:
                options.append((_("Both"), "both"))
            set_options(choice, options, self.model.choices.get(item, ""))
            choice.description = item_name(_, item, drill.rules)

    def answer(self, _: Translator, drill: PointsDrill, names: Sequence[str], current):
        current = current or ScoreSheet(score=drill.answer, rules=drill.rules)
        current.score = drill.answer
        current.names, current.lang = names, self.lang
        return current

    def feedback(self, _: Translator, drill: PointsDrill, names: Sequence[str], result) -> list[str]:
        lines = []
        for check in result:
            item = item_name(_, check.item, drill.rules)
            if check.given is None:
                lines.append(_("{item}: choose who gets it.", item=item))
                continue
            reason = (reason_text(_, check.line, names, rules=drill.rules) if check.line is not None
                      else _("nobody earns it this time"))
            if check.ok:
                lines.append(_("{item} — right: {reason}.", item=item, reason=reason))
            else:
                lines.append(_("{item} — no: {reason}.", item=item, reason=reason))
        right = sum(1 for check in result if check.ok)
        return [_("{right} of {total} right.", right=right, total=len(result)), *lines]
