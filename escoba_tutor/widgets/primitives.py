"""Front-end building blocks: a row of cards, a table with selectable rows and a live status line.

Five anywidget classes. The Python side is traitlets only (no engine imports): the JavaScript and CSS live in
``static/`` beside this file and ship in the package.

- :class:`CardRow` draws playing cards (Spanish suits as inline SVG, or a French deck) and lets the user select
  them by mouse, touch or keyboard.
- :class:`RowPicker` is a real ``<table>`` whose rows can be chosen (one row per legal capture, for example).
- :class:`ActionButton` is a button whose click carries the answers the page shows (see its text).
- :class:`LiveRegion` is a persistent ``role="status"`` line whose text screen readers announce when it changes;
  ``sticky`` keeps it in view at the screen's edge while it is short (three lines at most).
- :class:`PlaceKeeper` moves the focus to the next control when the one a learner used goes away.

Trait values are checked in Python, so a wrong value fails where it is set, with a message that says why:

>>> row = CardRow(cards=["7o", "10e"], labels=["siete de oros", "sota de espadas"], mode="single")
>>> row.selected = ["7o"]
>>> row.mode = "several"
Traceback (most recent call last):
...
traitlets.traitlets.TraitError: CardRow.mode must be one of 'none', 'single', 'multi', not 'several'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as w
import traitlets as t
from ipywidgets import widget_serialization

__all__ = ["ActionButton", "CardRow", "RowPicker", "LiveRegion", "PlaceKeeper", "CARD_CODES"]

_STATIC = Path(__file__).with_name("static")
_CSS = _STATIC / "widgets.css"

#: The 40 canonical card codes (kept here so this module imports nothing but anywidget and traitlets).
CARD_CODES = frozenset(f"{rank}{suit}" for suit in "oceb" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))

_MODES = ("none", "single", "multi")
_DECKS = ("spanish", "french")
_SIZES = ("small", "normal", "large")
_TONES = ("", "good", "info", "warn")
_POLITENESS = ("polite", "assertive", "off")
_ROW_KEYS = {"id", "cells", "cards", "label", "tone"}
_BUTTON_STYLES = ("", "primary", "success", "info", "warning", "danger")

log = logging.getLogger("escoba_tutor.widgets")


def _one_of(owner: str, name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise t.TraitError(f"{owner}.{name} must be one of {choices}, not {value!r}")
    return value


def _codes(owner: str, name: str, codes, unique: bool = True) -> list[str]:
    """Check a list of canonical codes: each one of the 40 cards, no repeats."""
    for code in codes:
        if code not in CARD_CODES:
            raise t.TraitError(
                f"{owner}.{name}: {code!r} is not a card code; write rank 1-7, 10, 11 or 12 and a lowercase "
                f"suit o, c, e or b, e.g. '7o', '10e', '12b'")
    if unique:
        seen = set()
        for code in codes:
            if code in seen:
                raise t.TraitError(f"{owner}.{name}: {code!r} appears twice")
            seen.add(code)
    return list(codes)


def _js(name: str) -> str:
    return (_STATIC / name).read_text(encoding="utf-8")


# card_row.js starts with the card drawing code shared by both card-drawing widgets; RowPicker's module is that
# shared part followed by row_picker.js (an anywidget module is loaded from a string, so it cannot import a file).
_SHARED_END = "// ==== end of shared card drawing ===="


def _following(name: str) -> str:
    """A module that follows another widget's model: follow.js (etFollow) in front of it."""
    return _js("follow.js") + "\n" + _js(name)


def _row_picker_esm() -> str:
    shared, found, _ = _js("card_row.js").partition(_SHARED_END)
    if not found:
        raise RuntimeError(f"card_row.js lacks the marker {_SHARED_END!r}")
    return shared + "\n" + _js("row_picker.js")


