"""CaptureTable, SetentaExplainer and GameTable in real headless Chromium under a real Voilà server.

One server serves three notebooks (``capture``, ``setenta``, ``game``); each page opened gets its own kernel. Every
check goes through the page as a student would use it (mouse, keyboard, the status lines), and each notebook counts
the errors its kernel logged or raised in a widget callback (those are silent in Voilà) so a test fails on them.
The tests of one notebook share its page and run in file order.
"""

from __future__ import annotations

import base64
import json
import re
import time

import pytest
from helpers import wait_captures_settled

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

# Counts kernel errors: anything logged at ERROR (ipykernel's comm errors, GameTable's guarded actions) and any
# exception a widget callback raises (ipywidgets sends those to showtraceback, which Voilà does not show).
WATCH = """
import logging
import ipywidgets as W
from IPython import get_ipython

kernel_errors = W.HTML("kernel-errors: 0", layout=W.Layout(display="none"))
kernel_errors.add_class("kernel-errors")
_errors = []

def _note(text):
    _errors.append(text)
    kernel_errors.value = f"kernel-errors: {len(_errors)} " + " | ".join(_errors)

class _ErrorCounter(logging.Handler):
    def emit(self, record):
        _note(record.getMessage() + (" " + logging.Formatter().formatException(record.exc_info)
                                     if record.exc_info else ""))

logging.getLogger().addHandler(_ErrorCounter(level=logging.ERROR))

_shell = get_ipython()
_showtraceback = _shell.showtraceback

def _callback_error(exc_tuple=None, *args, **kwargs):
    import sys
    etype, value, _tb = exc_tuple or sys.exc_info()
    _note(f"{getattr(etype, '__name__', etype)}: {value}")
    return _showtraceback(exc_tuple, *args, **kwargs)

_shell.showtraceback = _callback_error
"""

GAME_SEED = 5

NOTEBOOKS = {
    "capture": [WATCH, """
from escoba_tutor.widgets import CaptureTable

def tagged(widget, name):
    widget.add_class(name)
    return widget

mouse = tagged(CaptureTable(table="1o 4b 7o", hand="3c 5e 12b"), "ct-mouse")
keys = tagged(CaptureTable(table="1o 4b 7o", hand="3c 5e 12b"), "ct-keys")
wrong = tagged(CaptureTable(table="10o 2c 6b", hand="5e 7c 1b"), "ct-wrong")
english = tagged(CaptureTable(table="1o 4b 7o", hand="3c 5e 12b", lang="en"), "ct-en")
W.VBox([W.HTML("<h1>Escoba: las bazas de 15</h1>"), mouse,
        W.HTML("<h2>Con el teclado</h2>"), keys,
        W.HTML("<h2>Comprueba tu baza</h2>"), wrong,
        W.HTML("<h2 lang='en'>In English</h2>"), english, kernel_errors])
"""],
    "setenta": [WATCH, """
from escoba_tutor.widgets import SetentaExplainer

setenta = SetentaExplainer(piles=["7o 6c 1e 5b", "7c 7e 6o"], names=["Ana", "Luis"])
W.VBox([W.HTML("<h1>Escoba: la setenta</h1>"), setenta, kernel_errors])
"""],
    "game": [WATCH, f"""
from escoba_tutor.widgets import GameTable

game = GameTable(players=2, seed={GAME_SEED}, delay=0.3)
W.VBox([W.HTML("<h1>Escoba: una partida</h1>"), game, kernel_errors])
"""],
    # the hard level, with the hint button and the expert's review after the deal
    "expert": [WATCH, f"""
from escoba_tutor.widgets import GameTable

game = GameTable(players=2, seed={GAME_SEED}, level="expert", delay=0.2)
W.VBox([W.HTML("<h1>Escoba: contra el difícil</h1>"), game, kernel_errors])
"""],
    # a computer that takes its time: clicks made during its turn are checked without a race
    "slow": [WATCH, f"""
from escoba_tutor.widgets import GameTable

game = GameTable(players=2, seed={GAME_SEED}, delay=60)
W.VBox([W.HTML("<h1>Escoba: el ordenador piensa</h1>"), game, kernel_errors])
"""],
}

PHONE, PROJECTOR = (390, 844), (1920, 1080)

# What the status line says for the capture of the rey de bastos (12 = rey, worth 10) on 1o 4b 7o.
REY_TAKES = ("El rey de bastos se lleva el as de oros y el cuatro de bastos: rey (10) + 1 + 4 = 15. "
             "Te llevas 3 cartas (1 oro).")


# ------------------------------------------------------------------------------------------------------ helpers
def tab_into(page, container, limit=80):
    """Press Tab from the top of the page until focus is inside ``container``; return the focused element."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    for _ in range(limit):
        page.keyboard.press("Tab")
        if container.evaluate("(el) => el.contains(document.activeElement)"):
            return page.locator("*:focus")
    raise AssertionError(f"Tab never reached {container}")


def tab_until(page, target, key: str, limit=10) -> None:
    """Press ``key`` (Tab or Shift+Tab) until focus is on or inside ``target``."""
    for _ in range(limit):
        page.keyboard.press(key)
        if target.evaluate("(el) => el.contains(document.activeElement)"):
            return
    raise AssertionError(f"{key} never reached {target}")


def codes(row) -> list[str]:
    """The card codes of a CardRow, in order."""
    return row.locator("[data-code]").evaluate_all("(cards) => cards.map((c) => c.dataset.code)")


def highlighted(row) -> list[str]:
    return row.locator("[data-code][aria-current='true']").evaluate_all("(cards) => cards.map((c) => c.dataset.code)")


def page_text(page) -> str:
    return page.locator("body").inner_text()


def assert_no_errors(page) -> None:
    """No traceback or Voilà error box on the page, and no error logged or raised in the kernel."""
    text = page_text(page)
    assert "Traceback" not in text and "There was an error" not in text, text[-2000:]
    assert not page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
                            ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']").count()
    expect(page.locator(".kernel-errors")).to_have_text("kernel-errors: 0")


def serious_violations(page) -> list:
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe.Axe().run(page)
    return [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:4])
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


# Resolves once the fonts are in and the page's layout has stopped moving: the boxes of its headings, cards, rows
# and controls the same in five animation frames in a row. Rejects after 10 s of movement.
STILL = """async () => {
    await document.fonts.ready;
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    const measure = () => [...document.querySelectorAll('h1, h2, h3, .et-card, tr, .jupyter-button, .et-live')]
      .map((el) => { const r = el.getBoundingClientRect(); return `${r.x},${r.y},${r.width},${r.height}`; }).join(';');
    let last = null, same = 0;
    for (const start = performance.now(); performance.now() - start < 10000;) {
      await frame();
      const now = measure();
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 5) return;
    }
    throw new Error('the page kept moving for 10 s');
}"""


def wait_still(page) -> None:
    """Wait until the page's layout has settled (after a size change, a font or a kernel update)."""
    page.evaluate(STILL)


