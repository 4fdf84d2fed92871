"""How long the bots take to decide, in 2-player games (target for the expert: at most 100 ms at the 95th
percentile per move), measured in one run.

    python benchmarks/bench_bots.py [--games N] [--seed S]

Positions are collected from real games (expert against greedy), then every position is decided by the expert
and by the greedy bot in alternating slices, so a slow spell of the shared machine hits both alike. Prints the
expert's median, 95th percentile and slowest decision, the same for greedy, their ratio, and the load average.
"""

from __future__ import annotations

import argparse
import os
import time

from escoba_tutor import Game
from escoba_tutor.players.bots import ExpertBot, GreedyBot
from escoba_tutor.players.simulate import bot_seed, game_seed


def positions(games: int, seed: int) -> list:
    """Every view the expert decided in ``games`` games against greedy, with the expert's seed."""
    found = []
    for number in range(games):
        game = Game(players=2, seed=game_seed(seed, number), dealer=number % 2)
        expert = ExpertBot(seed=bot_seed(seed, number, 0))
        greedy = GreedyBot()
        while not game.is_over:
            view = game.view(game.turn)
            if game.turn == 0:
                found.append((expert, view))
                game.play(expert.choose(view))
            else:
                game.play(greedy.choose(view))
    return found


def percentile(values: list[float], share: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(share * len(values)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    views = positions(args.games, args.seed)
    expert_times, greedy_times = [], []
    greedy = GreedyBot()
    for start in range(0, len(views), 10):  # alternating slices of ten positions
        for bot, view in views[start:start + 10]:
            began = time.perf_counter()
            bot.choose(view)
            expert_times.append(time.perf_counter() - began)
        for _bot, view in views[start:start + 10]:
            began = time.perf_counter()
            greedy.choose(view)
            greedy_times.append(time.perf_counter() - began)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{len(views)} expert decisions in {args.games} games; load average {load} on {os.cpu_count()} cores")
    for name, times in (("expert", expert_times), ("greedy", greedy_times)):
        print(f"{name:7s} p50 {1000 * percentile(times, 0.5):7.1f} ms   p95 {1000 * percentile(times, 0.95):7.1f} ms"
              f"   max {1000 * max(times):7.1f} ms")
    ratio = percentile(expert_times, 0.95) / percentile(greedy_times, 0.95)
    print(f"expert p95 / greedy p95: {ratio:.0f}x   expert p95 target: 100 ms -> "
          f"{'met' if percentile(expert_times, 0.95) <= 0.1 else 'NOT met'}")


if __name__ == "__main__":
    main()
