"""The served pages in Chromium: nothing is loaded from another origin (a classroom without internet gets the
whole page, icons included), a page that is left frees its kernel (Voilà's close beacon is accepted), and so does
a page gone without that goodbye, once it has had no connection for the server's ``reconnect_s``; a page left
open, idle or frozen in the background, or whose connection drops and comes back, keeps its kernel and its game.

Requests to any other origin are blocked and recorded, as a classroom without internet would see them.
"""

from __future__ import annotations

import re
import socket
import time
import urllib.error
import urllib.request

import pytest
from escoba_test_helpers import voila_settings
from helpers import Game, only_from, wait_rendered
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def kernel_of(page) -> str:
    return re.search(r'"kernelId": *"([0-9a-f-]+)"', page.content()).group(1)


@pytest.mark.parametrize("path", ["", "?lang=en", "voila/render/es/02-captures.ipynb", "voila/render/en/play.ipynb"])
def test_a_served_page_loads_nothing_from_another_origin(tutor, page, path):
    elsewhere = only_from(tutor.url, page.context)
    page.goto(tutor.url + path)
    wait_rendered(page)
    page.wait_for_load_state("networkidle")
    assert elsewhere == []
    if "play" in path:  # the buttons' icons are drawn from the server's own copy of the icon font
        icon = page.locator(".fa-play").first
        expect(icon).to_be_visible()
        assert icon.bounding_box()["width"] > 4
        assert page.evaluate("document.fonts.check('900 16px \"Font Awesome 5 Free\"')")
        assert "Font Awesome 5 Free" in page.evaluate("getComputedStyle(document.querySelector('.fa-play'), "
                                                      "'::before').fontFamily")


def test_a_page_that_is_left_frees_its_kernel(tutor, page):
    page.goto(tutor.url + "voila/render/es/play.ipynb")
    wait_rendered(page)
    expect(page.locator("[data-code]").first).to_be_visible(timeout=60_000)
    kernel = kernel_of(page)
    assert page.context.request.get(f"{tutor.url}api/kernels/{kernel}").status == 200
    page.goto("about:blank")  # the close beacon, as when a student closes the tab or goes elsewhere
    for _ in range(50):
        if page.context.request.get(f"{tutor.url}api/kernels/{kernel}").status == 404:
            break
        page.wait_for_timeout(200)
    assert page.context.request.get(f"{tutor.url}api/kernels/{kernel}").status == 404
    assert f"Kernel shutdown: {kernel}" in tutor.log.read_text()


# ------------------------------------------------------------------------------- a page gone without a goodbye
GRACE_S = 12  # the server's reconnect_s here (90 s by default); longer than the page takes to reconnect below
REAP_S = 0.5  # how often that server looks for gone pages (10 s by default)
# The page's WebSocket, wrapped so that a test can cut its kernel connection and refuse the page's next attempts,
# as a dropped network would; the page itself reconnects as it does after any drop (Voilà's own retries).
CUT_CONNECTION = """
(() => {
  const Native = window.WebSocket;
  window.escobaSockets = [];
  window.escobaRefuseUntil = 0;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(Date.now() < window.escobaRefuseUntil ? "ws://127.0.0.1:9/" : url, protocols);
      window.escobaSockets.push(this);
    }
  };
})();
"""


@pytest.fixture(scope="module")
def short_grace(tutor_server_factory, tmp_path_factory):
    """A server that stops a kernel ``GRACE_S`` seconds after its page's last connection closed."""
    return tutor_server_factory("--no-class-board", env=voila_settings(
        tmp_path_factory.mktemp("config"), reconnect_s=GRACE_S, reap_check_s=REAP_S))


def kernel_status(server, cookies: list[dict], kernel: str) -> int:
    """The status of ``api/kernels/<id>`` asked with a browser's cookies (its owner's): 200 or 404."""
    request = urllib.request.Request(f"{server.url}api/kernels/{kernel}", headers={
        "Cookie": "; ".join(f"{c['name']}={c['value']}" for c in cookies)})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def wait_connected(page, timeout: float = 30_000) -> None:
    page.wait_for_function("() => window.jupyterapp?.widgetManager?.kernel?.connectionStatus === 'connected'",
                           timeout=timeout)