def screenshots(page, folder, name: str, size: tuple[int, int]) -> None:
    """What the screen shows first, and the whole page (Voilà scrolls an inner element, so the viewport is made as
    tall as the content for that one)."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    wait_still(page)
    page.evaluate("() => document.querySelectorAll('*').forEach((el) => { el.scrollTop = 0; })")
    page.screenshot(path=folder / f"{name}-{width}x{height}.png")
    tall = page.evaluate("() => Math.max(...[...document.querySelectorAll('*')].map((el) => el.scrollHeight))")
    page.set_viewport_size({"width": width, "height": max(height, tall)})
    wait_still(page)
    page.screenshot(path=folder / f"{name}-{width}x{height}-full.png")
    page.set_viewport_size({"width": width, "height": height})
    wait_still(page)


def assert_fits(page, root: str) -> None:
    """Nothing inside ``root`` sticks out of the screen (inside a scrolling box is fine: that box scrolls), and
    every card and capture row is a 44 px touch target."""
    width = page.viewport_size["width"]
    wide = page.locator(root).evaluate(
        """(root, width) => [...root.querySelectorAll('*')].filter((el) => {
             if (el.offsetParent === null || el.getBoundingClientRect().right <= width + 1) return false;
             for (let up = el.parentElement; up && up !== root.parentElement; up = up.parentElement) {
               const clip = ['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowX);
               if (clip && up.getBoundingClientRect().right <= width + 1) return false;
             }
             return true;
           }).map((el) => `${el.tagName}.${el.className}`).slice(0, 5)""", width)
    assert not wide, f"wider than a {width} px screen: {wide}"
    for target in page.locator(f"{root} button.et-card, {root} tr[data-id]").all():
        if target.is_visible():
            box = target.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, box
    cut = page.locator(root).evaluate(
        """(root) => [...root.querySelectorAll('.jupyter-button')]
             .filter((b) => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent)""")
    assert not cut, f"button labels cut off: {cut}"
    sideways = page.locator(root).evaluate(
        """(root) => [...root.querySelectorAll('.et-picker')]
             .filter((p) => p.offsetParent !== null && p.scrollWidth > p.clientWidth + 1)
             .map((p) => [p.querySelector('caption')?.textContent, p.scrollWidth, p.clientWidth])""")
    assert not sideways, f"a table of captures must be scrolled sideways: {sideways}"


# Every control of ``root`` the page shows, each scrolled to the middle of the screen, is the element found at its
# own centre (or holds it): no other element lies over any part of the page a student would click. Returns the ones
# covered, with what covers them.
COVERED_CONTROLS = """(root) => {
  const name = (el) => el ? `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}`
    + [...el.classList].slice(0, 3).map((c) => '.' + c).join('') : 'nothing';
  const controls = [...root.querySelectorAll(
    'button, a[href], input:not([type=hidden]), select, textarea, tr[data-id], [tabindex]:not([tabindex="-1"])')]
    .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden');
  const covered = [];
  for (const el of controls) {
    el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !el.contains(hit)) {
      covered.push(`${name(el)} «${el.textContent.trim().slice(0, 25)}» under ${name(hit)}`);
    }
  }
  return {checked: controls.length, covered};
}"""


def assert_no_control_covered(page, root: str = ".escoba-game-table", least: int = 10) -> None:
    """Nothing lies over any control inside ``root`` (checked at the size the page has now)."""
    found = page.locator(root).evaluate(COVERED_CONTROLS)
    size = page.viewport_size
    assert found["checked"] >= least, f"only {found['checked']} controls found at {size}"
    assert not found["covered"], f"at {size['width']}x{size['height']}: {found['covered']}"


# ================================================================================================ CaptureTable
@pytest.fixture(scope="module")
def capture_page(open_page, app_url):
    page = open_page(app_url("capture"))
    expect(page.locator(".ct-en .et-table")).to_be_visible(timeout=60_000)
    return page


def test_capture_table_lists_every_legal_capture(capture_page):
    ct = capture_page.locator(".ct-mouse")
    expect(ct.get_by_role("group", name="Mesa").get_by_role("button")).to_have_count(3)
    expect(ct.get_by_role("group", name="Tu mano").get_by_role("button")).to_have_count(3)
    grid = ct.get_by_role("grid", name="Todas las bazas posibles")
    expect(grid.locator("th[scope='col']")).to_have_text(["Carta", "Se lleva", "Suma", "Te llevas"])
    expect(grid.locator("tbody tr")).to_have_count(3)
    expect(grid.locator("tbody tr").nth(0)).to_have_accessible_name(re.compile(
        "^El tres de copas se lleva el as de oros, el siete de oros y el cuatro de bastos: 3 \\+ 1 \\+ 7 \\+ 4 = 15\\. "
        "Te llevas una escoba"))
    expect(grid.locator("tbody tr").nth(1)).to_have_accessible_name(
        "El cinco de espadas no se lleva nada: se queda en la mesa.")
    expect(grid.locator("tbody tr").nth(2)).to_have_accessible_name(REY_TAKES)
    expect(grid.locator("tr[aria-selected='true']")).to_have_count(0)
    expect(ct.get_by_role("status")).to_have_text("")


def test_card_badges_describe_their_own_card(capture_page):
    """Four capture tables on one page: every id is unique, so each card's description (its badge, e.g. the rey's
    "10") is read from that card and not from a card of another table."""
    wrong = capture_page.evaluate("""() => [...document.querySelectorAll('[aria-describedby]')]
        .filter((el) => el.getAttribute('aria-describedby').split(' ').some((id) => {
            const target = document.getElementById(id);
            return !target || !el.contains(target) || document.querySelectorAll(`[id="${id}"]`).length > 1; }))
        .map((el) => el.getAttribute('aria-describedby'))""")
    assert not wrong, f"descriptions taken from another element or a repeated id: {wrong}"
    keys = capture_page.locator(".ct-keys").get_by_role("group", name="Tu mano")
    expect(keys.get_by_role("button", name="rey de bastos")).to_have_accessible_description("10")


def test_capture_chosen_by_mouse(capture_page):
    ct = capture_page.locator(".ct-mouse")
    row = ct.get_by_role("grid", name="Todas las bazas posibles").get_by_role("row", name=REY_TAKES)
    row.click()
    expect(row).to_have_attribute("aria-selected", "true")
    expect(ct.get_by_role("status")).to_have_text(REY_TAKES)
    table, hand = ct.get_by_role("group", name="Mesa"), ct.get_by_role("group", name="Tu mano")
    expect(table.locator(".is-hl")).to_have_count(2)
    for name in ("as de oros", "cuatro de bastos"):
        card = table.get_by_role("button", name=name)
        expect(card).to_have_attribute("aria-current", "true")
        expect(card.locator(".et-hl-mark")).to_be_visible()  # the ▼: not colour alone
    expect(table.get_by_role("button", name="siete de oros")).not_to_have_attribute("aria-current", "true")
    expect(hand.get_by_role("button", name="rey de bastos")).to_have_attribute("aria-current", "true")
    expect(hand.locator(".is-hl")).to_have_count(1)
    # another row: the highlight follows it
    other = ct.get_by_role("row", name=re.compile("^El tres de copas se lleva"))
    other.click()
    expect(table.locator(".is-hl")).to_have_count(3)
    expect(row).to_have_attribute("aria-selected", "false")
    expect(ct.get_by_role("status")).to_contain_text("Te llevas una escoba y 4 cartas (el siete de oros")
    row.click()
    expect(table.locator(".is-hl")).to_have_count(2)
    expect(ct.get_by_role("status")).to_have_text(REY_TAKES)


def test_a_chosen_row_is_said_at_once_and_the_kernel_agrees(capture_page):
    """The status line says the chosen row in the click's own task, before any message of the kernel's can arrive;
    the kernel's answer, the same text, then changes nothing on the page."""
    ct = capture_page.locator(".ct-mouse")
    grid = ct.get_by_role("grid", name="Todas las bazas posibles")
    first = grid.locator("tbody tr").nth(1)  # cinco de espadas: a row whose text differs from the others
    capture_page.evaluate("""() => {
        const live = document.querySelector('.ct-mouse .et-live');
        window.__said = [];
        // bubbling, at the document: after the row's own handler, still in the click's task
        document.addEventListener('click', () => window.__said.push(['click task', live.textContent]),
                                  {once: true});
        new MutationObserver(() => window.__said.push(['changed', live.textContent]))
            .observe(live, {childList: true, characterData: true, subtree: true});
    }""")
    first.click()
    expect(ct.get_by_role("status")).to_have_text("El cinco de espadas no se lleva nada: se queda en la mesa.")
    capture_page.wait_for_timeout(500)  # the kernel's answer has come by now
    said = capture_page.evaluate("window.__said")
    text = "El cinco de espadas no se lleva nada: se queda en la mesa."
    assert ["click task", text] in said, said
    assert [what for what, _text in said].count("changed") == 1, f"the kernel's answer changed the line: {said}"
    assert all(line == text for _what, line in said), said
    grid.get_by_role("row", name=REY_TAKES).click()  # as the mouse test left it: the keyboard test compares with it
    expect(ct.get_by_role("status")).to_have_text(REY_TAKES)


