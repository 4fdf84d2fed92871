"""Bot-against-bot simulation: many whole games through the public game API, with a summary per side.

Each seat gets its own bot, and a bot only ever receives its player's :class:`PlayerView`. Game ``g`` of a
run with seed ``S`` is shuffled from a seed derived from ``S`` and ``g``, and dealt first by player
``g % players``, so the first dealer alternates and no bot profits from its seat.

>>> result = simulate(players=2, games=4, seed=1, progress=False)
>>> result.games, sum(result.wins), result.deals > 0
(4, 4, True)
>>> simulate(players=2, games=4, seed=1, progress=False) == result   # the seed fixes everything
True
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO

from .bots import Bot, make_bot
from .errors import EscobaError, IllegalMoveError
from .game import MAX_SEED, SIDES, Game
from .rules import ESCOBA, Rules, rules_by_name
from .trace import TraceWriter, open_trace

__all__ = ["simulate", "SimulationResult", "derive_seed", "game_seed", "bot_seed", "seat_bots", "parse_bot_names"]

# RULES.md §2: with four players, 0 and 2 are partners against 1 and 3.

BotSpec = str | Callable[..., Bot]


def derive_seed(seed: int, *parts: object) -> int:
    """A seed for one part of a run (a game, a bot), from the run's seed; fits any :class:`Game` seed.

    A hash rather than ``seed + g``, so runs with neighbouring seeds do not share games.

    >>> derive_seed(1, "game", 0) == derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    True
    """
    text = ":".join(str(part) for part in ("escoba-tutor-simulate", seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") & MAX_SEED


def game_seed(seed: int, game: int) -> int:
    """The shuffle seed of game number ``game`` in a run with seed ``seed``."""
    return derive_seed(seed, "game", game)


def bot_seed(seed: int, game: int, player: int) -> int:
    """The seed of the bot playing seat ``player`` in game number ``game``: each game can be replayed alone."""
    return derive_seed(seed, "bot", game, player)


@dataclass(frozen=True)
class SimulationResult:
    """What a run produced, per side (a side is one player, or two partners).

    ``wins`` counts games won; ``points`` and ``escobas`` add up every deal (escobas de mano included);
    ``deals`` counts the deals played in all games.
    """

    players: int
    games: int
    seed: int
    rules: str
    bots: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    wins: tuple[int, ...]
    deals: int
    points: tuple[int, ...]
    escobas: tuple[int, ...]

    @property
    def win_rates(self) -> tuple[float, ...]:
        """The share of games each side won, from 0 to 1."""
        return tuple(w / self.games if self.games else 0.0 for w in self.wins)

    @property
    def points_per_deal(self) -> tuple[float, ...]:
        return tuple(p / self.deals if self.deals else 0.0 for p in self.points)

    @property
    def escobas_per_deal(self) -> tuple[float, ...]:
        return tuple(e / self.deals if self.deals else 0.0 for e in self.escobas)

    def report(self) -> str:
        """A plain-text table of the run, as the command line prints it."""
        header = (f"{self.rules}, {self.players} players, {self.games} games, seed {self.seed}: "
                  f"{self.deals} deals played")
        rows = [("side", "players", "bot", "games won", "points/deal", "escobas/deal")]
        for side, members in enumerate(self.sides):
            rows.append((str(side), "+".join(map(str, members)), self.bots[side],
                         f"{self.wins[side]} ({100 * self.win_rates[side]:.1f}%)",
                         f"{self.points_per_deal[side]:.2f}", f"{self.escobas_per_deal[side]:.2f}"))
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
        return "\n".join([header, *lines])


def parse_bot_names(bots: str | Sequence[BotSpec]) -> list[BotSpec]:
    """Bot names from ``"random,random"`` or a sequence; each entry is a name or a bot factory."""
    if isinstance(bots, str):
        return [name.strip() for name in bots.split(",")]
    return list(bots)


def _bot_name(spec: BotSpec) -> str:
    if isinstance(spec, str):
        return spec.strip().lower()
    return getattr(spec, "name", getattr(spec, "__name__", "bot"))  # a factory: its class's name


def seat_bots(players: int, bots: str | Sequence[BotSpec]) -> list[BotSpec]:
    """The bot of each seat: one name for every seat, or one per side (partners play the same bot).

    >>> seat_bots(4, "random,greedy")
    ['random', 'greedy', 'random', 'greedy']
    >>> seat_bots(3, "random,random")
    Traceback (most recent call last):
    ...
    escoba_tutor.errors.EscobaError: 3 players need 1 or 3 bots (one per side), not 2: 'random,random'
    """
    if players not in SIDES:
        raise EscobaError(f"Escoba is played by 2 or 3 players, or 4 in partnerships, not {players!r}"[:120],
                          code="player_count")
    names = parse_bot_names(bots)
    sides = SIDES[players]
    shown = bots if isinstance(bots, str) else ",".join(map(_bot_name, names))
    if any(isinstance(name, str) and not name for name in names):
        raise EscobaError(f"a bot name is missing in {shown!r}: write names separated by commas, like "
                          "'random,random'"[:160], code="unknown_bot", name="")
    if len(names) not in (1, len(sides)):
        raise EscobaError(f"{players} players need 1 or {len(sides)} bots (one per side), not {len(names)}: "
                          f"{shown!r}"[:160], code="bot_count", players=players, given=len(names))
    if len(names) == 1:
        names = names * len(sides)
    return [names[next(i for i, side in enumerate(sides) if player in side)] for player in range(players)]


def _make(spec: BotSpec, seed: int) -> Bot:
    return make_bot(spec, seed=seed) if isinstance(spec, str) else spec(seed=seed)


def simulate(players: int, games: int, seed: int, rules: Rules | str = ESCOBA,
             bots: str | Sequence[BotSpec] = ("random",), trace: str | os.PathLike | IO[str] | None = None,
             progress: bool = True) -> SimulationResult:
    """Play ``games`` whole games between bots and summarise them per side.

    ``bots`` names one bot for every seat, or one per side (``"random,random"``; with 4 players the first
    plays seats 0 and 2). A bot entry may also be a factory called as ``factory(seed=...)``. ``trace``, a
    path or a text stream, receives every deal as JSON Lines (see :mod:`escoba_tutor.trace`). ``progress``
    shows a progress bar on stderr. Bad arguments raise an :class:`EscobaError` before any game is played.

    >>> r = simulate(4, 2, seed=7, bots="random,random", progress=False)
    >>> r.sides, len(r.points_per_deal)
    (((0, 2), (1, 3)), 2)
    """
    if type(players) is not int or players not in SIDES:
        raise EscobaError(f"Escoba is played by 2 or 3 players, or 4 in partnerships, not {players!r}"[:120],
                          code="player_count")
    if type(games) is not int or games < 1:
        raise EscobaError(f"the number of games must be a whole number of at least 1, not {games!r}"[:120],
                          code="game_count")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise EscobaError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}"[:120], code="bad_seed")
    if isinstance(rules, str):
        rules = rules_by_name(rules)
    if not isinstance(rules, Rules):
        raise EscobaError("rules must be a Rules object or a profile name such as 'escoba'", code="bad_rules")
    rules.check_players(players)  # e.g. the Chile rules need 3 or 4 players: refuse before any game
    seats = seat_bots(players, bots)
    for spec in seats:  # build one of each now, so an unknown name fails before any game
        _make(spec, 0)
    sides = SIDES[players]
    side_bots = tuple(_bot_name(seats[side[0]]) for side in sides)

    from tqdm import tqdm  # here, not at the top: the command line's start-up (help, errors) stays quick

    wins = [0] * len(sides)
    points = [0] * len(sides)
    escobas = [0] * len(sides)
    deals = 0
    writer: TraceWriter | None = open_trace(trace) if trace is not None else None
    try:
        with tqdm(total=games, unit="game", desc="simulating", disable=not progress, leave=False) as bar:
            for number in range(games):
                game = _play_game(players, rules, seed, number, seats)
                wins[game.winner] += 1
                for record in game.deals:
                    deals += 1
                    for side in range(len(sides)):
                        points[side] += record.score.points[side]
                        escobas[side] += record.escobas[side]
                if writer is not None:
                    writer.write_game(number, game)
                bar.update()
    finally:
        if writer is not None:
            writer.close()
    return SimulationResult(players=players, games=games, seed=seed, rules=rules.name, bots=side_bots,
                            sides=sides, wins=tuple(wins), deals=deals, points=tuple(points),
                            escobas=tuple(escobas))


def _play_game(players: int, rules: Rules, seed: int, number: int, seats: list[BotSpec]) -> Game:
    """One whole game; each bot sees only its own player's view."""
    game = Game(players=players, rules=rules, seed=game_seed(seed, number), dealer=number % players)
    bots = [_make(spec, bot_seed(seed, number, player)) for player, spec in enumerate(seats)]
    while not game.is_over:
        player = game.turn
        move = bots[player].choose(game.view(player))
        try:
            game.play(move)
        except IllegalMoveError as error:  # a bot bug: say which bot, not just which move
            raise EscobaError(f"the {_bot_name(seats[player])!r} bot of player {player} chose an illegal move "
                              f"in game {number}: {error}", code="bad_bot_move", player=player) from error
    return game
