"""Helpers shared by the browser test modules: ``from helpers import ...`` (pytest's default import mode puts
tests/browser/ on ``sys.path``). Not in conftest.py: ``from conftest import ...`` can find tests/conftest.py
instead, as both are imported under the name ``conftest``. Fixtures stay in conftest.py.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import expect

from escoba_tutor.engine.captures import legal_captures
from escoba_tutor.engine.rules import rules_by_name
from escoba_tutor.text.translator import Translator

PROJECTOR = {"width": 1920, "height": 1080}  # a classroom's projector, as a viewport

ERRORS = re.compile(r"Traceback|There was an error|Error executing|Exception", re.I)


@contextmanager
def new_page(browser, timeout: float) -> Iterator:
    """A page in a fresh 1280×900 context with ``timeout`` (ms) as its default; left for about:blank (which sends
    Voilà's close beacon, which stops its kernel) and closed at the end."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(timeout)
    yield page
    page.goto("about:blank")
    context.close()



class Contexts:
    """``contexts(width=1280, height=900, timeout=30_000)``: a new browser context (each a browser of its own, so
    each page a kernel of its own), ``timeout`` ms per step and two minutes to load a page (Voilà runs the notebook
    first: slow on a busy machine). ``close()`` leaves every page for about:blank (Voilà's close beacon: the
    escoba-tutor server stops the kernel), then closes the contexts."""

    def __init__(self, browser) -> None:
        self.browser, self.opened = browser, []

    def __call__(self, width: int = 1280, height: int = 900, timeout: float = 30_000):
        made = self.browser.new_context(viewport={"width": width, "height": height})
        made.set_default_timeout(timeout)
        made.set_default_navigation_timeout(max(timeout, 120_000))
        self.opened.append(made)
        return made

    def close(self) -> None:
        for made in self.opened:
            for page in made.pages:
                page.goto("about:blank")
            made.close()

def only_from(server_url: str, context, elsewhere: list[str] | None = None) -> list[str]:
    """Let ``context``'s pages load from ``server_url`` alone: every request elsewhere is refused and listed in
    ``elsewhere`` (a new list if not given), which is returned (a course page must need nothing from another
    origin)."""
    elsewhere = [] if elsewhere is None else elsewhere

    def route(request_route) -> None:
        if request_route.request.url.startswith(server_url):
            request_route.continue_()
        else:
            elsewhere.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)
    return elsewhere


def wait_rendered(page) -> None:
    """Voilà has run every cell: its spinner (a plain Voilà server's) or the course's starting panel is gone and the
    page body holds the lesson."""
    page.wait_for_load_state("networkidle")
    expect(page.locator("body")).not_to_contain_text("Executing", timeout=60_000)
    expect(page.locator("#escoba-start")).to_have_count(0, timeout=60_000)
    expect(page.locator(".jp-OutputArea-output, .jp-RenderedHTMLCommon").first).to_be_visible(timeout=60_000)



def board_refreshed(page, times: int = 1, timeout: float = 30_000) -> None:
    """Wait until the class board's page has asked for its live part and shown the answer ``times`` more times
    (class_board.js's «board:updated» event, every 2.5 s): what a fixed wait of that long only hoped for."""
    page.evaluate("""([times, timeout]) => new Promise((done, failed) => {
        const live = document.getElementById("board-live");
        let left = times;
        const updated = () => {
            if (--left === 0) {
                live.removeEventListener("board:updated", updated);
                done();
            }
        };
        live.addEventListener("board:updated", updated);
        setTimeout(() => failed(new Error(`the board was not refreshed ${times} times in ${timeout} ms`)), timeout);
    })""", [times, timeout])

def assert_no_error(page) -> None:
    text = page.locator("body").inner_text()
    assert not ERRORS.search(text), ERRORS.search(text).group(0) + ": " + text[:500]


