"""The game board as students and a teacher live it, in real headless Chromium under a real Voilà server: a reload
offers the game back (with its level), one deliberate action per click or tap, the level chooser, the end of a
deal, the board and the score sheet on a phone, a keyboard focus ring on every kind of control (compared in
screenshots taken with and without focus), and screenshots at a phone's, a laptop's and a projector's size in
both languages.

One Voilà server serves the module's notebooks; every page opened gets a kernel of its own. The tests of one page
share it and run in file order.
"""

from __future__ import annotations

import base64
import re

import pytest
from helpers import assert_no_error, wait_rendered
from test_widgets_browser import (
    WATCH,
    Table,
    assert_no_control_covered,
    assert_no_errors,
    codes,
    screenshots,
    wait_still,
)

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

SEED = 5
PAGE_TIMEOUT = 30_000  # per step of a page open_page opens (tests/browser/conftest.py): games on a busy machine
PHONE, LAPTOP, PROJECTOR = (390, 844), (1280, 800), (1920, 1080)

# Plays both sides until the student's last card of the first deal (the test plays it and ends the deal).
TO_THE_LAST_CARD = """
s = game.session
while True:
    s.finish_computer_turns()
    g = s.game
    if s.phase != "play" or (g.turn == 0 and len(g.hand(0)) == 1 and g.view(0).deck_left == 0):
        break
    s.play(g.legal_moves()[0])
"""


def game_cell(lang: str, extra: str = "", title: str = "Escoba") -> str:
    return f"""
from escoba_tutor.widgets import GameTable

game = GameTable(players=2, seed={SEED}, delay=0.2, lang="{lang}")
{extra}
W.VBox([W.HTML("<h1>{title}</h1>"), game, kernel_errors])
"""


NOTEBOOKS = {
    "game": [WATCH, game_cell("es")],
    "game_en": [WATCH, game_cell("en")],
    "game4": [WATCH, game_cell("es").replace("players=2", "players=4")],
    "deal_end": [WATCH, game_cell("es", TO_THE_LAST_CARD)],
    "deal_end_en": [WATCH, game_cell("en", TO_THE_LAST_CARD)],
    "capture": [WATCH, """
from escoba_tutor.widgets import CaptureTable

W.VBox([W.HTML("<h1>Bazas</h1>"), CaptureTable(table="1o 4b 7o", hand="3c 5e 12b"), kernel_errors])
"""],
}


def played_by_me(table: Table) -> int:
    return table.human_plays()


def saved_game(table: Table):
    """The game in the save file the page offers for download."""
    from escoba_tutor import Game

    href = table.root.get_by_role("link", name=re.compile("Descargar esta partida")).get_attribute("href")
    return Game.from_json(base64.b64decode(href.split("base64,", 1)[1]).decode())


def resume_code(table: Table) -> str:
    return table.root.locator("code.escoba-code").inner_text().strip()


# «Partida nueva» and not the confirmation's «Sí, partida nueva» (the name may start with the icon's character).
NEW_GAME = re.compile(r"^\W*Partida nueva$")
# How long a step that waits for the kernel's answer may take on a busy machine (expect's own default is 5 s).
KERNEL = 30_000


def choose_and_play(table: Table) -> None:
    """Choose the first capture in the list and press Play; wait for my turn again."""
    table.play_one(by_cards=False)
    assert table.wait_for_my_turn_or_the_sheet()


