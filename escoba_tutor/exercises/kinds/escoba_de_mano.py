"""The escoba de mano: the four cards dealt face up; how many escobas, and for whom (docs/rules.md §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.cards import DECK, Card, format_cards
from ...engine.errors import EscobaError
from ...engine.game import _pairs_of_15
from ...engine.rules import ESCOBA, Rules, as_rules
from ...text import labels
from ...text.translator import N_, Translator
from .. import given as giving
from .. import paper
from ..common import (
    ATTEMPTS,
    NOBODY,
    Answer,
    answers_outcome,
    check_seed,
    check_side,
    is_whole,
    judged,
    pick,
    seeded,
)
from ..kind import DrillKind, Outcome, WorksheetPart


@dataclass(frozen=True)
class EscobaDeManoDrill:
    """The four cards dealt face up at the start of a deal, and who dealt (``dealer``: a player). Is there an
    escoba de mano, how many escobas (``escobas``), and for whom (``side``: the dealer's side, None when none)?

    ``players`` is 2 (each player a side) or 4 (two pairs: players 0 and 2 against 1 and 3, docs/rules.md §2). In a
    pairs game the escoba de mano is the dealer side's (docs/rules.md §2): the dealer takes the cards for the pair,
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
        if escobas is not None and not is_whole(escobas, 0, 4):
            raise EscobaError(f"the escobas de mano are a whole number from 0 to 4, not {escobas!r}"[:80],
                              code="bad_answer")
        given_side = None if side in (None, NOBODY) else check_side(side, 2, "who scores the escoba de mano")
        if escobas is None or escobas == self.escobas:
            slip = ""
        elif self.escobas == 0:
            printed = self.rules.escobas_for_initial_table(sum(c.rank for c in self.table))
            slip = "figure_printed" if printed and any(c.is_figure for c in self.table) else "not_an_escoba"
        elif escobas == 0:
            slip = "missed"
        else:
            slip = "one_not_two" if self.escobas == 2 else "two_not_one"
        results = [judged("escobas", escobas, self.escobas, slip)]
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
    seed, rules = check_seed(seed), as_rules(rules)
    if rules.escoba_de_mano == "none":
        raise EscobaError("these rules have no escoba de mano: there is no such drill under them",
                          code="no_escoba_de_mano")
    rng = seeded("escoba_de_mano", seed)
    want = pick(rng, _MANO_MIX)
    two = next(t for t in (20, 30) if rules.escobas_for_initial_table(t) == 2)
    for _attempt in range(ATTEMPTS * 20):
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


# ------------------------------------------------------------------------------------------------ worksheet
def _mano_sides(_: Translator, drill: EscobaDeManoDrill) -> list[labels.Label]:
    """The sides: "Side 1" and "Side 2", or in a game of four "Team 1" and "Team 2"."""
    return [labels.team(_, n) for n in (1, 2)] if drill.players == 4 else paper.side_names(_, 2)


_SHEET = """
{% macro task(drill, dealt, how_many, who, choices) %}
  <li><p>{{ paper.number(drill) }} {{ dealt }} {{ paper.cards(drill.table) }}</p>
  {{ paper.blank(how_many) }}{{ paper.boxes([who], choices) }}</li>
{% endmacro %}

{% macro answer(drill, said) %}<li>{{ paper.key_number(drill) }} {{ said }}</li>{% endmacro %}
"""


def _escoba_de_mano_task(_: Translator, drill: EscobaDeManoDrill) -> dict[str, object]:
    names = _mano_sides(_, drill)
    if drill.players == 4:
        teams = _("A game of four, in teams of two: {first} (Players 1 and 3) against {second} (Players 2 and 4).",
                  first=names[0], second=names[1])
        dealt = teams + " " + _("Player {player} deals. The four cards face up on the table:", player=drill.dealer + 1)
    else:
        dealt = paper.two_players(_) + " " + _("{dealer} deals. The four cards face up on the table:",
                                                dealer=paper.player_names(_, 2)[drill.dealer])
    return {"dealt": dealt, "how_many": _("Escobas de mano (0, 1 or 2):"), "who": _("Who scores them?"),
            "choices": [*names, _("Nobody")]}


def _escoba_de_mano_answer(_: Translator, drill: EscobaDeManoDrill) -> dict[str, object]:
    names = _mano_sides(_, drill)
    total = paper.value_sum(_, drill.table)
    if drill.escobas and drill.players == 4:
        said = _.plural("{total}: {n} escoba de mano for {side}, the team of Player {player}, who dealt.",
                        "{total}: {n} escobas de mano for {side}, the team of Player {player}, who dealt.",
                        drill.escobas, total=total, side=names[drill.dealer_side], player=drill.dealer + 1)
    elif drill.escobas:
        said = _.plural("{total}: {n} escoba de mano for {side}, since {dealer} dealt.",
                        "{total}: {n} escobas de mano for {side}, since {dealer} dealt.", drill.escobas,
                        total=total, side=names[drill.dealer], dealer=paper.player_names(_, 2)[drill.dealer])
    else:
        said = _("{total}: no escoba de mano (0), so nobody scores one; the cards stay on the table.", total=total)
    return {"said": said}


def _outcome(result: Any) -> Outcome:
    if all(a.given is None for a in result):
        return None
    return answers_outcome(result)


_ESCOBAS_15_30 = N_("If the four cards dealt face up add up to 15, the dealer takes them: one escoba; if they add up "
                    "to 30, two.")


def _intro(_: Translator, rules: Rules) -> str:
    if rules.escoba_de_mano == "15/20":
        said = _("If the four cards dealt face up add up to 15, the dealer takes them: one escoba; if they add up "
                 "to 20, two. A table of 30 no longer gives an escoba de mano.")
    else:
        said = paper.word(_, _ESCOBAS_15_30)
    teams = _("In a game of four, the escobas de mano go to the dealer's team.")
    return " ".join((said, paper.capture_values(_), teams))



def _given(_: Translator, drill: EscobaDeManoDrill, given: giving.Given) -> str:
    """How many escobas de mano, and for whom."""
    escobas = giving.choice(given, "escobas")
    count = escobas if escobas in ("0", "1", "2") else _(giving.NO_ANSWER)
    return giving.joined([giving.said(_, _("Escobas de mano"), count),
                          giving.said(_, _("For"), giving.side(_, given, "side", _mano_sides(_, drill)))])


KIND = DrillKind(
    name="escoba_de_mano",
    make=escoba_de_mano_drill,
    label=N_("escoba_de_mano (the escoba de mano)"),
    column=N_("Escoba de mano"),
    lesson="03-escoba",
    mistakes={
        "figure_printed": N_("Seeing an escoba de mano by counting face cards at their printed numbers"),
        "not_an_escoba": N_("Seeing an escoba de mano where there is none"),
        "missed": N_("Missing the escoba de mano"),
        "one_not_two": N_("Counting one escoba de mano where there are two"),
        "two_not_one": N_("Counting two escobas de mano where there is one"),
        "nobody_scores": N_("Giving an escoba de mano to a side when nobody scores one"),
        "somebody_scores": N_("Saying nobody scores the escoba de mano when the dealer does"),
        "dealer_scores": N_("Giving the escoba de mano to the side that did not deal"),
    },
    outcome=_outcome,
    worksheet=WorksheetPart(N_("The escoba de mano"), _intro, _SHEET, _escoba_de_mano_task,
                            _escoba_de_mano_answer, answers=lambda drill: (drill.escobas, drill.players)),
    view="escoba_tutor.widgets.drills.escoba_de_mano:EscobaDeManoView",
    given=_given,
    available=lambda rules: rules.escoba_de_mano != "none",
)
