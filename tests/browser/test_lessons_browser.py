"""The lesson pages as a student reads them, in real Chromium on the real `escoba-tutor` server: links inside running
text are told apart without colour (axe finds no serious violation, `link-in-text-block` included), and the lesson
text grows with the screen like the widgets. Screenshots at phone and projector sizes are kept for a person to
look at (``tests/browser/screenshots``).
"""

from __future__ import annotations

import pytest
from helpers import PROJECTOR, Contexts, assert_no_error, wait_rendered

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def sized(browser):
    """``sized(viewport)``: a page in a fresh context of that size (so a kernel of its own), closed with the test."""
    contexts = Contexts(browser)
    # two minutes a step: lesson 8 plays a tournament and asks the expert as it opens
    yield lambda viewport: contexts(**viewport, timeout=120_000).new_page()
    contexts.close()


def open_lesson(page, tutor, lang: str, name: str) -> None:
    page.goto(f"{tutor.url}voila/render/{lang}/{name}.ipynb")
    wait_rendered(page)
    page.locator(".et-card:visible").first.wait_for(timeout=60_000)  # the widgets have drawn
    assert_no_error(page)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", ["06-game", "play", "08-strategy"])
def test_axe_finds_no_serious_violation_and_links_in_text_stand_apart(tutor, sized, lang, name):
    from axe_playwright_python.sync_playwright import Axe

    page = sized({"width": 1280, "height": 900})
    open_lesson(page, tutor, lang, name)
    results = Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]
    in_text = page.locator(".jp-RenderedMarkdown p a, .jp-RenderedMarkdown li a")
    assert in_text.count() >= 1, "the page has links inside its text"
    for index in range(in_text.count()):
        line = in_text.nth(index).evaluate("a => getComputedStyle(a).textDecorationLine")
        assert "underline" in line, in_text.nth(index).inner_text()


@pytest.mark.parametrize(("viewport", "least"), [(PHONE, 16.0), (PROJECTOR, 18.0)])
def test_lesson_text_grows_with_the_screen_like_the_widgets(tutor, sized, screenshot_dir, viewport, least):
    for lang, name in (("es", "04-end-of-deal"), ("en", "05-scoring")):
        page = sized(viewport)
        open_lesson(page, tutor, lang, name)
        size = page.locator(".jp-RenderedMarkdown p").first.evaluate("p => parseFloat(getComputedStyle(p).fontSize)")
        assert size >= least, (lang, name, size)
        heading = page.locator(".jp-RenderedMarkdown h2").first.evaluate(
            "h => parseFloat(getComputedStyle(h).fontSize)")
        assert heading > size, "headings stay larger than the text"
        page.screenshot(path=str(screenshot_dir / f"lesson-{name}-{lang}-{viewport['width']}.png"), full_page=True)


# Every piece of text a page shows, with its size: text drawn on a card (its corner, its figure's word) belongs to
# the card's picture, which has its own accessible name, and is left out.
TEXT_ON_PAGE = """() => {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent.trim();
        const el = node.parentElement;
        if (!text || !el || el.closest('.et-card, svg, script, style, [aria-hidden="true"], .kernel-errors')) continue;
        const style = getComputedStyle(el), box = el.getBoundingClientRect();
        if (style.visibility === 'hidden' || style.display === 'none' || !el.getClientRects().length) continue;
        if (box.width < 1 || box.height < 1) continue;  // shown to screen readers only
        const where = el.className && typeof el.className === 'string' ? el.className.split(' ')[0] : el.tagName;
        found.push([parseFloat(style.fontSize), text.slice(0, 40), where]);
    }
    return found;
}"""
LESSON_TEXT = "() => parseFloat(getComputedStyle(document.querySelector('.jp-RenderedMarkdown p')).fontSize)"
LESSONS = ["index", "01-cards", "02-captures", "03-escoba", "04-end-of-deal", "05-scoring", "06-game", "07-variants",
           "08-strategy", "play"]


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", LESSONS)
def test_no_text_is_smaller_than_a_reader_needs(tutor, sized, lang, name):
    """No text under 16 px on a phone, and none under 0.9× the lesson's own text at 1280 and at 1920 px."""
    page = sized({"width": 1280, "height": 900})
    open_lesson(page, tutor, lang, name)
    for width, height in ((390, 844), (1280, 900), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        least = 16.0 if width < 600 else 0.9 * page.evaluate(LESSON_TEXT)
        shown = page.evaluate(TEXT_ON_PAGE)
        assert len(shown) > 20, shown  # the page's text was found
        small = sorted({(size, text, where) for size, text, where in shown if size < least - 0.05})
        assert not small, f"{lang}/{name} at {width}px: text under {least:.1f} px: {small[:12]}"
