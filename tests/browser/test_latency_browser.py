"""Every click counts once, in order, on a slow connection: a check, an added capture or a play acts on the
answers the page shows, even when their updates are still on their way to the kernel.

The pages are served through :class:`helpers.SlowLink`, which holds back everything the server sends by 400 ms (as
a loaded class server or a school's network does), and the learner clicks at 250 ms or faster. ipywidgets holds a
widget's next update until the kernel has answered its last one, while a button's click leaves at once: without
the fix, the kernel judged the check first, then the late answer cleared its verdict (or a capture was recorded
without its last card). Real Voilà server, real Chromium.
"""

from __future__ import annotations

import json
import re

import pytest
from helpers import SlowLink, wait_rendered
from test_widgets_browser import RECORD_ANNOUNCEMENTS, WATCH, assert_no_errors

from escoba_tutor.exercises.kinds.captures import capture_drill
from escoba_tutor.exercises.registry import kind_names

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

HELD_BACK = 0.4  # seconds added to everything the server sends
PACE = 250  # ms between a learner's clicks where a test waits at all
CAPTURES_SEED = 1  # the 2 of swords: 10b + 5c, 6e + 7e, 6e + 7b (three captures)
GAME_SEED = 1  # the human moves first and can take three table cards with the ace of clubs

NOTEBOOKS = {
    "drills": [WATCH, f"""
from escoba_tutor.widgets import Drill

def tagged(widget, name):
    widget.add_class(name)
    return widget

W.VBox([{", ".join(f'tagged(Drill(kind="{kind}", seed=3, lang="en"), "dr-{kind}")' for kind in kind_names())},
        tagged(Drill(kind="captures", seed={CAPTURES_SEED}, lang="en"), "dr-issue"), kernel_errors])
"""],
    "game": [WATCH, f"""
from escoba_tutor.widgets import CaptureTable, GameTable

table = CaptureTable(table="1o 4b 7o 2c", hand="3c 5e 12b", lang="en")
table.add_class("ct")
game = GameTable(players=2, seed={GAME_SEED}, delay=0.3, lang="en")
W.VBox([table, game, kernel_errors])
"""],
}


@pytest.fixture(scope="module")
def slow_link(voila_app):
    link = SlowLink(voila_app.port)
    yield link
    link.close()


@pytest.fixture(scope="module")
def slow_page(browser, slow_link):
    """``slow_page(name)``: the notebook ``name`` opened through the slow link (held back only once it has
    loaded: the clicks are what is measured)."""
    contexts = []

    def opener(name: str):
        slow_link.delay = 0.0
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{slow_link.url}voila/render/{name}.ipynb", timeout=120_000)
        expect(page.locator(".kernel-errors")).to_be_attached(timeout=60_000)
        page.wait_for_load_state("networkidle")
        slow_link.delay = HELD_BACK
        return page

    yield opener
    slow_link.delay = 0.0
    for context in contexts:
        for page in context.pages:
            page.goto("about:blank")
        context.close()


def drill(page, name: str):
    return page.locator(f".dr-{name}")


def answer_in_haste(box) -> tuple[int, list[str]]:
    """Answer every question of a drill twice over, as fast as the page takes it (each answer widget is changed
    twice, so its second update waits for the kernel's answer to the first); returns how many were changed and
    the cards chosen."""
    changed, chosen = 0, []
    for select in box.locator("select").all():
        count = select.locator("option").count()
        for index in (1, 2) if count > 2 else (1,):
            select.select_option(index=index)
            changed += 1
    for text in box.locator("input[type='text']").all():
        for value in ("1", "2"):
            text.fill(value)
            text.press("Enter")
            changed += 1
    cards = box.locator("button[data-code][aria-pressed]:not([aria-disabled='true'])")
    for index in range(min(2, cards.count())):
        chosen.append(cards.nth(index).get_attribute("data-code"))
        cards.nth(index).click()
        changed += 1
    add = box.get_by_role("button", name="Add this capture")
    if add.count():  # the captures drill judges the captures listed: the cards just chosen make one
        add.click()
    rows = box.locator("table[role='grid']:not([aria-disabled='true']) tbody tr[data-id]")
    for index in range(min(2, rows.count())):
        rows.nth(index).click()
        changed += 1
    return changed, chosen


def add_every_capture_quickly(page, box, table, add: str) -> None:
    """The captures drill's every capture (exercise CAPTURES_SEED), its cards clicked 250 ms apart and «Add this
    capture» (``add``, in the page's language) pressed after each, as a quick student does."""
    for capture in capture_drill(CAPTURES_SEED).answer:
        for card in sorted(capture):
            table.locator(f"[data-code='{card.code}']").click()
            page.wait_for_timeout(PACE)
        box.get_by_role("button", name=add).click()
        page.wait_for_timeout(PACE)


