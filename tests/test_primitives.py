"""Kernel-side checks of the widget primitives (no browser): defaults, validation, packaged JS and CSS."""

from __future__ import annotations

import fnmatch
import re
from importlib import resources
from pathlib import Path

import pytest

pytest.importorskip("anywidget")

from escoba_test_helpers import browser_sends, browser_sets  # noqa: E402
from traitlets import TraitError  # noqa: E402

from escoba_tutor import DECK  # noqa: E402
from escoba_tutor.widgets import primitives  # noqa: E402
from escoba_tutor.widgets.primitives import CARD_CODES, CardRow, LiveRegion, RowPicker  # noqa: E402

STATIC_FILES = ("card_row.js", "row_picker.js", "live_region.js", "follow.js", "widgets.css")
FRAGMENTS = ("follow.js",)  # put in front of a module by primitives.py: no export of its own


# ------------------------------------------------------------------------------------------------ defaults
def test_card_row_defaults():
    row = CardRow()
    assert (row.cards, row.labels, row.selected, row.highlighted, row.marks) == ([], [], [], [], {})
    assert (row.face_down, row.back_label, row.mode, row.disabled) == (0, "", "none", False)
    assert (row.deck, row.group_label, row.size) == ("spanish", "", "normal")


def test_row_picker_defaults():
    picker = RowPicker()
    assert (picker.headers, picker.rows, picker.selected, picker.caption) == ([], [], "", "")
    assert (picker.deck, picker.disabled, picker.empty_text) == ("spanish", False, "")


def test_live_region_defaults():
    live = LiveRegion()
    assert (live.message, live.politeness) == ("", "polite")


def test_card_codes_match_the_engine():
    assert {card.code for card in DECK} == CARD_CODES


def test_synced_traits():
    for cls, names in ((CardRow, "cards labels face_down back_label mode selected highlighted marks disabled deck "
                                 "group_label size picker figure_words"),
                       (RowPicker, "headers rows selected caption deck disabled empty_text revision"),
                       (LiveRegion, "message politeness sticky picker picker_clicks")):
        widget = cls()
        for name in names.split():
            assert widget.trait_metadata(name, "sync"), f"{cls.__name__}.{name} is not synced"


# ---------------------------------------------------------------------------------------------- validation
@pytest.mark.parametrize(("trait", "value", "message"), [
    ("mode", "several", "CardRow.mode must be one of 'none', 'single', 'multi', not 'several'"),
    ("deck", "german", "CardRow.deck must be one of 'spanish', 'french'"),
    ("size", "huge", "CardRow.size must be one of 'small', 'normal', 'large'"),
    ("cards", ["7o", "8o"], "'8o' is not a card code"),
    ("cards", ["7D"], "'7D' is not a card code"),
    ("cards", ["7o", "7o"], "'7o' appears twice"),
    ("face_down", -1, "between 0 and 40"),
    ("marks", {"13o": "x"}, "'13o' is not a card code"),
])
def test_card_row_rejects(trait, value, message):
    row = CardRow(cards=["7o", "10e"])
    with pytest.raises(TraitError, match=re.escape(message)):
        setattr(row, trait, value)


def test_card_row_selection_rules():
    row = CardRow(cards=["7o", "10e", "3c"], mode="single")
    with pytest.raises(TraitError, match="mode 'single' allows one card"):
        row.selected = ["7o", "10e"]
    with pytest.raises(TraitError, match=r"1b not in cards"):
        row.selected = ["1b"]
    with pytest.raises(TraitError, match=r"1b not in cards"):
        row.highlighted = ["1b"]
    row.mode = "multi"
    row.selected = ["7o", "10e"]
    row.mode = "single"
    assert row.selected == ["7o"]


def test_card_row_new_cards_drop_gone_selection_and_highlight():
    row = CardRow(cards=["7o", "10e", "3c"], mode="multi", selected=["7o", "3c"], highlighted=["10e", "3c"])
    row.cards = ["3c", "1b"]
    assert (row.selected, row.highlighted) == (["3c"], ["3c"])


def test_card_row_constructor_validates_together():
    row = CardRow(selected=["7o"], mode="single", cards=["7o"])  # keyword order does not matter
    assert row.selected == ["7o"]


