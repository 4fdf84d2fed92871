"""The static site in a real headless Chromium: every page renders in both languages with the same widgets as
the served app, a capture chosen, a drill answered right and wrong, a move against the computer, and no request
ever leaves the site's origin (every other origin is blocked, and the pages still work).

Python runs in the page (Pyodide): a cold page takes seconds to start, so each test opens as few pages as it can.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from playwright.sync_api import expect

from escoba_tutor.exercises import capture_drill

LESSONS = ("index", "01-cards", "02-captures", "03-escoba", "04-end-of-deal", "05-scoring", "06-game",
           "07-variants", "08-strategy", "play")
ERRORS = re.compile(r"Traceback|There was an error|Error executing|Exception|No kernel", re.I)
#: The game's status line once I have played and the computer has answered (es).
ANSWERED = re.compile(r"^(Juegas|Dejas) .*El ordenador .*Te toca\.$")
START = 600_000  # ms for a cold page's Python to start and run every cell (minutes on a crowded machine)


def page_path(lang: str, name: str) -> str:
    return f"voici/render/{lang}/{name}.html"


def wait_ran(page, name: str) -> None:
    """Every cell has run: the page's last widget is drawn (a drill on the lessons, the game on the play page)."""
    last = ".escoba-game-table .et-table" if name == "play" else ".escoba-drill .et-card"
    expect(page.locator(last).first).to_be_visible(timeout=START)
    expect(page.locator(".et-card:visible").first).to_be_visible()


def open_game(visit):
    """The play page (es) with the game drawn and the learner to play: the page and the game's root."""
    page = visit.open(page_path("es", "play"))
    wait_ran(page, "play")
    root = page.locator(".escoba-game-table")
    expect(root.locator(".et-live", has_text="Te toca.")).to_be_visible(timeout=60_000)
    return page, root


def assert_clean(page, visit) -> None:
    text = page.locator("body").inner_text()
    assert not ERRORS.search(text), text[:800]
    assert visit.page_errors == []
    # no server to lose here: the connection watch must say nothing
    expect(page.locator("#escoba-connection-lost")).to_have_count(0)
    assert visit.other_origins() == []


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_page_renders_in_both_languages(visit, lang):
    """Each page is checked once the next one has run beside it (seconds later), so a late error, or a false
    "connection lost", would show by then; the last one is given the same time on its own."""
    ran = None
    for name in LESSONS:
        page = visit.open(page_path(lang, name))
        wait_ran(page, name)
        expect(page.locator("html")).to_have_attribute("lang", lang)  # a screen reader speaks the lesson's language
        if ran is not None:
            assert_clean(ran, visit)
            ran.close()
        ran = page
    ran.wait_for_timeout(3000)
    assert_clean(ran, visit)
    expect(ran.locator("body")).to_contain_text("Mesa" if lang == "es" else "Table")


def test_the_site_root_leads_to_the_landing_page_and_links_are_pages(visit):
    page = visit.open("")
    expect(page).to_have_url(re.compile(r"voici/render/es/index\.html$"), timeout=30_000)
    expect(page.locator("html")).to_have_attribute("lang", "es")
    hrefs = page.locator("a[href]").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    lessons = {href for href in hrefs if re.fullmatch(r"0\d-[a-z-]+\.html", href)}
    assert len(lessons) == 8, hrefs
    assert not [href for href in hrefs if href.endswith(".ipynb")], hrefs
    assert visit.other_origins() == []


