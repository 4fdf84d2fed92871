"""Which card would you play: a position of a real game, the learner's move judged against the expert's."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine.captures import captures_on
from ...engine.cards import DECK, SUITS, Card, Suit, format_cards
from ...engine.errors import EscobaError
from ...engine.game import Game, Move, PlayerView
from ...engine.rules import ESCOBA, Rules, as_rules
from ...players.expert import ExpertBot
from ...players.hints import SIETE_DE_OROS, Hint, Reason, hints, sweep_risk
from ...text.phrases import and_list, or_list, points_number, the_cards
from ...text.translator import N_, N_plural, Translator
from .. import given as giving
from .. import paper
from ..common import (
    ATTEMPTS,
    MAX_SEED,
    check_seed,
    seeded,
)
from ..kind import DrillKind, Outcome, WorksheetPart

#: A move within this many deal points of the expert's best counts as right in a strategy drill.
STRATEGY_TOLERANCE = 0.2


@dataclass(frozen=True)
class StrategyCheck:
    """A move chosen in a strategy drill, judged against the expert: ``chosen`` and ``best`` are the expert's
    hints for the learner's move and for its own (each with its value and reason), ``ok`` when the chosen
    move loses at most :data:`STRATEGY_TOLERANCE` points. ``mistake``: "" (right), ``costly`` (a worse move)."""

    ok: bool
    chosen: Hint
    best: Hint
    mistake: str = ""

    @property
    def loss(self) -> float:
        return self.chosen.loss


@dataclass(frozen=True)
class StrategyDrill:
    """A position from a real 2-player game, seen by the player whose turn it is: which card would you lay
    down (and which capture would you make)? ``ranking`` holds the expert's hints, best first."""

    kind = "strategy"
    seed: int
    rules: Rules
    view: PlayerView
    ranking: tuple[Hint, ...]

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.view.hand

    @property
    def table(self) -> tuple[Card, ...]:
        return self.view.table

    @property
    def good(self) -> tuple[Hint, ...]:
        """The moves that count as right: within :data:`STRATEGY_TOLERANCE` of the best."""
        return tuple(h for h in self.ranking if h.loss <= STRATEGY_TOLERANCE + 1e-9)

    def check(self, move: Move | str | tuple[Card | str, Iterable[Card | str]]) -> StrategyCheck:
        """Judge a move (a :class:`Move`, its text like ``"3c+1o+4b"``, or (card, taken)). A move that is not
        legal here is refused with an :class:`EscobaError` that says so.

        >>> drill = strategy_drill(0)
        >>> drill.check(drill.ranking[0].move).ok, drill.check(drill.ranking[-1].move).ok
        (True, False)
        """
        if isinstance(move, str):
            move = Move.from_text(move)
        elif isinstance(move, tuple) and not isinstance(move, Move) and len(move) == 2:
            move = Move(*move)
        chosen = next((h for h in self.ranking if h.move == move), None)
        if chosen is None:
            raise EscobaError(f"{str(move)[:40]} is not a legal move here", code="not_legal")
        ok = chosen.loss <= STRATEGY_TOLERANCE + 1e-9
        return StrategyCheck(ok, chosen, self.ranking[0], "" if ok else "costly")

    def __str__(self) -> str:
        return (f"hand {format_cards(self.hand)}, table {format_cards(self.table)}: best {self.ranking[0].move}"
                f" ({len(self.good)} good of {len(self.ranking)})")


def strategy_drill(seed: int, rules: Rules | str = ESCOBA) -> StrategyDrill:
    """A turn of a real 2-player game (random legal moves from ``seed``, 0 to 30 plays in) where the choice
    matters: at least one legal move loses more than :data:`STRATEGY_TOLERANCE` against the best, and each such
    move has a fault a pupil can check (:func:`_explained`).

    >>> drill = strategy_drill(2)
    >>> drill == strategy_drill(2) and drill.ranking[0].loss == 0 and len(drill.good) < len(drill.ranking)
    True
    """
    seed, rules = check_seed(seed), as_rules(rules)
    rng = seeded("strategy", seed)
    bot = ExpertBot(seed=0)
    for attempt in range(ATTEMPTS):
        game = Game(players=2, rules=rules, seed=(seed * 104729 + attempt) % (MAX_SEED + 1))
        for _play in range(rng.randint(0, 30)):
            if game.deals:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.deals or len(game.legal_moves()) < 2:
            continue
        turn = game.turn
        assert turn is not None  # the deal is not over
        view = game.view(turn)
        ranking = tuple(hints(view, bot))
        if (ranking[-1].loss > STRATEGY_TOLERANCE + 1e-9 and not _split_twins(ranking)
                and _explained(view, ranking)):
            break
    return StrategyDrill(seed, rules, view, ranking)


def _twin_key(move: Move) -> tuple[object, ...]:
    """A move as lesson 8's criteria see it: the cards' values, and which are coins (the siete de oros is one);
    two moves with the same key differ only in the suit of cards that are neither coins nor told apart by value."""
    card, taken = move
    return ((card.rank, card.suit is Suit.OROS), tuple(sorted((c.rank, c.suit is Suit.OROS) for c in taken)))


def _split_twins(ranking: tuple[Hint, ...]) -> bool:
    """Whether a good move and a move to avoid are twins (:func:`_twin_key`): no reason a student could give
    tells them apart, so the gap between them is the expert's noise, and such a position is not offered."""
    good = {_twin_key(h.move) for h in ranking if h.loss <= STRATEGY_TOLERANCE + 1e-9}
    return any(_twin_key(h.move) in good for h in ranking if h.loss > STRATEGY_TOLERANCE + 1e-9)


def _explained(view: PlayerView, ranking: tuple[Hint, ...]) -> bool:
    """Whether every play to avoid has a fault a pupil can check (:func:`_faults`: a sweep given up, the siete de
    oros or a table left to sweep, less gained than the best play): a play worse only by the expert's estimate
    ("about 0.3 points less") is no reason a pupil can follow, and such a position is not offered."""
    good = tuple(h.move for h in ranking if h.loss <= STRATEGY_TOLERANCE + 1e-9)
    words = Translator("en")
    return all(_faults(words, view, h.move, ranking[0].move, good)
               for h in ranking if h.loss > STRATEGY_TOLERANCE + 1e-9)


