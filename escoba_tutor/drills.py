"""Seeded exercises: the same seed gives the same position on every machine, so a whole class (or a printed
worksheet) gets the same exercise. Each drill carries its full answer, computed by the engine, and a
``check`` that says what is right and what is wrong, as data (the widgets put it into words).

>>> from escoba_tutor import legal_captures, score_deal, setenta
>>> drill = capture_drill(3)
>>> drill == capture_drill(3)                      # same seed, same position
True
>>> drill.answer == tuple(sorted(legal_captures(drill.card, drill.table), key=capture_key))
True
>>> s = setenta_drill(0)
>>> [a.total for a in s.answers] == [setenta(p).total for p in s.piles]
True
>>> p = points_drill(0)
>>> p.answer == score_deal(p.piles, p.escobas)     # a real deal, scored by the engine
True

Seeds are whole numbers from 0 to ``MAX_SEED``; a position depends only on the kind of drill, the seed and the
rules. The generators draw from ``random.Random`` seeded with a text, which Python hashes the same way
everywhere (it does not depend on ``PYTHONHASHSEED``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from .captures import CaptureCheck, check_capture, legal_captures
from .cards import DECK, SUITS, Card, Suit, as_cards, format_cards
from .errors import EscobaError
from .game import MAX_SEED, DealRecord, Game
from .rules import ESCOBA, Rules, as_rules
from .scoring import DealScore, Setenta, setenta

__all__ = ["CaptureDrill", "SetentaDrill", "PointsDrill", "CaptureDrillCheck", "SetentaCheck", "PointsCheck",
           "capture_drill", "setenta_drill", "points_drill", "make_drill", "check_setenta", "points_items",
           "capture_key", "MAX_SEED", "KINDS", "PRIMERA_ITEM"]

#: The kinds of drill, as the widget and the worksheets name them.
KINDS = ("captures", "setenta", "points")

# How often each kind of position comes up. A learner should mostly find something to capture, sometimes
# nothing at all (to practise "it stays on the table"), and often several captures (to practise seeing them all).
_CAPTURE_MIX = (("none", 0.15), ("one", 0.35), ("several", 0.50))
_MAX_SEVERAL = 5  # more captures than this is a search, not a lesson
# A pile is complete with ordinary best cards, complete with a suit held only in figures (worth 10: the
# classic slip is to count the sota as 8), or missing a suit (an invalid setenta).
_PILE_MIX = (("plain", 0.50), ("figures_only", 0.25), ("missing", 0.25))
_ATTEMPTS = 500


def _check_seed(seed: object) -> int:
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise EscobaError(f"a drill seed is a whole number from 0 to {MAX_SEED}, not {seed!r}"[:120],
                          code="bad_seed", value=repr(seed)[:24])
    return seed


def _rng(kind: str, seed: int) -> random.Random:
    return random.Random(f"escoba-tutor:drill:{kind}:{seed}")


def _pick(rng: random.Random, mix: tuple[tuple[str, float], ...]) -> str:
    roll, edge = rng.random(), 0.0
    for name, share in mix:
        edge += share
        if roll < edge:
            return name
    return mix[-1][0]


def capture_key(taken: Iterable[Card]) -> tuple[int, ...]:
    """A fixed order for captures (by their cards in deck order), so answers list the same way everywhere."""
    return tuple(sorted(card.index for card in taken))


# ------------------------------------------------------------------------------------------------ captures
@dataclass(frozen=True)
class CaptureDrillCheck:
    """A learner's list of captures, judged: ``right`` ones, ``missing`` legal ones, and ``wrong`` ones with
    the engine's verdict on each (its ``reason`` says why: ``wrong_sum``, ``figure_face_value``...)."""

    right: tuple[frozenset[Card], ...]
    missing: tuple[frozenset[Card], ...]
    wrong: tuple[CaptureCheck, ...]

    @property
    def ok(self) -> bool:
        return not self.missing and not self.wrong