ROWS = [{"id": "a", "cells": ["7o", "1b 7c"], "cards": ["7o", "1b", "7c"], "label": "siete de oros se lleva…",
         "tone": "good"},
        {"id": "b", "cells": ["3c", "—"]}]


@pytest.mark.parametrize(("rows", "message"), [
    ([{"cells": ["x"]}], "'id' must be a non-empty string"),
    ([{"id": "a", "cells": []}, {"id": "a", "cells": []}], "id 'a' is used twice"),
    ([{"id": "a", "cells": "7o"}], "'cells' must be a list of strings"),
    ([{"id": "a", "cells": [7]}], "'cells' must be a list of strings"),
    ([{"id": "a", "cells": [], "cards": ["8b"]}], "'8b' is not a card code"),
    ([{"id": "a", "cells": [], "tone": "bad"}], "tone must be one of '', 'good', 'info', 'warn'"),
    ([{"id": "a", "cells": [], "colour": "red"}], "unknown key(s) ['colour']"),
    ([{"id": "a", "cells": [], "label": 3}], "'label' must be a string"),
])
def test_row_picker_rejects_bad_rows(rows, message):
    with pytest.raises(TraitError, match=re.escape(message)):
        RowPicker(rows=rows)


def test_row_picker_selection():
    picker = RowPicker(headers=["Juega", "Se lleva"], rows=ROWS, selected="b")
    assert picker.selected == "b"
    with pytest.raises(TraitError, match="no row has id 'zz'"):
        picker.selected = "zz"
    with pytest.raises(TraitError, match="RowPicker.deck must be one of"):
        picker.deck = "tarot"
    picker.rows = ROWS[:1]
    assert picker.selected == ""


def test_live_region_politeness():
    live = LiveRegion(message="¡Escoba!", politeness="assertive")
    assert live.politeness == "assertive"
    with pytest.raises(TraitError, match="LiveRegion.politeness must be one of 'polite', 'assertive', 'off'"):
        live.politeness = "rude"


# ---------------------------------------------------------------------------------------- packaged files
def test_static_files_ship_in_the_package():
    static = resources.files("escoba_tutor.widgets") / "static"
    for name in STATIC_FILES:
        text = (static / name).read_text(encoding="utf-8")
        assert text.strip(), f"{name} is empty"
        if name.endswith(".js"):
            assert ("export default" in text) == (name not in FRAGMENTS), name


def test_package_data_covers_static_files():
    tomllib = pytest.importorskip("tomllib")
    root = Path(__file__).resolve().parents[1]
    pyproject = root / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("not running from a source checkout")
    patterns = tomllib.loads(pyproject.read_text())["tool"]["setuptools"]["package-data"]["escoba_tutor"]
    for name in STATIC_FILES:
        assert any(fnmatch.fnmatch(f"widgets/static/{name}", p) for p in patterns), name


def test_widgets_send_their_module_and_css():
    for widget in (CardRow(), RowPicker(), LiveRegion()):
        assert "export default" in widget._esm
        assert widget._esm.count("export default") == 1
        assert ".et-card" in widget._css
    # RowPicker's module is card_row.js's card drawing followed by row_picker.js
    assert "function etCard" in RowPicker()._esm
    assert primitives._SHARED_END in (Path(primitives.__file__).parent / "static" / "card_row.js").read_text()
    # the card row and the status line follow a RowPicker with follow.js's etFollow, put in front of their module
    for widget in (CardRow(), LiveRegion()):
        assert widget._esm.index("function etFollow") < widget._esm.index("etFollow(model, \"picker\"")


def test_primitives_import_only_light_modules():
    source = Path(primitives.__file__).read_text()
    imports = set(re.findall(r"^(?:from|import) ([\w.]+)", source, re.M))
    # ipywidgets (anywidget imports it anyway) and the standard library's light modules: no engine, no heavy library
    assert imports <= {"__future__", "pathlib", "logging", "collections.abc", "typing", "anywidget", "traitlets",
                       "ipywidgets"}, imports