def good_in_order(drill: StrategyDrill) -> tuple[Hint, ...]:
    """The good plays, the one with the strongest reason a pupil can check first, in lesson 8's order: an
    escoba, the siete de oros, a table nobody can sweep (else one fewer unseen cards can sweep), then more
    sevens, more coins, more cards; plays alike in all of these keep the expert's order. Every good play is
    within :data:`STRATEGY_TOLERANCE` of the best, so the key lists first the play whose reason reads strongest."""
    view = drill.view

    def strength(hint: Hint) -> tuple[int, ...]:
        gain, sweep = _gain(view, hint.move), sweep_risk(view, hint.move)
        code = gain.code if gain is not None else ""
        pile = (hint.move.card, *hint.move.captured) if hint.move.captured else ()
        return (code != "escoba", code != "takes_siete_de_oros", _leaves_siete(view, hint.move),
                sweep.unseen or 0 if sweep is not None else 0, -sum(c.rank == 7 for c in pile),
                -sum(c.suit is Suit.OROS for c in pile), -len(pile))

    return tuple(sorted(drill.good, key=strength))  # (sorted is stable: the expert's order breaks ties)


# ------------------------------------------------------------------------------------------------ worksheet
_MOVE_REASONS = {
    "escoba": N_("it sweeps the table and makes an escoba"),
    "scopa": N_("it sweeps the table and makes a scopa"),
    "takes_siete_de_oros": N_("the seven of coins is one sure point"),
    "leaves_sweepable": N_("it leaves {total} on the table, which a card still unseen can sweep"),
    "lays_siete_de_oros": N_("it leaves the seven of coins on the table, where the other player could take it"),
    "leaves_unsweepable": N_("it leaves {total} on the table, which no single card can sweep"),
}


# A capture's sevens or coins, counted ("a seven", never "sevens" for one) and named: the played card may be
# the one ("the knight of coins, taking the six of cups" adds the knight, a coins card, to the pile).
_COUNTED_REASONS = {
    "takes_sevens": N_plural("it adds a seven to your pile ({cards}), good for the setenta",
                             "it adds {n} sevens to your pile ({cards}), good for the setenta"),
    "takes_oros": N_plural("it adds a coins card to your pile ({cards})",
                           "it adds {n} coins cards to your pile ({cards})"),
    # the cards, so that two captures of the same kind read apart ("it adds 3 cards" against "only 2")
    "takes_cards": N_plural("it adds {n} card to your pile", "it adds {n} cards to your pile"),
}
# A capture's further gains after its merit, said with it, so that a reason does not read as if the play took no
# coin when its merit is a seven ("…, good for the setenta, with a coin (the six of coins) and 3 cards in all").
_GAIN_PARTS = {
    "takes_oros": N_plural("a coin ({cards})", "{n} coins ({cards})"),
    "takes_cards": N_plural("{n} card in all", "{n} cards in all"),
}
_WITH_MORE = N_("{reason}, with {more}")
# What a capture to avoid gains less than the best play, when the two gain the same kind of thing (the best
# play's reason would fit it too): fewer sevens, fewer coins, or fewer cards.
_ONLY = {
    "takes_sevens": N_plural("it takes only {n} seven", "it takes only {n} sevens"),
    "takes_oros": N_plural("it takes only {n} coins card", "it takes only {n} coins cards"),
    "takes_cards": N_plural("it adds only {n} card to your pile", "it adds only {n} cards to your pile"),
}
# A table left that only cards of one value can sweep (in Escoba, 15 less its sum): that value, and how many such
# cards are still unseen.
_SWEEPERS_UNSEEN = N_plural(
    "it leaves {total} on the table, which only a card worth {value} can sweep, with {n} such card still unseen",
    "it leaves {total} on the table, which only a card worth {value} can sweep, with {n} such cards still unseen")
# A capture to avoid that takes none of what the best capture takes (sevens, coins), the gains in the hints' order.
_NONE_OF = {"takes_sevens": N_("it takes no seven"), "takes_oros": N_("it takes no coins card")}
_GAIN_ORDER = ("takes_sevens", "takes_oros", "takes_cards")
_TAKES_NOTHING = N_("it takes nothing")
# In a deal's last round of two players the other hand is exactly the cards still unseen: the card that sweeps
# is named, as the student can work it out.
_OTHER_SWEEPS = N_("it leaves {total} on the table, which the other player can sweep with {cards}")


# A play to avoid when the best play sweeps the table and this one does not: the sure point it gives up, by the
# rules' word for a sweep (``Rules.sweep``).
_GIVES_UP_SWEEP = {"escoba": N_("it gives up the escoba {card} makes"),
                   "scopa": N_("it gives up the scopa {card} makes")}


# The reasons that tell what is wrong with a move (the others say what it does, good or not).
_RISKS = ("leaves_sweepable", "lays_siete_de_oros")
# The siete de oros left on the table by a play that does not take it (laid down, or already there): said as
# what is wrong with a play, and as a concession after a good play's advantage ("…, although the seven…").
_LEAVES_SIETE = N_("it leaves the seven of coins on the table, where the other player could take it")
_SIETE_STAYS = N_("the seven of coins stays on the table, where the other player could take it")
# Cards of coins a play leaves on the table when the best play leaves fewer: the other side may take them towards
# the coins point. Said with the cards, so that a pupil can check it against the table.
_LEAVES_OROS = N_plural("it leaves {cards} on the table, a coin the other player could take",
                        "it leaves {cards} on the table, {n} coins the other player could take")
# The card laid down is itself the coin left for the other side.
_LAYS_ORO = N_("it is a coin the other player could take")
# A good play whose only drawback is what it leaves to sweep: how few unseen cards can do it (what makes it good).
_FEW_SWEEPERS = N_plural(
    "it leaves {total} on the table, which only a card worth {value} can sweep, with just {n} such card still "
    "unseen",
    "it leaves {total} on the table, which only a card worth {value} can sweep, with {n} such cards still unseen")


