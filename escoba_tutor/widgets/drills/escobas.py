"""The escobas line of the score sheet: every capture of a real deal in order; the learner counts each side's
escobas (the escoba de mano counts; the cards left, taken at the end, never do)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...exercises import EscobasDrill
from ...text.phrases import and_list
from ...text.translator import N_, Translator
from ..primitives import RowPicker
from ..score_sheet import join_words, player_names
from .base import DrillModel, KindView, of_side, read_number, the_card, the_cards, two_players_line

__all__ = ["EscobasView", "card_names"]


def card_names(_: Translator, cards) -> str:
    """Cards for a table's cell, by name and without articles: «as de oros, cuatro de bastos y rey de copas»."""
    return and_list(_, [_.card_name(c) for c in cards])


class EscobasView(KindView):
    """Who dealt, the deal's captures (``captures``, one row each) and a box per side (``boxes_of``)."""

    kind = "escobas"
    title = N_("The escobas line")
    task = N_("Every capture of a deal, in order. Count each side's escobas for the score sheet, then press "
              "“Check”.")

    @staticmethod
    def boxes(drill: EscobasDrill) -> int:
        return len(drill.escobas)

    @staticmethod
    def judge(drill: EscobasDrill, model: DrillModel):
        typed = [read_number(text, 40) for text in model.answers]
        given = [t if isinstance(t, int) else None for t in typed]
        return {"answers": drill.check(given), "typed": typed}

    def sides(self, drill: EscobasDrill) -> int:
        return len(drill.escobas)

    def build(self, drill: EscobasDrill) -> list[w.Widget]:
        self.dealt = w.HTML()
        self.captures = RowPicker(disabled=True)
        self.boxes_of = []
        for side in range(len(drill.escobas)):
            box = w.Text(continuous_update=False, layout=w.Layout(width="auto", max_width="36em"),
                         style={"description_width": "initial"})
            box.observe(lambda change, side=side: self.typed(side, change), "value")
            self.boxes_of.append(box)
        return [self.dealt, self.captures, *self.boxes_of]

    def draw(self, _: Translator, drill: EscobasDrill, names: Sequence[str]) -> None:
        players = player_names(_, self.frame.names, len(names))
        dealt = of_side(_, "{player} deals.", players[drill.record.dealer % len(names)])
        self.dealt.value = two_players_line(_, len(names), self.frame.names) + f"<p><b>{escape(dealt)}</b></p>"
        rows = []
        for n, (what, side, before, card, taken) in enumerate(drill.captures):
            if what == "escoba_de_mano":
                played, said = _("the cards dealt"), of_side(_, "{side} takes the four cards dealt face up.",
                                                               players[side])
            elif what == "leftover":
                played, said = _("the cards left at the end"), of_side(
                    _, "{side} takes the cards left at the end.", players[side])
            else:  # a capture: a card was played
                assert card is not None
                played = _.card_name(card)
                said = of_side(_, "{side} plays {card} and takes {taken}.", players[side], card=the_card(_, card),
                               taken=the_cards(_, taken))
            on_table = _("On the table: {cards}.", cards=the_cards(_, before))
            # Cards in words, as a student reads them (no codes, no small cards: a phone's narrow table wraps words;
            # three columns, who and what in one, so that it fits a phone's width)
            move = _("{side}: {played}", side=players[side], played=played)
            rows.append({"id": str(n), "cells": [card_names(_, before), move, card_names(_, taken)],
                         "label": f"{on_table} {said}"})
        self.captures.deck = self.frame.deck
        self.captures.caption = _("The captures of the deal")
        self.captures.headers = [_("Table before"), _("Plays"), _("Takes")]
        self.captures.rows = rows
        for side, box in enumerate(self.boxes_of):
            box.description = of_side(_, "{side}'s escobas", names[side])
            box.placeholder = _("a number")
            wanted = self.model.answers[side] if side < len(self.model.answers) else ""
            if box.value != wanted:
                box.value = wanted if isinstance(wanted, str) else ""

    def feedback(self, _: Translator, drill: EscobasDrill, names: Sequence[str], result) -> list[str]:
        lines = []
        for side, (answer, typed) in enumerate(zip(result["answers"], result["typed"])):
            name, right = names[side], drill.escobas[side]
            if typed == "bad":
                lines.append(_("{side}: write a whole number, for example 2.", side=name))
            elif answer.mistake == "unanswered":
                lines.append(_("{side}: write how many escobas.", side=name))
            elif answer.ok:
                lines.append(_("{side}: right, {n}.", side=name, n=right))
            elif answer.mistake == "counted_leftover":
                lines.append(_("{side}: {n}. Taking the cards left at the end is never an escoba, even though it "
                               "empties the table.", side=name, n=right))
            elif answer.mistake == "missed_escoba_de_mano":
                lines.append(_("{side}: {n}. The escoba de mano counts too: it is written on the escobas line.",
                               side=name, n=right))
            else:
                lines.append(_("{side}: not {given}. Count the captures that left the table empty.", side=name,
                               given=answer.given))
        right = sum(1 for a in result["answers"] if a.ok)
        return [_("{right} of {total} right.", right=right, total=len(result["answers"])), *lines]

    def answer(self, _: Translator, drill: EscobasDrill, names: Sequence[str], current):
        current = current or w.HTML()
        lines = []
        record = drill.record
        for side, name in enumerate(names):
            # the plays the referee marked as escobas (a sweep that does not score, in a variant, is not marked)
            made = [_("with {card}", card=the_card(_, play.move.card)) for play in record.plays
                    if play.escoba and play.player % len(names) == side]
            if record.dealer_escobas and record.dealer % len(names) == side:
                made.insert(0, _("the escoba de mano"))
            if not made:
                lines.append(_("{side}: 0, because no capture left the table empty.", side=name))
                continue
            how = join_words(_, made)
            lines.append(_.plural("{side}: {n} escoba ({how}).", "{side}: {n} escobas ({how}).",
                                  drill.escobas[side], side=name, how=how))
        lines.append(_("Taking the cards left at the end is never an escoba."))
        current.value = "<div class='escoba-worked'>" + "".join(f"<p>{escape(line)}</p>" for line in lines) + "</div>"
        return current