def test_a_page_gone_without_a_goodbye_frees_its_kernel_once_it_has_had_no_connection_for_the_grace(
        short_grace, browser):
    context = browser.new_context()
    goodbyes = []

    def no_goodbye(route):  # as when the tab is killed: Voilà's close beacon never reaches the server
        goodbyes.append(route.request.url)
        route.abort()

    context.route("**/voila/api/shutdown/**", no_goodbye)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(short_grace.url + "voila/render/es/index.ipynb")
    wait_rendered(page)
    wait_connected(page)
    kernel, cookies = kernel_of(page), context.cookies()
    assert kernel_status(short_grace, cookies, kernel) == 200
    context.close()  # no unload handler runs: the page is gone without a word
    gone = time.monotonic()
    while kernel_status(short_grace, cookies, kernel) == 200:
        assert time.monotonic() - gone < GRACE_S + 10, f"the kernel was not freed within {GRACE_S + 10} s"
        time.sleep(0.2)
    freed_after = time.monotonic() - gone
    assert freed_after >= GRACE_S - 1, freed_after  # not before the page had its time to come back
    log = short_grace.log.read_text()
    assert f"Shutting down kernel {kernel}: no page connected for {GRACE_S} s" in log
    assert goodbyes == [] and f"shutdown/{kernel}" not in log  # freed by the server, not by a goodbye


def ticks(page) -> int:
    return page.evaluate("() => window.escobaTicks")


def assert_goes_on(game: Game, before: dict) -> None:
    """The game of ``before`` goes on: one more move, and the resume code holds the moves before it and that one."""
    from escoba_tutor import Game as EngineGame

    after = game.play_a_few_moves(1)
    earlier, later = EngineGame.from_resume_code(before["code"]), EngineGame.from_resume_code(after["code"])
    assert later.seed == earlier.seed and len(later.moves) > len(earlier.moves)
    assert later.moves[:len(earlier.moves)] == earlier.moves


def test_a_page_left_open_idle_or_frozen_in_a_background_tab_keeps_its_kernel(short_grace, browser):
    context = browser.new_context()
    try:
        behind = Game(context.new_page(), "es")
        behind.page.set_default_timeout(60_000)
        behind.open(short_grace.url + "voila/render/es/play.ipynb")
        before = behind.play_a_few_moves(1)
        front = context.new_page()  # a second tab, brought to the front: the game's tab is in the background
        front.set_default_timeout(60_000)
        front.goto(short_grace.url + "voila/render/en/index.ipynb")
        wait_rendered(front)
        front.bring_to_front()
        kernels = [page.evaluate("() => window.jupyterapp.widgetManager.kernel.id") for page in (behind.page, front)]
        cookies = context.cookies()
        # Chromium throttles a background tab's timers and may freeze the tab: then it runs no script at all (no
        # poll of its kernel, no message) while its connection stays open. Headless Chromium keeps every tab visible
        # and will not freeze one, so the tab's scripts are stopped as freezing stops them: paused in the debugger.
        behind.page.evaluate("() => { window.escobaTicks = 0; setInterval(() => window.escobaTicks++, 100); }")
        frozen = context.new_cdp_session(behind.page)
        frozen.send("Debugger.enable")
        frozen.send("Debugger.pause")
        try:
            time.sleep(GRACE_S + 4 * REAP_S + 3)  # idle, past the grace and several of the server's looks
            assert [kernel_status(short_grace, cookies, kernel) for kernel in kernels] == [200, 200]
        finally:
            frozen.send("Debugger.resume")
            frozen.send("Debugger.disable")
        assert ticks(behind.page) < 10, "the tab's scripts were not stopped"
        behind.page.bring_to_front()
        wait_connected(behind.page)
        assert behind.settled_position() == before
        assert_goes_on(behind, before)
        expect(behind.page.locator("#escoba-connection-lost")).to_have_count(0)
        log = short_grace.log.read_text()
        assert not [kernel for kernel in kernels if f"kernel {kernel}: no page connected" in log]
    finally:
        for page in context.pages:
            page.goto("about:blank")  # the goodbye: their kernels stop at once
        context.close()