def test_an_answer_to_an_earlier_click_never_shows_after_a_later_one(capture_page):
    """Two rows chosen before the kernel has answered either: the line shows the first, then the second, and the
    kernel's answer to the first click, which arrives after the second, does not bring the first back."""
    ct = capture_page.locator(".ct-mouse")
    grid = ct.get_by_role("grid", name="Todas las bazas posibles")
    five = "El cinco de espadas no se lleva nada: se queda en la mesa."
    capture_page.evaluate("""() => {
        const live = document.querySelector('.ct-mouse .et-live');
        const rows = document.querySelectorAll('.ct-mouse tr[data-id]');
        window.__said = [];
        new MutationObserver(() => window.__said.push(live.textContent))
            .observe(live, {childList: true, characterData: true, subtree: true});
        rows[0].click();  // one task: the kernel cannot have answered the first click before the second
        rows[1].click();
    }""")
    expect(ct.get_by_role("status")).to_have_text(five)
    expect(grid.locator("tbody tr").nth(1)).to_have_attribute("aria-selected", "true")
    capture_page.wait_for_timeout(1000)  # both of the kernel's answers have come by now
    said = capture_page.evaluate("window.__said")
    assert said[-1] == five and said.count(five) == 1, f"an earlier click's answer showed after the last: {said}"
    expect(ct.get_by_role("status")).to_have_text(five)
    grid.get_by_role("row", name=REY_TAKES).click()  # as the mouse test left it: the keyboard test compares with it
    expect(ct.get_by_role("status")).to_have_text(REY_TAKES)