@dataclass(frozen=True)
class CaptureDrill:
    """Play ``card`` on ``table``: which captures can it make? ``answer`` holds every legal capture (empty: the
    card takes nothing and stays on the table)."""

    kind = "captures"
    seed: int
    rules: Rules
    card: Card
    table: tuple[Card, ...]
    answer: tuple[frozenset[Card], ...]

    def check(self, built: Iterable[Iterable[Card | str] | str]) -> CaptureDrillCheck:
        """Judge the captures a learner listed, each as the table cards it takes. A capture listed twice counts
        once. Card text that names no card raises a :class:`CardError` (the widget only offers real cards).

        >>> from escoba_tutor import parse_card
        >>> drill = CaptureDrill(0, ESCOBA, parse_card("5o"), as_cards("2c 3e 10b 12c"),
        ...                      tuple(legal_captures("5o", "2c 3e 10b 12c")))
        >>> result = drill.check(["12c", "3e 10b"])
        >>> [format_cards(c) for c in result.right], [format_cards(c) for c in result.missing]
        (['12c'], ['2c 10b'])
        >>> [(format_cards(w.taken), w.reason, w.total) for w in result.wrong]
        [('3e 10b', 'wrong_sum', 16)]
        """
        listed: list[frozenset[Card]] = []
        for taken in built:
            cards = frozenset(as_cards(taken))
            if cards not in listed:
                listed.append(cards)
        legal = set(self.answer)
        right = tuple(c for c in listed if c in legal)
        wrong = tuple(check_capture(self.card, c, self.table, self.rules) for c in listed if c not in legal)
        missing = tuple(c for c in self.answer if c not in listed)
        return CaptureDrillCheck(right, missing, wrong)

    def __str__(self) -> str:
        shown = "; ".join(format_cards(c) for c in self.answer) or "nothing"
        return f"play {self.card} on {' '.join(c.code for c in self.table)}: it can take {shown}"


def capture_drill(seed: int, rules: Rules | str = ESCOBA) -> CaptureDrill:
    """A card to play and a table of 3 to 8 cards, with every legal capture.

    About 15 % of positions have no capture, 35 % exactly one and 50 % two to five.

    >>> drill = capture_drill(0)
    >>> 3 <= len(drill.table) <= 8 and drill.card not in drill.table
    True
    >>> kinds = [len(capture_drill(s).answer) for s in range(40)]
    >>> kinds.count(0) > 0 and sum(1 for n in kinds if n > 1) > 10 and max(kinds) <= 5
    True
    """
    seed, rules = _check_seed(seed), as_rules(rules)
    rng = _rng("captures", seed)
    want = _pick(rng, _CAPTURE_MIX)
    for _attempt in range(_ATTEMPTS):
        deck = list(DECK)
        rng.shuffle(deck)
        size = rng.randint(3, 8)
        table, card = tuple(deck[:size]), deck[size]
        answer = legal_captures(card, table, rules)
        found = "none" if not answer else "one" if len(answer) == 1 else "several"
        if found == want and len(answer) <= _MAX_SEVERAL:
            break
    return CaptureDrill(seed, rules, card, table, tuple(sorted(answer, key=capture_key)))


# ------------------------------------------------------------------------------------------------- setenta
@dataclass(frozen=True)
class SetentaCheck:
    """One answer for one pile's setenta, judged.

    ``given`` is the learner's number (None: they said "invalid"); ``expected`` the engine's :class:`Setenta`.
    ``mistake`` names the slip that explains the number, when one does:

    - ``""``: right;
    - ``missing_suit``: a number for a pile that misses ``suits`` (the setenta is invalid);
      ``only_figures``: the same, but those suits are held only in figures, which these rules do not count;
    - ``not_invalid``: "invalid" for a pile with every suit;
    - ``figure_capture_value``: ``cards`` (figures) counted at their capture value (sota 8, caballo 9), not 10;
    - ``figure_printed``: ``cards`` (figures) counted at their printed number (caballo 11, rey 12), not 10
      (for a suit held only in figures, the figure named is its highest one, the one a learner would pick);
    - ``wrong_best``: in some suits the highest-numbered card (``cards``) was taken instead of the best one
      (``better``), e.g. the rey (10) instead of the as (16);
    - ``capture_values``: the capture values were added (7, 6, 1, 5...) instead of the setenta values;
    - ``summed_all``: every card was added, not only the best card of each suit;
    - ``other``: none of these explains the number.
    """

    ok: bool
    given: int | None
    expected: Setenta
    mistake: str = ""
    cards: tuple[Card, ...] = ()
    better: tuple[Card, ...] = ()
    suits: tuple[Suit, ...] = ()


