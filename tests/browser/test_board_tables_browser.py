"""The class's tables on the teacher's board, in real headless Chromium at projector size (1920×1080), against a
real ``escoba-tutor`` server: two students (real kernels' tokens, speaking through the kernel's own table client,
as their pages will) open a table and play; the board's list shows it and follows each play without being
reloaded, the keyboard's focus staying on the row's link; "Project this table" opens the table for the projector,
which follows the plays too, shows no card of any hand and fits the screen. No serious accessibility problem, and
screenshots in both languages (tests/browser/screenshots/board-tables-*.png).
"""

from __future__ import annotations

import re

import pytest
from escoba_test_helpers import voila_settings
from helpers import PROJECTOR
from test_app_tables import Student
from test_class_board import KEYS
from test_widgets_browser import serious_violations

from escoba_tutor.engine.cards import DECK
from escoba_tutor.text.translator import Translator

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

NAMES = {card.code: Translator("es").card_name(card) for card in DECK}


@pytest.fixture(scope="module")
def tutor(class_tutor_factory, tmp_path_factory):
    # the students' kernels are spoken for by the test (their pages never connect): kept for the module's time
    server = class_tutor_factory(env=voila_settings(tmp_path_factory.mktemp("config"), connect_s=3600))
    KEYS[server.url] = server.key
    return server


def test_the_board_lists_the_tables_and_projects_one_without_any_hand(tutor, contexts, screenshot_dir):
    board = contexts(**PROJECTOR).new_page()
    board.goto(tutor.teacher_link)
    tables = board.locator("#game-tables")
    expect(tables.get_by_role("heading", level=2)).to_have_text("Mesas (0)")
    board.evaluate("() => { window.openedOnce = true; }")  # gone if the page were ever reloaded

    ana, leo = Student(tutor, "Ana"), Student(tutor, "Leo")
    code = ana.open(2)["code"]
    row = tables.locator(f'tr[data-key="{code}"]')
    expect(row).to_contain_text("Esperando jugadores", timeout=5_000)
    leo.join(code)
    expect(row).to_contain_text("En juego", timeout=5_000)
    expect(row.locator(".sides")).to_have_text(re.compile(r"Bando 1:\s*Ana.*contra\s*Bando 2:\s*Leo"))
    expect(row.locator(".score")).to_have_text("0 – 0")
    players = [ana, leo]

    def play() -> dict:
        turn = ana.view(code)["turn"]
        mine = players[turn].view(code)
        return players[turn].play(mine, mine["legal"][0])

    # the row's link keeps the keyboard's focus while a play changes the row
    link = row.get_by_role("link", name="Proyectar esta mesa")
    link.focus()
    turn_before = row.locator(".turn").inner_text()
    play()
    expect(row.locator(".turn")).not_to_have_text(turn_before, timeout=5_000)
    expect(link).to_be_focused()
    assert board.evaluate("() => window.openedOnce === true")

    # the projector's page, from the row's link
    with board.context.expect_page() as opened:
        link.press("Enter")
    projector = opened.value
    projector.set_viewport_size(PROJECTOR)
    expect(projector.get_by_role("heading", level=1)).to_have_text(f"Mesa {code}")
    expect(projector.locator("#table-turn")).to_contain_text("Turno:")
    version = projector.locator("#table-top").get_attribute("data-version")
    made = play()
    expect(projector.locator("#table-top")).not_to_have_attribute("data-version", version, timeout=5_000)
    expect(projector.locator("#last-play")).to_contain_text("Última jugada:")
    for _turn in range(3):
        made = play()
    expect(projector.locator("#table-top")).to_have_attribute("data-version", str(made["version"]), timeout=5_000)
    views = [p.view(code) for p in players]
    shown = projector.locator("#table-top").inner_text()
    titles = projector.locator(".card").evaluate_all("(cards) => cards.map((card) => card.title)")
    assert sorted(titles) == sorted(NAMES[c] for c in views[0]["table"])  # the table's cards, big
    hands = {NAMES[c] for view in views for c in view["hand"]}
    assert not {name for name in hands if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", shown)}
    assert not set(titles) & hands
    assert projector.locator(".back").count() == sum(len(view["hand"]) for view in views)  # their backs only
    # the whole table on the projector's screen, nothing under the fold or to the side
    assert projector.evaluate("() => document.documentElement.scrollHeight <= innerHeight "
                              "&& document.documentElement.scrollWidth <= innerWidth")
    assert serious_violations(projector) == []
    assert serious_violations(board) == []
    projector.screenshot(path=str(screenshot_dir / "board-tables-projector-es.png"))
    board.locator("#game-tables").screenshot(path=str(screenshot_dir / "board-tables-list-es.png"))

    projector.goto(projector.url.replace("lang=es", "lang=en") if "lang=es" in projector.url
                   else projector.url + "&lang=en")
    expect(projector.get_by_role("heading", name="On the table")).to_be_visible()
    expect(projector.locator(".side").first).to_contain_text("points")
    assert projector.evaluate("() => document.documentElement.scrollHeight <= innerHeight")
    projector.screenshot(path=str(screenshot_dir / "board-tables-projector-en.png"))


def test_a_table_of_four_with_the_computer_fits_the_projector(tutor, contexts, screenshot_dir):
    eva = Student(tutor, "Eva")
    code = eva.open(4)["code"]
    for seat, level in ((1, "random"), (2, "greedy"), (3, "expert")):
        eva.give_to_computer(code, seat, level)
    projector = contexts(**PROJECTOR).new_page()
    projector.goto(f"{tutor.url}class/table?key={tutor.key}&code={code}")
    expect(projector.locator(".side").nth(0)).to_contain_text("el ordenador (medio)")  # Eva's partner, seat 2
    expect(projector.locator(".side").nth(1)).to_contain_text(re.compile(r"ordenador \(fácil\).*ordenador \(difícil\)"))
    for _turn in range(3):  # Eva plays; the computer's three seats answer, 0.8 s apart, each shown
        expect(projector.locator("#table-turn")).to_contain_text("Turno: Eva", timeout=20_000)
        view = eva.view(code)
        eva.play(view, view["legal"][-1])
        expect(projector.locator("#table-turn")).not_to_contain_text("Eva", timeout=5_000)
    expect(projector.locator("#table-turn")).to_contain_text("Turno: Eva", timeout=20_000)
    expect(projector.locator("#last-play")).to_contain_text("el ordenador (difícil)")
    assert projector.evaluate("() => document.documentElement.scrollHeight <= innerHeight "
                              "&& document.documentElement.scrollWidth <= innerWidth")
    hand = {NAMES[c] for c in eva.view(code)["hand"]}
    shown = projector.locator("#table-top").inner_text()
    assert not {name for name in hand if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", shown)}
    projector.screenshot(path=str(screenshot_dir / "board-tables-projector-four-es.png"))