# ------------------------------------------------------------------------------------- messages from the browser
@pytest.fixture
def sent(monkeypatch) -> list[str]:
    import ipywidgets

    messages: list[str] = []
    monkeypatch.setattr(ipywidgets.Widget, "_send", lambda self, msg, buffers=None: messages.append(
        f"{msg['method']}({','.join(sorted(msg.get('state', {})))})"))
    return messages


def test_a_choice_from_the_browser_is_not_echoed(sent):
    picker, row = RowPicker(rows=ROWS), CardRow(cards=["7o", "1b"], mode="multi")
    sent.clear()
    browser_sets(picker, selected="a")
    browser_sets(row, selected=["1b"])
    assert (picker.selected, row.selected) == ("a", ["1b"])
    assert sent == []  # the browser has its own choice already: no echo_update, no update


def test_a_stale_choice_from_the_browser_is_corrected_not_an_error(sent):
    picker = RowPicker(rows=ROWS, selected="a")
    sent.clear()
    browser_sets(picker, selected="gone")
    assert picker.selected == "a" and sent == ["update(clicks,selected)"]
    row = CardRow(cards=["7o", "1b"], mode="single")
    sent.clear()
    browser_sets(row, selected=["3c", "1b", "7o"])  # 3c left the row; single mode keeps the last card
    assert row.selected == ["7o"] and sent == ["update(clicks,selected)"]


def test_an_activation_plays_once_and_a_stale_or_duplicated_one_is_dropped():
    picker, activated = RowPicker(rows=ROWS), []
    picker.on_activate(activated.append)
    revision = picker.revision
    browser_sends(picker, {"event": "activate", "id": "a", "revision": revision})
    assert activated == ["a"]
    picker.rows = ROWS[1:]  # what a played card does to the rows
    browser_sends(picker, {"event": "activate", "id": "a", "revision": revision})  # the same message again
    browser_sends(picker, {"event": "activate", "id": "b", "revision": revision})  # made on the old rows
    browser_sends(picker, {"event": "activate", "id": "zz", "revision": picker.revision})
    browser_sends(picker, {"event": "something else"})
    browser_sends(picker, ["not", "a", "dict"])
    assert activated == ["a"]
    browser_sends(picker, {"event": "activate", "id": "b", "revision": picker.revision})
    assert activated == ["a", "b"]
    picker.on_activate(activated.append, remove=True)
    browser_sends(picker, {"event": "activate", "id": "b", "revision": picker.revision})
    assert activated == ["a", "b"]


def test_new_rows_reach_the_browser_as_one_message(sent):
    picker = RowPicker(rows=ROWS, selected="a")
    sent.clear()
    picker.rows = ROWS[1:]
    assert sent == ["update(clicks,revision,rows,selected)"]


def test_a_status_line_message_carries_the_click_it_answers_ahead_of_it(sent):
    """The page shows no message older than its last click: each message comes after the picker's click count at
    the time it was written (static/live_region.js compares the two)."""
    picker = RowPicker(rows=ROWS)
    live = LiveRegion(picker=picker)
    browser_sets(picker, selected="a", clicks=1)
    browser_sets(picker, selected="b", clicks=2)
    sent.clear()
    live.message = "a's answer"
    assert live.picker_clicks == 2 and sent == ["update(picker_clicks)", "update(message)"]
    sent.clear()
    with live.hold_sync():
        live.message = "b's answer"
    assert sent == ["update(message)"]  # the count had not changed: only the message goes
    assert LiveRegion(message="no picker").picker_clicks == 0


def test_card_row_follows_a_picker_and_names_its_figures():
    picker = RowPicker()
    row = CardRow(picker=picker, figure_words=["jack", "knight", "king"])
    assert row.get_state("picker")["picker"] == f"IPY_MODEL_{picker.model_id}"
    with pytest.raises(TraitError, match="needs 3 words"):
        row.figure_words = ["sota"]
    with pytest.raises(TraitError):
        row.picker = LiveRegion()


def test_live_region_can_stick_to_the_bottom_of_the_screen():
    assert LiveRegion().sticky is False and LiveRegion(sticky=True).sticky is True
    assert ".et-sticky" in LiveRegion()._css and "et-sticky" in LiveRegion()._esm
