"""Work out the setenta: a pile per side; the learner types each side's setenta, or "invalid", and is told the
slip that explains a wrong number (the engine's ``check_setenta``)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...exercises import SetentaDrill
from ...exercises.kinds.setenta import INVALID_WORDS, read_setenta_answer
from ...text.phrases import listed
from ...text.translator import N_, Translator
from ..primitives import CardRow
from ..score_sheet import join_words
from ..setenta_explainer import SetentaExplainer
from .base import DrillModel, KindView, fill_row, of_side, the_card

__all__ = ["SetentaView", "read_setenta_answer", "INVALID_WORDS"]


class SetentaView(KindView):
    """Per side: a heading, the pile, and a text box for its setenta (``parts``: (heading, row, box))."""

    kind = "setenta"
    title = N_("Work out the setenta")
    task = N_("Write each side's setenta: a number, or “invalid” when a suit is missing. Then press “Check”.")

    @staticmethod
    def boxes(drill: SetentaDrill) -> int:
        return len(drill.piles)

    @staticmethod
    def layout_of(drill: SetentaDrill) -> tuple:
        return (drill.kind, len(drill.piles))

    @staticmethod
    def judge(drill: SetentaDrill, model: DrillModel):
        result = []
        for side in range(len(drill.piles)):
            text = model.answers[side] if side < len(model.answers) else ""
            state, number = read_setenta_answer(text)
            check = drill.check(side, number) if state in ("number", "invalid") else None
            result.append({"state": state, "text": text if isinstance(text, str) else "", "check": check})
        return result

    def build(self, drill: SetentaDrill) -> list[w.Widget]:
        self.parts = []
        boxes = []
        for side in range(len(drill.piles)):
            heading, row = w.HTML(), CardRow(mode="none")
            text = w.Text(continuous_update=False, layout=w.Layout(width="auto", max_width="36em"),
                          style={"description_width": "initial"})
            text.observe(lambda change, side=side: self.typed(side, change), "value")
            self.parts.append((heading, row, text))
            boxes.append(w.VBox([heading, row, text]))
        return boxes

    def draw(self, _: Translator, drill: SetentaDrill, names: Sequence[str]) -> None:
        for side, (heading, row, text) in enumerate(self.parts):
            pile = drill.piles[side]
            heading.value = f"<h4>{escape(names[side])}</h4>"
            fill_row(row, _, pile, of_side(_, "{side}'s pile", names[side]), self.frame.deck)
            text.description = of_side(_, "{side}'s setenta", names[side])
            text.placeholder = _("a number, or “invalid”")
            wanted = self.model.answers[side] if side < len(self.model.answers) else ""
            if text.value != wanted:
                text.value = wanted if isinstance(wanted, str) else ""

    def answer(self, _: Translator, drill: SetentaDrill, names: Sequence[str], current):
        current = current or SetentaExplainer(piles=[list(p) for p in drill.piles], rules=drill.rules,
                                              editable=False)
        if current.model.pile_cards != drill.piles or current.model.rules_used != drill.rules:
            current.model.rules = drill.rules
            current.piles = [list(p) for p in drill.piles]
        current.names, current.lang, current.deck = names, self.lang, self.frame.deck
        current.show_all()
        return current

    def feedback(self, _: Translator, drill: SetentaDrill, names: Sequence[str], result) -> list[str]:
        lines = [self._one(_, names[side], entry) for side, entry in enumerate(result)]
        right = sum(1 for entry in result if entry["check"] is not None and entry["check"].ok)
        return [_("{right} of {total} right.", right=right, total=len(result)), *lines]

    def _one(self, _: Translator, side: str, entry: dict) -> str:
        check = entry["check"]
        if entry["state"] == "blank":
            return _("{side}: write a number, or “invalid”.", side=side)
        if check is None:
            return _("{side}: “{text}” is not a number: write one like 70, or “invalid”.", side=side,
                     text=entry["text"][:20])
        expected = check.expected
        suits = listed(_, [_.suit_name(s) for s in (check.suits or expected.missing)])  # ("no cups or clubs")
        if check.ok:
            if expected.total is None:
                return _("{side}: right, the setenta is invalid (no {suits:or}).", side=side, suits=suits)
            return _("{side}: right, {total}.", side=side, total=expected.total)
        mistake = check.mistake
        if mistake == "missing_suit":
            return _("{side}: no {suits:or}, so the setenta is invalid.", side=side, suits=suits)
        if mistake == "only_figures":
            return _("{side}: in {suits} there are only face cards, and with this house rule only the cards "
                     "from 1 to 7 count, so the setenta is invalid.", side=side, suits=suits)
        if mistake == "not_invalid":
            return _("{side}: there is a card of every suit, so the setenta is valid: add the best card of each "
                     "suit.", side=side)
        cards = join_words(_, [the_card(_, c) for c in check.cards])
        if mistake == "figure_capture_value":
            if len(check.cards) == 1 and check.cards[0].rank == 10:
                return _("{side}: you counted {card} as 8, but for the setenta face cards are worth 10.",
                         side=side, card=cards)
            if len(check.cards) == 1:
                return _("{side}: you counted {card} as 9, but for the setenta face cards are worth 10.",
                         side=side, card=cards)
            return _("{side}: you counted {cards} with their value for making 15 (jack 8, knight 9), but for the "
                     "setenta face cards are worth 10.", side=side, cards=cards)
        if mistake == "figure_printed":
            return _.plural("{side}: you counted {cards} by the number printed on it (knight 11, king 12), but for "
                            "the setenta face cards are worth 10.",
                            "{side}: you counted {cards} by the number printed on them (knight 11, king 12), but for "
                            "the setenta face cards are worth 10.", len(check.cards), side=side, cards=cards)
        if mistake == "wrong_best":
            slips = []
            for chosen, better in zip(check.cards, check.better):
                slips.append(_("in {suit}, {better} ({better_value}) beats {card} ({value})",
                               suit=_.suit_name(better.suit), better=the_card(_, better),
                               better_value=better.setenta_value, card=the_card(_, chosen),
                               value=chosen.setenta_value))
            slip_text = "; ".join(slips)
            return _("{side}: {slips}. Take each suit's best card by its setenta value, not by its number.",
                     side=side, slips=slip_text)
        if mistake == "capture_values":
            return _("{side}: you added the values for making 15; the setenta has its own: 7 = 21, 6 = 18, "
                     "ace = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, face cards 10.", side=side)
        if mistake == "summed_all":
            return _("{side}: you added every card; add only the best card of each suit, four cards in all.",
                     side=side)
        if check.given is None:
            return _("{side}: not “invalid”.", side=side)
        return _("{side}: {given} is not right. Check each suit's best card and add again.", side=side,
                 given=check.given)