def test_capture_chosen_by_keyboard_alone_gives_the_same_result(capture_page):
    page = capture_page
    ct = page.locator(".ct-keys")
    grid = ct.get_by_role("grid", name="Todas las bazas posibles")
    focused = tab_into(page, grid)
    expect(focused).to_have_attribute("data-id", "3c:1o+7o+4b")  # nothing chosen yet: the first row is the stop
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(page.locator("*:focus")).to_have_accessible_name(REY_TAKES)
    page.keyboard.press("Enter")
    expect(page.locator("*:focus")).to_have_attribute("aria-selected", "true")
    expect(ct.get_by_role("status")).to_have_text(REY_TAKES)
    table, hand = ct.get_by_role("group", name="Mesa"), ct.get_by_role("group", name="Tu mano")
    expect(table.locator(".is-hl")).to_have_count(2)
    mouse = page.locator(".ct-mouse")
    assert highlighted(table) == highlighted(mouse.get_by_role("group", name="Mesa")) == ["1o", "4b"]
    assert highlighted(hand) == highlighted(mouse.get_by_role("group", name="Tu mano")) == ["12b"]
    assert ct.get_by_role("status").inner_text() == mouse.get_by_role("status").inner_text()
    # build the same capture by keyboard and have it checked: Tab, arrows, Enter/Space only
    tab_until(page, hand, "Shift+Tab")  # back to the hand (each card row is one tab stop)
    page.keyboard.press("End")
    expect(page.locator("*:focus")).to_have_accessible_name("rey de bastos")
    page.keyboard.press("Enter")
    expect(hand.get_by_role("button", name="rey de bastos")).to_have_attribute("aria-pressed", "true")
    tab_until(page, table, "Shift+Tab")
    page.keyboard.press("Home")
    expect(page.locator("*:focus")).to_have_accessible_name("as de oros")
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    expect(page.locator("*:focus")).to_have_accessible_name("cuatro de bastos")
    page.keyboard.press("Space")
    expect(table.locator("[aria-pressed='true']")).to_have_count(2)
    tab_until(page, ct.get_by_role("button", name="Comprobar mi baza"), "Tab")
    page.keyboard.press("Enter")
    expect(ct.get_by_role("status")).to_have_text(
        "¡Bien! El rey de bastos se lleva el as de oros y el cuatro de bastos: juntas suman 15.")


def test_wrong_capture_is_explained(capture_page):
    ct = capture_page.locator(".ct-wrong")
    hand, table = ct.get_by_role("group", name="Tu mano"), ct.get_by_role("group", name="Mesa")
    # 5 + sota: right if the sota were 10, but it is worth 8
    hand.get_by_role("button", name="cinco de espadas").click()
    table.get_by_role("button", name="sota de oros").click()
    expect(hand.get_by_role("button", name="cinco de espadas")).to_have_attribute("aria-pressed", "true")
    expect(table.get_by_role("button", name="sota de oros")).to_have_attribute("aria-pressed", "true")
    expect(table.get_by_role("button", name="sota de oros")).to_have_accessible_description("8")  # the badge
    ct.get_by_role("button", name="Comprobar mi baza").click()
    status = ct.get_by_role("status")
    expect(status).to_have_text("Cuidado con las figuras: sota (8), caballo (9), rey (10). "
                                "Estas cartas suman 13, no 15.")
    expect(status).to_have_attribute("aria-live", "polite")
    # a wrong sum without figures names the total and what the card can take instead
    table.get_by_role("button", name="sota de oros").click()
    table.get_by_role("button", name="dos de copas").click()
    expect(status).to_have_text("")  # a changed choice clears the old verdict
    ct.get_by_role("button", name="Comprobar mi baza").click()
    expect(status).to_have_text(  # cards named in words in a sentence, not by their codes
        "Estas cartas suman 7, no 15. El cinco de espadas puede llevarse la sota de oros y el dos de copas.")
    ct.get_by_role("button", name="Borrar").click()
    expect(hand.locator("[aria-pressed='true']")).to_have_count(0)
    expect(table.locator("[aria-pressed='true']")).to_have_count(0)
    expect(status).to_have_text("")
    assert_no_errors(capture_page)


def test_bad_card_text_gets_a_clear_message(capture_page):
    ct = capture_page.locator(".ct-wrong")
    table_text = ct.get_by_role("textbox", name="Mesa")
    expect(table_text).to_have_value("10o 2c 6b")
    table_text.fill("8o 1b")
    table_text.press("Enter")
    status = ct.get_by_role("status")
    expect(status).to_have_text(re.compile("^Revisa las cartas: «8o» no es una carta: .{20,}"))
    # the last valid position stays on the screen, nothing half-changed
    assert codes(ct.get_by_role("group", name="Mesa")) == ["10o", "2c", "6b"]
    expect(ct.get_by_role("grid").locator("tbody tr")).to_have_count(4)
    assert_no_errors(capture_page)
    hand_text = ct.get_by_role("textbox", name="Mano")
    hand_text.fill("5e 7c 1b 3c")  # a fourth card: still the first problem until the table is fixed
    hand_text.press("Enter")
    table_text.fill("10o 2c 6b")
    table_text.press("Enter")
    expect(status).to_have_text("Revisa las cartas: cada jugador tiene como mucho 3 cartas")
    hand_text.fill("5e 7c")
    hand_text.press("Enter")
    expect(status).to_have_text("")
    expect(ct.get_by_role("group", name="Tu mano").get_by_role("button")).to_have_count(2)
    assert_no_errors(capture_page)


def test_capture_table_in_english(capture_page):
    ct = capture_page.locator(".ct-en")
    expect(ct.get_by_role("grid", name="Every legal capture")).to_be_visible()
    row = ct.get_by_role("row", name=re.compile("^The king of clubs takes the ace of coins and the four of clubs"))
    row.click()
    expect(ct.get_by_role("status")).to_have_text("The king of clubs takes the ace of coins and the four of clubs: "
                                                  "king (10) + 1 + 4 = 15. You get 3 cards (1 coin card).")
    # the English card faces name their figures in English too (the words come from the catalogs)
    expect(ct.get_by_role("group", name="Your hand").locator("[data-code='12b'] .et-fig")).to_have_text("king")
    expect(ct.get_by_role("button", name="Check my capture")).to_be_visible()
    expect(ct.get_by_role("group", name="Your hand")).to_be_visible()


def test_capture_table_titles_are_translated(capture_page):
    expect(capture_page.locator(".ct-mouse .escoba-title")).to_have_text("Bazas de 15")
    expect(capture_page.locator(".ct-en .escoba-title")).to_have_text("Making 15")


def test_capture_page_has_no_serious_accessibility_violations(capture_page):
    bad = serious_violations(capture_page)
    assert not bad, bad


