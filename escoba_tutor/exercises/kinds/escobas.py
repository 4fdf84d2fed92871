"""The escobas line of the score sheet: every capture of a deal; each side's escobas (docs/rules.md §3, §5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.cards import Card
from ...engine.errors import EscobaError
from ...engine.game import DealRecord, Game
from ...engine.rules import ESCOBA, ESCOBA_DE_MANO_TOTALS, Rules, as_rules
from ...text import labels
from ...text.phrases import the_cards
from ...text.translator import N_, Translator
from .. import given as giving
from .. import paper
from ..common import (
    ATTEMPTS,
    MAX_SEED,
    Answer,
    check_seed,
    form_outcome,
    is_whole,
    judged,
    play_deal,
    seeded,
)
from ..kind import DrillKind, WorksheetPart


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
                g is not None and not is_whole(g, 0, 40) for g in given):
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
            results.append(judged(f"side_{side}", number, right, slip))
        return tuple(results)

    def __str__(self) -> str:
        return f"deal of seed {self.seed}: escobas {self.escobas}"


def escobas_drill(seed: int, rules: Rules | str = ESCOBA) -> EscobasDrill:
    """A real 2-player deal (random legal moves from ``seed``); about two in three have at least one escoba,
    and most end with a leftover taken (the slip of counting it as an escoba is there to be made).

    >>> sum(sum(escobas_drill(s).escobas) > 0 for s in range(30)) > 15
    True
    """
    seed, rules = check_seed(seed), as_rules(rules)
    rng = seeded("escobas", seed)
    want_some = rng.random() < 0.7
    for attempt in range(ATTEMPTS):
        record = play_deal(Game(players=2, rules=rules, seed=(seed * 6007 + attempt) % (MAX_SEED + 1)), rng)
        if (sum(record.escobas) > 0) == want_some:
            break
    return EscobasDrill(seed, rules, record, tuple(record.escobas))


# ------------------------------------------------------------------------------------------------ worksheet
_SHEET = """
{% macro task(drill, dealt, head, captures, blanks) %}
  <li><p>{{ paper.number(drill) }} {{ dealt }}</p>
  <table><tr>{% for column in head %}<th scope="col">{{ column }}</th>{% endfor %}</tr>
  {% for capture in captures %}
    <tr>{% for said in capture %}<td>{{ said }}</td>{% endfor %}</tr>
  {% endfor %}
  </table>
  {% for label in blanks %}{{ paper.blank(label) }}{% endfor %}
  </li>
{% endmacro %}

