"""escoba-tutor: learn the Spanish card game Escoba.

The rules engine's public names, from ``escoba_tutor.engine`` and ``escoba_tutor.players``; importing them loads no
widget library (docs/development.md shows the layers):

>>> from escoba_tutor import parse_cards, legal_captures, score_deal
>>> [format_cards(c) for c in legal_captures("3c", "1o 4b 7o")]
['1o 7o 4b']
"""

from typing import TYPE_CHECKING

from .engine.captures import legal_captures
from .engine.cards import DECK, Card, Suit, format_cards, parse_card, parse_cards
from .engine.errors import (
    CardError,
    ChecksumError,
    EscobaError,
    GameOverError,
    IllegalMoveError,
    MustCaptureError,
    NothingToUndoError,
    NotOnTableError,
    NotYourCardError,
    RulesError,
    SaveError,
    SaveFormatError,
    SaveVersionError,
    WrongSumError,
)
from .engine.rules import ESCOBA, PROFILES, SCOPA, Rules, rules_by_name

if TYPE_CHECKING:
    from .engine.game import DealRecord, Game, Move, PlayerView
    from .engine.scoring import DealScore, ScoreLine, Setenta, score_deal, setenta
    from .players.expert import ExpertBot
    from .players.hints import Hint, Reason, costliest_move

__version__ = "0.1.0"

# The computer players' search is imported when first used: a lesson page that shows captures should not pay for it;
# nor for the game and the scoring, before its first widget (in the browser every module's import counts).
_LAZY = {"ExpertBot": "players.expert", "Hint": "players.hints", "Reason": "players.hints",
         "costliest_move": "players.hints", "Game": "engine.game", "Move": "engine.game",
         "PlayerView": "engine.game", "DealRecord": "engine.game", "DealScore": "engine.scoring",
         "ScoreLine": "engine.scoring", "Setenta": "engine.scoring", "score_deal": "engine.scoring",
         "setenta": "engine.scoring"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "DECK", "Card", "Suit", "parse_card", "parse_cards", "format_cards", "legal_captures", "setenta", "score_deal",
    "Setenta", "ScoreLine", "DealScore", "Rules", "ESCOBA", "SCOPA", "PROFILES", "rules_by_name", "Game", "Move",
    "PlayerView", "DealRecord", "EscobaError", "CardError", "RulesError", "IllegalMoveError", "NotYourCardError",
    "NotOnTableError", "WrongSumError", "MustCaptureError", "GameOverError", "NothingToUndoError", "SaveError",
    "SaveFormatError", "ChecksumError", "SaveVersionError", "ExpertBot", "Hint", "Reason", "costliest_move",
]