# A play to avoid, as the object of "Avoid …": what is done, not the card alone, since the good play may be a
# capture with the same card ("Avoid taking the five of cups with the king of clubs", never "Avoid the king").
_AVOID_TAKING = N_("taking {taken} with {card}")
_AVOID_LAYING = N_("laying down {card}")


def _avoided_text(_: Translator, move: Move) -> str:
    card, taken = move
    if taken:
        return paper.word(_, _AVOID_TAKING, card=_.the_card(card), taken=the_cards(_, sorted(taken)))
    return paper.word(_, _AVOID_LAYING, card=_.the_card(card))


def _move_text(_: Translator, move: Move) -> str:
    card, taken = move
    if taken:
        return _("{card}, taking {taken}", card=_.the_card(card), taken=the_cards(_, sorted(taken)))
    return _("{card}, laid down on the table", card=_.the_card(card))


# A table left that some card could sweep, but every such card is on the table, in the hand or already taken:
# said with the value, so the student can check it against the cards printed as already taken.
# A table under 5: sweeping it to make 15 would take a card worth more than a king.
_NO_SUCH_CARD = N_("it leaves {total} on the table, which only a card worth {value} could sweep (no card is worth "
                   "more than 10)")
_NONE_TO_COME = N_("it leaves {total} on the table, which only a card worth {value} could sweep, and no such card "
                   "is still unseen")
# Every such card not yet taken is in the student's own hand: "none is still unseen" would read as "none is left",
# yet the student may sweep it next turn; what is true is that nobody else can hold one.
_ONLY_YOURS = N_plural("it leaves {total} on the table, which only a card worth {value} could sweep, and nobody else "
                       "can hold one: the only one left is yours ({cards})",
                       "it leaves {total} on the table, which only a card worth {value} could sweep, and nobody else "
                       "can hold one: the only ones left are yours ({cards})")


def _move_reason(_: Translator, reason: Reason, rules: Rules | None = None, view: PlayerView | None = None) -> str:
    if reason.code in _COUNTED_REASONS:
        return _.plural(*_COUNTED_REASONS[reason.code], reason.count or 1, cards=the_cards(_, reason.cards))
    if reason.code == "leaves_sweepable" and view is not None and last_round(view):
        table = frozenset(reason.cards)
        mask = sum(c.bit for c in table)
        held = [c for c in other_hand(view) if table in captures_on(c, mask, view.rules)]
        if held:
            return paper.word(_, _OTHER_SWEEPS, total=reason.total, cards=or_list(_, [_.the_card(c) for c in held]))
    if reason.code == "leaves_sweepable" and reason.unseen and reason.sweeper_value is not None:
        # which card sweeps it and how many are still unseen: what lesson 8 teaches to count, checkable by hand
        return _.plural(*_SWEEPERS_UNSEEN, reason.unseen, total=reason.total, value=reason.sweeper_value)
    if reason.code == "leaves_unsweepable" and rules is not None:
        sweepers = _sweeper_values(reason.cards, rules)
        if sweepers:  # "no card can sweep it" would be false in general: say why none can here
            return paper.word(_, _NONE_TO_COME, total=reason.total, value=sweepers[0])
        if rules.capture == "fifteen" and reason.total is not None and reason.total < 15:
            # the card it would take, which a pupil can see does not exist (a bare "no card can" left it implicit)
            return paper.word(_, _NO_SUCH_CARD, total=reason.total, value=15 - reason.total)
    if reason.code == "takes_siete_de_oros" and rules is not None and rules.renuncio:
        # a side that makes a renuncio scores nothing in the deal: the point is sure only without that house rule
        return _("the seven of coins is one point if your side makes no renuncio in this deal")
    code = rules.sweep if reason.code == "escoba" and rules is not None else reason.code  # Scopa's scopa
    return paper.word(_, _MOVE_REASONS[code], total=reason.total)


def _sweeper_values(left: Iterable[Card], rules: Rules) -> list[int]:
    """The capture values of the cards of the whole deck that could take every card of ``left`` at once (lowest
    first): whether a card could sweep that table at all, whatever has been played."""
    table = tuple(left)
    if not table:
        return []
    mask, whole = sum(c.bit for c in table), frozenset(table)
    return sorted({c.value for c in DECK if c not in whole and whole in captures_on(c, mask, rules)})


def _gain(view: PlayerView, move: Move) -> Reason | None:
    """What a capture gains, the first that applies in the hints' order (an escoba, the siete de oros, sevens,
    coins, cards), whatever it risks; None for a card laid down."""
    card, taken = move
    if not taken:
        return None
    pile = (card, *sorted(taken, key=lambda c: c.index))  # as the hints order them (``taken`` is a set)
    if not [c for c in view.table if c not in taken]:
        return Reason("escoba", pile, count=len(pile))
    if SIETE_DE_OROS in pile:
        return Reason("takes_siete_de_oros", pile, count=len(pile))
    for code, held in (("takes_sevens", [c for c in pile if c.rank == 7]),
                       ("takes_oros", [c for c in pile if c.suit is Suit.OROS])):
        if held:
            return Reason(code, tuple(held), count=len(held))
    return Reason("takes_cards", pile, count=len(pile))


def _risk(_: Translator, view: PlayerView, move: Move, *, concession: bool = False) -> str | None:
    """What a move risks, in words: what it leaves to sweep, or the siete de oros left on the table (None:
    nothing); ``concession``: the words that follow "although"."""
    sweep = sweep_risk(view, move)
    if sweep is not None:
        return _move_reason(_, sweep, view.rules, view)
    return _siete_risk(_, view, move, concession=concession)


def _siete_risk(_: Translator, view: PlayerView, move: Move, *, concession: bool = False) -> str | None:
    """The siete de oros a move leaves on the table, in words (None: it does not, or, as a concession, it stays
    whatever is played)."""
    if _leaves_siete(view, move):
        if concession and move.card != SIETE_DE_OROS and not _can_take_siete(view):
            return None  # it stays whatever is played: no cost of this play, so not said as one
        return paper.word(_, _SIETE_STAYS if concession else _LEAVES_SIETE)
    return None


