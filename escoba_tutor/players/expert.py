"""The "difícil" level: a bot that searches, reasoning only from what its player can see.

For each decision the expert guesses the hidden cards many times (determinization): it deals the cards it has
not seen to the other hands (each with its real size) and to the rest of the deck, builds the real
:class:`~escoba_tutor.engine.game.Game` at that guessed position (:meth:`Game.at_position`) and tries every legal move
there with a short search (its move, the replies, ...), played by the engine's own ``play``/``undo``. A search
stops at a fixed depth, where an estimate of the deal's points takes over, or at the deal's end, where the
engine scores the deal exactly. The value of a move is its average over the guesses, in deal points: what the
bot's side will score minus what the best other side will score (a win or a loss of the game, when the deal's
end decides it, counts :data:`GAME_WEIGHT` points more).

In a 2-player deal whose last cards are dealt, nothing is hidden any more (the other hand is exactly the cards
not seen): the expert then searches every play to the deal's end, so it plays the rest of the deal perfectly.

Its effort is a fixed budget (guesses, depth, positions searched), never a clock, and the guesses come from a
generator seeded by the bot's seed and the position itself: the same seed and the same view always give the
same decision, and :func:`escoba_tutor.players.hints.hints` ranks moves with exactly the values the bot uses.

>>> from escoba_tutor import Game
>>> game = Game(players=2, seed=4)
>>> view = game.view(game.turn)
>>> bot = ExpertBot(seed=1)
>>> bot.choose(view) in view.legal_moves
True
>>> bot.choose(view) == ExpertBot(seed=1).choose(view)
True
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..engine.cards import DECK, SUITS, Card, Suit
from ..engine.errors import EscobaError
from ..engine.game import EscobaDeMano, Game, Move, Play, PlayerView
from ..engine.rules import Rules

__all__ = ["ExpertBot", "MoveValue", "GAME_WEIGHT", "public_piles"]

#: Points a search adds for winning the game at a deal's end it reaches (and takes off for losing it).
GAME_WEIGHT = 3.0
SIETE_DE_OROS = Card(7, "o")

# ------------------------------------------------------------------------------------- the estimate
# Mid-deal, a deal's points are estimated from the piles: each card not yet captured is taken as equally likely
# to end in either pile (two sides), and each "strictly the most" item is worth its chance of being won.
_TAIL = [[1.0] * 42 for _ in range(41)]  # _TAIL[r][k]: the chance that at least k of r fair coins fall heads
for _r in range(41):
    _weights = [math.comb(_r, h) / 2**_r for h in range(_r + 1)]
    for _k in range(42):
        _TAIL[_r][_k] = sum(_weights[_k:]) if _k <= _r else 0.0


def _tail(remaining: int, needed: int) -> float:
    return 1.0 if needed <= 0 else _TAIL[remaining][needed] if needed <= remaining else 0.0


def _most(mine: int, theirs: int, total: int) -> float:
    """My chance of strictly the most of ``total`` cards of a kind minus theirs, the rest split at random."""
    needed = total // 2 + 1
    remaining = total - mine - theirs
    return _tail(remaining, needed - mine) - _tail(remaining, needed - theirs)


def _suit_lead(order: list[tuple[int, int]], taken: int, mine: int, theirs: int) -> float:
    """How much better my expected best setenta card of a suit is than theirs: each loose card of the suit
    (``order``: (bit, value), best first; ``taken`` the bits of the captured cards) comes to either side with
    chance one half."""
    lead, my_chance, their_chance = 0.0, 1.0, 1.0
    for bit, value in order:
        if value <= mine and value <= theirs:
            break
        if bit & taken:
            continue
        if value > mine:
            lead += my_chance * 0.5 * value
            my_chance *= 0.5
        if value > theirs:
            lead -= their_chance * 0.5 * value
            their_chance *= 0.5
    return lead + my_chance * mine - their_chance * theirs


def _best_held(order: list[tuple[int, int]], held: int) -> int:
    """The best setenta value among the cards of a suit (``order``, best first) whose bits are in ``held``."""
    for bit, value in order:
        if bit & held:
            return value
    return 0


def _linear_worth(card: Card) -> float:
    """What capturing one card is roughly worth in points, for quick judgements (many sides, the next capture)."""
    worth = 0.06
    if card.suit is Suit.OROS:
        worth += 0.09
        if card.rank == 7:
            worth += 0.9
    if card.rank == 7:
        worth += 0.2
    elif card.rank == 6:
        worth += 0.1
    elif card.rank == 1:
        worth += 0.04
    return worth


_WORTH = {card: _linear_worth(card) for card in DECK}


def estimate_points(piles: Sequence[Sequence[Card]], escobas: Sequence[int], rules: Rules, side: int,
                    material: float = 1.0) -> float:
    """The deal points ``side`` can expect to score minus those of the best other side, judged from the piles
    and escobas so far (the cards not yet captured are taken as shared out at random).

    >>> from escoba_tutor import ESCOBA, parse_cards
    >>> estimate_points([parse_cards("7o 7c"), ()], [1, 0], ESCOBA, 0) > 2
    True
    """
    sides = len(piles)
    if sides != 2:
        worths = [escobas[i] + sum(_WORTH[c] for c in pile) for i, pile in enumerate(piles)]
        return worths[side] - max(w for i, w in enumerate(worths) if i != side)
    mine, theirs = piles[side], piles[1 - side]
    my_mask, their_mask = sum(c.bit for c in mine), sum(c.bit for c in theirs)
    sure = float(escobas[side] - escobas[1 - side])
    if my_mask & _SIETE_BIT:
        sure += 1.0
    elif their_mask & _SIETE_BIT:
        sure -= 1.0
    # The items still open: their chances, scaled by ``material`` (how far the coin-toss model is trusted).
    open_items = _most(len(mine), len(theirs), 40)
    open_items += _most((my_mask & _OROS).bit_count(), (their_mask & _OROS).bit_count(), 10)
    if rules.figuras:
        open_items += _most((my_mask & _FIGURES).bit_count(), (their_mask & _FIGURES).bit_count(), 12)
    if rules.primera == "sevens":
        open_items += _most((my_mask & _SEVENS).bit_count(), (their_mask & _SEVENS).bit_count(), 4)
    else:
        orders = _LOW_ORDER if rules.setenta_cards == "low" else _ORDER
        taken = my_mask | their_mask
        lead = 0.0
        for order in orders:
            lead += _suit_lead(order, taken, _best_held(order, my_mask), _best_held(order, their_mask))
        loose_high = 16 - (taken & _HIGH).bit_count()
        # The fewer good cards are still loose, the surer the lead: the scale shrinks as they are taken.
        open_items += math.tanh(lead / (4.0 + 1.5 * loose_high))
    return sure + material * open_items


def _mask(cards: Iterable[Card]) -> int:
    return sum(c.bit for c in cards)


_SIETE_BIT = SIETE_DE_OROS.bit
_OROS = _mask(c for c in DECK if c.suit is Suit.OROS)
_FIGURES = _mask(c for c in DECK if c.is_figure)
_SEVENS = _mask(c for c in DECK if c.rank == 7)
_HIGH = _mask(c for c in DECK if c.setenta_value >= 15)
_ORDER = [sorted(((c.bit, c.setenta_value) for c in DECK if c.suit is suit), key=lambda bv: -bv[1])
          for suit in SUITS]
_LOW_ORDER = [sorted(((c.bit, c.setenta_value if c.rank <= 7 else 0) for c in DECK if c.suit is suit),
                     key=lambda bv: -bv[1]) for suit in SUITS]
# ------------------------------------------------------------------------------------- what is public
def public_piles(view: PlayerView) -> tuple[list[tuple[Card, ...]], int | None]:
    """Each side's pile in the current deal and the last side to capture, rebuilt from the public history in
    the view (captures are made face up). Cards the view says were seen but that are nowhere else (a view built
    by hand, without its history) are shared out to the piles by their sizes."""
    piles: list[list[Card]] = [[] for _ in view.sides]
    last = None
    current = []
    for event in reversed(view.history):
        if getattr(event, "deal", None) != view.deal:
            break
        current.append(event)
    for event in reversed(current):
        if type(event) is Play and event.captured:
            piles[event.side] += [*event.captured, event.card]
            last = event.side
        elif type(event) is EscobaDeMano:
            piles[event.side] += event.cards
            last = event.side
    placed = {c for pile in piles for c in pile} | set(view.table) | set(view.hand)
    stray = sorted((c for c in view.seen if c not in placed), key=lambda c: c.index)
    for card in stray:
        short = [i for i in range(len(piles)) if len(piles[i]) < view.pile_sizes[i]]
        piles[short[0] if short else len(stray) % len(piles)].append(card)
    return [tuple(pile) for pile in piles], last


@dataclass(frozen=True)
class MoveValue:
    """A legal move and what the expert expects it to be worth: deal points for the player's side minus the
    best other side's, averaged over its guesses. ``exact`` is True when nothing was hidden (a 2-player deal
    with every card dealt): the value is then the deal's final point difference with best play."""

    move: Move
    value: float
    exact: bool