def test_a_page_whose_connection_drops_and_comes_back_within_the_grace_keeps_its_kernel_and_game(
        short_grace, browser):
    context = browser.new_context()
    context.add_init_script(CUT_CONNECTION)
    try:
        game = Game(context.new_page(), "es")
        game.page.set_default_timeout(60_000)
        game.open(short_grace.url + "voila/render/es/play.ipynb")
        before = game.play_a_few_moves(1)
        kernel = game.page.evaluate("() => window.jupyterapp.widgetManager.kernel.id")
        sockets = game.page.evaluate("() => window.escobaSockets.length")
        # The student reads for longer than the grace, then the connection is cut, and the page's attempts to come
        # back fail for 3 s. (jupyter_server's own culler, with cull_connected off and the grace as its idle time,
        # would stop the kernel now: it goes by the kernel's last activity, not by how long no page was connected.)
        time.sleep(GRACE_S + 1)
        cut = time.monotonic()
        game.page.evaluate("() => { window.escobaRefuseUntil = Date.now() + 3000; "
                           "window.escobaSockets.at(-1).close(); }")
        game.page.wait_for_function("() => window.jupyterapp.widgetManager.kernel.connectionStatus !== 'connected'")
        time.sleep(max(0.0, cut + 3.2 - time.monotonic()))
        # the page's next try comes after a random wait (up to 7 s by now): the test does not wait for it
        game.page.evaluate("""() => { const kernel = window.jupyterapp.widgetManager.kernel;
                                      return kernel.connectionStatus === "connected" || kernel.reconnect(); }""")
        wait_connected(game.page, timeout=GRACE_S * 1000)
        back_after = time.monotonic() - cut
        assert 3 <= back_after < GRACE_S - 1, back_after  # away longer than a few of the server's looks
        assert game.page.evaluate("() => window.escobaSockets.length") >= sockets + 2  # refused, then back
        time.sleep(GRACE_S - back_after + 4 * REAP_S)  # past when the grace would have ended, had it not come back
        assert game.page.evaluate("() => window.jupyterapp.widgetManager.kernel.id") == kernel
        assert kernel_status(short_grace, context.cookies(), kernel) == 200
        assert game.settled_position() == before
        assert_goes_on(game, before)
        expect(game.page.locator("#escoba-connection-lost")).to_have_count(0)
        assert f"kernel {kernel}: no page connected" not in short_grace.log.read_text()
    finally:
        for page in context.pages:
            page.goto("about:blank")
        context.close()


# ------------------------------------------------------------------- a browser whose address holds its connections
HELD = 6  # the server's connections_per_address here (400 by default): the test's own sockets fill it


@pytest.fixture(scope="module")
def few_connections(tutor_server_factory, tmp_path_factory):
    """A server that lets one address hold ``HELD`` connections at once."""
    return tutor_server_factory("--no-class-board", env=voila_settings(tmp_path_factory.mktemp("config"),
                                                                       connections_per_address=HELD))


def test_a_browser_whose_address_holds_its_connections_reads_why_in_both_languages(few_connections, page):
    """A student behind the school's router (Chromium and the held connections both come from 127.0.0.1) when the
    address holds every connection it may: the browser shows the server's short page, not a connection error."""
    held = [socket.create_connection(("127.0.0.1", few_connections.port)) for _ in range(HELD)]
    try:
        time.sleep(0.3)
        response = page.goto(few_connections.url + "voila/render/es/play.ipynb")
        assert response is not None and response.status == 429
        expect(page.locator("section[lang=es] h1")).to_have_text("Demasiadas conexiones")
        expect(page.locator("section[lang=en] h1")).to_have_text("Too many connections")
        expect(page.locator("section[lang=es] p")).to_contain_text("avisa a tu profesor o profesora")
        assert page.evaluate("document.documentElement.lang") == "es"
    finally:
        for sock in held:
            sock.close()
    time.sleep(0.5)
    assert page.goto(few_connections.url + "?lang=en").status == 200  # its connections closed, the page opens
