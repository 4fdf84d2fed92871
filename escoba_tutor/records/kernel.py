"""What a student's kernel tells the class records: drill answers, finished deals and games, lessons opened.

The widgets call these functions (a line each, in widgets/drills/base.py, widgets/game_table.py and
widgets/page.py); they build the event and hand it to :func:`escoba_tutor.records.recorder.recorder`, which
knows the student's nickname and the class database from the kernel's environment (set by the server for that
page, see escoba_tutor/server/kernels.py) and records nothing without a nickname. Records are only ever made
here, by the kernel's own code from the widget's own judgement: a page cannot send a record of its own.

Nothing here may slow down or break a click: every function catches everything, logs it on the
``escoba_tutor.records`` logger, and returns. No widget library is imported (the board's words for the mistake
codes below live in escoba_tutor/text/board_words.py, which the server reads without ipywidgets).

>>> drill_outcome("setenta", [{"state": "number", "check": None}])
(False, 'unanswered')
>>> drill_outcome("game_end", "nothing")
(False, 'unanswered')
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .events import Event

__all__ = ["MISTAKE_CODES", "drill_outcome", "record_drill_check", "record_game_progress", "record_lesson_opened",
           "lesson_of_page"]

log = logging.getLogger("escoba_tutor.records")

#: Every mistake code a drill check can be recorded with, per kind (the board has words for each: see
#: escoba_tutor/text/board_words.py and tests/test_class_board.py). ``unanswered``: checked with part of the
#: answer missing.
MISTAKE_CODES = {
    "captures": ("missed_capture", "no_card", "card_not_in_hand", "not_on_table", "must_capture", "wrong_sum",
                 "figure_face_value", "equal_card_first", "table_alone_15", "unanswered"),
    "setenta": ("missing_suit", "only_figures", "not_invalid", "figure_capture_value", "figure_printed",
                "wrong_best", "capture_values", "summed_all", "other", "not_a_number", "unanswered"),
    "points": ("cards", "cards_bonus", "oros", "siete_de_oros", "setenta", "primera", "all_sevens", "figuras",
               "unanswered"),
    "leftover": ("nobody_captured", "somebody_captured", "last_to_play", "not_last_capture", "figure_printed",
                 "wrong_total", "checks_out", "does_not_check_out", "unanswered"),
    "escoba_de_mano": ("figure_printed", "not_an_escoba", "missed", "one_not_two", "two_not_one", "nobody_scores",
                       "somebody_scores", "dealer_scores", "unanswered"),
    "strategy": ("costly", "unanswered"),
    "escobas": ("counted_leftover", "missed_escoba_de_mano", "wrong_count", "unanswered"),
    "game_end": ("someone_won", "not_reached", "tie_plays_on", "highest_wins", "wrong_side", "unanswered"),
}


def _first_slip(answers: Any) -> str:
    """The first real slip of item-by-item answers (``Answer``), else ``unanswered``."""
    slips = [a.mistake for a in answers if not a.ok]
    real = [s for s in slips if s and s != "unanswered"]
    return real[0] if real else "unanswered"


def drill_outcome(kind: str, result: Any) -> tuple[bool, str | None] | None:
    """A drill check as (right, mistake code or None); None when nothing at all was answered (not an answer).

    One check is one record: when several parts are wrong, the first slip names the mistake."""
    if kind == "captures":
        if result.ok:
            return True, None
        if result.wrong:
            return False, result.wrong[0].reason
        return False, "missed_capture"
    if kind == "setenta":
        states = [part["state"] for part in result]
        if all(state == "blank" for state in states):
            return None
        checks = [part.get("check") for part in result]
        if all(c is not None and c.ok for c in checks):
            return True, None
        slips = [c.mistake for c in checks if c is not None and not c.ok]
        if slips:
            return False, slips[0]
        return False, "not_a_number" if "bad" in states else "unanswered"
    if kind == "points":
        if all(c.given is None for c in result):
            return None
        if all(c.ok for c in result):
            return True, None
        wrong = [c.item for c in result if not c.ok and c.given is not None]
        return False, (wrong[0] if wrong else "unanswered")
    if kind in ("leftover", "escobas"):
        answers = result["answers"]
        if all(a.given is None for a in answers) and result.get("typed") in (None, [None] * len(answers)):
            return None
        return (True, None) if all(a.ok for a in answers) else (False, _first_slip(answers))
    if kind == "escoba_de_mano":
        if all(a.given is None for a in result):
            return None
        return (True, None) if all(a.ok for a in result) else (False, _first_slip(result))
    if kind == "game_end":
        if not hasattr(result, "ok"):
            return False, "unanswered"
        if result.given is None:
            return None
        return (True, None) if result.ok else (False, result.mistake or "wrong_side")
    if kind == "strategy":
        if not hasattr(result, "ok"):  # "unanswered": no move chosen
            return None
        return (True, None) if result.ok else (False, result.mistake or "costly")
    return None


def lesson_of_page() -> str | None:
    """The page this kernel serves, from the address Voilà gives the kernel (``.../render/es/03-escoba.ipynb``):
    ``03-escoba``; None outside a lesson page."""
    found = re.search(r"/render/(?:[a-z]{2}/)?([A-Za-z0-9._-]{1,60})\.ipynb$", os.environ.get("SCRIPT_NAME", ""))
    return found.group(1) if found else None


def _record(make_event: Callable[[str], Event]) -> None:
    """Build an event and record it; never raises (a failed record costs the student nothing)."""
    if not os.environ.get("ESCOBA_TUTOR_NICKNAME", "").strip():
        return  # no nickname: nothing to record, and the database library is never even loaded (nor on the site)
    try:
        from .recorder import recorder

        current = recorder()
        if current.nickname is None:
            return
        current.record(make_event(current.nickname))
    except Exception:  # noqa: BLE001 - the lesson goes on whatever broke; the server's log says what
        log.warning("a class record was not made", exc_info=True)


def record_drill_check(kind: str, seed: int, result: Any, rules: str | None = None) -> None:
    """A drill answer checked (``result``: what the kind's judge returned), on this page, under the ``rules`` of
    that name: the board's link to the exercise opens it there, under them."""
    try:
        outcome = drill_outcome(kind, result)
    except Exception:  # noqa: BLE001 - an unforeseen result shape: no record, the check itself stands
        log.warning("a %s check could not be read for the class records", kind, exc_info=True)
        return
    if outcome is None:
        return
    correct, mistake = outcome

    def event(nickname: str) -> Event:
        from .events import DrillAnswer
        from .rows import MAX_RULES  # a longer name is not kept: the exercise is recorded all the same

        return DrillAnswer(nickname, kind=kind, seed=int(seed), correct=correct, mistake=mistake,
                           lesson=lesson_of_page(), rules=rules if rules and len(rules) <= MAX_RULES else None)

    _record(event)


def record_lesson_opened(lang: str) -> None:
    """The page this kernel serves was opened (once per page load: one kernel per page)."""
    lesson = lesson_of_page()
    if lesson is None:
        return

    def event(nickname: str) -> Event:
        from .events import LessonOpened

        return LessonOpened(nickname, lesson=lesson, lang=lang)

    _record(event)


def record_game_progress(session: Any, recorded: tuple[Any, ...]) -> tuple[Any, ...]:
    """Record the deals (and the game) a session against the computer has finished since ``recorded``, what the
    last call returned (start with ``()``); returns what to pass next time. A game loaded from a save or a new
    game starts counting afresh: its deals played before are not this student's news."""
    try:
        game = session.game
        if not recorded or recorded[0] is not game:
            return (game, len(game.deals), game.is_over)
        _game, seen, over_seen = recorded
        if session.mode != "computer" or (len(game.deals) <= seen and over_seen == game.is_over):
            return (game, len(game.deals), game.is_over)
        side = 0  # the student is seat 0, whose side is 0 (with four players, seats 0 and 2 are side 0)
        level = session.level
        for deal in game.deals[seen:]:
            points = deal.score.points

            def deal_event(nickname: str, deal: Any = deal, points: Any = points) -> Event:
                from .events import DealFinished

                other = max((p for s, p in enumerate(points) if s != side), default=0)
                other_escobas = max((e for s, e in enumerate(deal.escobas) if s != side), default=0)
                return DealFinished(nickname, level=level, seed=game.seed, points_player=points[side],
                                    points_computer=other, escobas_player=deal.escobas[side],
                                    escobas_computer=other_escobas)

            _record(deal_event)
        if game.is_over and not over_seen:
            totals, winner = game.totals, game.winner

            def game_event(nickname: str) -> Event:
                from .events import GameFinished

                other = max((t for s, t in enumerate(totals) if s != side), default=0)
                won = None if winner is None else winner == side
                return GameFinished(nickname, level=level, seed=game.seed, points_player=totals[side],
                                    points_computer=other, won=won)

            _record(game_event)
        return (game, len(game.deals), game.is_over)
    except Exception:  # noqa: BLE001 - as _record: the game goes on
        log.warning("a finished deal was not recorded", exc_info=True)
        return recorded
