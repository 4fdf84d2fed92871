"""Words for codes: what each error code of the engine (and of the widgets' own checks) means, in a sentence.

An :class:`~escoba_tutor.engine.errors.EscobaError` carries a short ``code`` and the data that explain it (``params``);
its English message is for developers. A widget says the problem with :func:`error_words`, from the one table
below, so a code has one wording everywhere. A code with no words would be shown as a plain "something is not
valid": that fallback warns (:class:`MissingWordsWarning`), and the tests turn the warning into a failure and
check that every code the engine can raise is in the table, in both languages.

>>> from escoba_tutor.text.translator import Translator
>>> error_words(Translator("es"), {"code": "duplicate_card", "card": "10c"})
'la sota de copas está dos veces: la baraja solo tiene una de cada carta'
>>> error_words(Translator("en"), {"code": "bad_card", "token": "8o", "hint_code": "spanish_no_8_9"})
'“8o” is not a card: the 40-card Spanish pack has no 8 or 9; the face cards are 10 (jack), 11 (knight) and 12 (king)'
>>> error_words(Translator("es"), {"code": "wrong_sum", "slip": "table_alone_15", "card": "3o", "sum": "18"})
'esas cartas de la mesa ya suman 15 solas, y tu carta también cuenta (con el tres de oros suman 18)'
"""

from __future__ import annotations

import string
import warnings
from typing import Any

from ..engine.errors import EscobaError
from .labels import Label
from .phrases import alternatives
from .translator import N_, Translator

__all__ = ["ERROR_WORDS", "SLIP_WORDS", "CARD_HINT_WORDS", "MissingWordsWarning", "error_words", "error_dict", "fill"]

_WRITE_CODES = N_("write codes like 7o, 10e, 12b (or 7D, JS, KC)")

#: Every error code the engine and the widgets raise, and its sentence (lowercase: it follows a colon).
ERROR_WORDS = {
    # cards
    "bad_card": N_("“{token}” is not a card: write codes like 7o, 10e, 12b (or 7D, JS, KC)"),
    "empty_card": N_("an empty space is not a card: write codes like 7o, 10e, 12b (or 7D, JS, KC)"),
    "not_text": N_("write the cards as text, like 7o 6c 1e 5b"),
    "no_cards": N_("no cards were given: write at least one, like 7o"),
    "duplicate_card": N_("{card} is written twice: the pack has only one"),
    "card_in_both": N_("{card} is both in the hand and on the table"),
    "card_in_two_places": N_("{card} is given twice: a card is in one place only"),
    "card_in_two_piles": N_("{card} is in two piles: each card is captured only once"),
    "card_on_table": N_("{card} lies on the table: only a card from a hand can be played"),
    "hand_too_big": N_("a hand holds at most 3 cards"),
    "table_too_big": N_("too many cards on the table"),
    "bad_hand_size": N_("here a hand holds 1 to 3 cards: it needs a card to play"),
    "bad_deck": N_("the pack must be the Spanish one or the French one"),
    # playing
    "illegal_move": N_("the rules do not allow that play"),
    "card_not_in_hand": N_("{card} is not in your hand"),
    "card_not_on_table": N_("you can only take cards that are on the table"),
    "wrong_sum": N_("those cards make {sum}, not {goal}"),
    "must_capture": N_("{card} can capture, so it must: it can take {legal}"),
    "equal_card_first": N_("with a matching card on the table, it must be taken alone: {legal}"),
    "bad_move_text": N_("write a play as a card and the cards it takes, like 3c+1o+4b+7o"),
    "game_over": N_("the game is over: start a new one or undo a play"),
    "not_your_turn": N_("wait: it is not your turn yet"),
    "nothing_to_undo": N_("you have no play to undo"),
    "bad_player": N_("there is no such player in this game"),
    "bad_dealer": N_("there is no such player to deal"),
    "player_count": N_("a game is for 2, 3 or 4 players"),
    "bad_position": N_("these cards cannot come from a real deal"),
    "bad_view": N_("the position must be a player's own view of a game"),
    "bad_mode": N_("the mode must be “Against the computer” or “Two students, one screen”"),
    "no_finished_deal": N_("no deal is finished yet: there is no play to review"),
    "bad_deal": N_("there is no such deal in this game"),
    # scoring
    "too_many_piles": N_("at most 4 piles to compare, one per player or side"),
    "side_count": N_("a deal is scored for 2 sides (two players, or four in teams of two) or 3 (three players)"),
    "bad_piles": N_("give one pile of cards per side, like [\"7o 6c 1e 5b\", \"7c 7e 6o\"]"),
    "bad_escobas": N_("escobas: one whole number per side, from 0 to 40"),
    "bad_totals": N_("game totals: one whole number per side"),
    "bad_score": N_("this is not the score of a deal"),
    "bad_facts": N_("the facts of a deal are not valid"),
    # rules
    "bad_rules": N_("these rules are not valid"),
    "unknown_profile": N_("there are no rules of that name"),
    "unknown_option": N_("these rules have an option the course does not know"),
    "rules_conflict": N_("these rules contradict each other: keep only one of them"),
    "rules_players": N_("these rules need another number of players"),
    # exercises and the computer's players
    "bad_seed": N_("the exercise number must be a whole number, 0 or more"),
    "bad_kind": N_("there is no exercise of that kind"),
    "no_escoba_de_mano": N_("these rules have no escoba de mano"),
    "no_house_rule": N_("none of this exercise's house rules can be combined with these rules"),
    "not_legal": N_("that play is not allowed here"),
    "bad_item": N_("there is no such line on the score sheet"),
    "bad_answer": N_("that answer cannot be checked: give it as the exercise asks"),
    "bad_count": N_("the number of exercises must be a whole number from 1 up"),
    "unknown_bot": N_("there is no computer player of that name"),
    "bot_count": N_("give one computer player per seat"),
    "bad_budget": N_("the computer's thinking time must be a positive number"),
    "bad_bot_move": N_("a computer player made a play the rules do not allow"),
    "game_count": N_("the number of games must be a whole number from 1 up"),
    "job_count": N_("the number of parallel runs must be a whole number from 1 up"),
    "trace_unwritable": N_("the trace file cannot be written"),
    # saved games
    "bad_save": N_("that is not a saved game of escoba-tutor"),
    "malformed_save": N_("that is not a saved game of escoba-tutor"),
    "save_too_large": N_("that is too long to be a saved game of escoba-tutor"),
    "empty_code": N_("the resume code is empty: paste the code you copied"),
    "bad_code_char": N_("a resume code has only letters and digits: a character may be mistyped"),
    "code_too_short": N_("the resume code is cut short: a part may be missing"),
    "checksum": N_("that code or file does not check out: a character may be mistyped or missing"),
    "future_version": N_("that save comes from a newer escoba-tutor: it cannot be loaded here"),
    "bad_language": N_("the language must be es (Spanish) or en (English)"),
    "error": N_("something in the input is not valid"),
}

