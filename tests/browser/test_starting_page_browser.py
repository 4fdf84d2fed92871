"""The starting page in Chromium: a lesson page that has to wait for its turn to start shows, from its first byte,
a panel in its own language that says what is happening (waiting for its turn, then preparing, then almost ready),
and then the lesson, which works. A page that fails once its start was sent says so on the same panel.

The wait is made certain: the server starts one page at a time (``max_starting_kernels``: 1), and a first page
holds that turn until the test lets it go (its second cell waits for a file); the pages under test come from the
same address, so they wait behind it. Requests to any other origin are blocked and recorded.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from escoba_test_helpers import TutorServer, write_notebook
from helpers import assert_no_error, only_from, wait_rendered
from playwright.sync_api import expect

from escoba_tutor.server.starting import FAILED, STEPS, STEPS_LABEL, TITLE
from escoba_tutor.text.translator import Translator

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PHONE, PROJECTOR = {"width": 390, "height": 844}, {"width": 1920, "height": 1080}
# What Voilà's own spinner and pages say, in English, which a page of the course must not show
VOILA_WORDS = re.compile(r"Running|Executing|Reading \d|Voil[aà] requires|There was an error|Ok, voila")
# The steps a page's panel went through, as the browser showed them (recorded from the document's start)
RECORD_STEPS = """
window.escobaSteps = [];
new MutationObserver(() => {
  const step = document.getElementById("escoba-start")?.dataset.step;
  if (step && window.escobaSteps[window.escobaSteps.length - 1] !== step) window.escobaSteps.push(step);
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-step"]});
"""
HOLD = """
import time
from pathlib import Path
flag, deadline = Path({flag}), time.monotonic() + 90
while not flag.exists() and time.monotonic() < deadline:
    time.sleep(0.05)
"""


@pytest.fixture(scope="module")
def one_start(tmp_path_factory):
    """A server on a copy of the lessons that starts one page at a time, with ``hold.ipynb`` (a page that holds
    its turn until ``server.release`` exists) and ``broken.ipynb`` (a notebook that cannot be read)."""
    folder = tmp_path_factory.mktemp("one-start")
    lessons, release = folder / "lessons", folder / "release"
    for lang in ("es", "en"):
        shutil.copytree(ROOT / "lessons" / lang, lessons / lang)
    write_notebook(lessons / "es" / "hold.ipynb", "held = True", HOLD.format(flag=json.dumps(str(release))))
    (lessons / "es" / "broken.ipynb").write_text("{ not a notebook", encoding="utf-8")
    config = folder / "config"
    config.mkdir()
    (config / "voila.json").write_text(json.dumps({"TutorVoila": {"max_starting_kernels": 1}}))
    server = TutorServer(folder / "server.log", "--lessons", str(lessons), "--no-class-board",
                         env={"JUPYTER_CONFIG_DIR": str(config)})
    server.release = release
    try:
        server.wait()
        yield server
    finally:
        release.touch()
        server.stop()


@pytest.fixture
def open_page(browser, one_start):
    """``open_page(path, viewport)``: a page of a browser of its own (its own cookie, its own kernel), its address
    given as soon as the server answers (the page goes on loading); ``elsewhere`` lists what it asked of another
    origin."""
    contexts: list = []
    elsewhere: list[str] = []

    def opener(path: str, viewport: dict):
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        only_from(one_start.url, context, elsewhere)
        context.add_init_script(RECORD_STEPS)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(one_start.url + path, wait_until="commit")
        return page

    opener.elsewhere = elsewhere
    yield opener
    for context in contexts:
        for page in context.pages:
            page.goto("about:blank")  # Voilà's close beacon: the server stops the page's kernel
        context.close()


def font_px(locator) -> float:
    return float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))


def check_waiting(page, lang: str, screenshot_dir: Path) -> None:
    """The page waits for its turn: its panel says so in its language, readable at both sizes."""
    _ = Translator(lang)
    status = page.get_by_role("status")
    expect(status.get_by_role("heading", level=1)).to_have_text(_(STEPS["wait"][0]), timeout=30_000)
    expect(status).to_contain_text(_(STEPS["wait"][1]))
    expect(status).to_have_attribute("aria-live", "polite")
    steps = page.get_by_role("list", name=_(STEPS_LABEL)).get_by_role("listitem")
    expect(steps).to_have_text([_(title) for title, _text in STEPS.values()])
    expect(page.locator("#escoba-start [aria-current=step]")).to_have_text(_(STEPS["wait"][0]))
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.title() == _(TITLE)
    shown = page.locator("body").inner_text()
    assert not VOILA_WORDS.search(shown), shown
    for name, size, heading_px, text_px in (("phone", PHONE, 24, 16), ("1920x1080", PROJECTOR, 40, 26)):
        page.set_viewport_size(size)
        assert font_px(status.get_by_role("heading")) >= heading_px, name
        assert font_px(page.locator("#escoba-start-text")) >= text_px, name
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), f"{name}: wider than the screen"
        box = status.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], f"{name}: the status is off screen"
        page.screenshot(path=screenshot_dir / f"starting-wait-{lang}-{name}.png")


def test_a_page_waiting_for_its_turn_shows_what_is_happening_then_its_lesson(one_start, open_page, screenshot_dir):
    from axe_playwright_python.sync_playwright import Axe

    holder = open_page("voila/render/es/hold.ipynb", PHONE)
    # the holder has the server's one start, its lesson running: its panel says it is almost ready
    expect(holder.locator("#escoba-start")).to_have_attribute("data-step", "ready", timeout=60_000)
    expect(holder.get_by_role("status").get_by_role("heading")).to_have_text(Translator("es")(STEPS["ready"][0]))
    # it did not wait: its steps are the other two, the first done
    expect(holder.locator("#escoba-start li")).to_have_text([Translator("es")(STEPS[step][0])
                                                             for step in ("prepare", "ready")])
    expect(holder.locator("#escoba-start li.escoba-start-done")).to_have_count(1)
    holder.screenshot(path=screenshot_dir / "starting-ready-es-phone.png")  # with Voilà's style sheets loaded
    pages = {lang: open_page(f"voila/render/{lang}/02-captures.ipynb", PHONE) for lang in ("es", "en")}
    for lang, page in pages.items():
        check_waiting(page, lang, screenshot_dir)
    results = Axe().run(pages["es"])
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]
    mark = pages["es"].locator("#escoba-start [aria-current=step] .escoba-start-mark")
    pages["es"].emulate_media(reduced_motion="reduce")
    assert mark.evaluate("e => getComputedStyle(e).animationName") == "none"
    pages["es"].emulate_media(reduced_motion="no-preference")
    assert mark.evaluate("e => getComputedStyle(e).animationName") == "escoba-start-pulse"

    one_start.release.touch()  # the holder's page is sent, and the waiting pages start one after the other
    for lang, page in pages.items():
        expect(page.locator("#escoba-start")).to_have_count(0, timeout=60_000)  # the lesson is shown, the panel gone
        wait_rendered(page)
        expect(page.locator("[data-code]").first).to_be_visible()
        assert page.evaluate("window.escobaSteps") == ["wait", "prepare", "ready"], lang
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.title() == {"es": "2. Bazas de 15", "en": "2. Making 15"}[lang]  # the lesson's heading
        assert_no_error(page)
        shown = page.locator("body").inner_text()
        assert not VOILA_WORDS.search(shown), shown
    lesson = pages["es"]
    lesson.set_viewport_size(PROJECTOR)
    hand = lesson.locator(".escoba-capture-table").first.get_by_role("group", name=Translator("es")("Your hand"))
    card = hand.locator("button.et-card").first
    card.click()  # the lesson answers its student: the card is chosen
    expect(card).to_have_attribute("aria-pressed", "true")
    lesson.screenshot(path=screenshot_dir / "starting-then-lesson-es-1920x1080.png")
    assert open_page.elsewhere == []
    log = one_start.log.read_text()
    assert "Traceback" not in log, log[-3000:]


def test_a_page_that_fails_after_its_start_was_sent_says_so_on_its_panel(one_start, open_page):
    _ = Translator("es")
    page = open_page("voila/render/es/broken.ipynb", PHONE)
    status = page.get_by_role("status")
    expect(status.get_by_role("heading")).to_have_text(_(FAILED[0]), timeout=30_000)
    expect(status).to_contain_text(_(FAILED[1]))
    reload = page.get_by_role("link", name=_("Reload the page"))
    expect(reload).to_be_visible()
    assert reload.get_attribute("href") == "/voila/render/es/broken.ipynb"
    expect(page.locator("#escoba-start [aria-current=step]")).to_have_count(0)
    assert not VOILA_WORDS.search(page.locator("body").inner_text())
    missing = page.context.request.get(one_start.url + "voila/render/es/no-such-lesson.ipynb")
    assert missing.status == 404  # a page that is not there still gets the course's own 404 page