# ============================================================================= nothing lost: reload -> continue
def test_a_reload_offers_the_game_back_with_its_level(open_page, app_url):
    page = open_page(app_url("game"))
    t = Table(page)
    expect(t.grid).to_be_visible(timeout=120_000)
    offer = t.root.get_by_role("button", name="Sí, continuar")
    expect(offer).to_be_hidden()  # a first visit: nothing kept, nothing offered
    assert t.wait_for_my_turn_or_the_sheet()
    level = t.root.get_by_role("combobox", name="Ordenador")
    level.select_option(label="medio")
    expect(t.announce).to_contain_text("A partir de ahora, el ordenador jugará en el nivel «medio».")
    choose_and_play(t)
    choose_and_play(t)
    position, code = t.position(), resume_code(t)
    page.reload()
    t = Table(page)
    expect(t.grid).to_be_visible(timeout=120_000)
    expect(t.root.get_by_text("¿Continuar tu partida?")).to_be_visible(timeout=30_000)
    expect(level).to_have_value("fácil")  # the new page's own new game, at its own level, until continued
    assert played_by_me(t) == 0
    t.root.get_by_role("button", name="Sí, continuar").click()
    expect(t.root.get_by_text("¿Continuar tu partida?")).to_be_hidden()
    assert t.wait_for_my_turn_or_the_sheet()
    assert t.wait_for_position(position) == position
    expect(t.root.locator("code.escoba-code")).to_have_text(code)
    expect(level).to_have_value("medio")
    expect(level.locator("option:checked")).to_have_text("medio")
    assert played_by_me(t) == 2
    assert_no_errors(page)
    # another lesson page in the same browser keeps its own game: the Spanish game is not offered there
    other = page.context.new_page()
    other.set_default_navigation_timeout(120_000)
    try:
        other.goto(app_url("game_en"))
        expect(other.locator(".escoba-game-table .et-table")).to_be_visible(timeout=120_000)
        other.wait_for_timeout(1500)
        expect(other.get_by_text("Continue your game?")).to_be_hidden()
        kept = other.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('escoba-tutor:game:'))")
        assert len(kept) == 1 and kept[0].endswith("/game.ipynb:es:escoba"), kept
    finally:
        other.goto("about:blank")
        other.close()


# ========================================================================== one deliberate action per click or tap
@pytest.fixture(scope="module")
def game_page(open_page, app_url):
    page = open_page(app_url("game"))
    expect(page.locator(".escoba-game-table .et-table")).to_be_visible(timeout=120_000)
    return page


def test_a_double_click_on_a_capture_row_chooses_it_and_plays_nothing(game_page):
    t = Table(game_page)
    assert t.wait_for_my_turn_or_the_sheet()
    before, code = played_by_me(t), resume_code(t)
    row = t.grid.locator("tbody tr[data-id]").first
    row.dblclick()
    expect(row).to_have_attribute("aria-selected", "true")
    game_page.wait_for_timeout(1500)  # time for a play to arrive, if one were made
    assert played_by_me(t) == before and resume_code(t) == code
    t.play.click()
    expect(t.root.locator(".et-live", has_text=re.compile("^(Juegas|Dejas) "))).to_be_visible()
    assert t.wait_for_my_turn_or_the_sheet()
    assert played_by_me(t) == before + 1
    assert_no_errors(game_page)


def test_a_double_tap_on_a_capture_row_plays_nothing(open_page, app_url, browser):
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_navigation_timeout(120_000)
    page.set_default_timeout(30_000)
    try:
        page.goto(app_url("game"))
        t = Table(page)
        expect(t.grid).to_be_visible(timeout=120_000)
        assert t.wait_for_my_turn_or_the_sheet()
        before = played_by_me(t)
        row = t.grid.locator("tbody tr[data-id]").first
        row.scroll_into_view_if_needed()
        row.tap()
        row.tap()
        expect(row).to_have_attribute("aria-selected", "true")
        page.wait_for_timeout(1500)
        assert played_by_me(t) == before
        assert_no_errors(page)
    finally:
        page.goto("about:blank")
        context.close()


def test_a_double_click_on_undo_takes_back_one_move(game_page):
    t = Table(game_page)
    assert t.wait_for_my_turn_or_the_sheet()
    choose_and_play(t)
    before = played_by_me(t)
    assert before >= 2
    undo = t.root.get_by_role("button", name="Deshacer")
    undo.dblclick()
    game_page.wait_for_timeout(1500)  # both clicks reached the kernel
    assert t.wait_for_my_turn_or_the_sheet()
    assert played_by_me(t) == before - 1
    assert_no_errors(game_page)