#: Words for a ``slip`` the engine names on a refused play (a param of the error, more precise than its code).
SLIP_WORDS = {
    # The played card is part of the 15: the table cards chosen already make 15 without it.
    "table_alone_15": N_("those table cards already add up to 15 on their own, and your card counts too (with "
                         "{card} they make {sum})"),
}

#: The engine's hints for a mistyped card (``hint_code`` of a ``bad_card`` error); ``{fix}`` is the right code.
CARD_HINT_WORDS = {
    "spanish_no_8_9": N_("the Spanish pack has no 8 or 9; the face cards are 10 (jack), 11 (knight) and 12 (king)"),
    "french_no_8_9_10": N_("a French pack is used without its 8s, 9s and 10s"),
    "french_jack": N_("in a French pack the jack is J: write {fix}"),
    "french_figure": N_("in a French pack the queen (Q) stands for the knight, and K is the king: write {fix}"),
    "french_ace": N_("in a French pack the ace is A: write {fix}"),
    "spanish_suit_number": N_("with a Spanish suit letter, write the number: {fix}"),
    "french_rank_capital": N_("the French letters A, J, Q and K are capitals: {fix}"),
    "spanish_suit_lowercase": N_("Spanish suit letters are lowercase: {fix}"),
    "french_suit_capital": N_("French suit letters are capitals: {fix}"),
    "rank_range": N_("ranks go from 1 to 7, then 10, 11 and 12"),
    "add_suit": N_("add a suit: o (coins), c (cups), e (swords) or b (clubs)"),
}
_BAD_CARD_WITH_HINT = N_("“{token}” is not a card: {hint}")
_NOT_VALID = N_("something in the input is not valid")


class MissingWordsWarning(UserWarning):
    """A code reached the screen with no words of its own (the tests make this a failure)."""


def fill(_: Translator, message: str, params: dict[str, Any]) -> str:
    """A message with its placeholders filled from ``params``; one that is missing is left empty, never an error
    in front of the learner."""
    wanted = {name for _text, name, _spec, _conv in string.Formatter().parse(_(message)) if name}
    # (a missing label is an empty one: a form such as {winner:the} asked of it gives "")
    return _(message, **{name: params.get(name, Label("", "", "", "")) for name in wanted}) if wanted else _(message)


def _card_words(_: Translator, code: object) -> str:
    try:
        return _.the_card(str(code))
    except EscobaError:
        return str(code)


def missing_words(code: object) -> None:
    warnings.warn(f"the code {code!r} has no words in the message catalogs", MissingWordsWarning, stacklevel=3)


def error_words(_: Translator, error: dict[str, Any], words: dict[str, str] = ERROR_WORDS) -> str:
    """What went wrong, from an error's code and params (as :func:`error_dict` gives them), in one sentence part.

    ``words`` is a place's own table (codes it says differently, and ERROR_WORDS for the rest)."""
    code = error.get("code")
    params = {k: v for k, v in error.items() if k != "code"}
    if "card" in params:
        params["card"] = _card_words(_, params["card"])
    if "legal_captures" in error:
        params["legal"] = alternatives(_, error["legal_captures"])
    if code == "bad_card" and error.get("hint_code"):
        hint_code = error["hint_code"]
        if hint_code in CARD_HINT_WORDS:
            hint = fill(_, CARD_HINT_WORDS[hint_code], {"fix": error.get("suggestion", "")})
            return fill(_, _BAD_CARD_WITH_HINT, {**params, "hint": hint})
        missing_words(hint_code)
    slip = error.get("slip")
    if slip in SLIP_WORDS:
        return fill(_, SLIP_WORDS[slip], params)
    if code in words:
        return fill(_, words[code], params)
    missing_words(code)
    return _(_NOT_VALID)


def error_dict(error: EscobaError) -> dict[str, str]:
    """An engine error as a plain dict (code, English message, params as text) for a model's ``error`` trait."""
    return {"code": error.code, "message": str(error), **{k: str(v) for k, v in error.params.items()}}
