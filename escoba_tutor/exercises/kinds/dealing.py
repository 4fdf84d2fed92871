"""Dealing and turn order: who plays next, whether cards are dealt now, and how many rounds are left in the deck
(docs/rules.md §2)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...engine.cards import Card
from ...engine.errors import EscobaError
from ...engine.game import Game
from ...engine.rules import ESCOBA, Rules, as_rules
from ...text import labels
from ...text.labels import Label
from ...text.phrases import and_list, the_cards
from ...text.translator import N_, Translator
from .. import given as giving
from .. import paper
from ..common import (
    ATTEMPTS,
    MAX_SEED,
    NOBODY,
    Answer,
    check_seed,
    check_side,
    form_outcome,
    is_whole,
    judged,
    pick,
    seeded,
)
from ..kind import DrillKind, Variety, WorksheetPart
from ..paper import two_players

__all__ = ["DealingDrill", "dealing_drill", "MOMENTS", "DEAL_NOW", "who_question", "rounds_question"]

#: The moments of a deal a position is taken at: just dealt, in the middle of a round, the round's last card
#: just played (cards still in the deck), the deal's last card just played.
MOMENTS = ("start", "mid_round", "round_over", "deal_over")
#: What happens right after the position: play goes on, three more cards to each player, the deal is over.
DEAL_NOW = ("play_on", "deal_three", "deal_over")


@dataclass(frozen=True)
class DealingDrill:
    """A moment of a real game (``players`` 2, 3 or 4; ``dealer``; the player who has just played, ``last``,
    None when the cards have just been dealt; the cards in each hand, ``hands``; the cards still in the deck,
    ``deck_left``). Who plays next (``next_player``, the engine's turn after the moment: in a new deal when this
    one is over), what happens now (``deal_now``, one of :data:`DEAL_NOW`) and how many rounds (three cards for
    each player) are left in the deck (``rounds_left``: the round in the players' hands is not among them)?

    Mistakes: for who plays next ``dealer_first`` (the dealer, who plays after everyone), ``same_player`` (the
    player who has just played), ``wrong_way`` (the player to the left: play goes to the right),
    ``new_dealer_first`` (the next deal's dealer, not the player to the dealer's right), ``wrong_player``; for
    what happens now ``hands_not_empty`` (cards dealt, or the deal over, while hands still hold cards),
    ``hands_empty`` (play goes on with every hand empty), ``deck_not_empty`` (the deal over with cards in the
    deck), ``deck_spent`` (more cards dealt from an empty deck); for the rounds ``per_player`` (the deck divided
    by 3, not by 3 cards for each player), ``counted_dealt_round`` (the round in the players' hands counted
    again), ``wrong_rounds``; ``unanswered`` for any question left out.

    When the deal is over (``deal_over``) one more question: which side takes the cards left on the table
    (``leftover_to``, a side: a player, or a team of two with four players; None: nobody captured), from the
    deal's last plays (``plays``, each (player, card, cards taken), from its last capture on). Its mistakes:
    ``last_to_play`` (the side of the dealer, who played the last card, without the last capture),
    ``not_last_capture``, ``somebody_captured`` (nobody, though someone captured), ``nobody_captured``.
    """

    kind = "dealing"
    seed: int
    rules: Rules
    players: int
    dealer: int
    moment: str
    last: int | None
    hands: tuple[int, ...]
    deck_left: int
    next_player: int
    deal_now: str
    rounds_left: int
    plays: tuple[tuple[int, Card, tuple[Card, ...]], ...] = ()
    leftover_to: int | None = None

    @property
    def items(self) -> tuple[str, ...]:
        # the rounds left are a question only while the deck has cards: "0" after "the deck is empty" asks nothing
        asked = ("next_player", "deal_now", "rounds_left") if self.deck_left else ("next_player", "deal_now")
        return (*asked, "leftover") if self.moment == "deal_over" else asked

    @property
    def sides(self) -> int:
        """How many sides: each player alone, or two teams of two with four players."""
        return 2 if self.players == 4 else self.players

    def side_of(self, player: int) -> int:
        return player % self.sides

    @property
    def last_capturer(self) -> int | None:
        """The player who made the deal's last capture, among the plays shown (None: not asked)."""
        return next((player for player, _card, taken in reversed(self.plays) if taken), None)

    @property
    def mano(self) -> int:
        """The player to the dealer's right, who plays first in this deal."""
        return (self.dealer + 1) % self.players

    @property
    def next_dealer(self) -> int:
        return (self.dealer + 1) % self.players

    def check(self, next_player: int | None = None, deal_now: str | None = None, rounds_left: int | None = None,
              leftover: int | str | None = None) -> tuple[Answer, ...]:
        """Judge the answers: a player's number, one of :data:`DEAL_NOW`, a number, and when the deal is over a
        side or ``"nobody"`` for who takes the cards left (None: not answered).

        >>> drill = dealing_drill(0)
        >>> all(a.ok for a in drill.check(drill.next_player, drill.deal_now, drill.rounds_left))
        True
        """
        n = self.players
        if next_player is not None and not is_whole(next_player, 0, n - 1):
            raise EscobaError(f"who plays next: a player from 0 to {n - 1}, not {next_player!r}"[:100],
                              code="bad_answer")
        if deal_now is not None and deal_now not in DEAL_NOW:
            raise EscobaError(f"what happens now: one of {', '.join(DEAL_NOW)}, not {deal_now!r}"[:100],
                              code="bad_answer")
        if rounds_left is not None and not is_whole(rounds_left, 0, 99):
            raise EscobaError(f"the rounds left are a whole number, not {rounds_left!r}"[:80], code="bad_answer")
        # with the deck empty the rounds are not asked: their one right number (0) is let through, nothing else
        if rounds_left not in (None, self.rounds_left) and "rounds_left" not in self.items:
            raise EscobaError("the rounds left are asked only while the deck has cards", code="bad_answer")
        if leftover is not None and "leftover" not in self.items:
            raise EscobaError("who takes the cards left is asked only when the deal is over", code="bad_answer")
        taker = None if leftover in (None, NOBODY) else check_side(leftover, self.sides, "who takes the cards left")
        results: tuple[Answer, ...] = (
            judged("next_player", next_player, self.next_player, self._player_slip(next_player)),
            judged("deal_now", deal_now, self.deal_now, self._deal_slip(deal_now)))
        if "rounds_left" in self.items:
            results += (judged("rounds_left", rounds_left, self.rounds_left, self._rounds_slip(rounds_left)),)
        if "leftover" not in self.items:
            return results
        if leftover is None:
            taken = Answer("leftover", False, None, self.leftover_to, "unanswered")
        elif taker == self.leftover_to:
            taken = Answer("leftover", True, leftover, self.leftover_to)
        elif self.leftover_to is None:
            taken = Answer("leftover", False, leftover, None, "nobody_captured")
        elif taker is None:
            taken = Answer("leftover", False, leftover, self.leftover_to, "somebody_captured")
        else:
            slip = "last_to_play" if taker == self.side_of(self.dealer) else "not_last_capture"
            taken = Answer("leftover", False, leftover, self.leftover_to, slip)
        return (*results, taken)

    def _player_slip(self, given: int | None) -> str:
        n, before = self.players, self.next_player - 1
        if self.moment == "deal_over" and given == self.next_dealer:
            return "new_dealer_first"
        if given == self.dealer and self.moment in ("start", "round_over"):
            return "dealer_first"
        if given == self.last:
            return "same_player"
        if n > 2 and given == (before - 1) % n:  # the player to the left of the one before: the wrong way round
            return "wrong_way"
        return "wrong_player"

    def _deal_slip(self, given: str | None) -> str:
        if self.deal_now == "play_on":
            return "hands_not_empty"
        if given == "play_on":
            return "hands_empty"
        return "deck_not_empty" if self.deal_now == "deal_three" else "deck_spent"

    def _rounds_slip(self, given: int | None) -> str:
        if given is not None and given == self.deck_left // 3 and given != self.rounds_left:
            return "per_player"
        if given == self.rounds_left + 1 and self.moment in ("start", "mid_round"):
            return "counted_dealt_round"
        return "wrong_rounds"

    def __str__(self) -> str:
        return (f"{self.players} players, dealer {self.dealer}, {self.moment}, last {self.last}, hands {self.hands}, "
                f"deck {self.deck_left}: next {self.next_player}, {self.deal_now}, {self.rounds_left} rounds left")


#: Deals tried for a game that goes on after its first deal before the position is taken at a round's end instead.
_TRIES_TO_END = 20
#: The deal's last plays shown when it is over: more when the last capture was earlier.
_SHOWN_PLAYS = 4

_MOMENT_MIX = (("start", 0.25), ("mid_round", 0.3), ("round_over", 0.25), ("deal_over", 0.2))


def _play_to(game: Game, rng: random.Random, moment: str) -> int | None:
    """Random legal plays up to the moment wanted; the player who played last (None: just dealt). At
    ``round_over`` and ``deal_over`` the round's last card is still to be played: the caller plays it."""
    if moment == "start":
        return None
    n = game.players
    per_round, rounds = 3 * n, 36 // (3 * n)  # cards played in a round; rounds in a deal
    if moment == "mid_round":  # some whole rounds, then part of one: never a round's last card
        plays = rng.randrange(rounds) * per_round + rng.randrange(1, per_round)
    else:  # whole rounds, then the round's cards but the dealer's last one (the deal's last round for deal_over)
        done = rounds - 1 if moment == "deal_over" else rng.randrange(rounds - 1)
        plays = done * per_round + per_round - 1
    for _step in range(plays):
        game.play(rng.choice(game.legal_moves()))
    return (game.turn - 1) % n if game.turn is not None else None


def dealing_drill(seed: int, rules: Rules | str = ESCOBA) -> DealingDrill:
    """A moment of a real game of 2, 3 or 4 players (random legal plays from ``seed``): just dealt, in the middle
    of a round, or the last card of a round or of the whole deal just played. The answers are the engine's: its
    turn after the moment and whether it dealt, ended the deal or neither.

    >>> sorted({dealing_drill(s).moment for s in range(20)}) == sorted(MOMENTS)
    True
    """
    seed, rules = check_seed(seed), as_rules(rules)
    rng = seeded("dealing", seed)
    moment = pick(rng, _MOMENT_MIX)
    players = rng.choice([n for n in (2, 3, 4) if _seats(rules, n)])
    for attempt in range(ATTEMPTS):
        game = Game(players=players, rules=rules, seed=(seed * 4099 + attempt) % (MAX_SEED + 1))
        dealer = game.dealer
        last = _play_to(game, rng, moment)
        plays: tuple[tuple[int, Card, tuple[Card, ...]], ...] = ()
        leftover_to = None
        if moment in ("round_over", "deal_over"):
            last = game.turn  # the dealer, with the round's last card
            hands, deck_left, deal = (0,) * players, game.deck_left, game.deal
            game.play(rng.choice(game.legal_moves()))
            if game.is_over:  # the game was won in this deal (a low target): no next player to ask for
                if attempt >= _TRIES_TO_END:
                    moment = "round_over"
                continue
            deal_now = "deal_over" if game.deal != deal else "deal_three"
            if deal_now == "deal_over":
                record = game.deals[-1]
                every = tuple((p.player, p.move.card, tuple(sorted(p.move.captured))) for p in record.plays)
                captured = [i for i, (_player, _card, taken) in enumerate(every) if taken]
                if not captured:  # the last capture is in the plays shown: a deal without one is not asked
                    continue
                plays, leftover_to = every[min(captured[-1], len(every) - _SHOWN_PLAYS):], record.leftover_to
        else:
            hands, deck_left, deal_now = tuple(len(h) for h in game.hands), game.deck_left, "play_on"
        assert game.turn is not None
        return DealingDrill(seed, rules, players, dealer, moment, last, hands, deck_left, game.turn, deal_now,
                            deck_left // (3 * players), plays, leftover_to)
    raise EscobaError("no position found for this exercise", code="bad_seed")  # never: a first deal rarely ends a game


def _seats(rules: Rules, players: int) -> bool:
    try:
        rules.check_players(players)
    except EscobaError:
        return False
    return True


# ------------------------------------------------------------------------------------------------ worksheet
def player_names(_: Translator, players: int) -> list[Label]:
    """Player 1, player 2...: labels, with the forms a sentence needs («el jugador 2», «al jugador 2»)."""
    return [labels.player(_, i + 1) for i in range(players)]


def moment_words(_: Translator, drill: DealingDrill, names: list[Label]) -> list[str]:
    """The position in sentences: who deals, who has just played, the cards in the hands and in the deck."""
    sides = side_names(_, drill, names)
    if drill.players == 2:
        playing = _("Two players are playing.")
    elif drill.players == 3:
        playing = _("Three players are playing.")
    else:
        playing = _("Four players are playing, in two teams: {first} (Players 1 and 3) against {second} (Players 2 "
                    "and 4).", first=sides[0], second=sides[1])
    lines = [playing, _("{dealer} is the dealer in this deal.", dealer=names[drill.dealer])]
    if drill.moment == "start":
        lines.append(_("The cards have just been dealt: three to each player and four face up on the table."))
    elif drill.moment == "mid_round":
        lines.append(_("{player} has just played a card.", player=names[drill.last or 0]))
    else:
        lines.append(_("{player} has just played their last card: every hand is now empty.",
                       player=names[drill.last or 0]))
    if drill.moment != "round_over" and drill.moment != "deal_over":
        # one card and none said apart: Spanish says «tiene una», «ninguna», never «tiene 0» (a hand holds 0 to 3)
        held = {0: N_("{player}: no cards"), 1: N_("{player}: one card")}
        hands = [_(held[n], player=name) if n in held else _("{player}: {n}", player=name, n=n)
                 for name, n in zip(names, drill.hands)]
        shown = "; ".join(hands)  # joined outside the call: the catalogs' extractor takes a literal there for a plural
        lines.append(_("Cards each player still holds: {hands}.", hands=shown))
    lines.append(_.plural("{n} card is left in the stock.", "{n} cards are left in the stock.", drill.deck_left)
                 if drill.deck_left else _("The stock is empty."))
    return lines


def side_names(_: Translator, drill: DealingDrill, names: list[Label]) -> list[Label]:
    """Who can take the cards left: each player, or with four players the two teams."""
    return [labels.team(_, n) for n in (1, 2)] if drill.players == 4 else names


def play_words(_: Translator, names: list[Label], player: int, card: Card, taken: tuple[Card, ...]) -> str:
    """«Jugador 3 juega el cinco de bastos y se lleva el as de oros.»"""
    if taken:
        return _("{player} plays {card} and takes {taken}.", player=names[player], card=_.the_card(card),
                 taken=the_cards(_, taken))
    return _("{player} plays {card}: it stays on the table.", player=names[player], card=_.the_card(card))


def leftover_words(_: Translator, drill: DealingDrill, names: list[Label], on_paper: bool = False) -> str:
    """Who takes the cards left, and why (asked only when the deal is over); ``on_paper``: as the worksheet asks
    it, whose boxes name two players' sides (Side 1, Side 2), not the players."""
    if drill.leftover_to is None or drill.last_capturer is None:
        return _("Nobody captured in the whole deal: the cards left belong to nobody.")
    if drill.players == 4:
        return _("The last capture was made by {player}, so the cards left go to {player}'s team, {side}.",
                 player=names[drill.last_capturer], side=side_names(_, drill, names)[drill.leftover_to])
    if on_paper and drill.players == 2:  # the answer names the box to tick
        return _("The last capture was made by {player}, so the cards left go to {side}.",
                 player=names[drill.last_capturer], side=paper.side_names(_, 2)[drill.leftover_to])
    return _("The last capture was made by {player}, who takes the cards left.", player=names[drill.last_capturer])


def who_question(_: Translator, drill: DealingDrill) -> str:
    """Who plays next, or, once the deal is over, who plays first in the next one (the engine's turn then)."""
    return _("Who plays first in the next deal?") if drill.deal_now == "deal_over" else _("Who plays next?")


def rounds_question(_: Translator) -> str:
    """The rounds asked are those still in the stock: the round in the players' hands is not among them."""
    return _("How many rounds are left in the stock right now, before anything more is dealt?")


def deal_now_words(_: Translator) -> dict[str, str]:
    return {"play_on": _("Nothing is dealt: play goes on"), "deal_three": _("Three more cards to each player"),
            "deal_over": _("The deal is over")}


def answer_lines(_: Translator, drill: DealingDrill, names: list[Label], on_paper: bool = False) -> list[str]:
    """The worked answer, step by step, as the rule book says it (docs/rules.md §2); ``on_paper``: as the
    worksheet asks it (:func:`leftover_words`)."""
    n, who = drill.players, names[drill.next_player]
    if drill.deal_now == "deal_over":
        lines = [_("The stock has run out and every hand is empty: the deal is over. The cards left on the table go "
                   "to the last side that captured, and the points are counted."),
                 _("The next deal is dealt by the player to the right of {dealer}: {new_dealer}; the player to the "
                   "right of {new_dealer}, {player}, plays first.", dealer=names[drill.dealer],
                   new_dealer=names[drill.next_dealer], player=who)]
    elif drill.deal_now == "deal_three":
        lines = [_("Every hand is empty and the stock still has cards: {dealer} deals three more to each player, "
                   "and none to the table.", dealer=names[drill.dealer]),
                 _("The new round starts with the player to the dealer's right: {player}.", player=who)]
    elif drill.last is None:
        lines = [_("Nothing is dealt: everyone has just been given three cards."),
                 _("The first to play is the player to the dealer's right: {player}.", player=who)]
    else:
        # who still holds cards, by name: "some players" was wrong when a single one does
        holders = [f"{name:the}" for name, n in zip(names, drill.hands) if n]
        lines = [_.plural("Nothing is dealt: {players} still has cards in hand.",
                          "Nothing is dealt: {players} still have cards in hand.", len(holders),
                          players=and_list(_, holders)),
                 _("Play goes to the right: after {last} comes {player}.", last=names[drill.last], player=who)]
    if "rounds_left" in drill.items:
        lines.append(_.plural(
            "{deck} cards in the stock ÷ ({players} players × 3 cards) = {n} round still to be dealt.",
            "{deck} cards in the stock ÷ ({players} players × 3 cards) = {n} rounds still to be dealt.",
            drill.rounds_left, deck=drill.deck_left, players=n))
    return [*lines, leftover_words(_, drill, names, on_paper)] if "leftover" in drill.items else lines


_SHEET = """
{% macro task(drill, lines, who, choices, now, now_choices, rounds, leftover=none) %}
  <li><p>{{ paper.number(drill) }} {% for line in lines %}{{ line }} {% endfor %}</p>
  {% if leftover %}
    <p>{{ leftover.last }}</p>
    <ol>{% for play in leftover.plays %}<li>{{ play }}</li>{% endfor %}</ol>
    <p>{% for line in leftover.now %}{{ line }} {% endfor %}</p>
  {% endif %}
  {# what happens now first: who plays next (or first in the next deal) follows from it #}
  {{ paper.boxes([now], now_choices) }}
  {% if rounds %}{{ paper.blank(rounds) }}{% endif %}
  {% if leftover %}
    {{ paper.boxes([leftover.question], leftover.choices) }}
  {% endif %}
  {{ paper.boxes([who], choices) }}
  </li>
{% endmacro %}

{% macro answer(drill, lines) %}<li>{{ paper.key_number(drill) }} {{ lines|join(" ") }}</li>{% endmacro %}
"""


def _dealing_task(_: Translator, drill: DealingDrill) -> dict[str, object]:
    names = player_names(_, drill.players)
    words: dict[str, object] = {
        "lines": moment_words(_, drill, names), "who": who_question(_, drill), "choices": names,
        "now": _("What happens now?"), "now_choices": list(deal_now_words(_).values()),
        "rounds": rounds_question(_) if "rounds_left" in drill.items else ""}
    if "leftover" in drill.items and drill.players == 2:
        # the plays name players and the cards left go to a side: the opening says once which is which
        words["lines"] = [two_players(_), *moment_words(_, drill, names)[1:]]
    if "leftover" in drill.items:
        # the plays come before the state they lead to ("has just played their last card", "the deck is empty"),
        # so that the story reads in order: who plays and deals, the last plays, where they leave the deal
        lines = list(words["lines"])  # type: ignore[call-overload]
        words["lines"] = lines[:2]
        words["leftover"] = {"last": _("The last plays of the deal:"), "now": lines[2:],
                             "plays": [play_words(_, names, *play) for play in drill.plays],
                             "question": _("Who takes the cards left on the table?"),
                             # the cards left go to a side (as in the cards-left part), never to a player
                             "choices": [*(paper.side_names(_, 2) if drill.players == 2
                                           else side_names(_, drill, names)), _("Nobody")],
}
    return words


def _dealing_answer(_: Translator, drill: DealingDrill) -> dict[str, object]:
    # The sheet asks what happens, the rounds, the cards left and then who plays (_SHEET): the key answers in that
    # order, so that a student can check it answer by answer.
    what, who, *rest = answer_lines(_, drill, player_names(_, drill.players), on_paper=True)
    return {"lines": [what, *rest, who]}


def _intro(_: Translator, rules: Rules) -> str:
    return _("Deal and play go to the right (anticlockwise), and the players are numbered in that order: Player 2 "
             "sits to Player 1's right, Player 3 to Player 2's right, and so on. The player to the dealer's right "
             "plays first. A round is three cards for each player: when every hand is empty, the dealer deals "
             "another round (none to the table), until the stock runs out. The next deal is dealt by the player to "
             "the dealer's right.")



def _given(_: Translator, drill: DealingDrill, given: giving.Given) -> str:
    """Who plays next, what is dealt now, the rounds left and, at a deal's end, who takes the cards left."""
    players = player_names(_, drill.players)
    now = deal_now_words(_).get(giving.choice(given, "deal_now"), _(giving.NO_ANSWER))
    parts = [giving.said(_, _("Next to play"), giving.side(_, given, "next_player", players)), now]
    if "rounds_left" in drill.items:
        parts.append(giving.said(_, _("Rounds left"), giving.number(_, given, 0)))
    if "leftover" in drill.items:
        parts.append(giving.said(_, _("Cards left go to"),
                                 giving.side(_, given, "leftover", side_names(_, drill, players))))
    return giving.joined(parts)


KIND = DrillKind(
    name="dealing",
    make=dealing_drill,
    label=N_("dealing (who plays, when cards are dealt)"),
    column=N_("Dealing and turns"),
    lesson="04-end-of-deal",
    mistakes={
        "dealer_first": N_("Letting the dealer play first, not the player to the dealer's right"),
        "same_player": N_("Giving the turn again to the player who has just played"),
        "wrong_way": N_("Passing the turn to the left, not to the right"),
        "new_dealer_first": N_("Letting the next deal's dealer play first"),
        "wrong_player": N_("Choosing the wrong player to play next"),
        "hands_not_empty": N_("Dealing again, or ending the deal, while hands still hold cards"),
        "hands_empty": N_("Carrying on playing when every hand is empty"),
        "deck_not_empty": N_("Ending the deal while the stock still has cards"),
        "deck_spent": N_("Dealing again when the stock has run out"),
        "per_player": N_("Dividing the stock by 3 instead of by 3 × the number of players"),
        "counted_dealt_round": N_("Counting the round already in the players' hands among the rounds left"),
        "wrong_rounds": N_("Counting the rounds left wrongly"),
        "last_to_play": N_("Giving the cards left at the end to the dealer's side because the dealer played the last "
                           "card, instead of to the last side that captured"),
        "not_last_capture": N_("Giving the cards left at the end to a side that did not capture last"),
        "somebody_captured": N_("Giving the cards left at the end to nobody, although someone captured"),
        "nobody_captured": N_("Giving the cards left at the end to a side, though nobody captured"),
    },
    outcome=form_outcome,
    worksheet=WorksheetPart(N_("Dealing and turns"), _intro, _SHEET, _dealing_task, _dealing_answer,
                            answers=lambda drill: (drill.players, drill.rounds_left),
                            variety=Variety(lambda drill: drill.deal_now, lambda rules: DEAL_NOW)),
    view="escoba_tutor.widgets.drills.dealing:DealingView",
    given=_given,
)
