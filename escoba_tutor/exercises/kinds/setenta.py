"""Work out the setenta: a pile per side; the learner gives each side's setenta, or "invalid", and is told the
slip that explains a wrong number (docs/rules.md §5).

>>> from escoba_tutor import setenta
>>> s = setenta_drill(0)
>>> [a.total for a in s.answers] == [setenta(p).total for p in s.piles]
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine.cards import DECK, SUITS, Card, Suit, as_cards
from ...engine.errors import EscobaError
from ...engine.rules import ESCOBA, Rules, as_rules
from ...engine.scoring import Setenta, setenta
from ...text.phrases import listed
from ...text.translator import N_, Translator
from .. import given as giving
from .. import paper
from ..common import (
    ATTEMPTS,
    check_seed,
    pick,
    seeded,
    subsets,
)
from ..kind import DrillKind, Outcome, WorksheetPart

# A pile is complete with ordinary best cards, complete with a suit held only in figures (worth 10: the
# classic slip is to count the sota as 8), or missing a suit (an invalid setenta).
_PILE_MIX = (("plain", 0.50), ("figures_only", 0.25), ("missing", 0.25))


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
    for chosen in subsets([c for c in figures if c.value != 10]):
        if total - sum(10 - c.value for c in chosen) == given:
            return SetentaCheck(False, given, expected, "figure_capture_value", cards=chosen)
    for chosen in subsets([c for c in figures if c.rank != 10]):
        if total + sum(c.rank - 10 for c in chosen) == given:
            return SetentaCheck(False, given, expected, "figure_printed", cards=chosen)
    slips: list[tuple[Card, Card]] = []  # (the highest-numbered card of a suit, the best one) where they differ
    for card, value in best:
        top = max((c for c in counted if c.suit is card.suit), key=lambda c: (c.rank, -c.index))
        if top.setenta_value < value:
            slips.append((top, card))
    for pairs in subsets(slips):
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
    seed, rules = check_seed(seed), as_rules(rules)
    if type(sides) is not int or not 1 <= sides <= 4:
        raise EscobaError(f"a setenta drill has 1 to 4 sides, not {sides!r}"[:80], code="side_count")
    rng = seeded("setenta", seed)
    wants = [pick(rng, _PILE_MIX) for _ in range(sides)]
    piles: list[list[Card]] = []
    for want in wants:
        pool = [c for c in DECK if not any(c in pile for pile in piles)]
        for _attempt in range(ATTEMPTS):
            pile = _pile(rng, pool, want)
            if pile is not None:
                break
        else:  # never reached with at most 4 sides of 9 cards, but a drill must always come out
            pile = pool[:5]
        piles.append(sorted(pile))
    frozen = tuple(tuple(pile) for pile in piles)
    return SetentaDrill(seed, rules, frozen, tuple(setenta(pile, rules) for pile in frozen))


# ------------------------------------------------------------------------------------------------ worksheet
def _setenta(_: Translator, value: Setenta) -> str:
    if value.total is not None:
        return _("setenta {total}", total=value.total)
    suits = listed(_, [_.suit_name(s) for s in value.missing])  # as the score sheet says it: "no cups or clubs"
    if value.face_only:  # (the low-cards house rule) the pile holds that suit, but only in face cards
        return _("invalid: no {suits:or} from 1 to 7", suits=suits)
    return _("invalid: no {suits:or}", suits=suits)


_SHEET = """
{% macro task(drill, names, blanks) %}
  <li><p>{{ paper.number(drill) }}</p>{{ paper.by_suit(drill.piles, names) }}
  {% for label in blanks %}{{ paper.blank(label) }}{% endfor %}
  </li>
{% endmacro %}

{% macro answer(drill, sides) %}
  <li>{{ paper.key_number(drill) }}<ul>
  {% for name, best, setenta in sides %}<li>{{ name }}: {{ best }} → <b>{{ setenta }}</b></li>{% endfor %}
  </ul></li>
{% endmacro %}
"""


def _setenta_task(_: Translator, drill: SetentaDrill) -> dict[str, object]:
    names = paper.side_names(_, len(drill.piles))
    return {"names": names, "blanks": [_("{side}'s setenta:", side=name) for name in names]}


def _setenta_answer(_: Translator, drill: SetentaDrill) -> dict[str, object]:
    """Each side's best card of each suit, and its setenta."""
    sides = []
    for name, value in zip(paper.side_names(_, len(drill.piles)), drill.answers):
        best = [_("{suit}: {card} ({value})", suit=_.suit_name(b.suit), card=_.card_name(b.card), value=b.value)
                for b in value.best if b.card is not None]
        sides.append((name, "; ".join(best), _setenta(_, value)))
    return {"sides": sides}


