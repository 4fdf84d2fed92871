"""Who wins the game: two sides' points before the last deal and in it (docs/rules.md §6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.rules import ESCOBA, Rules, as_rules
from ...text.translator import N_, Translator
from .. import given as giving
from .. import paper
from ..common import (
    ATTEMPTS,
    Answer,
    check_seed,
    check_side,
    pick,
    seeded,
)
from ..kind import DrillKind, Outcome, WorksheetPart


@dataclass(frozen=True)
class GameEndDrill:
    """The totals of a 2-side game before its last deal (``before``) and that deal's points (``points``):
    who has won, or is another deal played (``winner`` None)? docs/rules.md §6: add every deal, then look at the
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
        given = None if winner == "another_deal" else check_side(winner, 2, "who wins the game")
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


MAX_DEAL_POINTS = 6
_END_MIX = (("one_reaches", 0.25), ("both_reach", 0.25), ("tie_on_top", 0.30), ("none_reaches", 0.20))


def game_end_drill(seed: int, rules: Rules | str = ESCOBA) -> GameEndDrill:
    """Two sides' totals before a deal and the deal's points (0 to 5 each, 1 to ``MAX_DEAL_POINTS`` in all,
    as a real deal gives), around the rules' target: one side reaches it, both do (the higher total wins,
    whoever led before), both reach the same total (another deal), or nobody does.

    >>> drill = game_end_drill(3)           # 19 + 3 and 19 + 3: both reach 21, a tie at the top
    >>> drill.totals, drill.winner, drill.check(1).mistake
    ((22, 22), None, 'tie_plays_on')
    """
    seed, rules = check_seed(seed), as_rules(rules)
    rng = seeded("game_end", seed)
    want = pick(rng, _END_MIX)
    target = rules.target
    for _attempt in range(ATTEMPTS * 4):
        before = tuple(rng.randint(max(0, target - 9), target - 1) for _ in range(2))
        # A deal without escobas hands out 4 points in all (cards, oros, the seven of oros, the setenta); a
        # couple of escobas on top keeps the deal believable, 6 points at most between the two sides.
        points = tuple(rng.randint(0, 5) for _ in range(2))
        totals = [b + p for b, p in zip(before, points)]
        reached = [t >= target for t in totals]
        kind = ("none_reaches" if not any(reached) else "tie_on_top" if totals[0] == totals[1]
                else "both_reach" if all(reached) else "one_reaches")
        # In "both_reach" the side that led before the deal should not always be the winner.
        if kind == want and 0 < sum(points) <= MAX_DEAL_POINTS and (kind != "both_reach" or before[0] != before[1]):
            break
    return GameEndDrill(seed, rules, before, points)


# ------------------------------------------------------------------------------------------------ worksheet
_SHEET = """
{% macro task(drill, goal, names, rows, question, choices) %}
  <li><p>{{ paper.number(drill) }} {{ goal }}</p>
  <table><tr><th scope='col'></th>{% for name in names %}<th scope="col">{{ name }}</th>{% endfor %}</tr>
  {% for label, points in rows %}
    <tr><th scope='row'>{{ label }}</th>{% for n in points %}<td>{{ n }}</td>{% endfor %}</tr>
  {% endfor %}
  </table>
  {{ paper.boxes([question], choices) }}</li>
{% endmacro %}

{% macro answer(drill, said) %}<li>{{ paper.key_number(drill) }} {{ said }}</li>{% endmacro %}
"""


def _game_end_task(_: Translator, drill: GameEndDrill) -> dict[str, object]:
    names = paper.side_names(_, 2)
    goal = _.plural("The game is played to {target} point.", "The game is played to {target} points.", drill.target,
                    target=drill.target)
    return {"goal": goal, "names": names,
            "rows": [(_("Points before the last deal"), drill.before),
                     (_("Points scored in the last deal"), drill.points)],
            "question": _("Who has won?"), "choices": [*names, _("Nobody yet: another deal")]}


def _game_end_answer(_: Translator, drill: GameEndDrill) -> dict[str, object]:
    names = paper.side_names(_, 2)
    # a score, written as the course writes scores elsewhere ("a 5–5 tie"): an unspaced en dash
    totals = "–".join(str(t) for t in drill.totals)
    if drill.winner is not None:
        said = _("{totals}: {side} wins.", totals=totals, side=names[drill.winner])
    elif max(drill.totals) >= drill.target:
        said = _("{totals}: a tie at the top, so another deal is played.", totals=totals)
    else:
        said = _("{totals}: nobody has reached {target} yet, so another deal is played.", totals=totals,
                 target=drill.target)
    return {"said": said}


def _outcome(result: Any) -> Outcome:
    if not hasattr(result, "ok"):
        return False, "unanswered"
    if result.given is None:
        return None
    return (True, None) if result.ok else (False, result.mistake or "wrong_side")


def _intro(_: Translator, rules: Rules) -> str:
    return _("Add the last deal's points first, then see whether a side has reached the points the game is played "
             "to: if one side has, it wins; if both have, the higher total wins; if both have reached it with the "
             "same total, nobody has won yet and another deal is played.")



def _given(_: Translator, drill: GameEndDrill, given: giving.Given) -> str:
    """The side named the winner, or another deal."""
    if giving.choice(given, "winner") == "another_deal":
        return _("Nobody yet: another deal")
    if giving.choice(given, "winner") not in ("0", "1"):
        return _(giving.NO_ANSWER)
    return _("{side} wins", side=giving.side(_, given, "winner", paper.side_names(_, 2)))


KIND = DrillKind(
    name="game_end",
    make=game_end_drill,
    label=N_("game_end (who wins the game)"),
    column=N_("End of the game"),
    lesson="05-scoring",
    mistakes={
        "someone_won": N_("Asking for another deal when a side has already won"),
        "not_reached": N_("Naming a winner before anyone reaches the points to win"),
        "tie_plays_on": N_("Naming a winner when the top total is tied (another deal is played)"),
        "highest_wins": N_("Giving the game to a side that is past the target but not the highest"),
        "wrong_side": N_("Naming the wrong winner"),
    },
    outcome=_outcome,
    worksheet=WorksheetPart(N_("Who wins the game?"), _intro, _SHEET, _game_end_task, _game_end_answer,
                            answers=lambda drill: (drill.winner,)),
    view="escoba_tutor.widgets.drills.game_end:GameEndView",
    given=_given,
)
