"""The teacher's board's words for codes that are not a kind of exercise's own: the computer's levels, and an
answer checked with part of it missing (every kind's ``unanswered``). Each kind's column and mistakes have their
words in its own file (:class:`escoba_tutor.exercises.kind.DrillKind`).

The board runs in the server process, with no widget library; its words are in the ``server`` catalogs.
"""

from __future__ import annotations

from .translator import N_, Translator

__all__ = ["LEVEL_WORDS", "UNANSWERED", "level_words"]

LEVEL_WORDS = {"random": N_("easy"), "greedy": N_("medium"), "expert": N_("hard")}

#: Any kind's ``unanswered``: checked with part of the answer missing.
UNANSWERED = N_("Checking with part of the answer missing")


def level_words(_: Translator, level: str) -> str:
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level
