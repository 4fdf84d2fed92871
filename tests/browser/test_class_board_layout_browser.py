"""The class board with a whole class, in real headless Chromium against the real ``escoba-tutor`` server: 40
students who answered every kind of exercise (benchmarks/board_redraw.py's ``fill_class``), at a projector's
1920×1080, a laptop's 1280×800 and a tablet's 1024×768, in both languages.

At each size: the page never scrolls sideways; the students' region and the mistakes' region do not overlap; the
students' table scrolls in its own region with the nicknames' column still in view; screenshots
(tests/browser/screenshots/class-board-full-*.png). Then the views: sorting by need, hiding the nicknames (kept
through the refreshes and a reload), the times in the browser's time zone, a student's page from the board, and
print (A4 landscape): no controls, the table as wide as the page, every mistake's exercises shown.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from helpers import board_refreshed
from test_widgets_browser import serious_violations

from benchmarks.board_redraw import fill_class
from escoba_tutor.exercises.registry import kind_names
from escoba_tutor.records import ClassStore

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

SIZES = [(1920, 1080), (1280, 800), (1024, 768)]
A4_LANDSCAPE = {"width": 1047, "height": 718}  # 297 × 210 mm less the 10 mm margins, at 96 px an inch

GEOMETRY = """() => {
  const rect = (selector) => document.querySelector(selector).getBoundingClientRect();
  const students = rect("#students-region"), mistakes = rect(".mistakes-part");
  return {scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth,
          overlap: !(students.bottom <= mistakes.top || mistakes.bottom <= students.top
                     || students.right <= mistakes.left || mistakes.right <= students.left),
          regionScrolls: document.querySelector("#students-region").scrollWidth
                         > document.querySelector("#students-region").clientWidth};
}"""


@pytest.fixture(scope="module")
def tutor(class_tutor_factory, tmp_path_factory):
    database = tmp_path_factory.mktemp("class-db") / "class.sqlite3"
    store = ClassStore.open(database)
    # the last records a moment ago (active now), a third of the class stopped a while before
    names = fill_class(store, students=40, records=80, now=datetime.now(timezone.utc) - timedelta(seconds=30))
    board = store.board()
    store.close()
    assert len(board.students) == 40 and {k for s in board.students for k in s.drills} == set(kind_names())
    server = class_tutor_factory(database=database)
    server.names, server.board = names, board
    return server


def board_page(browser, tutor, width: int, height: int, lang: str = "es", timezone_id: str | None = None):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang,
                                  **({"timezone_id": timezone_id} if timezone_id else {}))
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{tutor.teacher_link}&lang={lang}")
    expect(page.locator("#students tbody tr")).to_have_count(40)
    return page


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_whole_class_fits_the_screen(browser, tutor, screenshot_dir, width, height):
    for lang in ("es", "en"):
        page = board_page(browser, tutor, width, height, lang)
        expect(page.locator("#students thead th.kind-col")).to_have_count(len(kind_names()))
        shape = page.evaluate(GEOMETRY)
        assert shape["scrollWidth"] <= shape["innerWidth"], shape  # the page never scrolls sideways
        assert not shape["overlap"], shape
        page.screenshot(path=screenshot_dir / f"class-board-full-{lang}-{width}x{height}.png")
        # the table scrolls in its own region, sideways and down: the nicknames' column and the header stay
        region = page.locator("#students-region")
        first = page.locator("#students tbody th.nickname").first
        before = first.bounding_box()
        region.evaluate("r => { r.scrollLeft = r.scrollWidth; r.scrollTop = 200; }")
        page.wait_for_timeout(100)
        if shape["regionScrolls"]:
            assert region.evaluate("r => r.scrollLeft") > 0
        box = region.bounding_box()
        header = page.locator("#students thead th.nickname-col").bounding_box()
        assert abs(header["y"] - box["y"]) < 3 and abs(header["x"] - box["x"]) < 3, (header, box)
        after = page.locator("#students tbody th.nickname").nth(6).bounding_box()
        assert abs(after["x"] - before["x"]) < 1 and box["y"] < after["y"] < box["y"] + box["height"]
        assert page.evaluate(GEOMETRY)["scrollWidth"] <= width
        # a refresh keeps where the table was scrolled to
        board_refreshed(page)
        assert region.evaluate("r => r.scrollTop") == 200
        page.context.close()


def test_the_teacher_s_views(browser, tutor, screenshot_dir):
    page = board_page(browser, tutor, 1280, 800, "en", timezone_id="Pacific/Auckland")
    rows = page.locator("#students tbody th.nickname a.nick")
    expect(rows.first).to_have_text(sorted(tutor.names, key=lambda n: n.casefold().translate(
        str.maketrans("ÁÉÍÓÚáéíóú", "AEIOUaeiou")))[0])
    # by need: the lowest share right first, as the board's data says
    page.get_by_role("button", name="by need (lowest share right first)").click()
    shares = [s for s in page.locator("#students tbody td.all-col .share-text").all_inner_texts()]
    values = [int(s.rstrip("%\xa0 ")) for s in shares]
    assert values == sorted(values), values
    expect(page.get_by_role("button", name="by need (lowest share right first)")).to_have_attribute(
        "aria-pressed", "true")
    board_refreshed(page)  # still by need
    assert [int(s.rstrip("%\xa0 ")) for s in page.locator("#students tbody td.all-col .share-text")
            .all_inner_texts()] == values
    # who is active now, and the rule said on the page
    expect(page.locator(".active-now")).to_contain_text("(active in the last 5 minutes)")
    active = int(re.search(r"Active now: (\d+)", page.locator(".active-now").inner_text()).group(1))
    assert 0 < active < 40 and page.locator("#students tbody tr.active").count() == active
    # times in the browser's zone (Auckland here), in one format: day, month, hours and minutes
    seen = page.locator("#students tbody td.seen time").first
    shown = seen.inner_text()
    assert "UTC" not in shown and re.fullmatch(r"\d{1,2} [A-Z][a-z]{2}, \d\d:\d\d", shown), shown
    moment = datetime.fromisoformat(seen.get_attribute("datetime").replace("Z", "+00:00"))
    auckland = page.evaluate("iso => new Intl.DateTimeFormat('en', {hour: '2-digit', minute: '2-digit', "
                             "hourCycle: 'h23', timeZone: 'Pacific/Auckland'}).format(new Date(iso))",
                             moment.isoformat())
    assert shown.endswith(auckland)
    # the projector's view: no nickname on screen, kept through a refresh and a reload
    page.get_by_role("button", name="Hide nicknames (projector)").click()
    body = page.locator("#students").inner_text()
    assert not any(re.search(rf"(?m)^{re.escape(name)}\b", body) for name in tutor.names)
    assert re.fullmatch(r"Student \d+", page.locator("#students tbody th.nickname").first.inner_text().strip())
    board_refreshed(page)
    assert "Student " in page.locator("#students tbody th.nickname").first.inner_text()
    page.reload()
    expect(page.locator("#students tbody tr")).to_have_count(40)
    assert re.fullmatch(r"Student \d+", page.locator("#students tbody th.nickname").first.inner_text().strip())
    assert all(not box.is_visible() for box in page.locator("#students a.nick").all()[:5])
    page.screenshot(path=screenshot_dir / "class-board-projector-en-1280x800.png")
    page.get_by_role("button", name="Hide nicknames (projector)").click()
    expect(page.locator("#students a.nick").first).to_be_visible()
    bad = serious_violations(page)
    assert not bad, bad
    # a student's page, from the board; under the projector's view it names the student by their label only
    page.get_by_role("button", name="Hide nicknames (projector)").click()
    label = page.locator("#students tbody th.nickname .alias").first.inner_text()
    page.goto(page.locator("#students a.nick").first.evaluate("a => a.href"))
    assert page.title().startswith(label + " ·") and page.locator("h1").inner_text() == label
    page.go_back()
    page.get_by_role("button", name="Hide nicknames (projector)").click()
    page.locator("#students a.nick").first.click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.locator("#history tbody tr").first).to_be_visible()
    assert page.locator("#student-mistakes a").count() > 0
    expect(page.get_by_role("button", name="Remove this student's records")).to_be_visible()
    assert "UTC" not in page.locator("#history tbody td.when").first.inner_text()
    bad = serious_violations(page)
    assert not bad, bad
    page.screenshot(path=screenshot_dir / "class-board-student-en-1280x800.png")
    page.context.close()


def test_the_board_prints_on_a4_landscape(browser, tutor):
    page = board_page(browser, tutor, **A4_LANDSCAPE)
    closed = page.locator("ol.mistakes details").first
    link = closed.locator("ul.seeds a").first
    assert not link.is_visible()
    page.emulate_media(media="print")
    for hidden in ("nav", "#board-views", "button", "form", "#board-status"):
        assert all(not part.is_visible() for part in page.locator(hidden).all()), hidden
    assert link.is_visible()  # every mistake's exercises, printed
    shape = page.evaluate("""() => ({page: document.scrollingElement.scrollWidth, width: innerWidth,
        table: document.querySelector('#students').getBoundingClientRect().right,
        region: getComputedStyle(document.querySelector('#students-region')).overflow})""")
    assert shape["page"] <= shape["width"] and shape["table"] <= shape["width"], shape
    assert shape["region"] == "visible"  # the whole table, not a scrolling window of it
    pdf = page.pdf(format="A4", landscape=True)
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    page.context.close()


def test_a_refresh_changes_only_what_changed_and_keeps_the_focus_and_the_scroll(browser, tutor):
    """While the class goes on (new answers, a student who just arrived), a refresh changes only the rows and
    mistakes that differ: the other rows are the very same elements, the keyboard focus stays on the nickname the
    teacher had reached with Tab (in a row that changed), and the page and the students' table stay scrolled where
    they were; the refresh itself is a 304 while nothing changed. The «Last updated» time is in the board's one
    format. The banner of a past class and the nicknames that can be deleted follow too, without a reload; a class
    forgotten elsewhere gives way to the current one. (This test runs last in its file: it changes the class.)"""
    from escoba_tutor.records import DrillAnswer

    page = board_page(browser, tutor, 1280, 800, "en")
    answers = []
    page.on("response", lambda r: answers.append(r.status) if "board.json" in r.url else None)
    expect(page.locator("#board-status time")).to_be_attached(timeout=10_000)
    shown = page.locator("#board-status").inner_text()
    assert re.fullmatch(r"Last updated: \d{1,2} [A-Z][a-z]{2}, \d\d:\d\d\.", shown), shown
    assert 304 in answers and 200 not in answers  # nothing changed since the page was drawn
    page.evaluate("() => { window.openedOnce = true; }")  # gone if the page were ever reloaded

    # the teacher scrolls the page and the table, and reaches a student's nickname with the keyboard
    target = sorted(tutor.names, key=str.casefold)[25]
    link = page.locator("#students a.nick", has_text=re.compile(f"^{re.escape(target)}$"))
    link.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # by the keyboard: the focus is visible
    expect(link).to_be_focused()
    region = page.locator("#students-region")
    region.evaluate("r => { r.scrollTop = 300; r.scrollLeft = 120; }")
    page.evaluate("() => window.scrollTo(0, 150)")
    before = page.evaluate("""() => ({region: [document.getElementById('students-region').scrollTop,
        document.getElementById('students-region').scrollLeft], page: window.scrollY})""")
    page.evaluate("""(target) => { for (const row of document.querySelectorAll('#students tbody tr'))
        row.marked = row.dataset.key === target ? 'changed' : 'kept'; }""", target)  # on the elements themselves
    answers.clear()

    store = ClassStore.open(tutor.database)
    for seed in range(3):
        assert store.record(DrillAnswer(target, kind="captures", seed=seed, correct=False, mistake="missed_15"))
    assert store.record(DrillAnswer("Newcomer", kind="captures", seed=9, correct=True, mistake=None))
    expect(page.locator("#students tbody tr")).to_have_count(41, timeout=10_000)
    assert 200 in answers and page.evaluate("() => window.openedOnce === true")
    expect(link).to_be_focused()
    after = page.evaluate("""() => ({region: [document.getElementById('students-region').scrollTop,
        document.getElementById('students-region').scrollLeft], page: window.scrollY})""")
    assert after == before, (before, after)
    marks = page.evaluate("() => [...document.querySelectorAll('#students tbody tr')].map(r => r.marked || null)")
    # every row is the same element as before (the changed one changed in place), and one is new
    assert marks.count("kept") == 39 and marks.count("changed") == 1 and marks.count(None) == 1, marks
    row = page.locator("#students tbody tr", has=page.locator("a.nick", has_text=re.compile(f"^{re.escape(target)}$")))
    answered = sum(a for a, _r in tutor.board.students[[s.nickname for s in tutor.board.students].index(target)]
                   .drills.values()) + 3
    expect(row.locator("td.all-col .answered")).to_have_text(str(answered))
    expect(page.locator("#remove-nickname option", has_text="Newcomer")).to_have_count(1)
    board_refreshed(page)
    expect(link).to_be_focused()

    # another class made current elsewhere: this board says so, and its button can make this one current again
    newer = store.start_new_class("Another group")
    banner = page.locator("#not-current")
    expect(banner).to_contain_text("what students do now is saved in “Another group”", timeout=10_000)
    expect(page.locator("#class-picker option", has_text="Another group (current)")).to_have_count(1)
    banner.get_by_role("button", name="Make this the current class").click()
    page.get_by_role("button", name="Yes, make it the current class").click()
    expect(page.locator("#students tbody tr")).to_have_count(41)
    assert store.current_class().id != newer.id

    # the class shown forgotten elsewhere: the board of the class that is current now, whole (title and forms too)
    shown = store.current_class()
    store.forget_class(shown.id)
    current = store.current_class()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Class board: {current.name}", timeout=10_000)
    expect(page.locator("#board-live")).to_contain_text("Nobody with a nickname has done anything yet")
    assert f"class={current.id}" in page.url
    store.close()
    page.context.close()