@pytest.mark.parametrize("size", [PHONE, PROJECTOR], ids=["phone", "projector"])
def test_capture_page_screenshots(capture_page, screenshot_dir, size):
    page = capture_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    assert_fits(page, ".ct-mouse")
    screenshots(page, screenshot_dir, "capture-table", size)
    assert_no_errors(page)


# ============================================================================================= SetentaExplainer
SETENTA_STEPS = [
    "Ana, oros: el siete de oros, que vale 21.",
    "Ana, copas: el seis de copas, que vale 18.",
    "Ana, espadas: el as de espadas, que vale 16.",
    "Ana, bastos: el cinco de bastos, que vale 15.",
    "Ana: 21 + 18 + 16 + 15 = 70.",
    "Luis, oros: el seis de oros, que vale 18.",
    "Luis, copas: el siete de copas, que vale 21.",
    "Luis, espadas: el siete de espadas, que vale 21.",
    "Luis, bastos: ninguna carta de este palo, así que la setenta no vale.",
    "Luis: su setenta no vale (le faltan bastos), así que no puede ganar el punto.",
]
SETENTA_WINNER = "Ana se lleva el punto de la setenta: 70 es la única setenta válida (70 – inválida: faltan bastos)."


@pytest.fixture(scope="module")
def setenta_page(open_page, app_url):
    page = open_page(app_url("setenta"))
    expect(page.locator(".escoba-setenta .et-table").first).to_be_visible(timeout=60_000)
    return page


def test_setenta_stepped_through_to_the_winner(setenta_page):
    page = setenta_page
    box = page.locator(".escoba-setenta")
    status = box.get_by_role("status").last
    next_step = box.get_by_role("button", name="Siguiente paso")
    expect(status).to_have_text("Pulsa «Siguiente paso» para ver la setenta paso a paso.")
    ana, luis = box.get_by_role("grid", name="Setenta de Ana"), box.get_by_role("grid", name="Setenta de Luis")
    expect(ana.locator(".et-empty")).to_have_text("Pulsa «Siguiente paso» para ver la mejor carta de cada palo.")
    for n, said in enumerate(SETENTA_STEPS, start=1):
        next_step.click()
        expect(status).to_have_text(said)
        assert SETENTA_WINNER not in page_text(page)  # the winner only at the end
        if n == 4:  # Ana's best card of each suit is marked on her pile with its value
            pile = box.get_by_role("group", name="Montón de Ana")
            assert sorted(highlighted(pile)) == ["1e", "5b", "6c", "7o"]
            expect(pile.get_by_role("img", name="siete de oros")).to_have_accessible_description("21")
    expect(ana.locator("tbody tr")).to_have_count(5)
    expect(luis.locator("tbody tr")).to_have_count(5)
    expect(luis.locator("tbody tr").last).to_contain_text("inválida: faltan bastos")
    next_step.click()
    expect(status).to_have_text(SETENTA_WINNER)
    expect(box.locator("strong", has_text=SETENTA_WINNER)).to_be_visible()
    expect(next_step).to_be_disabled()
    expect(box.get_by_role("button", name="Verlo todo")).to_be_disabled()


def test_setenta_show_all(setenta_page):
    box = setenta_page.locator(".escoba-setenta")
    status = box.get_by_role("status").last
    box.get_by_role("button", name="Empezar de nuevo").click()
    expect(status).to_have_text("Pulsa «Siguiente paso» para ver la setenta paso a paso.")
    expect(box.locator("strong", has_text=SETENTA_WINNER)).to_have_count(0)
    expect(box.get_by_role("grid", name="Setenta de Ana").locator("tbody tr[data-id]")).to_have_count(0)
    box.get_by_role("button", name="Verlo todo").click()
    expect(status).to_have_text(SETENTA_WINNER)
    expect(box.locator("strong", has_text=SETENTA_WINNER)).to_be_visible()
    expect(box.get_by_role("grid", name="Setenta de Ana").locator("tbody tr")).to_have_count(5)
    expect(box.get_by_role("grid", name="Setenta de Luis").locator("tbody tr")).to_have_count(5)
    expect(box.get_by_role("button", name="Siguiente paso")).to_be_disabled()
    assert_no_errors(setenta_page)


def test_setenta_page_has_no_serious_accessibility_violations(setenta_page):
    bad = serious_violations(setenta_page)
    assert not bad, bad


# ==================================================================================================== GameTable
class Table:
    """The GameTable on a page, as a student sees it."""

    def __init__(self, page):
        self.page = page
        self.root = page.locator(".escoba-game-table")
        self.announce = self.root.locator(".et-live").first  # the game's own status line, above the board
        self.play = self.root.get_by_role("button", name="Jugar")
        self.hand = self.root.get_by_role("group", name="Tu mano")
        self.table = self.root.get_by_role("group", name="Mesa")
        self.grid = self.root.get_by_role("grid", name="Todas las bazas posibles")
        self.scores = self.root.locator("table.escoba-scores")
        self.sheet_heading = self.root.get_by_role("heading", name=re.compile("^Fin de la mano"))

    def wait_for_my_turn_or_the_sheet(self, timeout=20_000) -> bool:
        """True when it is my turn, False when the deal's score sheet is up."""
        # «Sigue siendo tu turno.»: the student changed the computer's level during their turn
        my_turn = self.root.locator(".et-live", has_text=re.compile(r"Te toca\.|Sigue siendo tu turno\."))
        expect(my_turn.or_(self.sheet_heading)).to_be_visible(timeout=timeout)
        return not self.sheet_heading.is_visible()

    def wait_for_position(self, expected: dict, timeout: float = 15) -> dict:
        """The position once it equals ``expected`` (each widget applies its update on its own, so the caption
        may change before the cards); the last one read if it never does."""
        deadline = time.monotonic() + timeout
        while True:
            now = self.position()
            if now == expected or time.monotonic() > deadline:
                return now
            self.page.wait_for_timeout(200)

    def human_plays(self) -> int:
        """How many cards I have played in this deal (the save file, read off the page, says it)."""
        from escoba_tutor import Game

        href = self.root.get_by_role("link", name=re.compile("Descargar esta partida")).get_attribute("href")
        game = Game.from_json(base64.b64decode(href.split("base64,", 1)[1]).decode())
        return sum(1 for e in game.history if e.kind == "play" and e.player == 0)

    def position(self) -> dict:
        return {"hand": codes(self.hand), "table": codes(self.table), "scores": self.scores.inner_text(),
                "rival": self.root.get_by_role("img", name="una carta boca abajo").count()}

    def play_one(self, by_cards: bool) -> str:
        """Choose the first capture (or, with no capture, the first card) and press Jugar; returns the card
        played. ``by_cards``: click the cards themselves instead of the row of the table of captures."""
        wait_captures_settled(self.root, "Tu mano", "Mesa")
        row = self.grid.locator("tbody tr[data-id]").first
        row_id = row.get_attribute("data-id")
        card, taken = row_id.split(":")
        taken = [c for c in taken.split("+") if c]
        name = self.hand.locator(f"[data-code='{card}']").get_attribute("aria-label")
        if by_cards:
            self.hand.locator(f"[data-code='{card}']").click()
            for code in taken:
                self.table.locator(f"[data-code='{code}']").click()
            expect(self.hand.locator("[aria-pressed='true']")).to_have_attribute("data-code", card)
            expect(self.table.locator("[aria-pressed='true']")).to_have_count(len(taken))
        else:
            row.click()
            expect(row).to_have_attribute("aria-selected", "true")
            expect(self.table.locator("[aria-current='true']")).to_have_count(len(taken))
        self.play.click()
        # my move is announced (or it was the deal's last and the sheet is up)
        mine = self.root.locator(".et-live", has_text=my_play(name))
        expect(mine.or_(self.sheet_heading)).to_be_visible()
        return card


