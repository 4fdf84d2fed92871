"""Engine speed, as ratios measured in one run (these machines are noisy: compare within a run, not across).

    python benchmarks/bench_engine.py [--quick] [--cpu]

1. ``legal_captures`` on fresh random 8-12-card tables against the plain ``itertools.combinations`` search
   over the same Card objects (target: at least 60x faster).
2. Random 2-player deals through the public game API (legal moves, play, checks, history, undo stack,
   scoring) against a bare random-play loop over plain lists that calls the engine's public functions
   (``legal_captures``, ``score_deal``) with no checks and no history (target: at least 0.7x its speed).
3. ``escoba-tutor simulate --trace`` (random bots, 2 players, the command line's own entry point) against the
   same bare loop writing the same trace lines (JSON Lines, one a deal) to a file: deals per second against
   deals per second, a slice being one run of the command (about 150 deals) and as many bare deals
   (target: at least 0.7x its speed).
4. play + undo of one move, in microseconds.

The two sides of each ratio run in alternating slices, so a slow spell of the machine hits both alike; the
ratio printed is the median of the per-slice ratios (a spell that hits one slice moves the median little),
with the ratio of the summed times beside it and the machine's load average. A slice is long enough (250
tables, 30 deals) that the cold caches each switch leaves behind are a small part of it: with 50 tables a
slice, the first calls after a baseline slice cost the engine a quarter of its time. ``--cpu`` times the
slices by this process's CPU time instead of the wall clock: on a machine shared with other work (a load average
well above the number of cores), the wall clock also counts the time the process waits for a core.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import statistics
import sys
import tempfile
import time
from itertools import combinations

from escoba_tutor import DECK, Game, legal_captures, score_deal
from escoba_tutor.cli import main as command_line


def baseline_captures(card, t):
    return [frozenset(s) for k in range(1, len(t) + 1) for s in combinations(t, k)
            if sum(c.value for c in s) == 15 - card.value]


#: What the slices are timed by: the wall clock, or with --cpu the process's CPU time.
clock = time.perf_counter


def alternate(first, second, slices: int) -> tuple[float, float, float]:
    """Run the two workloads in alternating slices: total seconds of each, and the median per-slice ratio
    first/second."""
    a = b = 0.0
    ratios = []
    for i in range(slices):
        t0 = clock()
        first(i)
        t1 = clock()
        second(i)
        t2 = clock()
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


def bare_deal(seed: int, trace: list[str] | None = None, game: int = 0, deal: int = 0) -> tuple:
    """One 2-player deal with plain lists and the engine's public functions (``legal_captures``,
    ``score_deal``): no checks, no history, no undo. With ``trace``, the deal's trace line (the keys and
    values ``simulate --trace`` writes) is appended to it."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [deck[0:3], deck[3:6]]
    table = deck[6:10]
    dealt = 10
    piles = [[], []]
    escobas = [0, 0]
    last = None
    plays = []
    dealer_capture = []
    total = sum(c.value for c in table)
    if total in (15, 30):
        dealer_capture = table
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
        hand = hands[turn][:]
        hands[turn].remove(card)
        escoba = False
        if cap:
            table = [c for c in table if c not in cap]
            piles[turn] += cap
            piles[turn].append(card)
            last = turn
            if not table:
                escobas[turn] += 1
                escoba = True
        else:
            table.append(card)
        if trace is not None:
            plays.append({"player": turn, "hand": [c.code for c in hand], "card": card.code,
                          "captured": [c.code for c in cap] if cap else [], "escoba": escoba})
        turn ^= 1
        if not hands[turn] and dealt < 40:
            hands = [deck[dealt:dealt + 3], deck[dealt + 3:dealt + 6]]
            dealt += 6
    if last is not None:
        piles[last] += table
    points = score_deal(piles, escobas).points
    if trace is not None:
        trace.append(json.dumps({
            "game": game, "deal": deal, "rules": "escoba", "players": 2, "sides": [[0], [1]], "dealer": 1,
            "table": [c.code for c in deck[6:10]], "dealer_capture": [c.code for c in dealer_capture],
            "dealer_escobas": sum(c.value for c in dealer_capture) // 15, "plays": plays,
            "leftover": [c.code for c in table], "leftover_to": last, "piles": [[c.code for c in p] for p in piles],
            "escobas": escobas, "points": list(points), "totals": list(points)}) + "\n")
    return points


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


def bench_simulate_trace(deals_per_slice: int, slices: int) -> None:
    """The command against the bare loop, both writing a trace file. The command plays whole games (a random
    2-player game to 21 lasts about 7 deals), so the two compare in deals per second, counted from the trace
    files after each slice; a slice of the command is one run of it, start-up included."""
    games_per_slice = max(1, round(deals_per_slice / 7))
    ratios = []
    times = {"bare": 0.0, "command": 0.0}
    deals = {"bare": 0, "command": 0}
    with tempfile.TemporaryDirectory() as folder:
        paths = {"bare": os.path.join(folder, "bare.jsonl"), "command": os.path.join(folder, "command.jsonl")}

        def bare(i):
            with open(paths["bare"], "w", encoding="utf-8") as stream:
                for k in range(deals_per_slice):
                    lines: list[str] = []
                    bare_deal(i * deals_per_slice + k, lines, game=i, deal=k)
                    stream.write("".join(lines))
                    stream.flush()

        def command(i):
            with contextlib.redirect_stdout(io.StringIO()):
                status = command_line(["simulate", "--games", str(games_per_slice), "--seed", str(i), "--bots",
                                       "random", "--trace", paths["command"], "--no-progress"])
            assert status == 0

        for i in range(slices):
            rates = {}
            for side, run in (("bare", bare), ("command", command)):
                started = clock()
                run(i)
                spent = clock() - started
                with open(paths[side], encoding="utf-8") as stream:
                    count = sum(1 for _ in stream)
                times[side] += spent
                deals[side] += count
                rates[side] = count / spent
            ratios.append(rates["command"] / rates["bare"])
    bare_rate, command_rate = deals["bare"] / times["bare"], deals["command"] / times["command"]
    print(f"random 2-player deals with a trace: bare loop {bare_rate:7.0f} deals/s, simulate --trace "
          f"{command_rate:7.0f} deals/s  ->  {statistics.median(ratios):4.2f}x the bare loop's speed "
          f"(target >= 0.7x; summed times {command_rate / bare_rate:.2f}x)")


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
    parser.add_argument("--cpu", action="store_true", help="time the slices by CPU time, not the wall clock")
    args = parser.parse_args(argv)
    global clock
    clock = time.process_time if args.cpu else time.perf_counter
    scale = 1 if args.quick else 10
    print(f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores, "
          f"slices timed by {'CPU time' if args.cpu else 'the wall clock'}")
    bench_captures(cases_per_slice=250, slices=2 * scale)
    bench_deals(deals_per_slice=30, slices=2 * scale)
    bench_simulate_trace(deals_per_slice=150, slices=2 * scale)
    bench_undo(games=2 * scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