class _CountsClicks:
    """A chooser whose page counts the learner's choices (``clicks``, sent with each choice) and whose kernel sends
    that count back with every choice it makes itself. A page that has chosen since the count it gets back keeps
    its own choice: a kernel's choice made before the learner's last click (a capture added clears the cards, while
    the learner is already choosing the next one) never undoes that click (static/card_row.js, row_picker.js)."""

    def send_state(self, key=None) -> None:
        names = [key] if isinstance(key, str) else None if key is None else list(key)
        if names is not None and "selected" in names and "clicks" not in names:
            names.append("clicks")
        super().send_state(names)  # type: ignore[misc]


class RowPicker(_CountsClicks, anywidget.AnyWidget):
    """A semantic table whose rows can be chosen by mouse, touch or keyboard (one tab stop, arrows, Enter).

    Each row is ``{"id": str, "cells": [str, ...], "cards": [codes], "label": str, "tone": "" | "good" | "info" |
    "warn"}``; only ``id`` and ``cells`` are required. ``cards`` are drawn as small cards in the first cell and
    ``label`` is the row's accessible name (default: its cells joined by commas).

    A double click on a row *activates* it (e.g. plays it in a game): :meth:`on_activate` callbacks get the row's
    id. Each activation names the ``revision`` of the rows it was made on, so a late or duplicated message about rows
    that have changed since is dropped:

    >>> picker = RowPicker(rows=[{"id": "a", "cells": ["7o"]}])
    >>> picker.on_activate(lambda row_id: print("activated", row_id))
    >>> picker._handle_custom_msg({"event": "activate", "id": "a", "revision": picker.revision}, [])
    activated a
    >>> picker.rows = [{"id": "b", "cells": ["3c"]}]
    >>> picker._handle_custom_msg({"event": "activate", "id": "a", "revision": picker.revision - 1}, [])
    """

    _esm = _row_picker_esm()
    _css = _CSS

    #: Column headers (``<th scope="col">``).
    headers = t.List(t.Unicode()).tag(sync=True)
    #: The rows, see the class docstring.
    rows = t.List(t.Dict()).tag(sync=True)
    #: Id of the chosen row, "" for none; synced both ways. A choice made in the browser is not echoed back (the
    #: browser has it already): one click costs one answer from the kernel, not two.
    selected = t.Unicode("").tag(sync=True, echo_update=False)
    #: How many choices the learner has made on the page; see :class:`_CountsClicks`.
    clicks = t.Int(0).tag(sync=True, echo_update=False)
    #: Goes up by one whenever ``rows`` change; an activation names the revision it was made on.
    revision = t.Int(0).tag(sync=True)
    #: The table's ``<caption>``, which is also its accessible name.
    caption = t.Unicode("").tag(sync=True)
    #: "spanish" or "french", for the small cards.
    deck = t.Unicode("spanish").tag(sync=True)
    #: When True rows can be read and focused but not chosen.
    disabled = t.Bool(False).tag(sync=True)
    #: Text shown in place of the rows when there are none.
    empty_text = t.Unicode("").tag(sync=True)

    @t.validate("rows")
    def _check_rows(self, proposal):
        ids = set()
        for n, row in enumerate(proposal["value"]):
            where = f"RowPicker.rows[{n}]"
            extra = set(row) - _ROW_KEYS
            if extra:
                raise t.TraitError(f"{where}: unknown key(s) {sorted(extra)}; a row has {sorted(_ROW_KEYS)}")
            row_id = row.get("id")
            if not isinstance(row_id, str) or not row_id:
                raise t.TraitError(f"{where}: 'id' must be a non-empty string, not {row_id!r}")
            if row_id in ids:
                raise t.TraitError(f"{where}: id {row_id!r} is used twice")
            ids.add(row_id)
            cells = row.get("cells")
            if not isinstance(cells, list) or not all(isinstance(c, str) for c in cells):
                raise t.TraitError(f"{where}: 'cells' must be a list of strings, not {cells!r}")
            cards = row.get("cards", [])
            if not isinstance(cards, list):
                raise t.TraitError(f"{where}: 'cards' must be a list of card codes, not {cards!r}")
            _codes(where, "cards", cards)
            if not isinstance(row.get("label", ""), str):
                raise t.TraitError(f"{where}: 'label' must be a string")
            _one_of(where, "tone", row.get("tone", ""), _TONES)
        return proposal["value"]

    @t.validate("selected")
    def _check_selected(self, proposal):
        value = proposal["value"]
        if value and value not in {row["id"] for row in self.rows}:
            raise t.TraitError(f"RowPicker.selected: no row has id {value!r}")
        return value

    @t.validate("deck")
    def _check_deck(self, proposal):
        return _one_of("RowPicker", "deck", proposal["value"], _DECKS)

    def notify_change(self, change):
        if change["name"] != "rows":
            return super().notify_change(change)
        with self.hold_sync():  # the new rows, the dropped choice and the revision reach the browser as one message
            return super().notify_change(change)

    @t.observe("rows")
    def _drop_gone(self, change):
        if self.selected and self.selected not in {row["id"] for row in change["new"]}:
            self.selected = ""
        self.revision += 1

    def set_state(self, sync_data):
        """A choice from the browser of a row that is gone (the rows changed while the click travelled) is
        dropped, and the browser is told the kernel's choice: never an error for a stale click."""
        stale = "selected" in sync_data and sync_data["selected"] and sync_data["selected"] not in {
            row["id"] for row in self.rows}
        if stale:
            sync_data = {k: v for k, v in sync_data.items() if k != "selected"}
        super().set_state(sync_data)
        if stale:
            self.send_state("selected")

    def on_activate(self, callback, remove: bool = False) -> None:
        """Call ``callback(row_id)`` when the learner double-clicks a row of the current rows."""
        if remove:
            self._activate_callbacks.remove(callback)
        else:
            self._activate_callbacks.append(callback)

    @property
    def _activate_callbacks(self) -> list:
        if "_activate_list" not in self.__dict__:
            self.__dict__["_activate_list"] = []
            self.on_msg(RowPicker._custom_message)
        return self.__dict__["_activate_list"]

    @staticmethod
    def _custom_message(widget: RowPicker, content, buffers) -> None:
        if not isinstance(content, dict) or content.get("event") != "activate":
            return
        row_id, revision = content.get("id"), content.get("revision")
        if revision != widget.revision or row_id not in {row["id"] for row in widget.rows}:
            return  # made on rows that have changed since: a late or duplicated message
        for callback in list(widget._activate_callbacks):
            callback(row_id)