def test_a_new_game_asks_first_while_a_game_is_under_way(game_page):
    t = Table(game_page)
    assert played_by_me(t) >= 1
    code = resume_code(t)
    new = t.root.get_by_role("button", name=NEW_GAME)
    new.dblclick()
    ask = t.root.get_by_text("¿Empezar una partida nueva?")
    expect(ask).to_be_visible(timeout=KERNEL)
    game_page.wait_for_timeout(1000)
    assert resume_code(t) == code, "a double click on New game replaced the game"
    t.root.get_by_role("button", name="No, seguir jugando").click()
    expect(ask).to_be_hidden(timeout=KERNEL)
    assert resume_code(t) == code
    new.click()
    t.root.get_by_role("button", name="Sí, partida nueva").click()
    expect(ask).to_be_hidden(timeout=KERNEL)
    expect(t.root.get_by_role("button", name="Deshacer")).to_be_disabled(timeout=KERNEL)
    assert t.wait_for_my_turn_or_the_sheet()
    assert played_by_me(t) == 0
    assert_no_errors(game_page)


def test_the_level_chooser_applies_at_once_and_shows_the_level_played(game_page):
    t = Table(game_page)
    assert t.wait_for_my_turn_or_the_sheet()
    choose_and_play(t)
    code = resume_code(t)
    level = t.root.get_by_role("combobox", name="Ordenador")
    level.select_option(label="difícil")
    expect(t.announce).to_contain_text("A partir de ahora, el ordenador jugará en el nivel «difícil».")
    expect(t.root.locator("code.escoba-code")).not_to_have_text(code)  # the code carries the new level
    choose_and_play(t)  # the computer answers at its new level; the chooser still shows it
    expect(level.locator("option:checked")).to_have_text("difícil")
    assert played_by_me(t) == 2, "choosing a level keeps the game"
    # players and rules apply to a new game, and the board says so
    players = t.root.get_by_role("combobox", name="Jugadores")
    players.select_option("3")
    expect(t.root.get_by_text("Los jugadores, las reglas y el modo cambian al pulsar «Partida nueva».")).to_be_visible()
    players.select_option("2")
    expect(t.root.get_by_text("Los jugadores, las reglas y el modo cambian al pulsar «Partida nueva».")).to_be_hidden()
    assert_no_errors(game_page)


# ===================================================================================== the board on a phone
def boxes(page) -> dict:
    return page.locator(".escoba-game-table").evaluate(BOXES)


BOXES = """(root) => {
    const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom,
                                                                     left: r.left, right: r.right}; };
    const play = [...root.querySelectorAll('.jupyter-button')].find((b) => b.textContent.trim() === 'Jugar');
    const chosen = root.querySelector('.et-table tr.is-selected');
    return {status: box(root.querySelector('.escoba-game-status')), others: box(root.querySelector('.escoba-others')),
            mesa: box(root.querySelector('.escoba-ct-label')), play: box(play),
            chosen: chosen && box(chosen), list: box(root.querySelector('.escoba-ct-list .et-picker')),
            cards: [...root.querySelectorAll('.escoba-ct-cards .et-card')].map(box)};
}"""

# Resolves with the board's boxes once the fonts are in and the layout has stopped moving: the same boxes in five
# animation frames in a row (a size change, a font arriving or a kernel update each move something for a frame or
# more). Rejects after 10 s of movement.
SETTLED = """async (root) => {
    await document.fonts.ready;
    const measure = ROOT_BOXES;
    const frame = () => new Promise((done) => requestAnimationFrame(done));
    let last = null, same = 0;
    for (const start = performance.now(); performance.now() - start < 10000;) {
      await frame();
      const now = JSON.stringify(measure(root));
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 5) return JSON.parse(now);
    }
    throw new Error('the board kept moving for 10 s: ' + last);
}""".replace("ROOT_BOXES", BOXES)

# Scrolls the page so that the game's live part starts at the top of the screen: the scoreboard just above it, the
# other players' cards at the top edge, the status line in its own place under Play. Scrolling the board itself
# into view would depend on where the page was.
BOARD_AT_THE_TOP = """(root) => {
    const above = root.querySelector('.escoba-scoreboard');
    let scroller = above.parentElement;
    while (scroller && !(scroller.scrollHeight > scroller.clientHeight
                         && ['auto', 'scroll'].includes(getComputedStyle(scroller).overflowY))) {
      scroller = scroller.parentElement;
    }
    scroller = scroller || document.scrollingElement;
    // a sticky line sticks at the scroller's padding edge (Voila's scroller has 10 px of padding at its top)
    const top = (scroller === document.scrollingElement ? 0 : scroller.getBoundingClientRect().top)
      + parseFloat(getComputedStyle(scroller).paddingTop);
    scroller.scrollBy({top: above.getBoundingClientRect().bottom - top, behavior: 'instant'});
}"""