# ------------------------------------------------------------------------------------------- the bot
class ExpertBot:
    """The "difícil" level. ``samples`` guesses of the hidden cards, each searched ``depth`` plays deep (by
    default 2 with two players, else one round of play; a 2-player deal's end is searched exhaustively); a
    position so big that the guesses would search more than ``budget`` positions gets fewer guesses (at least
    4). Where a search stops, ``leaf_reply`` of the best capture the player to move has then is counted for
    (or against) the bot's side, and ``material`` scales the estimated chances of the items still open (cards,
    oros, setenta). The defaults were tuned against the greedy bot. A forced move is not searched (value 0).

    >>> from escoba_tutor import Game
    >>> game = Game(players=4, seed=2)
    >>> view = game.view(game.turn)
    >>> ExpertBot(seed=3).choose(view) in view.legal_moves
    True
    """

    name = "expert"

    def __init__(self, seed: int | None = None, samples: int = 24, depth: int | None = None,
                 budget: int = 2400, leaf_reply: float = 1.0, material: float = 0.6) -> None:
        if type(samples) is not int or samples < 1 or type(budget) is not int or budget < 1:
            raise EscobaError("an expert needs at least 1 sample and a budget of at least 1 position",
                              code="bad_budget")
        if depth is not None and (type(depth) is not int or depth < 1):
            raise EscobaError(f"the search depth is a whole number of at least 1, not {depth!r}"[:120],
                              code="bad_budget")
        self.seed = 0 if seed is None else seed
        self.samples, self.depth, self.budget, self.leaf_reply = samples, depth, budget, leaf_reply
        self.material = material

    def __repr__(self) -> str:
        return f"{type(self).__name__}(samples={self.samples}, depth={self.depth}, budget={self.budget})"

    def choose(self, view: PlayerView) -> Move:
        return self.evaluate(view)[0].move

    # ------------------------------------------------------------------------------------------ search
    def evaluate(self, view: PlayerView) -> list[MoveValue]:
        """Every legal move with its value, best first (equal values keep the order of ``view.legal_moves``)."""
        if not view.legal_moves:
            raise EscobaError(f"it is not the turn of player {view.player}: there is no move to choose",
                              code="not_your_turn", player=view.player)
        moves = view.legal_moves
        if len(moves) == 1:
            return [MoveValue(moves[0], 0.0, False)]
        players = len(view.hand_sizes)
        exact = players == 2 and view.deck_left == 0
        rng = random.Random(self._position_seed(view))
        piles, last = public_piles(view)
        unseen = list(view.unseen)
        depth = 99 if exact else (self.depth or (2 if players == 2 else players))
        totals = [0.0] * len(moves)
        search = _Search(view.side, view.deal, view.rules, self.leaf_reply, self.material)
        samples = 1 if exact else self.samples
        done = 0
        while done < samples:
            rng.shuffle(unseen)
            game = self._world(view, piles, last, unseen)
            before = search.nodes
            for i, move in enumerate(moves):
                game.play(move)
                if exact:
                    totals[i] += search.exact(game, view.side if move.captured else last)
                else:
                    totals[i] += search.value(game, depth - 1, -math.inf, math.inf)
                game.undo()
            done += 1
            if done == 1 and not exact:  # a big position gets fewer guesses: the budget is positions, not time
                per_sample = max(1, search.nodes - before)
                samples = max(4, min(samples, self.budget // per_sample))
        values = [MoveValue(move, total / done, exact) for move, total in zip(moves, totals)]
        order = sorted(range(len(moves)), key=lambda i: -values[i].value)
        return [values[i] for i in order]

    def _position_seed(self, view: PlayerView) -> str:
        key = (self.seed, view.player, view.deal, view.dealer, view.deck_left, view.totals, view.escobas,
               view.hand_sizes, view.pile_sizes, sorted(c.index for c in view.hand),
               [c.index for c in view.table], sorted(c.index for c in view.seen))
        return hashlib.sha256(repr(key).encode()).hexdigest()

    @staticmethod
    def _world(view: PlayerView, piles: Sequence[Sequence[Card]], last: int | None, unseen: list[Card]) -> Game:
        """The real game at the view's position, with the hidden cards dealt as ``unseen`` is ordered."""
        hands: list[tuple[Card, ...]] = []
        at = 0
        for player, size in enumerate(view.hand_sizes):
            if player == view.player:
                hands.append(view.hand)
            else:
                hands.append(tuple(unseen[at:at + size]))
                at += size
        return Game.at_position(len(view.hand_sizes), view.rules, dealer=view.dealer, turn=view.player,
                                hands=hands, table=view.table, deck=unseen[at:], piles=piles,
                                escobas=view.escobas, last_capturer=last, totals=view.totals, deal=view.deal)


class _Search:
    """Minimax over the real engine for one side: its players take the best value, the others the worst
    (a deal is zero-sum between two sides; with three, the others are taken to play against this side)."""

    def __init__(self, side: int, deal: int, rules: Rules, leaf_reply: float, material: float = 1.0) -> None:
        self.side, self.deal, self.rules, self.leaf_reply, self.material = side, deal, rules, leaf_reply, material
        self.nodes = 0
        self.memo: dict[tuple[object, ...], tuple[float, int]] = {}

    def value(self, game: Game, depth: int, alpha: float, beta: float) -> float:
        """The value of the position for ``self.side`` after at most ``depth`` more plays."""
        self.nodes += 1
        if game.deal != self.deal or game.is_over:
            return self.final(game)
        moves: Sequence[Move] = game.legal_moves()
        turn = game.turn
        assert turn is not None  # the game is not over
        mine = game.side_of[turn] == self.side
        if depth <= 0:
            return self.leaf(game, moves, mine)
        if len(moves) > 1 and depth > 1:  # likely best first, so that more of the rest is cut off
            moves = sorted(moves, key=_quick_gain, reverse=True)
        return self.best(game, moves, mine, alpha, beta, lambda _move, a, b: self.value(game, depth - 1, a, b))

    def exact(self, game: Game, last: int | None, alpha: float = -math.inf, beta: float = math.inf) -> float:
        """The value with best play by everyone to the deal's end (every card known), by alpha-beta search
        that remembers positions, since plays in another order often reach the same one. ``last`` is the last
        side to capture, which decides who takes the cards left on the table. Exact when it lies strictly
        between ``alpha`` and ``beta``; otherwise a bound on the far side of the one it passed."""
        self.nodes += 1
        if game.deal != self.deal or game.is_over:
            return self.final(game)
        key = (game.turn, game.hands, sum(c.bit for c in game.table), sum(c.bit for c in game.piles[0]),
               game.escobas, last)
        known = self.memo.get(key)
        if known is not None:
            value, kind = known
            if kind == 0 or (kind > 0 and value >= beta) or (kind < 0 and value <= alpha):
                return value
        low, high = alpha, beta
        turn = game.turn
        assert turn is not None  # the game is not over
        side = game.side_of[turn]
        mine = side == self.side
        moves: Sequence[Move] = game.legal_moves()
        if len(moves) > 1:
            moves = sorted(moves, key=_quick_gain, reverse=True)
        best = self.best(game, moves, mine, alpha, beta,
                         lambda move, a, b: self.exact(game, side if move.captured else last, a, b))
        # 0: exact; 1: a lower bound (the search stopped at beta); -1: an upper bound (nothing beat alpha).
        self.memo[key] = (best, 1 if best >= high else -1 if best <= low else 0)
        return best

    @staticmethod
    def best(game: Game, moves: Sequence[Move], mine: bool, alpha: float, beta: float,
             child: Callable[[Move, float, float], float]) -> float:
        """Alpha-beta over ``moves``: each one played, valued by ``child(move, alpha, beta)`` and taken back; the
        best value for the side to move (the highest when it is this side, else the lowest)."""
        best = -math.inf if mine else math.inf
        for move in moves:
            game.play(move)
            value = child(move, alpha, beta)
            game.undo()
            if mine:
                if value > best:
                    best = value
                    alpha = max(alpha, value)
            elif value < best:
                best = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def final(self, game: Game) -> float:
        """A deal the search played to its end: the engine's own score, and the game's result if it ended."""
        points = game.deals[-1].score.points
        value: float = points[self.side] - max(p for i, p in enumerate(points) if i != self.side)
        if game.is_over:
            value += GAME_WEIGHT if game.winner == self.side else -GAME_WEIGHT
        return value

    def leaf(self, game: Game, moves: Sequence[Move], mine: bool) -> float:
        """The estimate of the deal's points, and part of the best capture the player to move has now."""
        value = estimate_points(game.piles, game.escobas, self.rules, self.side, self.material)
        if self.leaf_reply:
            size = len(game.table)
            best = 0.0
            for card, taken in moves:
                if taken:
                    gain = _WORTH[card] + sum(_WORTH[c] for c in taken) + (len(taken) == size)
                    if gain > best:
                        best = gain
            value += self.leaf_reply * best if mine else -self.leaf_reply * best
        return value


def _quick_gain(move: Move) -> float:
    card, taken = move
    return _WORTH[card] + sum(_WORTH[c] for c in taken) if taken else -_WORTH[card]
