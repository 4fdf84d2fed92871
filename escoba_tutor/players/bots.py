"""Computer players. A bot sees exactly what its player may see (a :class:`PlayerView`), never the game.

A bot is any object with a ``name`` and a ``choose(view)`` method returning one of ``view.legal_moves``. Bots
are built by name from :data:`BOTS`, so stronger levels (greedy, expert) plug in by adding an entry.

>>> from escoba_tutor import Game
>>> game = Game(players=2, seed=3)
>>> bot = make_bot("random", seed=1)
>>> view = game.view(game.turn)
>>> bot.choose(view) in view.legal_moves
True
>>> make_bot("genius")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
escoba_tutor.engine.errors.EscobaError: no bot is called 'genius': choose one of 'random', 'greedy', 'expert' ...
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..engine.captures import captures_on
from ..engine.cards import Card, Suit
from ..engine.errors import EscobaError
from ..engine.game import Move, PlayerView
from .expert import ExpertBot

SIETE_DE_OROS = Card(7, "o")

__all__ = ["Bot", "RandomBot", "GreedyBot", "ExpertBot", "BOTS", "LEVELS", "make_bot", "bot_names"]


class Bot(Protocol):
    """What the simulator and the app need from a computer player."""

    name: str

    def choose(self, view: PlayerView) -> Move:
        """One of ``view.legal_moves``; called only when it is this bot's player's turn."""
        ...


class RandomBot:
    """Plays a uniformly random legal move, from its own seeded generator (so a run can be replayed).

    >>> from escoba_tutor import Game
    >>> game = Game(players=2, seed=5)
    >>> view = game.view(game.turn)
    >>> RandomBot(seed=2).choose(view) == RandomBot(seed=2).choose(view)
    True
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        if not view.legal_moves:
            raise EscobaError(f"it is not the turn of player {view.player}: there is no move to choose",
                              code="not_your_turn", player=view.player)
        return self._random.choice(view.legal_moves)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class GreedyBot:
    """The "medio" level: a fixed order of preferences a careful beginner follows.

    1. make an escoba; 2. take the siete de oros; 3. never leave a table that the next player could sweep with a
    card still unseen, when another move avoids it; 4. then prefer the capture with the most sevens, then the
    most oros, then the most cards; 5. with no capture, lay the card that leaves the table hardest to sweep
    (the fewest unseen cards could sweep it), keeping sevens and oros.

    >>> from escoba_tutor import Game
    >>> game = Game(players=2, seed=5)
    >>> view = game.view(game.turn)
    >>> GreedyBot().choose(view) in view.legal_moves
    True
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)  # unused: the choice is deterministic; kept for the factory's signature

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves
        if not moves:
            raise EscobaError(f"it is not the turn of player {view.player}: there is no move to choose",
                              code="not_your_turn", player=view.player)
        table = set(view.table)
        unseen = [card for card in view.unseen if card not in view.hand]
        rules = view.rules

        def sweepers(move: Move) -> int:
            """How many unseen cards could sweep the table this move leaves."""
            left = (table - move.captured) if move.captured else table | {move.card}
            if not left:
                return 0
            mask = sum(card.bit for card in left)
            everything = frozenset(left)
            return sum(1 for card in unseen if everything in captures_on(card, mask, rules))

        def gains(move: Move) -> tuple[int, int, int]:
            pile = (move.card, *move.captured)
            return (sum(1 for c in pile if c.rank == 7), sum(1 for c in pile if c.suit is Suit.OROS), len(pile))

        captures = [m for m in moves if m.captured]
        escobas = [m for m in captures if m.captured == table]
        if escobas:
            return max(escobas, key=gains)
        velo = [m for m in captures if SIETE_DE_OROS in m.captured or m.card is SIETE_DE_OROS]
        if velo:
            return min(velo, key=lambda m: (sweepers(m) > 0, [-g for g in gains(m)]))
        safe = [m for m in moves if sweepers(m) == 0]
        pool = safe or moves
        captures = [m for m in pool if m.captured]
        if captures:
            return max(captures, key=gains)
        return min(pool, key=lambda m: (sweepers(m), m.card.rank == 7, m.card.suit is Suit.OROS, -m.card.value))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


#: Bot factories by name; each is called as ``factory(seed=...)``.
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}

#: The levels a learner chooses, by their names in the course's languages (Spanish with or without accents, as
#: typed), and the bot of each: an English lesson or command names them in English.
LEVELS: dict[str, str] = {"fácil": "random", "medio": "greedy", "difícil": "expert",
                          "facil": "random", "dificil": "expert",
                          "easy": "random", "medium": "greedy", "hard": "expert"}


def bot_names() -> tuple[str, ...]:
    """The names :func:`make_bot` accepts, in registry order."""
    return tuple(BOTS)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of the kind called ``name`` (case and surrounding spaces ignored), seeded with ``seed``. A
    level name (:data:`LEVELS`: fácil, medio, difícil or easy, medium, hard) gives the bot of that level.

    An unknown name raises an :class:`EscobaError` with code ``unknown_bot`` that lists the known names.

    >>> make_bot(" Random ").name
    'random'
    >>> make_bot("Difícil").name
    'expert'
    >>> make_bot("hard").name
    'expert'
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if isinstance(key, str):
        key = LEVELS.get(key, key)
    factory = BOTS.get(key) if isinstance(key, str) else None
    if factory is None:
        known = ", ".join(repr(n) for n in BOTS)
        levels = ", ".join(repr(n) for n in ("fácil", "medio", "difícil", "easy", "medium", "hard"))
        raise EscobaError(f"no bot is called {str(name)[:40]!r}: choose one of {known} (or a level: {levels})",
                          code="unknown_bot", name=str(name)[:40], choices=tuple(BOTS))
    return factory(seed=seed)