def overlaps(a: dict, b: dict) -> bool:
    return a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1 and a["left"] < b["right"] - 1 and \
        b["left"] < a["right"] - 1


def test_on_a_phone_the_whole_board_fits_one_screen(game_page, screenshot_dir):
    game_page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    try:
        assert_the_board_fits_a_phone(game_page, screenshot_dir / "board-one-screen-2-players-390x844.png")
    finally:
        game_page.set_viewport_size({"width": 1280, "height": 900})


def test_on_a_phone_a_game_of_four_fits_one_screen_too(open_page, app_url, screenshot_dir):
    """Three other players' rows of face-down cards above the table still leave the hand and Play in view."""
    page = open_page(app_url("game4"), width=PHONE[0], height=PHONE[1])
    expect(page.locator(".escoba-game-table .et-table")).to_be_visible(timeout=120_000)
    expect(page.locator(".escoba-others .et-row")).to_have_count(3)
    assert_the_board_fits_a_phone(page, screenshot_dir / "board-one-screen-4-players-390x844.png")
    assert_no_errors(page)


def assert_the_board_fits_a_phone(page, picture) -> None:
    t = Table(page)
    assert t.wait_for_my_turn_or_the_sheet()
    rows = t.grid.locator("tbody tr[data-id]")
    rows.last.click()  # the last capture: the one furthest down (its list scrolls to it)
    expect(rows.last).to_have_attribute("aria-selected", "true")
    t.root.evaluate(BOARD_AT_THE_TOP)
    b = t.root.evaluate(SETTLED)
    # the board from its top, Play on the same screen, and the status line right under Play (never over a card)
    assert b["play"]["bottom"] <= b["status"]["top"] + 1, b
    assert b["play"]["bottom"] <= PHONE[1], f"Play ends {b['play']['bottom'] - PHONE[1]:.0f} px below: {b}"
    assert all(card["top"] >= 0 and card["bottom"] <= PHONE[1] for card in b["cards"]), "the table and the hand"
    assert b["chosen"]["top"] >= b["list"]["top"] - 1 and b["chosen"]["bottom"] <= b["list"]["bottom"] + 1, \
        "the chosen capture is in view in its list"
    assert b["chosen"]["bottom"] <= PHONE[1]
    assert not any(overlaps(b["status"], card) for card in b["cards"]), "the status line covers a card"
    page.screenshot(path=picture)
    # a long refusal, with the page scrolled to Play: the status line grows but never covers the cards
    page.evaluate("""() => { const line = document.querySelector('.escoba-game-status .et-live');
        line.textContent = 'Elige una baza de la lista, o una carta de tu mano (y las cartas que se lleva), y '
          + 'pulsa «Jugar». Ordenador: siete de oros, se lleva cuatro de bastos, cuatro de copas. Te toca.'; }""")
    t.play.evaluate("(el) => el.scrollIntoView({block: 'end', behavior: 'instant'})")
    b = t.root.evaluate(SETTLED)
    assert b["play"]["bottom"] <= PHONE[1] + 1, b
    assert not any(overlaps(b["status"], card) for card in b["cards"] if card["bottom"] > 0), b
    assert all(card["top"] >= 0 for card in b["cards"]), "with Play at the bottom, the table and hand show"


# ================================================================================================= the deal's end
@pytest.fixture(scope="module")
def deal_end_page(open_page, app_url):
    page = open_page(app_url("deal_end"), width=PHONE[0], height=PHONE[1])
    expect(page.locator(".escoba-game-table .et-table")).to_be_visible(timeout=120_000)
    return page


