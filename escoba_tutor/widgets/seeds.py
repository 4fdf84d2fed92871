"""The largest exercise or game number a widget takes: one below the engine's ``MAX_SEED``.

A widget's state travels to the page as JSON. Where Python runs in the browser (Pyodide, on the static site), an
integer from 2**53 - 1 up is handed to JavaScript as a BigInt, which the widget protocol cannot serialise, and the
widget is never drawn. The engine keeps ``MAX_SEED`` = 2**53 - 1 (saved games depend on it); the widgets stop one
short of it, which costs a single exercise number: drills and games draw their own seeds far below it.

>>> from escoba_tutor.engine.game import MAX_SEED
>>> MAX_WIDGET_SEED == MAX_SEED - 1 and MAX_WIDGET_SEED < 2**53 - 1
True
"""

from __future__ import annotations

__all__ = ["MAX_WIDGET_SEED"]

#: ``MAX_SEED - 1``, written out: importing the game for it would cost a lesson's first widget a game's import
#: in the browser (the doctest above and tests/test_site_build.py hold it to the engine's value).
MAX_WIDGET_SEED = 2**53 - 2
