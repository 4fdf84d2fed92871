"""The escoba de mano: the four cards dealt face up; is there an escoba de mano, how many escobas, for whom?"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...exercises import NOBODY, EscobaDeManoDrill
from ...text import labels
from ...text.translator import N_, Translator
from ..primitives import CardRow
from ..score_sheet import player_names
from .base import DrillModel, KindView, choice_box, fill_row, of_side, set_options, two_players_line

__all__ = ["EscobaDeManoView", "dealer_name", "pairs_line", "team_names"]


def dealer_name(_: Translator, drill: EscobaDeManoDrill, given) -> str:
    """Who deals, with 2 players: that player's name, or "Player 2" («reparte el jugador 2», never «el bando 2»);
    in a game of four the sentences name the player by number."""
    return player_names(_, given, 2)[drill.dealer % 2]


def pairs_line(_: Translator, drill: EscobaDeManoDrill, names: Sequence[str]) -> str:
    """In a game of four, who plays with whom (players 1 and 3 against 2 and 4); "" with 2 players."""
    if drill.players != 4:
        return ""
    return _("A game of four, in teams of two: {first} (Players 1 and 3) against {second} (Players 2 and 4); "
             "partners sit opposite each other.", first=names[0], second=names[1])


def team_names(_: Translator, drill: EscobaDeManoDrill, names: Sequence[str], given) -> Sequence[str]:
    """The sides' names: in a game of four, "Team 1" and "Team 2" unless the page named the sides; a side the
    page calls "you" is then your team (the partner may be the one who deals: "for you" would be wrong)."""
    if drill.players == 4 and not given:
        return [labels.team(_, n) for n in (1, 2)]
    if drill.players == 4:
        return [labels.your_team(_) if getattr(name, "is_you", False) else name for name in names]
    return names


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

    def draw(self, _: Translator, drill: EscobaDeManoDrill, names: Sequence[str]) -> None:
        names = team_names(_, drill, names, self.frame.names)
        if drill.players == 4:
            dealt = _("Player {player} deals. The four cards face up on the table:", player=drill.dealer + 1)
        else:
            dealt = of_side(_, "{player} deals. The four cards face up on the table:",
                            dealer_name(_, drill, self.frame.names))
        pairs = pairs_line(_, drill, names)
        self.dealt.value = (f"<p>{escape(pairs)}</p>" if pairs else two_players_line(_, drill.players, self.frame.names)
                            ) + f"<p><b>{escape(dealt)}</b></p>"
        fill_row(self.table_row, _, drill.table, _("The table dealt"), self.frame.deck)
        choices = self.model.choices
        set_options(self.escobas, [(_("choose…"), ""), (_("none"), "0"), ("1", "1"), ("2", "2")],
                    choices.get("escobas", ""))
        self.escobas.description = _("Escobas de mano")
        options = [(_("choose…"), "")] + [(name, str(i)) for i, name in enumerate(names)] + [(_("Nobody"), "none")]
        set_options(self.side, options, choices.get("side", ""))
        self.side.description = _("Who scores them?")

    def _goal(self, _: Translator, drill: EscobaDeManoDrill) -> str:
        two = 20 if drill.rules.escoba_de_mano == "15/20" else 30
        return _("a table of 15 gives one escoba, a table of {two} gives two, and any other total none", two=two)

    def feedback(self, _: Translator, drill: EscobaDeManoDrill, names: Sequence[str], result) -> list[str]:
        names = team_names(_, drill, names, self.frame.names)
        terms = " + ".join(str(c.value) for c in drill.table)
        dealer = dealer_name(_, drill, self.frame.names)
        scorer = names[drill.dealer_side]
        lines = []
        for answer in result:
            if answer.mistake == "unanswered":
                lines.append(_("Escobas: choose how many.") if answer.item == "escobas" else
                             _("Who scores them: choose a side, or nobody."))
            elif answer.item == "escobas":
                lines.append(self._escobas(_, drill, answer, terms))
            elif answer.ok:
                lines.append(of_side(_, "Who scores them: right, {side}.", scorer) if drill.escobas else
                             _("Who scores them: right, nobody."))
            elif answer.mistake == "dealer_scores":
                lines.append(of_side(_, "Who scores them: the escoba de mano always goes to the dealer's side: "
                                        "{player} dealt, so it goes to {side}.", dealer, side=scorer))
            elif answer.mistake == "dealer_pair_scores":
                lines.append(_("Who scores them: in a team game the escoba de mano goes to the dealer's team: Player "
                               "{player} dealt, so it goes to {side}.",
                               player=drill.dealer + 1, side=scorer))
            elif answer.mistake == "nobody_scores":
                lines.append(_("Who scores them: nobody, as there is no escoba de mano here."))
            else:
                lines.append(_("Who scores them: there is an escoba de mano, and it goes to the dealer's side: "
                               "{side}.", side=scorer))
        right = sum(1 for a in result if a.ok)
        return [_("{right} of {total} right.", right=right, total=len(result)), *lines]

    def _escobas(self, _: Translator, drill: EscobaDeManoDrill, answer, terms: str) -> str:
        sums = _("{terms} = {total}", terms=terms, total=drill.total)
        if answer.ok:
            return _.plural("Escobas: right, {sum}: {n} escoba.", "Escobas: right, {sum}: {n} escobas.",
                            drill.escobas, sum=sums) if drill.escobas else _(
                "Escobas: right, {sum}: no escoba de mano ({goal}).", sum=sums, goal=self._goal(_, drill))
        if answer.mistake == "figure_printed":
            return _("Escobas: watch out for the face cards (jack 8, knight 9, king 10). "
                     "{sum}: no escoba de mano.", sum=sums)
        if answer.mistake == "not_an_escoba":
            return _("Escobas: {sum}: no escoba de mano ({goal}).", sum=sums, goal=self._goal(_, drill))
        if answer.mistake == "missed":
            return _.plural("Escobas: {sum}: that is {n} escoba de mano.", "Escobas: {sum}: that is {n} escobas "
                            "de mano.", drill.escobas, sum=sums)
        return _.plural("Escobas: {sum}: {n} escoba ({goal}).", "Escobas: {sum}: {n} escobas ({goal}).",
                        drill.escobas, sum=sums, goal=self._goal(_, drill))

    def answer(self, _: Translator, drill: EscobaDeManoDrill, names: Sequence[str], current):
        names = team_names(_, drill, names, self.frame.names)
        current = current or w.HTML()
        terms = " + ".join(str(c.value) for c in drill.table)
        sums = _("{terms} = {total}", terms=terms, total=drill.total)
        if drill.escobas and drill.players == 4:  # (a team: "your team" when the page calls it "you")
            said = _.plural("{sum}: Player {player}, who dealt, takes the four cards: {n} escoba for {side:the}.",
                            "{sum}: Player {player}, who dealt, takes the four cards: {n} escobas for {side:the}.",
                            drill.escobas, sum=sums, player=drill.dealer + 1, side=names[drill.dealer_side])
        elif drill.escobas and getattr(names[drill.dealer], "is_you", False):
            said = _.plural("{sum}: you dealt, so you take the four cards and score {n} escoba.",
                            "{sum}: you dealt, so you take the four cards and score {n} escobas.",
                            drill.escobas, sum=sums)
        elif drill.escobas:
            said = _.plural("{sum}: the dealer takes the four cards: {n} escoba for {side:the}.",
                            "{sum}: the dealer takes the four cards: {n} escobas for {side:the}.",
                            drill.escobas, sum=sums, side=names[drill.dealer])
        else:
            said = _("{sum}: no escoba de mano ({goal}); the cards stay on the table.", sum=sums,
                     goal=self._goal(_, drill))
        current.value = f"<div class='escoba-worked'><p>{escape(said)}</p></div>"
        return current
