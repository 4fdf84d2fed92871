"""The app under a URL prefix, as JupyterHub or Binder serve it: the real `escoba-tutor --base-url` server and
real headless Chromium.

The landing page, a lesson reached by clicking from it (its widgets drawn and answering a click, so the kernel
websocket works under the prefix too), the language switch, and a shared ``?table=&hand=`` address. Every
request the page makes to the server must stay under the prefix (behind a hub, anything else reaches the hub,
not this server) and none may fail.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from helpers import assert_no_error, new_page, wait_rendered
from playwright.sync_api import expect

PREFIX = "/hub/user/ana/"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def tutor(tutor_server_factory):
    return tutor_server_factory("--base-url", PREFIX)


@pytest.fixture
def page(browser, tutor):
    """A page in a fresh context; after the test, every request it made to the server is checked."""
    requests, failures = [], []
    server = urlsplit(tutor.url).netloc

    def answered(response) -> None:
        if urlsplit(response.url).netloc == server:
            requests.append(urlsplit(response.url).path)
            if response.status >= 400:  # Voilà's shutdown beacon too, when the page is left: it must be accepted
                failures.append(f"{response.status} {response.url}")

    with new_page(browser, 60_000) as page:
        page.on("response", answered)
        page.on("websocket", lambda ws: requests.append(urlsplit(ws.url).path))
        yield page
        page.remove_listener("response", answered)
    assert requests, "the page made no request to the server"
    outside = [path for path in requests if not path.startswith(PREFIX)]
    assert not outside, f"requests outside {PREFIX}: {outside[:5]}"
    assert not failures, f"failed requests: {failures[:5]}"


def test_the_landing_page_opens_under_the_prefix(tutor, page):
    assert tutor.url.endswith(PREFIX)
    page.goto(tutor.url)
    wait_rendered(page)
    assert urlsplit(page.url).path == f"{PREFIX}voila/render/es/index.ipynb"
    expect(page.get_by_role("heading", name=re.compile("Escoba: aprende a jugar"))).to_be_visible()
    expect(page.locator(".escoba-capture-table .et-card:visible").first).to_be_visible()  # its widgets drew
    assert_no_error(page)


@pytest.mark.parametrize("link", ["02-captures.ipynb", "play.ipynb"])
def test_a_lesson_reached_by_clicking_draws_its_widgets_and_answers(tutor, page, link):
    page.goto(tutor.url)
    wait_rendered(page)
    page.locator(f"a[href='{link}']").first.click()
    wait_rendered(page)
    assert urlsplit(page.url).path == f"{PREFIX}voila/render/es/{link}"
    assert_no_error(page)
    table = page.locator(".escoba-capture-table").first
    expect(table.locator(".et-card:visible").first).to_be_visible()
    # a click reaches the kernel and its answer comes back: the status line reads the chosen capture
    row = table.locator("tr[data-id]").first
    row.click()
    expect(table.locator(".et-live")).to_have_text(row.get_attribute("aria-label"))
    expect(row).to_have_attribute("aria-selected", "true")


def test_the_language_switch_under_the_prefix(tutor, page):
    page.goto(tutor.url)
    wait_rendered(page)
    page.get_by_role("link", name="English version").click()
    wait_rendered(page)
    assert urlsplit(page.url).path == f"{PREFIX}voila/render/en/index.ipynb"
    expect(page.get_by_role("heading", name=re.compile("Escoba: learn to play"))).to_be_visible()
    page.get_by_role("link", name="Versión en español").click()
    wait_rendered(page)
    assert urlsplit(page.url).path == f"{PREFIX}voila/render/es/index.ipynb"
    page.goto(tutor.url + "?lang=en")
    wait_rendered(page)
    assert urlsplit(page.url).path == f"{PREFIX}voila/render/en/index.ipynb"
    expect(page.get_by_role("heading", name=re.compile("Escoba: learn to play"))).to_be_visible()


def test_a_shared_url_opens_the_position_under_the_prefix(tutor, page):
    page.goto(f"{tutor.url}voila/render/en/02-captures.ipynb?table=1o+4b+7o&hand=3c")
    wait_rendered(page)
    assert_no_error(page)
    table = page.locator(".escoba-capture-table").first
    expect(table.locator("[aria-label='four of clubs']:visible").first).to_be_visible()
    expect(table.locator("[aria-label='three of cups']:visible").first).to_be_visible()
    expect(table).to_contain_text("3 + 1 + 7 + 4 = 15")
    expect(page.locator(".escoba-notice")).to_have_count(0)  # the parameters were all used