def _counted(pile: Sequence[Card], rules: Rules) -> list[Card]:
    # The cards the setenta looks at, as scoring.setenta does: with low primera only 1 to 7.
    return [c for c in pile if c.rank <= 7] if rules.setenta_cards == "low" else list(pile)


def _subsets(items: Sequence) -> Iterable[tuple]:
    """Non-empty subsets, smallest first: the simplest explanation of a number wins."""
    for size in range(1, len(items) + 1):
        yield from combinations(items, size)


def check_setenta(pile: str | Iterable[Card | str], given: int | None, rules: Rules | str = ESCOBA) -> SetentaCheck:
    """Judge a learner's setenta for ``pile``: ``given`` is a number, or None for "invalid".

    >>> check_setenta("7o 6c 1e 5b", 70).ok
    True
    >>> check_setenta("7o 6c 1e 10b", 63).mistake          # the sota counted as 8
    'figure_capture_value'
    >>> check_setenta("7o 6c 1e 12b 1b", 65).mistake       # the rey instead of the as of bastos
    'wrong_best'
    >>> check_setenta("7o 6c 1e", 55).mistake, check_setenta("7o 6c 1e", None).ok
    ('missing_suit', True)
    >>> check_setenta("7o 6c 1e 10b", None, "escoba+low_primera").ok
    True
    """
    rules = as_rules(rules)
    pile = as_cards(pile)
    if given is not None and (type(given) is not int or given < 0):
        raise EscobaError(f"a setenta answer is a whole number or None (invalid), not {given!r}"[:120],
                          code="bad_answer")
    expected = setenta(pile, rules)
    if given == expected.total:
        return SetentaCheck(True, given, expected)
    if expected.total is None:
        everything = setenta(pile, ESCOBA.replace(setenta_cards="all"))
        held_as_figures = tuple(s for s in expected.missing if s not in everything.missing)
        if held_as_figures:
            return SetentaCheck(False, given, expected, "only_figures", suits=held_as_figures)
        return SetentaCheck(False, given, expected, "missing_suit", suits=expected.missing)
    if given is None:
        return SetentaCheck(False, given, expected, "not_invalid")
    total = expected.total
    counted = _counted(pile, rules)
    # A suit whose best card is a figure: the figure a learner would most likely have counted there is its
    # highest one (the rey before the caballo before the sota).
    figures = [max((c for c in counted if c.suit is b.suit and c.is_figure), key=lambda c: c.rank)
               for b in expected.best if b.card.is_figure]
    for chosen in _subsets([c for c in figures if c.value != 10]):
        if total - sum(10 - c.value for c in chosen) == given:
            return SetentaCheck(False, given, expected, "figure_capture_value", cards=chosen)
    for chosen in _subsets([c for c in figures if c.rank != 10]):
        if total + sum(c.rank - 10 for c in chosen) == given:
            return SetentaCheck(False, given, expected, "figure_printed", cards=chosen)
    slips = []  # (the highest-numbered card of a suit, the best one) where they differ in value
    for b in expected.best:
        top = max((c for c in counted if c.suit is b.suit), key=lambda c: (c.rank, -c.index))
        if top.setenta_value < b.value:
            slips.append((top, b.card))
    for chosen in _subsets(slips):
        if total - sum(better.setenta_value - top.setenta_value for top, better in chosen) == given:
            return SetentaCheck(False, given, expected, "wrong_best", cards=tuple(t for t, _ in chosen),
                                better=tuple(b for _, b in chosen))
    by_capture = sum(max(c.value for c in counted if c.suit is suit) for suit in SUITS)
    if given in (by_capture, sum(b.card.value for b in expected.best)):
        return SetentaCheck(False, given, expected, "capture_values")
    if len(counted) > 4 and given == sum(c.setenta_value for c in counted):
        return SetentaCheck(False, given, expected, "summed_all")
    return SetentaCheck(False, given, expected, "other")


