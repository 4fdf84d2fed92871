"""The drills of the leftover, the escoba de mano, strategy, the escobas line and the end of a game, in real
headless Chromium under a real Voilà server: answered by mouse and by keyboard alone, checked through the status
line as a student reads it, the exercise number taken from the page's ``?seed=``, no serious accessibility
problem, and screenshots at phone and projector sizes in both languages (tests/browser/screenshots/).
"""

from __future__ import annotations

import re

import pytest
from test_widgets_browser import (
    PHONE,
    PROJECTOR,
    WATCH,
    assert_fits,
    assert_no_errors,
    screenshots,
    serious_violations,
    tab_into,
    tab_until,
)

from escoba_tutor.exercises import (
    escoba_de_mano_drill,
    escobas_drill,
    game_end_drill,
    leftover_drill,
    strategy_drill,
)

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

KINDS = ("leftover", "escoba_de_mano", "strategy", "escobas", "game_end")


def drill_lesson(lang: str, kinds: tuple[str, ...] = KINDS) -> list[str]:
    """A page as a lesson makes it: the exercise number from ``?seed=`` (default 0), one drill of each kind."""
    drills = ", ".join(f'tagged(Drill(kind="{kind}", seed=seed, lang="{lang}"), "dr-{kind}")' for kind in kinds)
    return [WATCH, f"""
from escoba_tutor.widgets import Drill, Page

def tagged(widget, name):
    widget.add_class(name)
    return widget

p = Page("{lang}")
seed = p.seed(0)
W.VBox([W.HTML("<h1>{'Ejercicios' if lang == 'es' else 'Exercises'}</h1>"), {drills}, kernel_errors])
"""]


NOTEBOOKS = {"drills_es": drill_lesson("es"), "drills_en": drill_lesson("en")}


def drill(page, kind: str):
    return page.locator(f".dr-{kind}")


def status(page, kind: str):
    return drill(page, kind).get_by_role("status")


@pytest.fixture(scope="module")
def open_drills(open_page):
    """``open_drills(url)``: a page of its own (so a kernel of its own); Voilà runs every cell before the page
    loads, and five drills on a busy machine can take longer than the usual 15 s."""

    def opener(url: str):
        page = open_page(url)
        expect(drill(page, "game_end").get_by_role("status")).to_be_attached(timeout=60_000)
        return page

    return opener


@pytest.fixture(scope="module")
def es_page(open_drills, app_url):
    return open_drills(app_url("drills_es"))


@pytest.fixture(scope="module")
def en_page(open_drills, app_url):
    return open_drills(app_url("drills_en") + "?seed=0")


def type_in(field, text: str) -> None:
    """Type an answer in a drill's text box as a student does: the box sends it to the kernel on Enter."""
    field.fill(text)
    field.press("Enter")


def press_check(box) -> None:
    """Press a Spanish drill's «Comprobar» with the mouse."""
    box.get_by_role("button", name="Comprobar").click()


def choose_by_keyboard(page, select, label: str) -> None:
    """Tab to a native select and move through its options with the arrow keys until ``label`` is chosen."""
    tab_until(page, select, "Tab", limit=30)
    for _ in range(12):
        # ipywidgets writes the options' spaces as no-break spaces
        if select.evaluate("(s) => s.options[s.selectedIndex].text.replace(/\u00a0/g, ' ')") == label:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"the arrow keys never chose {label!r}")


# =========================================================================================== the leftover
def test_the_leftover_answered_by_mouse(es_page):
    page, box = es_page, drill(es_page, "leftover")
    position = leftover_drill(0)  # the king of clubs, laid last by Bando 1; Bando 2 captured last
    expect(box.get_by_role("group", name="En la mesa al final").locator("[data-code]")).to_have_count(
        len(position.table))
    expect(box).to_contain_text("El jugador 1 juega el rey de bastos: se queda en la mesa.")
    box.get_by_label("¿Quién se las lleva?").select_option(label="Bando 1")
    type_in(box.get_by_label("¿Cuánto suman?"), "12")
    box.get_by_label("¿Cuadra la mano?").select_option(label="Sí, cuadra")
    press_check(box)
    expect(status(page, "leftover")).to_contain_text("Aciertos: 1 de 3.")
    expect(status(page, "leftover")).to_contain_text("No: el jugador 1 jugó la última carta, pero la dejó "
                                                     "en la mesa.")
    expect(status(page, "leftover")).to_contain_text("has contado las figuras por el número que llevan")
    box.get_by_label("¿Quién se las lleva?").select_option(label="Bando 2")
    type_in(box.get_by_label("¿Cuánto suman?"), "10")
    press_check(box)
    expect(status(page, "leftover")).to_contain_text("Aciertos: 3 de 3.")
    assert_no_errors(page)