def my_play(name: str) -> re.Pattern:
    """How the status line says the student's own play of the card ``name`` (a sentence in the second person)."""
    return re.compile(rf"(Juegas|Dejas) (el|la) {re.escape(name)}\b")


@pytest.fixture(scope="module")
def game_page(open_page, app_url):
    page = open_page(app_url("game"))
    expect(page.locator(".escoba-game-table .et-table")).to_be_visible(timeout=60_000)
    return page


@pytest.fixture(scope="module")
def saved(game_page):
    """Filled by the save test: the position, resume code and save file read off the page."""
    return {}


def test_a_whole_deal_played_by_clicking(game_page):
    t = Table(game_page)
    expect(t.scores.locator("caption")).to_contain_text("mano 1")
    played, turn = [], 0
    while t.wait_for_my_turn_or_the_sheet():
        hand_before = codes(t.hand)
        assert 1 <= len(hand_before) <= 3
        if played:  # the computer's reply since my last move was announced before my turn came back
            expect(t.announce).to_contain_text("El ordenador ")
        card = t.play_one(by_cards=turn % 2 == 1)
        played.append(card)
        turn += 1
        assert len(played) <= 18, "a deal gives each of 2 players 18 cards"
    assert len(played) == 18, played
    assert len(set(played)) == 18
    # who takes the cards left on the table, then the score, then what to press
    expect(t.announce).to_have_text(re.compile(r"^Fin de la mano: quedan? \d+ cartas? en la mesa \(.*\)\. "
                                               r".*(te las? llevas tú|se las? lleva)\. Aquí tienes los puntos\. "
                                               r"Pulsa «Siguiente mano» para seguir\.$"))
    expect(t.sheet_heading).to_have_text("Fin de la mano 1")
    sheet = t.root.locator("table.escoba-sheet")
    expect(sheet.locator("caption")).to_have_text("Puntos de la mano")
    expect(sheet.locator("tbody th[scope='row']").first).to_be_visible()
    for item in ("Cartas", "Oros", "Siete de oros", "Setenta"):
        expect(sheet.locator("tbody th", has_text=item).first).to_be_visible()
    expect(sheet.locator("tfoot")).to_contain_text("Total de la mano")
    expect(sheet.locator("tfoot")).to_contain_text("Total de la partida")
    # the scoreboard's points are the sheet's game totals
    game_totals = sheet.locator("tfoot tr", has_text="Total de la partida").locator("td.num").all_inner_texts()
    board = [t.scores.locator("tbody tr").nth(i).locator("td").first.inner_text() for i in range(2)]
    assert [v for v in game_totals if v] == board
    expect(t.play).to_be_hidden()  # the finished deal stays on screen: the next step is «Siguiente mano», not a play
    assert_no_errors(game_page)


def test_deal_over_page_has_no_serious_accessibility_violations(game_page):
    bad = serious_violations(game_page)
    assert not bad, bad


def test_next_deal(game_page):
    t = Table(game_page)
    t.root.get_by_role("button", name="Siguiente mano").click()
    expect(t.sheet_heading).to_have_count(0)
    expect(t.scores.locator("caption")).to_contain_text("mano 2")
    assert t.wait_for_my_turn_or_the_sheet()
    expect(t.hand.get_by_role("button")).to_have_count(3)
    expect(t.root.get_by_role("button", name="Siguiente mano")).to_be_hidden()
    for by_cards in (False, True):  # two moves into the deal
        t.play_one(by_cards)
        assert t.wait_for_my_turn_or_the_sheet()
    assert_no_errors(game_page)


def test_game_mid_deal_has_no_serious_accessibility_violations(game_page):
    bad = serious_violations(game_page)
    assert not bad, bad


# Collects every text the game's status line shows from now on (a text shown briefly is caught too).
RECORD_ANNOUNCEMENTS = """() => {
  const line = document.querySelector('.escoba-game-table .et-live');
  window.__said = [];
  new MutationObserver(() => window.__said.push(line.textContent))
    .observe(line, { childList: true, characterData: true, subtree: true });
}"""


