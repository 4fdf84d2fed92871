"""Two students at one table, in real headless Chromium against the real ``escoba-tutor`` server and its kernels,
each in a browser context of its own: Ana (Spanish) opens a table from the landing page's link, Ben (English)
types its code with the usual slips; they play in turn, each play seen on the other page within a second (the
time from the click of Play to the other page's status line telling it is printed, with its median and 95th
percentile); one play is made by keyboard alone; a play out of turn is refused in words; a reload in the middle of
a deal comes back to the same seat and hand; the player on turn asks for a hint (the other sees no button); the
lobby offers the house rules by their names. Screenshots at a phone's 390×844 and a projector's 1920×1080 check
that the status line covers no card."""

from __future__ import annotations

import os
import re
import statistics
import time
from pathlib import Path

import pytest
from helpers import PROJECTOR, assert_no_error, button_name, wait_rendered

from escoba_tutor.text.translator import Translator

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

SEEN_WITHIN_S = 1.0
SHOTS = Path(os.environ.get("ESCOBA_TUTOR_TABLE_SHOTS", "")) if os.environ.get("ESCOBA_TUTOR_TABLE_SHOTS") else None


class Player:
    """One student's tables page, in the page's language."""

    def __init__(self, tutor, contexts, nickname: str, lang: str) -> None:
        self.nickname, self.lang, self._ = nickname, lang, Translator(lang)
        self.page = page = contexts().new_page()
        page.goto(f"{tutor.url}?lang={lang}")
        wait_rendered(page)
        form = page.locator(".escoba-nickname")
        form.get_by_label(self._("Nickname (optional)") if lang == "en" else "Apodo (opcional)").fill(nickname)
        form.get_by_role("button", name="Save the nickname" if lang == "en" else "Guardar el apodo").click()
        wait_rendered(page)
        page.locator("a.escoba-tables-link").click()
        wait_rendered(page)
        self.root = page.locator(".escoba-class-tables")
        expect(self.root).to_be_visible(timeout=60_000)

    def button(self, label: str):
        return self.root.get_by_role("button", name=button_name(self._(label)))

    @property
    def status(self):
        return self.root.locator(".escoba-game-status .et-live")

    @property
    def game(self):
        return self.root.locator(".escoba-game-table")

    @property
    def hand(self):
        return self.game.get_by_role("group", name=self._("Your hand"), exact=True)

    @property
    def grid(self):
        return self.game.get_by_role("grid", name=self._("Every legal capture"))

    def hand_codes(self) -> list[str]:
        return self.hand.locator("[data-code]").evaluate_all("cards => cards.map(card => card.dataset.code)")

    def my_turn(self) -> bool:
        return self._("Your turn.") in self.status.inner_text()


def whose_turn(players: list[Player], timeout: float = 20) -> Player:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for player in players:
            if player.my_turn() and player.grid.locator("tbody tr[data-id]").count():
                return player
        time.sleep(0.05)
    raise AssertionError("nobody's turn was shown: " + " | ".join(p.status.inner_text() for p in players))


def seen_by(other: Player, before: str) -> None:
    """Wait (polling each frame) until the other page's status line no longer says ``before``."""
    other.page.wait_for_function("([before]) => { const live = document.querySelector("
                                 "'.escoba-class-tables .escoba-game-status .et-live');"
                                 "return live && live.textContent.trim() !== before; }", arg=[before.strip()],
                                 polling="raf", timeout=10_000)


def play(mover: Player, other: Player, by_keyboard: bool = False) -> float:
    """The mover plays the first capture in the list; the seconds until the other page shows it."""
    row = mover.grid.locator("tbody tr[data-id]").first
    card = row.get_attribute("data-id").split(":")[0]
    before = other.status.inner_text()
    if by_keyboard:
        row.focus()
        mover.page.keyboard.press("Enter")
        expect(row).to_have_attribute("aria-selected", "true")
        play_button = mover.button("Play")
        for _ in range(10):
            if play_button.evaluate("(el) => el === document.activeElement || el.contains(document.activeElement)"):
                break
            mover.page.keyboard.press("Tab")
        expect(play_button).to_be_focused()
        began = time.monotonic()
        mover.page.keyboard.press("Enter")
    else:
        row.click()
        expect(row).to_have_attribute("aria-selected", "true")
        began = time.monotonic()
        mover.button("Play").click()
    seen_by(other, before)
    took = time.monotonic() - began
    expect(mover.hand.locator(f"[data-code='{card}']")).to_have_count(0, timeout=10_000)
    return took


def shoot(player: Player, name: str, size: dict, screenshot_dir) -> None:
    player.page.set_viewport_size(size)
    player.page.wait_for_timeout(400)
    # the game from the other hands down, or the widget's top away from a game (Voilà's page scrolls inside its
    # own box, not the window)
    player.page.evaluate("""() => ([...document.querySelectorAll('.escoba-class-tables .escoba-others')]
        .find((shown) => shown.offsetParent) || document.querySelector('.escoba-class-tables'))
        .scrollIntoView({block: 'start'})""")
    player.page.wait_for_timeout(200)
    for folder in (screenshot_dir, SHOTS):
        if folder is not None:
            player.page.screenshot(path=str(Path(folder) / f"tables-{name}.png"), full_page=False)