def _can_take_siete(view: PlayerView) -> bool:
    """Whether a card of the hand could take the siete de oros from the table."""
    mask = sum(c.bit for c in view.table)
    return any(SIETE_DE_OROS in taken for card in view.hand for taken in captures_on(card, mask, view.rules))


def _left(view: PlayerView, move: Move) -> list[Card]:
    card, taken = move
    return [c for c in view.table if c not in taken] if taken else [*view.table, card]


def _leaves_siete(view: PlayerView, move: Move) -> bool:
    return SIETE_DE_OROS in _left(view, move)


def _oros_left(view: PlayerView, move: Move) -> list[Card]:
    """The coins cards a move leaves on the table, but the siete de oros (a fault of its own)."""
    return [c for c in _left(view, move) if c.suit is Suit.OROS and c != SIETE_DE_OROS]


def _faults(_: Translator, view: PlayerView, move: Move, best: Move, good: tuple[Move, ...] = ()) -> list[str]:
    """What is wrong with a move that the best play does not share, every one that applies, most costly first:
    the escoba the best play makes and this one gives up (a sure point), the siete de oros left for the other
    side (a point it takes with one card), what it leaves to sweep; else what it gains less than the best play,
    or the coins cards it leaves on the table for the other side. A fault that one of the ``good`` plays has as
    well is left out: it would not say why this move is worse than that one."""
    faults = []
    gain, best_gain = _gain(view, move), _gain(view, best)
    if (best_gain is not None and best_gain.code == "escoba" and (gain is None or gain.code != "escoba")
            and all(_sweeps(view, g) for g in good)):
        # every card of the hand that sweeps, not only the best play's: another that sweeps as well is no safer
        sweepers = list(dict.fromkeys(m.card for m in (best, *good) if _sweeps(view, m)))
        faults.append(paper.word(_, _GIVES_UP_SWEEP[view.rules.sweep],
                                 card=or_list(_, [_.the_card(c) for c in sweepers])))
    if _leaves_siete(view, move) and not _leaves_siete(view, best) and not any(_leaves_siete(view, g) for g in good):
        faults.append(paper.word(_, _LEAVES_SIETE))
    sweep = sweep_risk(view, move)
    # (a good play that leaves a table at least as many unseen cards can sweep shares the risk)
    shared_sweep = any((r := sweep_risk(view, g)) is not None and (r.unseen or 0) >= (sweep.unseen or 0)
                       for g in good) if sweep is not None else False
    if sweep is not None and sweep_risk(view, best) is None and not shared_sweep:
        faults.append(_move_reason(_, sweep, view.rules, view))
    elif sweep is not None and not shared_sweep:  # both leave a table to sweep: say so if more cards can sweep it
        more = _more_sweepers(_, view, move, best)
        if more is not None:
            faults.append(more)
    if not faults:
        fewer = _fewer(_, view, move, best)
        if fewer is not None and not any(_measure(view, g, fewer[1]) <= fewer[2] for g in good):
            faults.append(fewer[0])
    oros = _oros_left(view, move)
    if (not faults and len(oros) > len(_oros_left(view, best))
            and not any(len(_oros_left(view, g)) >= len(oros) for g in good)):
        if not move.captured and oros == [move.card]:  # (the card laid down is the coin: said once, not twice)
            faults.append(paper.word(_, _LAYS_ORO))
        else:
            faults.append(_.plural(*_LEAVES_OROS, len(oros), cards=the_cards(_, sorted(oros))))
    sharer = [g for g in good if (r := sweep_risk(view, g)) is not None and (r.unseen or 0) >= (sweep.unseen or 0)
              ] if sweep is not None and faults else []
    if sweep is not None and sharer and sharer[0].card != move.card and sum(g.card == sharer[0].card
                                                                           for g in good) == 1:
        # the risk a good play runs as well is no reason on its own, but left out it would read as none at all
        faults.append(_("{risk} (a risk {play} runs too)", risk=_move_reason(_, sweep, view.rules, view),
                        play=_.the_card(sharer[0].card)))
    return faults


def _sweeps(view: PlayerView, move: Move) -> bool:
    gain = _gain(view, move)
    return gain is not None and gain.code == "escoba"


def _measure(view: PlayerView, move: Move, what: str) -> int:
    """How many cards (``cards``), sevens or coins cards a move adds to the pile (none for a card laid down)."""
    pile = (move.card, *move.captured) if move.captured else ()
    counted = {"cards": pile, "takes_sevens": [c for c in pile if c.rank == 7],
               "takes_oros": [c for c in pile if c.suit is Suit.OROS]}
    return len(counted[what])


# A good play's merit: what it does better than at least one other play on offer, the strongest first (lesson 8's
# order). Each measure is higher for the better play; a merit every other play shares is no reason to choose it,
# and a risk (a table to sweep, a coin or the siete de oros left) is never one: it is said after "although".
MERITS = ("escoba", "takes_siete_de_oros", "takes_sevens", "takes_oros", "takes_cards", "safe_table",
          "fewer_sweepers", "keeps_siete", "keeps_oros")


def merit_measure(view: PlayerView, move: Move, code: str) -> int:
    """How well ``move`` does by one of :data:`MERITS` (higher is better): what a play is compared on."""
    pile = (move.card, *move.captured) if move.captured else ()
    sweep = sweep_risk(view, move)
    measures = {
        "escoba": lambda: int(_sweeps(view, move)),
        "takes_siete_de_oros": lambda: int(SIETE_DE_OROS in pile),
        "takes_sevens": lambda: sum(c.rank == 7 for c in pile),
        "takes_oros": lambda: sum(c.suit is Suit.OROS for c in pile),
        "takes_cards": lambda: len(pile),
        "safe_table": lambda: int(sweep is None),
        "fewer_sweepers": lambda: -(sweep.unseen or 0) if sweep is not None else 0,
        "keeps_siete": lambda: int(not _leaves_siete(view, move)),
        "keeps_oros": lambda: -len(_oros_left(view, move)),
    }
    return measures[code]()


