"""The escoba de mano: the four cards dealt face up; is there an escoba de mano, how many escobas, for whom?"""

from __future__ import annotations

from html import escape

import ipywidgets as w

from ...drills import NOBODY, EscobaDeManoDrill
from ..i18n import N_, Translator
from ..primitives import CardRow
from .base import VIEWS, DrillModel, KindView, choice_box, fill_row, set_options

__all__ = ["EscobaDeManoView"]


class EscobaDeManoView(KindView):
    """Who deals, the four cards (``table_row``), and two questions: how many escobas (``escobas``), for whom
    (``side``)."""

    kind = "escoba_de_mano"
    title = N_("The escoba de mano")
    task = N_("The four cards dealt face up at the start of a deal: is there an escoba de mano? How many escobas, "
              "and for whom? Then press “Check”.")

    @staticmethod
    def judge(drill: EscobaDeManoDrill, model: DrillModel):
        escobas = model.choices.get("escobas")
        side = model.choices.get("side")
        side = NOBODY if side == "none" else int(side) if side in ("0", "1") else None
        return drill.check(int(escobas) if escobas in ("0", "1", "2") else None, side)

    def build(self, drill: EscobaDeManoDrill) -> list[w.Widget]:
        self.dealt = w.HTML()
        self.table_row = CardRow(mode="none")
        self.escobas = choice_box(lambda change: self.chose("escobas", change))
        self.side = choice_box(lambda change: self.chose("side", change))
        return [self.dealt, self.table_row, self.escobas, self.side]

    def draw(self, _: Translator, drill: EscobaDeManoDrill, names: list[str]) -> None:
        dealt = _("{dealer} deals. The four cards face up on the table:", dealer=names[drill.dealer])
        self.dealt.value = f"<p><b>{escape(dealt)}</b></p>"
        fill_row(self.table_row, _, drill.table, _("The table dealt"), self.frame.deck)
        choices = self.model.choices
        set_options(self.escobas, [(_("choose…"), ""), (_("none"), "0"), ("1", "1"), ("2", "2")],
                    choices.get("escobas", ""))
        self.escobas.description = _("Escobas de mano")
        options = [(_("choose…"), "")] + [(name, str(i)) for i, name in enumerate(names)] + [(_("Nobody"), "none")]
        set_options(self.side, options, choices.get("side", ""))
        self.side.description = _("For whom?")

    def _goal(self, _: Translator, drill: EscobaDeManoDrill) -> str:
        two = 20 if drill.rules.escoba_de_mano == "15/20" else 30
        return _("15 gives one escoba, {two} gives two", two=two)

    def feedback(self, _: Translator, drill: EscobaDeManoDrill, names: list[str], result) -> list[str]:
        terms = " + ".join(str(c.value) for c in drill.table)
        dealer = names[drill.dealer]
        lines = []
        for answer in result:
            if answer.mistake == "unanswered":
                lines.append(_("Escobas: choose how many.") if answer.item == "escobas" else
                             _("For whom: choose a side, or nobody."))
            elif answer.item == "escobas":
                lines.append(self._escobas(_, drill, answer, terms))
            elif answer.ok:
                lines.append(_("For whom: right, {side}.", side=dealer) if drill.escobas else
                             _("For whom: right, nobody."))
            elif answer.mistake == "dealer_scores":
                lines.append(_("For whom: the escoba de mano is always the dealer's: {side} dealt.", side=dealer))
            elif answer.mistake == "nobody_scores":
                lines.append(_("For whom: nobody, as there is no escoba de mano here."))
            else:
                lines.append(_("For whom: there is an escoba de mano, and it is the dealer's: {side}.", side=dealer))
        right = sum(1 for a in result if a.ok)
        return [_("{right} of {total} right.", right=right, total=len(result)), *lines]

    def _escobas(self, _: Translator, drill: EscobaDeManoDrill, answer, terms: str) -> str:
        sums = _("{terms} = {total}", terms=terms, total=drill.total)
        if answer.ok:
            return _.plural("Escobas: right, {sum}: {n} escoba.", "Escobas: right, {sum}: {n} escobas.",
                            drill.escobas, sum=sums) if drill.escobas else _(
                "Escobas: right, {sum}: no escoba de mano ({goal}).", sum=sums, goal=self._goal(_, drill))
        if answer.mistake == "figure_printed":
            return _("Escobas: careful with the face cards: the jack is worth 8, the knight 9 and the king 10. "
                     "{sum}: no escoba de mano.", sum=sums)
        if answer.mistake == "not_an_escoba":
            return _("Escobas: {sum}, and {goal}: no escoba de mano.", sum=sums, goal=self._goal(_, drill))
        if answer.mistake == "missed":
            return _.plural("Escobas: {sum}: that is {n} escoba de mano.", "Escobas: {sum}: that is {n} escobas "
                            "de mano.", drill.escobas, sum=sums)
        return _.plural("Escobas: {sum}: {n} escoba ({goal}).", "Escobas: {sum}: {n} escobas ({goal}).",
                        drill.escobas, sum=sums, goal=self._goal(_, drill))

    def answer(self, _: Translator, drill: EscobaDeManoDrill, names: list[str], current):
        current = current or w.HTML()
        terms = " + ".join(str(c.value) for c in drill.table)
        sums = _("{terms} = {total}", terms=terms, total=drill.total)
        if drill.escobas:
            said = _.plural("{sum}: {side}, who dealt, takes the four cards and scores {n} escoba.",
                            "{sum}: {side}, who dealt, takes the four cards and scores {n} escobas.",
                            drill.escobas, sum=sums, side=names[drill.dealer])
        else:
            said = _("{sum}: no escoba de mano ({goal}); the cards stay on the table.", sum=sums,
                     goal=self._goal(_, drill))
        current.value = f"<div class='escoba-worked'><p>{escape(said)}</p></div>"
        return current


VIEWS["escoba_de_mano"] = EscobaDeManoView
