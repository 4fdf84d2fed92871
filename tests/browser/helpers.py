"""Helpers shared by the browser test modules: ``from helpers import ...`` (pytest's default import mode puts
tests/browser/ on ``sys.path``). Not in conftest.py: ``from conftest import ...`` can find tests/conftest.py
instead, as both are imported under the name ``conftest``. Fixtures stay in conftest.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import expect

ERRORS = re.compile(r"Traceback|There was an error|Error executing|Exception", re.I)


@contextmanager
def new_page(browser, timeout: float) -> Iterator:
    """A page in a fresh 1280×900 context with ``timeout`` (ms) as its default; left for about:blank (which sends
    Voilà's close beacon, refused under XSRF: culling and SIGTERM clean up) and closed at the end."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(timeout)
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
