"""The game against the computer on a phone (390×844), in real headless Chromium under a real Voilà server: the
game's status line never lies over a card of the table or of the hand (nor over the score sheet at a deal's end),
whatever the page's scroll, at three moments (a refused play, the student's turn, the end of a deal); no text there
is under 16 px; and a keyboard user's focus never falls to the page when the control they used goes away.

Each notebook starts its game two plays before the end of the first deal (the student holds their last two cards),
so a test reaches the end of a deal in two plays. Screenshots of each moment are kept for a person to look at
(``tests/browser/screenshots``).
"""

from __future__ import annotations

import re

import pytest
from helpers import assert_no_error, button_name, wait_captures_settled

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

PHONE = (390, 844)


def last_play_of_a_deal(rules: str) -> str:
    """A notebook cell: a game whose first deal is played (first legal move each) until the student's last two
    cards."""
    return f"""
from escoba_tutor.widgets import GameTable

game = GameTable(players=2, seed=2, rules={rules!r}, delay=0.3)
session = game.session
while not (session.game.deck_left == 0 and len(session.game.hand(0)) == 2 and session.game.turn == 0):
    if session.game.turn == 0:
        session.play(session.game.legal_moves()[0])
    session.finish_computer_turns()
game
"""


NOTEBOOKS = {
    "deal": [last_play_of_a_deal("escoba")],
    "game": [last_play_of_a_deal("escoba+target=1")],  # the first deal's end is the game's end
}


class Phone:
    """The game on a phone-sized page, as a student sees it (in Spanish)."""

    def __init__(self, page):
        self.page = page
        self.said_before: str | None = None  # the status line as Play was last pressed
        self.root = page.locator(".escoba-game-table")
        self.status = self.root.locator(".escoba-game-status")
        self.play = self.root.get_by_role("button", name=button_name("Jugar"))
        self.next_deal = self.root.get_by_role("button", name=button_name("Siguiente mano"))
        self.new_game = self.root.get_by_role("button", name=button_name("Partida nueva"))
        self.hand = self.root.get_by_role("group", name="Tu mano", exact=True)
        self.table = self.root.get_by_role("group", name="Mesa", exact=True)
        self.grid = self.root.get_by_role("grid", name="Todas las bazas posibles")
        self.sheet_heading = self.root.get_by_role("heading", name=re.compile("^Fin de la mano"))

    def pressing_play(self) -> None:
        """Note what the status line says as Play is pressed: the reply is a new sentence."""
        self.said_before = self.status.inner_text()

    def wait_for_the_reply(self) -> None:
        """After a play of the student's: the computer's answer and the student's turn (each widget applies the
        kernel's update on its own, so the cards can be new while the status line still says the last turn's
        «Te toca.», and Play is still enabled)."""
        if self.said_before is not None:
            expect(self.status).not_to_have_text(self.said_before, timeout=60_000)
            self.said_before = None
        expect(self.status).to_have_text(re.compile(r"^(Juegas|Dejas) .*El ordenador .*Te toca\.$"), timeout=60_000)
        self.wait_for_my_turn()

    def wait_for_my_turn(self) -> None:
        expect(self.status).to_contain_text("Te toca.", timeout=60_000)
        expect(self.grid.locator("tbody tr[data-id]").first).to_be_visible()
        wait_captures_settled(self.root, "Tu mano", "Mesa")


@pytest.fixture
def phone(open_page, app_url):
    """``phone(name)``: notebook ``name`` on a fresh 390×844 page (a kernel of its own)."""
    def opener(name: str) -> Phone:
        page = open_page(app_url(name), *PHONE)
        game = Phone(page)
        game.wait_for_my_turn()
        assert_no_error(page)
        return game

    return opener


# Scrolls the page from its top to its bottom in steps (Voilà scrolls an inner element, or the document) and, at
# each step, finds every card of the table and of the hand, and every row of the score sheet, whose box on the
# screen meets the status line's box. Returns those meetings (none when the line covers nothing), and the page's
# scroll put back where it was.
COVERS = """(root) => {
  const scrolls = (el) => el.scrollHeight > el.clientHeight + 1
    && ['auto', 'scroll'].includes(getComputedStyle(el).overflowY);
  const scroller = [document.scrollingElement, ...[...document.querySelectorAll('*')].filter(scrolls)]
    .sort((a, b) => b.scrollHeight - a.scrollHeight)[0];
  const start = scroller.scrollTop;
  const line = root.querySelector('.escoba-game-status');
  const under = [...root.querySelectorAll(
      '[role=group][aria-label="Mesa"] .et-card, [role=group][aria-label="Tu mano"] .et-card, ' +
      '.escoba-sheet tr, .escoba-deal-end h4')];
  const met = [];
  for (let top = 0; top <= scroller.scrollHeight; top += 40) {
    scroller.scrollTop = top;
    const s = line.getBoundingClientRect();
    if (s.height < 1) continue;
    for (const el of under) {
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const x = Math.min(s.right, r.right) - Math.max(s.left, r.left);
      const y = Math.min(s.bottom, r.bottom) - Math.max(s.top, r.top);
      const what = el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30);
      if (x > 1 && y > 1) met.push(`scroll ${top}: ${what} under the status line (${Math.round(y)} px)`);
    }
  }
  scroller.scrollTop = start;
  return met;
}"""