@pytest.mark.parametrize("kind", kind_names())
def test_a_check_right_after_the_answers_judges_them_and_its_verdict_stays(slow_page, kind):
    page = slow_page("drills")
    box = drill(page, kind)
    status = box.get_by_role("status")
    changed, chosen = answer_in_haste(box)
    assert changed >= 1
    box.get_by_role("button", name="Check").click()  # at once: the last answers are still on their way
    expect(status).not_to_have_text("")
    page.wait_for_timeout(int(HELD_BACK * 1000 * 5))  # every late update has arrived by now
    verdict = status.inner_text()
    assert verdict.strip(), f"the {kind} check's verdict was cleared by an answer that arrived after it"
    # checked again, slowly, the same answers get the same verdict: the first check judged what the page showed
    box.get_by_role("button", name="Check").click()
    page.wait_for_timeout(int(HELD_BACK * 1000 * 3))
    assert status.inner_text() == verdict
    if chosen and kind == "captures":  # the capture added holds both cards chosen before «Add this capture»
        grid = box.get_by_role("grid", name="Your captures")
        listed = grid.locator("tbody tr[data-id]:not([data-id^='missing:'])")  # not the ones shown as missing
        expect(listed).to_have_count(1)
        assert sorted(listed.get_attribute("data-id").split("+")) == sorted(chosen)
    assert_no_errors(page)


def test_captures_chosen_quickly_after_adding_one_are_all_counted(slow_page):
    """The captures drill as a quick student uses it: each capture's cards clicked 250 ms apart, «Add this
    capture» after each, and «Check» at once: the three captures are all there and all right."""
    page = slow_page("drills")
    box = drill(page, "issue")
    table = box.get_by_role("group", name="Table")
    add_every_capture_quickly(page, box, table, "Add this capture")
    box.get_by_role("button", name="Check").click()
    status = box.get_by_role("status")
    expect(status).to_contain_text("Right! You found all 3 captures.")
    listed = box.get_by_role("grid", name="Your captures").locator("tbody tr[data-id]")
    expect(listed).to_have_count(3)
    page.wait_for_timeout(int(HELD_BACK * 1000 * 5))
    expect(status).to_contain_text("Right! You found all 3 captures.")  # and it stays
    expect(table.locator("[aria-pressed='true']")).to_have_count(0)
    assert_no_errors(page)


def test_a_card_chosen_while_the_kernel_clears_the_last_capture_stays_chosen(slow_page):
    """«Add this capture» clears the chosen cards at once on the page, and then in the kernel: a card chosen for
    the next capture before the kernel's clearing reaches the page starts a new choice, and stays chosen."""
    page = slow_page("drills")
    box = drill(page, "issue")
    table = box.get_by_role("group", name="Table")
    expect(table.locator("[aria-pressed='true']")).to_have_count(0)
    table.locator("[data-code='10b']").click()
    table.locator("[data-code='5c']").click()
    box.get_by_role("button", name="Add this capture").click()
    table.locator("[data-code='6e']").click()  # before the kernel's «cleared» arrives
    page.wait_for_timeout(int(HELD_BACK * 1000 * 4))
    expect(table.locator("[aria-pressed='true']")).to_have_count(1)
    expect(table.locator("[data-code='6e']")).to_have_attribute("aria-pressed", "true")
    table.locator("[data-code='7e']").click()
    box.get_by_role("button", name="Add this capture").click()
    listed = box.get_by_role("grid", name="Your captures").locator("tbody tr[data-id]")
    expect(listed).to_have_count(2)
    expect(listed.nth(1)).to_have_attribute("data-id", "6e+7e")
    assert_no_errors(page)


def test_a_capture_checked_right_after_its_cards_is_judged_with_all_of_them(slow_page):
    page = slow_page("game")
    ct = page.locator(".ct")
    hand, table = ct.get_by_role("group", name="Your hand"), ct.get_by_role("group", name="Table")
    expect(ct.locator("table[role='grid'] tbody tr[data-id]").first).to_be_attached()
    hand.get_by_role("button", name="king of clubs").click()
    for name in ("ace of coins", "four of clubs"):
        table.get_by_role("button", name=name).click()
    ct.get_by_role("button", name="Check my capture").click()
    status = ct.get_by_role("status")
    expect(status).to_have_text(re.compile(r"^Right! The king of clubs takes the ace of coins and the four of "
                                           r"clubs"))
    page.wait_for_timeout(int(HELD_BACK * 1000 * 5))
    expect(status).to_have_text(re.compile(r"^Right!"))
    assert_no_errors(page)