def test_the_leftover_answered_by_keyboard_alone(en_page):
    page, box = en_page, drill(en_page, "leftover")
    tab_into(page, box)
    choose_by_keyboard(page, box.get_by_label("Who takes them?"), "Side 2")
    tab_until(page, box.get_by_label("What do they add up to?"), "Tab")
    page.keyboard.type("10")
    choose_by_keyboard(page, box.get_by_label("Does the deal check out?"), "Yes, it checks out")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    expect(status(page, "leftover")).to_contain_text("3 of 3 right.")
    expect(status(page, "leftover")).to_contain_text("The 15 check: right, exactly 10 is left, so it checks out.")
    assert_no_errors(page)


# ======================================================================================= the escoba de mano
def test_the_escoba_de_mano_by_mouse_and_by_keyboard(es_page, en_page):
    position = escoba_de_mano_drill(0)  # 1 + 2 + 3 + 7 = 13: none
    assert position.escobas == 0
    box = drill(es_page, "escoba_de_mano")
    box.get_by_label("Escobas de mano").select_option(label="1")
    box.get_by_label("¿Quién se las apunta?").select_option(label=f"Bando {position.dealer + 1}")
    press_check(box)
    expect(status(es_page, "escoba_de_mano")).to_contain_text("Escobas: 1 + 2 + 3 + 7 = 13, así que no hay escoba "
                                                              "de mano (una mesa de 15 da una escoba y una de 30, "
                                                              "dos; cualquier otra suma, ninguna).")
    page, box = en_page, drill(en_page, "escoba_de_mano")
    tab_into(page, box)
    choose_by_keyboard(page, box.get_by_label("Escobas de mano"), "none")
    choose_by_keyboard(page, box.get_by_label("Who scores them?"), "Nobody")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    expect(status(page, "escoba_de_mano")).to_contain_text("2 of 2 right.")
    assert_no_errors(es_page)
    assert_no_errors(en_page)


# ================================================================================================ strategy
def test_strategy_by_mouse(es_page):
    page, box = es_page, drill(es_page, "strategy")
    position = strategy_drill(0)
    moves = box.get_by_role("grid", name="Tus jugadas posibles")
    expect(moves.locator("tbody tr")).to_have_count(len(position.ranking))
    moves.locator(f"tbody tr[data-id='{position.ranking[-1].move}']").click()
    press_check(box)
    expect(status(page, "strategy")).to_contain_text("No es la mejor: da alrededor de")
    moves.locator(f"tbody tr[data-id='{position.ranking[0].move}']").click()
    press_check(box)
    expect(status(page, "strategy")).to_contain_text("¡Muy bien! Es la jugada del experto.")
    box.get_by_role("button", name="Ver la solución").click()
    expect(box.get_by_role("grid", name=re.compile("La clasificación del experto"))).to_be_visible()
    assert_no_errors(page)


def test_the_expert_s_ranking_stacks_each_row_on_a_phone(es_page):
    """Its reasons are sentences: on a phone each cell takes the row's width under its column's name, instead of
    three columns squeezed to a word a line; wider, it stays a table."""
    page, box = es_page, drill(es_page, "strategy")
    show = box.get_by_role("button", name="Ver la solución")
    if show.count():  # the page is the module's: another test may have shown the answer already
        show.click()
    ranking = box.get_by_role("grid", name=re.compile("La clasificación del experto"))
    expect(ranking).to_be_visible()
    measure = """(table) => [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.cells].map((td) => ({
        share: td.getBoundingClientRect().width / table.getBoundingClientRect().width,
        before: getComputedStyle(td, "::before").content})))"""
    try:
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        page.wait_for_timeout(300)
        rows = ranking.evaluate(measure)
        assert rows and all(len(cells) == 3 for cells in rows)
        for play, points, why in rows:
            assert min(play["share"], points["share"], why["share"]) > 0.8, rows
            assert points["before"] == '"Puntos: "' and why["before"] == '"Por qué: "', rows
        page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
        page.wait_for_timeout(300)
        assert all(cells[2]["share"] < 0.8 and cells[2]["before"] == "none" for cells in ranking.evaluate(measure))
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
    assert_no_errors(page)


