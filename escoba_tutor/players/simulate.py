"""Bot-against-bot simulation: many whole games through the public game API, with a summary per side.

Each seat gets its own bot, and a bot only ever receives its player's :class:`PlayerView`. Game ``g`` of a
run with seed ``S`` is shuffled from a seed derived from ``S`` and ``g``, and dealt first by player
``g % players``, so the first dealer alternates and no bot profits from its seat.

>>> result = simulate(players=2, games=4, seed=1, progress=False)
>>> result.games, sum(result.wins), result.deals > 0
(4, 4, True)
>>> simulate(players=2, games=4, seed=1, progress=False) == result   # the seed fixes everything
True
>>> low, high = result.win_interval(0)   # Wilson's 95% interval for side 0's share of wins
>>> 0 <= low <= result.win_rates[0] <= high <= 1
True

Every decision of every bot is timed (``decision_ms``: the median and the 95th percentile per side, in
milliseconds); times vary from run to run, so they take no part in comparing results. ``jobs`` plays games in
several processes: the results are the same, since each game depends only on the run's seed and its number.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from ..engine.errors import EscobaError, IllegalMoveError
from ..engine.game import MAX_SEED, SIDES, Game
from ..engine.rules import ESCOBA, Rules, rules_by_name
from ..engine.trace import TraceWriter, open_trace
from .bots import LEVELS, Bot, make_bot

__all__ = ["simulate", "SimulationResult", "derive_seed", "game_seed", "bot_seed", "seat_bots", "parse_bot_names",
           "wilson_interval"]

# docs/rules.md §2: with four players, 0 and 2 are partners against 1 and 3.

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


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval for a proportion (95% by default): sound even near 0% or 100%.

    >>> [round(x, 3) for x in wilson_interval(90, 100)]
    [0.826, 0.945]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    scale = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / scale
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


def _percentile(values: Sequence[float], share: float) -> float:
    """The value below which ``share`` of the sorted ``values`` lie (nearest rank)."""
    if not values:
        return 0.0
    return values[min(len(values) - 1, max(0, math.ceil(share * len(values)) - 1))]


@dataclass(frozen=True)
class SimulationResult:
    """What a run produced, per side (a side is one player, or two partners).

    ``wins`` counts games won; ``points`` and ``escobas`` add up every deal (escobas de mano included);
    ``deals`` counts the deals played in all games. ``margins`` adds up, per side, each deal's points minus
    the best other side's points, and ``margin_squares`` their squares (for an interval of the mean).
    ``decision_ms`` holds, per side, the median and 95th percentile of its bot's decision times in
    milliseconds, and ``decisions`` how many decisions were timed; times are not compared.
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
    margins: tuple[int, ...] = ()
    margin_squares: tuple[int, ...] = ()
    decision_ms: tuple[tuple[float, float], ...] = field(default=(), compare=False)
    decisions: tuple[int, ...] = field(default=(), compare=False)

    def win_interval(self, side: int) -> tuple[float, float]:
        """Wilson's 95% interval for the share of games ``side`` won."""
        return wilson_interval(self.wins[side], self.games)

    def margin_per_deal(self, side: int) -> tuple[float, float]:
        """The mean of ``side``'s points minus the best other side's per deal, and the half-width of its 95%
        interval (deals taken as independent)."""
        if not self.deals or not self.margins:
            return 0.0, 0.0
        mean = self.margins[side] / self.deals
        if self.deals < 2:
            return mean, math.inf
        variance = max(0.0, (self.margin_squares[side] - self.deals * mean * mean) / (self.deals - 1))
        return mean, 1.959964 * math.sqrt(variance / self.deals)

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

    def report(self, stats: bool = False) -> str:
        """A plain-text table of the run, as the command line prints it. ``stats`` adds Wilson's 95% interval
        of the share of wins, the mean margin per deal (points minus the best other side's) with its 95%
        interval, and the bot's decision time (median and 95th percentile, in milliseconds)."""
        header = (f"{self.rules}, {self.players} players, {self.games} games, seed {self.seed}: "
                  f"{self.deals} deals played")
        rows: list[tuple[str, ...]] = [("side", "players", "bot", "games won", "points/deal", "escobas/deal")]
        if stats:
            rows[0] += ("wins 95% interval", "margin/deal", "ms/move p50", "p95")
        for side, members in enumerate(self.sides):
            row: tuple[str, ...] = (str(side), "+".join(map(str, members)), self.bots[side],
                   f"{self.wins[side]} ({100 * self.win_rates[side]:.1f}%)",
                   f"{self.points_per_deal[side]:.2f}", f"{self.escobas_per_deal[side]:.2f}")
            if stats:
                low, high = self.win_interval(side)
                mean, half = self.margin_per_deal(side)
                p50, p95 = self.decision_ms[side] if self.decision_ms else (0.0, 0.0)
                row += (f"{100 * low:.1f}%-{100 * high:.1f}%", f"{mean:+.2f} ±{half:.2f}", f"{p50:.1f}",
                        f"{p95:.1f}")
            rows.append(row)
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
        name = spec.strip().lower()
        return LEVELS.get(name, name)
    return getattr(spec, "name", getattr(spec, "__name__", "bot"))  # a factory: its class's name