def test_play_right_after_the_cards_plays_the_capture_shown(slow_page):
    page = slow_page("game")
    game = page.locator(".escoba-game-table")
    hand, table = game.get_by_role("group", name="Your hand"), game.get_by_role("group", name="Table")
    grid = game.locator("table[role='grid'] tbody tr[data-id]")
    expect(game.locator(".et-live", has_text="Your turn.")).to_be_visible(timeout=30_000)
    page.wait_for_timeout(int(HELD_BACK * 1000 * 3))
    # the capture with the most table cards: its last card's update is the one still travelling at «Play»
    ids = [row.get_attribute("data-id") for row in grid.all()]
    card, taken = max((i.split(":") for i in ids), key=lambda pair: len(pair[1].split("+")))
    taken_cards = [c for c in taken.split("+") if c]
    assert len(taken_cards) >= 2, ids
    hand.locator(f"[data-code='{card}']").click()
    for code in taken_cards:
        table.locator(f"[data-code='{code}']").click()
    game.get_by_role("button", name="Play").click()
    played = hand.locator(f"[data-code='{card}']")
    expect(played).to_have_count(0)  # the card left the hand: it was played
    for code in taken_cards:  # with everything it was chosen to take
        expect(table.locator(f"[data-code='{code}']")).to_have_count(0)
    assert_no_errors(page)


def test_a_second_press_before_the_play_is_shown_is_not_sent(slow_page):
    """Play pressed again while the first press's answer is still on its way: the page takes no second press until
    the kernel has answered (its new cards drawn), so nothing is judged against the cards the learner no longer
    sees: no refusal flashes over the play's news, and the capture is played once."""
    page = slow_page("game")
    game = page.locator(".escoba-game-table")
    hand = game.get_by_role("group", name="Your hand")
    expect(game.locator(".et-live", has_text="Your turn.")).to_be_visible(timeout=30_000)
    row = game.locator("table[role='grid'] tbody tr[data-id]").first
    card = row.get_attribute("data-id").split(":")[0]
    row.click()
    page.wait_for_timeout(int(HELD_BACK * 1000 * 3))  # the choice has reached the kernel
    page.evaluate(RECORD_ANNOUNCEMENTS)
    play = game.get_by_role("button", name="Play")
    play.click()
    expect(play).to_have_attribute("aria-disabled", "true")  # waiting for the kernel's answer
    play.click(force=True)  # a learner's second press, while the old cards are still drawn
    expect(hand.locator(f"[data-code='{card}']")).to_have_count(0)
    expect(play).to_have_attribute("aria-disabled", "false")
    expect(game.locator(".et-live", has_text="Your turn.")).to_be_visible(timeout=30_000)  # the computer played
    said = page.evaluate("window.__said")
    assert not [text for text in said if text.startswith("Wait")], said
    assert_no_errors(page)


def test_a_resume_code_typed_and_sent_at_once_is_read_whole(slow_page):
    """The code box sends each key as it is typed; «Resume» pressed right after the last key resumes the game of
    the whole code, not of the keys that had reached the kernel."""
    from escoba_tutor import Game

    page = slow_page("game")
    game = page.locator(".escoba-game-table")
    expect(game.locator(".et-live", has_text="Your turn.")).to_be_visible(timeout=30_000)
    shown = game.locator("code.escoba-code")
    before = shown.inner_text()
    wanted = Game(players=2, seed=GAME_SEED + 1)
    game.get_by_role("textbox", name="Code").press_sequentially(wanted.resume_code())
    game.get_by_role("button", name="Resume").click()
    expect(shown).not_to_have_text(before)
    assert Game.from_resume_code(shown.inner_text()).state_key() == wanted.state_key()
    expect(game.locator(".escoba-game-status")).not_to_contain_text("cut")
    assert_no_errors(page)


# The page's own record of what it showed and what it kept: each change of the hand or the table, with the
# newest entry the browser had kept at that moment (a MutationObserver runs before the page's next message).
WATCH_KEPT = """(root) => {
  window.etShown = [];
  let kept = null;
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (key.startsWith("escoba-tutor:game:")) kept = value;
    return setItem.call(this, key, value);
  };
  const codes = (name) => [...root.querySelectorAll(`[role='group'][aria-label='${name}'] [data-code]`)]
    .map((card) => card.dataset.code);
  new MutationObserver(() => {
    const shown = { hand: codes("Your hand"), table: codes("Table"), kept };
    const last = window.etShown[window.etShown.length - 1];
    if (!last || JSON.stringify([last.hand, last.table]) !== JSON.stringify([shown.hand, shown.table])) {
      window.etShown.push(shown);
    }
  }).observe(root, { subtree: true, childList: true, attributes: true });
}"""