def test_the_finished_deal_stays_on_screen_until_the_student_moves_on(deal_end_page):
    page = deal_end_page
    t = Table(page)
    assert t.wait_for_my_turn_or_the_sheet()
    assert len(codes(t.hand)) == 1
    card = codes(t.hand)[0]
    table_before = codes(t.table)
    t.play_one(by_cards=False)
    expect(t.sheet_heading).to_have_text("Fin de la mano 1")
    expect(t.announce).to_have_text(re.compile(r"^Fin de la mano: .* Pulsa «Siguiente mano» para seguir\.$"))
    # the finished deal: my hand is empty and the table is as my last play left it (not the next deal's four)
    expect(t.hand.locator("[data-code]")).to_have_count(0)
    game = saved_game(t)
    assert len(game.deals) == 1 and card not in table_before
    assert codes(t.table) == [c.code for c in game.deals[0].tables()[-1]], "the table as the deal ended"
    expect(t.scores.locator("caption")).to_contain_text("mano 1")
    expect(t.root.get_by_role("button", name="Deshacer")).to_be_hidden()
    # "Siguiente mano" is right under the heading: within one phone screen of it
    next_deal = t.root.get_by_role("button", name="Siguiente mano")
    t.sheet_heading.evaluate("(el) => el.scrollIntoView({block: 'start'})")
    wait_still(page)
    heading, button = t.sheet_heading.bounding_box(), next_deal.bounding_box()
    assert button["y"] - heading["y"] >= 0 and button["y"] + button["height"] <= PHONE[1], (heading, button)
    assert_no_errors(page)


def test_the_score_sheet_fits_a_phone_with_nothing_outside_its_box(deal_end_page):
    page = deal_end_page
    sheet = page.locator(".escoba-game-table table.escoba-sheet")
    expect(sheet).to_be_visible()
    out = sheet.evaluate("""(table) => {
        const box = table.closest('.widget-html-content, .widget-html') || table.parentElement;
        const edge = box.getBoundingClientRect();
        const outside = [...table.querySelectorAll('th, td, caption')].filter((el) => el.offsetParent !== null)
          .filter((el) => { const r = el.getBoundingClientRect();
                            return r.right > Math.min(edge.right, innerWidth) + 1 || r.left < edge.left - 1; })
          .map((el) => el.textContent.slice(0, 40));
        const scrolls = [...document.querySelectorAll('.escoba-score-sheet *')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1
                          && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
          .map((el) => el.className);
        return {outside, scrolls};
    }""")
    assert out == {"outside": [], "scrolls": []}, out
    # each point stands as its own block: the item, then each side's value with its label, then why
    first = sheet.locator("tbody tr").first
    assert first.evaluate("(tr) => getComputedStyle(tr).display") == "flex"
    expect(first.locator("td.num").first).to_have_attribute("data-label", re.compile("^Tú · "))
    why = first.locator("td").last
    assert why.evaluate("(td) => getComputedStyle(td, '::before').content").startswith('"Por qué')


def test_next_deal_goes_on_and_undo_stays_in_the_new_deal(deal_end_page):
    page = deal_end_page
    t = Table(page)
    t.root.get_by_role("button", name="Siguiente mano").click()
    expect(t.sheet_heading).to_have_count(0)
    expect(t.scores.locator("caption")).to_contain_text("mano 2")
    assert t.wait_for_my_turn_or_the_sheet()
    expect(t.hand.get_by_role("button")).to_have_count(3)
    expect(t.root.get_by_role("button", name="Deshacer")).to_be_disabled()  # nothing of mine in this deal yet
    assert_no_errors(page)


# ============================================================================ focus: a ring on every kind of control
# What kind of control an element is (the first one of each kind in the tab order is compared).
KIND = """(el) => {
  if (!el || !el.closest('.escoba-game-table')) return null;
  if (el.matches('tr[data-id]')) return 'capture row';
  if (el.matches('button.et-card')) return 'card';
  if (el.matches('.widget-toggle-buttons button')) return 'toggle buttons';
  if (el.matches('.widget-toggle-button')) return 'toggle button';
  if (el.matches('.widget-upload, .widget-upload button')) return 'file upload';
  if (el.matches('.jupyter-button.mod-primary')) return 'primary button';
  if (el.matches('.jupyter-button')) return 'button';
  if (el.matches('select')) return 'dropdown';
  if (el.matches('input[type=text]')) return 'text input';
  if (el.matches('a')) return 'link';
  return 'other: ' + el.tagName;
}"""

