"""Find every capture: a card to play and a table; the learner builds each capture they see, one at a time, then
checks: which are right, which are missing, which are wrong and why (the engine's ``check_capture``)."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as w

from ...exercises import CaptureDrill
from ...text.translator import N_, Translator
from ..capture_table import describe_sum
from ..primitives import ActionButton, CardRow, RowPicker
from ..safety import guarded
from .base import DrillModel, KindView, fill_row, the_card, the_cards

__all__ = ["CapturesView"]


def _key(taken) -> str:
    return "+".join(c.code for c in sorted(taken))


class CapturesView(KindView):
    """The card played, the table (select the cards of one capture), "Add this capture", "Remove the chosen
    capture", "Clear my captures", and the learner's list (``captures_list``), each row with its verdict after a
    check."""

    kind = "captures"
    title = N_("Find every capture")
    task = N_("Select the table cards of one capture and press “Add this capture”; repeat for every capture you "
              "see (none, if the card takes nothing), then press “Check”.")

    @staticmethod
    def judge(drill: CaptureDrill, model: DrillModel):
        return drill.check(model.built)

    def build(self, drill) -> list[w.Widget]:
        self.hand_label, self.table_label = w.HTML(), w.HTML()
        self.hand_row = CardRow(mode="none")
        self.table_row = CardRow(mode="multi")
        self.captures_list = RowPicker()
        # Adding and removing act on the cards and the capture chosen on the page (see ActionButton).
        self.add_button = ActionButton(icon="plus", inputs=[self.table_row], clears=[self.table_row])
        self.remove_button = ActionButton(icon="minus", inputs=[self.captures_list])
        self.clear_button = w.Button(icon="eraser")
        self.add_button.on_click(lambda _b: self.add())
        self.remove_button.on_click(lambda _b: self.remove())
        self.clear_button.on_click(lambda _b: self.clear())
        return [self.hand_label, self.hand_row, self.table_label, self.table_row,
                w.HBox([self.add_button, self.remove_button, self.clear_button],
                       layout=w.Layout(flex_flow="row wrap")), self.captures_list]

    # ------------------------------------------------------------------------------------------- actions
    @guarded
    def add(self) -> None:
        """Add the table cards selected now as one capture."""
        outcome = self.model.add_capture(list(self.table_row.selected))
        self.frame.note = outcome
        if outcome == "added":
            self.table_row.selected = []
        self.frame._redraw()

    @guarded
    def remove(self) -> None:
        """Remove the capture chosen in the learner's list (a missing one, shown after a check, is not theirs)."""
        chosen = self.captures_list.selected
        self.frame.note = ""
        if chosen and not chosen.startswith("missing:"):
            self.model.built = [b for b in self.model.built if b != chosen.split("+")]

    @guarded
    def clear(self) -> None:
        self.frame.note = ""
        self.model.built = []

    # -------------------------------------------------------------------------------------------- drawing
    def draw(self, _: Translator, drill: CaptureDrill, names: Sequence[str]) -> None:
        m, deck = self.model, self.frame.deck
        you_play, table = _("You play"), _("Table")
        self.hand_label.value = f"<b>{you_play}</b>"
        self.table_label.value = f"<b>{table}</b>"
        for row, cards, label in ((self.hand_row, (drill.card,), you_play), (self.table_row, drill.table, table)):
            fill_row(row, _, cards, label, deck, marks=True)
        self.hand_row.highlighted = [drill.card.code]
        self.add_button.description = _("Add this capture")
        self.remove_button.description = _("Remove the chosen capture")
        self.clear_button.description = _("Clear my captures")
        picker = self.captures_list
        picker.deck = deck
        picker.caption = _("Your captures")
        picker.empty_text = _("No capture yet: if the card takes nothing, just press “Check”.")
        result = m.result
        verdicts = {}
        if result is not None:
            for taken in result.right:  # "right" in words; the "good" tone (★) only marks an escoba
                verdicts[_key(taken)] = (_("right"), "good" if set(taken) == set(drill.table) else "")
            for check in result.wrong:
                verdicts[_key(check.taken)] = (_("wrong: {why}", why=self.why_wrong(_, drill, check)), "warn")
        rows = []
        for codes in m.built:
            key = "+".join(codes)
            verdict, tone = verdicts.get(key, ("", ""))
            label = _("{card:The} takes {taken}", card=the_card(_, drill.card), taken=the_cards(_, codes))
            rows.append({"id": key, "cells": [drill.card.code, " ".join(codes), verdict],
                         "cards": [drill.card.code, *codes], "label": f"{label}. {verdict}".rstrip(". "),
                         "tone": tone})
        if result is not None:
            for taken in result.missing:
                codes = [c.code for c in sorted(taken)]
                verdict = _("missing: you did not list it")
                label = _("{card:The} takes {taken}", card=the_card(_, drill.card), taken=the_cards(_, codes))
                rows.append({"id": "missing:" + "+".join(codes), "cells": [drill.card.code, " ".join(codes), verdict],
                             "cards": [drill.card.code, *codes], "label": f"{label}. {verdict}", "tone": "info"})
        picker.headers = [_("Card played"), _("Takes"), _("Verdict")]
        picker.rows = rows

    def answer(self, _: Translator, drill: CaptureDrill, names: Sequence[str], current):
        current = current or RowPicker(disabled=True)
        current.deck = self.frame.deck
        current.caption = _("Every legal capture")
        current.headers = [_("Card played"), _("Takes"), _("Sum")]
        current.empty_text = _("{card:The} takes nothing here: it stays on the table.",
                               card=_sentence(the_card(_, drill.card)))
        rows = []
        for taken in drill.answer:
            codes = [c.code for c in sorted(taken)]
            total = describe_sum(_, drill.card, tuple(sorted(taken)), drill.rules)
            rows.append({"id": "+".join(codes), "cells": [drill.card.code, " ".join(codes), total],
                         "cards": [drill.card.code, *codes], "tone": "good" if set(taken) == set(drill.table) else ""})
        current.rows = rows
        return current

    # ---------------------------------------------------------------------------------------------- words
    def why_wrong(self, _: Translator, drill: CaptureDrill, check) -> str:
        """Why a capture is wrong, from the engine's reason."""
        taken = tuple(sorted(check.taken))
        if check.reason == "not_on_table":
            return _("those cards are not all on the table")
        if check.reason == "equal_card_first":
            return _("with a matching card on the table, it must be taken alone")
        total = describe_sum(_, drill.card, taken, drill.rules)
        if check.reason == "table_alone_15":
            return _("those table cards already add up to 15 on their own, and your card counts too ({sum})",
                     sum=total)
        if check.reason == "figure_face_value":
            return _("{sum}, not {goal}: watch out, the jack is worth 8, the knight 9 and the king 10",
                     sum=total, goal=check.goal)
        return _("{sum}, not {goal}", sum=total, goal=check.goal)

    def feedback(self, _: Translator, drill: CaptureDrill, names: Sequence[str], result) -> list[str]:
        card = the_card(_, drill.card)
        if result.ok:
            if not drill.answer:
                return [_("Right: {card} takes nothing here, so it stays on the table.", card=card)]
            if len(drill.answer) == 2:  # (English: "both", never "all 2")
                return [_("Right! You found both captures.")]
            return [_.plural("Right! You found the only capture.", "Right! You found all {n} captures.",
                             len(drill.answer))]
        lines = [_("{right} right, {missing} missing, {wrong} wrong.", right=len(result.right),
                   missing=len(result.missing), wrong=len(result.wrong))]
        for check in result.wrong:  # cards in words: these are sentences (the table of answers shows codes)
            taken = the_cards(_, sorted(check.taken))
            if check.reason == "table_alone_15":
                lines.append(_("Wrong: {taken} already add up to 15 on their own, and your card counts too (with "
                               "{card} they make {total}).", taken=taken, card=card, total=check.total))
                continue
            lines.append(_("Wrong: {card} with {taken}: {why}.", card=card, taken=taken,
                           why=self.why_wrong(_, drill, check)))
        for taken in result.missing:
            total = describe_sum(_, drill.card, tuple(sorted(taken)), drill.rules)
            lines.append(_("Missing: {card} can also take {taken} ({sum}).", card=card,
                           taken=the_cards(_, sorted(taken)), sum=total))
        if not drill.answer and result.wrong:
            lines.append(_("{card:The} takes nothing here: it stays on the table.", card=_sentence(card)))
        return lines

    def note_text(self, _: Translator, note: str) -> str:
        if note == "added":
            return _.plural("Capture added: you have listed {n} capture.",
                            "Capture added: you have listed {n} captures.", len(self.model.built))
        if note == "empty":
            return _("Select the table cards of the capture first.")
        if note == "repeated":
            return _("That capture is already in your list.")
        return ""


def _sentence(text: str) -> str:
    """Text that starts a sentence: its first letter a capital."""
    return text[:1].upper() + text[1:]
