"""What a student's kernel tells the class records: drill answers, finished deals and games, lessons opened.

The widgets call these functions (a line each, in widgets/drills/base.py, widgets/game_table.py and
widgets/page.py); they build the event and hand it to :func:`escoba_tutor.records.recorder.recorder`, which
knows the student's nickname, the course server's records endpoint and this kernel's token from the kernel's
environment (set by the server for that page, see escoba_tutor/server/kernels.py), sends the event there from a
thread of its own, and records nothing without a nickname. Records are only ever made
here, by the kernel's own code from the widget's own judgement: a page cannot send a record of its own.

Nothing here may slow down or break a click: every function catches everything, logs it on the
``escoba_tutor.records`` logger, and returns. No widget library is imported. What a drill's check records (right,
or which mistake) is read by the kind of exercise itself (:class:`escoba_tutor.exercises.DrillKind`'s
``outcome``), which the widget hands in: the records know no kind of exercise.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .events import Event

__all__ = ["record_drill_check", "record_game_progress", "record_lesson_opened", "lesson_of_page"]

log = logging.getLogger("escoba_tutor.records")


def lesson_of_page() -> str | None:
    """The page this kernel serves, from the address Voilà gives the kernel (``.../render/es/03-escoba.ipynb``):
    ``03-escoba``; None outside a lesson page."""
    found = re.search(r"/render/(?:[a-z]{2}/)?([A-Za-z0-9._-]{1,60})\.ipynb$", os.environ.get("SCRIPT_NAME", ""))
    return found.group(1) if found else None


def _record(make_event: Callable[[str], Event]) -> None:
    """Build an event and record it; never raises (a failed record costs the student nothing)."""
    if not os.environ.get("ESCOBA_TUTOR_NICKNAME", "").strip():
        return  # no nickname: nothing to record, and the recorder is never even loaded (nor on the site)
    try:
        from .recorder import recorder

        current = recorder()
        if current.nickname is None:
            return
        current.record(make_event(current.nickname))
    except Exception:  # noqa: BLE001 - the lesson goes on whatever broke; the server's log says what
        log.warning("a class record was not made", exc_info=True)


def record_drill_check(kind: str, seed: int, result: Any, outcome: Callable[[Any], Any],
                       rules: str | None = None) -> None:
    """A drill answer checked (``result``: what the kind's judge returned, read by the kind's ``outcome``), on this
    page, under the ``rules`` of that name: the board's link to the exercise opens it there, under them."""
    try:
        read = outcome(result)
    except Exception:  # noqa: BLE001 - an unforeseen result shape: no record, the check itself stands
        log.warning("a %s check could not be read for the class records", kind, exc_info=True)
        return
    if read is None:
        return
    correct, mistake = read

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
                won = winner == side  # (the game is over: it has a winner)
                return GameFinished(nickname, level=level, seed=game.seed, points_player=totals[side],
                                    points_computer=other, won=won)

            _record(game_event)
        return (game, len(game.deals), game.is_over)
    except Exception:  # noqa: BLE001 - as _record: the game goes on
        log.warning("a finished deal was not recorded", exc_info=True)
        return recorded
