"""House rules: the piles of a real deal and its points; with a house rule of docs/rules.md §7 switched on, the
learner says what each side scores, and the worked answer is the score sheet under the house rule. For a house
rule of the escoba de mano: the four cards laid face up at the start, and the escobas de mano of the dealer's side.
Deals of 2 players, 3 (each a side) or 4 (two teams)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...exercises import HouseRulesDrill
from ...exercises.kinds.house_rules import (
    dropped_words,
    house_rule_words,
    kept_points,
    mano_reason,
    mano_words,
    moved_points,
    seats_words,
    usual_item,
)
from ...exercises.kinds.points import SENTENCE_ITEMS, item_in_sentence
from ...text import labels
from ...text.translator import N_, Translator
from ..primitives import CardRow
from ..score_sheet import ScoreSheet, item_name, reason_text, sweeps_count
from .base import DrillModel, KindView, fill_row, of_side, read_number, two_players_line

__all__ = ["HouseRulesView", "points_said"]


#: What a side's wrong points say, by the mistake they make: ``{side}``, ``{given}`` (the answer), ``{right}`` (the
#: points with the house rule), ``{n}`` (those without it). After the heading ``{side}`` is never the subject: the
#: side may be the student ("you"), and «Tú se apunta», "You scores" are not sentences.
_POINTS_MISTAKES = {
    "unchanged": N_("{side}: not {n}. That is the score without the house rule, and in this deal the rule changes "
                    "it. With the house rule the score is {right}."),
    "changed_needlessly": N_("{side}: not {given}. In this deal the house rule does not change this "
                             "score: still {right}."),
    "kept_replaced_point": N_("{side}: not {given}. The house rule's point replaces the setenta point, so the "
                              "setenta is no longer scored. The score is {right}."),
    "missing_suit_out": N_("{side}: not {given}. With this house rule a setenta that is missing a suit is no longer "
                           "ruled out: the point goes to the side with cards in the most suits, and among those to "
                           "the highest setenta. The score is {right}."),
    "oros_point_once": N_("{side}: not {given}. This pile holds all ten coins, and with this house rule the coins "
                          "point is then worth 2 instead of 1. The score is {right}."),
    "oros_bonus_added": N_("{side}: not {given}. All ten coins make the coins point worth 2: those 2 points replace "
                           "the usual point; they are not added to it. The score is {right}."),
    "tie_scores_nobody": N_("{side}: not {given}. With this house rule a point that two sides tie for goes to the "
                            "third side if it has something for that point: at least one card for the cards point, "
                            "at least one coin for the coins point, a valid setenta for the setenta "
                            "point. The score is {right}."),
    "tied_sides_score": N_("{side}: not {given}. With this house rule the tied sides do not score the point they tie "
                           "for: it goes to the third side. The score is {right}."),
}


def points_said(_: Translator, names: Sequence[str], points) -> str:
    """«Bando 1: 4; Bando 2: 3»."""
    return "; ".join(_("{side}: {points}", side=name, points=p) for name, p in zip(names, points))


def sides_named(_: Translator, drill: HouseRulesDrill, names: Sequence[str], given) -> list[labels.Label]:
    """The sides' names: in a game of four, "Team 1" and "Team 2" unless the page named the sides; a side the
    page calls "you" is then your team (the partner may be the one who deals or scores: "for you" would be wrong)."""
    if drill.players == 4 and not given:
        return [labels.team(_, n) for n in (1, 2)]
    if drill.players == 4:
        return [labels.your_team(_) if getattr(name, "is_you", False) else name for name in names]  # type: ignore[misc]
    return list(names)  # type: ignore[arg-type]


class HouseRulesView(KindView):
    """The house rule (``rule``), who plays with whom (``seats``), and then for a points question each side's pile
    (``parts``, a heading and a card row) and the points without the house rule (``standard``), a box per side
    (``boxes_of``); for an escoba de mano question who deals (``dealt``), the four cards (``table_row``), the
    escobas de mano without the house rule (``standard``) and one box (``boxes_of``)."""

    kind = "house_rules"
    title = N_("What a house rule changes")
    task = N_("Here is a deal that has already been played, with its points. Now score it with the house rule: how "
              "many points does each side get? Then press “Check”.")

    @staticmethod
    def boxes(drill: HouseRulesDrill) -> int:
        return len(drill.points)

    @staticmethod
    def layout_of(drill: HouseRulesDrill) -> tuple:
        return (drill.kind, drill.question, len(drill.points))

    @staticmethod
    def judge(drill: HouseRulesDrill, model: DrillModel):
        # one answer per side, whatever the model holds (a page sends what it likes)
        typed = [read_number(model.answers[side] if side < len(model.answers) else "", 99)
                 for side in range(len(drill.points))]
        given = [t if isinstance(t, int) else None for t in typed]
        return {"answers": drill.check(given), "typed": typed}

    def sides(self, drill: HouseRulesDrill) -> int:
        return drill.sides

    def build(self, drill: HouseRulesDrill) -> list[w.Widget]:
        self.rule = w.HTML()
        self.seats = w.HTML()
        mano = drill.question == "escobas_de_mano"
        self.parts = [] if mano else [(w.HTML(), CardRow(mode="none", size="small")) for _side in drill.points]
        self.dealt = w.HTML()
        self.table_row = CardRow(mode="none")
        self.standard = w.HTML()
        self.boxes_of = []
        for side in range(len(drill.points)):
            box = w.Text(continuous_update=False, layout=w.Layout(width="auto", max_width="36em"),
                         style={"description_width": "initial"})
            box.observe(lambda change, side=side: self.typed(side, change), "value")
            self.boxes_of.append(box)
        shown = [self.dealt, self.table_row] if mano else [w.VBox([h, row]) for h, row in self.parts]
        return [self.rule, self.seats, *shown, self.standard, *self.boxes_of]

    def draw(self, _: Translator, drill: HouseRulesDrill, names: Sequence[str]) -> None:
        names = sides_named(_, drill, names, self.frame.names)
        title, change = house_rule_words(_, drill.house_rule)
        heading = _("House rule: {rule}", rule=title)
        self.rule.value = f"<p><b>{escape(heading)}</b><br>{escape(change)}</p>"
        seats = seats_words(_, drill.players, names)
        self.seats.value = f"<p>{escape(seats)}</p>" if seats else two_players_line(_, drill.players, self.frame.names)
        if drill.question == "escobas_de_mano":
            self._draw_mano(_, drill, names)
            return
        assert drill.standard is not None
        for side, (head, row) in enumerate(self.parts):
            pile = sorted(drill.piles[side])  # by suit, then 1–7, jack, knight, king: easier to count
            pile_size = _.plural("{n} card", "{n} cards", len(pile))
            escobas = sweeps_count(_, drill.escobas[side], drill.rules)
            head.value = f"<h4>{escape(names[side])} · {escape(pile_size)} · {escape(escobas)}</h4>"
            fill_row(row, _, pile, of_side(_, "{side}'s pile", names[side]), self.frame.deck)
        caption = _("Points for this deal without the house rule")
        lines = "".join(f"<li>{escape(self._line(_, line, names))}</li>" for line in drill.standard.lines
                        if line.item != "escobas" or any(line.values))
        total = _("Total: {points}.", points=points_said(_, names, drill.standard.points))
        self.standard.value = f"<p><b>{escape(caption)}</b></p><ul>{lines}</ul><p>{escape(total)}</p>"
        for side, box in enumerate(self.boxes_of):
            box.description = of_side(_, "Points for {side} with the house rule", names[side])
            box.placeholder = _("a number")
            wanted = self.model.answers[side] if side < len(self.model.answers) else ""
            if box.value != wanted:
                box.value = wanted if isinstance(wanted, str) else ""

    def _draw_mano(self, _: Translator, drill: HouseRulesDrill, names: Sequence[labels.Label]) -> None:
        # (under the pairs, the order dealt breaks a tie between pairs that share a card: the row is that order)
        dealer = labels.player(_, drill.dealer + 1)
        dealt = (_("{dealer} deals. The four cards face up on the table, in the order they were dealt:", dealer=dealer)
                 if drill.house_rule == "escoba_de_mano_pairs" else
                 _("{dealer} deals. The four cards face up on the table:", dealer=dealer))
        self.dealt.value = f"<p><b>{escape(dealt)}</b></p>"
        fill_row(self.table_row, _, drill.table, _("The table dealt"), self.frame.deck)
        side = names[drill.dealer_side]
        before = _("Without the house rule: {escobas}.", escobas=mano_words(_, drill.before[0], side))
        self.standard.value = f"<p>{escape(before)}</p>"
        box = self.boxes_of[0]
        box.description = of_side(_, "Escobas de mano for {side} with the house rule", side)
        box.placeholder = _("a number")
        wanted = self.model.answers[0] if self.model.answers else ""
        if box.value != wanted:
            box.value = wanted if isinstance(wanted, str) else ""

    @staticmethod
    def _line(_: Translator, line, names: Sequence[str]) -> str:
        return _("{item}: {reason}.", item=item_name(_, line.item), reason=reason_text(_, line, names))

    def feedback(self, _: Translator, drill: HouseRulesDrill, names: Sequence[str], result) -> list[str]:
        names = sides_named(_, drill, names, self.frame.names)
        if drill.question == "escobas_de_mano":
            lines = [self._mano_line(_, drill, names[drill.dealer_side], result["answers"][0], result["typed"][0])]
        else:
            lines = [self._points_line(_, drill, names[side], side, answer, typed)
                     for side, (answer, typed) in enumerate(zip(result["answers"], result["typed"]))]
        right = sum(1 for a in result["answers"] if a.ok)
        return [_("{right} of {total} right.", right=right, total=len(result["answers"])), *lines]

    @staticmethod
    def _points_line(_: Translator, drill: HouseRulesDrill, name, side: int, answer, typed) -> str:
        right, before, given = drill.points[side], drill.before[side], answer.given
        if typed == "bad":
            return _("{side}: write a whole number, for example 2.", side=name)
        if answer.mistake == "unanswered":
            return _("{side}: write the points with the house rule.", side=name)
        if answer.ok:
            return _("{side}: right, {n}.", side=name, n=right)
        why = _POINTS_MISTAKES.get(answer.mistake or "", N_("{side}: not {given}. Go through the points again with the "
                                                           "house rule: {right}."))
        return _(why, side=name, given=given, right=right, n=before)

    @staticmethod
    def _mano_line(_: Translator, drill: HouseRulesDrill, side, answer, typed) -> str:
        right = mano_words(_, drill.points[0], side)
        if typed == "bad":
            return _("Write a whole number, for example 1.")
        if answer.mistake == "unanswered":
            return of_side(_, "Write how many escobas de mano {side} scores with the house rule.", side)
        if answer.ok:
            return _("Right: {escobas}.", escobas=right)
        given = answer.given
        why = {
            "thirty_still_two": N_("With this house rule a table of 30 no longer gives an escoba de mano: only 15 "
                                   "(one) and 20 (two) do."),
            "twenty_missed": N_("With this house rule a table of 20 gives two escobas de mano."),
            "pairs_missed": N_("The four cards make no escoba de mano, but with this house rule the dealer takes "
                               "each pair among them that adds up to 15: one escoba per pair."),
            "shared_card_twice": N_("A card can be in only one pair: two pairs that share a card give one escoba, "
                                    "not two."),
            "pairs_on_top": N_("The four cards already make an escoba de mano: the dealer takes the whole table, "
                               "and no pairs are counted on top."),
            "changed_needlessly": N_("Here the house rule does not change the escobas de mano."),
        }.get(answer.mistake, N_("Add up the four cards again and apply the house rule."))
        return _("Not {given}. {why} The answer: {escobas}.", given=given, why=_(why), escobas=right)

    def answer(self, _: Translator, drill: HouseRulesDrill, names: Sequence[str], current):
        names = sides_named(_, drill, names, self.frame.names)
        if drill.question == "escobas_de_mano":
            if current is None or len(current.children) != 1:  # the last exercise's was a score sheet
                current = w.VBox([w.HTML()])
            side = names[drill.dealer_side]
            said = _("With the house rule: {escobas}.", escobas=mano_words(_, drill.points[0], side))
            current.children[0].value = ("<div class='escoba-worked'>" + "".join(
                f"<p>{escape(t)}</p>" for t in [said, mano_reason(_, drill)]) + "</div>")
            return current
        assert drill.standard is not None and drill.house is not None
        if current is None or len(current.children) != 2:
            current = w.VBox([w.HTML(), ScoreSheet(score=drill.house, rules=drill.house_rules)])
        sheet = current.children[1]
        sheet.score, sheet.names, sheet.lang = drill.house, names, self.lang
        # each point the house rule adds or scores differently, with its reason: which point moves, and why
        def in_sentence(item: str) -> str:  # the sheet's row title for an item the house rules never touch
            return item_in_sentence(_, item) if item in SENTENCE_ITEMS else item_name(_, item, drill.rules)

        new_lines = [line for line in drill.house.lines if usual_item(drill, line.item) is None]
        added = [_("{item} — {reason}", item=in_sentence(line.item), reason=reason_text(_, line, names))
                 for line in new_lines]
        changed = [_("{item} — {reason}", item=in_sentence(line.item), reason=reason_text(_, line, names))
                   for line in moved_points(drill)]
        gone = dropped_words(_, drill, names, lambda _t, item: in_sentence(item))
        if not drill.changes:
            said = _("In this deal the house rule does not change the totals: every side scores the same as "
                     "without it.")
        else:
            said = _("With the house rule: {points}.", points=points_said(_, names, drill.points))
        notes = []
        # joined outside the calls: the extractor reads a second text as a plural
        added_said, changed_said = "; ".join(added), "; ".join(changed)
        if added and any(any(line.points) for line in new_lines):
            notes.append(_.plural("New point: {items}.", "New points: {items}.", len(added), items=added_said))
        elif added:  # (as the sheet's key: a point nobody scores here is no "new point")
            notes.append(_.plural("The house rule's point, which nobody scores in this deal: {items}.",
                                  "The house rule's points, which nobody scores in this deal: {items}.", len(added),
                                  items=added_said))
        if changed:
            notes.append(_.plural("Point that changes: {items}.", "Points that change: {items}.", len(changed),
                                  items=changed_said))
        notes.extend(kept_points(_, drill, names, lambda _t, item: in_sentence(item)))
        if gone:
            gone_said = "; ".join(gone)  # (joined outside the call, as above)
            notes.append(_.plural("Point no longer scored: {items}.", "Points no longer scored: {items}.",
                                  len(gone), items=gone_said))
        current.children[0].value = ("<div class='escoba-worked'>" + "".join(f"<p>{escape(t)}</p>"
                                                                              for t in [said, *notes]) + "</div>")
        return current
