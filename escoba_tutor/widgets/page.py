"""What the page was asked for: URL parameters and the server's settings, checked, for a lesson cell.

Under Voilà the kernel sees the page's query string (``?seed=7&table=1o+4b+7o&hand=3c``) in ``QUERY_STRING``,
and ``escoba-tutor --rules scopa`` sets ``ESCOBA_TUTOR_RULES`` for every kernel. A bad parameter never breaks
the page: it is ignored, and :meth:`Page.with_notice` shows the learner what was wrong, in their language.

>>> p = Page("es", query="seed=12&table=1o+4b+7o&hand=8o")
>>> p.seed(0), [c.code for c in p.cards("table", "")], p.text("hand", "3c")
(12, ['1o', '4b', '7o'], '3c')
>>> [problem[0] for problem in p.problems]
['hand']
"""

from __future__ import annotations

import html
import os
from urllib.parse import parse_qs

import ipywidgets as w

from ..cards import parse_cards
from ..errors import EscobaError
from ..game import MAX_SEED
from ..rules import ESCOBA, Rules, rules_by_name
from .capture_table import error_text
from .i18n import LANGUAGES, Translator, normalize_language

__all__ = ["Page", "page"]

MAX_PARAMETER = 200  # characters: longer values are refused before parsing


class Page:
    """The settings of one lesson page: ``Page("es")`` reads the URL and the server; ``query`` is for tests."""

    def __init__(self, lang: str, query: str | None = None) -> None:
        self.lang = normalize_language(lang)
        query = os.environ.get("QUERY_STRING", "") if query is None else query
        self._params = {k: v[-1] for k, v in parse_qs(query[:2000], keep_blank_values=True).items()}
        self.problems: list[tuple[str, str, dict]] = []  # (parameter, code, details)
        self.rules = self._server_rules()
        asked = self._params.get("lang")
        if asked is not None and asked not in LANGUAGES:
            self.problems.append(("lang", "bad_lang", {"value": asked[:20]}))

    def _server_rules(self) -> Rules:
        name = os.environ.get("ESCOBA_TUTOR_RULES", "")
        if not name:
            return ESCOBA
        try:
            return rules_by_name(name)
        except EscobaError:
            self.problems.append(("rules", "bad_rules", {"value": name[:40]}))
            return ESCOBA

    def _raw(self, name: str) -> str | None:
        value = self._params.get(name)
        if value is not None and len(value) > MAX_PARAMETER:
            self.problems.append((name, "too_long", {}))
            return None
        return value

    def seed(self, default: int) -> int:
        """``?seed=N``, a whole number from 0 to 2**53 - 1; otherwise ``default``."""
        raw = self._raw("seed")
        if raw is None or raw == "":
            return default
        if not raw.strip().isdigit() or int(raw) > MAX_SEED:
            self.problems.append(("seed", "bad_seed", {"value": raw[:24], "max": MAX_SEED}))
            return default
        return int(raw)

    def cards(self, name: str, default: str):
        """``?table=...`` or ``?hand=...`` as cards (``+`` or spaces between codes); otherwise ``default``."""
        raw = self._raw(name)
        if raw is None:
            return parse_cards(default)
        try:
            return parse_cards(raw)
        except EscobaError as error:
            self.problems.append((name, error.code, {k: str(v) for k, v in error.params.items()}))
            return parse_cards(default)

    def text(self, name: str, default: str) -> str:
        """Card text for a widget: the parameter when it names valid cards, else ``default``."""
        return " ".join(card.code for card in self.cards(name, default))

    def notice(self) -> w.HTML:
        """A short note for every parameter that was not used, or an empty widget."""
        _ = Translator(self.lang)
        items = []
        for name, code, details in self.problems:
            if code == "bad_lang":
                said = _("The language “{value}” is not available: choose es or en.", value=details["value"])
            elif code == "bad_seed":
                said = _("The position number “{value}” is not valid: it must be a whole number from 0 to {max}.",
                         value=details["value"], max=details["max"])
            elif code == "too_long":
                said = _("The “{name}” in the address is too long, so it was left out.", name=name)
            elif code == "bad_rules":
                said = _("The server's rules “{value}” are unknown: the usual rules are used.", value=details["value"])
            else:
                said = _("The cards for “{name}” in the address were not used: {problem}", name=name,
                         problem=error_text(_, {"code": code, **details}))
            items.append(f"<li>{html.escape(said)}</li>")
        if not items:
            return w.HTML("")
        return w.HTML(f"<div class='escoba-notice' role='note'><ul>{''.join(items)}</ul></div>")

    def with_notice(self, widget: w.Widget) -> w.VBox:
        """The widget, with the note about unused parameters above it (when there is one)."""
        return w.VBox([self.notice(), widget])


def page(lang: str) -> Page:
    """The settings of the current page, for a lesson written in ``lang``."""
    return Page(lang)