# Every text of the game the page shows, with its size (text drawn on a card belongs to the card's picture).
TEXT_SIZES = """(root) => {
  const found = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim(), el = node.parentElement;
    if (!text || !el || el.closest('.et-card, svg, [aria-hidden="true"]')) continue;
    const style = getComputedStyle(el), box = el.getBoundingClientRect();
    if (style.visibility === 'hidden' || !el.getClientRects().length || box.width < 1 || box.height < 1) continue;
    found.push([parseFloat(style.fontSize), text.slice(0, 40)]);
  }
  return found;
}"""


def assert_status_covers_nothing(game: Phone, moment: str) -> None:
    met = game.root.evaluate(COVERS)
    assert not met, f"{moment}: the status line lies over {met[:6]}"
    sizes = game.root.evaluate(TEXT_SIZES)
    assert any(game.status.inner_text()[:20] in text for _size, text in sizes), "the status line's text was measured"
    small = sorted({(size, text) for size, text in sizes if size < 16 - 0.05})
    assert not small, f"{moment}: text under 16 px: {small[:8]}"


def shoot(game: Phone, folder, name: str) -> None:
    """The screen as the student has it at this moment (the page left where the last action left it)."""
    game.page.wait_for_timeout(400)
    game.page.screenshot(path=folder / f"phone-{name}-{PHONE[0]}x{PHONE[1]}.png")


def refused_choice(game: Phone) -> list:
    """Cards to click for a play the rules refuse with a long reason: a card of the hand that can capture, laid
    on the table alone («…puede llevarse…, así que debe…»); without a capture, a card and a table card that do not
    make 15."""
    from escoba_tutor.engine.cards import parse_cards

    rows = [r.get_attribute("data-id") for r in game.grid.locator("tbody tr[data-id]").all()]
    capture = next((row.split(":")[0] for row in rows if row.split(":")[1]), None)
    if capture:
        return [game.hand.locator(f"[data-code='{capture}']")]
    hand = [c.get_attribute("data-code") for c in game.hand.locator("[data-code]").all()]
    table = [c.get_attribute("data-code") for c in game.table.locator("[data-code]").all()]

    def value(code: str) -> int:
        rank = parse_cards(code)[0].rank
        return rank - 2 if rank >= 10 else rank

    card, taken = next((h, t) for h in hand for t in table if value(h) + value(t) != 15)
    return [game.hand.locator(f"[data-code='{card}']"), game.table.locator(f"[data-code='{taken}']")]


def play_at_the_bottom_edge(game: Phone) -> None:
    """Scroll as a student does to reach «Jugar» (just until it shows at the screen's bottom edge) and press it."""
    game.play.evaluate("(el) => el.scrollIntoView({block: 'end', behavior: 'instant'})")
    game.page.wait_for_timeout(200)
    assert game.play.bounding_box()["y"] + game.play.bounding_box()["height"] <= PHONE[1] + 1
    game.pressing_play()
    game.play.click()  # in view already: the click does not scroll


def assert_status_shows_under_play(game: Phone) -> None:
    """The status line is whole on the screen, and «Jugar» too: the page moved up to show what the press did."""
    for _ in range(20):
        game.page.wait_for_timeout(100)
        line, play = game.status.bounding_box(), game.play.bounding_box()
        if line["y"] + line["height"] <= PHONE[1] + 1:
            break
    assert line["y"] >= 0 and line["y"] + line["height"] <= PHONE[1] + 1, ("the status line is off the screen", line)
    assert play["y"] >= 0 and play["y"] + play["height"] <= line["y"] + 1, ("«Jugar» left the screen", play, line)


def test_the_status_line_covers_no_card_at_a_refusal_a_turn_and_a_deals_end(phone, screenshot_dir):
    game = phone("deal")
    assert_status_covers_nothing(game, "the student's turn, the page just opened")
    # a refused play: a card that can capture laid on the table (three lines or more say why)
    refused = refused_choice(game)
    for card in refused:
        card.click()
    play_at_the_bottom_edge(game)
    expect(game.status).to_contain_text("Elige otra vez.")
    lines = game.status.evaluate("(el) => el.querySelector('.et-live').getClientRects()[0].height")
    assert lines >= 3 * 16 * 1.3, f"the refusal takes three lines on a phone ({lines} px)"
    assert_status_shows_under_play(game)
    shoot(game, screenshot_dir, "refusal")
    assert_status_covers_nothing(game, "a refused play")
    # the student's turn again: a play, the computer's answer, «Te toca.»
    game.grid.locator("tbody tr[data-id]").first.click()
    play_at_the_bottom_edge(game)
    game.wait_for_the_reply()
    assert_status_shows_under_play(game)
    shoot(game, screenshot_dir, "turn")
    assert_status_covers_nothing(game, "the student's turn")
    # the end of the deal: the last card played, the long status line and the score sheet
    game.grid.locator("tbody tr[data-id]").first.click()
    play_at_the_bottom_edge(game)
    expect(game.sheet_heading).to_be_visible(timeout=60_000)
    expect(game.status).to_contain_text("Pulsa «Siguiente mano» para seguir.")
    shoot(game, screenshot_dir, "deal-end")
    assert_status_covers_nothing(game, "the end of a deal")
    assert_no_error(game.page)


