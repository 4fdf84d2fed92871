"""A play, as a value: the card played and the table cards it takes; and the largest seed a game takes.

Below the game and the save file, which both read and write moves.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable
from operator import attrgetter

from .cards import Card, parse_card, parse_cards
from .errors import IllegalMoveError

__all__ = ["Move", "MAX_SEED"]

MAX_SEED = 2**53 - 1  # the largest integer a browser's JSON keeps exactly
_by_index = attrgetter("index")


class Move(namedtuple("Move", "card captured")):
    """A play: the card played and the table cards it takes (none: the card is laid on the table).

    Its text is the sum the play makes: ``3c+1o+4b+7o``, or just ``5e`` for a card laid down. Cards may be
    given as text.

    >>> Move.from_text("3c+1o+4b+7o")
    Move('3c+1o+7o+4b')
    >>> Move("3c", "1o 4b 7o") == Move.from_text("3c+1o+4b+7o")
    True
    >>> Move("5e").is_capture
    False
    """

    __slots__ = ()
    card: Card
    captured: frozenset[Card]

    def __new__(cls, card: Card | str, captured: Iterable[Card | str] | str | None = ()) -> Move:
        # The engine builds its own moves with tuple.__new__ and skips this; here outside input is checked.
        if type(card) is not Card:
            if not isinstance(card, str):
                raise IllegalMoveError(f"a move's card must be a card or its text, not {type(card).__name__}",
                                       code="bad_move_text")
            card = parse_card(card)
        if type(captured) is not frozenset or not all(type(c) is Card for c in captured):
            if captured is None:
                captured = ()
            elif not isinstance(captured, (str, Iterable)):
                raise IllegalMoveError("a move's taken cards must be cards or text like '1o 4b 7o'",
                                       code="bad_move_text")
            captured = frozenset(parse_cards(captured))
        return tuple.__new__(cls, (card, captured))

    @classmethod
    def from_text(cls, text: str) -> Move:
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be text like '3c+1o+4b+7o', not {type(text).__name__}",
                                   code="bad_move_text")
        card, *taken = text.split("+")
        cards = parse_cards([card, *taken], allow_empty=True)
        return tuple.__new__(cls, (cards[0], frozenset(cards[1:])))

    @classmethod
    def of(cls, card: Card | str, captured: Iterable[Card | str] | str = ()) -> Move:
        """A move from a card and the taken cards, each as cards or text (the same as ``Move(card, captured)``)."""
        return cls(card, captured)

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    @property
    def text(self) -> str:
        return "+".join([self.card.code, *(c.code for c in sorted(self.captured, key=_by_index))])

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"