{% macro answer(drill, said, note) %}<li>{{ paper.key_number(drill) }} {{ said }}. {{ note }}</li>{% endmacro %}
"""


def _escobas_task(_: Translator, drill: EscobasDrill) -> dict[str, object]:
    """Every capture of the deal as a row in words: who, the table before, the card played, the cards taken."""
    names, players = paper.side_names(_, 2), paper.player_names(_, 2)
    captures = []
    for what, side, before, card, taken in drill.captures:
        played = (_.card_name(card) if card is not None else _("the cards dealt") if what == "escoba_de_mano"
                  else _("— (the cards left at the end)"))
        captures.append((players[side], paper.names_of(_, before), played, paper.names_of(_, taken)))
    return {"dealt": _("{dealer} deals. Every capture of the deal, in order:", dealer=players[drill.record.dealer % 2]),
            "head": (_("Who"), _("Table before"), _("Plays"), _("Takes")), "captures": captures,
            "blanks": [_("{side}'s escobas:", side=name) for name in names]}


def _escobas_answer(_: Translator, drill: EscobasDrill) -> dict[str, object]:
    said = "; ".join(f"{name}: {n}" for name, n in zip(paper.side_names(_, 2), drill.escobas))
    # which rows swept, so that a wrong count is put right without working through the whole table again
    swept = sweeps(_, drill)
    listed = "; ".join(swept)
    which = (_.plural("The escoba: {sweeps}.", "The escobas: {sweeps}.", sum(drill.escobas), sweeps=listed)
             if swept else _("No play sweeps the table in this deal."))
    never = _("The cards left, taken at the end, are never an escoba.")
    return {"said": said, "note": f"{which} {never}"}


_DE_MANO = (N_("the escoba de mano {player:of}, who dealt and took {taken}"),
            N_("the two escobas de mano {player:of}, who dealt and took {taken}"))
_SWEPT = N_("{player:The} plays {card} and takes {taken}, leaving the table empty")
# The same said of the student, who may be a player ("you"): «tu escoba de mano», "your escoba de mano" and
# «juegas», never «la escoba de mano de ti», "of you", «tú juega».
YOU_FORMS = {
    _DE_MANO[0]: N_("your escoba de mano (you dealt and took {taken})"),
    _DE_MANO[1]: N_("your two escobas de mano (you dealt and took {taken})"),
    _SWEPT: N_("you play {card} and take {taken}, leaving the table empty"),
}


def _of(_: Translator, message: str, player: labels.Label, **params: object) -> str:
    if player.is_you:
        return _(YOU_FORMS[message], **params)
    return _(message, player=player, **params)


def sweeps(_: Translator, drill: EscobasDrill, players: Sequence[labels.Label] = ()) -> list[str]:
    """Each escoba of the deal in words, in order: the dealer's escoba de mano, then each play that swept.
    ``players`` name the two players (by default "Player 1", "Player 2"; either may be the student)."""
    record, players = drill.record, list(players) or paper.player_names(_, 2)
    said = []
    if record.dealer_escobas:  # (two when the cards dealt add up to 30)
        said.append(_of(_, _DE_MANO[record.dealer_escobas > 1], players[record.dealer % 2],
                        taken=the_cards(_, sorted(record.dealer_capture))))
    for play in record.plays:
        if play.escoba:
            said.append(_of(_, _SWEPT, players[play.player % 2], card=_.the_card(play.move.card),
                            taken=the_cards(_, sorted(play.move.captured))))
    return said


def _intro(_: Translator, rules: Rules) -> str:
    said = [_("A whole deal, capture by capture: count each side's escobas for the score sheet. Only the plays "
              "that capture are listed: a card laid down without taking anything has no row of its own, and shows "
              "up in the “Table before” column of the next row.")]
    # how many escobas the cards dealt are worth is the rules' (two for 30, or for 20 with the house rule)
    double = [total for total, escobas in ESCOBA_DE_MANO_TOTALS[rules.escoba_de_mano].items() if escobas == 2]
    if double:
        said.append(_("A row whose play is “the cards dealt” is the dealer's escoba de mano: it counts as one "
                      "escoba, or as two if the four cards add up to {total}.", total=double[0]))
    if rules.escoba_de_mano_pairs:  # (with the house rule, the dealer may take pairs of them instead)
        said.append(_("When such a row takes only some of the cards dealt, it counts as one escoba for each pair "
                      "adding up to 15 that it takes."))
    said.append(_("Taking the cards left at the end of the deal is never an escoba, even when it leaves the table "
                  "empty."))
    return " ".join([*said, paper.two_players(_)])



def _given(_: Translator, drill: EscobasDrill, given: giving.Given) -> str:
    """Each side's escobas, as typed."""
    names = paper.side_names(_, len(drill.escobas))
    return giving.joined([giving.said(_, name, giving.number(_, given, side)) for side, name in enumerate(names)])


KIND = DrillKind(
    name="escobas",
    make=escobas_drill,
    label=N_("escobas (the escobas line)"),
    column=N_("Escobas"),
    lesson="05-scoring",
    mistakes={
        "counted_leftover": N_("Counting the cards left at the end as an escoba"),
        "missed_escoba_de_mano": N_("Leaving out the dealer's escoba de mano"),
        "wrong_count": N_("Counting a side's escobas wrongly"),
    },
    outcome=form_outcome,
    # many deals have no escoba at all: each exercise of a part gives another count (0–0 at most once)
    worksheet=WorksheetPart(N_("The escobas line"), _intro, _SHEET, _escobas_task, _escobas_answer,
                            answers=lambda drill: (drill.escobas,)),
    view="escoba_tutor.widgets.drills.escobas:EscobasView",
    given=_given,
)