def test_strategy_by_keyboard_alone(en_page):
    page, box = en_page, drill(en_page, "strategy")
    position = strategy_drill(0)
    moves = box.get_by_role("grid", name="Your possible plays")
    tab_into(page, moves)
    best = str(position.ranking[0].move)
    for _ in range(len(position.ranking) + 1):
        if page.locator("*:focus").get_attribute("data-id") == best:
            break
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(moves.locator(f"tbody tr[data-id='{best}']")).to_have_attribute("aria-selected", "true")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    expect(status(page, "strategy")).to_contain_text("Right: that is the expert's play.")
    assert_no_errors(page)


# ================================================================================= escobas and the game's end
def test_the_escobas_line_and_the_end_of_the_game_by_mouse(es_page):
    page, box = es_page, drill(es_page, "escobas")
    type_in(box.get_by_label("Escobas del bando 1"), "7")
    press_check(box)
    expect(status(page, "escobas")).to_contain_text("Bando 1: 7, no. Cuenta las bazas que dejaron la mesa vacía.")
    expect(status(page, "escobas")).to_contain_text("Bando 2: escribe cuántas escobas.")
    end, position = drill(page, "game_end"), game_end_drill(0)
    assert position.winner == 0  # 18 + 5 and 18 + 1: only Bando 1 reaches 21
    end.get_by_label("¿Quién ha ganado?").select_option(label="Nadie todavía: otra mano")
    press_check(end)
    expect(status(page, "game_end")).to_have_text(re.compile(r"^No: un bando ha ganado\."))
    end.get_by_label("¿Quién ha ganado?").select_option(label="Gana el bando 1")
    press_check(end)
    expect(status(page, "game_end")).to_have_text(re.compile(r"^Bien\."))
    assert_no_errors(page)


def test_the_escobas_line_by_keyboard_alone(en_page):
    page, box = en_page, drill(en_page, "escobas")
    position = escobas_drill(0)
    captures = box.get_by_role("grid", name="The captures of the deal")
    expect(captures.locator("tbody tr")).to_have_count(len(position.captures))
    tab_into(page, box)
    tab_until(page, box.get_by_label("Side 1's escobas"), "Tab", limit=30)
    page.keyboard.type(str(position.escobas[0]))
    page.keyboard.press("Tab")
    page.keyboard.type(str(position.escobas[1]))
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    expect(status(page, "escobas")).to_contain_text("2 of 2 right.")
    assert_no_errors(page)


def test_the_end_of_the_game_by_keyboard_alone(en_page):
    page, box = en_page, drill(en_page, "game_end")
    tab_into(page, box)
    choose_by_keyboard(page, box.get_by_label("Who has won?"), "Side 1 wins")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    expect(status(page, "game_end")).to_have_text(re.compile(r"^Right\."))
    assert_no_errors(page)


# ==================================================================================== the page's ?seed=
def test_the_exercise_number_comes_from_the_address(open_drills, app_url):
    page = open_drills(app_url("drills_en") + "?seed=7")
    for kind in KINDS:
        expect(drill(page, kind).locator(".escoba-title")).to_contain_text("no. 7")
        expect(drill(page, kind).get_by_label("Exercise", exact=True)).to_have_value("7")
    table = drill(page, "escoba_de_mano").get_by_role("group", name="The table dealt")
    assert table.locator("[data-code]").evaluate_all("(cards) => cards.map((c) => c.dataset.code)") == [
        c.code for c in escoba_de_mano_drill(7).table]
    assert_no_errors(page)


# ================================================================================== a11y and screenshots
@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_serious_accessibility_violations(es_page, en_page, lang):
    page = es_page if lang == "es" else en_page
    for kind in KINDS:  # with each worked answer shown too
        button = drill(page, kind).get_by_role("button", name=re.compile("^(Ver la solución|Show the answer)$"))
        if button.count():
            button.click()
    page.wait_for_timeout(500)
    bad = serious_violations(page)
    assert not bad, bad


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("size", [PHONE, PROJECTOR], ids=["phone", "projector"])
def test_screenshots_of_each_drill(es_page, en_page, screenshot_dir, lang, size):
    page = es_page if lang == "es" else en_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    for kind in KINDS:
        assert_fits(page, f".dr-{kind}")
    screenshots(page, screenshot_dir, f"drills-{lang}", size)
    # Each drill whole: Voilà scrolls an inner element, so the viewport is made as tall as the content first.
    tall = page.evaluate("() => Math.max(...[...document.querySelectorAll('*')].map((el) => el.scrollHeight))")
    page.set_viewport_size({"width": size[0], "height": tall})
    page.wait_for_timeout(300)
    for kind in KINDS:
        drill(page, kind).screenshot(path=screenshot_dir / f"drill-{kind}-{lang}-{size[0]}x{size[1]}.png")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    assert_no_errors(page)
