"""House rules: the piles of a real deal and its points; with a house rule of docs/rules.md §7 switched on, the
learner says what each side scores, and the worked answer is the score sheet under the house rule."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...exercises import HouseRulesDrill
from ...exercises.kinds.house_rules import house_rule_words
from ...exercises.kinds.points import SENTENCE_ITEMS, item_in_sentence
from ...text.translator import N_, Translator
from ..primitives import CardRow
from ..score_sheet import ScoreSheet, item_name, join_words, reason_text
from .base import DrillModel, KindView, fill_row, read_number

__all__ = ["HouseRulesView", "points_said"]


def points_said(_: Translator, names: Sequence[str], points) -> str:
    """«Bando 1: 4; Bando 2: 3»."""
    return "; ".join(_("{side}: {points}", side=name, points=p) for name, p in zip(names, points))


class HouseRulesView(KindView):
    """The house rule (``rule``), each side's pile (``parts``, a heading and a card row), the points without the
    house rule (``standard``) and a box per side (``boxes_of``)."""

    kind = "house_rules"
    title = N_("What a house rule changes")
    task = N_("Here is a deal that has already been played, with its points. Now score it with the house rule: how "
              "many points does each side get? Then press “Check”.")

    @staticmethod
    def boxes(drill: HouseRulesDrill) -> int:
        return len(drill.points)

    @staticmethod
    def judge(drill: HouseRulesDrill, model: DrillModel):
        # one answer per side, whatever the model holds (a page sends what it likes)
        typed = [read_number(model.answers[side] if side < len(model.answers) else "", 99)
                 for side in range(len(drill.points))]
        given = [t if isinstance(t, int) else None for t in typed]
        return {"answers": drill.check(given), "typed": typed}

    def sides(self, drill: HouseRulesDrill) -> int:
        return len(drill.points)

    def build(self, drill: HouseRulesDrill) -> list[w.Widget]:
        self.rule = w.HTML()
        self.parts = [(w.HTML(), CardRow(mode="none", size="small")) for _side in drill.points]
        self.standard = w.HTML()
        self.boxes_of = []
        for side in range(len(drill.points)):
            box = w.Text(continuous_update=False, layout=w.Layout(width="auto", max_width="36em"),
                         style={"description_width": "initial"})
            box.observe(lambda change, side=side: self.typed(side, change), "value")
            self.boxes_of.append(box)
        return [self.rule, *(w.VBox([h, row]) for h, row in self.parts), self.standard, *self.boxes_of]

    def draw(self, _: Translator, drill: HouseRulesDrill, names: Sequence[str]) -> None:
        title, change = house_rule_words(_, drill.house_rule)
        heading = _("House rule: {rule}", rule=title)
        self.rule.value = f"<p><b>{escape(heading)}</b><br>{escape(change)}</p>"
        for side, (head, row) in enumerate(self.parts):
            pile = sorted(drill.piles[side])  # by suit, then 1–7, jack, knight, king: easier to count
            pile_size = _.plural("{n} card", "{n} cards", len(pile))
            escobas = _.plural("{n} escoba", "{n} escobas", drill.escobas[side])
            head.value = f"<h4>{escape(names[side])} · {escape(pile_size)} · {escape(escobas)}</h4>"
            fill_row(row, _, pile, _("{side}'s pile", side=names[side]), self.frame.deck)
        caption = _("Points for this deal without the house rule")
        lines = "".join(f"<li>{escape(self._line(_, line, names))}</li>" for line in drill.standard.lines
                        if line.item != "escobas" or any(line.values))
        total = _("Total: {points}.", points=points_said(_, names, drill.standard.points))
        self.standard.value = f"<p><b>{escape(caption)}</b></p><ul>{lines}</ul><p>{escape(total)}</p>"
        for side, box in enumerate(self.boxes_of):
            box.description = _("Points for {side} with the house rule", side=names[side])
            box.placeholder = _("a number")
            wanted = self.model.answers[side] if side < len(self.model.answers) else ""
            if box.value != wanted:
                box.value = wanted if isinstance(wanted, str) else ""

    @staticmethod
    def _line(_: Translator, line, names: Sequence[str]) -> str:
        return _("{item}: {reason}.", item=item_name(_, line.item), reason=reason_text(_, line, names))

    def feedback(self, _: Translator, drill: HouseRulesDrill, names: Sequence[str], result) -> list[str]:
        lines = []
        for side, (answer, typed) in enumerate(zip(result["answers"], result["typed"])):
            name, right, before = names[side], drill.points[side], drill.standard.points[side]
            if typed == "bad":
                lines.append(_("{side}: write a whole number, for example 2.", side=name))
            elif answer.mistake == "unanswered":
                lines.append(_("{side}: write the points with the house rule.", side=name))
            elif answer.ok:
                lines.append(_("{side}: right, {n}.", side=name, n=right))
            elif answer.mistake == "unchanged":
                lines.append(_("{side}: not {n}. That is the score without the house rule, and in this deal the rule "
                               "changes it. With the house rule, {side} scores {right}.", side=name, n=before,
                               right=right))
            elif answer.mistake == "changed_needlessly":
                lines.append(_("{side}: not {given}. In this deal the house rule does not change {side}'s total: "
                               "still {right}.", side=name, given=answer.given, right=right))
            elif answer.mistake == "kept_replaced_point":
                lines.append(_("{side}: not {given}. The house rule's point replaces the setenta point, so the "
                               "setenta is no longer scored. {side} scores {right}.", side=name,
                               given=answer.given, right=right))
            else:
                lines.append(_("{side}: not {given}. Go through the points again with the house rule: {right}.",
                               side=name, given=answer.given, right=right))
        right = sum(1 for a in result["answers"] if a.ok)
        return [_("{right} of {total} right.", right=right, total=len(result["answers"])), *lines]

    def answer(self, _: Translator, drill: HouseRulesDrill, names: Sequence[str], current):
        sheet = current.children[1] if current is not None else ScoreSheet(score=drill.house)
        current = current or w.VBox([w.HTML(), sheet])
        sheet.score, sheet.names, sheet.lang = drill.house, names, self.lang
        # each point the house rule adds or scores differently, with its reason: which point moves, and why
        def in_sentence(item: str) -> str:  # the sheet's row title for an item the house rules never touch
            return item_in_sentence(_, item) if item in SENTENCE_ITEMS else item_name(_, item)

        standard_items = {line.item for line in drill.standard.lines}
        moved = [line for line in drill.house.lines if line not in drill.standard.lines]
        added = [_("{item} — {reason}", item=in_sentence(line.item), reason=reason_text(_, line, names))
                 for line in moved if line.item not in standard_items]
        changed = [_("{item} — {reason}", item=in_sentence(line.item), reason=reason_text(_, line, names))
                   for line in moved if line.item in standard_items]
        gone = [in_sentence(line.item) for line in drill.standard.lines
                if line.item not in {other.item for other in drill.house.lines} and any(line.points)]
        if not drill.changes:
            said = _("In this deal the house rule does not change the totals: every side scores the same as "
                     "without it.")
        else:
            said = _("With the house rule: {points}.", points=points_said(_, names, drill.points))
        notes = []
        # joined outside the calls: the extractor reads a second text as a plural
        added_said, changed_said = "; ".join(added), "; ".join(changed)
        if added:
            notes.append(_("New points: {items}.", items=added_said))
        if changed:
            notes.append(_("Points that change: {items}.", items=changed_said))
        if gone:
            notes.append(_("Points no longer scored: {items}.", items=join_words(_, gone)))
        current.children[0].value = ("<div class='escoba-worked'>" + "".join(f"<p>{escape(t)}</p>"
                                                                              for t in [said, *notes]) + "</div>")
        return current
