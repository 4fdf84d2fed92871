"""Scoring a deal, with every point explained as data.

The explanation is data, not sentences: each :class:`ScoreLine` says which item it is, what each side had,
who scores and why (a short ``reason`` code). Widgets turn it into words in the learner's language; ``str()``
gives a plain English line for logs and tests.

>>> s = setenta("7o 6c 1e 5b 7c")
>>> s.total, [(b.suit.value, str(b.card), b.value) for b in s.best]
(73, [('o', '7o', 21), ('c', '7c', 21), ('e', '1e', 16), ('b', '5b', 15)])
>>> setenta("7o 6c 1e").missing, setenta("7o 6c 1e").total
((<Suit.BASTOS: 'b'>,), None)
>>> score = score_deal(["7o 7c 7e 6b", "1o 2c"], [0, 0])
>>> score.points
(3, 0)
>>> print(score)
escobas: 0–0
cards: side 0, 4 vs 2
oros: nobody, tie 1–1
siete de oros: side 0
setenta: side 0, 81 vs invalid (no espadas, bastos)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import SUITS, Card, Suit, as_cards
from .errors import CardError, EscobaError
from .rules import ESCOBA, Rules

__all__ = ["SuitBest", "Setenta", "ScoreLine", "DealScore", "setenta", "score_deal"]

SEVEN_OF_OROS = Card(7, "o")


@dataclass(frozen=True)
class SuitBest:
    """One step of the setenta: a suit, the side's best card in it (None: no card of that suit) and its value."""

    suit: Suit
    card: Card | None
    value: int | None


@dataclass(frozen=True)
class Setenta:
    """The setenta (primera) of one pile, step by step.

    ``best`` has the four suits in the order oros, copas, espadas, bastos. ``total`` is the sum of the four
    best values, or None when a suit is missing (the setenta is "coja"); ``sum`` adds the suits present.
    """

    best: tuple[SuitBest, ...]
    missing: tuple[Suit, ...]
    sum: int
    total: int | None

    @property
    def valid(self) -> bool:
        return self.total is not None

    @property
    def suit_count(self) -> int:
        return 4 - len(self.missing)

    def __str__(self) -> str:
        if self.total is not None:
            return str(self.total)
        return "invalid (no " + ", ".join(suit.name_es for suit in self.missing) + ")"


def setenta(cards: str | Iterable[Card | str], rules: Rules = ESCOBA) -> Setenta:
    """The setenta of a pile: the best card of each suit by setenta value (7=21, 6=18, as=16, 5=15, 4=14,
    3=13, 2=12, figures 10), their sum, and the missing suits."""
    return _setenta(as_cards(cards))


def _setenta(cards: Iterable[Card]) -> Setenta:
    best: dict[Suit, Card] = {}
    for card in cards:
        held = best.get(card.suit)
        # Equal values (the three figures) keep the lowest card, so the step shown does not depend on order.
        if held is None or card.setenta_value > held.setenta_value or (
                card.setenta_value == held.setenta_value and card.index < held.index):
            best[card.suit] = card
    steps = tuple(SuitBest(suit, best.get(suit), best[suit].setenta_value if suit in best else None)
                  for suit in SUITS)
    missing = tuple(suit for suit in SUITS if suit not in best)
    total = sum(card.setenta_value for card in best.values())
    return Setenta(steps, missing, total, None if missing else total)


@dataclass(frozen=True)
class ScoreLine:
    """One scoring item of a deal.

    ``values`` holds what each side had (a count; for the siete de oros True/False; for the setenta a
    :class:`Setenta`), ``points`` what each side scores, ``winners`` the sides that score, and ``reason``
    why: ``count`` (escobas), ``most`` (strictly the most), ``tie`` (the top is shared), ``holds``,
    ``nobody_holds``, ``all_invalid`` (no valid setenta), ``more_suits`` (primera by suit count).
    """

    item: str
    values: tuple
    points: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str

    def __str__(self) -> str:
        label = self.item.replace("_", " ")
        if self.item == "escobas":
            return f"{label}: " + "–".join(str(v) for v in self.values)
        who = ("side " + " and ".join(str(w) for w in self.winners)) if self.winners else "nobody"
        if self.item == "siete_de_oros":
            return f"{label}: {who}"
        shown = [str(v) for v in self.values]
        if self.reason in ("tie", "all_invalid"):
            return f"{label}: nobody, {'tie' if self.reason == 'tie' else 'all'} " + "–".join(shown)
        return f"{label}: {who}, " + " vs ".join(shown)