def test_a_double_click_on_a_capture_chooses_it_and_play_plays_it_once(game_page):
    t = Table(game_page)
    assert t.wait_for_my_turn_or_the_sheet()
    before = t.human_plays()
    row = t.grid.locator("tbody tr[data-id]").first
    card = row.get_attribute("data-id").split(":")[0]
    name = t.hand.locator(f"[data-code='{card}']").get_attribute("aria-label")
    game_page.evaluate(RECORD_ANNOUNCEMENTS)
    row.dblclick()  # click, click, dblclick: the capture is chosen, and nothing more
    expect(row).to_have_attribute("aria-selected", "true")
    game_page.wait_for_timeout(1000)
    assert t.human_plays() == before
    t.play.dblclick()  # Play, twice: played once
    expect(t.root.locator(".et-live", has_text=my_play(name))).to_be_visible()
    assert t.wait_for_my_turn_or_the_sheet()
    assert t.human_plays() == before + 1
    said = game_page.evaluate("window.__said")
    assert sum(1 for text in said if text.startswith(("Juegas", "Dejas")) and "Te toca." in text) == 1, said
    assert_no_errors(game_page)


def test_clicks_during_the_computers_turn_say_why_and_play_nothing(open_page, app_url):
    page = open_page(app_url("slow"))  # the computer waits 60 s before its move
    t = Table(page)
    expect(t.root.locator(".et-table")).to_be_visible(timeout=60_000)
    assert t.wait_for_my_turn_or_the_sheet()
    before = t.human_plays()
    t.grid.locator("tbody tr[data-id]").first.click()
    t.play.click()
    expect(t.announce).to_contain_text("El ordenador está pensando…")
    expect(t.play).to_be_enabled()  # clickable, so that a click can say why it does nothing
    t.grid.locator("tbody tr[data-id]").first.dblclick()  # chooses, plays nothing
    t.play.click()
    expect(t.announce).to_contain_text("Espera: juega el ordenador.")
    page.evaluate(RECORD_ANNOUNCEMENTS)
    t.play.click()
    expect(t.announce).to_contain_text("Espera: juega el ordenador.")
    assert t.human_plays() == before + 1
    assert_no_errors(page)


def test_text_and_controls_are_readable_on_a_projector(game_page):
    t = Table(game_page)
    game_page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
    sizes = {name: locator.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)") for name, locator in (
        ("Play button", t.play), ("scoreboard", t.scores.locator("td").first),
        ("status line", t.announce), ("title", t.root.locator(".escoba-title").first),
        ("rules dropdown", t.root.get_by_role("combobox").first))}
    assert all(size >= 18 for size in sizes.values()), sizes
    for control in (t.play, t.root.get_by_role("button", name="Deshacer"), t.root.get_by_role("combobox").first,
                    t.root.get_by_role("textbox", name="Código")):
        width = control.evaluate("(el) => parseFloat(getComputedStyle(el).borderTopWidth)")
        assert width >= 1, f"{control} has no visible border"
    t.root.get_by_role("textbox", name="Código").focus()
    outline = game_page.locator("*:focus").evaluate("(el) => getComputedStyle(el).outlineWidth")
    assert float(outline.removesuffix("px")) >= 2, outline
    game_page.set_viewport_size({"width": 1280, "height": 900})


def test_on_a_phone_the_status_line_stays_in_view_near_the_controls(game_page):
    """On a phone the status line sits right under Play, so what a press did shows next to it (and the page moves
    up to show it: test_game_phone_browser.py); further down, where the level is chosen, a short line is pinned at
    the top edge, so the sentence about the new level shows there, over none of the controls."""
    t = Table(game_page)
    assert t.wait_for_my_turn_or_the_sheet()
    game_page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    try:
        play, line = t.play.bounding_box(), t.announce.bounding_box()
        assert play["y"] + play["height"] <= line["y"] + 1, ("the status line is under Play", play, line)
        level = t.root.get_by_role("combobox", name="Ordenador")
        level.scroll_into_view_if_needed()
        level.select_option("medio")
        expect(t.announce).to_contain_text("«medio»")
        for control in (level, t.root.get_by_role("button", name="Partida nueva")):
            control.scroll_into_view_if_needed()
            for _ in range(30):  # the page settles after the scroll (slower on a loaded machine)
                game_page.wait_for_timeout(100)
                box, shown = t.announce.bounding_box(), control.bounding_box()
                if box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1] + 1:
                    break
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1] + 1, (control, box)
            assert shown["y"] + shown["height"] <= box["y"] + 1 or shown["y"] >= box["y"] + box["height"] - 1, \
                "the status line covers the control"
        level.select_option("fácil")
        expect(t.announce).to_contain_text("«fácil»")
    finally:
        game_page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("size", [(1280, 800), PROJECTOR], ids=["laptop", "projector"])
def test_nothing_covers_a_control_of_the_game(game_page, size):
    t = Table(game_page)
    assert t.wait_for_my_turn_or_the_sheet()
    game_page.set_viewport_size({"width": size[0], "height": size[1]})
    try:
        row = t.grid.locator("tbody tr[data-id]").first
        row.click()
        expect(row).to_have_attribute("aria-selected", "true")
        assert_no_control_covered(game_page)
    finally:
        game_page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("size", [PHONE, PROJECTOR], ids=["phone", "projector"])
def test_game_mid_deal_screenshots(game_page, screenshot_dir, size):
    t = Table(game_page)
    game_page.set_viewport_size({"width": size[0], "height": size[1]})
    row = t.grid.locator("tbody tr[data-id]").first
    row.click()  # a chosen capture, so the pictures show the highlights
    expect(row).to_have_attribute("aria-selected", "true")
    assert_fits(game_page, ".escoba-game-table")
    screenshots(game_page, screenshot_dir, "game-table", size)


def test_save_file_and_resume_code_hold_the_position(game_page, saved):
    from escoba_tutor import Game

    t = Table(game_page)
    assert t.wait_for_my_turn_or_the_sheet()
    position = t.position()
    code = t.root.locator("code.escoba-code").inner_text().strip()
    assert re.fullmatch(r"[0-9A-Z-]{10,}", code), code
    href = t.root.get_by_role("link", name=re.compile("Descargar esta partida")).get_attribute("href")
    prefix = "data:application/json;base64,"
    assert href.startswith(prefix)
    text = base64.b64decode(href[len(prefix):]).decode()
    json.loads(text)
    game = Game.from_json(text)
    assert [c.code for c in game.hand(0)] == position["hand"]
    assert [c.code for c in game.table] == position["table"]
    assert len(game.hand(1)) == position["rival"]
    assert len(game.deals) == 1 and game.turn == 0
    board = [line.split("\t") for line in position["scores"].splitlines() if line.startswith(("Tú", "El ordenador"))]
    assert [int(line[1]) for line in board] == list(game.totals)
    assert Game.from_resume_code(code).state_key() == game.state_key()
    saved.update(position=position, code=code, json=text)


