"""What a kind of exercise is: everything the course needs to know of it, in one value.

A kind lives in one file of :mod:`escoba_tutor.exercises.kinds` that ends with its :class:`DrillKind`: the
generator (a seed and the rules give the exercise, which carries its full answer and a ``check`` that judges a
learner's), how a check is recorded for the teacher's board (the mistake codes and their words, and the outcome
read from a check), its column on the board, its part of the printed worksheet, and where its widget view is.
The registry (:mod:`escoba_tutor.exercises.registry`) lists the kinds; docs/development.md says how to add one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine.rules import Rules
from ..text.translator import Translator

__all__ = ["DrillKind", "WorksheetPart", "Variety", "Outcome"]

#: What a check records: (right, the mistake code or None), or None when nothing at all was answered.
Outcome = tuple[bool, str | None] | None


def _always(rules: Rules) -> bool:
    return True


def _no_words(_: Translator, drill: Any) -> Mapping[str, object]:
    return {}


@dataclass(frozen=True)
class Variety:
    """The shapes a kind's answers take, so that a worksheet part mixes them (the captures: "nothing", one
    capture, several; the cards left: a deal that checks out, one that does not).

    - ``shape(drill)``: an exercise's shape, one of ``shapes(rules)``;
    - ``shapes(rules)``: every shape an exercise can have under ``rules``;
    - ``once``: the shapes a part has at most once (a "nothing" answer, a deal with a mistake in it).

    An exercise whose shape is none of ``shapes(rules)`` is left out of a part while others fit (a house rule
    shown on a deal where it changes nothing), even at the sheet's own number: the part then starts further on.

    A part of ``n`` exercises has each shape of ``once`` at most once and the other shapes as evenly as ``n``
    allows (:func:`escoba_tutor.exercises.worksheet.choose_seeds`).
    """

    shape: Callable[[Any], str]
    shapes: Callable[[Rules], tuple[str, ...]]
    once: frozenset[str] = frozenset()

    def caps(self, count: int, rules: Rules) -> dict[str, int]:
        """How many exercises of each shape a part of ``count`` may have: 1 for a shape of ``once``, the rest
        shared evenly among the other shapes (rounded up, so that the caps add up to ``count`` or more).

        >>> Variety(str, lambda rules: ("several", "one", "none"), frozenset({"none"})).caps(3, None)
        {'several': 1, 'one': 1, 'none': 1}
        >>> Variety(str, lambda rules: ("several", "one", "none"), frozenset({"none"})).caps(5, None)
        {'several': 2, 'one': 2, 'none': 1}
        """
        shapes = self.shapes(rules)
        others = [s for s in shapes if s not in self.once]
        if not others:  # (every shape rare: share them evenly)
            return {s: max(1, -(-count // len(shapes))) for s in shapes}
        each = max(1, -(-(count - (len(shapes) - len(others))) // len(others)))
        return {s: 1 if s in self.once else each for s in shapes}


@dataclass(frozen=True)
class WorksheetPart:
    """A kind's part of the printed worksheet (:mod:`escoba_tutor.exercises.worksheet`).

    - ``heading``: its heading (an ``N_`` message id);
    - ``intro``: what to do, in words under the rules of the sheet: ``intro(_, rules)``;
    - ``template``: its markup, a Jinja template (autoescape on) with two macros, ``task(drill, ...)`` (one
      exercise) and ``answer(drill, ...)`` (its worked answer), each an HTML list item (``<li>``). They place
      the drill's values and the words they are given, and build with the shared pieces (``paper.card(card)``,
      ``paper.cards``, ``paper.by_suit``, ``paper.boxes``, ``paper.blank``, ``paper.number(drill)``,
      ``paper.key_number(drill)``: :data:`escoba_tutor.exercises.paper.PIECES`). A line break in it, with the
      indentation after it, is for the reader only: the page has none;
    - ``task`` and ``answer``: ``(_, drill)`` to the words each macro takes besides the drill, by name, said
      with ``_`` in Python (the catalogs' extractor reads Python, not templates); none by default;
    - ``answers``: for a kind whose exercises often share one answer (the cards left: "Side 2, 10, it checks
      out"), ``answers(drill)``: its answer, one value per question. The worksheet then gives a part exercises
      whose answers differ (:func:`escoba_tutor.exercises.worksheet.choose_seeds`); None: the next exercises;
    - ``variety``: the shapes its answers take (:class:`Variety`), mixed in a part; None: any.
    """

    heading: str
    intro: Callable[[Translator, Rules], str]
    template: str
    task: Callable[[Translator, Any], Mapping[str, object]] = field(default=_no_words)
    answer: Callable[[Translator, Any], Mapping[str, object]] = field(default=_no_words)
    answers: Callable[[Any], tuple[object, ...]] | None = None
    variety: Variety | None = None


@dataclass(frozen=True)
class DrillKind:
    """One kind of exercise.

    - ``name``: its code, in addresses (``?kind=``), the records and the worksheet's ``--kinds``;
    - ``make``: the generator, ``make(seed, rules)``: the exercise, with its answer and its ``check`` (a kind may
      take keywords of its own after these, such as the house rules drill's ``only``);
    - ``label``: the kind in a learner's words, with its code, for the message that lists the kinds (marked
      with ``N_``: every text here is a catalog message id, translated where it is said);
    - ``column``: its column on the teacher's board;
    - ``lesson``: the lesson page whose drill shows it, where the board opens one of its exercises;
    - ``mistakes``: every mistake code a check can record (``unanswered`` aside, which every kind has), with
      the slip in general words, as a line of the board's list of mistakes;
    - ``outcome``: what a check recorded, from what the widget's check returned (see :data:`Outcome`);
    - ``worksheet``: its part of the printed worksheet;
    - ``view``: its widget view, ``"module:Class"`` (the widgets import it, this layer does not);
    - ``available``: whether the kind exists under some rules (Scopa has no escoba de mano);
    - ``given``: a learner's answer in a few words and no name, ``given(_, drill, answer)`` with the answer as the
      drill model holds it (:mod:`escoba_tutor.exercises.given`): a line of the class exercise's spread of
      answers, so that two students who gave the same answer get the same words; None: the spread shows only
      right and wrong for the kind.
    """

    name: str
    make: Callable[..., Any]  # (seed, rules, then the kind's own keywords)
    label: str
    column: str
    lesson: str
    mistakes: Mapping[str, str]
    outcome: Callable[[Any], Outcome]
    worksheet: WorksheetPart
    view: str
    available: Callable[[Rules], bool] = field(default=_always)
    given: Callable[[Translator, Any, Mapping[str, Any]], str] | None = None
