"""Engine speed, as ratios measured in one run (these machines are noisy: compare within a run, not across).

    python benchmarks/bench_engine.py [--quick]

1. ``legal_captures`` on fresh random 8-12-card tables against the plain ``itertools.combinations`` search
   over the same Card objects (target: at least 60x faster).
2. Random 2-player deals through the public game API (legal moves, play, checks, history, undo stack,
   scoring) against a bare random-play loop over plain lists that calls the engine's public functions
   (``legal_captures``, ``score_deal``) with no checks and no history (target: at least 0.7x its speed).
3. play + undo of one move, in microseconds.

The two sides of each ratio run in alternating slices, so a slow spell of the machine hits both alike; the
ratio printed is the median of the per-slice ratios (a spell that hits one slice moves the median little),
with the ratio of the summed times beside it and the machine's load average. A slice is long enough (250
tables, 30 deals) that the cold caches each switch leaves behind are a small part of it: with 50 tables a
slice, the first calls after a baseline slice cost the engine a quarter of its time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from itertools import combinations

from escoba_tutor import DECK, Game, legal_captures, score_deal


def baseline_captures(card, t):
    return [frozenset(s) for k in range(1, len(t) + 1) for s in combinations(t, k)
            if sum(c.value for c in s) == 15 - card.value]


def alternate(first, second, slices: int) -> tuple[float, float, float]:
    """Run the two workloads in alternating slices: total seconds of each, and the median per-slice ratio
    first/second."""
    a = b = 0.0
    ratios = []
    for i in range(slices):
        t0 = time.perf_counter()
        first(i)
        t1 = time.perf_counter()
        second(i)
        t2 = time.perf_counter()
        a += t1 - t0
        b += t2 - t1
        ratios.append((t1 - t0) / (t2 - t1))
    return a, b, statistics.median(ratios)


def bench_captures(cases_per_slice: int, slices: int) -> None:
    rng = random.Random(2024)
    batches = []
    for _ in range(slices):
        batch = []
        for _ in range(cases_per_slice):
            cards = rng.sample(DECK, rng.randint(8, 12) + 1)
            batch.append((cards[0], tuple(cards[1:])))
        batches.append(batch)
    for card, table in batches[0][:200]:  # the two must agree before their speeds mean anything
        assert sorted(map(sorted, baseline_captures(card, table))) == sorted(map(sorted, legal_captures(card, table)))

    def base(i):
        for card, table in batches[i]:
            baseline_captures(card, table)

    def engine(i):
        for card, table in batches[i]:
            legal_captures(card, table)

    b, e, ratio = alternate(base, engine, slices)
    n = cases_per_slice * slices
    print(f"legal_captures, {n} fresh 8-12-card tables: baseline {b / n * 1e6:8.1f} us, engine "
          f"{e / n * 1e6:6.1f} us  ->  {ratio:5.1f}x faster (target >= 60x; summed times {b / e:.1f}x)")


def bare_deal(seed: int) -> tuple:
    """One 2-player deal with plain lists and the engine's public functions (``legal_captures``,
    ``score_deal``): no checks, no history, no undo."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [deck[0:3], deck[3:6]]
    table = deck[6:10]
    dealt = 10
    piles = [[], []]
    escobas = [0, 0]
    last = None
    total = sum(c.value for c in table)
    if total in (15, 30):
        piles[1] += table
        escobas[1] += total // 15
        table, last = [], 1
    turn = 0
    for _ in range(36):
        moves = []
        for card in hands[turn]:
            caps = legal_captures(card, table)
            if caps:
                moves += [(card, cap) for cap in caps]
            else:
                moves.append((card, None))
        card, cap = rng.choice(moves)
        hands[turn].remove(card)
        if cap:
            table = [c for c in table if c not in cap]
            piles[turn] += cap
            piles[turn].append(card)
            last = turn
            if not table:
                escobas[turn] += 1
        else:
            table.append(card)
        turn ^= 1
        if not hands[turn] and dealt < 40:
            hands = [deck[dealt:dealt + 3], deck[dealt + 3:dealt + 6]]
            dealt += 6
    if last is not None:
        piles[last] += table
    return score_deal(piles, escobas).points


def api_deals(seed: int, deals: int) -> None:
    """``deals`` random 2-player deals through the public API, as games play them (a new Game at each win)."""
    rng = random.Random(seed)
    done = 0
    while done < deals:
        game = Game(players=2, seed=rng.randrange(1 << 30), dealer=1)
        play, legal_moves = game.play, game.legal_moves
        while not game.is_over and done + game.deal < deals:  # game.deal: the deals finished so far
            play(rng.choice(legal_moves()))
        done += len(game.deals)


def bench_deals(deals_per_slice: int, slices: int) -> None:
    def bare(i):
        for k in range(deals_per_slice):
            bare_deal(i * deals_per_slice + k)

    def api(i):
        api_deals(i, deals_per_slice)

    b, a, ratio = alternate(bare, api, slices)
    n = deals_per_slice * slices
    print(f"random 2-player deals, {n} each: bare loop {n / b:7.0f} deals/s, public game API {n / a:7.0f} deals/s"
          f"  ->  {ratio:4.2f}x the bare loop's speed (target >= 0.7x; summed times {b / a:.2f}x)")


def bench_undo(games: int) -> None:
    times = []
    for seed in range(games):
        game = Game(players=2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            move = rng.choice(game.legal_moves())
            t0 = time.perf_counter()
            game.play(move)
            game.undo()
            times.append(time.perf_counter() - t0)
            game.play(move)
    print(f"play + undo of one move: median {statistics.median(times) * 1e6:5.1f} us, "
          f"p95 {statistics.quantiles(times, n=20)[-1] * 1e6:5.1f} us over {len(times)} moves")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (for a smoke test)")
    args = parser.parse_args(argv)
    scale = 1 if args.quick else 10
    print(f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    bench_captures(cases_per_slice=250, slices=2 * scale)
    bench_deals(deals_per_slice=30, slices=2 * scale)
    bench_undo(games=2 * scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
