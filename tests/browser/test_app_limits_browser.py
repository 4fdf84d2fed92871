"""The served pages in Chromium: nothing is loaded from another origin (a classroom without internet gets the
whole page, icons included), and a page that is left frees its kernel (Voilà's close beacon is accepted).

Requests to any other origin are blocked and recorded, as a classroom without internet would see them.
"""

from __future__ import annotations

import re

import pytest
from helpers import wait_rendered
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def kernel_of(page) -> str:
    return re.search(r'"kernelId": *"([0-9a-f-]+)"', page.content()).group(1)


@pytest.mark.parametrize("path", ["", "?lang=en", "voila/render/es/02-captures.ipynb", "voila/render/en/play.ipynb"])
def test_a_served_page_loads_nothing_from_another_origin(tutor, page, path):
    elsewhere = []

    def only_this_server(route):
        if route.request.url.startswith(tutor.url):
            route.continue_()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.context.route("**/*", only_this_server)
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