def captures_shown(root, hand: str, table: str) -> dict:
    """What a game table shows at one moment: the codes of its groups named ``hand`` and ``table``, and the ids
    of its capture list's rows."""
    return root.evaluate("""(root, [hand, table]) => {
        const codes = (name) => [...(root.querySelector(`[role=group][aria-label="${name}"]`)
            ?.querySelectorAll("[data-code]") ?? [])].map((card) => card.dataset.code);
        return {hand: codes(hand), table: codes(table),
                rows: [...root.querySelectorAll("[role=grid] tbody tr[data-id]")].map((row) => row.dataset.id)};
    }""", [hand, table])


def wait_captures_settled(root, hand: str, table: str, rules: str = "escoba", timeout: float = 20) -> None:
    """Wait until the capture list is the one for the hand and table shown (groups named ``hand`` and ``table``).

    Each widget applies the kernel's update on its own, so for a moment after a move the status line can say it is
    my turn while the list still holds the rows of the position before: a click then chooses a capture that is gone
    (the kernel drops it). A student would see the list change under their pointer; a test must not click then.
    """
    deadline = time.monotonic() + timeout
    while True:
        shown = captures_shown(root, hand, table)
        hand_cards, table_cards = shown["hand"], shown["table"]
        expected = []
        for card in hand_cards:
            captures = legal_captures(card, table_cards, rules_by_name(rules))
            expected += [f"{card}:" + "+".join(c.code for c in sorted(taken)) for taken in captures] or [
                f"{card}:"]
        if hand_cards and sorted(shown["rows"]) == sorted(expected):
            return
        assert time.monotonic() < deadline, ("the capture list never matched the cards shown", shown, expected)
        root.page.wait_for_timeout(100)


class SlowLink:
    """A relay in front of a local server that holds back what the server sends by ``delay`` seconds, in order
    (what the browser sends passes at once): a slow network or a loaded server, as a student's page meets them.
    ``url`` is the relayed address; ``delay`` can be changed at any time (0 while a page loads, say)."""

    def __init__(self, upstream_port: int, delay: float = 0.0) -> None:
        import asyncio
        import socket
        import threading

        self.delay = delay
        self._upstream = upstream_port
        self._loop = asyncio.new_event_loop()
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        started = threading.Event()

        async def serve() -> None:
            self._server = await asyncio.start_server(self._relay, sock=listener)
            started.set()

        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(serve(), self._loop)
        started.wait(10)

    async def _relay(self, browser_in, browser_out) -> None:
        import asyncio

        try:
            server_in, server_out = await asyncio.open_connection("127.0.0.1", self._upstream)
        except OSError:
            browser_out.close()
            return
        await asyncio.gather(self._pass(browser_in, server_out), self._hold_back(server_in, browser_out),
                             return_exceptions=True)

    @staticmethod
    async def _pass(reader, writer) -> None:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
        writer.close()

    async def _hold_back(self, reader, writer) -> None:
        import asyncio

        loop = asyncio.get_running_loop()
        queue: asyncio.Queue = asyncio.Queue()

        async def later() -> None:
            while True:
                due, data = await queue.get()
                await asyncio.sleep(max(0.0, due - loop.time()))
                if not data:
                    writer.close()
                    return
                writer.write(data)
                await writer.drain()

        sender = asyncio.create_task(later())
        while True:
            data = await reader.read(65536)
            queue.put_nowait((loop.time() + self.delay, data))
            if not data:
                break
        await sender

    def close(self) -> None:
        import asyncio

        async def stop() -> None:
            self._server.close()
            tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        self._loop.close()


def button_name(label: str) -> re.Pattern:
    """A button's accessible name: its label, after the icon's character."""
    return re.compile(rf"^\W*{re.escape(label)}$")


