"""CardRow, RowPicker and LiveRegion in real headless Chromium under a real Voilà server.

Mirror labels in the notebook show what the *kernel* received (``hand=7o``), so these tests check the round trip
browser -> Python, not just the DOM. The tests share one page and run in file order.
"""

from __future__ import annotations

import re

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

NOTEBOOK_CELLS = [
    """
from escoba_tutor.widgets.primitives import CardRow, RowPicker, LiveRegion
import ipywidgets as W
""",
    """
NAMES = {"7o": "siete de oros", "10e": "sota de espadas", "3c": "tres de copas", "5o": "cinco de oros",
         "1b": "as de bastos", "11c": "caballo de copas", "2e": "dos de espadas", "12b": "rey de bastos"}
def names(codes):
    return [NAMES[c] for c in codes]

HAND, TABLE = ["7o", "10e", "3c"], ["5o", "1b", "11c", "2e", "12b"]
rival = CardRow(face_down=3, back_label="carta del rival, boca abajo", group_label="Mano del rival", size="small")
table = CardRow(cards=TABLE, labels=names(TABLE), mode="multi", group_label="Mesa", marks={"11c": "9", "12b": "10"})
hand = CardRow(cards=HAND, labels=names(HAND), mode="single", group_label="Tu mano", marks={"10e": "8"},
               size="large")
french = CardRow(cards=["1o", "7c", "10e", "12b"], labels=["as de oros", "siete de copas", "sota de espadas",
                 "rey de bastos"], deck="french", group_label="Baraja francesa", size="small")
picker = RowPicker(caption="Capturas posibles", headers=["Juegas", "Te llevas", "Suma"], rows=[
    {"id": "7o:5o+1b+2e", "cells": ["7o", "5o 1b 2e", "7+5+1+2 = 15"], "cards": ["7o", "5o", "1b", "2e"],
     "label": "siete de oros se lleva cinco de oros, as de bastos y dos de espadas", "tone": "good"},
    {"id": "3c:11c+1b", "cells": ["3c", "11c 1b", "3+9+1+2 = 15"], "cards": ["3c", "11c", "1b"],
     "label": "tres de copas se lleva caballo de copas y as de bastos"},
    {"id": "3c:12b+2e", "cells": ["3c", "12b 2e", "3+10+2 = 15"], "cards": ["3c", "12b", "2e"],
     "label": "tres de copas se lleva rey de bastos y dos de espadas", "tone": "info"},
    {"id": "10e:5o+2e", "cells": ["10e", "5o 2e", "8+5+2 = 15"], "cards": ["10e", "5o", "2e"],
     "label": "sota de espadas se lleva cinco de oros y dos de espadas", "tone": "warn"},
])
locked = CardRow(cards=["4o"], labels=["cuatro de oros"], mode="multi", disabled=True, group_label="Bloqueada",
                 size="small")
live = LiveRegion()
hand_mirror, table_mirror, picker_mirror = W.Label("hand="), W.Label("table="), W.Label("picker=")
locked_mirror = W.Label("locked=")
locked.observe(lambda change: setattr(locked_mirror, "value", "locked=" + ",".join(change["new"])), "selected")
errors = W.Output()

@errors.capture()
def on_hand(change):
    hand_mirror.value = "hand=" + ",".join(change["new"])
    live.message = ("Juegas " + NAMES[change["new"][0]]) if change["new"] else "Ninguna carta elegida"

@errors.capture()
def on_table(change):
    table_mirror.value = "table=" + ",".join(change["new"])

@errors.capture()
def on_picker(change):
    picker_mirror.value = "picker=" + change["new"]
    row = {r["id"]: r for r in picker.rows}.get(change["new"])
    table.highlighted = [c for c in row["cards"] if c in table.cards] if row else []

hand.observe(on_hand, "selected")
table.observe(on_table, "selected")
picker.observe(on_picker, "selected")
W.VBox([W.HTML("<h1>Escoba: primitivas</h1>"), W.HTML("<h2>Rival</h2>"), rival, W.HTML("<h2>Mesa</h2>"), table,
        W.HTML("<h2>Tu mano</h2>"), hand, live, picker, french, locked,
        hand_mirror, table_mirror, picker_mirror, locked_mirror, errors])
""",
]


