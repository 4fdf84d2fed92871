"""The app as a teacher starts it: the real `escoba-tutor` server, the real lessons, real headless Chromium.

The landing page in both languages, every lesson reached by clicking from the landing page, the language
switch, a shared URL opening the right position, bad parameters, a server started with --rules scopa, and
axe-core with no serious or critical violation.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(p.name for p in (ROOT / "lessons" / "es").glob("0*.ipynb"))
ERRORS = re.compile(r"Traceback|There was an error|Error executing|Exception", re.I)

pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TutorServer:
    def __init__(self, log: Path, *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._log = log.open("wb")
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, "-m", "escoba_tutor.cli", "serve", "--no-browser", "--port", str(self.port), *args],
            cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(log.read_text()[-2000:])
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(log.read_text()[-2000:])

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._log.close()


@pytest.fixture(scope="module")
def tutor(tmp_path_factory):
    server = TutorServer(tmp_path_factory.mktemp("tutor") / "server.log")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def scopa_tutor(tmp_path_factory):
    server = TutorServer(tmp_path_factory.mktemp("scopa") / "server.log", "--rules", "scopa", "--lang", "en")
    yield server
    server.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(45_000)
    yield page
    page.goto("about:blank")
    context.close()


def wait_rendered(page) -> None:
    """Voilà has run every cell: its spinner is gone and the page body holds the lesson."""
    page.wait_for_load_state("networkidle")
    expect(page.locator("body")).not_to_contain_text("Executing", timeout=60_000)
    expect(page.locator(".jp-OutputArea-output, .jp-RenderedHTMLCommon").first).to_be_visible(timeout=60_000)


def assert_no_error(page) -> None:
    text = page.locator("body").inner_text()
    assert not ERRORS.search(text), ERRORS.search(text).group(0) + ": " + text[:500]


def test_the_landing_page_in_both_languages_and_the_switch(tutor, page):
    page.goto(tutor.url + "/")
    wait_rendered(page)
    assert page.url.endswith("/voila/render/es/index.ipynb")
    expect(page.get_by_role("heading", name=re.compile("Escoba: aprende a jugar"))).to_be_visible()
    assert_no_error(page)
    page.get_by_role("link", name="English version").click()
    wait_rendered(page)
    assert page.url.endswith("/voila/render/en/index.ipynb")
    expect(page.get_by_role("heading", name=re.compile("Escoba: learn to play"))).to_be_visible()
    page.goto(tutor.url + "/?lang=en")
    wait_rendered(page)
    assert "/voila/render/en/index.ipynb" in page.url


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_lesson_is_reached_by_clicking_from_the_landing_page(tutor, page, lang):
    page.goto(f"{tutor.url}/?lang={lang}")
    wait_rendered(page)
    hrefs = [page.locator(f"a[href='{name}']").first for name in LESSONS]
    assert all(link.count() == 1 for link in hrefs), "the landing page links every lesson"
    for name in [*LESSONS, "play.ipynb"]:
        page.goto(f"{tutor.url}/voila/render/{lang}/index.ipynb")
        wait_rendered(page)
        page.locator(f"a[href='{name}']").first.click()
        wait_rendered(page)
        assert page.url.split("?")[0].endswith(f"/voila/render/{lang}/{name}")
        expect(page.locator(".et-card:visible").first).to_be_visible(timeout=60_000)  # its widgets drew cards
        assert_no_error(page)


def test_a_shared_url_opens_the_right_position(tutor, page):
    page.goto(f"{tutor.url}/voila/render/es/02-captures.ipynb?table=1o+4b+7o&hand=3c")
    wait_rendered(page)
    assert_no_error(page)
    expect(page.locator("[aria-label='cuatro de bastos']:visible").first).to_be_visible()
    expect(page.locator("[aria-label='tres de copas']:visible").first).to_be_visible()
    expect(page.locator("body")).to_contain_text("3 + 1 + 7 + 4 = 15")


@pytest.mark.parametrize("query, expected", [("seed=-1", "no vale"), ("seed=999999999999999999999", "no vale"),
                                             ("table=1o+8o", "no es una carta")])
def test_bad_parameters_get_a_clear_message(tutor, page, query, expected):
    page.goto(f"{tutor.url}/voila/render/es/02-captures.ipynb?{query}")
    wait_rendered(page)
    assert_no_error(page)
    expect(page.locator(".escoba-notice")).to_contain_text(expected)


def test_an_unknown_language_is_explained_on_the_landing_page(tutor, page):
    page.goto(f"{tutor.url}/?lang=xx")
    wait_rendered(page)
    assert page.url.split("?")[0].endswith("/voila/render/es/index.ipynb")
    expect(page.locator(".escoba-notice")).to_contain_text("«xx»")


def test_a_server_started_with_scopa_rules(scopa_tutor, page):
    page.goto(scopa_tutor.url + "/")
    wait_rendered(page)
    assert "/voila/render/en/index.ipynb" in page.url
    page.goto(f"{scopa_tutor.url}/voila/render/en/02-captures.ipynb?table=2c+3e+5b&hand=5o")
    wait_rendered(page)
    expect(page.locator("body")).to_contain_text("Captures (Scopa)")
    expect(page.locator("body")).to_contain_text("5 = 5")


@pytest.mark.parametrize("path", ["/voila/render/es/index.ipynb", "/voila/render/en/02-captures.ipynb"])
def test_axe_finds_no_serious_or_critical_violation(tutor, page, path):
    from axe_playwright_python.sync_playwright import Axe

    page.goto(tutor.url + path)
    wait_rendered(page)
    results = Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]