def merit(view: PlayerView, move: Move, plays: Iterable[Move]) -> str | None:
    """The first of :data:`MERITS` by which ``move`` does better than at least one of the other ``plays``
    (None: no other play does worse by any of them). ``safe_table`` counts only for a capture, or a card laid
    down, that leaves cards to sweep, and ``fewer_sweepers`` only for a play whose table can be swept."""
    others = [p for p in plays if p != move]
    if not others:
        return None
    for code in MERITS:
        if code == "fewer_sweepers" and sweep_risk(view, move) is None:
            continue  # (its merit is a safe table, said as such)
        if code == "safe_table" and _sweeps(view, move):
            continue
        mine = merit_measure(view, move, code)
        if any(mine > merit_measure(view, other, code) for other in others):
            return code
    return None


# Merits said in words: a table that fewer unseen cards can sweep than after another play, the siete de oros or
# coins another play would leave on the table.
# The play compared is named with its count, so a pupil can check it ("fewer than after another play" could not
# be checked, and read as false when a third play leaves a table nobody can sweep).
_FEWER_SWEEPERS = N_plural(
    "it leaves {total} on the table, which only a card worth {value} can sweep, with just {n} such card still "
    "unseen, fewer than the {more} unseen cards that could sweep the table after {other}",
    "it leaves {total} on the table, which only a card worth {value} can sweep, with {n} such cards still unseen, "
    "fewer than the {more} unseen cards that could sweep the table after {other}")
_KEEPS_SIETE = N_("it does not leave the seven of coins on the table, as another play would")
_NO_OROS_LEFT = N_("it leaves no coin on the table for the other player")
# (the play compared is named with its count, as for fewer sweepers: "another play leaves more" could not be
# checked, and fitted the best play too when it leaves as few)
_FEWER_OROS_LEFT = N_plural("it leaves only {n} coin on the table, fewer than the {more} left after {other}",
                            "it leaves only {n} coins on the table, fewer than the {more} left after {other}")
# A good play with no merit over any other play: the computer's estimate is the only reason there is.
_LEAST_BAD = N_("no play here does better on anything you can check, and the computer's hard level finds this one "
                "costs the least")
_ABOVE_ADDS_MORE = N_("{reason}; a play listed above adds more")
# A good play that a play listed above matches on every merit (two fours that both sweep): nothing a pupil can check
# ranks them, so the key says they are equal rather than leave "strongest first" to suggest a difference.
_ABOVE_AS_GOOD = N_("{reason}; a play listed above is just as good")
# A good play whose reason reads word for word as one listed above (both add a seven) while that play does better
# on a later count: its own edge over that play, then what the play above adds more of.
_ABOVE_MORE_OF = {"takes_sevens": N_("{reason}; a play listed above adds more sevens"),
                  "takes_oros": N_("{reason}; a play listed above adds more coins"),
                  "takes_cards": N_("{reason}; a play listed above adds more cards")}
_NEARLY_BEST = N_("the computer's hard level finds it almost as good as the best play")


def _merit_text(_: Translator, view: PlayerView, move: Move, code: str, plays: Sequence[Move]) -> str:
    """A merit of :data:`MERITS` in words, with what a pupil can check on the page (for ``fewer_sweepers``, the
    other of ``plays`` compared, with its count)."""
    pile = (move.card, *move.captured) if move.captured else ()
    if code in ("escoba", "takes_siete_de_oros"):
        return _move_reason(_, Reason(code, pile, count=len(pile)), view.rules)
    if code in _COUNTED_REASONS:
        held = {"takes_sevens": [c for c in pile if c.rank == 7],
                "takes_oros": [c for c in pile if c.suit is Suit.OROS], "takes_cards": list(pile)}
        said = _move_reason(_, Reason(code, tuple(held[code]), count=len(held[code])), view.rules)
        # the gains after the merit that the capture has too (its coins, then the cards in all, unless only the
        # two every capture adds, or only the cards already named: "3 coins (…), with 3 cards in all" says it twice)
        named = {c for kind in _GAIN_ORDER[_GAIN_ORDER.index(code):-1] for c in held[kind]}
        held["takes_cards"] = held["takes_cards"] if len(pile) > 2 and len(named) < len(pile) else []
        further = [_.plural(*_GAIN_PARTS[kind], len(held[kind]), cards=the_cards(_, held[kind]))
                   for kind in _GAIN_ORDER[_GAIN_ORDER.index(code) + 1:] if held[kind]]
        return paper.word(_, _WITH_MORE, reason=said, more=and_list(_, further)) if further else said
    if code == "safe_table":
        return _unsweepable(_, view, move, _left(view, move))
    if code == "fewer_sweepers":
        sweep = sweep_risk(view, move)
        assert sweep is not None  # (merit() gives this code only to a play whose table can be swept)
        other, more = _next_sweepers(view, [p for p in plays if p != move], sweep.unseen or 0)
        return _.plural(*_FEWER_SWEEPERS, sweep.unseen or 0, total=sweep.total, value=sweep.sweeper_value,
                        more=more, other=_play_name(_, other, plays))
    if code == "keeps_siete":
        return paper.word(_, _KEEPS_SIETE)
    oros = len(_oros_left(view, move))
    if not oros:
        return paper.word(_, _NO_OROS_LEFT)
    other, more = _most_oros_left(view, [p for p in plays if p != move])
    return _.plural(*_FEWER_OROS_LEFT, oros, more=more, other=_play_name(_, other, plays))


def _most_oros_left(view: PlayerView, others: Sequence[Move]) -> tuple[Move, int]:
    """The other play that leaves the most coins on the table (the first of a tie), and how many: the play a
    ``keeps_oros`` merit is measured against."""
    move = max(others, key=lambda m: len(_oros_left(view, m)))  # (max keeps the first of a tie)
    return move, len(_oros_left(view, move))


