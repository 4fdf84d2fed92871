"""The class board's words for what the records hold as codes: drill kinds, the computer's levels, and every
mistake code a drill check is recorded with (``MISTAKE_CODES`` of escoba_tutor/records/kernel.py).

The drills say a learner's slip about one position («la sota de bastos cuenta 8»), in the views of
widgets/drills/, which need ipywidgets; the board speaks of the class and runs in the server process, so it
says each slip in general, here, with no widget library (its messages are in the ``server`` catalogs).
"""

from __future__ import annotations

from .translator import N_, Translator

__all__ = ["KIND_WORDS", "LEVEL_WORDS", "MISTAKE_WORDS", "kind_words", "level_words", "mistake_words"]

KIND_WORDS = {"captures": N_("Captures"), "setenta": N_("Setenta"), "points": N_("Points"),
              "leftover": N_("Cards left over"), "escoba_de_mano": N_("Escoba de mano"),
              "strategy": N_("Strategy"), "escobas": N_("Escobas"), "game_end": N_("End of the game")}

LEVEL_WORDS = {"random": N_("easy"), "greedy": N_("medium"), "expert": N_("hard")}

_UNANSWERED = N_("Checking with part of the answer missing")

#: (kind, code) -> the slip in general words, as a line of the board's list of mistakes.
MISTAKE_WORDS = {
    ("captures", "missed_capture"): N_("Leaving out a capture the card could make"),
    ("captures", "no_card"): N_("Building a capture without the card that is played"),
    ("captures", "card_not_in_hand"): N_("Playing a card that is not in the hand"),
    ("captures", "not_on_table"): N_("Taking a card that is not on the table"),
    ("captures", "must_capture"): N_("Laying the card down when it could capture"),
    ("captures", "wrong_sum"): N_("Taking cards that do not make 15 with the card played"),
    ("captures", "figure_face_value"): N_("Counting a face card at its printed number (the jack as 10, not 8)"),
    ("captures", "equal_card_first"): N_("Not taking the equal card alone (Scopa)"),
    ("captures", "table_alone_15"): N_("Taking table cards that make 15 on their own, leaving out the card played"),
    ("setenta", "missing_suit"): N_("A number for a pile that lacks a suit (its setenta is invalid)"),
    ("setenta", "only_figures"): N_("A number for a pile that holds a suit only in face cards, which do not "
                                    "count here"),
    ("setenta", "not_invalid"): N_("Saying “invalid” for a pile that has every suit"),
    ("setenta", "figure_capture_value"): N_("Counting face cards at their capture value (jack 8, knight 9), not "
                                            "10"),
    ("setenta", "figure_printed"): N_("Counting face cards at their printed number (knight 11, king 12), not 10"),
    ("setenta", "wrong_best"): N_("Taking a suit's highest-numbered card instead of its best one (a king "
                                  "instead of an ace)"),
    ("setenta", "capture_values"): N_("Adding the capture values instead of the setenta values"),
    ("setenta", "summed_all"): N_("Adding every card, not only the best card of each suit"),
    ("setenta", "other"): N_("A wrong setenta that none of the usual slips explains"),
    ("setenta", "not_a_number"): N_("Writing something that is neither a number nor “invalid”"),
    ("points", "cards"): N_("Giving the point for the most cards to the wrong side"),
    ("points", "cards_bonus"): N_("Giving the cards bonus to the wrong side"),
    ("points", "oros"): N_("Giving the point for the most coins to the wrong side"),
    ("points", "siete_de_oros"): N_("Giving the seven of coins to the wrong side"),
    ("points", "setenta"): N_("Giving the setenta to the wrong side"),
    ("points", "primera"): N_("Giving the primera to the wrong side"),
    ("points", "all_sevens"): N_("Giving the four sevens bonus to the wrong side"),
    ("points", "figuras"): N_("Giving the face cards point to the wrong side"),
    ("leftover", "nobody_captured"): N_("Giving the cards left over to a side when nobody captured"),
    ("leftover", "somebody_captured"): N_("Saying nobody takes the cards left over when someone captured"),
    ("leftover", "last_to_play"): N_("Giving the cards left over to the last to play, not the last to capture"),
    ("leftover", "not_last_capture"): N_("Giving the cards left over to a side that did not capture last"),
    ("leftover", "figure_printed"): N_("Adding the face cards left over at their printed numbers"),
    ("leftover", "wrong_total"): N_("Adding up the cards left over wrongly"),
    ("leftover", "checks_out"): N_("Saying the deal does not check out when it does"),
    ("leftover", "does_not_check_out"): N_("Saying the deal checks out when it does not"),
    ("escoba_de_mano", "figure_printed"): N_("Seeing an escoba de mano by counting face cards at their printed "
                                             "numbers"),
    ("escoba_de_mano", "not_an_escoba"): N_("Seeing an escoba de mano where there is none"),
    ("escoba_de_mano", "missed"): N_("Missing the escoba de mano"),
    ("escoba_de_mano", "one_not_two"): N_("Counting one escoba de mano where there are two"),
    ("escoba_de_mano", "two_not_one"): N_("Counting two escobas de mano where there is one"),
    ("escoba_de_mano", "nobody_scores"): N_("Giving an escoba de mano to a side when nobody scores one"),
    ("escoba_de_mano", "somebody_scores"): N_("Saying nobody scores the escoba de mano when the dealer does"),
    ("escoba_de_mano", "dealer_scores"): N_("Giving the escoba de mano to the side that did not deal"),
    ("strategy", "costly"): N_("Choosing a move that costs points against the best one"),
    ("escobas", "counted_leftover"): N_("Counting the cards left over at the end as an escoba"),
    ("escobas", "missed_escoba_de_mano"): N_("Leaving out the dealer's escoba de mano"),
    ("escobas", "wrong_count"): N_("Counting a side's escobas wrongly"),
    ("game_end", "someone_won"): N_("Asking for another deal when a side has already won"),
    ("game_end", "not_reached"): N_("Naming a winner before anyone reaches the points to win"),
    ("game_end", "tie_plays_on"): N_("Naming a winner in a tie, which plays on"),
    ("game_end", "highest_wins"): N_("Giving the game to a side that is past the target but not the highest"),
    ("game_end", "wrong_side"): N_("Naming the wrong winner"),
}


def kind_words(_: Translator, kind: str) -> str:
    return _(KIND_WORDS[kind]) if kind in KIND_WORDS else kind


def level_words(_: Translator, level: str) -> str:
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


def mistake_words(_: Translator, kind: str, code: str) -> str:
    """The slip in words; a code the board does not know (a newer kernel's) is shown as it is."""
    if code == "unanswered":
        return _(_UNANSWERED)
    words = MISTAKE_WORDS.get((kind, code))
    return _(words) if words else code
