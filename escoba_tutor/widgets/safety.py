"""No silent failures: a widget callback that fails is logged on the server and told to the learner.

Voilà shows nothing of an exception raised in a widget callback (not on the page, not in the log), so every
callback of the views goes through :func:`guarded`.
"""

from __future__ import annotations

import functools
import logging

from ..text.translator import DEFAULT_LANGUAGE, Translator

__all__ = ["guarded", "report_failure"]

log = logging.getLogger("escoba_tutor.widgets")


def report_failure(view: object) -> None:
    """Tell the learner, in the view's status line, that something failed (the log has the details)."""
    _ = Translator(getattr(view, "lang", DEFAULT_LANGUAGE) or DEFAULT_LANGUAGE)
    said = _("Something went wrong. If the page stops answering, reload it.")
    say = getattr(view, "say_failure", None)  # a view whose status line follows a model of its own
    if say is not None:
        say(said)
        return
    region = getattr(view, "_status", None) or getattr(view, "_announce", None)
    if region is not None:
        region.message = said


def guarded(method):
    """Run a view's callback; an unexpected error is logged with its traceback and reported on the page."""

    @functools.wraps(method)
    def run(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception:  # noqa: BLE001 - the learner must see a message, the server log gets the traceback
            log.exception("%s.%s failed", type(self).__name__, method.__name__)
            try:
                report_failure(self)
            except Exception:  # noqa: BLE001 - reporting must never raise in its turn
                log.exception("reporting the failure failed")
            return None

    return run
