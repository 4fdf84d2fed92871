"""Hints as data: the legal moves ranked by the expert, each with one reason, and the costliest move of a deal.

A reason is a code with the cards and numbers it speaks of, never a sentence: the widgets turn it into words
from their message catalogs, in Spanish or English. The codes, in the order one is chosen for a move (the
first that applies):

==================== =============================================================================================
code                 meaning, and the fields it fills
==================== =============================================================================================
``escoba``           the move sweeps the table: ``cards`` the cards taken (played card first), ``count`` their number
``takes_siete_de_oros`` the move captures the siete de oros (or plays it to capture): ``cards`` as above, ``count``
``leaves_sweepable`` the table left can be swept by a card still unseen: ``total`` the capture value of the table
                     left, ``sweeper_value`` the capture value of the sweeping card (the lowest, if several),
                     ``unseen`` how many unseen cards could sweep it, ``cards`` the table left
``lays_siete_de_oros`` the siete de oros is laid on the table, where it can be taken: ``cards`` (the 7o), ``total``
``takes_sevens``     the capture takes sevens (for the setenta or primera): ``cards`` the sevens, ``count``
``takes_oros``       the capture takes oros: ``cards`` the oros, ``count``
``takes_cards``      any other capture: ``cards`` as for escoba, ``count`` the cards it adds to the pile
``leaves_unsweepable`` a card laid down leaves a table no unseen card can sweep: ``total``, ``cards`` the table left
``lays_card``        any other card laid down: ``cards`` (the card), ``total`` the table's value afterwards
==================== =============================================================================================

Fields a code does not use are None (``cards`` is then empty).

>>> from escoba_tutor import Game
>>> game = Game(players=2, seed=4)
>>> ranked = hints(game.view(game.turn))
>>> ranked[0].loss, ranked[0].reason.code in REASON_CODES
(0.0, True)
>>> all(a.value >= b.value for a, b in zip(ranked, ranked[1:]))
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.captures import captures_on
from ..engine.cards import Card, Suit
from ..engine.errors import EscobaError
from ..engine.game import Game, Move, PlayerView
from .expert import ExpertBot, MoveValue

__all__ = ["REASON_CODES", "Reason", "Hint", "CostlyMove", "hints", "reason_for", "sweep_risk", "costliest_move"]

#: Every reason code :func:`hints` gives, in the order a move's reason is chosen (the first that applies).
REASON_CODES = ("escoba", "takes_siete_de_oros", "leaves_sweepable", "lays_siete_de_oros", "takes_sevens",
                "takes_oros", "takes_cards", "leaves_unsweepable", "lays_card")

SIETE_DE_OROS = Card(7, "o")


@dataclass(frozen=True)
class Reason:
    """Why a move is good or bad, as data: a code of :data:`REASON_CODES` and the fields that code fills."""

    code: str
    cards: tuple[Card, ...] = ()
    count: int | None = None
    total: int | None = None
    sweeper_value: int | None = None
    unseen: int | None = None


@dataclass(frozen=True)
class Hint:
    """A legal move, what the expert expects it to be worth (deal points of the player's side minus the best
    other side's), how much less than the best move that is (``loss``, 0 for the best), whether the value is
    exact (nothing hidden) and one reason."""

    move: Move
    value: float
    loss: float
    exact: bool
    reason: Reason


def hints(view: PlayerView, bot: ExpertBot | None = None) -> list[Hint]:
    """The legal moves of ``view`` ranked best first by the expert (``bot``, by default ``ExpertBot()``): the
    first is the move that bot plays. Raises an :class:`EscobaError` when it is not the player's turn."""
    bot = bot or ExpertBot()
    ranked = bot.evaluate(view)
    return _as_hints(view, ranked)


def _as_hints(view: PlayerView, ranked: list[MoveValue]) -> list[Hint]:
    best = ranked[0].value
    return [Hint(v.move, v.value, best - v.value, v.exact, reason_for(view, v.move)) for v in ranked]


def reason_for(view: PlayerView, move: Move) -> Reason:
    """The one reason :func:`hints` gives for ``move`` in ``view`` (see the table above).

    >>> from escoba_tutor import ESCOBA, parse_cards
    >>> from escoba_tutor.engine.game import PlayerView
    >>> hand, table = parse_cards("4c 12e"), parse_cards("5b 6o")
    >>> view = PlayerView(player=0, side=0, sides=((0,), (1,)), rules=ESCOBA, deal=0, dealer=1, turn=0, hand=hand,
    ...                   table=table, hand_sizes=(2, 3), piles=((), ()), escobas=(0, 0), deck_left=30,
    ...                   totals=(0, 0), legal_moves=(Move("4c", "5b 6o"), Move("12e")), history=(), winner=None)
    >>> reason_for(view, Move("4c", "5b 6o")).code
    'escoba'
    >>> r = reason_for(view, Move("12e"))     # 5 + 6 + 10 = 21: no single card makes 15 with it
    >>> r.code, r.total
    ('leaves_unsweepable', 21)
    """
    card, taken = move
    table = view.table
    left = tuple(c for c in table if c not in taken) if taken else (*table, card)
    total = sum(c.value for c in left)
    if taken:
        pile = (card, *sorted(taken, key=lambda c: c.index))
        if not left:
            return Reason("escoba", pile, count=len(pile))
        if SIETE_DE_OROS in pile:
            return Reason("takes_siete_de_oros", pile, count=len(pile))
    sweep = _sweepers(view, left)
    if sweep:
        return Reason("leaves_sweepable", left, total=total, sweeper_value=min(sweep), unseen=len(sweep))
    if not taken:
        if card == SIETE_DE_OROS:
            return Reason("lays_siete_de_oros", (card,), total=total)
        return Reason("leaves_unsweepable", left, total=total) if _anyone_to_play(view) else \
            Reason("lays_card", (card,), total=total)
    sevens = tuple(c for c in pile if c.rank == 7)
    if sevens:
        return Reason("takes_sevens", sevens, count=len(sevens))
    oros = tuple(c for c in pile if c.suit is Suit.OROS)
    if oros:
        return Reason("takes_oros", oros, count=len(oros))
    return Reason("takes_cards", pile, count=len(pile))


def sweep_risk(view: PlayerView, move: Move) -> Reason | None:
    """The ``leaves_sweepable`` reason of ``move`` whatever else it does (:func:`reason_for` gives one reason, and
    an escoba or the siete de oros comes first): what it leaves on the table for a card still unseen to sweep, or
    None when nothing unseen can sweep it.

    >>> from escoba_tutor import ESCOBA, parse_cards
    >>> view = PlayerView(player=0, side=0, sides=((0,), (1,)), rules=ESCOBA, deal=0, dealer=1, turn=0,
    ...                   hand=parse_cards("7o 1c"), table=parse_cards("1o 2e 5b"), hand_sizes=(2, 3), piles=((), ()),
    ...                   escobas=(0, 0), deck_left=30, totals=(0, 0), legal_moves=(Move("7o", "1o 2e 5b"),),
    ...                   history=(), winner=None)
    >>> r = sweep_risk(view, Move("1c"))      # 1 + 2 + 5 + 1 = 9: a six sweeps it
    >>> r.code, r.total, r.sweeper_value, r.unseen
    ('leaves_sweepable', 9, 6, 4)
    """
    card, taken = move
    left = tuple(c for c in view.table if c not in taken) if taken else (*view.table, card)
    sweep = _sweepers(view, left)
    if not sweep:
        return None
    return Reason("leaves_sweepable", left, total=sum(c.value for c in left), sweeper_value=min(sweep),
                  unseen=len(sweep))


def _anyone_to_play(view: PlayerView) -> bool:
    """Whether anybody plays after this move in the deal (otherwise no one can sweep what is left)."""
    return view.deck_left > 0 or sum(view.hand_sizes) > 1


def _sweepers(view: PlayerView, left: tuple[Card, ...]) -> list[int]:
    """The capture values of the unseen cards (one entry per card) that could take the whole table ``left``."""
    if not left or not _anyone_to_play(view):
        return []
    mask = sum(c.bit for c in left)
    whole = frozenset(left)
    hand = set(view.hand)
    return [c.value for c in view.unseen if c not in hand and whole in captures_on(c, mask, view.rules)]


# ------------------------------------------------------------------------------- after the deal
@dataclass(frozen=True)
class CostlyMove:
    """The learner's move of a deal that lost the most against the expert's choice.

    ``deal`` is the deal's number, ``play`` the play's position in the deal (0 for the first), ``hand`` and
    ``table`` what the learner had and saw then, ``played`` and ``best`` the hints of the move played and of
    the expert's move, and ``loss`` the difference of their values in deal points.
    """

    deal: int
    play: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    played: Hint
    best: Hint
    loss: float


def costliest_move(game: Game, player: int, deal: int = -1, bot: ExpertBot | None = None) -> CostlyMove | None:
    """For a finished deal of ``game`` (by default the last), the move of ``player`` that lost the most expected
    value compared with the expert's choice, and what the expert would have played; None when every move of
    theirs was as good as the expert's (or they made none). The deal is replayed from the game's start and moves
    (:meth:`Game.restarted`: its seed, or the deal a game of :meth:`Game.dealt_from` was dealt from, as at a table
    where students play each other), and each position is judged from ``player``'s own view, as the expert would
    have seen it then.
    """
    if type(player) is not int or not 0 <= player < game.players:
        raise EscobaError(f"there is no player {player!r} in a {game.players}-player game"[:120], code="bad_player")
    finished = game.deals
    if not finished:
        raise EscobaError("no deal is finished yet: there is no move to review", code="no_finished_deal")
    try:
        record = finished[deal]
    except (IndexError, TypeError):
        raise EscobaError(f"there is no finished deal {deal!r}: {len(finished)} finished so far"[:120],
                          code="bad_deal") from None
    bot = bot or ExpertBot()
    replay = game.restarted()
    worst: CostlyMove | None = None
    number = 0
    for move in game.moves:
        if replay.deal > record.deal or replay.is_over:
            break
        if replay.deal == record.deal:
            if replay.turn == player:
                view = replay.view(player)
                if len(view.legal_moves) > 1:
                    ranked = _as_hints(view, bot.evaluate(view))
                    played = next((h for h in ranked if h.move == move), None)
                    if played is not None and played.loss > 1e-9 and (worst is None or played.loss > worst.loss):
                        worst = CostlyMove(record.deal, number, view.hand, view.table, played, ranked[0],
                                           played.loss)
            number += 1
        replay.play(move)
    return worst
