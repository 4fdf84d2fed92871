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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TypeVar

from ..engine.captures import CaptureCheck, check_capture, legal_captures
from ..engine.cards import DECK, SUITS, Card, Suit, as_cards, format_cards
from ..engine.errors import EscobaError
from ..engine.game import MAX_SEED, DealRecord, Game, Move, PlayerView, _pairs_of_15
from ..engine.rules import ESCOBA, Rules, as_rules
from ..engine.scoring import DealScore, Setenta, setenta
from ..players.expert import ExpertBot
from ..players.hints import Hint, hints

__all__ = ["CaptureDrill", "SetentaDrill", "PointsDrill", "LeftoverDrill", "EscobaDeManoDrill", "StrategyDrill",
           "EscobasDrill", "GameEndDrill", "CaptureDrillCheck", "SetentaCheck", "PointsCheck", "Answer",
           "StrategyCheck", "capture_drill", "setenta_drill", "points_drill", "leftover_drill",
           "escoba_de_mano_drill", "strategy_drill", "escobas_drill", "game_end_drill", "make_drill",
           "check_setenta", "points_items", "capture_key", "kinds_for", "MAX_SEED", "KINDS", "PRIMERA_ITEM",
           "STRATEGY_TOLERANCE"]

#: The kinds of drill, as the widget and the worksheets name them.
KINDS = ("captures", "setenta", "points", "leftover", "escoba_de_mano", "strategy", "escobas", "game_end")

# How often each kind of position comes up. A learner should mostly find something to capture, sometimes
# nothing at all (to practise "it stays on the table"), and often several captures (to practise seeing them all).
_CAPTURE_MIX = (("none", 0.15), ("one", 0.35), ("several", 0.50))
_MAX_SEVERAL = 5  # more captures than this is a search, not a lesson
# A pile is complete with ordinary best cards, complete with a suit held only in figures (worth 10: the
# classic slip is to count the sota as 8), or missing a suit (an invalid setenta).
_PILE_MIX = (("plain", 0.50), ("figures_only", 0.25), ("missing", 0.25))
_ATTEMPTS = 500
T = TypeVar("T")


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


def _subsets(items: Sequence[T]) -> Iterable[tuple[T, ...]]:
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
    # (the setenta is valid here, so every suit has its best card)
    best = [(b.card, b.value) for b in expected.best if b.card is not None and b.value is not None]
    figures = [max((c for c in counted if c.suit is card.suit and c.is_figure), key=lambda c: c.rank)
               for card, _value in best if card.is_figure]
    for chosen in _subsets([c for c in figures if c.value != 10]):
        if total - sum(10 - c.value for c in chosen) == given:
            return SetentaCheck(False, given, expected, "figure_capture_value", cards=chosen)
    for chosen in _subsets([c for c in figures if c.rank != 10]):
        if total + sum(c.rank - 10 for c in chosen) == given:
            return SetentaCheck(False, given, expected, "figure_printed", cards=chosen)
    slips: list[tuple[Card, Card]] = []  # (the highest-numbered card of a suit, the best one) where they differ
    for card, value in best:
        top = max((c for c in counted if c.suit is card.suit), key=lambda c: (c.rank, -c.index))
        if top.setenta_value < value:
            slips.append((top, card))
    for pairs in _subsets(slips):
        if total - sum(better.setenta_value - top.setenta_value for top, better in pairs) == given:
            return SetentaCheck(False, given, expected, "wrong_best", cards=tuple(t for t, _ in pairs),
                                better=tuple(b for _, b in pairs))
    by_capture = sum(max(c.value for c in counted if c.suit is suit) for suit in SUITS)
    if given in (by_capture, sum(card.value for card, _value in best)):
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
        best_card = full.best[SUITS.index(suit)].card
        return pile if best_card is not None and best_card.is_figure else None
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
    given: tuple[int, ...] | None
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
            chosen = choices.get(item)
            given = None if chosen is None else tuple(sorted(chosen))
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