def mirror(page, text):
    return page.get_by_text(text, exact=True)


def tab_into(page, container, limit=40):
    """Press Tab from the top of the page until focus is inside ``container``; return the focused element."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    for _ in range(limit):
        page.keyboard.press("Tab")
        if container.evaluate("(el) => el.contains(document.activeElement)"):
            return page.locator("*:focus")
    raise AssertionError(f"Tab never reached {container}")


@pytest.fixture(scope="module")
def page(app_page):
    expect(app_page.locator(".et-row").first).to_be_visible(timeout=60_000)
    expect(app_page.locator(".et-table")).to_be_visible()
    return app_page


def test_cards_render_with_accessible_names(page):
    hand = page.get_by_role("group", name="Tu mano")
    buttons = hand.get_by_role("button")
    expect(buttons).to_have_count(3)
    for button, name in zip(buttons.all(), ["siete de oros", "sota de espadas", "tres de copas"], strict=True):
        expect(button).to_have_accessible_name(name)
        expect(button).to_have_attribute("aria-pressed", "false")
    expect(hand.get_by_role("button", name="sota de espadas")).to_have_accessible_description("8")
    # the suit is printed as text too, not only drawn and coloured
    expect(hand.get_by_role("button", name="siete de oros")).to_contain_text("7")
    expect(hand.get_by_role("button", name="siete de oros").locator(".et-suit-txt")).to_have_text("o")
    expect(hand.get_by_role("button", name="sota de espadas").locator(".et-fig")).to_have_text("sota")
    expect(page.get_by_role("group", name="Mesa").get_by_role("button")).to_have_count(5)
    backs = page.get_by_role("group", name="Mano del rival").get_by_role("img", name="carta del rival, boca abajo")
    expect(backs).to_have_count(3)
    french = page.get_by_role("group", name="Baraja francesa")
    expect(french.get_by_role("img", name="as de oros")).to_contain_text("A")
    expect(french.get_by_role("img", name="as de oros")).to_contain_text("♦")
    expect(french.get_by_role("img", name="rey de bastos")).to_contain_text("K")
    expect(french.get_by_role("button")).to_have_count(0)  # mode "none": display only


def test_mouse_selects_cards(page):
    hand = page.get_by_role("group", name="Tu mano")
    hand.get_by_role("button", name="tres de copas").click()
    expect(mirror(page, "hand=3c")).to_be_visible()
    expect(hand.get_by_role("button", name="tres de copas")).to_have_attribute("aria-pressed", "true")
    hand.get_by_role("button", name="siete de oros").click()  # single mode: replaces the selection
    expect(mirror(page, "hand=7o")).to_be_visible()
    expect(hand.get_by_role("button", name="tres de copas")).to_have_attribute("aria-pressed", "false")
    table = page.get_by_role("group", name="Mesa")
    table.get_by_role("button", name="cinco de oros").click()
    table.get_by_role("button", name="dos de espadas").click()
    expect(mirror(page, "table=5o,2e")).to_be_visible()
    table.get_by_role("button", name="cinco de oros").click()  # click again: unselect
    expect(mirror(page, "table=2e")).to_be_visible()
    selected = table.get_by_role("button", name="dos de espadas")
    expect(selected.locator(".et-sel-mark")).to_be_visible()
    expect(selected.locator(".et-sel-mark")).to_have_text("✓")


def test_keyboard_alone_selects_cards(page):
    hand = page.get_by_role("group", name="Tu mano")
    focused = tab_into(page, hand)
    expect(focused).to_have_attribute("tabindex", "0")
    expect(hand.locator("[tabindex='0']")).to_have_count(1)  # the row is one tab stop
    page.keyboard.press("End")
    expect(page.locator("*:focus")).to_have_accessible_name("tres de copas")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("*:focus")).to_have_accessible_name("sota de espadas")
    page.keyboard.press("Enter")
    expect(mirror(page, "hand=10e")).to_be_visible()
    page.keyboard.press("Space")  # toggles it off again
    expect(mirror(page, "hand=")).to_be_visible()
    page.keyboard.press("Home")
    expect(page.locator("*:focus")).to_have_accessible_name("siete de oros")
    page.keyboard.press("Space")
    expect(mirror(page, "hand=7o")).to_be_visible()
    page.keyboard.press("Tab")  # one more Tab leaves the row
    assert not hand.evaluate("(el) => el.contains(document.activeElement)")


def test_focus_ring_is_visible(page):
    hand = page.get_by_role("group", name="Tu mano")
    tab_into(page, hand)
    outline = page.locator("*:focus").evaluate(
        "(el) => { const s = getComputedStyle(el); return [s.outlineStyle, parseFloat(s.outlineWidth)]; }")
    assert outline[0] == "solid" and outline[1] >= 2, outline


def test_disabled_row_stays_readable_but_unchanged(page):
    card = page.get_by_role("group", name="Bloqueada").get_by_role("button", name="cuatro de oros")
    expect(card).to_have_attribute("aria-disabled", "true")
    card.click(force=True)  # Playwright itself sees aria-disabled and would refuse to click
    card.focus()
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    expect(card).to_have_attribute("aria-pressed", "false")
    expect(mirror(page, "locked=")).to_be_visible()


def test_highlight_shows_at_once(page):
    """Nothing animates (an animated raise cost a dozen frames per click, which delayed the kernel's answer on a
    slow machine): a card is raised the moment it is highlighted, so a transition would fail this."""
    card = page.get_by_role("group", name="Mesa").get_by_role("button").first
    before, after = card.evaluate("""(el) => {
      el.classList.remove("is-hl");
      const before = getComputedStyle(el).transform;
      el.classList.add("is-hl");
      const after = getComputedStyle(el).transform;
      el.classList.remove("is-hl");
      return [before, after];
    }""")
    assert before == "none" and after.startswith("matrix("), (before, after)


def test_live_region_updates_in_place(page):
    status = page.get_by_role("status")
    expect(status).to_have_count(1)
    expect(status).to_have_attribute("aria-live", "polite")
    handle = status.element_handle()
    page.get_by_role("group", name="Tu mano").get_by_role("button", name="tres de copas").click()
    expect(status).to_have_text("Juegas tres de copas")
    page.get_by_role("group", name="Tu mano").get_by_role("button", name="tres de copas").click()
    expect(status).to_have_text("Ninguna carta elegida")
    assert handle.evaluate("(el) => el.isConnected")  # same element, new text: screen readers announce it


def test_row_picker_is_a_semantic_table(page):
    grid = page.get_by_role("grid", name="Capturas posibles")
    expect(grid).to_be_visible()
    expect(grid.locator("caption")).to_have_text("Capturas posibles")
    expect(grid.locator("th[scope='col']")).to_have_text(["Juegas", "Te llevas", "Suma"])
    rows = grid.locator("tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_have_accessible_name(re.compile("^siete de oros se lleva"))
    expect(grid.locator("tr[aria-selected='true']")).to_have_count(0)


def test_row_picker_mouse(page):
    grid = page.get_by_role("grid", name="Capturas posibles")
    row = grid.get_by_role("row", name="tres de copas se lleva caballo de copas y as de bastos")
    row.click()
    expect(mirror(page, "picker=3c:11c+1b")).to_be_visible()
    expect(row).to_have_attribute("aria-selected", "true")
    expect(row.locator(".et-marker")).to_be_visible()
    # besides the tint, a cue that is not colour: the thick bar on the row's left edge
    assert "inset" in row.locator("td").first.evaluate("(el) => getComputedStyle(el).boxShadow")


def test_highlighted_cards_have_non_colour_markers(page):
    # the row chosen above highlighted its table cards (11c, 1b) through Python
    table = page.get_by_role("group", name="Mesa")
    for name in ("caballo de copas", "as de bastos"):
        card = table.get_by_role("button", name=name)
        expect(card).to_have_attribute("aria-current", "true")
        expect(card.locator(".et-hl-mark")).to_be_visible()
        expect(card.locator(".et-hl-mark")).to_have_text("▼")  # ★ means an escoba row, nothing else
        card.evaluate("(el) => Promise.all(el.getAnimations().map((a) => a.finished))")  # the ring grows in 0.15 s
        assert card.evaluate("(el) => getComputedStyle(el).transform") != "none"  # raised
        assert "7px" in card.evaluate("(el) => getComputedStyle(el).boxShadow")  # thick ring
    plain = table.get_by_role("button", name="cinco de oros")
    expect(plain.locator(".et-hl-mark")).to_be_hidden()
    expect(plain).not_to_have_attribute("aria-current", "true")


def test_row_picker_keyboard(page):
    grid = page.get_by_role("grid", name="Capturas posibles")
    focused = tab_into(page, grid)
    expect(focused).to_have_attribute("aria-selected", "true")  # the tab stop is the chosen row
    expect(grid.locator("tr[tabindex='0']")).to_have_count(1)
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator("*:focus")).to_have_attribute("data-id", "3c:12b+2e")
    page.keyboard.press("Enter")
    expect(mirror(page, "picker=3c:12b+2e")).to_be_visible()
    page.keyboard.press("End")
    page.keyboard.press("Space")
    expect(mirror(page, "picker=10e:5o+2e")).to_be_visible()
    expect(grid.locator("tr[aria-selected='true']")).to_have_attribute("data-id", "10e:5o+2e")
    table = page.get_by_role("group", name="Mesa")
    expect(table.locator(".is-hl")).to_have_count(2)  # 5o and 2e now


def test_no_serious_accessibility_violations(page):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe.Axe().run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, bad


def test_no_callback_errors(page):
    assert "Traceback" not in page.locator(".jp-OutputArea").all_inner_texts().__str__()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1920, 1080)])
def test_screenshots_and_layout(page, screenshot_dir, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(300)  # let the layout settle
    # the rows wrap instead of overflowing, and every control is a 44 px touch target
    for row in page.locator(".et-row").all():
        assert row.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1"), "a card row overflows"
    for target in page.locator("button.et-card, tr[data-id]").all():
        box = target.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    tab_into(page, page.get_by_role("group", name="Mesa"))  # show a focus ring in the pictures
    page.evaluate("() => document.querySelectorAll('*').forEach((el) => { el.scrollTop = 0; })")
    page.screenshot(path=screenshot_dir / f"primitives-{width}x{height}.png")  # what the screen shows first
    # Voilà scrolls an inner element, so full_page=True stops at the viewport: make the viewport as tall as the
    # content for the whole-page picture
    tall = page.evaluate("() => Math.max(...[...document.querySelectorAll('*')].map((el) => el.scrollHeight))")
    page.set_viewport_size({"width": width, "height": max(height, tall)})
    page.wait_for_timeout(200)
    page.screenshot(path=screenshot_dir / f"primitives-{width}x{height}-full.png")
    # close-ups, to judge the card drawings and the table at their real size
    page.get_by_role("group", name="Mesa").screenshot(path=screenshot_dir / f"primitives-{width}x{height}-mesa.png")
    page.locator(".et-picker").screenshot(path=screenshot_dir / f"primitives-{width}x{height}-picker.png")
    page.set_viewport_size({"width": width, "height": height})
