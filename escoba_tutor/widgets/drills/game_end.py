"""Who wins the game? Two sides' points before the last deal and in it: add, then look at the target; the
highest total past it wins, and a shared highest total plays another deal (docs/rules.md §6)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...exercises import GameEndDrill
from ...text.translator import N_, Translator
from .base import DrillModel, KindView, choice_box, of_side, set_options

__all__ = ["GameEndView"]


class GameEndView(KindView):
    """The points before and in the last deal (``points_table``) and the question (``winner``)."""

    kind = "game_end"
    title = N_("Who wins the game?")
    task = N_("The points before the last deal and the points scored in it: has a side won the game, or is another "
              "deal played? Then press “Check”.")

    @staticmethod
    def judge(drill: GameEndDrill, model: DrillModel):
        chosen = model.choices.get("winner")
        return drill.check("another_deal" if chosen == "another_deal" else
                           int(chosen) if chosen in ("0", "1") else None)

    def build(self, drill: GameEndDrill) -> list[w.Widget]:
        self.points_table = w.HTML()
        self.winner = choice_box(lambda change: self.chose("winner", change))
        return [self.points_table, self.winner]

    def draw(self, _: Translator, drill: GameEndDrill, names: Sequence[str]) -> None:
        goal = _.plural("The game is played to {target} point.", "The game is played to {target} points.",
                        drill.target, target=drill.target)
        before, points = _("Points before the last deal"), _("Points scored in the last deal")
        head = "".join(f'<th scope="col">{escape(n)}</th>' for n in names)
        rows = "".join(f"<tr><th scope='row'>{escape(label)}</th>" + "".join(f"<td>{n}</td>" for n in values)
                       + "</tr>" for label, values in ((before, drill.before), (points, drill.points)))
        self.points_table.value = (f"<p><b>{escape(goal)}</b></p><table class='escoba-sheet'><tr><td></td>{head}"
                                   f"</tr>{rows}</table>")
        options = ([(_("choose…"), "")] + [(of_side(_, "{side} wins", name), str(i)) for i, name in enumerate(names)]
                   + [(_("Nobody yet: another deal"), "another_deal")])
        set_options(self.winner, options, self.model.choices.get("winner", ""))
        self.winner.description = _("Who has won?")

    def _totals(self, _: Translator, drill: GameEndDrill, names: Sequence[str]) -> str:
        return "; ".join(_("{side}: {before} + {points} = {total}", side=name, before=b, points=p, total=b + p)
                         for name, b, p in zip(names, drill.before, drill.points))

    def feedback(self, _: Translator, drill: GameEndDrill, names: Sequence[str], result) -> list[str]:
        totals = self._totals(_, drill, names)
        if result.mistake == "unanswered":
            return [_("Choose who has won, or “Nobody yet: another deal”.")]
        if result.ok:
            return [_("Right."), self._why(_, drill, names, totals)]
        slips = {
            "tie_plays_on": _("No: the highest total, {top}, is shared, so nobody wins yet: another deal is "
                              "played, and as many as it takes until one side alone has the highest total.",
                              top=max(drill.totals)),
            "not_reached": _("No: nobody has reached {target} yet, so the game goes on.", target=drill.target),
            "highest_wins": _("No: more than one side reached {target}; the highest total wins, not the side that "
                              "got there first or led before the deal.", target=drill.target),
            "someone_won": _("No: a side has won."),
        }
        return [slips.get(result.mistake, _("No.")), self._why(_, drill, names, totals)]

    def _why(self, _: Translator, drill: GameEndDrill, names: Sequence[str], totals: str) -> str:
        if drill.winner is not None:
            return of_side(_, "{totals}: {side} wins.", names[drill.winner], totals=totals)
        if max(drill.totals) >= drill.target:
            return _("{totals}: a tie at the top, so another deal is played.", totals=totals)
        return _("{totals}: nobody has reached {target} yet, so another deal is played.", totals=totals,
                 target=drill.target)

    def answer(self, _: Translator, drill: GameEndDrill, names: Sequence[str], current):
        current = current or w.HTML()
        rule = _("Add the deal's points first; then, of the sides that reached {target}, the highest total wins. If "
                 "the highest total is shared, another deal is played.", target=drill.target)
        said = self._why(_, drill, names, self._totals(_, drill, names))
        current.value = f"<div class='escoba-worked'><p>{escape(said)}</p><p>{escape(rule)}</p></div>"
        return current