# Pixels of the ring: how many changed with a contrast of at least 3:1 between the two pictures (WCAG 2.2 focus
# appearance), compared in the browser's own canvas.
COMPARE = """async ([before, after]) => {
  const load = (src) => new Promise((done) => { const i = new Image(); i.onload = () => done(i); i.src = src; });
  const [a, b] = await Promise.all([load(before), load(after)]);
  const pixels = (img) => { const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
    const g = c.getContext('2d'); g.drawImage(img, 0, 0); return g.getImageData(0, 0, img.width, img.height).data; };
  const p = pixels(a), q = pixels(b);
  const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (d, i) => {
    return 0.2126 * f(d[i]) + 0.7152 * f(d[i + 1]) + 0.0722 * f(d[i + 2]); };
  let strong = 0;
  for (let i = 0; i < p.length; i += 4) {
    const x = lum(p, i), y = lum(q, i);
    if ((Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05) >= 3) strong++;
  }
  return strong;
}"""

PAD = 12  # px around the control: an outside ring is inside the picture


def _clip(element) -> dict:
    element.evaluate("(el) => el.scrollIntoView({block: 'center', inline: 'nearest'})")
    box = element.bounding_box()
    return {"x": max(0, box["x"] - PAD), "y": max(0, box["y"] - PAD), "width": box["width"] + 2 * PAD,
            "height": box["height"] + 2 * PAD}, box


def test_every_kind_of_control_shows_a_focus_ring_by_keyboard(open_page, app_url, screenshot_dir):
    page = open_page(app_url("game"))
    t = Table(page)
    expect(t.grid).to_be_visible(timeout=120_000)
    assert t.wait_for_my_turn_or_the_sheet()
    page.mouse.move(0, 0)
    # first pass, by keyboard: the first control of each kind in the tab order is marked
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")
    page.locator("h1").first.click()
    kinds: dict[str, int] = {}
    for n in range(120):
        page.keyboard.press("Tab")
        kind = page.evaluate(f"({KIND})(document.activeElement)")
        if kind and kind not in kinds:
            kinds[kind] = n
            page.evaluate("(kind) => document.activeElement.setAttribute('data-focus-kind', kind)", kind)
    expected = {"capture row", "card", "toggle buttons", "toggle button", "file upload", "primary button", "button",
                "dropdown", "text input", "link"}
    assert expected <= set(kinds), f"kinds reached by Tab: {sorted(kinds)}"
    # unfocused pictures
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")
    page.mouse.move(0, 0)
    before = {}
    for kind in expected:
        element = page.locator(f"[data-focus-kind='{kind}']")
        clip, _box = _clip(element)
        wait_still(page)
        before[kind] = page.screenshot(clip=clip)
    # second pass: Tab to each, the same picture focused
    page.locator("h1").first.click()
    results = {}
    for _n in range(120):
        page.keyboard.press("Tab")
        kind = page.evaluate("() => document.activeElement.getAttribute('data-focus-kind')")
        if kind in expected and kind not in results:
            element = page.locator(f"[data-focus-kind='{kind}']")
            clip, box = _clip(element)
            wait_still(page)
            assert page.evaluate("() => document.activeElement.matches(':focus-visible')"), kind
            after = page.screenshot(clip=clip)
            (screenshot_dir / f"focus-{kind.replace(' ', '-')}.png").write_bytes(after)
            strong = page.evaluate(COMPARE, ["data:image/png;base64," + base64.b64encode(before[kind]).decode(),
                                             "data:image/png;base64," + base64.b64encode(after).decode()])
            # at least the area of a 2 px thick perimeter of the control changed with a 3:1 contrast
            perimeter = 2 * (2 * box["width"] + 2 * box["height"])
            results[kind] = (strong, round(perimeter))
        if len(results) == len(expected):
            break
    weak = {kind: r for kind, r in results.items() if r[0] < r[1]}
    assert set(results) == expected and not weak, f"ring pixels vs needed: {results}"


# ======================================================================== which toggle is on; icons; touch targets
def test_the_deck_picker_shows_which_target_is_on(open_page, app_url):
    page = open_page(app_url("capture"))
    root = page.locator(".escoba-capture-table")
    expect(root.locator(".et-table")).to_be_visible(timeout=120_000)
    root.get_by_role("button", name="Elegir cartas de la baraja").click()
    table, hand = root.get_by_role("button", name="Mesa", exact=True), root.get_by_role("button", name="Mano",
                                                                                          exact=True)
    expect(table).to_be_visible()
    look = "(b) => [getComputedStyle(b).backgroundColor, getComputedStyle(b, '::before').content.slice(0, 3)]"
    assert table.evaluate(look) == ["rgb(11, 61, 145)", '"✓"'], table.evaluate(look)
    assert hand.evaluate(look)[1] in ("non", "nor") and hand.evaluate(look)[0] != "rgb(11, 61, 145)"
    hand.click()
    expect(hand).to_have_class(re.compile(r"\bmod-active\b"))
    assert hand.evaluate(look) == ["rgb(11, 61, 145)", '"✓"']
    assert_no_errors(page)


