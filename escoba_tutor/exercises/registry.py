"""The kinds of exercise the course has, in the order it shows them.

A kind is one file of :mod:`escoba_tutor.exercises.kinds` and one line here (``_BUILT_IN``); the widget, the
worksheet, the class records and the teacher's board all find it through this registry. A kind made elsewhere (a
school's own, a test's) is added with :func:`register`.

>>> kind_names()[:3]
('captures', 'setenta', 'points')
>>> "escoba_de_mano" in kinds_for("escoba"), "escoba_de_mano" in kinds_for("scopa")
(True, False)
>>> make_drill("captures", 3) == make_drill("captures", 3)       # same seed, same position
True
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import EscobaError
from ..engine.rules import ESCOBA, Rules, as_rules
from ..text.board_words import UNANSWERED
from ..text.translator import Translator
from .kind import DrillKind
from .kinds import (
    captures,
    dealing,
    escoba_de_mano,
    escobas,
    game_end,
    house_rules,
    leftover,
    points,
    setenta,
    strategy,
)

__all__ = ["register", "unregister", "kind", "kind_names", "kinds_for", "make_drill", "column_words",
           "mistake_words", "mistake_codes", "given_words"]

_BUILT_IN = (captures.KIND, setenta.KIND, points.KIND, leftover.KIND, escoba_de_mano.KIND, strategy.KIND,
             escobas.KIND, game_end.KIND, dealing.KIND, house_rules.KIND)
_KINDS: dict[str, DrillKind] = {k.name: k for k in _BUILT_IN}


def register(new: DrillKind) -> None:
    """Add a kind of exercise after the others; a name already taken is refused (the records would mix them)."""
    if not isinstance(new, DrillKind):
        raise EscobaError(f"a kind of exercise is a DrillKind, not {type(new).__name__}", code="bad_kind")
    if new.name in _KINDS:
        raise EscobaError(f"there is already a kind of exercise called {new.name!r}", code="bad_kind",
                          value=new.name)
    if "unanswered" in new.mistakes:
        raise EscobaError("'unanswered' is every kind's code for an answer left incomplete: it has words already",
                          code="bad_kind", value=new.name)
    _KINDS[new.name] = new


def unregister(name: str) -> None:
    """Take away a kind :func:`register` added (the course's own kinds stay)."""
    if any(k.name == name for k in _BUILT_IN):
        raise EscobaError(f"{name!r} is one of the course's own kinds of exercise", code="bad_kind", value=name)
    _KINDS.pop(name, None)


def kind(name: str) -> DrillKind:
    """The kind called ``name``; any other name is refused with the list of kinds."""
    found = _KINDS.get(name) if isinstance(name, str) else None
    if found is None:
        raise EscobaError(f"no drill is called {str(name)[:20]!r}: choose one of {', '.join(_KINDS)}",
                          code="bad_kind", value=str(name)[:20])
    return found


def kind_names() -> tuple[str, ...]:
    """Every kind's name, in the course's order."""
    return tuple(_KINDS)


def kinds_for(rules: Rules | str = ESCOBA) -> tuple[str, ...]:
    """The kinds that exist under ``rules`` (Scopa has no escoba de mano)."""
    rules = as_rules(rules)
    return tuple(name for name, k in _KINDS.items() if k.available(rules))


def make_drill(name: str, seed: int, rules: Rules | str = ESCOBA, **options: Any) -> Any:
    """Exercise number ``seed`` of a kind, under ``rules``; ``options`` are the kind's own keywords (the house
    rules drill's ``only``), none by default."""
    return kind(name).make(seed, as_rules(rules), **options)


def mistake_codes(name: str) -> tuple[str, ...]:
    """Every mistake code a check of the kind can record, ``unanswered`` last."""
    return (*kind(name).mistakes, "unanswered")


def column_words(_: Translator, name: str) -> str:
    """The kind's column on the teacher's board; a kind this server does not know (a newer kernel's) is shown
    as its name."""
    found = _KINDS.get(name)
    return _(found.column) if found else name


def mistake_words(_: Translator, name: str, code: str) -> str:
    """The slip in general words, as the board lists it; a code nobody knows is shown as it is."""
    if code == "unanswered":
        return _(UNANSWERED)
    found = _KINDS.get(name)
    words = found.mistakes.get(code) if found else None
    return _(words) if words else code


def given_words(_: Translator, name: str, drill: Any, given: object) -> str | None:
    """A learner's answer to ``drill`` in the kind's few words (its ``given``), or None when the kind has no words
    for answers, or cannot read this one (a page sends what it likes)."""
    found = _KINDS.get(name)
    if found is None or found.given is None or not isinstance(given, dict):
        return None
    try:
        return found.given(_, drill, given)
    except (EscobaError, ValueError, TypeError):  # a card code that names no card: left out of the spread
        return None
