"""The teacher's board's words for codes that are not a kind of exercise's own: the computer's levels, and an
answer checked with part of it missing (every kind's ``unanswered``). Each kind's column and mistakes have their
words in its own file (:class:`escoba_tutor.exercises.kind.DrillKind`). And the words of the records' download
in the board's language (escoba_tutor/server/board_export.py): its columns and the values that are codes.

The board runs in the server process, with no widget library; its words are in the ``server`` catalogs.
"""

from __future__ import annotations

from .translator import N_, Translator

__all__ = ["LEVEL_WORDS", "UNANSWERED", "level_words", "CSV_HEADER", "CSV_EVENT_WORDS", "CSV_OUTCOME_WORDS",
           "CSV_LANGUAGE_WORDS", "CSV_YES", "CSV_NO", "CSV_FILE_NAME", "CSV_TABLE_EVENT_WORDS", "COMPUTER_SEAT"]

# "table": a game at a table of classmates (records/tables.py), recorded under that level
LEVEL_WORDS = {"random": N_("easy"), "greedy": N_("medium"), "expert": N_("hard"), "table": N_("against classmates")}

#: Any kind's ``unanswered``: checked with part of the answer missing.
UNANSWERED = N_("Checking with part of the answer missing")


def level_words(_: Translator, level: str) -> str:
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


#: A seat the computer played, as the board's tables and the download name it.
COMPUTER_SEAT = N_("the computer ({level})")


# -- the records' download, in words (escoba_tutor/server/board_export.py) ----------------------------------------

#: The header row: the machine-readable file's columns (records/export.py COLUMNS) in words and in their order,
#: with the minutes since the class started after the time; ``{zone}`` is the times' zone (``Europe/Madrid``).
CSV_HEADER = (N_("Class"), N_("Class started ({zone})"), N_("Date and time ({zone})"),
              N_("Minutes since the class started"), N_("Nickname"), N_("Activity"), N_("Kind of exercise"),
              N_("Level"), N_("Lesson"), N_("Language"), N_("Exercise or game number"), N_("Right answer"),
              N_("Mistake"), N_("Student's points"), N_("Computer's points"), N_("Student's escobas"),
              N_("Computer's escobas"), N_("Result"), N_("Rules"), N_("Table code"), N_("Partner"),
              N_("Other side"))
CSV_EVENT_WORDS = {"drill": N_("exercise checked"), "deal": N_("deal against the computer"),
                   "game": N_("game against the computer"), "lesson": N_("page opened")}
#: The activity of a deal or game at a table of classmates (level ``table``): not "against the computer".
CSV_TABLE_EVENT_WORDS = {"deal": N_("deal against classmates"), "game": N_("game against classmates")}
CSV_OUTCOME_WORDS = {"won": N_("won"), "lost": N_("lost")}  # (a game always has a winner: no "tied")
CSV_LANGUAGE_WORDS = {"es": N_("Spanish"), "en": N_("English")}
CSV_YES, CSV_NO = N_("yes"), N_("no")
#: The downloaded file's name, without ``.csv``.
CSV_FILE_NAME = N_("escoba-class-{name}")
