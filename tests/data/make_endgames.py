"""Write ``endgames.json``: 2-player deal endings solved by brute force, the reference for the expert's endgame.

    python tests/data/make_endgames.py

Each position is reached by replaying a real game (its rules, seed, first dealer and moves) to a point after the
deal's last cards were dealt, so every card is known. From there every order of play is enumerated with the
engine's own ``legal_moves``/``play``/``undo`` — no pruning, no estimate, none of the expert's code — and each
ending is scored by the engine. A move's value is the final deal-point difference for the player who makes it
(their side's points minus the other's) when both players then play their best.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from escoba_tutor import Game

HERE = Path(__file__).parent
RULES = ("escoba", "escoba", "escoba", "scopa", "escoba+capture_optional", "escoba+no_last_play_escoba",
         "escoba+sevens", "escoba+figuras")


def best_value(game: Game, deal: int) -> tuple[int, int]:
    """The deal's final points (side 0, side 1) with best play by both from here, every order tried."""
    if game.deal != deal or game.is_over:
        return game.deals[-1].score.points
    mover = game.side_of[game.turn]
    outcomes = []
    for move in game.legal_moves():
        game.play(move)
        outcomes.append(best_value(game, deal))
        game.undo()
    return max(outcomes, key=lambda points: points[mover] - points[1 - mover])


def solve(game: Game) -> dict[str, int]:
    """Each legal move's value for the player to move."""
    mover, deal = game.side_of[game.turn], game.deal
    values = {}
    for move in game.legal_moves():
        game.play(move)
        points = best_value(game, deal)
        game.undo()
        values[move.text] = points[mover] - points[1 - mover]
    return values


def positions(count: int) -> list[dict]:
    found = []
    seed = 0
    while len(found) < count:
        seed += 1
        rules = RULES[seed % len(RULES)]
        chooser = random.Random(seed)
        game = Game(players=2, rules=rules, seed=seed, dealer=seed % 2)
        plays_into_last_round = seed % 4  # 0 to 3 plays after the last cards were dealt
        while game.deck_left > 0 or sum(map(len, game.hands)) > 6 - plays_into_last_round:
            game.play(chooser.choice(game.legal_moves()))
        if game.deal != 0 or len(game.legal_moves()) < 2:
            continue
        values = solve(game)
        found.append({"rules": rules, "seed": seed, "dealer": seed % 2,
                      "moves": [move.text for move in game.moves], "player": game.turn,
                      "hands": [[c.code for c in hand] for hand in game.hands],
                      "table": [c.code for c in game.table], "values": values, "best": max(values.values())})
    return found


if __name__ == "__main__":
    data = positions(40)
    (HERE / "endgames.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(data)} positions to {HERE / 'endgames.json'}")