def focused(page) -> str:
    """What has the keyboard's focus: its role and accessible name, or 'body'."""
    return page.evaluate("""() => { const el = document.activeElement;
        if (!el || el === document.body) return 'body';
        return `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') || el.textContent.trim()}`; }""")


def choose_first_capture_and_press_play_by_keyboard(game: Phone) -> None:
    """Tab to the list of captures, Enter on its first row, Tab on to «Jugar» and press Enter."""
    page = game.page
    game.grid.locator("tbody tr[data-id]").first.focus()
    page.keyboard.press("Enter")
    expect(game.grid.locator("tbody tr[data-id]").first).to_have_attribute("aria-selected", "true")
    for _ in range(10):
        if game.play.evaluate("(el) => el === document.activeElement || el.contains(document.activeElement)"):
            break
        page.keyboard.press("Tab")
    expect(game.play).to_be_focused()
    cards = game.hand.locator("[data-code]").count()
    game.pressing_play()
    page.keyboard.press("Enter")
    expect(game.hand.locator("[data-code]")).to_have_count(cards - 1, timeout=40_000)  # played


def test_focus_after_play_and_next_deal_lands_on_the_next_control(phone):
    game = phone("deal")
    page = game.page
    # a play in the middle of a deal: «Jugar» stays, and so does the focus
    choose_first_capture_and_press_play_by_keyboard(game)
    game.wait_for_the_reply()
    expect(game.play).to_be_focused()
    choose_first_capture_and_press_play_by_keyboard(game)  # the deal's last play: «Jugar» goes away
    expect(game.sheet_heading).to_be_visible(timeout=60_000)
    expect(game.next_deal).to_be_focused(timeout=20_000)
    assert focused(page).endswith("Siguiente mano")
    # the status line that says what happened is a polite live region: read out without taking the focus
    expect(game.status.locator("[role=status][aria-live=polite]")).to_contain_text("Pulsa «Siguiente mano»")
    page.keyboard.press("Enter")  # «Siguiente mano» goes away: the new hand's first card
    game.wait_for_my_turn()
    expect(game.hand.locator("button.et-card").first).to_be_focused(timeout=20_000)
    # «Deshacer» pressed on the deal's only play of the student's is disabled: the focus goes beside it
    choose_first_capture_and_press_play_by_keyboard(game)
    game.wait_for_the_reply()
    undo = game.root.get_by_role("button", name=button_name("Deshacer"))
    undo.focus()
    page.keyboard.press("Enter")
    expect(undo).to_be_disabled(timeout=40_000)
    expect(game.root.locator(".escoba-actions")).to_contain_text("Jugar")
    page.wait_for_timeout(500)
    beside = game.root.locator(".escoba-actions").evaluate(
        "(row) => row.contains(document.activeElement) && !document.activeElement.disabled")
    assert beside, f"after Undo the focus is on {focused(page)}"
    assert_no_error(page)


def test_the_focus_stays_where_a_student_put_it(phone):
    """A student who has moved on (the focus on the resume code's field) keeps their place when «Jugar» goes."""
    game = phone("deal")
    page = game.page
    code = game.root.get_by_role("textbox", name="Código", exact=True)
    for cards in (2, 1):
        expect(game.hand.locator("[data-code]")).to_have_count(cards)
        game.grid.locator("tbody tr[data-id]").first.click()
        game.pressing_play()
        game.play.click()
        code.focus()
        if cards == 2:
            game.wait_for_the_reply()
    expect(game.sheet_heading).to_be_visible(timeout=60_000)
    page.wait_for_timeout(1000)
    expect(code).to_be_focused()
    assert_no_error(page)


def test_focus_at_the_games_end_goes_to_new_game(phone):
    game = phone("game")
    choose_first_capture_and_press_play_by_keyboard(game)
    game.wait_for_the_reply()
    choose_first_capture_and_press_play_by_keyboard(game)  # the last play of the game: no «Siguiente mano»
    expect(game.sheet_heading).to_be_visible(timeout=60_000)
    expect(game.status).to_contain_text("Pulsa «Partida nueva»")
    expect(game.new_game).to_be_focused(timeout=20_000)
    assert_no_error(game.page)