# ============================================================================== answers judged item by item
@dataclass(frozen=True)
class Answer:
    """One question of a drill, judged: what the learner gave (None: not answered), what is right, and the
    ``mistake`` that explains a wrong answer ("" when right; each drill lists its codes)."""

    item: str
    ok: bool
    given: object
    expected: object
    mistake: str = ""


def _answer(item: str, given: object, expected: object, mistake: str) -> Answer:
    if given is None:
        return Answer(item, False, None, expected, "unanswered")
    return Answer(item, given == expected, given, expected, "" if given == expected else mistake)


def _play_deal(game: Game, rng: random.Random) -> DealRecord:
    """Random legal moves until the game's first deal is over: a real deal, everything in the open."""
    while not game.deals:
        game.play(rng.choice(game.legal_moves()))
    return game.deals[0]


def _is_whole(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _check_side(value: object, sides: int, what: str) -> int | None:
    """A side given as an answer: its number, or None for nobody; anything else is refused."""
    if value is None:
        return None
    if isinstance(value, int) and _is_whole(value, 0, sides - 1):
        return value
    raise EscobaError(f"{what}: a side from 0 to {sides - 1}, or None for nobody, not {value!r}"[:120],
                      code="bad_answer")


# ------------------------------------------------------------------------------------------------ leftover
#: A leftover drill's question "who takes it" is given as a side, or NOBODY (nobody captured in the deal).
NOBODY = "nobody"


@dataclass(frozen=True)
class LeftoverDrill:
    """The end of a real deal: its last plays (``plays``, each (side, card, cards taken)) and the cards left on
    the table. Who takes them (``taker``, None: nobody captured in the whole deal)? Under the Escoba capture
    rule, also: what do they add up to (``total``), and does the deal check out (``checks_out``: a leftover of
    10, 25, 40, 55... is congruent to 10 modulo 15)? A position that does not check out shows the table as a
    miscount would leave it: one card swapped for a card of another value.

    Mistakes: ``last_to_play`` (the side that played last, which did not capture), ``not_last_capture`` (another
    wrong side), ``somebody_captured`` (nobody, but someone captured), ``nobody_captured``; for the total
    ``figure_printed`` (figures counted 10, 11, 12) and ``wrong_total``; for the check ``checks_out`` (it does,
    said no) and ``does_not_check_out`` (it does not, said yes); ``unanswered`` for any question left out.
    """

    kind = "leftover"
    seed: int
    rules: Rules
    plays: tuple[tuple[int, Card, tuple[Card, ...]], ...]
    table: tuple[Card, ...]
    taker: int | None
    total: int | None
    checks_out: bool | None
    record: DealRecord

    @property
    def items(self) -> tuple[str, ...]:
        return ("taker", "total", "checks_out") if self.rules.capture == "fifteen" else ("taker",)

    @property
    def last_player_side(self) -> int:
        return self.plays[-1][0]

    def check(self, taker: int | str | None = None, total: int | None = None,
              checks_out: bool | None = None) -> tuple[Answer, ...]:
        """Judge the answers: ``taker`` a side or ``"nobody"`` (None: not answered), ``total`` a number,
        ``checks_out`` True or False.

        >>> drill = leftover_drill(0)
        >>> all(a.ok for a in drill.check(NOBODY if drill.taker is None else drill.taker, drill.total,
        ...                                 drill.checks_out))
        True
        """
        sides = len(self.record.piles)
        if taker != NOBODY:
            taker_side = _check_side(taker, sides, "who takes the leftover")
        if total is not None and not _is_whole(total, 0, 999):
            raise EscobaError(f"the leftover's total is a whole number, not {total!r}"[:80], code="bad_answer")
        if checks_out is not None and type(checks_out) is not bool:
            raise EscobaError(f"whether the deal checks out is yes or no, not {checks_out!r}"[:80],
                              code="bad_answer")
        given_taker = None if taker is None else (None if taker == NOBODY else taker_side)
        if taker is None:
            results = [Answer("taker", False, None, self.taker, "unanswered")]
        elif given_taker == self.taker:
            results = [Answer("taker", True, taker, self.taker)]
        elif self.taker is None:
            results = [Answer("taker", False, taker, None, "nobody_captured")]
        elif given_taker is None:
            results = [Answer("taker", False, taker, self.taker, "somebody_captured")]
        else:
            slip = "last_to_play" if given_taker == self.last_player_side else "not_last_capture"
            results = [Answer("taker", False, taker, self.taker, slip)]
        if "total" in self.items:
            printed = sum(c.rank for c in self.table)
            slip = "figure_printed" if total == printed and printed != self.total else "wrong_total"
            results.append(_answer("total", total, self.total, slip))
            results.append(_answer("checks_out", checks_out, self.checks_out,
                                   "checks_out" if self.checks_out else "does_not_check_out"))
        return tuple(results)

    def __str__(self) -> str:
        who = "nobody" if self.taker is None else f"side {self.taker}"
        return f"leftover {format_cards(self.table)}: {who}, total {self.total}, checks out {self.checks_out}"


_SHOWN_PLAYS = 4  # the last plays shown; more when the last capture was earlier


def leftover_drill(seed: int, rules: Rules | str = ESCOBA) -> LeftoverDrill:
    """The end of a real 2-player deal (random legal moves from ``seed``). About half the positions end with the
    other side laying a card down after the last capture (so the side that played last is not the one that
    takes the leftover), and under the Escoba capture rule about a quarter do not check out.

    >>> drill = leftover_drill(3)
    >>> drill.total % 15 == 10 or not drill.checks_out
    True
    >>> sum(leftover_drill(s).checks_out is False for s in range(40)) > 4
    True
    """
    seed, rules = _check_seed(seed), as_rules(rules)
    rng = _rng("leftover", seed)
    want_laid_last = rng.random() < 0.5
    for attempt in range(_ATTEMPTS):
        record = _play_deal(Game(players=2, rules=rules, seed=(seed * 7919 + attempt) % (MAX_SEED + 1)), rng)
        last = record.plays[-1]
        # "laid last": the side that played last laid its card down and is not the one that takes the leftover
        laid_last = not last.move.captured and last.player % 2 != record.leftover_to
        if record.leftover and laid_last == want_laid_last:
            break
    plays = _plays_of(record)
    last_capture = max((i for i, p in enumerate(plays) if p[2]), default=0)
    plays = plays[max(0, min(last_capture, len(plays) - _SHOWN_PLAYS)):]
    table = tuple(sorted(record.leftover))
    checks_out: bool | None = None
    total: int | None = None
    if rules.capture == "fifteen":
        checks_out = True
        if rng.random() < 0.25:
            shown = {c for _side, card, taken in plays for c in (card, *taken)}
            swap_out = rng.choice(table)
            others = [c for c in DECK if c.value != swap_out.value and c not in table and c not in shown]
            table = tuple(sorted([*(c for c in table if c != swap_out), rng.choice(others)]))
            checks_out = False
        total = sum(c.value for c in table)
    return LeftoverDrill(seed, rules, plays, table, record.leftover_to, total, checks_out, record)


def _plays_of(record: DealRecord) -> tuple[tuple[int, Card, tuple[Card, ...]], ...]:
    sides = len(record.piles)
    return tuple((p.player % sides, p.move.card, tuple(sorted(p.move.captured))) for p in record.plays)


# ------------------------------------------------------------------------------------------ escoba de mano
@dataclass(frozen=True)
class EscobaDeManoDrill:
    """The four cards dealt face up at the start of a deal, and who dealt (``dealer``: a player). Is there an
    escoba de mano, how many escobas (``escobas``), and for whom (``side``: the dealer's side, None when none)?

    ``players`` is 2 (each player a side) or 4 (two pairs: players 0 and 2 against 1 and 3, RULES.md §2). In a
    pairs game the escoba de mano is the dealer side's (RULES.md §2): the dealer takes the cards for the pair,
    and the escobas are the pair's.

    Mistakes for the count: ``not_an_escoba`` (the table does not add up to an escoba de mano total),
    ``figure_printed`` (it would, counting the figures' printed numbers), ``missed`` (said none), ``one_not_two``
    and ``two_not_one`` (the number of escobas); for the side: ``dealer_scores`` (the other side named: the
    dealer takes it), ``dealer_pair_scores`` (the same in a pairs game: the other pair, the mano's, named),
    ``nobody_scores`` (a side named for a table that gives no escoba), ``somebody_scores``.
    """

    kind = "escoba_de_mano"
    seed: int
    rules: Rules
    table: tuple[Card, ...]
    dealer: int
    escobas: int
    taken: tuple[Card, ...]
    players: int = 2

    items = ("escobas", "side")

    @property
    def total(self) -> int:
        return sum(c.value for c in self.table)

    @property
    def dealer_side(self) -> int:
        """The dealer's side: the dealer's own with 2 players, the dealer's pair (0: players 0 and 2) with 4."""
        return self.dealer % 2

    @property
    def partner(self) -> int | None:
        """The dealer's partner (the player opposite) in a pairs game; None with 2 players."""
        return (self.dealer + 2) % 4 if self.players == 4 else None

    @property
    def side(self) -> int | None:
        return self.dealer_side if self.escobas else None

    def check(self, escobas: int | None = None, side: int | str | None = None) -> tuple[Answer, ...]:
        """Judge the answers: ``escobas`` 0, 1 or 2; ``side`` a side or ``"nobody"`` (None: not answered).

        >>> drill = escoba_de_mano_drill(0)
        >>> [a.ok for a in drill.check(drill.escobas, NOBODY if drill.side is None else drill.side)]
        [True, True]
        """
        if escobas is not None and not _is_whole(escobas, 0, 4):
            raise EscobaError(f"the escobas de mano are a whole number from 0 to 4, not {escobas!r}"[:80],
                              code="bad_answer")
        given_side = None if side in (None, NOBODY) else _check_side(side, 2, "who scores the escoba de mano")
        if escobas is None or escobas == self.escobas:
            slip = ""
        elif self.escobas == 0:
            printed = self.rules.escobas_for_initial_table(sum(c.rank for c in self.table))
            slip = "figure_printed" if printed and any(c.is_figure for c in self.table) else "not_an_escoba"
        elif escobas == 0:
            slip = "missed"
        else:
            slip = "one_not_two" if self.escobas == 2 else "two_not_one"
        results = [_answer("escobas", escobas, self.escobas, slip)]
        if side is None:
            results.append(Answer("side", False, None, self.side, "unanswered"))
        elif given_side == self.side:
            results.append(Answer("side", True, side, self.side))
        else:
            slip = ("nobody_scores" if self.side is None else "somebody_scores" if given_side is None
                    else "dealer_pair_scores" if self.players == 4 else "dealer_scores")
            results.append(Answer("side", False, side, self.side, slip))
        return tuple(results)

    def __str__(self) -> str:
        dealt = f"player {self.dealer} of 4 (side {self.dealer_side})" if self.players == 4 else f"side {self.dealer}"
        return f"table {format_cards(self.table)} dealt by {dealt}: {self.escobas} escoba(s)"


_MANO_MIX = (("one", 0.35), ("two", 0.25), ("none", 0.40))


def escoba_de_mano_drill(seed: int, rules: Rules | str = ESCOBA) -> EscobaDeManoDrill:
    """Four table cards and a dealer. About a third of the tables add up to 15, a quarter to the two-escoba
    total (30, or 20 with ``escoba_de_mano_15_20``), the rest to neither, often by a little or only when the
    figures are counted by their printed numbers. About a third of the deals are from a game of four in pairs
    (the dealer is one of 4 players; the escobas go to the dealer's pair). Refused under rules without an escoba
    de mano (Scopa).

    >>> drill = escoba_de_mano_drill(2)     # 2 + sota + 1 + 2: 13, though the printed numbers make 15
    >>> format_cards(drill.table), drill.total, drill.escobas, drill.check(1, drill.dealer)[0].mistake
    ('2e 10e 1b 2b', 13, 0, 'figure_printed')
    >>> drill = escoba_de_mano_drill(3)
    >>> format_cards(drill.table), drill.total, drill.escobas, drill.side == drill.dealer
    ('2c 6c 1b 6b', 15, 1, True)
    """
    seed, rules = _check_seed(seed), as_rules(rules)
    if rules.escoba_de_mano == "none":
        raise EscobaError("these rules have no escoba de mano: there is no such drill under them",
                          code="no_escoba_de_mano")
    rng = _rng("escoba_de_mano", seed)
    want = _pick(rng, _MANO_MIX)
    two = next(t for t in (20, 30) if rules.escobas_for_initial_table(t) == 2)
    for _attempt in range(_ATTEMPTS * 20):
        table = tuple(sorted(rng.sample(DECK, 4)))
        total = sum(c.value for c in table)
        printed = sum(c.rank for c in table)
        if want == "one" and total == 15 or want == "two" and total == two:
            break
        if want == "none" and total not in (15, two) and not _pairs_of_15(table) and (
                abs(total - 15) <= 2 or abs(total - two) <= 2 or printed in (15, two)):
            break
    escobas = rules.escobas_for_initial_table(sum(c.value for c in table))
    taken = table if escobas else ()
    if not escobas and rules.escoba_de_mano_pairs:
        taken = tuple(_pairs_of_15(table))
        escobas = len(taken) // 2
    dealer, players = rng.randrange(2), 2
    # About a third of the deals are from a pairs game (4 players), where the house rules allow 4 players.
    if rng.random() < _PAIRS_SHARE and _allows(rules, 4):
        dealer, players = dealer + 2 * rng.randrange(2), 4
    return EscobaDeManoDrill(seed, rules, table, dealer, escobas, taken, players)


_PAIRS_SHARE = 0.35


def _allows(rules: Rules, players: int) -> bool:
    try:
        rules.check_players(players)
    except EscobaError:
        return False
    return True


# ------------------------------------------------------------------------------------------------ strategy
#: A move within this many deal points of the expert's best counts as right in a strategy drill.
STRATEGY_TOLERANCE = 0.2


@dataclass(frozen=True)
class StrategyCheck:
    """A move chosen in a strategy drill, judged against the expert: ``chosen`` and ``best`` are the expert's
    hints for the learner's move and for its own (each with its value and reason), ``ok`` when the chosen
    move loses at most :data:`STRATEGY_TOLERANCE` points. ``mistake``: "" (right), ``costly`` (a worse move)."""

    ok: bool
    chosen: Hint
    best: Hint
    mistake: str = ""

    @property
    def loss(self) -> float:
        return self.chosen.loss


@dataclass(frozen=True)
class StrategyDrill:
    """A position from a real 2-player game, seen by the player whose turn it is: which card would you lay
    down (and which capture would you make)? ``ranking`` holds the expert's hints, best first."""

    kind = "strategy"
    seed: int
    rules: Rules
    view: PlayerView
    ranking: tuple[Hint, ...]

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.view.hand

    @property
    def table(self) -> tuple[Card, ...]:
        return self.view.table

    @property
    def good(self) -> tuple[Hint, ...]:
        """The moves that count as right: within :data:`STRATEGY_TOLERANCE` of the best."""
        return tuple(h for h in self.ranking if h.loss <= STRATEGY_TOLERANCE + 1e-9)

    def check(self, move: Move | str | tuple[Card | str, Iterable[Card | str]]) -> StrategyCheck:
        """Judge a move (a :class:`Move`, its text like ``"3c+1o+4b"``, or (card, taken)). A move that is not
        legal here is refused with an :class:`EscobaError` that says so.

        >>> drill = strategy_drill(0)
        >>> drill.check(drill.ranking[0].move).ok, drill.check(drill.ranking[-1].move).ok
        (True, False)
        """
        if isinstance(move, str):
            move = Move.from_text(move)
        elif isinstance(move, tuple) and not isinstance(move, Move) and len(move) == 2:
            move = Move(*move)
        chosen = next((h for h in self.ranking if h.move == move), None)
        if chosen is None:
            raise EscobaError(f"{str(move)[:40]} is not a legal move here", code="not_legal")
        ok = chosen.loss <= STRATEGY_TOLERANCE + 1e-9
        return StrategyCheck(ok, chosen, self.ranking[0], "" if ok else "costly")

    def __str__(self) -> str:
        return (f"hand {format_cards(self.hand)}, table {format_cards(self.table)}: best {self.ranking[0].move}"
                f" ({len(self.good)} good of {len(self.ranking)})")


def strategy_drill(seed: int, rules: Rules | str = ESCOBA) -> StrategyDrill:
    """A turn of a real 2-player game (random legal moves from ``seed``, 0 to 30 plays in) where the choice
    matters: at least one legal move loses more than :data:`STRATEGY_TOLERANCE` against the best.

    >>> drill = strategy_drill(2)
    >>> drill == strategy_drill(2) and drill.ranking[0].loss == 0 and len(drill.good) < len(drill.ranking)
    True
    """
    seed, rules = _check_seed(seed), as_rules(rules)
    rng = _rng("strategy", seed)
    bot = ExpertBot(seed=0)
    for attempt in range(_ATTEMPTS):
        game = Game(players=2, rules=rules, seed=(seed * 104729 + attempt) % (MAX_SEED + 1))
        for _play in range(rng.randint(0, 30)):
            if game.deals:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.deals or len(game.legal_moves()) < 2:
            continue
        turn = game.turn
        assert turn is not None  # the deal is not over
        view = game.view(turn)
        ranking = tuple(hints(view, bot))
        if ranking[-1].loss > STRATEGY_TOLERANCE + 1e-9:
            break
    return StrategyDrill(seed, rules, view, ranking)


# ------------------------------------------------------------------------------------- the escobas line
@dataclass(frozen=True)
class EscobasDrill:
    """A whole real deal, play by play (``record``): how many escobas does each side score (``escobas``, the
    score sheet's escobas line)? The escoba de mano counts; the leftover taken at the end never does.

    Mistakes per side: ``counted_leftover`` (one too many, for the side that took the leftover),
    ``missed_escoba_de_mano`` (the dealer's escobas de mano left out), ``wrong_count``."""

    kind = "escobas"
    seed: int
    rules: Rules
    record: DealRecord
    escobas: tuple[int, ...]

    @property
    def items(self) -> tuple[str, ...]:
        return tuple(f"side_{i}" for i in range(len(self.escobas)))

    @property
    def captures(self) -> tuple[tuple[str, int, tuple[Card, ...], Card | None, tuple[Card, ...]], ...]:
        """The deal's captures in order, as a scorekeeper sees them: (``what``, side, the table before, the card
        played, the cards taken), ``what`` being ``escoba_de_mano`` (the dealer takes the table dealt; no card
        played), ``capture``, or ``leftover`` (the cards left, taken at the end; no card played)."""
        record, sides = self.record, len(self.escobas)
        shown: list[tuple[str, int, tuple[Card, ...], Card | None, tuple[Card, ...]]] = []
        if record.dealer_capture:
            shown.append(("escoba_de_mano", record.dealer % sides, record.table, None,
                          tuple(sorted(record.dealer_capture))))
        for before, play in zip(record.tables(), record.plays):
            if play.move.captured:
                shown.append(("capture", play.player % sides, before, play.move.card,
                              tuple(sorted(play.move.captured))))
        if record.leftover and record.leftover_to is not None:
            shown.append(("leftover", record.leftover_to, record.leftover, None, tuple(sorted(record.leftover))))
        return tuple(shown)

    def check(self, given: Sequence[int | None]) -> tuple[Answer, ...]:
        """Judge one number per side (None: not answered).

        >>> drill = escobas_drill(1)
        >>> [a.ok for a in drill.check(drill.escobas)]
        [True, True]
        """
        if not isinstance(given, (list, tuple)) or len(given) != len(self.escobas) or any(
                g is not None and not _is_whole(g, 0, 40) for g in given):
            raise EscobaError(f"the escobas are one whole number per side, not {given!r}"[:100], code="bad_answer")
        results = []
        dealer_side = self.record.dealer % len(self.escobas)
        for side, (number, right) in enumerate(zip(given, self.escobas)):
            if number == right + 1 and self.record.leftover_to == side and self.record.leftover:
                slip = "counted_leftover"
            elif side == dealer_side and self.record.dealer_escobas and number == right - self.record.dealer_escobas:
                slip = "missed_escoba_de_mano"
            else:
                slip = "wrong_count"
            results.append(_answer(f"side_{side}", number, right, slip))
        return tuple(results)

    def __str__(self) -> str:
        return f"deal of seed {self.seed}: escobas {self.escobas}"


def escobas_drill(seed: int, rules: Rules | str = ESCOBA) -> EscobasDrill:
    """A real 2-player deal (random legal moves from ``seed``); about two in three have at least one escoba,
    and most end with a leftover taken (the slip of counting it as an escoba is there to be made).

    >>> sum(sum(escobas_drill(s).escobas) > 0 for s in range(30)) > 15
    True
    """
    seed, rules = _check_seed(seed), as_rules(rules)
    rng = _rng("escobas", seed)
    want_some = rng.random() < 0.7
    for attempt in range(_ATTEMPTS):
        record = _play_deal(Game(players=2, rules=rules, seed=(seed * 6007 + attempt) % (MAX_SEED + 1)), rng)
        if (sum(record.escobas) > 0) == want_some:
            break
    return EscobasDrill(seed, rules, record, tuple(record.escobas))


# ------------------------------------------------------------------------------------ the end of a game
@dataclass(frozen=True)
class GameEndDrill:
    """The totals of a 2-side game before its last deal (``before``) and that deal's points (``points``):
    who has won, or is another deal played (``winner`` None)? RULES.md §6: add every deal, then look at the
    target; of the sides that reached it the highest total wins; a shared highest total plays on.

    Mistakes: ``tie_plays_on`` (a winner named, but the highest total is shared at or past the target),
    ``not_reached`` (a winner named, but nobody reached the target), ``highest_wins`` (a side that reached the
    target with fewer points than the other), ``someone_won`` (another deal, but a side has won),
    ``wrong_side``, ``unanswered``."""

    kind = "game_end"
    seed: int
    rules: Rules
    before: tuple[int, ...]
    points: tuple[int, ...]

    items = ("winner",)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(b + p for b, p in zip(self.before, self.points))

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def winner(self) -> int | None:
        top = max(self.totals)
        if top < self.target or self.totals.count(top) > 1:
            return None
        return self.totals.index(top)

    def check(self, winner: int | str | None) -> Answer:
        """Judge the answer: a side, or ``"another_deal"`` (None: not answered).

        >>> drill = game_end_drill(0)
        >>> drill.check("another_deal" if drill.winner is None else drill.winner).ok
        True
        """
        if winner is None:
            return Answer("winner", False, None, self.winner, "unanswered")
        given = None if winner == "another_deal" else _check_side(winner, 2, "who wins the game")
        if given == self.winner:
            return Answer("winner", True, winner, self.winner)
        totals, top = self.totals, max(self.totals)
        if given is None:
            slip = "someone_won"
        elif top < self.target:
            slip = "not_reached"
        elif self.winner is None:
            slip = "tie_plays_on"
        elif totals[given] >= self.target:
            slip = "highest_wins"
        else:
            slip = "wrong_side"
        return Answer("winner", False, winner, self.winner, slip)

    def __str__(self) -> str:
        return f"{self.before} + {self.points} = {self.totals}, target {self.target}: winner {self.winner}"


_END_MIX = (("one_reaches", 0.25), ("both_reach", 0.25), ("tie_on_top", 0.30), ("none_reaches", 0.20))


def game_end_drill(seed: int, rules: Rules | str = ESCOBA) -> GameEndDrill:
    """Two sides' totals before a deal and the deal's points (0 to 7 each, at least one point in all), around
    the rules' target: one side reaches it, both do (the higher total wins, whoever led before), both reach
    the same total (another deal), or nobody does.

    >>> drill = game_end_drill(3)           # 16 + 5 and 20 + 1: both reach 21, a tie on top
    >>> drill.totals, drill.winner, drill.check(1).mistake
    ((21, 21), None, 'tie_plays_on')
    """
    seed, rules = _check_seed(seed), as_rules(rules)
    rng = _rng("game_end", seed)
    want = _pick(rng, _END_MIX)
    target = rules.target
    for _attempt in range(_ATTEMPTS * 4):
        before = tuple(rng.randint(max(0, target - 9), target - 1) for _ in range(2))
        points = tuple(rng.randint(0, 7) for _ in range(2))
        totals = [b + p for b, p in zip(before, points)]
        reached = [t >= target for t in totals]
        kind = ("none_reaches" if not any(reached) else "tie_on_top" if totals[0] == totals[1]
                else "both_reach" if all(reached) else "one_reaches")
        # In "both_reach" the side that led before the deal should not always be the winner.
        if kind == want and sum(points) > 0 and (kind != "both_reach" or before[0] != before[1]):
            break
    return GameEndDrill(seed, rules, before, points)


# --------------------------------------------------------------------------------------------------- kinds
#: Any drill the generators make.
AnyDrill = (CaptureDrill | SetentaDrill | PointsDrill | LeftoverDrill | EscobaDeManoDrill | StrategyDrill | EscobasDrill
            | GameEndDrill)

_MAKERS: dict[str, Callable[..., AnyDrill]] = {
    "captures": capture_drill, "setenta": setenta_drill, "points": points_drill, "leftover": leftover_drill,
    "escoba_de_mano": escoba_de_mano_drill, "strategy": strategy_drill, "escobas": escobas_drill,
    "game_end": game_end_drill}


def kinds_for(rules: Rules | str = ESCOBA) -> tuple[str, ...]:
    """The kinds of drill that exist under ``rules`` (Scopa has no escoba de mano).

    >>> "escoba_de_mano" in kinds_for("escoba"), "escoba_de_mano" in kinds_for("scopa")
    (True, False)
    """
    rules = as_rules(rules)
    return tuple(k for k in KINDS if k != "escoba_de_mano" or rules.escoba_de_mano != "none")


def make_drill(kind: str, seed: int, rules: Rules | str = ESCOBA) -> AnyDrill:
    """The drill of a kind (one of :data:`KINDS`) for a seed."""
    if kind not in _MAKERS:
        raise EscobaError(f"no drill is called {str(kind)[:20]!r}: choose one of {', '.join(KINDS)}",
                          code="bad_kind", value=str(kind)[:20])
    if kind == "setenta":
        return setenta_drill(seed, rules=rules)
    maker: Callable[[int, Rules | str], AnyDrill] = _MAKERS[kind]
    return maker(seed, rules)