class _HtmlLang(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "html" and self.lang is None:
            self.lang = dict(attrs).get("lang") or ""


def test_every_page_of_the_site_says_its_language(site_dir):
    """A lesson's page says its lesson's language; the others (the root, Voilà's listings of a folder, in
    English) one of the course's languages too."""
    said = {}
    for page in sorted(site_dir.rglob("*.html")):
        parser = _HtmlLang()
        parser.feed(page.read_text(encoding="utf-8"))
        said[page.relative_to(site_dir).as_posix()] = parser.lang
    lessons = {path: lang for path, lang in said.items() if path.startswith("voici/render/")}
    assert len(lessons) == 2 * len(LESSONS), sorted(said)
    for path, lang in lessons.items():
        assert lang == path.split("/")[2], (path, lang)
    assert all(lang in ("es", "en") for lang in said.values()), said
    assert said["index.html"] == "es"  # the root: the Spanish landing page's address, and a link to the English one


@pytest.fixture(scope="module")
def landing(new_visit):
    """The English landing page, opened once for the tests below (a cold start is the slow part)."""
    visit = new_visit()
    page = visit.open(page_path("en", "index"))
    wait_ran(page, "index")
    yield visit, page
    visit.close()


def test_a_capture_chosen_in_the_capture_table(landing):
    visit, page = landing
    table = page.locator(".escoba-capture-table").first
    row = table.locator("[role=grid] tbody tr[data-id]").first
    taken = row.get_attribute("data-id").split(":")[1].split("+")
    row.click()
    expect(row).to_have_attribute("aria-selected", "true")
    expect(table.get_by_role("status")).to_contain_text("takes")
    expect(table.get_by_role("group", name="Table").locator("[aria-current='true']")).to_have_count(len(taken))
    assert_clean(page, visit)


def test_a_drill_answered_wrong_then_right(landing):
    visit, page = landing
    drill = page.locator(".escoba-drill").first
    position = capture_drill(1)  # the landing page's drill: position no. 1
    expect(drill).to_contain_text("no. 1")
    table = drill.get_by_role("group", name="Table")
    picked = drill.locator("[role=grid] tbody tr[data-id]")

    def add(cards) -> None:
        for card in cards:
            table.locator(f"[data-code='{card}']").click()
        drill.get_by_role("button", name="Add this capture").click()

    played = position.card.value
    wrong = next(card for card in position.table if card.value + played != 15 and
                 frozenset([card]) not in position.answer)
    add([wrong.code])
    expect(picked).to_have_count(1)
    drill.get_by_role("button", name="Check").click()
    expect(picked.first).to_contain_text("wrong")
    expect(drill).to_contain_text("missing")

    drill.get_by_role("button", name="Clear my captures").click()
    expect(picked).to_have_count(0)
    for capture in position.answer:
        add(sorted(card.code for card in capture))
        expect(picked).to_have_count(position.answer.index(capture) + 1)
    drill.get_by_role("button", name="Check").click()
    for row in picked.all():  # the verdicts come with the kernel's answer
        expect(row).to_contain_text("right")
    rows = picked.all_inner_texts()
    assert len(rows) == len(position.answer)
    assert all("right" in row and "wrong" not in row and "missing" not in row for row in rows), rows
    assert_clean(page, visit)


def test_a_move_against_the_computer(visit):
    page, root = open_game(visit)
    hand = root.get_by_role("group", name="Tu mano")
    before = hand.locator("[data-code]").count()
    row = root.get_by_role("grid", name="Todas las bazas posibles").locator("tbody tr[data-id]").first
    card = row.get_attribute("data-id").split(":")[0]
    row.click()
    expect(row).to_have_attribute("aria-selected", "true")
    root.get_by_role("button", name="Jugar").click()
    # my move is told, the computer answers, and it is my turn again with one card fewer
    expect(root.locator(".et-live", has_text=ANSWERED)).to_be_visible(timeout=60_000)
    expect(hand.locator("[data-code]")).to_have_count(before - 1)
    expect(hand.locator(f"[data-code='{card}']")).to_have_count(0)
    assert_clean(page, visit)


def test_nothing_is_requested_from_another_origin_and_the_pages_work_offline(landing):
    visit, page = landing  # it has run every cell and been used by the tests above, with other origins blocked
    assert visit.blocked == []
    own = [url for url in visit.requests if url.startswith(visit.server.origin + "/")]
    assert any(url.endswith("pyodide.asm.wasm") for url in own)
    assert any("escoba_tutor-" in url and url.endswith(".whl") for url in own)
    assert any(url.endswith("fontawesome/css/all.min.css") for url in own)
    assert visit.other_origins() == []


def card_codes(group) -> list[str]:
    return sorted(group.locator("[data-code]").evaluate_all("(cards) => cards.map((c) => c.dataset.code)"))


def test_the_address_settings_reach_the_page_as_on_the_server(visit):
    """?lang=, ?seed= (the largest a widget takes: a BigInt in the browser one above it) and ?table=&hand=,
    given at the site's root, as a teacher shares them: the English landing page, its first board holding the
    address's cards, its drill the address's exercise."""
    largest = 2**53 - 2
    page = visit.open(f"?lang=en&seed={largest}&table=1o+4b+7o&hand=3c")
    expect(page).to_have_url(re.compile(rf"voici/render/en/index\.html\?lang=en&seed={largest}&"), timeout=30_000)
    wait_ran(page, "index")
    board = page.locator(".escoba-capture-table").first
    assert card_codes(board.get_by_role("group", name="Table")) == ["1o", "4b", "7o"]
    assert card_codes(board.get_by_role("group", name="Your hand")) == ["3c"]
    drill = page.locator(".escoba-drill").first
    expect(drill).to_contain_text(f"no. {largest}")
    expect(drill.get_by_role("spinbutton")).to_have_value(str(largest))
    expect(page.locator(".escoba-notice")).to_have_count(0)  # every setting was used
    assert_clean(page, visit)


def test_a_bad_address_setting_is_told_on_the_site_too(visit):
    page = visit.open(page_path("es", "02-captures") + "?seed=9007199254740991&lang=fr")
    wait_ran(page, "02-captures")
    notice = page.locator(".escoba-notice")
    expect(notice).to_contain_text("El idioma «fr» no está disponible")
    expect(notice).to_contain_text("9007199254740991")
    assert_clean(page, visit)


def test_a_reload_brings_the_game_back(visit):
    page = visit.open(page_path("es", "play"))
    wait_ran(page, "play")
    root = page.locator(".escoba-game-table")
    mine = root.locator(".et-live", has_text="Te toca.")
    expect(mine).to_be_visible(timeout=60_000)
    offer = root.get_by_role("button", name="Sí, continuar")
    expect(offer).to_be_hidden()  # a first visit: nothing kept, nothing offered
    root.get_by_role("grid", name="Todas las bazas posibles").locator("tbody tr[data-id]").first.click()
    root.get_by_role("button", name="Jugar").click()
    expect(root.locator(".et-live", has_text=ANSWERED)).to_be_visible(timeout=60_000)
    hand, table = root.get_by_role("group", name="Tu mano"), root.get_by_role("group", name="Mesa")

    def position() -> tuple:
        return card_codes(hand), card_codes(table), root.locator("code.escoba-code").inner_text().strip()

    before = position()
    assert len(before[0]) == 2 and before[2], before  # one card played of three, and a resume code
    page.reload()
    wait_ran(page, "play")
    expect(root.get_by_text("¿Continuar tu partida?")).to_be_visible(timeout=60_000)
    offer.click()
    expect(root.get_by_text("¿Continuar tu partida?")).to_be_hidden()
    expect(mine).to_be_visible(timeout=60_000)
    expect(hand.locator("[data-code]")).to_have_count(2)
    assert position() == before
    assert_clean(page, visit)
