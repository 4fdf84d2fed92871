"""Teaching widgets for Jupyter and Voilà, built on the engine.

``from escoba_tutor.widgets import CaptureTable`` imports only what that widget needs, so a lesson page
starts fast.
"""

from __future__ import annotations

import importlib

#: Public widget -> the module that defines it.
_EXPORTS = {
    "CaptureTable": "capture_table",
    "CaptureModel": "capture_table",
    "GameSession": "session",
    "GameTable": "game_table",
    "HintPanel": "hint_panel",
    "HintModel": "hint_panel",
    "Page": "page",
    "SetentaExplainer": "setenta_explainer",
    "SetentaModel": "setenta_explainer",
    "ScoreSheet": "score_sheet",
    "ScoreSheetModel": "score_sheet",
    "Drill": "drills",
    "DrillModel": "drills",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)


def __dir__() -> list[str]:
    return __all__
