"""Two students at one table, in real headless Chromium against the real ``escoba-tutor`` server and its kernels,
each in a browser context of its own: Ana (Spanish) opens a table from the landing page's link, Ben (English)
types its code with the usual slips; they play in turn, each play seen on the other page within a second (the
time from the click of Play to the other page showing it, its table's cards and its status line both changed, is
printed, with its median and 95th percentile); one play is made by keyboard alone; a play out of turn is refused
in words; a reload in the middle of a deal comes back to the same seat and hand; the player on turn asks for a hint
(the other sees no button); the lobby offers the house rules by their names. Screenshots at a phone's 390×844 and a
projector's 1920×1080 check that the status line covers no card.

Then four students at one table of two teams, on the same server: pages in Spanish and English, joining by code
(by mouse, and by keyboard alone) and from the class's list; two rounds of plays in the seats' order, each seen on
the other three pages within a second (each time printed); a connection dropped mid-deal and a page closed and
opened again, both back at the same seat and hand; a hostile script in a page that plays out of turn, takes its
partner's seat, and asks its kernel for every widget's state, refused in words with nothing changed, and no card of
another hand anywhere in its page or in its kernel's answers (checked against the game in the class database)."""

from __future__ import annotations

import os
import re
import statistics
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers import PROJECTOR, assert_no_error, button_name, wait_rendered

from escoba_tutor.engine.game import Game
from escoba_tutor.records import ClassStore
from escoba_tutor.server.nickname import NICKNAME_COOKIE
from escoba_tutor.text.translator import Translator

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

SEEN_WITHIN_S = 1.0
SHOTS = Path(os.environ.get("ESCOBA_TUTOR_TABLE_SHOTS", "")) if os.environ.get("ESCOBA_TUTOR_TABLE_SHOTS") else None


class Player:
    """One student's tables page, in the page's language."""

    def __init__(self, tutor, contexts, nickname: str, lang: str, *, by_link: bool = True) -> None:
        """The student saves their nickname on the landing page and follows its link to the tables page; without
        ``by_link``, the browser already holds the nickname's cookie (a student who saved it before) and the page
        is only asked for: :meth:`ready` waits for it (several pages load at once)."""
        self.nickname, self.lang, self._ = nickname, lang, Translator(lang)
        self.tables_url = f"{tutor.url}voila/render/{lang}/tables.ipynb"
        self.context = contexts()
        self.page = page = self.context.new_page()
        self.root = page.locator(".escoba-class-tables")
        if not by_link:
            self.context.add_init_script(KEEP_SOCKETS)
            self.context.add_cookies([{"name": NICKNAME_COOKIE, "value": quote(nickname, safe=""),
                                       "url": tutor.url}])
            page.goto(self.tables_url, wait_until="commit")
            return
        page.goto(f"{tutor.url}?lang={lang}")
        wait_rendered(page)
        form = page.locator(".escoba-nickname")
        form.get_by_label(self._("Nickname (optional)") if lang == "en" else "Apodo (opcional)").fill(nickname)
        form.get_by_role("button", name="Save the nickname" if lang == "en" else "Guardar el apodo").click()
        wait_rendered(page)
        page.locator("a.escoba-tables-link").click()
        self.ready()

    @classmethod
    def on(cls, page, nickname: str, lang: str) -> Player:
        """The student whose tables page is ``page``, already open (on a JupyterHub, their own server's)."""
        player = cls.__new__(cls)
        player.nickname, player.lang, player._ = nickname, lang, Translator(lang)
        player.page, player.context, player.tables_url = page, page.context, page.url
        player.root = page.locator(".escoba-class-tables")
        return player

    def ready(self) -> None:
        wait_rendered(self.page)
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

    def table_codes(self) -> list[str]:
        return sorted(self.game.get_by_role("group", name=self._("Table"), exact=True).locator(
            "[data-code]").evaluate_all("cards => cards.map(card => card.dataset.code)"))

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


