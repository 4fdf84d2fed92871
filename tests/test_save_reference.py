"""Saved games survive upgrades: every reference code and save file in tests/data/saves/ loads to the position
written beside it, whatever version of the format wrote it.

The reference data is written once per format version by tests/data/saves/make_saves.py and never changed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from escoba_tutor import Game

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
    from escoba_tutor.save import VERSION

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


@pytest.mark.parametrize("reference", REFERENCES, ids=reference_id)
def test_a_reference_code_loads_to_its_position(reference):
    _folder, expected = reference
    game = Game.from_resume_code(expected["code"])
    assert (game.players, game.rules.name, game.seed, game.first_dealer) == (
        expected["players"], expected["rules"], expected["seed"], expected["first_dealer"])
    assert position(game) == expected["position"]


@pytest.mark.parametrize("reference", REFERENCES, ids=reference_id)
def test_a_reference_save_file_loads_to_its_position(reference):
    folder, expected = reference
    text = (folder / expected["save_file"]).read_text("utf-8")
    game = Game.from_json(text)
    assert (game.players, game.rules.name, game.seed, game.first_dealer) == (
        expected["players"], expected["rules"], expected["seed"], expected["first_dealer"])
    assert position(game) == expected["position"]
    assert game.state_key() == Game.from_resume_code(expected["code"]).state_key()
