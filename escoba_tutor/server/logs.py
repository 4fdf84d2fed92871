"""No error loop floods the log: repeated lines are collapsed into a count.

A page that sends 20,000 refused messages, or a server out of file handles retrying an accept, used to write one
line each (623,499 identical lines, 355 MB, in one probe). :class:`RepeatFilter` lets the first few warnings and
errors of a kind (and access lines) through in each window of time and then one line that says how many were left
out. Lines are of one kind when they differ only in numbers and ids (the times and sizes of an access line, a
kernel's id). Lines below warnings (a kernel started, a page served) all go through.

>>> import logging
>>> clock = iter(range(100)).__next__
>>> flt = RepeatFilter(burst=2, window=10, clock=lambda: 0)
>>> records = [logging.makeLogRecord({"msg": f"refused message {i} from kernel 3f2a9c", "levelno": 30})
...            for i in range(5)]
>>> [flt.filter(r) for r in records]
[True, True, False, False, False]
>>> flt.clock = lambda: 11  # a new window: the next line says how many were left out
>>> late = logging.makeLogRecord({"msg": "refused message 9 from kernel 3f2a9c", "levelno": 30})
>>> flt.filter(late), late.getMessage()
(True, 'refused message 9 from kernel 3f2a9c (3 more like this in the last 10 s were left out of the log)')
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable

__all__ = ["RepeatFilter", "install_repeat_filter"]

_VARYING = re.compile(r"0x[0-9a-fA-F]+|[0-9a-fA-F-]{8,}|\d+(?:\.\d+)?")


class RepeatFilter(logging.Filter):
    """At most ``burst`` lines of one kind per ``window`` seconds; the first one after a window with lines left out
    says how many."""

    def __init__(self, burst: int = 5, window: float = 10, clock: Callable[[], float] = time.monotonic,
                 max_kinds: int = 2000) -> None:
        super().__init__()
        self.burst, self.window, self.clock, self.max_kinds = burst, window, clock, max_kinds
        self._kinds: dict[tuple, list] = {}  # kind -> [window start, lines let through, lines left out]

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING and record.name != "tornado.access":
            return True  # what the server does (a kernel started, a page served) is never a loop of errors
        try:
            text = str(record.msg)
        except Exception:  # noqa: BLE001 - a filter never stops a line it cannot read
            return True
        kind = (record.name, record.levelno, _VARYING.sub("#", text[:300]))
        now = self.clock()
        seen = self._kinds.get(kind)
        if seen is None or now - seen[0] >= self.window:
            left_out = seen[2] if seen else 0
            if len(self._kinds) >= self.max_kinds:
                self._kinds.clear()  # many kinds at once: start counting afresh rather than grow
            self._kinds[kind] = [now, 1, 0]
            if left_out:
                record.msg = f"{record.getMessage()} ({left_out} more like this in the last " \
                             f"{self.window:g} s were left out of the log)"
                record.args = ()
            return True
        if seen[1] < self.burst:
            seen[1] += 1
            return True
        seen[2] += 1
        return False


def install_repeat_filter(*loggers: logging.Logger, burst: int = 5, window: float = 10) -> RepeatFilter:
    """One filter on every handler of these loggers, of the root logger and of Tornado's and asyncio's loggers
    (where the server's lines are written)."""
    shared = RepeatFilter(burst=burst, window=window)
    names = ("tornado.access", "tornado.application", "tornado.general", "asyncio")
    handlers = [handler for logger in {logging.getLogger(), *loggers, *(logging.getLogger(name) for name in names)}
                for handler in logger.handlers]
    if logging.lastResort is not None:  # where a logger without handlers writes (Tornado's access lines here)
        handlers.append(logging.lastResort)
    for handler in handlers:
        if not any(isinstance(f, RepeatFilter) for f in handler.filters):
            handler.addFilter(shared)
    return shared
