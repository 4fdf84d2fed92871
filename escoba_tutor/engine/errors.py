"""The error types the engine raises.

Every error is an :class:`EscobaError` and a :class:`ValueError`, carries a short machine-readable ``code``
and the data a widget needs to explain it in the learner's language (``params``). The English message is
for developers and logs; the widgets render their own text from ``code`` and ``params``.
"""

from __future__ import annotations

from typing import Any


class EscobaError(ValueError):
    """Base class of every error this package raises on purpose."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params = params


class CardError(EscobaError):
    """Card text that names no card of the 40-card deck, or a card given twice."""

    code = "bad_card"

    @property
    def token(self) -> str | None:
        return self.params.get("token")

    @property
    def hint(self) -> str | None:
        return self.params.get("hint")


class RulesError(EscobaError):
    """Rules options that are unknown, of the wrong type, or that cannot go together."""

    code = "bad_rules"


class IllegalMoveError(EscobaError):
    """A play the rules do not allow. The game is left exactly as it was.

    ``legal_captures`` lists the captures the played card could have made (empty when it could make none), each
    as a frozenset of :class:`escoba_tutor.engine.cards.Card` (not named here: every engine module, the cards
    too, imports this one).
    """

    code = "illegal_move"

    @property
    def legal_captures(self) -> tuple[frozenset[Any], ...]:
        captures: tuple[frozenset[Any], ...] = self.params.get("legal_captures", ())
        return captures


class NotYourCardError(IllegalMoveError):
    code = "card_not_in_hand"


class NotOnTableError(IllegalMoveError):
    code = "card_not_on_table"


class WrongSumError(IllegalMoveError):
    code = "wrong_sum"


class MustCaptureError(IllegalMoveError):
    code = "must_capture"


class GameOverError(IllegalMoveError):
    code = "game_over"


class NothingToUndoError(EscobaError):
    code = "nothing_to_undo"


class SaveError(EscobaError):
    """A save file or resume code that cannot be loaded. Nothing is loaded at all."""

    code = "bad_save"


class SaveFormatError(SaveError):
    code = "malformed_save"


class ChecksumError(SaveError):
    code = "checksum"


class SaveVersionError(SaveError):
    code = "future_version"
