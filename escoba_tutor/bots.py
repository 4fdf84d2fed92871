"""Computer players. A bot sees exactly what its player may see (a :class:`PlayerView`), never the game.

A bot is any object with a ``name`` and a ``choose(view)`` method returning one of ``view.legal_moves``. Bots
are built by name from :data:`BOTS`, so stronger levels (greedy, expert) plug in by adding an entry.

>>> from escoba_tutor import Game
>>> game = Game(players=2, seed=3)
>>> bot = make_bot("random", seed=1)
>>> view = game.view(game.turn)
>>> bot.choose(view) in view.legal_moves
True
>>> make_bot("genius")
Traceback (most recent call last):
...
escoba_tutor.errors.EscobaError: no bot is called 'genius': choose one of 'random'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from .errors import EscobaError
from .game import Move, PlayerView

__all__ = ["Bot", "RandomBot", "BOTS", "make_bot", "bot_names"]


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


#: Bot factories by name; each is called as ``factory(seed=...)``.
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def bot_names() -> tuple[str, ...]:
    """The names :func:`make_bot` accepts, in registry order."""
    return tuple(BOTS)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of the kind called ``name`` (case and surrounding spaces ignored), seeded with ``seed``.

    An unknown name raises an :class:`EscobaError` with code ``unknown_bot`` that lists the known names.

    >>> make_bot(" Random ").name
    'random'
    """
    key = name.strip().lower() if isinstance(name, str) else name
    factory = BOTS.get(key) if isinstance(key, str) else None
    if factory is None:
        known = ", ".join(repr(n) for n in BOTS)
        raise EscobaError(f"no bot is called {str(name)[:40]!r}: choose one of {known}", code="unknown_bot",
                          name=str(name)[:40], choices=tuple(BOTS))
    return factory(seed=seed)