@dataclass(frozen=True)
class DealScore:
    """The points of one deal: ``points`` per side and one :class:`ScoreLine` per item, in scoring order."""

    points: tuple[int, ...]
    lines: tuple[ScoreLine, ...]

    def line(self, item: str) -> ScoreLine:
        for line in self.lines:
            if line.item == item:
                return line
        raise KeyError(item)

    def __str__(self) -> str:
        return "\n".join(str(line) for line in self.lines)


def _strictly_most(values: Sequence) -> tuple[tuple[int, ...], str]:
    """The side with strictly more than every other side, or nobody on a tie at the top."""
    best = max(values)
    top = tuple(i for i, v in enumerate(values) if v == best)
    return (top, "most") if len(top) == 1 else ((), "tie")


def _line(item: str, values: tuple, winners: tuple[int, ...], reason: str) -> ScoreLine:
    points = tuple(1 if i in winners else 0 for i in range(len(values)))
    return ScoreLine(item, values, points, winners, reason)


def _escobas_line(piles, escobas, setentas, rules) -> ScoreLine:
    values = tuple(escobas)
    return ScoreLine("escobas", values, values, tuple(i for i, n in enumerate(values) if n), "count")


def _cards_line(piles, escobas, setentas, rules) -> ScoreLine:
    values = tuple(len(pile) for pile in piles)
    return _line("cards", values, *_strictly_most(values))


def _oros_line(piles, escobas, setentas, rules) -> ScoreLine:
    values = tuple(sum(1 for card in pile if card.suit is Suit.OROS) for pile in piles)
    return _line("oros", values, *_strictly_most(values))


def _siete_line(piles, escobas, setentas, rules) -> ScoreLine:
    values = tuple(SEVEN_OF_OROS in pile for pile in piles)
    winners = tuple(i for i, held in enumerate(values) if held)
    return _line("siete_de_oros", values, winners, "holds" if winners else "nobody_holds")


def _setenta_line(piles, escobas, setentas, rules) -> ScoreLine:
    if rules.primera == "suit_count":
        keys = [(s.suit_count, s.sum) for s in setentas]
        winners, reason = _strictly_most(keys)
        if winners and sorted(k[0] for k in keys)[-2] < keys[winners[0]][0]:
            reason = "more_suits"
        return _line("primera", tuple(setentas), winners, reason)
    valid = [s.total for s in setentas if s.total is not None]
    if not valid:
        return _line("setenta", tuple(setentas), (), "all_invalid")
    best = max(valid)
    top = tuple(i for i, s in enumerate(setentas) if s.total == best)
    return _line("setenta", tuple(setentas), top if len(top) == 1 else (), "most" if len(top) == 1 else "tie")


#: The scoring items in the order a deal is scored. A rules variant that adds an item adds it here.
SCORING_ITEMS = (_escobas_line, _cards_line, _oros_line, _siete_line, _setenta_line)


def score_deal(piles: Sequence[str | Iterable[Card | str]], escobas: Sequence[int], rules: Rules = ESCOBA
               ) -> DealScore:
    """Score one deal from each side's pile of captured cards and number of escobas.

    The piles need not hold all 40 cards (a lesson may score a made-up end of deal), but no card may be in
    two piles.
    """
    piles = [as_cards(pile) for pile in piles]
    if not 2 <= len(piles) <= 4:
        raise EscobaError(f"a deal is scored for 2 to 4 sides, not {len(piles)}", code="side_count")
    try:
        escobas = list(escobas)
    except TypeError:
        escobas = None
    if escobas is None or len(escobas) != len(piles) or not all(type(n) is int and 0 <= n <= 40 for n in escobas):
        raise EscobaError(f"escobas must be {len(piles)} whole numbers from 0 to 40, one per side", code="bad_escobas")
    if len(set().union(*piles)) != sum(len(pile) for pile in piles):
        seen: set[Card] = set()
        for pile in piles:
            for card in pile:
                if card in seen:
                    raise CardError(f"{card} is in two piles: each card is captured once", code="card_in_two_piles",
                                    token=card.code, card=card.code)
                seen.add(card)
    return score_piles(piles, escobas, rules)


def score_piles(piles: Sequence[Sequence[Card]], escobas: Sequence[int], rules: Rules) -> DealScore:
    """:func:`score_deal` for inputs the engine has already checked (the game's own path)."""
    setentas = [_setenta(pile) for pile in piles]
    lines = tuple(item(piles, escobas, setentas, rules) for item in SCORING_ITEMS)
    points = tuple(sum(line.points[i] for line in lines) for i in range(len(piles)))
    return DealScore(points, lines)