class CardRow(_CountsClicks, anywidget.AnyWidget):
    """A row of playing cards, display-only or selectable (one card, or several).

    Cards wrap onto new lines; ``size`` scales them. Selected cards show a raised position, a thick border and a
    ✓; highlighted cards a ring and a ▼ (the cards the chosen row speaks of), so neither state depends on colour
    alone. (★ is kept for one meaning: the row of an escoba.)

    With ``picker`` set to a :class:`RowPicker`, the cards of the row chosen there are highlighted too. The browser
    does that as soon as the row is clicked, so a chosen capture shows its cards without waiting for the kernel.
    """

    _esm = _following("card_row.js")
    _css = _CSS

    #: Card codes in display order ("7o", "10e", ...).
    cards = t.List(t.Unicode()).tag(sync=True)
    #: Accessible name of each card ("siete de oros"), same order as ``cards``; a missing one falls back to the code.
    labels = t.List(t.Unicode()).tag(sync=True)
    #: Number of face-down cards drawn after the face-up ones (another player's hand).
    face_down = t.Int(0).tag(sync=True)
    #: Accessible name of each face-down card ("carta boca abajo"); when empty they are hidden from screen readers.
    back_label = t.Unicode("").tag(sync=True)
    #: "none" (display only), "single" (at most one selected) or "multi".
    mode = t.Unicode("none").tag(sync=True)
    #: Selected codes, synced both ways (click, Enter or Space toggles a card); the browser's change is not echoed.
    selected = t.List(t.Unicode()).tag(sync=True, echo_update=False)
    #: How many times the learner has changed ``selected`` on the page; see :class:`_CountsClicks`.
    clicks = t.Int(0).tag(sync=True, echo_update=False)
    #: Codes drawn highlighted (ring, raised, ▼), e.g. the cards of a chosen capture.
    highlighted = t.List(t.Unicode()).tag(sync=True)
    #: A RowPicker whose chosen row's cards are highlighted here as well (in the browser, at once).
    picker = t.Instance(RowPicker, allow_none=True).tag(sync=True, **widget_serialization)
    #: The words printed under the Spanish figures 10, 11 and 12 (the learner's language).
    figure_words = t.List(t.Unicode(), default_value=["sota", "caballo", "rey"]).tag(sync=True)
    #: Code -> short badge text drawn on the card (e.g. {"10e": "8"}); also given to screen readers as a description.
    marks = t.Dict(value_trait=t.Unicode(), key_trait=t.Unicode()).tag(sync=True)
    #: When True the cards stay focusable and readable but cannot be selected.
    disabled = t.Bool(False).tag(sync=True)
    #: "spanish" (oros, copas, espadas, bastos drawn as SVG) or "french" (♦ ♥ ♠ ♣, A 2-7 J Q K).
    deck = t.Unicode("spanish").tag(sync=True)
    #: Accessible name of the row ("Tu mano").
    group_label = t.Unicode("").tag(sync=True)
    #: "small", "normal" or "large".
    size = t.Unicode("normal").tag(sync=True)

    @t.validate("cards")
    def _check_cards(self, proposal):
        return _codes("CardRow", "cards", proposal["value"])

    @t.validate("face_down")
    def _check_face_down(self, proposal):
        if not 0 <= proposal["value"] <= 40:
            raise t.TraitError(f"CardRow.face_down must be between 0 and 40, not {proposal['value']}")
        return proposal["value"]

    @t.validate("mode")
    def _check_mode(self, proposal):
        return _one_of("CardRow", "mode", proposal["value"], _MODES)

    @t.validate("deck")
    def _check_deck(self, proposal):
        return _one_of("CardRow", "deck", proposal["value"], _DECKS)

    @t.validate("size")
    def _check_size(self, proposal):
        return _one_of("CardRow", "size", proposal["value"], _SIZES)

    @t.validate("selected")
    def _check_selected(self, proposal):
        codes = _codes("CardRow", "selected", proposal["value"])
        missing = [c for c in codes if c not in self.cards]
        if missing:
            raise t.TraitError(f"CardRow.selected: {', '.join(missing)} not in cards {self.cards}")
        if self.mode == "single" and len(codes) > 1:
            raise t.TraitError(f"CardRow.selected: mode 'single' allows one card, not {codes}")
        return codes

    @t.validate("highlighted")
    def _check_highlighted(self, proposal):
        codes = _codes("CardRow", "highlighted", proposal["value"])
        missing = [c for c in codes if c not in self.cards]
        if missing:
            raise t.TraitError(f"CardRow.highlighted: {', '.join(missing)} not in cards {self.cards}")
        return codes

    @t.validate("marks")
    def _check_marks(self, proposal):
        _codes("CardRow", "marks", list(proposal["value"]))
        return proposal["value"]

    @t.validate("figure_words")
    def _check_figure_words(self, proposal):
        if len(proposal["value"]) != 3:
            raise t.TraitError(f"CardRow.figure_words needs 3 words (for 10, 11 and 12), not {proposal['value']!r}")
        return proposal["value"]

    def set_state(self, sync_data):
        """A selection from the browser that names cards no longer in the row (they changed while the click
        travelled) keeps only the cards still here, and the browser is told: never an error for a stale click."""
        wanted = sync_data.get("selected")
        if isinstance(wanted, list):
            kept = [c for c in dict.fromkeys(wanted) if c in self.cards]
            if self.mode == "single":
                kept = kept[-1:]
            elif self.mode == "none":
                kept = []
            if kept != wanted:
                super().set_state({**sync_data, "selected": kept})
                self.send_state("selected")
                return
        super().set_state(sync_data)

    @t.observe("cards")
    def _drop_gone(self, change):
        """New cards: forget selections and highlights of cards that left the row."""
        keep = set(change["new"])
        with self.hold_trait_notifications():
            if any(c not in keep for c in self.selected):
                self.selected = [c for c in self.selected if c in keep]
            if any(c not in keep for c in self.highlighted):
                self.highlighted = [c for c in self.highlighted if c in keep]

    @t.observe("mode")
    def _fit_selection(self, change):
        if change["new"] == "single" and len(self.selected) > 1:
            self.selected = self.selected[:1]


