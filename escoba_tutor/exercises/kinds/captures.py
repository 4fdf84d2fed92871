"""Find every capture: a card to play and a table of 3 to 8 cards; the learner lists every capture the card can
make (docs/rules.md §3), each judged by the engine's ``check_capture``.

>>> from escoba_tutor import legal_captures
>>> drill = capture_drill(3)
>>> drill == capture_drill(3)                      # same seed, same position
True
>>> drill.answer == tuple(sorted(legal_captures(drill.card, drill.table), key=capture_key))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine.captures import CaptureCheck, check_capture, legal_captures
from ...engine.cards import DECK, Card, as_cards, format_cards
from ...engine.rules import ESCOBA, Rules, as_rules
from ...text.phrases import and_list
from ...text.translator import N_, Translator
from .. import given as giving
from .. import paper
from ..common import (
    ATTEMPTS,
    capture_key,
    check_seed,
    pick,
    seeded,
)
from ..kind import DrillKind, Outcome, Variety, WorksheetPart

# How often each kind of position comes up. A learner should mostly find something to capture, sometimes
# nothing at all (to practise "it stays on the table"), and often several captures (to practise seeing them all).
_CAPTURE_MIX = (("none", 0.15), ("one", 0.35), ("several", 0.50))
_MAX_SEVERAL = 5  # more captures than this is a search, not a lesson


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
    seed, rules = check_seed(seed), as_rules(rules)
    rng = seeded("captures", seed)
    want = pick(rng, _CAPTURE_MIX)
    for _attempt in range(ATTEMPTS):
        deck = list(DECK)
        rng.shuffle(deck)
        size = rng.randint(3, 8)
        table, card = tuple(deck[:size]), deck[size]
        answer = legal_captures(card, table, rules)
        found = "none" if not answer else "one" if len(answer) == 1 else "several"
        if found == want and len(answer) <= _MAX_SEVERAL:
            break
    return CaptureDrill(seed, rules, card, table, tuple(sorted(answer, key=capture_key)))


# ------------------------------------------------------------------------------------------------ worksheet
def _sum(_: Translator, card: Card, taken: Sequence[Card], rules: Rules) -> str:
    """``3 + 1 + 4 + 7 = 15``, a face card with its value: ``jack (8)``; Scopa adds the taken cards only."""
    def term(c: Card) -> str:
        return _("{figure} ({value})", figure=_.rank_name(c.rank), value=c.value) if c.is_figure else str(c.value)

    shown = (card, *taken) if rules.capture == "fifteen" else tuple(taken)
    return " + ".join(term(c) for c in shown) + f" = {sum(c.value for c in shown)}"


_SHEET = """
{% macro task(drill, you_play, on_table, lines) %}
  <li><p>{{ paper.number(drill) }} {{ you_play }} {{ paper.card(drill.card) }}</p>
  <p>{{ on_table }} {{ paper.cards(drill.table) }}</p>
  {% for _line in range(lines) %}<div class='line'></div>{% endfor %}</li>
{% endmacro %}