@dataclass(frozen=True)
class SetentaDrill:
    """One pile per side: what is each side's setenta? ``answers`` holds the engine's :class:`Setenta` of
    each pile (``total`` None: invalid)."""

    kind = "setenta"
    seed: int
    rules: Rules
    piles: tuple[tuple[Card, ...], ...]
    answers: tuple[Setenta, ...]

    @property
    def pile(self) -> tuple[Card, ...]:
        """The first side's pile (the whole exercise when there is one side)."""
        return self.piles[0]

    @property
    def answer(self) -> Setenta:
        return self.answers[0]

    def check(self, side: int, given: int | None) -> SetentaCheck:
        """Judge one side's answer (a number, or None for "invalid")."""
        return check_setenta(self.piles[side], given, self.rules)

    def __str__(self) -> str:
        return "\n".join(f"{' '.join(c.code for c in pile)}: setenta {answer}"
                         for pile, answer in zip(self.piles, self.answers))


def _pile(rng: random.Random, pool: list[Card], want: str) -> list[Card] | None:
    """A pile of 5 to 9 cards from ``pool`` of the wanted kind, or None when this draw did not give one."""
    size = rng.randint(5, 9)
    suit = rng.choice(SUITS)
    if want == "missing":
        candidates = [c for c in pool if c.suit is not suit]
    elif want == "figures_only":
        candidates = [c for c in pool if c.suit is not suit or c.is_figure]
    else:
        candidates = list(pool)
    if len(candidates) < size:
        return None
    pile = rng.sample(candidates, size)
    full = setenta(pile)  # the kind is judged with every card counting, whatever the drill's rules
    if want == "missing":
        return pile if suit in full.missing and len(full.missing) <= 2 else None
    if not full.valid:
        return None
    if want == "figures_only":
        return pile if full.best[SUITS.index(suit)].card.is_figure else None
    return pile


def setenta_drill(seed: int, sides: int = 2, rules: Rules | str = ESCOBA) -> SetentaDrill:
    """``sides`` piles of 5 to 9 cards (no card in two piles), with each one's setenta.

    About half the piles are complete with ordinary best cards, a quarter hold one suit only in figures (worth
    10 for the setenta) and a quarter miss a suit (an invalid setenta).

    >>> drill = setenta_drill(3)
    >>> [" ".join(c.code for c in pile) for pile in drill.piles]
    ['2o 3o 5o 1c 3c 4e 7e 12e', '6o 10o 10c 3e 6e 1b 3b 6b']
    >>> [str(a) for a in drill.answers]
    ['invalid (no bastos)', '64']
    >>> invalid = sum(a.total is None for s in range(40) for a in setenta_drill(s).answers)
    >>> 8 <= invalid <= 35
    True
    """
    seed, rules = _check_seed(seed), as_rules(rules)
    if type(sides) is not int or not 1 <= sides <= 4:
        raise EscobaError(f"a setenta drill has 1 to 4 sides, not {sides!r}"[:80], code="side_count")
    rng = _rng("setenta", seed)
    wants = [_pick(rng, _PILE_MIX) for _ in range(sides)]
    piles: list[list[Card]] = []
    for want in wants:
        pool = [c for c in DECK if not any(c in pile for pile in piles)]
        for _attempt in range(_ATTEMPTS):
            pile = _pile(rng, pool, want)
            if pile is not None:
                break
        else:  # never reached with at most 4 sides of 9 cards, but a drill must always come out
            pile = pool[:5]
        piles.append(sorted(pile))
    frozen = tuple(tuple(pile) for pile in piles)
    return SetentaDrill(seed, rules, frozen, tuple(setenta(pile, rules) for pile in frozen))


# -------------------------------------------------------------------------------------------------- points
#: The item of the fifth point for each ``Rules.primera``.
PRIMERA_ITEM = {"setenta": "setenta", "suit_count": "primera", "sevens": "sevens"}


