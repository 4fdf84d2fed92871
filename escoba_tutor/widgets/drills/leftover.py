"""The cards left at the end of a deal: who takes them, what they add up to, and does the deal check out
(under the Escoba rule the leftover is always 10, 25, 40, 55…)?"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...engine.rules import Rules
from ...exercises import NOBODY, LeftoverDrill
from ...exercises.kinds.captures import sweep_cry
from ...exercises.kinds.leftover import fifteen_check
from ...text.translator import N_, Translator
from ..primitives import CardRow
from ..score_sheet import player_names
from .base import (
    DrillModel,
    KindView,
    choice_box,
    fill_row,
    of_side,
    read_number,
    set_options,
    the_card,
    the_cards,
    two_players_line,
)

__all__ = ["LeftoverView", "play_sentence"]


def play_sentence(_: Translator, rules: Rules, names: Sequence[str], side: int, card, taken,
                  sweep: bool = False) -> str:
    """«Bando 1 juega el cinco de bastos y se lleva el as de oros y la sota de copas.», with «: ¡escoba!» when it
    swept the table (as the game says it)."""
    if taken and sweep:
        return of_side(_, "{side} plays {card} and takes {taken}: {sweep}", names[side], card=the_card(_, card),
                       taken=the_cards(_, taken), sweep=sweep_cry(_, rules))
    if taken:
        return of_side(_, "{side} plays {card} and takes {taken}.", names[side], card=the_card(_, card),
                       taken=the_cards(_, taken))
    return of_side(_, "{side} plays {card}: it stays on the table.", names[side], card=the_card(_, card))


class LeftoverView(KindView):
    """The deal's last plays, the cards left (``table_row``), and the questions: who takes them (``taker``),
    what they add up to (``total_box``) and whether the deal checks out (``checks``); Scopa asks only who."""

    kind = "leftover"
    title = N_("The cards left at the end")
    task = N_("Read the last plays of the deal. Who takes the cards left on the table? What do they add up to, and "
              "does the deal check out? Then press “Check”.")

    @staticmethod
    def boxes(drill: LeftoverDrill) -> int:
        return 1

    @staticmethod
    def layout_of(drill: LeftoverDrill) -> tuple:
        return (drill.kind, drill.items)

    @staticmethod
    def judge(drill: LeftoverDrill, model: DrillModel):
        taker = model.choices.get("taker")
        taker = NOBODY if taker == "none" else int(taker) if taker in ("0", "1") else None
        typed = read_number(model.answers[0] if model.answers else "", 999)
        checks = {"yes": True, "no": False}.get(str(model.choices.get("checks_out")))
        answers = drill.check(taker, typed if isinstance(typed, int) else None, checks)
        return {"answers": answers, "typed": typed}

    def build(self, drill: LeftoverDrill) -> list[w.Widget]:
        self.plays = w.HTML()
        self.table_label = w.HTML()
        self.table_row = CardRow(mode="none")
        self.taker = choice_box(lambda change: self.chose("taker", change))
        controls = [self.plays, self.table_label, self.table_row, self.taker]
        if "total" in drill.items:
            self.total_box = w.Text(continuous_update=False, layout=w.Layout(width="auto", max_width="36em"),
                                    style={"description_width": "initial"})
            self.total_box.observe(lambda change: self.typed(0, change), "value")
            self.checks = choice_box(lambda change: self.chose("checks_out", change))
            controls += [self.total_box, self.checks]
        return controls

    def draw(self, _: Translator, drill: LeftoverDrill, names: Sequence[str]) -> None:
        players = player_names(_, self.frame.names, len(names))
        said = "".join(f"<li>{escape(play_sentence(_, drill.rules, players, *play, sweep))}</li>"
                       for play, sweep in zip(drill.plays, drill.sweeps))
        last = _("The last plays of the deal:")
        self.plays.value = (two_players_line(_, len(names), self.frame.names)
                            + f"<p><b>{escape(last)}</b></p><ol>{said}</ol>")
        left = _("Left on the table at the end")
        self.table_label.value = f"<b>{escape(left)}</b>"
        fill_row(self.table_row, _, drill.table, left, self.frame.deck)
        choices = self.model.choices
        options = [(_("choose…"), "")] + [(name, str(i)) for i, name in enumerate(names)] + [(_("Nobody"), "none")]
        set_options(self.taker, options, choices.get("taker", ""))
        self.taker.description = _("Who takes them?")
        if "total" in drill.items:
            self.total_box.description = _("What do they add up to?")
            self.total_box.placeholder = _("a number")
            wanted = self.model.answers[0] if self.model.answers else ""
            if self.total_box.value != wanted:
                self.total_box.value = wanted if isinstance(wanted, str) else ""
            set_options(self.checks, [(_("choose…"), ""), (_("Yes, it checks out"), "yes"),
                                      (_("No, it does not"), "no")], choices.get("checks_out", ""))
            self.checks.description = _("Does the deal check out?")

    def feedback(self, _: Translator, drill: LeftoverDrill, names: Sequence[str], result) -> list[str]:
        lines = []
        for answer in result["answers"]:
            if answer.item == "total" and result["typed"] == "bad":
                lines.append(_("Write the total as a whole number, for example 25."))
            else:
                lines.append(self._said(_, drill, names, answer))
        right = sum(1 for a in result["answers"] if a.ok)
        return [_("{right} of {total} right.", right=right, total=len(result["answers"])), *lines]

    def _said(self, _: Translator, drill: LeftoverDrill, names: Sequence[str], answer) -> str:
        taker = names[drill.taker] if drill.taker is not None else ""
        if answer.item == "taker":
            if answer.mistake == "unanswered":
                return _("Who takes them: choose a side, or nobody.")
            if answer.ok:
                if drill.taker is None:
                    return _("Right: nobody captured in the whole deal, so the cards left belong to nobody.")
                return of_side(_, "Right: {side} made the last capture, and so takes them.", taker)
            if answer.mistake == "last_to_play":
                return of_side(_, "No: {side} played last, but laid the card down. The cards left go to the last "
                               "side that captured: {taker}.",
                               # a player plays the last card («el jugador 2», not «el bando 2»); a side takes
                               player_names(_, self.frame.names, len(names))[drill.last_player_side], taker=taker)
            if answer.mistake == "nobody_captured":
                return _("No: nobody captured in the whole deal, so the cards left belong to nobody.")
            return _("No: the cards left go to the last side that captured: {side}.", side=taker)
        if answer.item == "total":
            if answer.mistake == "unanswered":
                return _("Total: write what the cards left add up to.")
            if answer.ok:
                return _("Total: right, {total}.", total=drill.total)
            if answer.mistake == "figure_printed":
                return _("Total: you counted the face cards by their printed number; when you add up, the jack is "
                         "worth 8, the knight 9 and the king 10: {total}.", total=drill.total)
            return _("Total: not {given}. Add the capture values again (jack 8, knight 9, king 10).",
                     given=answer.given)
        total = drill.total or 0  # asked only under the Escoba rule, where there is a total
        rest = total % 15
        if answer.mistake == "unanswered":
            return _("Check: say whether the deal checks out.")
        # a lone 10 needs no sum: «10 = 15 × 0 + 10» is true but says nothing to a child
        if answer.ok and drill.checks_out and total == 10:
            return _("Check: right, exactly 10 is left, so it checks out.")
        if answer.ok and drill.checks_out:
            return _("Check: right, {total} = 15 × {times} + 10, so it checks out.", total=total,
                     times=total // 15)
        if answer.ok:
            return _("Check: right, {total} = 15 × {times} + {rest}, and not 15 × something + 10: someone made a "
                     "mistake during the deal.",
                     total=total, times=total // 15, rest=rest)
        if answer.mistake == "checks_out" and total == 10:
            return _("Check: it does check out: exactly 10 is left, as always when every capture made 15.")
        if answer.mistake == "checks_out":
            return _("Check: it does check out, because {total} = 15 × {times} + 10, as always when every capture "
                     "made 15.", total=total, times=total // 15)
        return _("Check: it does not check out: {total} = 15 × {times} + {rest}. With the standard Escoba rules, "
                 "after a deal played correctly it is always 15 × something + 10 (10, 25, 40, 55…).", total=total,
                 times=total // 15, rest=rest)

    def answer(self, _: Translator, drill: LeftoverDrill, names: Sequence[str], current):
        current = current or w.HTML()
        lines = []
        if drill.taker is None:
            lines.append(_("Nobody captured in the whole deal: the cards left belong to nobody."))
        else:
            lines.append(of_side(_, "{side} made the last capture and takes the cards left.", names[drill.taker]))
        if drill.total is not None:
            terms = " + ".join(str(c.value) for c in drill.table)
            if len(drill.table) == 1:  # one card adds up to nothing: its value alone
                lines.append(_("Only {card} is left: {total}.", card=_.the_card(drill.table[0]), total=drill.total))
            else:
                lines.append(_("They add up to {terms} = {total}.", terms=terms, total=drill.total))
            lines.extend(fifteen_check(_, drill.total))  # (as the worksheet's key and lesson 4 say it)
        current.value = "<div class='escoba-worked'>" + "".join(f"<p>{escape(line)}</p>" for line in lines) + "</div>"
        return current