def _next_sweepers(view: PlayerView, others: Sequence[Move], unseen: int) -> tuple[Move, int]:
    """The other play whose table the fewest unseen cards can sweep that are still more than ``unseen`` (the
    first of a tie), and how many: the play a ``fewer_sweepers`` merit is measured against. The nearest, not the
    worst: two good plays each compared with the worst would not say why the first beats the second."""
    counted = [(risk.unseen or 0, i, move) for i, move in enumerate(others)
               if (risk := sweep_risk(view, move)) is not None and (risk.unseen or 0) > unseen]
    fewest, _first, move = min(counted, key=lambda c: (c[0], c[1]))
    return move, fewest


def _play_name(_: Translator, move: Move, plays: Sequence[Move]) -> str:
    """A play named by its card alone when no other play uses that card, else with what it takes."""
    if sum(p.card == move.card for p in plays) == 1:
        return _.the_card(move.card)
    return _move_text(_, move)


def _outdone(view: PlayerView, move: Move, plays: tuple[Move, ...], above: Sequence[Move]) -> bool:
    """Whether a good play's merit is a count (sevens, coins, cards) that a good play listed above beats: said
    alone, it would read as a reason to prefer this play to that one."""
    code = merit(view, move, plays)
    return code in _COUNTED_REASONS and any(merit_measure(view, other, code) > merit_measure(view, move, code)
                                            for other in above)


def _as_good(view: PlayerView, move: Move, above: Sequence[Move]) -> bool:
    """Whether a good play listed ``above`` this one is just as good by every one of :data:`MERITS`."""
    return any(all(merit_measure(view, move, code) == merit_measure(view, other, code) for code in MERITS)
               for other in above)


def _coins_given_up(view: PlayerView, move: Move, above: Sequence[Move]) -> bool:
    """Whether a good play listed ``above`` takes more coins, or leaves fewer on the table, than this one, which
    leaves coins there: the coin left is then what ranks this play lower."""
    return bool(_oros_left(view, move)) and any(
        merit_measure(view, other, code) > merit_measure(view, move, code)
        for other in above for code in ("takes_oros", "keeps_oros"))


def _good_reason(_: Translator, view: PlayerView, hint: Hint, plays: tuple[Move, ...], best: Move,
                 above: Sequence[Move] = ()) -> str:
    """Why a good play is good: its merit over the other ``plays`` first (never a risk), then that the table it
    leaves is safe, when that is a merit too; a risk it runs comes after, as a concession (the coins it leaves on
    the table too, when a good play listed ``above`` keeps them from the other side: what ranks it lower). A play
    with no merit over any other is said to be the computer's choice (the least bad, or almost as good as the
    ``best``)."""
    move = hint.move
    code = merit(view, move, plays)
    risk = _risk(_, view, move, concession=True)
    if code is None:
        said = paper.word(_, _LEAST_BAD if move == best else _NEARLY_BEST)
    else:
        said = _merit_text(_, view, move, code, plays)
        if code == "fewer_sweepers":  # (the table to sweep is in the merit's own words: only the siete is left)
            risk = _siete_risk(_, view, move, concession=True)
    if risk:
        return _("{reason}, although {risk}", reason=said, risk=risk)
    safe = None if code in ("safe_table", None) else _safe_table(_, view, move)
    if safe and not any(sweep_risk(view, other) is not None for other in plays if other != move):
        safe = None  # (every play leaves a safe table: no merit of this one)
    said = _("{reason}, and {safe}", reason=said, safe=safe) if safe else said
    # (a merit before the coins, or the coins themselves, is ranked by its own words: "a play listed above adds more")
    if code not in MERITS[:MERITS.index("takes_oros") + 1] and _coins_given_up(view, move, above):
        oros = sorted(_oros_left(view, move))
        return _("{reason}, although {risk}", reason=said,
                 risk=_.plural(*_LEAVES_OROS, len(oros), cards=the_cards(_, oros)))
    return said


def _safe_table(_: Translator, view: PlayerView, move: Move) -> str | None:
    """What makes the table a capture leaves safe, as lesson 8 counts it (None for an escoba, or when nobody
    plays after it): its sum, and that no card can sweep it (under 5, or 15 and over), or that the only cards
    that could are all seen."""
    if not move.captured or not _anyone_plays_after(view):
        return None
    left = _left(view, move)
    if not left or sweep_risk(view, move) is not None:
        return None
    return _unsweepable(_, view, move, left)


def _unsweepable(_: Translator, view: PlayerView, move: Move, left: Sequence[Card]) -> str:
    """Why the table ``move`` leaves is safe: as :func:`_move_reason` says it, unless the only cards left that
    could sweep it are in the student's hand (besides the card played), which are then named as theirs."""
    total = sum(c.value for c in left)
    sweepers = _sweeper_values(left, view.rules)
    mine = [c for c in view.hand if c != move.card and c.value in sweepers]
    if mine:
        return _.plural(*_ONLY_YOURS, len(mine), total=total, value=sweepers[0],
                        cards=the_cards(_, mine))
    return _move_reason(_, Reason("leaves_unsweepable", tuple(left), total=total), view.rules)


def _anyone_plays_after(view: PlayerView) -> bool:
    """Whether a card is still to be played after this one in the deal (else nobody can sweep what is left)."""
    return view.deck_left > 0 or sum(view.hand_sizes) > 1


def _fewer(_: Translator, view: PlayerView, move: Move, best: Move) -> tuple[str, str, int] | None:
    """What a move gains less than the best capture, in words (None when the best play captures nothing, or the
    move gains as much): nothing at all (a card laid down), none of the sevens or coins the best play takes, or,
    of the same kind of thing, fewer sevens or coins, else fewer cards; with what it counts (:func:`_measure`)
    and how many this move adds, so that a good play adding as few shares the fault."""
    gain, best_gain = _gain(view, move), _gain(view, best)
    if best_gain is None:
        return None
    if gain is None:  # a card laid down, where the best play captures
        return paper.word(_, _TAKES_NOTHING), "cards", 0
    if gain.code != best_gain.code:  # the best play takes sevens or coins, this capture none of them
        none_of = _NONE_OF.get(best_gain.code)
        if (none_of is None or gain.code not in _GAIN_ORDER
                or _GAIN_ORDER.index(gain.code) <= _GAIN_ORDER.index(best_gain.code)):
            return None
        return paper.word(_, none_of), best_gain.code, 0
    if gain.code in ("takes_sevens", "takes_oros") and (gain.count or 0) < (best_gain.count or 0):
        return _.plural(*_ONLY[gain.code], gain.count or 0), gain.code, gain.count or 0
    pile, best_pile = 1 + len(move.captured), 1 + len(best.captured)
    return (_.plural(*_ONLY["takes_cards"], pile), "cards", pile) if pile < best_pile else None


