"""Which table cards a played card may capture.

>>> [format_cards(c) for c in legal_captures("3c", "1o 4b 7o")]
['1o 7o 4b']
>>> [format_cards(c) for c in legal_captures("5o", "2c 3e 10b 12c")]   # the rey, or the sota and the 2
['12c', '2c 10b']
>>> legal_captures("1o", "2c 3e 10b 12c")                               # nothing makes 15: it stays
[]
>>> [format_cards(c) for c in legal_captures("5o", "2c 3e 5b", SCOPA)]  # Scopa: a matching card comes first
['5b']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import product, starmap
from typing import Any

from .cards import DECK, Card, Suit, as_card, cards_mask, format_cards, parse_cards, table_mask
from .errors import CardError
from .rules import ESCOBA, SCOPA, Rules, as_rules

__all__ = ["legal_captures", "capture_target", "capture_total", "capture_gains", "check_capture", "CaptureCheck",
           "Gains", "format_cards", "SCOPA"]


def capture_target(card: Card, rules: Rules = ESCOBA) -> int:
    """What the taken table cards must add up to when ``card`` is played."""
    return 15 - card.value if rules.capture == "fifteen" else card.value


def capture_total(cards: Iterable[Card]) -> int:
    return sum(card.value for card in cards)


# How the search works. A table is a 40-bit set (Card.bit) in which the four cards of capture value v sit in
# nibble v-1, so a few bit operations count the cards of every value at once. A capture, seen by values
# only, is a "pattern": take m cards of value v, for a few values, adding up to the target. The patterns of
# each target (at most 93, for 14) are listed once at import, each packed as per-nibble counts in a lane of
# one long integer. A pattern fits a table when none of its counts exceeds the table's: one subtraction of
# the table's counts (copied into every lane, with a guard bit on each nibble) checks every value of every
# pattern at once, and a borrow clears the guard bit of a nibble that does not fit. Only the fitting patterns
# are then expanded to the specific cards, from precomputed frozensets of each value's cards. Expansions are
# not remembered: tables rarely repeat, and a cache of frozensets cost more (misses, garbage collection of a
# growing heap) than it saved.
_LOW_BITS = 0x5555555555
_PAIR_BITS = 0x3333333333
_GUARD = 0x8888888888
_LANE = 48  # 40 bits of counts, and room above them so that no lane's arithmetic reaches the next


def _patterns(total: int, largest: int = 10) -> Iterator[tuple[tuple[int, int], ...]]:
    """The ways to make ``total`` from values 1..largest, at most four cards a value, largest value first."""
    if total == 0:
        yield ()
        return
    for value in range(min(total, largest), 0, -1):
        for taken in range(1, min(4, total // value) + 1):
            for rest in _patterns(total - value * taken, value - 1):
                yield ((value, taken),) + rest


# _TAKES[value - 1][nibble][m]: every set of m cards among the cards of ``value`` whose bits are in ``nibble``.
_TAKES = [
    [[[frozenset(card for card in DECK if card.value == value and (card.bit >> 4 * (value - 1)) & sub)
       for sub in range(16) if sub & nibble == sub and sub.bit_count() == taken]
      for taken in range(5)]
     for nibble in range(16)]
    for value in range(1, 11)
]


class _Target:
    """The patterns of one target total, packed for the one-subtraction check."""

    __slots__ = ("parts", "packed", "spread", "guards", "nonzero", "tops", "width")
    #: Per pattern, flat: a part's nibble shift (int) then its takes by nibble (list), for each part.
    parts: list[tuple[Any, ...]]
    packed: int
    spread: int
    guards: int
    nonzero: int
    tops: int
    width: int

    def __init__(self, total: int) -> None:
        patterns = list(_patterns(total))
        # Each pattern for the expansion, flat: (shift of a part's nibble, that part's takes by nibble) for
        # each part in turn; the empty pattern of total 0 takes the empty set.
        self.parts = [tuple(x for v, m in p for x in (4 * (v - 1), [row[m] for row in _TAKES[v - 1]]))
                      or (0, [[frozenset()]] * 16) for p in patterns]
        lanes = range(len(patterns))
        self.packed = sum(sum(m << 4 * (v - 1) for v, m in p) << _LANE * k for k, p in enumerate(patterns))
        self.spread = sum(1 << _LANE * k for k in lanes)           # table counts x spread: one copy per lane
        self.guards = _GUARD * self.spread
        self.nonzero = ((1 << _LANE - 1) - 1) * self.spread         # + this sets bit 47 of a nonzero lane
        self.tops = (1 << _LANE - 1) * self.spread
        self.width = _LANE // 8 * len(patterns)

    def fitting(self, counts: int) -> bytes:
        """One byte per pattern, nonzero when the pattern fits these per-nibble counts."""
        misfit = ((counts * self.spread | self.guards) - self.packed) & self.guards ^ self.guards
        return (self.tops & ~(misfit + self.nonzero)).to_bytes(self.width, "little")[_LANE // 8 - 1::_LANE // 8]


_TARGETS = [_Target(total) for total in range(15)]
_union = frozenset.union


def _value_counts(table: int) -> int:
    """How many cards of each value the bit set ``table`` holds, one per nibble."""
    counts = table - ((table >> 1) & _LOW_BITS)
    return (counts & _PAIR_BITS) + ((counts >> 2) & _PAIR_BITS)


def _captures_in_mask(table: int, target: int, counts: int | None = None) -> list[frozenset[Card]]:
    """Every set of cards of the bit set ``table`` whose capture values add up to ``target``; ``counts``, when
    given, is ``_value_counts(table)`` (a whole hand's captures on one table need it once)."""
    if counts is None:
        counts = _value_counts(table)
    plan = _TARGETS[target]
    fits = plan.fitting(counts)
    found: list[frozenset[Card]] = []
    parts_of = plan.parts
    k = fits.find(128)
    while k >= 0:
        parts = parts_of[k]
        # Specialised by the number of parts (one to three: 86% of captures on random tables, four take the
        # general path): each capture is built by one union, with no intermediate sets, in C loops (on Python
        # 3.11 a list comprehension costs a function call each time).
        n = len(parts)
        if n == 2:
            found += parts[1][(table >> parts[0]) & 15]
        elif n == 4:
            first, second = parts[1][(table >> parts[0]) & 15], parts[3][(table >> parts[2]) & 15]
            found += map(first[0].union, second) if len(first) == 1 else starmap(_union, product(first, second))
        elif n == 6:
            found += starmap(_union, product(parts[1][(table >> parts[0]) & 15], parts[3][(table >> parts[2]) & 15],
                                             parts[5][(table >> parts[4]) & 15]))
        else:
            found += starmap(_union, product(*[parts[i + 1][(table >> parts[i]) & 15] for i in range(0, n, 2)]))
        k = fits.find(128, k + 1)
    return found


def captures_on(card: Card, table: int, rules: Rules = ESCOBA) -> list[frozenset[Card]]:
    """:func:`legal_captures` for a table given as a bit set (:func:`cards_mask`), inputs already checked."""
    if rules.capture == "fifteen":
        return _captures_in_mask(table, 15 - card.value)
    shift = 4 * (card.value - 1)
    nibble = (table >> shift) & 15
    if nibble:  # Scopa: a matching card on the table must be taken alone
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
    escoba_tutor.engine.errors.CardError: 7o cannot be played and lie on the table at once
    """
    if type(card) is not Card:
        card = as_card(card)
    if rules is not ESCOBA:
        rules = as_rules(rules)
    mask = table_mask(table)
    if card.bit & mask:
        raise CardError(f"{card} cannot be played and lie on the table at once", code="card_on_table",
                        token=card.code, card=card.code)
    if rules.capture == "fifteen":
        return _captures_in_mask(mask, 15 - card.value)
    return captures_on(card, mask, rules)



@dataclass(frozen=True)
class Gains:
    """What a capture puts in the capturing side's pile: the data a lesson shows next to it."""

    cards: int
    oros: int
    sevens: int
    siete_de_oros: bool
    escoba: bool


def capture_gains(card: Card | str, taken: Iterable[Card | str] | str, table: Iterable[Card | str] | str) -> Gains:
    """What playing ``card`` and taking ``taken`` from ``table`` wins (the played card joins the pile).

    >>> capture_gains("3c", "1o 4b 7o", "1o 4b 7o")
    Gains(cards=4, oros=2, sevens=1, siete_de_oros=True, escoba=True)
    """
    card, taken, table = as_card(card), parse_cards(taken), parse_cards(table)
    pile = (card, *taken)
    return Gains(cards=len(pile), oros=sum(1 for c in pile if c.suit is Suit.OROS),
                 sevens=sum(1 for c in pile if c.rank == 7), siete_de_oros=any(c.code == "7o" for c in pile),
                 escoba=bool(taken) and set(taken) == set(table))


@dataclass(frozen=True)
class CaptureCheck:
    """The verdict on a capture a learner built: ``ok``, or ``reason`` says what is wrong.

    Reasons: ``ok``; ``no_card`` (no card played); ``card_not_in_hand``; ``not_on_table`` (a taken card is not
    on the table); ``must_capture`` (laid down, but it could capture); ``wrong_sum``; ``figure_face_value``
    (the sum is right only if a figure counted its printed number: a sota is 8, not 10);
    ``equal_card_first`` (Scopa: a matching card must be taken alone); ``table_alone_15`` (Escoba: the table
    cards taken already add up to 15 on their own, as if the played card did not count). ``total`` is what
    the cards add up to (with the played card, in Escoba), ``goal`` what they must add up to, ``legal`` the
    captures the played card could make.
    """

    ok: bool
    reason: str
    card: Card | None
    taken: tuple[Card, ...]
    total: int
    goal: int
    legal: tuple[frozenset[Card], ...]


def check_capture(card: Card | str | None, taken: Iterable[Card | str] | str, table: Iterable[Card | str] | str,
                  rules: Rules = ESCOBA, hand: Iterable[Card | str] | str | None = None) -> CaptureCheck:
    """Judge a capture someone built: ``card`` played from ``hand`` (when given), taking ``taken`` from ``table``.

    >>> check_capture("3c", "1o 4b 7o", "1o 4b 7o").ok
    True
    >>> check_capture("5o", "10c", "10c 2e").reason      # 5 + sota: the sota counts 8, not 10
    'figure_face_value'
    >>> check_capture("5o", "", "12c 2e").reason         # the rey was there to take
    'must_capture'
    >>> check_capture("3o", "12c 5e", "12c 5e 2b").reason  # 10 + 5 = 15 already: the 3 makes it 18
    'table_alone_15'
    """
    rules = as_rules(rules)
    table = parse_cards(table)
    taken = tuple(sorted(parse_cards(taken)))
    if card is None or card == "":
        return CaptureCheck(False, "no_card", None, taken, 0, 0, ())
    card = as_card(card)
    goal = 15 if rules.capture == "fifteen" else card.value
    base = card.value if rules.capture == "fifteen" else 0
    if hand is not None and card not in parse_cards(hand):
        return CaptureCheck(False, "card_not_in_hand", card, taken, 0, goal, ())
    if card in table:
        raise CardError(f"{card} cannot be played and lie on the table at once", code="card_on_table",
                        token=card.code, card=card.code)
    legal = tuple(captures_on(card, cards_mask(table), rules))
    total = base + sum(c.value for c in taken)

    def verdict(ok: bool, reason: str) -> CaptureCheck:
        return CaptureCheck(ok, reason, card, taken, total, goal, legal)

    if any(c not in table for c in taken):
        return verdict(False, "not_on_table")
    if not taken:
        return verdict(not legal or not rules.must_capture, "must_capture" if legal and rules.must_capture else "ok")
    if frozenset(taken) in legal:
        return verdict(True, "ok")
    if total == goal:
        return verdict(False, "equal_card_first")
    if rules.capture == "fifteen" and total - base == 15:
        return verdict(False, "table_alone_15")
    printed = (card.rank if rules.capture == "fifteen" else 0) + sum(c.rank for c in taken)
    if any(c.is_figure for c in (card, *taken)) and printed == goal:
        return verdict(False, "figure_face_value")
    return verdict(False, "wrong_sum")