def _luminance(rgb: str) -> float:
    channels = [int(v) / 255 for v in re.findall(r"\d+", rgb)[:3]]
    lin = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    x, y = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (x + 0.05) / (y + 0.05)


@pytest.mark.parametrize("size", [PHONE, PROJECTOR], ids=["phone", "projector"])
def test_the_chosen_capture_is_unmistakable(open_page, app_url, screenshot_dir, size):
    """The chosen row is not a pale tint like an ℹ row's: its fill stands 3:1 apart from the ℹ row's and the
    other rows', its text reads on it, and it carries the ▶."""
    page = open_page(app_url("capture"), width=size[0], height=size[1])
    root = page.locator(".escoba-capture-table")
    expect(root.locator(".et-table")).to_be_visible(timeout=120_000)
    info = root.locator("tbody tr.tone-info[data-id]").first  # the five of swords takes nothing here
    chosen = root.locator("tbody tr[data-id]:not(.tone-info)").first
    other = root.locator("tbody tr[data-id]:not(.tone-info)").last
    chosen.click()
    expect(chosen).to_have_attribute("aria-selected", "true")
    # the fill seen behind a cell's text: its own, or the first one under it that is not transparent
    look = """(tr) => { const td = tr.querySelector('td:last-child');
        let el = td; while (el && /rgba\\(.*, 0\\)$/.test(getComputedStyle(el).backgroundColor)) el = el.parentElement;
        return [el ? getComputedStyle(el).backgroundColor : 'rgb(255, 255, 255)', getComputedStyle(td).color]; }"""
    (fill, ink), (info_fill, _), (other_fill, _) = (row.evaluate(look) for row in (chosen, info, other))
    assert _contrast(fill, info_fill) >= 3, (fill, info_fill)
    assert _contrast(fill, other_fill) >= 3, (fill, other_fill)
    assert _contrast(fill, ink) >= 4.5, (fill, ink)
    expect(chosen.locator(".et-marker")).to_be_visible()
    expect(info.locator(".et-marker")).to_be_hidden()
    table = root.locator(".et-table")
    table.evaluate("(el) => el.scrollIntoView({block: 'center', behavior: 'instant'})")  # the status line off it
    wait_still(page)
    page.screenshot(path=screenshot_dir / f"chosen-row-{size[0]}x{size[1]}.png", clip=table.bounding_box())


# The card's top in twelve animation frames in a row.
TOPS = """async (card) => { const tops = [];
    for (let i = 0; i < 12; i++) {
      await new Promise((done) => requestAnimationFrame(done));
      tops.push(Math.round(card.getBoundingClientRect().top * 10) / 10);
    }
    return tops; }"""


def test_a_pointer_resting_at_a_cards_lower_edge_keeps_it_still(open_page, app_url):
    """A raised card (hovered, or chosen) once left the pointer at its lower edge, dropped back under it, rose
    again, every frame: a flicker, and a card a click could not catch while it moved."""
    page = open_page(app_url("capture"))
    hand = page.locator(".escoba-capture-table").get_by_role("group", name="Tu mano")
    expect(hand.locator("button.et-card")).to_have_count(3, timeout=120_000)
    plain, chosen = hand.locator("button.et-card").nth(0), hand.locator("button.et-card").nth(1)
    chosen.click()
    expect(chosen).to_have_attribute("aria-pressed", "true")
    for card in (plain, chosen):
        page.mouse.move(0, 0)
        wait_still(page)
        box = card.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)
        tops = card.evaluate(TOPS)
        assert len(set(tops)) == 1, f"{card} moves under a resting pointer: {tops}"
        assert card.evaluate("(el) => el.matches(':hover')")
    assert_no_errors(page)