def _more_sweepers(_: Translator, view: PlayerView, move: Move, best: Move) -> str | None:
    """When a move and the best play both leave a table to sweep, but more unseen cards can sweep the move's:
    how many, in words (what makes it worse), else None."""
    sweep, best_sweep = sweep_risk(view, move), sweep_risk(view, best)
    if sweep is None or best_sweep is None or (sweep.unseen or 0) <= (best_sweep.unseen or 0):
        return None
    return _.plural(*_FEW_SWEEPERS, sweep.unseen or 0, total=sweep.total, value=sweep.sweeper_value)


def last_round(view: PlayerView) -> bool:
    """Whether the position is in the last round of a 2-player deal: the deck is empty, so the other hand is
    exactly the cards still unseen (and the expert's values are exact)."""
    return view.deck_left == 0 and len(view.hand_sizes) == 2


def other_hand(view: PlayerView) -> tuple[Card, ...]:
    """The cards this player has not seen: in the last round of two players (:func:`last_round`), the other
    player's hand."""
    return tuple(c for c in view.unseen if c not in view.hand)


_SHEET = """
{% macro task(drill, players, your_hand, on_table, taken, by_suit, mine) %}
  <li><p>{{ paper.number(drill) }} {{ players }}</p>
  <p>{{ your_hand }} {{ paper.cards(drill.hand) }}</p>
  <p>{{ on_table }} {{ paper.cards(drill.table) }}</p>
  <p>{{ taken }} {% for line in by_suit %}{{ "; " if not loop.first else "" }}{{ line }}{% endfor %}</p>
  {{ paper.blank(mine) }}
  <div class='line'></div></li>
{% endmacro %}

{% macro answer(drill, first, good, moves, avoid, avoid_title) %}
  <li>{{ paper.key_number(drill) }} {% if first %}{{ first }} {% endif %}{{ good }}<ul>
  {% for move, why in moves %}<li>{{ move }}: {{ why }}.</li>{% endfor %}
  </ul>{% if avoid %}<p>{{ avoid_title }}</p><ul>
  {% for line in avoid %}<li>{{ line }}</li>{% endfor %}
  </ul>{% endif %}</li>
{% endmacro %}
"""


def taken_cards(drill: StrategyDrill) -> tuple[Card, ...]:
    """The cards already captured in the deal (in either pile): with the hand and the table, what the student
    can know; the other cards are in the other hand or still in the deck."""
    return tuple(sorted(c for pile in drill.view.piles for c in pile))


def situation(_: Translator, drill: StrategyDrill) -> str:
    """Who plays and what is still to come, in words (the worksheet's and the screen's): without them a play
    cannot be weighed, and in the last round the cards still unseen are the other hand."""
    view = drill.view
    deck = (_("No cards are left in the stock: this is the deal's last round.") if view.deck_left == 0 else
            _.plural("{n} card is left in the stock.", "{n} cards are left in the stock.", view.deck_left))
    held = view.hand_sizes[1 - view.player]
    if held:
        other = _.plural("The other player has {n} card in hand.", "The other player has {n} cards in hand.", held)
    elif view.deck_left:  # the other hand is empty: the student is the dealer, playing last in the round
        other = _("The other player has no cards left in hand: you play the last card of this round, and after the "
                  "next deal the other player plays first.")
    else:
        other = _("The other player has no cards left in hand: you play the last card of the deal.")
    return " ".join((_("Two players are playing."), deck, other))


def taken_by_suit(_: Translator, drill: StrategyDrill) -> list[str]:
    """The cards already taken in the deal, suit by suit: «oros: as, 2, sota»; «copas: —»."""
    taken = taken_cards(drill)
    return [_("{suit}: {ranks}", suit=_.suit_name(suit),
              ranks=", ".join(paper.rank(_, c) for c in taken if c.suit is suit) or "—") for suit in SUITS]


def _strategy_task(_: Translator, drill: StrategyDrill) -> dict[str, object]:
    by_suit = taken_by_suit(_, drill)
    return {"players": situation(_, drill), "your_hand": _("Your hand:"), "on_table": _("On the table:"),
            "taken": _("Already taken in this deal:"), "by_suit": by_suit,
            "mine": _("The card I would play, and why:")}


_GOOD_PLAYS = N_plural("Good play:", "Good plays:")
_NO_CAPTURE = N_("None of your cards can take anything: the choice is about what you leave on the table.")
# (a heading of their own, so that on paper the plays to avoid do not read as part of the last good play)
_PLAYS_TO_AVOID = N_plural("Play to avoid:", "Plays to avoid:")