class LiveRegion(anywidget.AnyWidget):
    """A status line that screen readers announce: the element stays in the page and only its text changes.

    Setting the same text twice announces nothing the second time (nothing changed).
    """

    _esm = _following("live_region.js")
    _css = _CSS

    #: The text shown and announced.
    message = t.Unicode("").tag(sync=True)
    #: "polite" (wait for the screen reader to finish), "assertive" (interrupt) or "off".
    politeness = t.Unicode("polite").tag(sync=True)
    #: Keep the line in view at the screen's edge while its widget is on screen (on a phone the control the
    #: learner used is often far from where the line sits); a line of more than three lines stays in its place.
    sticky = t.Bool(False).tag(sync=True)
    #: A RowPicker whose chosen row's ``label`` the line shows at once when the learner chooses it, before the
    #: kernel's message arrives (the owner makes that message the same text; a different one replaces it).
    picker = t.Instance(RowPicker, allow_none=True).tag(sync=True, **widget_serialization)
    #: The picker's ``clicks`` when ``message`` was written (set with it). A page that has chosen since shows its
    #: chosen row, not this message: an answer to an earlier click that arrives after a later one never shows.
    picker_clicks = t.Int(0).tag(sync=True)

    @t.validate("message")
    def _note_the_click_answered(self, proposal):
        # validated before the change is sent, so the page has the count before the message it belongs to
        if self.picker is not None:
            self.picker_clicks = self.picker.clicks
        return proposal["value"]

    @t.validate("politeness")
    def _check_politeness(self, proposal):
        return _one_of("LiveRegion", "politeness", proposal["value"], _POLITENESS)


