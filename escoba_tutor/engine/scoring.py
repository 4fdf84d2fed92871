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
from dataclasses import dataclass, replace
from typing import Any

from .cards import SUITS, Card, Suit, as_cards
from .errors import CardError, EscobaError
from .rules import ESCOBA, Rules, as_rules

__all__ = ["SuitBest", "Setenta", "ScoreLine", "DealScore", "DealFacts", "setenta", "score_deal", "SCORING_ITEMS"]

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
    ``face_only``: the missing suits the pile does hold, but only in face cards, which the "setenta with low
    cards only" house rule leaves out (so a reason never says "no clubs" of a pile holding the king of clubs).
    """

    best: tuple[SuitBest, ...]
    missing: tuple[Suit, ...]
    sum: int
    total: int | None
    face_only: tuple[Suit, ...] = ()

    @property
    def valid(self) -> bool:
        return self.total is not None

    @property
    def suit_count(self) -> int:
        return 4 - len(self.missing)

    def __str__(self) -> str:
        if self.total is not None:
            return str(self.total)
        low = " from 1 to 7" if self.face_only else ""  # a suit held in face cards only is not "missing" outright
        return "invalid (no " + ", ".join(suit.name_es for suit in self.missing) + low + ")"


def setenta(cards: str | Iterable[Card | str], rules: Rules = ESCOBA) -> Setenta:
    """The setenta of a pile: the best card of each suit by setenta value (7=21, 6=18, as=16, 5=15, 4=14,
    3=13, 2=12, figures 10), their sum, and the missing suits. With ``setenta_cards="low"`` rules only cards
    1 to 7 count, so a suit held only in figures is missing.

    >>> setenta("7o 6c 1e 12b", ESCOBA.replace(setenta_cards="low")).missing
    (<Suit.BASTOS: 'b'>,)
    """
    cards = as_cards(cards)
    rules = as_rules(rules)
    return _low_setenta(cards) if rules.setenta_cards == "low" else _setenta(cards)


def _low_setenta(cards: Sequence[Card]) -> Setenta:
    """The setenta of cards 1 to 7 only, with the suits it misses that the pile holds in face cards.

    >>> _low_setenta(as_cards("7o 6c 1e 12b 10c")).face_only
    (<Suit.BASTOS: 'b'>,)
    """
    value = _setenta([c for c in cards if c.rank <= 7])
    held = {c.suit for c in cards}
    face_only = tuple(suit for suit in value.missing if suit in held)
    return replace(value, face_only=face_only) if face_only else value


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
    ``nobody_holds``, ``all_invalid`` (no valid setenta: every side misses a suit), ``all_invalid_low`` (no
    valid setenta, and under the low-cards house rule some side holds a suit only in face cards),
    ``more_suits`` (primera by suit count), and for the variants ``tie_both_score``, ``third_side``,
    ``all_oros``, ``others_below_10``, ``all_four``, ``chile``, ``not_scored_last_play`` and ``renuncio``
    (``points`` then holds each side's change).
    """

    item: str
    values: tuple[Any, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str

    @property
    def top_sides(self) -> tuple[int, ...]:
        """The sides sharing the top value (on a ``tie``, the tied sides: with three sides, two or all three).
        A setenta compares by its valid total, an invalid one below any valid one.

        >>> score_deal(["7o 7c 1e 5b", "6o 6c 6e 6b", "1o 1c"], [0, 0, 0]).line("cards").top_sides
        (0, 1)
        """
        keys = [_compared(v) for v in self.values]
        return tuple(i for i, k in enumerate(keys) if k == max(keys))

    def __str__(self) -> str:
        label = self.item.replace("_", " ")
        if self.reason in ("count", "chile", "not_scored_last_play"):
            return f"{label}: " + "–".join(str(v) for v in self.values)
        if self.item == "renuncio":
            return f"{label}: " + ", ".join(f"side {i} {'scores nothing' if n else f'{p:+d}'}"
                                             for i, (n, p) in enumerate(zip(self.values, self.points)))
        who = ("side " + " and ".join(str(w) for w in self.winners)) if self.winners else "nobody"
        if self.item == "siete_de_oros":
            return f"{label}: {who}"
        shown = [str(v) for v in self.values]
        if self.reason == "tie":
            return f"{label}: nobody, tie " + "–".join(shown)
        if self.reason in ("all_invalid", "all_invalid_low"):
            return f"{label}: nobody, " + " vs ".join(shown)
        return f"{label}: {who}, " + " vs ".join(shown)


def _compared(value: Any) -> Any:
    """A line's value as something to compare: a count, True/False, or a setenta's (suits, sum); the values of
    one line are all of one kind."""
    if isinstance(value, Setenta):
        return (value.suit_count, value.sum) if value.total is None else (4, value.total)
    return value


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


@dataclass(frozen=True)
class DealFacts:
    """What happened in a deal besides the piles, per side, for the variants that score it.

    ``escobas_de_mano``: how many of the side's escobas were escobas de mano (Chile scores them 4 each);
    ``hand_escobas``: Chile's escobas en mano (a hand of 15); ``renuncios``: cards laid that could have
    captured (the renuncio variant); ``last_play_sweeps``: a sweep with the deal's last card that was not
    scored (the "no escoba on the last play" variant) — these are not counted in ``escobas``.
    """

    escobas_de_mano: tuple[int, ...] | None = None
    hand_escobas: tuple[int, ...] | None = None
    renuncios: tuple[int, ...] | None = None
    last_play_sweeps: tuple[int, ...] | None = None

    def get(self, name: str, sides: int) -> tuple[int, ...]:
        value = getattr(self, name)
        return tuple(value) if value is not None else (0,) * sides


def _top(values: Sequence[Any], rules: Rules, *, tie_rule: bool) -> tuple[tuple[int, ...], str]:
    """Who gets a 'strictly the most' point: one side alone on top; on a tie, nobody, unless a tie rule of the
    rules applies (``tie_rule``: this item is one the tie variants speak of)."""
    best = max(values)
    top = tuple(i for i, v in enumerate(values) if v == best)
    if len(top) == 1:
        return top, "most"
    if tie_rule and rules.ties == "both_score":
        return top, "tie_both_score"
    return (), "tie"


def _third_side(line_values: Sequence[Any], top: tuple[int, ...], reason: str, has_any: Sequence[bool],
                rules: Rules) -> tuple[tuple[int, ...], str]:
    """The three-player tie rule: two sides tied on top give the point to the third side, if it has any."""
    if rules.three_player_ties and reason == "tie" and len(line_values) == 3:
        best = max(line_values)
        tied = [i for i, v in enumerate(line_values) if v == best]
        if len(tied) == 2:
            third = 3 - sum(tied)
            if has_any[third]:
                return (third,), "third_side"
    return top, reason


def _line(item: str, values: tuple[Any, ...], winners: tuple[int, ...], reason: str, worth: int = 1) -> ScoreLine:
    points = tuple(worth if i in winners else 0 for i in range(len(values)))
    return ScoreLine(item, values, points, winners, reason)


class _Deal:
    """The inputs of one deal's scoring, with the per-side counts the items share computed once."""

    def __init__(self, piles: Sequence[Sequence[Card]], escobas: Sequence[int], rules: Rules, facts: DealFacts):
        self.piles, self.escobas, self.rules, self.facts = piles, tuple(escobas), rules, facts
        self.sides = len(piles)
        low = rules.setenta_cards == "low"
        self.setentas = tuple(_low_setenta(pile) if low else _setenta(pile) for pile in piles)
        self.cards = tuple(len(pile) for pile in piles)
        self.oros = tuple(sum(1 for card in pile if card.suit is Suit.OROS) for pile in piles)


def _escobas_line(deal: _Deal) -> Iterable[ScoreLine]:
    de_mano = deal.facts.get("escobas_de_mano", deal.sides) if deal.rules.chile else (0,) * deal.sides
    values = tuple(n - m for n, m in zip(deal.escobas, de_mano))
    yield ScoreLine("escobas", values, values, tuple(i for i, n in enumerate(values) if n), "count")
    if deal.rules.chile and any(de_mano):
        points = tuple(4 * n for n in de_mano)
        yield ScoreLine("escoba_de_mano", de_mano, points, tuple(i for i, n in enumerate(de_mano) if n), "chile")
    hand = deal.facts.get("hand_escobas", deal.sides)
    if any(hand):
        points = tuple(3 * n for n in hand)
        yield ScoreLine("escoba_en_mano", hand, points, tuple(i for i, n in enumerate(hand) if n), "chile")
    sweeps = deal.facts.get("last_play_sweeps", deal.sides)
    if any(sweeps):
        yield ScoreLine("last_play_sweep", sweeps, (0,) * deal.sides, (), "not_scored_last_play")


def _cards_line(deal: _Deal) -> Iterable[ScoreLine]:
    winners, reason = _top(deal.cards, deal.rules, tie_rule=True)
    winners, reason = _third_side(deal.cards, winners, reason, [n > 0 for n in deal.cards], deal.rules)
    yield _line("cards", deal.cards, winners, reason)
    if deal.rules.cards_bonus and reason == "most":
        others_below_10 = all(n < 10 for i, n in enumerate(deal.cards) if i != winners[0])
        if others_below_10:
            yield _line("cards_bonus", deal.cards, winners, "others_below_10")


def _oros_line(deal: _Deal) -> Iterable[ScoreLine]:
    winners, reason = _top(deal.oros, deal.rules, tie_rule=True)
    winners, reason = _third_side(deal.oros, winners, reason, [n > 0 for n in deal.oros], deal.rules)
    if deal.rules.all_oros_bonus and 10 in deal.oros:
        yield _line("oros", deal.oros, winners, "all_oros", worth=2)
    else:
        yield _line("oros", deal.oros, winners, reason)


def _siete_line(deal: _Deal) -> Iterable[ScoreLine]:
    values = tuple(SEVEN_OF_OROS in pile for pile in deal.piles)
    winners = tuple(i for i, held in enumerate(values) if held)
    yield _line("siete_de_oros", values, winners, "holds" if winners else "nobody_holds")


def _primera_line(deal: _Deal) -> Iterable[ScoreLine]:
    rules, setentas = deal.rules, deal.setentas
    if rules.primera == "sevens":
        sevens = tuple(sum(1 for card in pile if card.rank == 7) for pile in deal.piles)
        yield _line("sevens", sevens, *_top(sevens, rules, tie_rule=True))
    elif rules.primera == "suit_count":
        keys = [(s.suit_count, s.sum) for s in setentas]
        winners, reason = _top(keys, rules, tie_rule=False)
        if winners and sorted(k[0] for k in keys)[-2] < keys[winners[0]][0]:
            reason = "more_suits"
        yield _line("primera", setentas, winners, reason)
    else:
        totals = [s.total if s.total is not None else -1 for s in setentas]
        if max(totals) < 0:
            # "no side has a card of every suit" would be false of a pile holding a suit in face cards only
            low = any(s.face_only for s in setentas)
            yield _line("setenta", setentas, (), "all_invalid_low" if low else "all_invalid")
            return
        winners, reason = _top(totals, rules, tie_rule=False)
        winners, reason = _third_side(totals, winners, reason, [t >= 0 for t in totals], rules)
        yield _line("setenta", setentas, winners, reason)


def _bonus_lines(deal: _Deal) -> Iterable[ScoreLine]:
    if deal.rules.all_sevens_bonus:
        sevens = tuple(sum(1 for card in pile if card.rank == 7) for pile in deal.piles)
        winners = tuple(i for i, n in enumerate(sevens) if n == 4)
        yield _line("all_sevens", sevens, winners, "all_four" if winners else "nobody_holds")
    if deal.rules.figuras:
        figures = tuple(sum(1 for card in pile if card.is_figure) for pile in deal.piles)
        yield _line("figuras", figures, *_top(figures, deal.rules, tie_rule=False))


#: The scoring items in the order a deal is scored; each yields its explained lines. A variant that adds an
#: item adds it here.
SCORING_ITEMS = (_escobas_line, _cards_line, _oros_line, _siete_line, _primera_line, _bonus_lines)


def _renuncio_line(points: tuple[int, ...], renuncios: tuple[int, ...]) -> ScoreLine:
    """The renuncio penalty: each offending side scores nothing; each other side adds what the offenders made."""
    offenders = [i for i, n in enumerate(renuncios) if n]
    forfeited = sum(points[i] for i in offenders)
    change = tuple(-points[i] if i in offenders else forfeited for i in range(len(points)))
    winners = tuple(i for i in range(len(points)) if i not in offenders and forfeited)
    return ScoreLine("renuncio", renuncios, change, winners, "renuncio")


def score_deal(piles: Sequence[str | Iterable[Card | str]], escobas: Sequence[int], rules: Rules = ESCOBA,
               *, facts: DealFacts | None = None) -> DealScore:
    """Score one deal from each side's pile of captured side_piles and number of escobas.

    The piles need not hold all 40 side_piles (a lesson may score a made-up end of deal), but no card may be in
    two piles. ``facts`` carries what some variants score besides the piles (see :class:`DealFacts`).
    """
    rules = as_rules(rules)
    if isinstance(piles, str) or not isinstance(piles, Iterable):
        raise EscobaError("piles must be a list with one pile of side_piles per side", code="bad_piles")
    side_piles = [as_cards(pile) for pile in piles]  # checked cards, one tuple per side
    if not 2 <= len(side_piles) <= 4:
        raise EscobaError(f"a deal is scored for 2 to 4 sides, not {len(side_piles)}", code="side_count")
    escobas = _per_side("escobas", escobas, len(side_piles))
    if rules.three_player_ties and len(side_piles) != 3:
        raise EscobaError("the three-player tie rule scores exactly 3 sides", code="rules_players")
    facts = facts or DealFacts()
    if not isinstance(facts, DealFacts):
        raise EscobaError("facts must be a DealFacts", code="bad_facts")
    for name in ("escobas_de_mano", "hand_escobas", "renuncios", "last_play_sweeps"):
        if getattr(facts, name) is not None:
            _per_side(name, getattr(facts, name), len(side_piles))
    if any(m > n for m, n in zip(facts.get("escobas_de_mano", len(side_piles)), escobas)):
        raise EscobaError("escobas de mano are counted among a side's escobas, so they cannot be more",
                          code="bad_escobas")
    if len(set().union(*side_piles)) != sum(len(pile) for pile in side_piles):
        seen: set[Card] = set()
        for pile in side_piles:
            for card in pile:
                if card in seen:
                    raise CardError(f"{card} is in two piles: each card is captured once",
                                    code="card_in_two_piles", token=card.code, card=card.code)
                seen.add(card)
    return score_piles(side_piles, escobas, rules, facts)


def _per_side(name: str, values: object, sides: int) -> list[int]:
    counts: list[int] | None
    try:
        counts = list(values)  # type: ignore[call-overload]
    except TypeError:
        counts = None
    if counts is None or len(counts) != sides or not all(type(n) is int and 0 <= n <= 40 for n in counts):
        raise EscobaError(f"{name} must be {sides} whole numbers from 0 to 40, one per side", code="bad_escobas")
    return counts


def score_piles(piles: Sequence[Sequence[Card]], escobas: Sequence[int], rules: Rules,
                facts: DealFacts | None = None) -> DealScore:
    """:func:`score_deal` for inputs the engine has already checked (the game's own path)."""
    deal = _Deal(piles, escobas, rules, facts or DealFacts())
    lines = [line for item in SCORING_ITEMS for line in item(deal)]
    points = tuple(sum(line.points[i] for line in lines) for i in range(len(piles)))
    renuncios = deal.facts.get("renuncios", len(piles))
    if rules.renuncio and any(renuncios):
        penalty = _renuncio_line(points, renuncios)
        lines.append(penalty)
        points = tuple(p + c for p, c in zip(points, penalty.points))
    return DealScore(points, tuple(lines))
