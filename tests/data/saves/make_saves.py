"""Write reference saves: resume codes and save files, each with the exact position it stands for.

    python tests/data/saves/make_saves.py

The files go to ``tests/data/saves/v<N>/`` for the save format version N that escoba-tutor writes today. They
are reference data: once committed they never change, and every later escoba-tutor must load each of them to
the position written beside it (tests/test_save_reference.py). So this script refuses to write into a folder
that already exists; a new format version gets a new folder.

Each game is played by a seeded random policy that picks among every move the rules allow (the renuncio
lay-downs too, with that variant), so the codes hold many choices that are not a position's first legal move.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from escoba_tutor import Game
from escoba_tutor.engine.save import VERSION, dump_code, dump_json

HERE = Path(__file__).parent

#: (name, players, rules, seed, first dealer, moves to play: a number, or None to play to the game's end)
GAMES = (
    ("new-2p-escoba", 2, "escoba", 7, 0, 0),
    ("2p-escoba-first-deal", 2, "escoba", 11, 1, 9),
    ("2p-escoba-third-deal", 2, "escoba", 12, 0, 62),
    ("2p-escoba-deal-boundary", 2, "escoba", 13, 1, 36),
    ("2p-escoba-finished", 2, "escoba", 14, 0, None),
    ("3p-escoba", 3, "escoba", 21, 2, 50),
    ("3p-escoba-finished", 3, "escoba", 22, 1, None),
    ("4p-escoba", 4, "escoba", 31, 3, 41),
    ("4p-escoba-finished", 4, "escoba", 32, 0, None),
    ("2p-scopa", 2, "scopa", 41, 0, 57),
    ("3p-scopa", 3, "scopa", 42, 1, 33),
    ("4p-scopa-finished", 4, "scopa", 43, 2, None),
    ("2p-renuncio", 2, "escoba+renuncio", 51, 0, 70),
    ("2p-capture-optional", 2, "escoba+capture_optional", 52, 1, 55),
    ("3p-chile", 3, "escoba+chile", 53, 0, 44),
    ("4p-chile-target-5", 4, "escoba+chile+target=5", 54, 1, None),
    ("3p-three-player-ties", 3, "escoba+three_player_ties", 55, 2, 80),
    ("2p-escoba-de-mano-pairs", 2, "escoba+escoba_de_mano_pairs+ties_both_score", 56, 0, 40),
    ("2p-escoba-de-mano-15-20", 2, "escoba+escoba_de_mano_15_20+sevens+figuras", 57, 1, 66),
    ("2p-low-primera-bonuses", 2, "escoba+low_primera+all_sevens_bonus+all_oros_bonus+cards_bonus", 58, 0, 30),
    ("2p-scopa-no-last-play-escoba", 2, "scopa+no_last_play_escoba+target=5", 59, 1, None),
    ("2p-escoba-target-31-large-seed", 2, "escoba+target=31", 2**53 - 1, 0, 25),
)

#: From format version 2: how some of the games are played (level, mode, names); the others say nothing.
SETUPS = {
    "2p-escoba-first-deal": ("greedy", "computer", ()),
    "2p-escoba-third-deal": (None, "pass_and_play", ("Lucía", "Íñigo")),
    "2p-escoba-finished": ("expert", "computer", ()),
    "3p-escoba": ("greedy", "computer", ("Ana", "Ordenador 1", "Ordenador 2")),
    "4p-escoba": ("random", "computer", ()),
    "2p-scopa": ("expert", None, ()),
    "3p-chile": ("greedy", "computer", ()),
}


def codes(cards) -> list[str]:
    return [card.code for card in cards]


def position(game: Game) -> dict:
    """Everything a student sees of the position, and the whole move list that led to it."""
    return {
        "deal": game.deal,
        "dealer": game.dealer,
        "turn": game.turn,
        "hands": [codes(hand) for hand in game.hands],
        "table": codes(game.table),
        "piles": [codes(pile) for pile in game.piles],
        "escobas": list(game.escobas),
        "totals": list(game.totals),
        "winner": game.winner,
        "deck_left": game.deck_left,
        "deals_finished": len(game.deals),
        "moves": [move.text for move in game.moves],
    }


def play(game: Game, rng: random.Random, moves: int | None) -> int:
    """Play ``moves`` moves (None: to the end); returns how many were a choice other than the first offered."""
    not_first = 0
    count = 0
    while not game.is_over and (moves is None or count < moves):
        offered = list(game.legal_moves()) + list(game.renuncio_moves())
        choice = rng.randrange(len(offered))
        not_first += choice > 0
        game.play(offered[choice])
        count += 1
    return not_first


def main() -> int:
    folder = HERE / f"v{VERSION}"
    if folder.exists():
        print(f"{folder} exists: reference saves never change; a new format version gets a new folder",
              file=sys.stderr)
        return 1
    folder.mkdir()
    index = []
    for name, players, rules, seed, dealer, moves in GAMES:
        game = Game(players=players, rules=rules, seed=seed, dealer=dealer)
        not_first = play(game, random.Random(f"{name}:{seed}"), moves)
        save_file = f"{name}.json"
        entry = {"name": name, "players": players, "rules": game.rules.name, "seed": seed, "first_dealer": dealer}
        if VERSION == 1:
            save, code = game.to_json(), game.resume_code()
        else:
            level, mode, names = SETUPS.get(name, (None, None, ()))
            save = dump_json(game, level=level, mode=mode, names=names)
            code = dump_code(game, level=level, mode=mode, names=names)
            entry.update(level=level, mode=mode, names=list(names))
        (folder / save_file).write_text(save, encoding="utf-8")
        index.append({**entry, "code": code, "save_file": save_file, "choices_not_first": not_first,
                      "position": position(game)})
    with open(folder / "index.json", "w", encoding="utf-8") as stream:
        json.dump({"format_version": VERSION, "games": index}, stream, ensure_ascii=False, indent=1)
        stream.write("\n")
    print(f"wrote {len(index)} codes and {len(index)} save files to {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