class PlaceKeeper(anywidget.AnyWidget):
    """Keeps a learner's place inside the widget around it (the element matching ``scope``); it draws nothing.

    When the control the learner last used there goes away or is disabled (a «Play» button hidden at a deal's end),
    the focus goes to the first of ``targets`` (CSS selectors inside the scope) that can take it, rather than to the
    page; a learner who has moved the focus elsewhere keeps it there. When the status line ``status`` says
    something new while that control is on screen, the page scrolls just enough to show the line if it lies below
    the screen (static/place_keeper.js).
    """

    _esm = _js("place_keeper.js")

    #: The element around this widget whose controls are watched (a CSS selector matched by ``closest``).
    scope = t.Unicode("").tag(sync=True)
    #: Where the focus goes when the control used goes away: the first that can take it (itself or a control in it).
    targets = t.List(t.Unicode()).tag(sync=True)
    #: The status line shown when it changes right after the learner used a control (a CSS selector in the scope).
    status = t.Unicode("").tag(sync=True)


# What an answer widget holds on the page, by the widget's kind: the names an ActionButton's click may set.
_ANSWER_TRAITS: tuple[tuple[tuple[type, ...], tuple[str, ...]], ...] = (
    ((CardRow, RowPicker), ("selected", "clicks")),
    ((w.Dropdown, w.Select, w.RadioButtons, w.ToggleButtons), ("index",)),
    ((w.Text, w.Textarea, w.IntText, w.BoundedIntText, w.Checkbox, w.ToggleButton), ("value",)),
)


def answer_traits(widget: w.Widget) -> tuple[str, ...]:
    """The traits of ``widget`` that hold a learner's answer on the page (none for a widget that holds none)."""
    return next((names for kinds, names in _ANSWER_TRAITS if isinstance(widget, kinds)), ())