def test_a_play_is_kept_in_the_browser_before_it_is_shown(slow_page):
    """What a reload brings back is never older than what the student saw: at every change of the hand or the
    table on screen, the game the browser had kept holds that hand, or a later one, and that table or a later one."""
    from escoba_tutor import Game

    page = slow_page("game")
    game = page.locator(".escoba-game-table")
    game.evaluate(WATCH_KEPT)
    grid = game.locator("table[role='grid'] tbody tr[data-id]")
    announce, my_turn = game.locator(".escoba-game-status"), re.compile(r"Your turn\.$")
    for _ in range(4):
        expect(announce).to_have_text(my_turn, timeout=30_000)
        said = announce.inner_text()
        grid.first.click()
        game.get_by_role("button", name="Play").click()
        expect(announce).not_to_have_text(said)  # my play is said
        expect(announce).to_have_text(my_turn, timeout=30_000)  # and the computer's reply
    shown = page.evaluate("window.etShown")
    checked, kept_positions, before = 0, [], shown[0]
    for moment in shown[1:]:
        if moment["kept"] is not None:
            tabs = json.loads(moment["kept"])["tabs"]
            kept = Game.from_resume_code(max(tabs.values(), key=lambda tab: tab["at"])["entry"]["code"])
            position = ([c.code for c in kept.hand(0)], [c.code for c in kept.table])
            if position not in kept_positions:
                kept_positions.append(position)
            # a hand or a table that has just appeared on screen was kept before it appeared
            if moment["hand"] != before["hand"]:
                assert moment["hand"] in [hand for hand, _ in kept_positions], \
                    f"the hand {moment['hand']} was shown before it was kept ({kept_positions[-1]})"
                checked += 1
            if moment["table"] != before["table"]:
                assert moment["table"] in [table for _, table in kept_positions], \
                    f"the table {moment['table']} was shown before it was kept ({kept_positions[-1]})"
                checked += 1
        before = moment
    assert checked >= 6, shown  # four plays and the computer's replies were watched
    # and a reload now offers the game as it stands
    hand = [code for code in page.evaluate("window.etShown")[-1]["hand"]]
    page.reload()
    game.get_by_role("button", name="Yes, continue").click(timeout=60_000)
    expect(game.get_by_role("group", name="Your hand").locator("[data-code]")).to_have_count(len(hand))
    assert [c for c in game.get_by_role("group", name="Your hand").locator("[data-code]").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.code)")] == hand
    assert_no_errors(page)


@pytest.fixture(scope="module")
def recording_tutor(class_tutor_factory):
    """The real escoba-tutor server with its class records, behind a slow link of its own."""
    server = class_tutor_factory()
    link = SlowLink(server.port)
    yield server, server.database, link
    link.close()


def test_the_verdict_recorded_for_the_teacher_is_the_one_the_student_saw(recording_tutor, browser):
    """A student with a nickname builds the landing page's three captures quickly and checks at once, with the
    server's replies held back: the page says «¡Bien!», and the class records hold that one answer, right."""
    from escoba_tutor.records import ClassStore

    server, database, link = recording_tutor
    link.delay = 0.0
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{link.url}?lang=es", timeout=120_000)
        wait_rendered(page)
        form = page.locator(".escoba-nickname")
        form.get_by_label("Apodo (opcional)").fill("Dana")
        form.get_by_role("button", name="Guardar el apodo").click()
        wait_rendered(page)
        expect(page.locator(".escoba-nickname-now")).to_have_text("Dana", timeout=120_000)
        box = page.locator(".escoba-drill")
        expect(box.get_by_role("status")).to_be_attached(timeout=60_000)
        page.wait_for_load_state("networkidle")
        link.delay = HELD_BACK
        add_every_capture_quickly(page, box, box.get_by_role("group", name="Mesa"), "Añadir esta baza")
        box.get_by_role("button", name="Comprobar").click()
        expect(box.get_by_role("status")).to_contain_text("¡Bien!")
        page.wait_for_timeout(int(HELD_BACK * 1000 * 5))
        expect(box.get_by_role("status")).to_contain_text("¡Bien!")
        store = ClassStore.open(database)
        try:
            students = store.board().students
        finally:
            store.close()
        assert [s.nickname for s in students] == ["Dana"]
        assert students[0].drills == {"captures": (1, 1)}, students[0].drills  # one answer, right
    finally:
        link.delay = 0.0
        for opened in context.pages:
            opened.goto("about:blank")
        context.close()
