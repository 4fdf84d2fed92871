"""Which table cards a played card may capture.

>>> [format_cards(c) for c in legal_captures("3c", "1o 4b 7o")]
['1o 7o 4b']
>>> [format_cards(c) for c in legal_captures("5o", "2c 3e 10b 12c")]   # the rey, or the sota and the 2
['12c', '2c 10b']
>>> legal_captures("1o", "2c 3e 10b 12c")                               # nothing makes 15: it stays
[]
>>> [format_cards(c) for c in legal_captures("5o", "2c 3e 5b", SCOPA)]  # Scopa: an equal card comes first
['5b']
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import DECK, Card, as_card, format_cards, table_mask
from .errors import CardError
from .rules import ESCOBA, SCOPA, Rules

__all__ = ["legal_captures", "capture_target", "capture_total", "format_cards", "SCOPA"]


def capture_target(card: Card, rules: Rules = ESCOBA) -> int:
    """What the taken table cards must add up to when ``card`` is played."""
    return 15 - card.value if rules.capture == "fifteen" else card.value


def capture_total(cards: Iterable[Card]) -> int:
    return sum(card.value for card in cards)


# How the search works. A table is a 40-bit set (Card.bit) in which the four cards of capture value v sit in
# nibble v-1, so one pass of bit arithmetic counts the cards of every value at once. A capture, seen by
# values only, is a "pattern": take m cards of value v, for a few values, adding up to the target. The
# patterns of each target (at most 93, for 14) are listed once at import, each packed as the same per-nibble
# counts; a pattern fits a table when no packed count exceeds the table's, which a single subtraction
# checks for all ten values at once (a guard bit in each nibble catches any borrow). Only the patterns
# that fit are expanded to the specific cards, from precomputed frozensets of each value's cards.
_LOW_BITS = 0x5555555555
_PAIR_BITS = 0x3333333333
_GUARD = 0x8888888888


def _patterns(total: int, largest: int = 10):
    """The ways to make ``total`` from values 1..largest, at most four cards of a value, largest value first."""
    if total == 0:
        yield ()
        return
    for value in range(min(total, largest), 0, -1):
        for taken in range(1, min(4, total // value) + 1):
            for rest in _patterns(total - value * taken, value - 1):
                yield ((value, taken),) + rest


_PATTERNS = [list(_patterns(total)) for total in range(15)]
# _TAKES[value - 1][nibble][m]: every set of m cards among the cards of ``value`` whose bits are in ``nibble``.
_TAKES = [
    [[[frozenset(card for card in DECK if card.value == value and (card.bit >> 4 * (value - 1)) & sub)
       for sub in range(16) if sub & nibble == sub and sub.bit_count() == taken]
      for taken in range(5)]
     for nibble in range(16)]
    for value in range(1, 11)
]
# Per target, each pattern as (packed counts, the nibbles it uses, ((shift, takes by nibble), ...)).
_FITS = [
    [(sum(taken << 4 * (value - 1) for value, taken in pattern),
      sum(1 << 4 * (value - 1) for value, _ in pattern),
      tuple((4 * (value - 1), [row[taken] for row in _TAKES[value - 1]]) for value, taken in pattern))
     for pattern in _PATTERNS[total]]
    for total in range(15)
]
_NIBBLE_ONES = 0x1111111111
_CANDIDATES: dict[tuple[int, int], list] = {}  # (target, values present) -> the patterns using only those


def _captures_in_mask(table: int, target: int) -> list[frozenset[Card]]:
    """Every set of cards of the bit set ``table`` whose capture values add up to ``target``."""
    counts = table - ((table >> 1) & _LOW_BITS)
    counts = (counts & _PAIR_BITS) + ((counts >> 2) & _PAIR_BITS)
    present = (counts | (counts >> 1) | (counts >> 2)) & _NIBBLE_ONES
    candidates = _CANDIDATES.get((target, present))
    if candidates is None:  # at most 15 x 1024 keys: a bounded table, filled as positions come
        candidates = _CANDIDATES[target, present] = [
            (packed, parts) for packed, used, parts in _FITS[target] if used & present == used]
    counts |= _GUARD
    found: list[frozenset[Card]] = []
    for packed, parts in candidates:
        if (counts - packed) & _GUARD != _GUARD:
            continue
        if len(parts) == 1:
            shift, takes = parts[0]
            found += takes[(table >> shift) & 15]
        else:
            shift, takes = parts[0]
            sets = takes[(table >> shift) & 15]
            for shift, takes in parts[1:]:
                more = takes[(table >> shift) & 15]
                sets = [a | b for a in sets for b in more]
            found += sets
    return found


def captures_on(card: Card, table: int, rules: Rules = ESCOBA) -> list[frozenset[Card]]:
    """:func:`legal_captures` for a table given as a bit set (:func:`cards_mask`), inputs already checked."""
    if rules.capture == "fifteen":
        return _captures_in_mask(table, 15 - card.value)
    shift = 4 * (card.value - 1)
    nibble = (table >> shift) & 15
    if nibble:  # Scopa: an equal card on the table must be taken alone
        return list(_TAKES[card.value - 1][nibble][1])
    return _captures_in_mask(table, card.value)


def legal_captures(card: Card | str, table: Iterable[Card | str] | str, rules: Rules = ESCOBA
                   ) -> list[frozenset[Card]]:
    """Every set of table cards that ``card`` may take, each once; an empty list when it takes nothing.

    Two captures differ when they take different cards, even of equal values (``7o`` and ``7c``).
    Cards may be given as :class:`Card` objects or as text.

    >>> len(legal_captures("10o", "7o 7c 3e 4b"))   # the sota (8) takes 7o, 7c, or 3e+4b
    3
    >>> legal_captures("7o", "7o 1c")
    Traceback (most recent call last):
    ...
    escoba_tutor.errors.CardError: 7o cannot be played and lie on the table at once
    """
    card = as_card(card)
    mask = table_mask(table)
    if card.bit & mask:
        raise CardError(f"{card} cannot be played and lie on the table at once", code="card_on_table",
                        token=card.code, card=card.code)
    return captures_on(card, mask, rules)

