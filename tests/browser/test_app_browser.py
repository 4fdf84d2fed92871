"""The app as a teacher starts it: the real `escoba-tutor` server, the real lessons, real headless Chromium.

The landing page in both languages, every lesson reached by clicking from the landing page, the language
switch, a shared URL opening the right position, bad parameters, a server started with --rules scopa, and
axe-core with no serious or critical violation.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest
from helpers import assert_no_error, wait_rendered
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted(p.name for p in (ROOT / "lessons" / "es").glob("0*.ipynb"))

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def scopa_tutor(tutor_server_factory):
    return tutor_server_factory("--rules", "scopa", "--lang", "en")


def test_the_landing_page_in_both_languages_and_the_switch(tutor, page):
    page.goto(tutor.url)
    wait_rendered(page)
    assert page.url.endswith("/voila/render/es/index.ipynb")
    expect(page.get_by_role("heading", name=re.compile("Escoba: aprende a jugar"))).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "es")  # screen readers speak it in Spanish
    assert_no_error(page)
    page.get_by_role("link", name="English version").click()
    wait_rendered(page)
    assert page.url.endswith("/voila/render/en/index.ipynb")
    expect(page.get_by_role("heading", name=re.compile("Escoba: learn to play"))).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(tutor.url + "?lang=en")
    wait_rendered(page)
    assert "/voila/render/en/index.ipynb" in page.url


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_lesson_is_reached_by_clicking_from_the_landing_page(tutor, page, lang):
    page.goto(f"{tutor.url}?lang={lang}")
    wait_rendered(page)
    hrefs = [page.locator(f"a[href='{name}']").first for name in LESSONS]
    assert all(link.count() == 1 for link in hrefs), "the landing page links every lesson"
    for name in [*LESSONS, "play.ipynb"]:
        # each link of the one landing page, clicked to open in a tab of its own (as a student may): the
        # landing page, and its kernel, need not start again for each lesson
        with page.context.expect_page() as opened:
            page.locator(f"a[href='{name}']").first.click(modifiers=["ControlOrMeta"])
        lesson = opened.value
        try:
            lesson.bring_to_front()
            wait_rendered(lesson)
            assert lesson.url.split("?")[0].endswith(f"/voila/render/{lang}/{name}")
            expect(lesson.locator("html")).to_have_attribute("lang", lang)
            expect(lesson.locator(".et-card:visible").first).to_be_visible(timeout=60_000)  # its widgets drew cards
            assert_no_error(lesson)
        finally:
            lesson.goto("about:blank")  # Voilà's close beacon: the server stops the lesson's kernel
            lesson.close()
        page.bring_to_front()


def test_a_shared_url_opens_the_right_position(tutor, page):
    page.goto(f"{tutor.url}voila/render/es/02-captures.ipynb?table=1o+4b+7o&hand=3c")
    wait_rendered(page)
    assert_no_error(page)
    expect(page.locator("[aria-label='cuatro de bastos']:visible").first).to_be_visible()
    expect(page.locator("[aria-label='tres de copas']:visible").first).to_be_visible()
    expect(page.locator("body")).to_contain_text("3 + 1 + 7 + 4 = 15")


@pytest.mark.parametrize("query, expected", [("seed=-1", "no vale"), ("seed=999999999999999999999", "no vale"),
                                             ("table=1o+8o", "no es una carta")])
def test_bad_parameters_get_a_clear_message(tutor, page, query, expected):
    page.goto(f"{tutor.url}voila/render/es/02-captures.ipynb?{query}")
    wait_rendered(page)
    assert_no_error(page)
    expect(page.locator(".escoba-notice")).to_contain_text(expected)


def test_an_unknown_language_is_explained_on_the_landing_page(tutor, page):
    page.goto(f"{tutor.url}?lang=xx")
    wait_rendered(page)
    assert page.url.split("?")[0].endswith("/voila/render/es/index.ipynb")
    expect(page.locator(".escoba-notice")).to_contain_text("«xx»")


def test_a_server_started_with_scopa_rules(scopa_tutor, page):
    page.goto(scopa_tutor.url)
    wait_rendered(page)
    assert "/voila/render/en/index.ipynb" in page.url
    page.goto(f"{scopa_tutor.url}voila/render/en/02-captures.ipynb?table=2c+3e+5b&hand=5o")
    wait_rendered(page)
    expect(page.locator("body")).to_contain_text("Captures (Scopa)")
    expect(page.locator("body")).to_contain_text("5 = 5")


def test_a_teachers_own_notebook_says_the_servers_language(tutor_server_factory, page, tmp_path):
    """A notebook that names no language (not built from the course's sources) is in the class's: the server's
    ``--lang``; a lesson in the same folder keeps its own."""
    lessons = tmp_path / "lessons"
    (lessons / "es").mkdir(parents=True)
    shutil.copy(ROOT / "lessons" / "es" / "index.ipynb", lessons / "es" / "index.ipynb")
    notes = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Notes for today")])
    nbformat.write(notes, lessons / "es" / "notes.ipynb")
    english = tutor_server_factory("--lessons", str(lessons), "--lang", "en")
    page.goto(f"{english.url}voila/render/es/notes.ipynb")
    wait_rendered(page)
    expect(page.get_by_role("heading", name=re.compile("Notes for today"))).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(f"{english.url}voila/render/es/index.ipynb")
    wait_rendered(page)
    expect(page.get_by_role("heading", name=re.compile("Escoba: aprende a jugar"))).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "es")


@pytest.mark.parametrize(("path", "lang", "title"), [
    ("voila/render/es/no-such-lesson.ipynb", "es", "Página no encontrada"),
    ("voila/render/en/no-such-lesson.ipynb", "en", "Page not found"),
    ("no/such/page?lang=en", "en", "Page not found"),
    ("nope", "es", "Página no encontrada"),
    ("voila/tree", "es", "Página no encontrada"),  # no folder listing (Voilà's): the course's own page
    ("voila/tree/en?lang=en", "en", "Page not found"),
])
def test_an_address_that_leads_nowhere_says_so_in_its_language(tutor, page, path, lang, title):
    """A missing lesson, Voilà's folder listing (the course serves none) or any other unknown address: a 404 page in
    the address's language (the server's when the address names none), with a link to the course's first page."""
    answer = page.goto(f"{tutor.url}{path}")
    assert answer.status == 404
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_role("heading", name=title)).to_be_visible()
    page.get_by_role("link").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Escoba")


@pytest.mark.parametrize("path", ["/voila/render/es/index.ipynb", "/voila/render/en/02-captures.ipynb"])
def test_axe_finds_no_serious_or_critical_violation(tutor, page, path):
    from axe_playwright_python.sync_playwright import Axe

    page.goto(tutor.url + path.lstrip("/"))
    wait_rendered(page)
    results = Axe().run(page)
    bad = [v for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in bad]