def seat_bots(players: int, bots: str | Sequence[BotSpec]) -> list[BotSpec]:
    """The bot of each seat: one name for every seat, or one per side (partners play the same bot).

    >>> seat_bots(4, "random,greedy")
    ['random', 'greedy', 'random', 'greedy']
    >>> seat_bots(3, "random,random")
    Traceback (most recent call last):
    ...
    escoba_tutor.engine.errors.EscobaError: 3 players need 1 or 3 bots (one per side), not 2: 'random,random'
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
             bots: str | Sequence[BotSpec] = ("random",), trace: str | os.PathLike[str] | IO[str] | None = None,
             progress: bool = True, jobs: int = 1) -> SimulationResult:
    """Play ``games`` whole games between bots and summarise them per side.

    ``bots`` names one bot for every seat, or one per side (``"random,random"``; with 4 players the first
    plays seats 0 and 2). A bot entry may also be a factory called as ``factory(seed=...)``. ``trace``, a
    path or a text stream, receives every deal as JSON Lines (see :mod:`escoba_tutor.engine.trace`). ``progress``
    shows a progress bar on stderr. ``jobs`` processes play the games (the result does not depend on it).
    Bad arguments raise an :class:`EscobaError` before any game is played.

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
    if type(jobs) is not int or jobs < 1:
        raise EscobaError(f"the number of jobs must be a whole number of at least 1, not {jobs!r}"[:120],
                          code="job_count")
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
    margins = [0] * len(sides)
    squares = [0] * len(sides)
    times: list[list[float]] = [[] for _ in sides]
    side_of = [next(i for i, side in enumerate(sides) if player in side) for player in range(players)]
    deals = 0
    writer: TraceWriter | None = open_trace(trace) if trace is not None else None
    try:
        with tqdm(total=games, unit="game", desc="simulating", disable=not progress, leave=False) as bar, \
                _cycle_collector_paused():
            for number, game, seconds in _games(players, rules, seed, games, seats, jobs):
                assert game.winner is not None  # a played game is over
                wins[game.winner] += 1
                for record in game.deals:
                    deals += 1
                    for side in range(len(sides)):
                        got = record.score.points[side]
                        margin = got - max(p for i, p in enumerate(record.score.points) if i != side)
                        points[side] += got
                        escobas[side] += record.escobas[side]
                        margins[side] += margin
                        squares[side] += margin * margin
                for player, spent in enumerate(seconds):
                    times[side_of[player]] += spent
                if writer is not None:
                    writer.write_game(number, game)
                bar.update()
                del game  # its history is freed now, by reference counting; then the few cycles it left
                gc.collect(0)
    finally:
        if writer is not None:
            writer.close()
    for spent in times:
        spent.sort()
    return SimulationResult(players=players, games=games, seed=seed, rules=rules.name, bots=side_bots,
                            sides=sides, wins=tuple(wins), deals=deals, points=tuple(points),
                            escobas=tuple(escobas), margins=tuple(margins), margin_squares=tuple(squares),
                            decision_ms=tuple((1000 * _percentile(t, 0.5), 1000 * _percentile(t, 0.95))
                                              for t in times),
                            decisions=tuple(len(t) for t in times))


# What the worker processes of a run with jobs need; they inherit it when they are forked, so bot factories
# that cannot be pickled (a lambda in a test) work too.
_RUN: tuple[Any, ...] = ()


def _play_numbered(number: int) -> tuple[int, Game, list[list[float]]]:
    players, rules, seed, seats = _RUN
    return (number, *_play_game(players, rules, seed, number, seats))


def _games(players: int, rules: Rules, seed: int, games: int, seats: list[BotSpec], jobs: int
           ) -> Iterator[tuple[int, Game, list[list[float]]]]:
    """Each game with its number and each seat's decision times, in the order of the game numbers."""
    global _RUN
    if jobs == 1 or games == 1 or "fork" not in multiprocessing.get_all_start_methods():
        for number in range(games):
            yield (number, *_play_game(players, rules, seed, number, seats))
        return
    _RUN = (players, rules, seed, seats)
    pool = multiprocessing.get_context("fork").Pool(min(jobs, games))
    try:
        yield from pool.imap(_play_numbered, range(games))
        pool.close()
    finally:
        _RUN = ()
        pool.terminate()
        pool.join()


def _play_game(players: int, rules: Rules, seed: int, number: int, seats: list[BotSpec]
               ) -> tuple[Game, list[list[float]]]:
    """One whole game, and each seat's decision times in seconds; each bot sees only its own player's view."""
    game = Game(players=players, rules=rules, seed=game_seed(seed, number), dealer=number % players)
    bots = [_make(spec, bot_seed(seed, number, player)) for player, spec in enumerate(seats)]
    seconds: list[list[float]] = [[] for _ in range(players)]
    clock = time.perf_counter
    view_of, play = game.view, game.play
    choosers = [bot.choose for bot in bots]
    timed = [spent.append for spent in seconds]
    with _cycle_collector_paused():
        while (player := game.turn) is not None:  # None once the game is over
            view = view_of(player)
            started = clock()
            move = choosers[player](view)
            timed[player](clock() - started)
            try:
                play(move)
            except IllegalMoveError as error:  # a bot bug: say which bot, not just which move
                raise EscobaError(f"the {_bot_name(seats[player])!r} bot of player {player} chose an illegal "
                                  f"move in game {number}: {error}", code="bad_bot_move", player=player) from error
    return game, seconds


@contextlib.contextmanager
def _cycle_collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while games are played. A game keeps its whole history (every play, event
    and undo step), so the collector, started by the count of new objects, kept walking that history while the
    game went on: about a tenth of a run's time, for nothing, since the history is freed by reference counting
    and a game and the bots' searches leave almost no cycles (a few hundred objects in twenty games), which a
    collection of the youngest objects frees once each game is done (see :func:`simulate`)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
