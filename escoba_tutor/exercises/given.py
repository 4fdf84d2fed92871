"""What a learner gave, in a few words and no name: one line of the class exercise's spread of answers.

A class exercise's projected view lists the distinct answers the class gave, with how many students gave each
(escoba_tutor/server/class_exercise.py). A page sends its answer as the drill model holds it (``built``: the
captures listed, as lists of card codes; ``answers``: the texts typed; ``choices``: question -> option); each kind
turns it into words with its ``given`` function (:class:`escoba_tutor.exercises.kind.DrillKind`), built from the
pieces here, and :func:`escoba_tutor.exercises.registry.given_words` chooses the kind's.

A page sends what it likes: these pieces read any value without raising, and say what they cannot read as "no
answer" or "not a number". Typed text is never shown as it was typed (a nickname, a word not meant for the
projector): only the number read from it.

>>> from escoba_tutor.exercises import paper
>>> from escoba_tutor.text.translator import Translator
>>> _ = Translator("en")
>>> number(_, {"answers": [" 12 ", "twelve"]}, 0), number(_, {"answers": [" 12 ", "twelve"]}, 1)
('12', 'not a number')
>>> str(side(_, {"choices": {"taker": "1"}}, "taker", paper.side_names(_, 2))), side(_, {}, "taker", [])
('Side 2', 'no answer')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..text.translator import N_, Translator

__all__ = ["Given", "NO_ANSWER", "choice", "typed", "number", "side", "said", "joined"]

#: The answer as a page sent it: ``{"built": [[code, ...], ...], "answers": [text, ...], "choices": {q: option}}``.
Given = Mapping[str, Any]

NO_ANSWER = N_("no answer")
_NOT_A_NUMBER = N_("not a number")
_NOBODY = N_("Nobody")
_BOTH = N_("Both")


def choice(given: Given, question: str) -> str:
    """The option chosen for ``question`` ("" when none, or when it is not text)."""
    choices = given.get("choices")
    found = choices.get(question, "") if isinstance(choices, Mapping) else ""
    return found if isinstance(found, str) else ""


def typed(given: Given, index: int) -> str:
    """The text typed in box ``index`` ("" when none)."""
    answers = given.get("answers")
    found = answers[index] if isinstance(answers, Sequence) and 0 <= index < len(answers) else ""
    return found if isinstance(found, str) else ""


def number(_: Translator, given: Given, index: int) -> str:
    """The whole number typed in box ``index`` (``007`` is ``7``), "no answer" or "not a number"."""
    text = typed(given, index).strip()
    if not text:
        return _(NO_ANSWER)
    return str(int(text)) if text.isascii() and text.isdigit() and len(text) <= 4 else _(_NOT_A_NUMBER)


def side(_: Translator, given: Given, question: str, names: Sequence[str]) -> str:
    """The side chosen for ``question``: a side's name (option ``"0"``, ``"1"``...), "Nobody" (``"none"``),
    "Both" (``"both"``) or "no answer"."""
    key = choice(given, question)
    if key == "none":
        return _(_NOBODY)
    if key == "both":
        return _(_BOTH)
    if key.isascii() and key.isdigit() and int(key) < len(names):
        return names[int(key)]  # a label keeps the forms a sentence may ask of it («el bando 2»)
    return _(NO_ANSWER)


def said(_: Translator, question: str, answer: str) -> str:
    """One question's answer: ``Most coins: Side 1``."""
    return _("{question}: {answer}", question=question, answer=answer)


def joined(parts: Sequence[str]) -> str:
    """The answers to an exercise's questions, in one line."""
    return " · ".join(parts)