def points_items(rules: Rules | str = ESCOBA) -> tuple[str, ...]:
    """The scoring items a learner is asked about (who gets each point) under ``rules``, in scoring order.

    The escobas are not asked: they are part of the position (each side's count is given).

    >>> points_items()
    ('cards', 'oros', 'siete_de_oros', 'setenta')
    >>> points_items("scopa+figuras")
    ('cards', 'oros', 'siete_de_oros', 'primera', 'figuras')
    """
    rules = as_rules(rules)
    items = ["cards"]
    if rules.cards_bonus:
        items.append("cards_bonus")
    items += ["oros", "siete_de_oros", PRIMERA_ITEM[rules.primera]]
    if rules.all_sevens_bonus:
        items.append("all_sevens")
    if rules.figuras:
        items.append("figuras")
    return tuple(items)


@dataclass(frozen=True)
class PointsCheck:
    """One item of a points drill, judged: the sides the learner gave it to and the sides that get it (``()``:
    nobody), with the engine's line (None when the item did not come up, e.g. no cards bonus)."""

    item: str
    ok: bool
    given: tuple[int, ...]
    expected: tuple[int, ...]
    line: object


@dataclass(frozen=True)
class PointsDrill:
    """A real end of deal: each side's pile and escobas. Who gets each point? ``answer`` is the engine's
    :class:`DealScore` of the deal, ``record`` the whole deal as the game played it."""

    kind = "points"
    seed: int
    rules: Rules
    piles: tuple[tuple[Card, ...], ...]
    escobas: tuple[int, ...]
    answer: DealScore
    record: DealRecord

    @property
    def items(self) -> tuple[str, ...]:
        return points_items(self.rules)

    def expected(self, item: str) -> tuple[int, ...]:
        """The sides that score ``item`` (empty: nobody)."""
        if item not in self.items:
            raise EscobaError(f"{item!r} is not asked in this drill: the items are {', '.join(self.items)}",
                              code="bad_item")
        try:
            return tuple(self.answer.line(item).winners)
        except KeyError:  # a bonus line appears only when someone earns it
            return ()

    def check(self, choices: Mapping[str, Iterable[int]]) -> tuple[PointsCheck, ...]:
        """Judge the learner's choices: item -> the sides they give it to (empty: nobody). An item left out
        counts as unanswered (``given`` None is never right).

        >>> drill = points_drill(0)
        >>> [c.ok for c in drill.check({item: drill.expected(item) for item in drill.items})]
        [True, True, True, True]
        """
        results = []
        for item in self.items:
            given = choices.get(item)
            given = None if given is None else tuple(sorted(given))
            expected = self.expected(item)
            try:
                line = self.answer.line(item)
            except KeyError:
                line = None
            results.append(PointsCheck(item, given == expected, given, expected, line))
        return tuple(results)


def points_drill(seed: int, rules: Rules | str = ESCOBA) -> PointsDrill:
    """Two piles and escobas from a real deal: a 2-player game from ``seed`` played with random legal moves
    until its first deal ends, with that deal's score.

    >>> drill = points_drill(1)
    >>> drill.escobas == drill.record.escobas and sum(len(p) for p in drill.piles) <= 40
    True
    >>> drill.answer == drill.record.score
    True
    """
    seed, rules = _check_seed(seed), as_rules(rules)
    game = Game(players=2, rules=rules, seed=seed)
    rng = _rng("points", seed)
    while not game.deals:
        game.play(rng.choice(game.legal_moves()))
    record = game.deals[0]
    return PointsDrill(seed, rules, tuple(tuple(sorted(p)) for p in record.piles), record.escobas, record.score,
                       record)


def make_drill(kind: str, seed: int, rules: Rules | str = ESCOBA) -> CaptureDrill | SetentaDrill | PointsDrill:
    """The drill of a kind (``captures``, ``setenta`` or ``points``) for a seed."""
    makers = {"captures": capture_drill, "setenta": setenta_drill, "points": points_drill}
    if kind not in makers:
        raise EscobaError(f"no drill is called {str(kind)[:20]!r}: choose one of {', '.join(KINDS)}",
                          code="bad_kind", value=str(kind)[:20])
    if kind == "setenta":
        return setenta_drill(seed, rules=rules)
    return makers[kind](seed, rules)

