"""The class board's actions in real headless Chromium against a real ``escoba-tutor`` server with a class
database of its own: starting a new class asks first; a past class's board says which class is current and makes
itself current again after asking; a student's records are removed after a page that names the nickname and the
count; a name another class has is refused, naming it; and, after the server is restarted, an open board stops
and says that its link has changed (while a server that cannot be reached is still "tried again").

Screenshots of every confirmation page and of the banner, in both languages, at projector size
(tests/browser/screenshots/class-board-actions-*.png).
"""

from __future__ import annotations

import pytest
from helpers import PROJECTOR, Contexts
from test_widgets_browser import serious_violations

from escoba_tutor.records import ClassStore, DrillAnswer

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def tutor(board_tutor):
    return board_tutor


@pytest.fixture
def page(browser):
    contexts = Contexts(browser)
    yield contexts(**PROJECTOR).new_page()
    contexts.close()


def test_the_board_s_actions_ask_first_in_both_languages(tutor, page, screenshot_dir):
    with ClassStore.open(tutor.database) as store:
        store.rename_class(store.current_class().id, "Lunes 2A")
        for seed in range(3):
            assert store.record(DrillAnswer("Rude Name", "captures", seed, False, "missed_capture"))
        assert store.record(DrillAnswer("Bea", "captures", 1, True, None))
    for lang, words in (("es", {"new": "Empezar una clase nueva", "asked": "¿Empezar una clase nueva?",
                                "yes": "Sí, empezar una clase nueva", "banner": "Esta no es la clase en curso",
                                "make": "Hacer de esta la clase en curso", "asked2": "la clase en curso?",
                                "yes2": "Sí, que sea la clase en curso", "delete": "Borrar…",
                                "asked3": "¿Borrar los registros de «Rude Name»?", "count": "los 3 registros",
                                "yes3": "Sí, borrar", "rename": "Cambiar el nombre",
                                "taken": "Ya hay una clase que se llama «Lunes 2A»", "back": "Volver al panel"}),
                        ("en", {"new": "Start a new class", "asked": "Start a new class?",
                                "yes": "Yes, start a new class", "banner": "This is not the current class",
                                "make": "Make this the current class", "asked2": "the current class?",
                                "yes2": "Yes, make it the current class", "delete": "Delete…",
                                "asked3": "Delete the records of “Rude Name”?", "count": "All 3 records",
                                "yes3": "Yes, delete", "rename": "Rename",
                                "taken": "There is already a class named “Lunes 2A”", "back": "Back to the board"})):
        with ClassStore.open(tutor.database) as store:
            old = store.current_class()
        page.goto(f"{tutor.teacher_link}&lang={lang}")
        expect(page.locator("#not-current")).to_have_count(0)
        # a new class: asked first, on a page that names the class kept
        page.get_by_role("button", name=words["new"], exact=True).click()
        expect(page.get_by_role("heading", level=1)).to_have_text(words["asked"])
        expect(page.locator("main")).to_contain_text(f"«{old.name}»" if lang == "es" else f"“{old.name}”")
        with ClassStore.open(tutor.database) as store:
            assert store.current_class() == old  # nothing yet
        page.screenshot(path=screenshot_dir / f"class-board-actions-new-class-{lang}.png")
        assert serious_violations(page) == []
        page.get_by_role("button", name=words["yes"]).click()
        expect(page.locator("#board-live")).to_be_visible()
        with ClassStore.open(tutor.database) as store:
            new = store.current_class()
        assert new != old
        # the old class's board: the banner names the current one, and it can be made current again
        page.locator("#class-picker").select_option(str(old.id))
        page.locator("#class-picker").locator("xpath=..").get_by_role("button").click()
        banner = page.locator("#not-current")
        expect(banner).to_contain_text(words["banner"])
        expect(banner).to_contain_text(f"«{new.name}»" if lang == "es" else f"“{new.name}”")
        page.screenshot(path=screenshot_dir / f"class-board-actions-past-class-{lang}.png")
        assert serious_violations(page) == []
        banner.get_by_role("button", name=words["make"]).click()
        expect(page.get_by_role("heading", level=1)).to_contain_text(words["asked2"])
        page.screenshot(path=screenshot_dir / f"class-board-actions-make-current-{lang}.png")
        page.get_by_role("button", name=words["yes2"]).click()
        expect(page.locator("#board-live")).to_be_visible()
        expect(page.locator("#not-current")).to_have_count(0)
        with ClassStore.open(tutor.database) as store:
            assert store.current_class() == old
        # renaming the new class to the old one's name: refused, naming it
        if lang == "es":
            page.goto(f"{tutor.teacher_link}&lang={lang}&class={new.id}")
            page.locator("#class-name").fill("lunes 2a")
            page.get_by_role("button", name=words["rename"], exact=True).click()
            expect(page.locator("#problem")).to_contain_text(words["taken"])
            page.screenshot(path=screenshot_dir / f"class-board-actions-rename-refused-{lang}.png")
            assert serious_violations(page) == []
            page.get_by_role("link", name=words["back"], exact=True).click()
            expect(page.locator("#board-live")).to_be_visible()
        # one student's records: asked first, naming the nickname and how many
        page.goto(f"{tutor.teacher_link}&lang={lang}")
        if lang == "es":
            page.locator("#remove-nickname").select_option("Rude Name")
            page.get_by_role("button", name=words["delete"]).click()
            expect(page.get_by_role("heading", level=1)).to_have_text(words["asked3"])
            expect(page.locator("main")).to_contain_text(words["count"])
            page.screenshot(path=screenshot_dir / f"class-board-actions-remove-student-{lang}.png")
            page.get_by_role("button", name=words["yes3"]).click()
            expect(page.locator("#students")).not_to_contain_text("Rude Name")
            expect(page.locator("#students")).to_contain_text("Bea")
            with ClassStore.open(tutor.database) as store:
                assert [s.nickname for s in store.board(old.id).students] == ["Bea"]
                assert store.record(DrillAnswer("Rude Name", "captures", 9, False, "missed_capture"))
        else:  # the page of the other language, on the same student come back
            page.locator("#remove-nickname").select_option("Rude Name")
            page.get_by_role("button", name=words["delete"]).click()
            expect(page.get_by_role("heading", level=1)).to_have_text(words["asked3"])
            expect(page.locator("main")).to_contain_text("The one record of “Rude Name”")
            page.screenshot(path=screenshot_dir / f"class-board-actions-remove-student-{lang}.png")
            page.get_by_role("link", name="No, back to the board").click()
            expect(page.locator("#students")).to_contain_text("Rude Name")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_after_a_restart_the_open_board_says_its_link_has_changed(tutor, page, lang, screenshot_dir):
    page.goto(f"{tutor.teacher_link}&lang={lang}")
    status = page.locator("#board-status")
    updated = "Última actualización:" if lang == "es" else "Last updated:"
    expect(status).to_contain_text(updated, timeout=15_000)
    tutor.stop()  # the server is down: the board cannot reach it, and says it will try again
    failed = "lo volverá a intentar" if lang == "es" else "it will try again"
    expect(status).to_contain_text(failed, timeout=15_000)
    tutor.start()  # back, with a new key: the page's old one is refused
    new_link = tutor.read_teacher_link()
    assert new_link != tutor.teacher_link
    restarted = ("su enlace ha cambiado porque escoba-tutor se ha reiniciado" if lang == "es"
                 else "its link has changed because escoba-tutor was restarted")
    expect(status).to_contain_text(restarted, timeout=20_000)
    expect(status).to_have_attribute("role", "alert")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.wait_for_timeout(6000)  # more than two refreshes' time: it has stopped asking
    assert not [url for url in requests if "board.json" in url]
    expect(status).to_contain_text(restarted)
    page.screenshot(path=screenshot_dir / f"class-board-actions-restarted-{lang}.png")
    tutor.teacher_link = new_link
    page.goto(f"{new_link}&lang={lang}")
    expect(status).to_contain_text(updated, timeout=15_000)