def test_icons_sit_on_the_text_line_and_targets_are_big_enough(game_page):
    t = Table(game_page)
    for name in ("Pista", "Deshacer", "Partida nueva"):
        button = t.root.get_by_role("button", name=re.compile(rf"^\W*{name}$"))
        centres = button.evaluate("""(b) => { const i = b.querySelector('i').getBoundingClientRect();
            const r = document.createRange(); r.selectNodeContents(b); const all = r.getClientRects();
            const text = [...all].filter((x) => x.width > 0).at(-1);
            return [i.top + i.height / 2, text.top + text.height / 2]; }""")
        assert abs(centres[0] - centres[1]) <= 3, (name, centres)
    download = t.root.get_by_role("link", name=re.compile("Descargar esta partida")).bounding_box()
    assert download["height"] >= 24, download
    for target in t.root.locator(".jupyter-button:visible").all():
        box = target.bounding_box()
        assert box["height"] >= 24 and box["width"] >= 24, box


# =========================================================================================== screenshots, looked at
@pytest.mark.parametrize("lang", ["es", "en"])
def test_screenshots_of_the_game_and_the_deal_end(open_page, app_url, screenshot_dir, lang):
    suffix = "" if lang == "es" else "_en"
    page = open_page(app_url(f"game{suffix}"))
    root = page.locator(".escoba-game-table")
    expect(root.locator(".et-table")).to_be_visible(timeout=120_000)
    expect(root.locator(".et-live", has_text=re.compile("Te toca|Your turn"))).to_be_visible(timeout=30_000)
    row = root.locator(".et-table tbody tr[data-id]").first
    row.click()  # a chosen capture, so the pictures show it
    expect(row).to_have_attribute("aria-selected", "true")
    for size in (PHONE, LAPTOP, PROJECTOR):
        screenshots(page, screenshot_dir, f"board-{lang}", size)
    end = open_page(app_url(f"deal_end{suffix}"))
    root = end.locator(".escoba-game-table")
    expect(root.locator(".et-table")).to_be_visible(timeout=120_000)
    expect(root.locator(".et-live", has_text=re.compile("Te toca|Your turn"))).to_be_visible(timeout=30_000)
    root.locator(".et-table tbody tr[data-id]").first.click()
    root.get_by_role("button", name=re.compile(r"^\W*(Jugar|Play)\s*$")).click()
    expect(root.get_by_role("heading", name=re.compile("^(Fin de la mano|End of deal)"))).to_be_visible()
    for size in (PHONE, LAPTOP, PROJECTOR):
        screenshots(end, screenshot_dir, f"deal-end-{lang}", size)


# ================================================================== the course's own pages, as a class sees them
# The lesson text is the widgets' text size at every width (16 px on a phone, about 18.5 px at 1920), so a projected
# lesson reads as one page.
TEXT_SIZES = """() => {
    const size = (el) => el && parseFloat(getComputedStyle(el).fontSize);
    return {text: size(document.querySelector('.jp-RenderedMarkdown p')),
            widget: size(document.querySelector('.escoba-game-table, .escoba-capture-table'))};
}"""


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", ["play", "02-captures", "06-game"])
def test_screenshots_of_the_course_pages(tutor, browser, screenshot_dir, name, lang):
    """Pictures at a phone's, a laptop's and a projector's size to be looked at; on each, the text is the widgets'
    size, nothing is wider than the screen, and on the play page nothing covers a control."""
    context = browser.new_context(viewport={"width": LAPTOP[0], "height": LAPTOP[1]})
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        page.goto(f"{tutor.url}voila/render/{lang}/{name}.ipynb")
        wait_rendered(page)
        widget = page.locator(".escoba-game-table, .escoba-capture-table").first
        expect(widget.locator(".et-table")).to_be_visible()
        if name != "02-captures":
            expect(widget.locator(".et-live", has_text=re.compile("Te toca|Your turn"))).to_be_visible()
        assert_no_error(page)
        for size in (PHONE, LAPTOP, PROJECTOR):
            screenshots(page, screenshot_dir, f"page-{name}-{lang}", size)
            sizes = page.evaluate(TEXT_SIZES)
            assert abs(sizes["text"] - sizes["widget"]) <= 0.5, (size, sizes)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0], "wider than the screen"
            if name == "play" and size != PHONE:
                assert_no_control_covered(page)
    finally:
        page.goto("about:blank")
        context.close()