class Game:
    """The play page's GameTable as a student sees it, in the page's language."""

    def __init__(self, page, lang: str) -> None:
        self.page, self._ = page, Translator(lang)
        _ = self._
        self.root = page.locator(".escoba-game-table")
        self.play_button = self.root.get_by_role("button", name=button_name(_("Play")))
        self.hand = self.root.get_by_role("group", name=_("Your hand"), exact=True)
        self.table = self.root.get_by_role("group", name=_("Table"), exact=True)
        self.grid = self.root.get_by_role("grid", name=_("Every legal capture"))
        self.scores = self.root.locator("table.escoba-scores")
        self.code = self.root.locator("code.escoba-code")
        self.code_field = self.root.get_by_role("textbox", name=_("Code"), exact=True)
        self.resume_button = self.root.get_by_role("button", name=button_name(_("Resume")))
        self.said_before: str | None = None  # the status line as Play was last pressed

    def open(self, url: str) -> None:
        self.page.goto(url)
        expect(self.root.locator(".et-row").first).to_be_visible(timeout=90_000)

    def wait_for_my_turn(self) -> None:
        live = self.root.locator(".et-live").first
        if self.said_before is not None:  # the news of the last play first: the last turn's «Te toca.» is old news
            expect(live).not_to_have_text(self.said_before, timeout=30_000)
            self.said_before = None
        expect(live).to_contain_text(self._("Your turn."), timeout=30_000)
        expect(self.play_button).to_be_enabled(timeout=30_000)
        expect(self.grid.locator("tbody tr[data-id]").first).to_be_visible(timeout=30_000)
        wait_captures_settled(self.root, self._("Your hand"), self._("Table"))

    def play_first_capture(self) -> None:
        row = self.grid.locator("tbody tr[data-id]").first
        card = row.get_attribute("data-id").split(":")[0]
        row.click()
        expect(row).to_have_attribute("aria-selected", "true")
        self.said_before = self.root.locator(".et-live").first.inner_text()
        self.play_button.click()
        expect(self.hand.locator(f"[data-code='{card}']")).to_have_count(0, timeout=20_000)  # it left my hand

    def position(self) -> dict:
        def codes(group):  # read at one moment: the computer's play can change the cards between two reads
            return group.locator("[data-code]").evaluate_all("cards => cards.map(card => card.dataset.code)")

        return {"hand": codes(self.hand), "table": codes(self.table), "scores": self.scores.inner_text(),
                "code": self.code.inner_text().strip()}

    def play_a_few_moves(self, moves: int = 3) -> dict:
        for _move in range(moves):
            self.wait_for_my_turn()
            self.play_first_capture()
        self.wait_for_my_turn()
        return self.settled_position()

    def settled_position(self, timeout: float = 20) -> dict:
        """The position once every widget shows the same moment: each widget applies its update on its own, so
        the resume code can still be the one from before the computer's last move when the cards are new."""
        from escoba_tutor import Game as EngineGame

        deadline = time.monotonic() + timeout
        while True:
            position = self.position()
            assert re.fullmatch(r"[0-9A-Z-]{10,}", position["code"]), position["code"]
            saved = EngineGame.from_resume_code(position["code"])
            if saved.turn == 0 and [c.code for c in saved.hand(0)] == position["hand"] and \
                    sorted(c.code for c in saved.table) == sorted(position["table"]):
                return position
            assert time.monotonic() < deadline, ("the resume code never matched the cards shown", position)
            self.page.wait_for_timeout(250)

    def resume(self, code: str) -> None:
        self.code_field.fill(code)
        self.resume_button.click()
        expect(self.code).to_have_text(code, timeout=20_000)
        self.wait_for_my_turn()


def start_class_exercise(board, kind: str = "captures", seed: int = 1, seconds: int = 300) -> float:
    """The teacher starts a class exercise from the Spanish board's form: when the button was pressed."""
    section = board.locator("section", has=board.get_by_role("heading", name="Ejercicio de clase"))
    section.get_by_label("Tipo de ejercicio").select_option(kind)
    section.get_by_label("Ejercicio", exact=True).fill(str(seed))
    section.get_by_label("Segundos para responder").fill(str(seconds))
    began = time.monotonic()
    section.get_by_role("button", name="Poner el ejercicio").click()
    return began
