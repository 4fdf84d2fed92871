"""Saved games survive upgrades: every reference code and save file in tests/data/saves/ loads to the position
written beside it, whatever version of the format wrote it.

The reference data is written once per format version by tests/data/saves/make_saves.py and never changed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from escoba_tutor import Game
from escoba_tutor.engine.save import read_save

SAVES = Path(__file__).parent / "data" / "saves"
VERSIONS = sorted(SAVES.glob("v*/index.json"))
REFERENCES = [(path.parent, game) for path in VERSIONS for game in json.loads(path.read_text("utf-8"))["games"]]


def reference_id(reference) -> str:
    folder, game = reference
    return f"{folder.name}-{game['name']}"


def position(game: Game) -> dict:
    """The same fields as make_saves.position, from the loaded game."""
    return {
        "deal": game.deal,
        "dealer": game.dealer,
        "turn": game.turn,
        "hands": [[card.code for card in hand] for hand in game.hands],
        "table": [card.code for card in game.table],
        "piles": [[card.code for card in pile] for pile in game.piles],
        "escobas": list(game.escobas),
        "totals": list(game.totals),
        "winner": game.winner,
        "deck_left": game.deck_left,
        "deals_finished": len(game.deals),
        "moves": [move.text for move in game.moves],
    }


def test_there_is_reference_data_for_version_1_and_the_current_version():
    from escoba_tutor.engine.save import VERSION

    versions = {path.parent.name for path in VERSIONS}
    assert {"v1", f"v{VERSION}"} <= versions
    for folder in {folder for folder, _game in REFERENCES}:
        games = [game for f, game in REFERENCES if f == folder]
        assert {game["players"] for game in games} == {2, 3, 4}
        assert any(game["position"]["winner"] is not None for game in games)   # a finished game
        assert any(game["position"]["winner"] is None and game["position"]["moves"] for game in games)
        assert len({game["rules"] for game in games}) >= 10                      # variants
        # The codes hold many choices other than a position's first move: a changed order would show.
        assert sum(game["choices_not_first"] for game in games) > 500


def assert_loaded_as_expected(saved, expected) -> None:
    game = saved.game
    assert (game.players, game.rules.name, game.seed, game.first_dealer) == (
        expected["players"], expected["rules"], expected["seed"], expected["first_dealer"])
    assert position(game) == expected["position"]
    # Version 1 says nothing of how the game was played; later versions say what was saved.
    assert (saved.level, saved.mode, list(saved.names)) == (
        expected.get("level"), expected.get("mode"), expected.get("names", []))


@pytest.mark.parametrize("reference", REFERENCES, ids=reference_id)
def test_a_reference_code_loads_to_its_position(reference):
    _folder, expected = reference
    assert_loaded_as_expected(read_save(expected["code"], Game), expected)
    assert position(Game.from_resume_code(expected["code"])) == expected["position"]


@pytest.mark.parametrize("reference", REFERENCES, ids=reference_id)
def test_a_reference_save_file_loads_to_its_position(reference):
    folder, expected = reference
    text = (folder / expected["save_file"]).read_text("utf-8")
    assert_loaded_as_expected(read_save(text, Game), expected)
    assert_loaded_as_expected(read_save(text.encode("utf-8"), Game), expected)
    game = Game.from_json(text)
    assert game.state_key() == Game.from_resume_code(expected["code"]).state_key()


def test_the_current_version_writes_the_reference_data_again():
    """Today's escoba-tutor writes, for each game of the current version's reference, the same code and file."""
    from escoba_tutor.engine.save import VERSION, dump_code, dump_json

    for folder, expected in REFERENCES:
        if folder.name != f"v{VERSION}":
            continue
        saved = read_save(expected["code"], Game)
        setup = {"level": saved.level, "mode": saved.mode, "names": saved.names}
        assert dump_code(saved.game, **setup) == expected["code"]
        assert dump_json(saved.game, **setup) == (folder / expected["save_file"]).read_text("utf-8")


def test_version_1_and_version_2_number_the_moves_differently():
    """In the reference games, many moves have another number in version 1's order than in version 2's: the
    reference codes of each version load only if each is read in its own order."""
    from escoba_tutor.engine.save import _offered

    renumbered = 0
    for folder, expected in REFERENCES:
        if folder.name != "v1":
            continue
        game = Game(players=expected["players"], rules=expected["rules"], seed=expected["seed"],
                    dealer=expected["first_dealer"])
        for text in expected["position"]["moves"]:
            old, new = _offered(game, 1), _offered(game, 2)
            assert sorted(old, key=str) == sorted(new, key=str)   # the same moves, in another order
            renumbered += old.index(game.play(text).move) != new.index(game.moves[-1])
    assert renumbered > 100
