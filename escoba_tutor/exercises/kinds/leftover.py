"""The cards left at the end of a deal: who takes them, what they add up to, and does the deal check out
(docs/rules.md §4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.captures import check_capture
from ...engine.cards import DECK, Card, format_cards
from ...engine.errors import EscobaError
from ...engine.game import DealRecord, Game
from ...engine.rules import ESCOBA, Rules, as_rules
from ...text.phrases import the_cards
from ...text.translator import N_, Translator
from .. import given as giving
from .. import paper
from ..common import (
    ATTEMPTS,
    MAX_SEED,
    NOBODY,
    Answer,
    check_seed,
    check_side,
    form_outcome,
    is_whole,
    judged,
    play_deal,
    plays_of,
    seeded,
)
from ..kind import DrillKind, Variety, WorksheetPart
from .captures import sweep_cry


@dataclass(frozen=True)
class LeftoverDrill:
    """The end of a real deal: its last plays (``plays``, each (side, card, cards taken)) and the cards left on
    the table. Who takes them (``taker``, None: nobody captured in the whole deal)? Under the Escoba capture
    rule, also: what do they add up to (``total``), and does the deal check out (``checks_out``: a leftover of
    10, 25, 40, 55... is congruent to 10 modulo 15)? A position that does not check out shows the table as a
    miscount would leave it: one card swapped for a card of another value, a card that lay on the table before
    the plays shown (never one the plays show laid down), so the plays and the cards left still agree, and the
    card swapped in is one beside which every play shown stays legal (no card shown laid down could have taken it).

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
    def sweeps(self) -> tuple[bool, ...]:
        """For each of ``plays``, whether it swept the table (an escoba): read back from the cards left, as a
        student reads it (after a capture the table holds the cards laid down since). The deal's very last play
        sweeps only where the rules count it (``last_play_escoba``)."""
        after, found = list(self.table), []
        for n, (_side, card, taken) in enumerate(reversed(self.plays)):
            found.append(bool(taken) and not after and (n > 0 or self.rules.last_play_escoba))
            after = [*after, *taken] if taken else [c for c in after if c != card]
        return tuple(reversed(found))

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
            taker_side = check_side(taker, sides, "who takes the leftover")
        if total is not None and not is_whole(total, 0, 999):
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
            results.append(judged("total", total, self.total, slip))
            results.append(judged("checks_out", checks_out, self.checks_out,
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
    seed, rules = check_seed(seed), as_rules(rules)
    rng = seeded("leftover", seed)
    want_laid_last = rng.random() < 0.5
    for attempt in range(ATTEMPTS):
        record = play_deal(Game(players=2, rules=rules, seed=(seed * 7919 + attempt) % (MAX_SEED + 1)), rng)
        last = record.plays[-1]
        # "laid last": the side that played last laid its card down and is not the one that takes the leftover
        laid_last = not last.move.captured and last.player % 2 != record.leftover_to
        if record.leftover and laid_last == want_laid_last:
            break
    plays = plays_of(record)
    last_capture = max((i for i, p in enumerate(plays) if p[2]), default=0)
    first_shown = max(0, min(last_capture, len(plays) - _SHOWN_PLAYS))
    plays, before = plays[first_shown:], record.tables()[first_shown]
    table = tuple(sorted(record.leftover))
    checks_out: bool | None = None
    total: int | None = None
    if rules.capture == "fifteen":
        checks_out = True
        # the miscount happened before the plays shown: the card swapped out lay on the table before them (a
        # card the plays show laid down must still be there at the end), and the card swapped in appears nowhere
        shown = {c for _side, card, taken in plays for c in (card, *taken)}
        earlier = [c for c in table if c not in shown]
        swap_out = rng.choice(earlier) if rng.random() < 0.25 and earlier else None
        if swap_out is not None:
            # and the card swapped in leaves every play shown legal: with it on the table, a card shown laid
            # down must not have been able to capture (a renuncio the rules forbid)
            others = [c for c in DECK if c.value != swap_out.value and c not in table and c not in shown
                      and _legal_from([c if t == swap_out else t for t in before], plays, rules)]
            if others:  # (else the deal is shown as it was, and checks out)
                table = tuple(sorted([*(c for c in table if c != swap_out), rng.choice(others)]))
                checks_out = False
        total = sum(c.value for c in table)
    return LeftoverDrill(seed, rules, plays, table, record.leftover_to, total, checks_out, record)


def _legal_from(table: Sequence[Card], plays: Sequence[tuple[int, Card, tuple[Card, ...]]], rules: Rules) -> bool:
    """Whether each of ``plays``, made in turn from ``table``, is one the engine allows."""
    now = list(table)
    for _side, card, taken in plays:
        if not check_capture(card, taken, now, rules).ok:
            return False
        now = [c for c in now if c not in taken] if taken else [*now, card]
    return True


# ------------------------------------------------------------------------------------------------ worksheet
def _play_text(_: Translator, rules: Rules, players: Sequence[str], side: int, card: Card, taken: Sequence[Card],
               sweep: bool) -> str:
    if taken and sweep:
        return _("{side} plays {card} and takes {taken}: {sweep}", side=players[side], card=_.the_card(card),
                 taken=the_cards(_, taken), sweep=sweep_cry(_, rules))
    if taken:
        return _("{side} plays {card} and takes {taken}.", side=players[side], card=_.the_card(card),
                 taken=the_cards(_, taken))
    return _("{side} plays {card}: it stays on the table.", side=players[side], card=_.the_card(card))


_SHEET = """
{% macro task(drill, last, plays, left, who_takes, choices, total=none) %}
  <li><p>{{ paper.number(drill) }} {{ last }}</p>
  <ol>{% for play in plays %}<li>{{ play }}</li>{% endfor %}</ol>
  <p>{{ left }} {{ paper.cards(drill.table) }}</p>
  {{ paper.boxes([who_takes], choices) }}
  {% if total %}
    {{ paper.blank(total.adds_up_to) }}{{ paper.boxes([total.checks_out], total.choices) }}
  {% endif %}
  </li>
{% endmacro %}

{% macro answer(drill, said) %}<li>{{ paper.key_number(drill) }} {{ said }}</li>{% endmacro %}
"""


def _leftover_task(_: Translator, drill: LeftoverDrill) -> dict[str, object]:
    names, players = paper.side_names(_, 2), paper.player_names(_, 2)
    words: dict[str, object] = {
        "last": _("The last plays of the deal:"), "plays": [_play_text(_, drill.rules, players, *play, sweep)
                                                     for play, sweep in zip(drill.plays, drill.sweeps)],
        "left": _("Left on the table at the end:"), "who_takes": _("Who takes the cards left?"),
        "choices": [*names, _("Nobody")]}
    if "total" in drill.items:
        words["total"] = {"adds_up_to": _("What do they add up to?"), "checks_out": _("Does the deal check out?"),
                          "choices": [_("Yes"), _("No")]}
    return words


def _leftover_answer(_: Translator, drill: LeftoverDrill) -> dict[str, object]:
    names = paper.side_names(_, 2)
    if drill.taker is None:
        who = _("Nobody: nobody captured in the whole deal.")
    else:
        who = _("{side}, the last side to capture.", side=names[drill.taker])
    lines = [who]
    if drill.total is not None:
        if len(drill.table) == 1:  # one card adds up to nothing: its value alone ("king (10) = 10" says nothing)
            lines.append(_("Only {card} is left: {total}.", card=_.the_card(drill.table[0]), total=drill.total))
        else:  # the addition itself ("2 + jack (8) = 10"), so that a student with another total sees where it differs
            lines.append(_("They add up to {total}.", total=paper.value_sum(_, drill.table)))
        lines.extend(fifteen_check(_, drill.total))
    return {"said": " ".join(lines)}


_TAKE_AWAY = {1: N_("Take away 15 once: {steps}."), 2: N_("Take away 15 twice: {steps}.")}
_TAKE_AWAY_MORE = N_("Take away 15 as many times as you can: {steps}.")


def fifteen_check(_: Translator, total: int) -> list[str]:
    """The 15 check of the cards left, as lesson 4 does it: take away 15 while you can, and you must end at 10.
    «Se quita 15 dos veces: 40 − 15 = 25, 25 − 15 = 10. Sale 10, así que la mano cuadra.»"""
    times, rest = divmod(total, 15)
    steps = ", ".join(f"{total - 15 * i} − 15 = {total - 15 * (i + 1)}" for i in range(times))
    # (how often in words, never a figure beside the 15: «Se quita 15 2 veces» reads as one number)
    lines = [_(_TAKE_AWAY.get(times, _TAKE_AWAY_MORE), steps=steps)
             if times else _("As that is less than 15, there is nothing to take away.")]
    lines.append(_("It ends at 10, so the deal checks out.") if rest == 10 else
                 _("It ends at {rest}, not 10, so the deal does not check out: a mistake was made earlier in the "
                   "deal, not in the plays shown (a capture that did not make 15, or a card missing or counted twice).",
                   rest=rest))
    return lines


def _intro(_: Translator, rules: Rules) -> str:
    if rules.escoba_de_mano == "none":
        who = _("The cards left on the table at the end of the deal go to the last side that captured, or to nobody "
                "if nobody captured in the whole deal.")
    else:  # a deal where only the dealer took the four cards laid face up has a last capture, the dealer's
        who = _("The cards left on the table at the end of the deal go to the last side that captured (an escoba de "
                "mano counts as a capture by the dealer's side), or to nobody if nobody captured in the whole deal.")
    check = _("With the standard Escoba rules they always add up to 10 more than a multiple of 15 (10, 25, 40, "
              "55…): if not, somebody made a mistake. To check, take away 15 as many times as you can: the deal "
              "checks out if 10 is left.")
    return " ".join((who, check, paper.capture_values(_), paper.two_players(_)))


# Under the Escoba capture rule a part has one deal that does not check out (the 15-check at work) among
# deals that do; never two, the mistake is the exception.
_VARIETY = Variety(lambda drill: "mistake" if drill.checks_out is False else "checks",
                   lambda rules: ("checks", "mistake") if rules.capture == "fifteen" else ("checks",),
                   frozenset({"mistake"}))



def _given(_: Translator, drill: LeftoverDrill, given: giving.Given) -> str:
    """Who takes the cards left, and under the 15 their total and whether the deal checks out."""
    parts = [giving.said(_, _("Cards left go to"), giving.side(_, given, "taker", paper.side_names(_, 2)))]
    if "total" in drill.items:
        checks = {"yes": _("it checks out"), "no": _("it does not check out")}.get(giving.choice(given, "checks_out"),
                                                                                  _(giving.NO_ANSWER))
        parts += [giving.said(_, _("Total"), giving.number(_, given, 0)), checks]
    return giving.joined(parts)


KIND = DrillKind(
    name="leftover",
    make=leftover_drill,
    label=N_("leftover (the cards left at the end)"),
    column=N_("Cards left at the end"),
    lesson="04-end-of-deal",
    mistakes={
        # (each slip its own words on the board: "Saying" here, "Giving" in the dealing exercise)
        "nobody_captured": N_("Saying a side takes the cards left at the end, though nobody captured"),
        "somebody_captured": N_("Saying nobody takes the cards left at the end, although someone captured"),
        "last_to_play": N_("Saying the last side to play takes the cards left at the end, not the last to capture"),
        "not_last_capture": N_("Saying a side that did not capture last takes the cards left at the end"),
        "figure_printed": N_("Counting the face cards left at the end at their printed numbers"),
        "wrong_total": N_("Adding up the cards left at the end wrongly"),
        "checks_out": N_("Saying the deal does not check out when it does"),
        "does_not_check_out": N_("Saying the deal checks out when it does not"),
    },
    outcome=form_outcome,
    worksheet=WorksheetPart(N_("The cards left at the end"), _intro, _SHEET, _leftover_task,
                            _leftover_answer, answers=lambda drill: (drill.taker, drill.total, drill.checks_out),
                            variety=_VARIETY),
    view="escoba_tutor.widgets.drills.leftover:LeftoverView",
    given=_given,
)
