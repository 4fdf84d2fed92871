"""Faults a class meets, against the real `escoba-tutor` server in real headless Chromium: a killed kernel, a
kernel shut down (what culling does), a restarted server. Each costs the student only a reload and their resume
code: the page says what happened, in its own language, and the resumed game is the same game (hand, table,
scores, and its whole history, which the resume code holds).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from helpers import Game
from playwright.sync_api import expect

from escoba_tutor.text.translator import Translator

pytestmark = pytest.mark.browser


def kernel_pids(tutor, kernel_id: str) -> list[int]:
    """The processes of one of the server's kernels (its command line names the kernel's file)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if kernel_id in command and parent == tutor.process.pid:
            found.append(int(entry.name))
    return found


def kernel_id(page) -> str:
    return page.evaluate("() => window.jupyterapp.widgetManager.kernel.id")


def expect_banner(page, lang: str, reason: str):
    """The banner is up, in the page's language, saying why; it is an alert, so screen readers say it too."""
    _ = Translator(lang)
    banner = page.get_by_role("alert").filter(has_text=_("The connection to the server was lost: this page no "
                                                         "longer answers."))
    expect(banner).to_be_visible(timeout=40_000)
    expect(banner).to_have_attribute("data-reason", reason, timeout=40_000)
    reasons = {"ended": _("This page's session on the server has ended: it stopped, or it was left unused for a "
                          "while, or the server was restarted."),
               "unreachable": _("The server cannot be reached: it may have stopped, or the network is down.")}
    expect(banner).to_contain_text(reasons[reason])
    expect(banner).to_contain_text(_("Reload the page. If you were playing a game, paste your resume code (or "
                                     "load the game you downloaded) to go on where you left off."))
    return banner.get_by_role("button", name=_("Reload the page"), exact=True)


def reload_with(reload_button, page, lang: str) -> Game:
    """The banner's reload button clicked: the play page again, its table drawn."""
    reload_button.click()
    game = Game(page, lang)
    expect(game.root.locator(".et-row").first).to_be_visible(timeout=90_000)
    return game


def test_no_banner_while_all_is_well(tutor, page):
    game = Game(page, "es")
    game.open(f"{tutor.url}voila/render/es/play.ipynb")
    game.play_a_few_moves(1)
    page.wait_for_timeout(12_000)  # longer than the watch's period: it has asked the server at least once
    expect(page.locator("#escoba-connection-lost")).to_have_count(0)


def test_a_killed_kernel_costs_a_reload_and_the_resume_code(tutor, page):
    game = Game(page, "es")
    game.open(f"{tutor.url}voila/render/es/play.ipynb")
    before = game.play_a_few_moves()
    pids = kernel_pids(tutor, kernel_id(page))
    assert pids, "the page's kernel process was not found"
    for pid in pids:
        os.kill(pid, signal.SIGKILL)  # the server starts it again, empty: the page's widgets are gone
    reload_button = expect_banner(page, "es", "ended")
    assert game.code.inner_text().strip() == before["code"]  # the code is still there to copy
    game = reload_with(reload_button, page, "es")
    expect(page.locator("#escoba-connection-lost")).to_have_count(0)
    game.resume(before["code"])
    assert game.position() == before


def test_a_shut_down_kernel_is_told_in_english(tutor, page):
    """What culling does to a kernel, done at once through the server's REST API."""
    game = Game(page, "en")
    game.open(f"{tutor.url}voila/render/en/play.ipynb")
    before = game.play_a_few_moves(2)
    status = page.evaluate("""async (id) => {
        document.cookie = "_xsrf=escoba-test; path=/";
        const response = await fetch("/api/kernels/" + id, {method: "DELETE", headers: {"X-XSRFToken": "escoba-test"}});
        return response.status;
    }""", kernel_id(page))
    assert status == 204
    reload_button = expect_banner(page, "en", "ended")
    game = reload_with(reload_button, page, "en")
    game.resume(before["code"])
    assert game.position() == before


def test_a_restarted_server_costs_a_reload_and_the_resume_code(tutor, page):
    game = Game(page, "es")
    game.open(f"{tutor.url}voila/render/es/play.ipynb")
    before = game.play_a_few_moves()
    tutor.stop()
    expect_banner(page, "es", "unreachable")
    tutor.start()
    # back on its port, the server no longer knows the page's kernel: the banner says the session has ended
    reload_button = expect_banner(page, "es", "ended")
    game = reload_with(reload_button, page, "es")
    game.resume(before["code"])
    assert game.position() == before
