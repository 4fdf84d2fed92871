"""Which card would you play? A position of a real game; the learner chooses a move, which is judged against
the expert's ranking (right when it loses at most a small amount against the best), with the reason in words."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...engine.errors import EscobaError
from ...engine.game import Move
from ...exercises import STRATEGY_TOLERANCE, StrategyDrill
from ...exercises.kinds.strategy import situation, taken_by_suit
from ...text.phrases import count_of, one_decimal, points_number
from ...text.translator import N_, Translator
from ..hint_panel import points_words, reason_words
from ..primitives import CardRow, RowPicker
from ..safety import guarded
from .base import DrillModel, KindView, fill_row, the_card, the_cards

__all__ = ["StrategyView", "move_sentence"]


def move_sentence(_: Translator, move: Move) -> str:
    """«el tres de copas, que se lleva el as de oros y el siete de oros»; «el rey de bastos, a la mesa»."""
    if move.captured:
        return _("{card}, taking {taken}", card=the_card(_, move.card), taken=the_cards(_, sorted(move.captured)))
    return _("{card}, laid down on the table", card=the_card(_, move.card))


def decimal(_: Translator, value: float) -> str:
    """A number of points with one decimal, as the learner's language writes it: ``0,2``, ``1.5``."""
    return one_decimal(_, round(abs(value), 1))


def _sweeps(drill: StrategyDrill, move: Move) -> bool:
    """The move takes every table card: an escoba, the one thing the "good" tone (★) marks, as in the game."""
    return bool(move.captured) and set(move.captured) == set(drill.table)


def _id(move: Move) -> str:
    return str(move)


class StrategyView(KindView):
    """Your hand (``hand_row``), the table (``table_row``) and the legal moves (``moves``: choose one row)."""

    kind = "strategy"
    title = N_("Which card would you play?")
    task = N_("It is your turn. Choose the play you would make from the list, then press “Check”: the expert says "
              "how good it is, and why.")

    @staticmethod
    def judge(drill: StrategyDrill, model: DrillModel):
        chosen = model.choices.get("move")
        try:
            return drill.check(chosen) if chosen else "unanswered"
        except EscobaError:  # a move that is not in the list: not answered
            return "unanswered"

    def build(self, drill: StrategyDrill) -> list[w.Widget]:
        self.hand_label, self.table_label = w.HTML(), w.HTML()
        self.hand_row = CardRow(mode="none")
        self.table_row = CardRow(mode="none")
        # who plays, the deck, the other hand and the cards already taken: what a play is weighed with
        self.situation = w.HTML()
        self.moves = RowPicker()
        self.moves.observe(self._picked, "selected")
        return [self.hand_label, self.hand_row, self.table_label, self.table_row, self.situation, self.moves]

    @guarded
    def _picked(self, change) -> None:
        if not self.frame.syncing:
            self.chose("move", change)

    def draw(self, _: Translator, drill: StrategyDrill, names: Sequence[str]) -> None:
        deck = self.frame.deck
        hand, table = _("Your hand"), _("Table")
        self.hand_label.value = f"<b>{escape(hand)}</b>"
        self.table_label.value = f"<b>{escape(table)}</b>"
        for row, cards, label in ((self.hand_row, drill.hand, hand), (self.table_row, drill.table, table)):
            fill_row(row, _, cards, label, deck, marks=True)
        taken = " ".join((_("Already taken in this deal:"), "; ".join(taken_by_suit(_, drill))))
        self.situation.value = f"<p>{escape(situation(_, drill))}</p><p>{escape(taken)}</p>"
        moves = sorted((h.move for h in drill.ranking),
                       key=lambda m: (m.card.index, sorted(c.index for c in m.captured)))
        rows = []
        for move in moves:
            said = move_sentence(_, move)
            rows.append({"id": _id(move), "cells": [said[:1].upper() + said[1:]],
                         "cards": [move.card.code, *(c.code for c in sorted(move.captured))], "label": said,
                         "tone": "good" if _sweeps(drill, move) else ""})
        self.moves.deck = deck
        self.moves.caption = _("Your possible plays")
        self.moves.headers = [_("Your play")]
        self.moves.rows = rows
        chosen = self.model.choices.get("move", "")
        if self.moves.selected != chosen:
            self.moves.selected = chosen

    def feedback(self, _: Translator, drill: StrategyDrill, names: Sequence[str], result) -> list[str]:
        if result == "unanswered":
            return [_("Choose a play from the list first.")]
        chosen, best = result.chosen, result.best
        why = reason_words(_, chosen.reason, drill.rules)
        if result.ok and chosen.loss < 1e-9:
            return [_("Right: that is the expert's play."), _("Why: {why}.", why=why)]
        loss, count = points_number(_, chosen.loss)
        if result.ok:
            return [_.plural("Good: almost as good as the expert's play (worth about {loss} point less).",
                             "Good: almost as good as the expert's play (worth about {loss} points less).", count,
                             loss=loss), _("Why: {why}.", why=why),
                    _("The expert plays {move}. Why: {why}.", move=move_sentence(_, best.move),
                      why=reason_words(_, best.reason, drill.rules))]
        return [_.plural("Not the best: it is worth about {loss} point less than the expert's play.",
                         "Not the best: it is worth about {loss} points less than the expert's play.", count,
                         loss=loss),
                _("Your play: {why}.", why=why),
                _("Better: {move}. Why: {why}.", move=move_sentence(_, best.move),
                  why=reason_words(_, best.reason, drill.rules))]

    def answer(self, _: Translator, drill: StrategyDrill, names: Sequence[str], current):
        current = current or RowPicker(disabled=True)
        current.add_class("et-stack-narrow")  # its reasons are sentences: on a phone each row stacks
        current.deck = self.frame.deck
        tolerance = decimal(_, STRATEGY_TOLERANCE)
        current.caption = _.plural("The expert's ranking (right: within {loss} point of the best)",
                                   "The expert's ranking (right: within {loss} points of the best)",
                                   count_of(tolerance), loss=tolerance)
        current.headers = [_("Your play"), _("Points"), _("Why")]
        rows = []
        for hint in drill.ranking:
            said = move_sentence(_, hint.move)
            # A good move is said in words, never with the "good" tone: its ★ means "this capture is an escoba".
            verdict = _("right") if hint.loss <= STRATEGY_TOLERANCE + 1e-9 else _("loses too much")
            points = points_words(_, hint.value)
            why = reason_words(_, hint.reason, drill.rules)
            # (the verdict goes with the points: a fourth column would not fit a phone)
            rows.append({"id": _id(hint.move), "cells": [said[:1].upper() + said[1:], f"{points} ({verdict})", why],
                         "cards": [hint.move.card.code, *(c.code for c in sorted(hint.move.captured))],
                         "label": f"{said[:1].upper() + said[1:]}: {points}; {why}; {verdict}",
                         "tone": "good" if _sweeps(drill, hint.move) else ""})
        current.rows = rows
        return current