def _outcome(result: Any) -> Outcome:
    states = [part["state"] for part in result]
    if all(state == "blank" for state in states):
        return None
    checks = [part.get("check") for part in result]
    if all(c is not None and c.ok for c in checks):
        return True, None
    slips = [c.mistake for c in checks if c is not None and not c.ok]
    if slips:
        return False, slips[0]
    return False, "not_a_number" if "bad" in states else "unanswered"


def _intro(_: Translator, rules: Rules) -> str:
    return _("For each side, write down the best card of each suit, by its setenta value (7 = 21, 6 = 18, ace = 16, "
             "5 = 15, 4 = 14, 3 = 13, 2 = 12, jack, knight and king = 10), and add up the four. Write “invalid” if a "
             "suit is missing. The piles are shorter than in a real deal, to keep the tables small: each table shows "
             "the whole pile.")



#: What a learner may type for an invalid setenta, in either language.
INVALID_WORDS = frozenset({"invalid", "inválida", "invalida", "inválido", "invalido", "no vale", "coja", "cojo",
                           "nula", "nulo", "x", "-", "—", "–"})
_NUMBER = re.compile(r"\d{1,4}")


def read_setenta_answer(text: object) -> tuple[str, int | None]:
    """A typed setenta answer: ``("number", 70)``, ``("invalid", None)``, ``("blank", None)`` or ``("bad", None)``.

    >>> read_setenta_answer(" 70 "), read_setenta_answer("Inválida"), read_setenta_answer("setenta")
    (('number', 70), ('invalid', None), ('bad', None))
    """
    if not isinstance(text, str):
        return ("bad", None)
    text = " ".join(text.strip().lower().split())
    if not text:
        return ("blank", None)
    if text in INVALID_WORDS:
        return ("invalid", None)
    if _NUMBER.fullmatch(text) and text.isascii():
        return ("number", int(text))
    return ("bad", None)


def _given(_: Translator, drill: SetentaDrill, given: giving.Given) -> str:
    """Each side's setenta as typed: a number, "invalid", or what could not be read."""
    names = paper.side_names(_, len(drill.piles))
    parts = []
    for side, name in enumerate(names):
        state, number = read_setenta_answer(giving.typed(given, side))
        said = str(number) if state == "number" else {"invalid": _("invalid"), "blank": _(giving.NO_ANSWER)}.get(
            state, _("not a number"))
        parts.append(giving.said(_, name, said))
    return giving.joined(parts)


KIND = DrillKind(
    name="setenta",
    make=lambda seed, rules: setenta_drill(seed, rules=rules),
    label=N_("setenta (work out the setenta)"),
    column=N_("Setenta"),
    lesson="05-scoring",
    mistakes={
        "missing_suit": N_("A number for a pile that lacks a suit (its setenta is invalid)"),
        "only_figures": N_("A number for a pile that holds a suit only in face cards, which do not count here"),
        "not_invalid": N_("Saying “invalid” for a pile that has every suit"),
        "figure_capture_value": N_("Counting face cards at their capture value (jack 8, knight 9), not 10"),
        "figure_printed": N_("Counting face cards at their printed number (knight 11, king 12), not 10"),
        "wrong_best": N_("Taking a suit's highest-numbered card instead of its best one (a king instead of an ace)"),
        "capture_values": N_("Adding the capture values instead of the setenta values"),
        "summed_all": N_("Adding every card, not only the best card of each suit"),
        "other": N_("A wrong setenta that none of the usual slips explains"),
        "not_a_number": N_("Writing something that is neither a number nor “invalid”"),
    },
    outcome=_outcome,
    worksheet=WorksheetPart(N_("Work out the setenta"), _intro, _SHEET, _setenta_task, _setenta_answer),
    view="escoba_tutor.widgets.drills.setenta:SetentaView",
    given=_given,
)
