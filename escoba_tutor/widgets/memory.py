"""BrowserMemory: the latest resume code of a game, kept in the browser's own storage, so that a reload (or a
kernel the server culled) can offer to continue the game.

Nothing is sent to a server: the browser keeps the code in ``localStorage`` (the same on a Voilà page and on a
static site), under a key made of the page's path and ``scope`` (the language and the rules), so two lessons
never share a game. Each browser tab writes its own entry (a tab id lives in ``sessionStorage``, which survives a
reload of that tab), so two tabs of one lesson never overwrite each other; a reload finds its own tab's game
first, a new tab the newest one.

The Python side sets ``entry`` (``{"code": ..., "level": ..., "mode": ...}``; an empty dict keeps nothing new)
and reads ``found``, the entry the browser had when the page opened (an empty dict when there was none).

>>> memory = BrowserMemory(scope="es:escoba")
>>> memory.entry = {"code": "ABC", "level": "greedy"}
>>> memory.entry = {"code": 3}
Traceback (most recent call last):
...
traitlets.traitlets.TraitError: BrowserMemory.entry: 'code' must be text, not 3
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets as t

__all__ = ["BrowserMemory"]

_STATIC = Path(__file__).with_name("static")
_KEYS = {"code", "level", "mode"}


def _entry(owner: str, value: dict) -> dict:
    for key, item in value.items():
        if key not in _KEYS:
            raise t.TraitError(f"BrowserMemory.{owner}: unknown key {key!r}; an entry has {sorted(_KEYS)}")
        if not isinstance(item, str):
            raise t.TraitError(f"BrowserMemory.{owner}: {key!r} must be text, not {item!r}")
    return value


class BrowserMemory(anywidget.AnyWidget):
    """Keeps ``entry`` in the browser and reports what the browser had kept as ``found``. It draws nothing."""

    _esm = (_STATIC / "memory.js").read_text(encoding="utf-8")

    #: What the storage key is scoped to besides the page's path (e.g. "es:escoba").
    scope = t.Unicode("").tag(sync=True)
    #: The entry to keep now; an empty dict keeps nothing (a game without a move must not replace a kept one).
    entry = t.Dict().tag(sync=True)
    #: The entry the browser had kept when the page opened, {} when none (set by the browser, once per scope).
    found = t.Dict().tag(sync=True)

    @t.validate("entry")
    def _check_entry(self, proposal):
        return _entry("entry", proposal["value"])

    @t.validate("found")
    def _check_found(self, proposal):
        # From the browser, so from anyone: anything unexpected is dropped, never an error in the kernel.
        value = proposal["value"]
        if not isinstance(value, dict):
            return {}
        return {k: v for k, v in value.items() if k in _KEYS and isinstance(v, str) and len(v) < 20_000}