def _answerable(widgets) -> Iterator[w.Widget]:
    """The widgets a learner can have answered with: not hidden (nor inside a hidden box) and not disabled. A field
    the kernel alone fills (the game's hidden Table and Hand fields) may hold an older value on a page that is
    behind: taken as an answer, it would undo the kernel's newer one."""
    for widget in widgets:
        layout = getattr(widget, "layout", None)
        if layout is not None and layout.display == "none":
            continue
        if not getattr(widget, "disabled", False):
            yield widget
        yield from _answerable(getattr(widget, "children", ()))


class ActionButton(anywidget.AnyWidget):
    """A button that acts on the answers the learner sees: the page sends, with the click, what each answer
    widget under ``inputs`` holds there (chosen cards and rows, options, text), and the kernel takes those answers
    before it calls :meth:`on_click`'s callbacks. The choices of the widgets in ``clears`` are cleared on the page
    as the click leaves, and that clearing reaches the kernel after the click.

    ipywidgets holds a widget's next update while the kernel answers its last one, but a click leaves at once:
    without this, a check pressed right after an answer could be judged without it. Only the answer traits of
    widgets under ``inputs`` are taken (:func:`answer_traits`), through each widget's own ``set_state``, as if
    their updates had come first; an answer the widget refuses is left as the kernel had it.

    It is drawn as ipywidgets draws a button and takes the same ``description``, ``icon``, ``button_style``,
    ``tooltip`` and ``disabled``; :meth:`click` calls the callbacks (as a click that carries no answers).
    """

    _esm = _js("action_button.js")

    description = t.Unicode("").tag(sync=True)
    icon = t.Unicode("").tag(sync=True)
    button_style = t.Unicode("").tag(sync=True)
    tooltip = t.Unicode("").tag(sync=True)
    disabled = t.Bool(False).tag(sync=True)
    #: The widgets (boxes are searched through) whose answers a click carries.
    inputs = t.List(t.Instance(w.Widget)).tag(sync=True, **widget_serialization)
    #: Card rows and row pickers whose choice a click clears on the page at once, as the kernel will once it has
    #: acted (adding a capture clears its cards): the learner's next click then starts from nothing, as the page
    #: shows, and not from the cards the kernel is still clearing.
    clears = t.List(t.Instance(_CountsClicks)).tag(sync=True, **widget_serialization)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._click_callbacks: list[Callable[[ActionButton], object]] = []
        self.on_msg(ActionButton._custom_message)

    @t.validate("button_style")
    def _check_button_style(self, proposal):
        return _one_of("ActionButton", "button_style", proposal["value"], _BUTTON_STYLES)

    def on_click(self, callback: Callable[[ActionButton], object], remove: bool = False) -> None:
        """Call ``callback(button)`` on each click, once the click's answers are taken."""
        if remove:
            self._click_callbacks.remove(callback)
        else:
            self._click_callbacks.append(callback)

    def click(self) -> None:
        """Act as a click does."""
        for callback in list(self._click_callbacks):
            callback(self)

    def take_answers(self, answers: object) -> None:
        """Give each widget under ``inputs`` the answers the page says it holds (a ``{model_id: {trait: value}}``
        mapping); anything else in ``answers`` is ignored."""
        if not isinstance(answers, dict):
            return
        found = {widget.model_id: widget for widget in _answerable(self.inputs)}
        for model_id, held in answers.items():
            widget = found.get(model_id)
            if widget is None or not isinstance(held, dict):
                continue  # not an answer of this button's (or a widget gone since)
            names = [name for name in answer_traits(widget) if name in held]
            now = widget.get_state(names) if names else {}
            changed = {name: held[name] for name in names if held[name] != now.get(name)}
            if not changed:
                continue
            try:
                widget.set_state(changed)
            except Exception as error:  # noqa: BLE001 - an answer the widget refuses is left as it was
                log.warning("%s refused the answer the page sent (%s): %s", type(widget).__name__, changed, error)

    @staticmethod
    def _custom_message(button: ActionButton, content, buffers) -> None:
        if not isinstance(content, dict) or content.get("event") != "click":
            return
        try:
            if not button.disabled:
                button.take_answers(content.get("answers"))
                button.click()
        finally:
            button.send({"event": "done"})  # after the click's updates: the page may take the next click