def _strategy_answer(_: Translator, drill: StrategyDrill) -> dict[str, object]:
    """The good moves, each with its reason, then every other move, worst last: each with what is wrong with
    it when the best play does not share that fault, and how many points it costs."""
    moves: list[tuple[str, str]] = []
    listed = good_in_order(drill)
    plays = tuple(h.move for h in drill.ranking)
    for i, hint in enumerate(listed):
        move = _move_text(_, hint.move)
        above = [h.move for h in listed[:i]]
        why = _good_reason(_, drill.view, hint, plays, drill.ranking[0].move, above)
        if _outdone(drill.view, hint.move, plays, above):
            why = paper.word(_, _ABOVE_ADDS_MORE, reason=why)
        elif _as_good(drill.view, hint.move, above):
            why = paper.word(_, _ABOVE_AS_GOOD, reason=why)
        elif why in [said for _move, said in moves]:
            why = _told_apart(_, drill.view, hint.move, plays, above) or why
        moves.append((move[:1].upper() + move[1:], why))
    best = drill.ranking[0]
    # the best play by its card alone, unless another play of that card could be meant
    alone = sum(h.move.card == best.move.card for h in drill.ranking) == 1
    # the best play by its card ("than the knight of clubs"), or "the best play" when that card makes others
    than = _.the_card(best.move.card) if alone else _("the best play")
    exact = last_round(drill.view)
    good = tuple(h.move for h in drill.good)
    avoid = []
    for hint in drill.ranking[len(drill.good):]:
        # an estimate's size: whole from 2 up ("about 6 points", never "6.0"), one decimal below ("about 0.4")
        loss, count = points_number(_, hint.loss, whole_from=1.95)
        move = _avoided_text(_, hint.move)
        faults = _faults(_, drill.view, hint.move, best.move, good)
        # (clauses, each with its own verb: joined with a comma before the last "and")
        head = ", ".join(faults[:-1])
        risk = (_("{reasons}, and {final}", reasons=head, final=faults[-1]) if len(faults) > 1
                else faults[0] if faults else None)
        if risk is not None:  # what is wrong with the move
            # (no figure beside it: a reason the pupil can check on the page says enough, and two alike reasons
            # with two figures would suggest a difference the page does not show)
            gain = _kept_gain(_, drill.view, hint.move, plays, best.move)
            avoid.append(_("Avoid {move}: {gain}, but {why}.", move=move, gain=gain, why=risk) if gain else
                         _("Avoid {move}: {why}.", move=move, why=risk))
        elif exact:  # nothing wrong that the best play does not share: the deal played out says how much less
            avoid.append(_.plural(
                "Avoid {move}: played out to the end of the deal against the other player's cards, it scores about "
                "{loss} point less than {best}.",
                "Avoid {move}: played out to the end of the deal against the other player's cards, it scores about "
                "{loss} points less than {best}.", count, move=move, loss=loss, best=than))
        else:  # (the expert's average over the ways the unseen cards could lie)
            avoid.append(_.plural(
                "Avoid {move}: averaged over many possible ways the unseen cards could be dealt, it scores "
                "about {loss} point less than {best}.",
                "Avoid {move}: averaged over many possible ways the unseen cards could be dealt, it scores "
                "about {loss} points less than {best}.", count, move=move, loss=loss, best=than))
    # What the key says before the plays: that no card can take anything (every reason below is then about the
    # table left, and a pupil looking for a capture would not see why), and the other hand when it is known.
    first = [_(_NO_CAPTURE) if not any(h.move.captured for h in drill.ranking) else "",
             _("The stock is empty, so the other player holds exactly the cards still unseen: {cards}.",
               cards=the_cards(_, other_hand(drill.view))) if exact else ""]
    return {"first": " ".join(filter(None, first)), "good": _.plural(*_GOOD_PLAYS, len(moves)), "moves": moves,
            "avoid": avoid, "avoid_title": _.plural(*_PLAYS_TO_AVOID, len(avoid))}


def _told_apart(_: Translator, view: PlayerView, move: Move, plays: Sequence[Move], above: Sequence[Move]
                ) -> str | None:
    """A good play's reason when it would read as one listed above: its first edge over a play above, then the
    count that play beats it on (None: no count tells them apart)."""
    mine = next((code for code in MERITS if any(merit_measure(view, move, code) > merit_measure(view, other, code)
                                                for other in above)), None)
    theirs = next((code for code in _ABOVE_MORE_OF if any(
        merit_measure(view, other, code) > merit_measure(view, move, code) for other in above)), None)
    if mine is None or theirs is None:
        return None
    return paper.word(_, _ABOVE_MORE_OF[theirs], reason=_merit_text(_, view, move, mine, plays))


def _kept_gain(_: Translator, view: PlayerView, move: Move, plays: Sequence[Move], best: Move) -> str | None:
    """What a play to avoid gains that the best play does not (the siete de oros, more sevens or coins), in
    words, so that the key weighs it against the fault rather than leave a sound capture to read as a mistake;
    None when it gains no such thing."""
    code = merit(view, move, plays)
    if code in ("takes_siete_de_oros", *_COUNTED_REASONS) and (
            merit_measure(view, move, code) > merit_measure(view, best, code)):
        return _merit_text(_, view, move, code, plays)
    return None


def _outcome(result: Any) -> Outcome:
    if not hasattr(result, "ok"):  # "unanswered": no move chosen
        return None
    return (True, None) if result.ok else (False, result.mistake or "costly")


_SWEEP_SAID = {"escoba": N_("To sweep the table is to take every card on it with one play: that is an escoba."),
               "scopa": N_("To sweep the table is to take every card on it with one play: that is a scopa.")}


def _intro(_: Translator, rules: Rules) -> str:
    # (what a pupil is marked on first: the key's source comes after, so that it does not read as "lesson 8 is wrong")
    # («barrer», to sweep, is used in the key: said once here, with the escoba it makes)
    return " ".join((_("Choose the card you would play (and what it takes), and say why."),
                     paper.word(_, _SWEEP_SAID[rules.sweep]),
                     _("A good reason counts even where the answer key prefers another play: the key follows the "
                       "computer's hard level, which tries every play against the cards the other player may hold.")))



def _given(_: Translator, drill: StrategyDrill, given: giving.Given) -> str:
    """The play chosen: «The seven of coins, taking the three of clubs»; one not among the plays is no answer."""
    chosen = giving.choice(given, "move")
    move = next((h.move for h in drill.ranking if str(h.move) == chosen), None)
    if move is None:
        return _(giving.NO_ANSWER)
    said = _move_text(_, move)
    return said[:1].upper() + said[1:]


KIND = DrillKind(
    name="strategy",
    make=strategy_drill,
    label=N_("strategy (which card would you play)"),
    column=N_("Strategy"),
    lesson="08-strategy",
    mistakes={"costly": N_("Choosing a play that costs points compared with the best one")},
    outcome=_outcome,
    worksheet=WorksheetPart(N_("Which card would you play?"), _intro, _SHEET, _strategy_task,
                            _strategy_answer),
    view="escoba_tutor.widgets.drills.strategy:StrategyView",
    given=_given,
)