#: In a page, before a play: note (``window.escobaSeenAt``, the clock's milliseconds) the moment the page shows
#: it, as the change is made (a mutation observer, not a poll): its cards on the table (named ``table``) and its
#: status line both differ from what they are now (a play always changes the table's cards)
WATCH_PLAY = """([table]) => {
    const root = document.querySelector('.escoba-class-tables .escoba-game-table');
    const cards = () => [...(root.querySelector(`[role=group][aria-label="${table}"]`)
        ?.querySelectorAll('[data-code]') ?? [])].map((card) => card.dataset.code).sort().join(' ');
    const said = () => root.querySelector('.escoba-game-status .et-live')?.textContent.trim();
    const before = [cards(), said()];
    window.escobaSeenAt = null;
    const seen = new MutationObserver(() => {
        if (cards() !== before[0] && said() !== before[1]) {
            window.escobaSeenAt = Date.now();
            seen.disconnect();
        }
    });
    seen.observe(root, {childList: true, subtree: true, characterData: true, attributes: true});
}"""


def choose_and_play(mover: Player, by_keyboard: bool = False) -> tuple[str, float]:
    """The mover chooses the first capture in the list and presses Play: the card, and the clock's time of the
    press (seconds)."""
    row = mover.grid.locator("tbody tr[data-id]").first
    card = row.get_attribute("data-id").split(":")[0]
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
        began = time.time()
        mover.page.keyboard.press("Enter")
    else:
        row.click()
        expect(row).to_have_attribute("aria-selected", "true")
        began = time.time()
        mover.button("Play").click()
    return card, began


def play_seen(mover: Player, others: list[Player], by_keyboard: bool = False) -> list[float]:
    """The mover plays the first capture in the list; the seconds until each of the other pages shows it (each
    page first shows the table the mover's page shows: no earlier change is taken for the play)."""
    table = mover.table_codes()
    deadline = time.monotonic() + 10
    for other in others:
        while other.table_codes() != table:
            assert time.monotonic() < deadline, f"{other.nickname}'s page shows another table than {mover.nickname}'s"
            time.sleep(0.05)
        other.page.evaluate(WATCH_PLAY, [other._("Table")])
    said = mover.status.inner_text()
    card, began = choose_and_play(mover, by_keyboard)
    took = []
    for other in others:
        other.page.wait_for_function("() => window.escobaSeenAt", timeout=10_000)
        took.append(other.page.evaluate("() => window.escobaSeenAt") / 1000 - began)
        assert took[-1] > 0, f"{other.nickname}'s page changed before the play: {took[-1]:.3f} s"
    expect(mover.hand.locator(f"[data-code='{card}']")).to_have_count(0, timeout=10_000)
    # and the mover's own status line tells the play: its «Your turn.» is old news (the hand is drawn first)
    expect(mover.status).not_to_have_text(said, timeout=10_000)
    return took


def play(mover: Player, other: Player, by_keyboard: bool = False) -> float:
    """The mover plays the first capture in the list; the seconds until the other page shows it."""
    return play_seen(mover, [other], by_keyboard)[0]