def test_resume_code_on_a_fresh_page(open_page, app_url, saved):
    if not saved:
        pytest.skip("needs the position saved by the test before")
    page = open_page(app_url("game"))
    t = Table(page)
    expect(t.root.locator(".et-table")).to_be_visible(timeout=60_000)
    assert t.wait_for_my_turn_or_the_sheet()
    expect(t.scores.locator("caption")).to_contain_text("mano 1")  # a new kernel: a new game
    assert t.position() != saved["position"]
    code_field = t.root.get_by_role("textbox", name="Código")
    resume = t.root.get_by_role("button", name="Continuar")
    code_field.fill("hola")
    resume.click()
    expect(t.announce).to_have_text("El código para continuar está cortado: quizá falta un trozo.")
    code_field.fill(saved["code"])
    resume.click()
    expect(t.scores.locator("caption")).to_contain_text("mano 2")
    expect(code_field).to_have_value("")
    assert t.wait_for_my_turn_or_the_sheet()
    assert t.wait_for_position(saved["position"]) == saved["position"]
    expect(t.root.locator("code.escoba-code")).to_have_text(saved["code"])
    # a new game, then the downloaded file uploaded: the same position again
    t.root.get_by_role("button", name="Partida nueva").click()
    t.root.get_by_role("button", name="Sí, partida nueva").click()  # a game under way: asked first
    expect(t.scores.locator("caption")).to_contain_text("mano 1")
    with page.expect_file_chooser() as chooser:
        t.root.get_by_role("button", name="Cargar una partida").click()
    chooser.value.set_files(files=[{"name": "escoba-game.json", "mimeType": "application/json",
                                    "buffer": saved["json"].encode()}])
    expect(t.scores.locator("caption")).to_contain_text("mano 2")
    assert t.wait_for_my_turn_or_the_sheet()
    assert t.wait_for_position(saved["position"]) == saved["position"]
    assert_no_errors(page)


# ======================================================================================= hints and the expert
@pytest.fixture(scope="module")
def expert_page(open_page, app_url):
    page = open_page(app_url("expert"))
    expect(page.locator(".escoba-game-table .et-table")).to_be_visible(timeout=60_000)
    return page


def test_the_hint_button_shows_the_ranked_moves_and_goes_away_after_the_play(expert_page, screenshot_dir):
    t = Table(expert_page)
    assert t.wait_for_my_turn_or_the_sheet()
    hint = t.root.get_by_role("button", name="Pista")
    panel = t.root.locator(".escoba-hint-panel")
    expect(panel).to_be_hidden()
    hint.click()
    expect(panel.get_by_role("heading", name="Qué jugaría el experto")).to_be_visible(timeout=20_000)
    rows = panel.locator("table.escoba-hints tbody tr")
    expect(rows.first).to_be_visible()
    legal = t.grid.locator("tbody tr[data-id]").count()
    assert 1 <= rows.count() <= min(3, legal)
    best = rows.first.locator("th").inner_text()
    mine = set(t.hand.locator("[data-code]").evaluate_all("(cards) => cards.map((c) => c.getAttribute('aria-label'))"))
    # it speaks of a card in my own hand, with its article
    assert any(best.lower().startswith((f"el {name}", f"la {name}")) for name in mine), (best, mine)
    # what the move is worth, in words a student reads
    expect(rows.first.locator("td.num")).to_have_text(
        re.compile(r"^(\d+,\d puntos (más|menos) que el otro bando|los mismos puntos que el otro bando)$"))
    bad = serious_violations(expert_page)
    assert not bad, bad
    for size in (PHONE, PROJECTOR):
        screenshots(expert_page, screenshot_dir, "expert-hint", size)
    t.play_one(by_cards=False)  # at projector size, with the panel open: the row and Play take the clicks
    expect(panel).to_be_hidden()
    assert_no_errors(expert_page)


def test_nothing_covers_a_control_at_any_width_with_the_hint_open(expert_page):
    """The wide board's two columns once squeezed the list of captures to nothing when the hint panel opened (its
    rows then lay outside their box, where a click could not reach them): every control stays reachable, from a
    small phone to a wide projector."""
    t = Table(expert_page)
    assert t.wait_for_my_turn_or_the_sheet()
    t.grid.locator("tbody tr[data-id]").first.click()  # a chosen capture: its cards raised and ringed
    hint = t.root.get_by_role("button", name="Pista")
    hint.click()
    expect(t.root.locator(".escoba-hint-panel table.escoba-hints tbody tr").first).to_be_visible(timeout=20_000)
    try:
        for width, height in ((320, 640), PHONE, (600, 900), (800, 900), (1199, 800), (1200, 800), (1280, 800),
                              (1600, 900), PROJECTOR, (2560, 1440)):
            expert_page.set_viewport_size({"width": width, "height": height})
            assert_no_control_covered(expert_page)
            expect(t.root.locator(".escoba-hint-panel")).to_be_visible()
    finally:
        expert_page.set_viewport_size({"width": 1280, "height": 900})
    hint.click()  # the panel closed again, as the next test expects the board
    expect(t.root.locator(".escoba-hint-panel")).to_be_hidden()


def test_after_a_deal_the_expert_names_the_costliest_play(expert_page):
    t = Table(expert_page)
    while t.wait_for_my_turn_or_the_sheet(timeout=30_000):
        t.play_one(by_cards=False)
    ask = t.root.get_by_role("button", name="¿Qué habría jugado el experto?")
    expect(ask).to_be_visible()
    ask.click()
    answer = t.root.locator(".escoba-expert-review")
    expect(answer).to_be_visible(timeout=60_000)
    expect(answer).to_contain_text(re.compile("La jugada que más te costó|tan buenas como las del experto"))
    assert_no_errors(expert_page)
