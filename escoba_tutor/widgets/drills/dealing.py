"""Dealing and turn order: a moment of a real game (who deals, who has just played, the cards in the hands and in
the deck); the learner says who plays next, what happens now and how many rounds are still to be dealt
(docs/rules.md §2)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from ...exercises import DEAL_NOW, NOBODY, DealingDrill
from ...exercises.kinds.dealing import (
    answer_lines,
    deal_now_words,
    leftover_words,
    moment_words,
    play_words,
    player_names,
    rounds_question,
    side_names,
    who_question,
)
from ...text.labels import Label
from ...text.translator import N_, Translator
from .base import DrillModel, KindView, choice_box, read_number, set_options

__all__ = ["DealingView"]


class DealingView(KindView):
    """The moment in words (``position``), who plays next (``next_player``), what happens now (``deal_now``) and
    the rounds still to be dealt (``rounds_box``); when the deal is over, its last plays (``plays``) and who takes
    the cards left (``leftover``)."""

    kind = "dealing"
    title = N_("Dealing and turns")
    task = N_("Look at this moment in the game. Who plays next? What happens now: does play go on, are more cards "
              "dealt, or is the deal over? If the stock still has cards, how many rounds are left in it? Then press "
              "“Check”.")

    @staticmethod
    def boxes(drill: DealingDrill) -> int:
        return 1

    @staticmethod
    def layout_of(drill: DealingDrill) -> tuple:
        return (drill.kind, drill.players, drill.items)

    @staticmethod
    def judge(drill: DealingDrill, model: DrillModel):
        chosen = model.choices.get("next_player")
        player = int(chosen) if isinstance(chosen, str) and chosen in [str(i) for i in range(drill.players)] else None
        now = model.choices.get("deal_now")
        typed = read_number(model.answers[0] if model.answers else "", 99)
        leftover: int | str | None = None
        if "leftover" in drill.items:
            taker = model.choices.get("leftover")
            sides = [str(i) for i in range(drill.sides)]
            leftover = NOBODY if taker == "none" else int(taker) if isinstance(taker, str) and taker in sides else None
        rounds = typed if isinstance(typed, int) and "rounds_left" in drill.items else None
        return {"answers": drill.check(player, now if now in DEAL_NOW else None, rounds, leftover), "typed": typed}

    def build(self, drill: DealingDrill) -> list[w.Widget]:
        self.position = w.HTML()
        self.next_player = choice_box(lambda change: self.chose("next_player", change))
        self.deal_now = choice_box(lambda change: self.chose("deal_now", change))
        self.rounds_box = w.Text(continuous_update=False, layout=w.Layout(width="auto", max_width="36em"),
                                 style={"description_width": "initial"})
        self.rounds_box.observe(lambda change: self.typed(0, change), "value")
        # (no rounds to count once the deck is empty: the box is shown only while it has cards)
        controls = [self.position, self.next_player, self.deal_now,
                    *([self.rounds_box] if "rounds_left" in drill.items else [])]
        if "leftover" in drill.items:
            self.plays = w.HTML()
            self.leftover = choice_box(lambda change: self.chose("leftover", change))
            controls[1:1] = [self.plays]
            controls.append(self.leftover)
        return controls

    def names_of(self, _: Translator, drill: DealingDrill) -> list[Label]:
        return player_names(_, drill.players)

    def draw(self, _: Translator, drill: DealingDrill, names: Sequence[str]) -> None:
        players = self.names_of(_, drill)
        self.position.value = "".join(f"<p>{escape(line)}</p>" for line in moment_words(_, drill, players))
        choices = self.model.choices
        set_options(self.next_player, [(_("choose…"), "")] + [(name, str(i)) for i, name in enumerate(players)],
                    choices.get("next_player", ""))
        self.next_player.description = who_question(_, drill)
        set_options(self.deal_now, [(_("choose…"), "")] + [(words, key) for key, words in deal_now_words(_).items()],
                    choices.get("deal_now", ""))
        self.deal_now.description = _("What happens now?")
        self.rounds_box.description = rounds_question(_)
        self.rounds_box.placeholder = _("a number")
        wanted = self.model.answers[0] if self.model.answers else ""
        if self.rounds_box.value != wanted:
            self.rounds_box.value = wanted if isinstance(wanted, str) else ""
        if "leftover" in drill.items:
            said = "".join(f"<li>{escape(play_words(_, players, *play))}</li>" for play in drill.plays)
            last = _("The last plays of the deal:")
            self.plays.value = f"<p><b>{escape(last)}</b></p><ol>{said}</ol>"
            options = [(_("choose…"), "")] + [(name, str(i)) for i, name in enumerate(side_names(_, drill, players))]
            set_options(self.leftover, options + [(_("Nobody"), "none")], choices.get("leftover", ""))
            self.leftover.description = _("Who takes the cards left on the table?")

    def feedback(self, _: Translator, drill: DealingDrill, names: Sequence[str], result) -> list[str]:
        players = self.names_of(_, drill)
        lines = []
        for answer in result["answers"]:
            if answer.item == "rounds_left" and result["typed"] == "bad":
                lines.append(_("Rounds: write a whole number, for example 2."))
            elif answer.item == "next_player":
                lines.append(self._player(_, drill, players, answer))
            elif answer.item == "deal_now":
                lines.append(self._now(_, drill, players, answer))
            elif answer.item == "leftover":
                lines.append(self._leftover(_, drill, players, answer))
            else:
                lines.append(self._rounds(_, drill, answer))
        right = sum(1 for a in result["answers"] if a.ok)
        return [_("{right} of {total} right.", right=right, total=len(result["answers"])), *lines]

    def _player(self, _: Translator, drill: DealingDrill, players: list[Label], answer) -> str:
        who = players[drill.next_player]
        next_deal = drill.deal_now == "deal_over"  # then the question is who plays first in the next deal
        if answer.mistake == "unanswered":
            return (_("Who plays first in the next deal: choose a player.") if next_deal
                    else _("Who plays next: choose a player."))
        if answer.ok:
            return (_("Who plays first in the next deal: right, {player}.", player=who) if next_deal
                    else _("Who plays next: right, {player}.", player=who))
        given = players[answer.given]
        if answer.mistake == "dealer_first":
            return _("Who plays next: not {player}. The dealer plays last in every round; the player to the "
                     "dealer's right starts: {right}.", player=given, right=who)
        if answer.mistake == "same_player" and next_deal:
            return _("Who plays first in the next deal: not {player}, who dealt this one. The deal passes to the "
                     "right, and the player to the new dealer's right plays first: {right}.",
                     player=given, right=who)
        if answer.mistake == "same_player":
            return _("Who plays next: not {player}, who has just played. The turn passes to the right: {right}.",
                     player=given, right=who)
        if answer.mistake == "wrong_way":
            before = players[(drill.next_player - 1) % drill.players]
            if next_deal:
                return _("Who plays first in the next deal: not {player}. Play goes to the right (anticlockwise), "
                         "so after {before}, the next dealer, comes {right}.", player=given, before=before, right=who)
            return _("Who plays next: not {player}. Play goes to the right (anticlockwise), so after {before} comes "
                     "{right}.", player=given, before=before, right=who)
        if answer.mistake == "new_dealer_first":
            return _("Who plays first in the next deal: not {player}. {player} is the dealer for the next deal, and "
                     "the player to the dealer's right plays first: {right}.", player=given, right=who)
        if next_deal:
            return _("Who plays first in the next deal: not {player}, but {right}.", player=given, right=who)
        return _("Who plays next: not {player}, but {right}.", player=given, right=who)

    def _now(self, _: Translator, drill: DealingDrill, players: list[Label], answer) -> str:
        if answer.mistake == "unanswered":
            return _("What happens now: choose an answer.")
        if answer.ok:
            return _("What happens now: right.")
        if answer.mistake == "hands_not_empty":
            return _("What happens now: nothing is dealt yet. Cards are dealt again only when every hand is empty, "
                     "but some players still have cards.")
        if answer.mistake == "hands_empty":
            if drill.deal_now == "deal_three":
                return _("What happens now: every hand is empty, so nobody can play. {dealer} deals three more cards "
                         "to each player.", dealer=players[drill.dealer])
            return _("What happens now: every hand is empty and the stock has run out, so the deal is over.")
        if answer.mistake == "deck_not_empty":
            return _("What happens now: the deal is not over while the stock still has cards. {dealer} deals three "
                     "more to each player.", dealer=players[drill.dealer])
        return _("What happens now: the stock has run out, so no more cards are dealt and the deal is over.")

    def _rounds(self, _: Translator, drill: DealingDrill, answer) -> str:
        if answer.mistake == "unanswered":
            return _("Rounds: write how many rounds are left in the stock.")
        if answer.ok:
            return _("Rounds: right, {rounds}.", rounds=drill.rounds_left)
        if answer.mistake == "per_player":
            return _("Rounds: not {given}. A round gives three cards to each of the {n} players, {cards} cards in "
                     "all: {deck} ÷ {cards} = {rounds}.", given=answer.given, n=drill.players,
                     cards=3 * drill.players, deck=drill.deck_left, rounds=drill.rounds_left)
        if answer.mistake == "counted_dealt_round":
            return _("Rounds: not {given}. The cards in the players' hands are already dealt: count only the "
                     "rounds still in the stock, {rounds}.", given=answer.given, rounds=drill.rounds_left)
        return _("Rounds: not {given}. Divide the cards left in the stock by {cards} (three for each player): "
                 "{rounds}.", given=answer.given, cards=3 * drill.players, rounds=drill.rounds_left)

    def _leftover(self, _: Translator, drill: DealingDrill, players: list[Label], answer) -> str:
        sides = side_names(_, drill, players)
        why = leftover_words(_, drill, players)
        if answer.mistake == "unanswered":
            return _("Cards left: choose who takes them (or “Nobody”).")
        if answer.ok:
            return _("Cards left: right. {why}", why=why)
        if answer.mistake == "last_to_play":
            return _("Cards left: not {given}. {dealer} played the last card but laid it down, so the cards left go "
                     "to the last side that captured. {why}", given=sides[answer.given], dealer=players[drill.dealer],
                     why=why)
        if answer.mistake == "somebody_captured":
            return _("Cards left: someone captured in this deal, so they do go to somebody. {why}", why=why)
        if answer.mistake == "nobody_captured":
            return _("Cards left: nobody captured in the whole deal, so they belong to nobody.")
        return _("Cards left: not {given}. They go to the last side that captured. {why}", given=sides[answer.given],
                 why=why)

    def answer(self, _: Translator, drill: DealingDrill, names: Sequence[str], current):
        current = current or w.HTML()
        lines = answer_lines(_, drill, self.names_of(_, drill))
        current.value = "<div class='escoba-worked'>" + "".join(f"<p>{escape(line)}</p>" for line in lines) + "</div>"
        return current