def percentiles(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms"


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
    print(f"\nplay -> seen on the other page: {[round(t * 1000) for t in times]} ms; {percentiles(times)} "
          f"(load average {' '.join(load)})")
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


# ------------------------------------------------------------------------------------- four students, two teams
FOUR = (("Carla", "es"), ("Dan", "en"), ("Elena", "es"), ("Finn", "en"))
CARD_CODE = re.compile(r"^(?:[1-7]|1[0-2])[oceb]$")

#: Before a page's scripts run: keep its websockets in ``window.escobaSockets`` (the network's loss is one closed)
KEEP_SOCKETS = """(() => {
    const Native = window.WebSocket;
    window.escobaSockets = [];
    window.WebSocket = class extends Native {
        constructor(url, protocols) {
            super(url, protocols);
            window.escobaSockets.push(this);
        }
    };
})();"""

#: In a page, as a hostile script would: a comm of the widgets' control target asks the kernel for every widget's
#: state (what ipywidgets' page asks when it loads)
EVERY_STATE = """async () => {
    const comm = window.jupyterapp.widgetManager.kernel.createComm("jupyter.widget.control");
    const reply = new Promise((done, failed) => {
        comm.onMsg = (message) => done(message.content.data);
        setTimeout(() => failed(new Error("the kernel did not answer request_states in 20 s")), 20000);
    });
    comm.open({}, {version: "1.0.0"});  // (the control protocol's version, as ipywidgets 8 sends it)
    comm.send({method: "request_states"});
    const data = await reply;
    comm.close();
    return data;
}"""

#: In a page, as a hostile script would: a click of the button ``word`` sent straight to the kernel, carrying the
#: answers the script makes up (``chosen(models)`` gives them, from the page's widget models)
FORGED_CLICK = """async ([word, chosen]) => {
    const models = await Promise.all(Object.values(window.jupyterapp.widgetManager._models));
    const button = models.find((m) => m.get("description") === word && Array.isArray(m.get("inputs")));
    const answers = new Function("models", `return (${chosen})(models);`)(models);
    button.send({event: "click", answers: answers});
    return answers;
}"""

#: The first row of the list of captures, chosen (the list is in the page even when it is not the student's turn)
A_CAPTURE_ROW = """(models) => {
    const grid = models.find((m) => Array.isArray(m.get("rows")) && m.get("rows").some((row) => row.id));
    return {[grid.model_id]: {selected: grid.get("rows")[0].id, clicks: grid.get("clicks") + 1}};
}"""


def card_codes(value: object) -> set[str]:
    """Every card code in ``value`` (JSON as parsed: a whole word of any string, ``3c+1o`` or ``3c 1o``), but in a
    text field's ``placeholder`` (the capture table's fields show examples, the same for every page)."""
    if isinstance(value, dict):
        return set().union(*(card_codes(item) for key, item in value.items() if key != "placeholder"))
    if isinstance(value, list):
        return set().union(*(card_codes(item) for item in value))
    if isinstance(value, str):
        return {word for word in re.split(r"[^0-9A-Za-z]+", value) if CARD_CODE.match(word)}
    return set()


class Truth:
    """The table as the class database holds it (the test's own look: no page ever gets the game)."""

    def __init__(self, store: ClassStore, code: str) -> None:
        from sqlalchemy import select

        from escoba_tutor.records.schema import game_tables

        self.info = store.table_info(code)
        with store.engine.connect() as connection:
            self.game = Game.from_json(connection.execute(
                select(game_tables.c.game).where(game_tables.c.code == code)).scalar_one())
        self.seat = {seat.nickname: seat.seat for seat in self.info.seats}

    def hand(self, seat: int) -> set[str]:
        return {card.code for card in self.game.hands[seat]}

    def other_hands(self, seat: int) -> set[str]:
        return set().union(*(self.hand(other) for other in range(4) if other != seat))


def assert_sees_only_own_hand(player: Player, truth: Truth) -> None:
    """The page's own hand is its seat's; no card of another hand is anywhere in its page (a card's ``data-code``
    or any attribute or text) nor in any widget's state its kernel gives (asked for over the kernel's websocket, as
    a hostile script would); the three other hands are shown face down, as many backs as cards."""
    seat = truth.seat[player.nickname]
    assert set(player.hand_codes()) == truth.hand(seat)
    hidden = truth.other_hands(seat)
    shown = set(player.page.locator("[data-code]").evaluate_all("cards => cards.map(card => card.dataset.code)"))
    # the widget's part of the page (the page's style sheets name every card), without the fields' examples
    html = re.sub(r'placeholder="[^"]*"', "", player.root.evaluate("(root) => root.outerHTML"))
    found = card_codes(html) & hidden
    assert not shown & hidden and not found, (player.nickname, shown & hidden,
                                              [m.group(0) for c in found for m in re.finditer(
                                                  rf".{{0,80}}(?<![0-9A-Za-z]){c}(?![0-9A-Za-z]).{{0,80}}", html)])
    states = player.page.evaluate(EVERY_STATE)
    assert states.get("method") == "update_states" and len(states["states"]) > 20, str(states)[:300]
    assert not card_codes(states) & hidden, (player.nickname, card_codes(states) & hidden)
    assert truth.hand(seat) <= card_codes(states)  # (the search finds cards where they are)
    others = player.root.locator(".escoba-others .et-row")
    expect(others).to_have_count(3)
    expect(others.locator("[data-code]")).to_have_count(0)
    sizes = sorted(len(truth.game.hands[other]) for other in range(4) if other != seat)
    assert sorted(row.locator(".et-back").count() for row in others.all()) == sizes


def test_four_students_play_in_two_teams(board_tutor, contexts):
    """Carla (Spanish) opens a table of four; Dan (English) types its code, Finn (English) too by keyboard alone,
    Elena (Spanish) sits at it from the class's list. Two rounds of plays in the seat's order (some by keyboard),
    each seen on the other three pages within a second; a page whose connection drops mid-deal, and a page closed
    and opened again, come back to the same seat and hand; a hostile script in a page plays out of turn, takes a
    classmate's seat, and asks the kernel for every widget's state: refused in words, nothing changed, no card of
    another hand anywhere in its page or its kernel's answers."""
    began = time.monotonic()
    players = [Player(board_tutor, contexts, nickname, lang, by_link=False) for nickname, lang in FOUR]
    for player in players:  # the four pages load at once
        player.ready()
    carla, dan, elena, finn = players
    loaded = time.monotonic() - began

    carla.root.get_by_label(carla._("Players"), exact=True).select_option(label=carla._("4 players, in two teams"))
    carla.button("Open a table").click()
    code_shown = carla.root.locator(".escoba-tables-code strong.escoba-code")
    expect(code_shown).to_have_text(re.compile(r"^[0-9A-Z]{5}$"), timeout=20_000)
    code = code_shown.inner_text()
    # Dan types the code in lower case with a space; Finn by keyboard alone, and presses the button with Enter
    dan.root.get_by_label("Table code").fill(code.lower()[:3] + " " + code.lower()[3:])
    dan.button("Sit at this table").click()
    finn.root.get_by_label("Table code").focus()
    finn.page.keyboard.type(code)
    finn.page.keyboard.press("Tab")
    expect(finn.button("Sit at this table")).to_be_focused()
    finn.page.keyboard.press("Enter")
    # Elena looks at the class's list again, chooses the table there and sits at it
    elena.button("Look again").click()
    choice = elena.root.get_by_label(elena._("Open tables"), exact=True)
    expect(choice.locator("option", has_text=code)).to_have_count(1, timeout=20_000)
    choice.select_option(label=choice.locator("option", has_text=code).inner_text())
    elena.button("Sit at the chosen table").click()
    for player in players:
        expect(player.hand.locator("[data-code]")).to_have_count(3, timeout=20_000)
        expect(player.root.locator(".escoba-tables-code")).to_contain_text(code)

    with ClassStore.open(board_tutor.database) as store:
        truth = Truth(store, code)
        assert truth.info.players == 4 and truth.info.state == "playing"
        assert sorted(truth.seat) == sorted(nickname for nickname, _lang in FOUR)
        assert truth.seat["Carla"] == 0
        for player in players:  # each page names its own seat, and each seat's team
            seat = truth.seat[player.nickname]
            expect(player.root.locator(".escoba-tables-seats li").nth(seat)).to_contain_text(
                player._("Seat {n}: you", n=seat + 1))
            assert_sees_only_own_hand(player, truth)
        by_seat = {truth.seat[player.nickname]: player for player in players}
        times: list[float] = []
        order: list[int] = []

        def turn_of_the_next(by_keyboard: bool = False, away: Player | None = None) -> None:
            """Whose turn the database says is the page that says so; they play, and the others see it."""
            expected = Truth(store, code).info.turn
            mover = whose_turn([p for p in players if p is not away])
            assert truth.seat[mover.nickname] == expected, (mover.nickname, expected)
            if order:
                assert expected == (order[-1] + 1) % 4, (order, expected)  # the seats play in turn
            order.append(expected)
            seen = play_seen(mover, [p for p in players if p is not mover and p is not away], by_keyboard)
            print(f"{mover.nickname} (seat {expected + 1}, {mover.lang}{', keyboard' if by_keyboard else ''}) -> "
                  f"seen by the others in {[round(t * 1000) for t in seen]} ms")
            times.extend(seen)

        print()
        for n in range(4):  # one round: each of the four plays once, in the seats' order; the second by keyboard
            turn_of_the_next(by_keyboard=n == 1)

        # a hostile script in the page of a student whose turn is not next
        turn = Truth(store, code).info.turn
        hostile = by_seat[(turn + 2) % 4]
        version, hand = Truth(store, code).info.version, hostile.hand_codes()
        said = {p.nickname: p.status.inner_text() for p in players if p is not hostile}
        hostile.page.evaluate(FORGED_CLICK, [hostile._("Play"), A_CAPTURE_ROW])  # a play out of turn
        expect(hostile.status).to_contain_text(hostile._("It is not your turn."))
        partner = (truth.seat[hostile.nickname] + 2) % 4
        hostile.page.evaluate(FORGED_CLICK, [hostile._("Take this seat back"), f"""(models) => {{
            const seats = models.find((m) => m.get("description") === {hostile._("Seat")!r}
                                             && Array.isArray(m.get("_options_labels")));
            return {{[seats.model_id]: {{index: {partner}}}}};
        }}"""])  # the partner's seat: their hand would be the script's
        expect(hostile.status).to_contain_text(hostile._("That seat is taken."))
        after = Truth(store, code)
        assert after.info.version == version and after.info.seats == truth.info.seats  # nothing changed
        assert hostile.hand_codes() == hand
        assert {p.nickname: p.status.inner_text() for p in players if p is not hostile} == said
        assert_sees_only_own_hand(hostile, after)

        # mid-deal, the connection of the student whose turn comes next drops; the table goes on without them
        dropped = by_seat[(turn + 1) % 4]
        hand = dropped.hand_codes()
        said = dropped.status.inner_text()
        # Chromium's offline mode refuses new connections but leaves an open websocket open: the page's
        # connection to its kernel is closed as the network's loss closes it, and cannot be made again meanwhile
        dropped.context.set_offline(True)
        dropped.page.evaluate("() => window.escobaSockets.filter((s) => s.url.includes('/channels'))"
                              ".forEach((s) => s.close())")
        dropped.page.wait_for_function(
            "() => window.jupyterapp.widgetManager.kernel.connectionStatus !== 'connected'", timeout=30_000)
        turn_of_the_next(away=dropped)
        dropped.page.wait_for_timeout(1000)
        assert dropped.status.inner_text() == said  # the play did not reach the page meanwhile
        assert dropped.page.evaluate("() => window.jupyterapp.widgetManager.kernel.connectionStatus") != "connected"
        dropped.context.set_offline(False)
        back = time.monotonic()
        # JupyterLab's kernel connection would try again only after its backoff (a random delay of up to 15 or
        # 31 s after a few failed attempts); the page asks the server as soon as the browser is online again, and
        # reconnects at once (connection.js)
        dropped.page.wait_for_function(
            "() => window.jupyterapp.widgetManager.kernel.connectionStatus === 'connected'", timeout=8_000)
        expect(dropped.status).to_contain_text(dropped._("Your turn."), timeout=20_000)
        expect(dropped.page.locator("#escoba-connection-lost")).to_have_count(0)  # (shown while it was down)
        print(f"{dropped.nickname}'s page connected again {time.monotonic() - back:.1f} s after its network came "
              "back, with the play made meanwhile")
        assert dropped.hand_codes() == hand
        turn_of_the_next(by_keyboard=True)

        # the student whose turn comes next closes their page, and opens the tables page again
        closed = by_seat[(order[-1] + 1) % 4]
        hand = closed.hand_codes()
        closed.page.goto("about:blank")
        closed.page.close()
        closed.page = closed.context.new_page()
        closed.root = closed.page.locator(".escoba-class-tables")
        closed.page.goto(closed.tables_url)
        closed.ready()
        expect(closed.root.locator(".escoba-tables-code")).to_contain_text(code, timeout=30_000)
        expect(closed.hand.locator("[data-code]")).to_have_count(len(hand), timeout=30_000)
        assert closed.hand_codes() == hand
        turn_of_the_next()
        turn_of_the_next()  # a second round done

        final = Truth(store, code)
        for player in players:
            assert_sees_only_own_hand(player, final)
    assert len(order) == 8 and sorted(order) == [0, 0, 1, 1, 2, 2, 3, 3]
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"four at a table: pages loaded in {loaded:.1f} s; play -> seen on each other page "
          f"({len(times)}): {percentiles(times)}; {time.monotonic() - began:.0f} s in all "
          f"(load average {' '.join(load)})")
    assert max(times) < SEEN_WITHIN_S, times
    for player in players:
        assert_no_error(player.page)