def assert_status_covers_no_card(player: Player) -> None:
    """The status line lies over none of the cards in view (hand and table)."""
    overlap = player.page.evaluate("""() => {
        const live = document.querySelector('.escoba-class-tables .escoba-game-status');
        if (!live) return [];
        const s = live.getBoundingClientRect();
        return [...document.querySelectorAll('.escoba-class-tables [data-code]')].filter((card) => {
            const c = card.getBoundingClientRect();
            return c.width && c.left < s.right && s.left < c.right && c.top < s.bottom && s.top < c.bottom;
        }).map((card) => card.dataset.code);
    }""")
    assert not overlap, f"the status line covers {overlap}"


def test_two_students_play_at_one_table(board_tutor, contexts, screenshot_dir):
    ana = Player(board_tutor, contexts, "Ana", "es")
    ben = Player(board_tutor, contexts, "Ben", "en")
    expect(ana.root.locator(".escoba-tables-lobby")).to_be_visible()
    # the house rules offered by their names (lesson 7's), never by the engine's
    offered = [words.replace("\xa0", " ")  # (a select draws its spaces as no-break spaces)
               for words in ana.root.get_by_label("Regla de la casa").locator("option").all_inner_texts()]
    assert offered[0] == "Ninguna: las reglas de la clase" and "Figuras" in offered and "Renuncio" in offered
    assert not any("_" in words or "+" in words for words in offered), offered
    ana.button("Open a table").click()
    code_shown = ana.root.locator(".escoba-tables-code strong.escoba-code")
    expect(code_shown).to_have_text(re.compile(r"^[0-9A-Z]{5}$"), timeout=20_000)
    code = code_shown.inner_text()
    expect(ana.status).to_contain_text(f"dales el código {code}")
    # Ben's list of the class's tables shows Ana's without a click (read again every 10 s)
    expect(ben.root.locator(".escoba-tables-list")).to_contain_text(code, timeout=20_000)
    expect(ben.root.locator(".escoba-tables-list")).to_contain_text("2 players, the class's rules, hints allowed: Ana")
    # what the lobby and a table waiting for players look like
    shoot(ben, "lobby-phone-en", {"width": 390, "height": 844}, screenshot_dir)
    shoot(ana, "waiting-projector-es", PROJECTOR, screenshot_dir)
    for player in (ana, ben):
        player.page.set_viewport_size({"width": 1280, "height": 900})
    # Ben types the code in lower case with a dash: forgiven
    ben.root.get_by_label("Table code").fill(code.lower()[:2] + "-" + code.lower()[2:])
    ben.button("Sit at this table").click()
    players = [ana, ben]
    for player in players:
        expect(player.hand.locator("[data-code]")).to_have_count(3, timeout=20_000)
        expect(player.root.locator(".escoba-tables-code")).to_contain_text(code)
    assert not set(ana.hand_codes()) & set(ben.hand_codes())

    # out of turn: a card of the hand and Play, refused in words, nothing played
    mover = whose_turn(players)
    waiting = ben if mover is ana else ana
    held = waiting.hand_codes()
    waiting.hand.locator("[data-code]").first.click()
    waiting.button("Play").click()
    expect(waiting.status).to_contain_text(waiting._("It is not your turn."))
    assert waiting.hand_codes() == held

    # plays each way, each seen on the other page within a second; the third by keyboard alone
    times = []
    for n in range(6):
        mover = whose_turn(players)
        other = ben if mover is ana else ana
        times.append(play(mover, other, by_keyboard=n == 2))
        if n == 3:  # mid-deal: Ben reloads and sits in the same seat with the same hand
            hand = ben.hand_codes()
            ben.page.reload()
            wait_rendered(ben.page)
            expect(ben.root.locator(".escoba-tables-code")).to_contain_text(code, timeout=60_000)
            expect(ben.hand.locator("[data-code]")).to_have_count(len(hand), timeout=30_000)
            assert ben.hand_codes() == hand
    load = Path("/proc/loadavg").read_text().split()[:3]
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(f"\nplay -> seen on the other page: {[round(t * 1000) for t in times]} ms; "
          f"p50 {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms (load average {' '.join(load)})")
    assert max(times) < SEEN_WITHIN_S, times

    # what a phone and a projector show: the status line covers no card
    whose_turn(players)
    for player in players:
        for size, name in (({"width": 390, "height": 844}, "phone"), (PROJECTOR, "projector")):
            shoot(player, f"{name}-{player.lang}", size, screenshot_dir)
            assert_status_covers_no_card(player)
    # a hint on the mover's own turn (the opener left hints allowed, as the header says); none for the other
    mover = whose_turn(players)
    other = ben if mover is ana else ana
    for player in players:
        expect(player.root.locator(".escoba-tables-hints")).to_contain_text(
            player._("Hints are allowed at this table: on your turn, “Hint” shows the expert's best plays."))
    expect(other.button("Hint")).to_have_count(0)
    choices = mover.grid.locator("tbody tr[data-id]").count()
    mover.button("Hint").click()
    panel = mover.root.locator(".escoba-hint-panel")
    expect(panel).to_contain_text(mover._("What the expert would play"), timeout=30_000)
    expect(panel.locator("table.escoba-hints tbody tr")).to_have_count(min(3, choices))
    for player in players:
        assert_no_error(player.page)