{% macro answer(drill, found, captures) %}
  <li>{{ paper.key_number(drill) }} {{ found }}
  {% if captures %}
    <ul>{% for capture in captures %}<li>{{ capture }}</li>{% endfor %}</ul>
  {% endif %}
  </li>
{% endmacro %}
"""


def _capture_task(_: Translator, drill: CaptureDrill) -> dict[str, object]:
    # a line for each capture there can be, the same for every exercise: fewer would hint at how many there are
    return {"you_play": _("You play:"), "on_table": _("On the table:"), "lines": _MAX_SEVERAL}


#: A capture that empties the table, by the rules' word for a sweep (``Rules.sweep``).
_SWEEP_CRY = {"escoba": N_("escoba!"), "scopa": N_("scopa!")}


def sweep_cry(_: Translator, rules: Rules) -> str:
    """What is said of a capture that empties the table under ``rules``: «¡escoba!», "scopa!"."""
    return _(_SWEEP_CRY[rules.sweep])


def _in_key_order(card: Card) -> tuple[int, Card]:
    return (-card.value, card)


def _capture_answer(_: Translator, drill: CaptureDrill) -> dict[str, object]:
    """Each capture with its sum, after the number of captures (or the card taking nothing)."""
    if not drill.answer:
        return {"found": _("{card:The} takes nothing: it stays on the table.", card=_.the_card(drill.card)),
                "captures": []}
    captures = []
    # each capture's cards highest value first, then by suit, and the captures by their values, then by suit: two
    # captures of the same values (which differ in a suit) show it in the same place, one under the other
    in_order = [tuple(sorted(capture, key=_in_key_order)) for capture in drill.answer]
    for taken in sorted(in_order, key=lambda cards: ([-c.value for c in cards], cards)):
        said = _("{card:The} takes {taken}", card=_.the_card(drill.card),
                 taken=and_list(_, [_.the_card(c) for c in taken]))
        # (each is a line of its own under "2 captures:", so it starts with a capital, as a sentence does)
        text = f"{said}: {_sum(_, drill.card, taken, drill.rules)}"
        if len(taken) == len(drill.table):
            text += " — " + sweep_cry(_, drill.rules)
        captures.append(text)
    # "5 captures" alone reads as if one play took all five: a play makes one, the one the player chooses
    return {"found": _.plural("{n} possible capture:", "{n} possible captures (a play makes only one of them):",
                              len(drill.answer)), "captures": captures}


def _shape(drill: CaptureDrill) -> str:
    return "none" if not drill.answer else "one" if len(drill.answer) == 1 else "several"


# A part mixes the three: "nothing" at most once (a sheet of "nothing" practises no capture), several first.
_VARIETY = Variety(_shape, lambda rules: ("several", "one", "none"), frozenset({"none"}))


def _outcome(result: Any) -> Outcome:
    if result.ok:
        return True, None
    if result.wrong:
        return False, result.wrong[0].reason
    return False, "missed_capture"


def _intro(_: Translator, rules: Rules) -> str:
    if rules.capture == "fifteen":
        said = _("Write every capture the card you play can make: the table cards that add up to 15 with it. If it "
                 "can make none, write “nothing”.")
    else:
        said = _("Write every capture the card you play can make: the table cards that add up to its own value (a "
                 "matching card must be taken alone). If it can make none, write “nothing”.")
    # (a list of every capture is no play: the card, when played, makes the one capture its player chooses)
    only_one = _("When it is played, the card makes only one of those captures, the one its player chooses: here "
                 "you list them all.")
    return f"{said} {only_one} {paper.capture_values(_)}"



def _given(_: Translator, drill: CaptureDrill, given: giving.Given) -> str:
    """The captures listed, each as its cards («sota de copas y tres de espadas»), in one order whatever the
    order they were listed in; "no capture" when none was."""
    listed = {frozenset(as_cards(taken)) for taken in given.get("built") or ()}
    if not listed:
        return _("no capture")
    return giving.joined([paper.names_of(_, sorted(c)) for c in sorted(listed, key=capture_key)])


KIND = DrillKind(
    name="captures",
    make=capture_drill,
    label=N_("captures (find every capture)"),
    column=N_("Captures"),
    lesson="02-captures",
    mistakes={
        "missed_capture": N_("Leaving out a capture the card could make"),
        "no_card": N_("Building a capture without the card that is played"),
        "card_not_in_hand": N_("Playing a card that is not in the hand"),
        "not_on_table": N_("Taking a card that is not on the table"),
        "must_capture": N_("Laying the card down when it could capture"),
        "wrong_sum": N_("Taking cards that do not make 15 with the card played"),
        "figure_face_value": N_("Counting a face card at its printed number (the jack as 10, not 8)"),
        "equal_card_first": N_("Not taking the matching card alone (Scopa)"),
        "table_alone_15": N_("Taking table cards that make 15 on their own, leaving out the card played"),
    },
    outcome=_outcome,
    worksheet=WorksheetPart(N_("Find every capture"), _intro, _SHEET, _capture_task, _capture_answer,
                            variety=_VARIETY),
    view="escoba_tutor.widgets.drills.captures:CapturesView",
    given=_given,
)
