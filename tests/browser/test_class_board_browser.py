"""The class board in real headless Chromium against the real ``escoba-tutor`` server and its real lessons: three
students give nicknames on the landing page (each in a browser context of its own, so a browser of its own),
answer the landing page's capture drill right and wrong, and one plays a move against the computer; a fourth
student without a nickname answers too. The teacher's page, opened with the link the server printed before anyone
came, shows exactly their numbers and mistakes as they happen, without being reloaded; a mistake opens to the
exercises where it happened, as links with ``?seed=`` to the page where each was answered. No serious accessibility
problem, and screenshots at projector size (1920×1080) in both languages (tests/browser/screenshots/class-board-*.png).
Then a student plays a whole deal against the computer in a game of one point, which the board shows under its
level; and a mistake in the Scopa lesson's drill links to that very exercise, under Scopa.

The capture drill of the landing page is exercise 1: the two of swords plays to 7e 7b 12c 5c 6e 10b, and takes
10b+5c, 6e+7e or 6e+7b. Exercise 2 (the drill's next one) has captures too, so checking it empty is a
missed capture.
"""

from __future__ import annotations

import csv
import io
import re
import time
from urllib.parse import quote

import pytest
from helpers import PROJECTOR, board_refreshed, wait_rendered
from test_widgets_browser import serious_violations

from escoba_tutor.exercises import make_drill
from escoba_tutor.records import ClassStore

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

SEED_1_CAPTURES = [["10b", "5c"], ["6e", "7e"], ["6e", "7b"]]


@pytest.fixture(scope="module")
def tutor(board_tutor):
    return board_tutor


@pytest.fixture(scope="module")
def teacher(tutor, contexts):
    page = contexts(**PROJECTOR).new_page()
    page.goto(tutor.teacher_link)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Panel de la clase")
    page.evaluate("() => { window.openedOnce = true; }")  # gone if the page were ever reloaded
    return page


def student(tutor, contexts, nickname: str | None, lang: str):
    """A student's browser on the landing page, with ``nickname`` saved (None: none given)."""
    page = contexts().new_page()
    page.goto(f"{tutor.url}?lang={lang}")
    wait_rendered(page)
    form = page.locator(".escoba-nickname")
    expect(form).to_be_visible()
    if nickname is not None:
        form.get_by_label("Apodo (opcional)" if lang == "es" else "Nickname (optional)").fill(nickname)
        form.get_by_role("button", name="Guardar el apodo" if lang == "es" else "Save the nickname").click()
        wait_rendered(page)
        expect(page.locator(".escoba-nickname-now")).to_have_text(nickname)
    expect(page.locator(".escoba-drill").get_by_role("status")).to_be_attached(timeout=60_000)
    return page


def build_captures(page, lang: str, captures) -> None:
    box = page.locator(".escoba-drill")
    table = box.get_by_role("group", name="Mesa" if lang == "es" else "Table")
    for codes in captures:
        for code in codes:
            card = table.locator(f'[data-code="{code}"]')
            card.click()
            expect(card).to_have_attribute("aria-pressed", "true")
        box.get_by_role("button", name="Añadir esta baza" if lang == "es" else "Add this capture").click()
        expect(table.locator('[aria-pressed="true"]')).to_have_count(0)


def check(page, lang: str, said: str, box=None) -> None:
    box = page.locator(".escoba-drill") if box is None else box
    box.get_by_role("button", name="Comprobar" if lang == "es" else "Check").click()
    expect(box.get_by_role("status")).to_contain_text(said)


def row(teacher, nickname: str):
    return teacher.locator("#students tbody tr", has=teacher.locator("a.nick", has_text=re.compile(f"^{nickname}$")))


def test_three_students_and_the_teacher_s_live_board(tutor, contexts, teacher, screenshot_dir):
    assert make_drill("captures", 1).answer and make_drill("captures", 2).answer  # the positions this test uses
    expect(teacher.locator("#board-live")).to_contain_text("Todavía nadie con apodo ha hecho nada")

    ana = student(tutor, contexts, "Ana", "es")
    build_captures(ana, "es", SEED_1_CAPTURES)
    check(ana, "es", "¡Bien!")
    # the board shows Ana, right, by itself
    expect(row(teacher, "Ana").locator("td").nth(1)).to_have_text("100\xa0% 1", timeout=20_000)
    ana.locator(".escoba-drill").get_by_role("button", name=re.compile("(Otro ejercicio|Ejercicio nuevo)")).click()
    expect(ana.locator(".escoba-drill h3")).to_contain_text("n.º 2")
    check(ana, "es", "Falta:")

    ben = student(tutor, contexts, "Ben", "en")
    check(ben, "en", "0 right, 3 missing, 0 wrong.")  # nothing listed: every capture missed
    build_captures(ben, "en", [["7e", "7b"]])  # 2 + 7 + 7 = 16
    check(ben, "en", "0 right, 3 missing, 1 wrong.")

    cai = student(tutor, contexts, "Cai", "es")
    build_captures(cai, "es", SEED_1_CAPTURES)
    check(cai, "es", "¡Bien!")
    cai.goto(f"{tutor.url}voila/render/es/play.ipynb")
    game = cai.locator(".escoba-game-table")
    expect(game.locator(".et-live", has_text=re.compile("Te toca"))).to_be_visible(timeout=120_000)
    game.locator(".et-table tbody tr[data-id]").first.click()
    game.get_by_role("button", name=re.compile(r"^\W*Jugar\s*$")).click()
    expect(game.locator(".et-live", has_text=re.compile("Juegas|Dejas")).first).to_be_visible(timeout=20_000)

    nobody = student(tutor, contexts, None, "es")
    check(nobody, "es", "Falta:")
    nobody.locator(".escoba-nickname").screenshot(path=screenshot_dir / "class-board-nickname-form-es.png")
    ana.locator(".escoba-nickname").screenshot(path=screenshot_dir / "class-board-nickname-saved-es.png")
    bad = serious_violations(nobody)  # the landing page with its nickname form
    assert not bad, bad

    # the teacher's page, never reloaded, shows exactly this
    expect(teacher.locator("#students tbody tr")).to_have_count(3, timeout=30_000)
    assert teacher.evaluate("() => window.openedOnce === true")
    expect(teacher.locator("#students thead th")).to_have_text(
        ["Apodo", re.compile("^Todos los ejercicios"), re.compile("^Bazas"), "Lecciones abiertas",
         "Partidas contra el ordenador", "Última actividad"])
    expect(teacher.locator("#students tbody th a.nick")).to_have_text(["Ana", "Ben", "Cai"])
    expect(row(teacher, "Ana").locator("td").nth(1)).to_have_text("50\xa0% 2")  # share right, answers checked
    expect(row(teacher, "Ben").locator("td").nth(1)).to_have_text("0\xa0% 2")
    expect(row(teacher, "Cai").locator("td").nth(1)).to_have_text("100\xa0% 1")
    expect(row(teacher, "Ana").locator("td").nth(2)).to_have_text("inicio")
    expect(row(teacher, "Cai").locator("td").nth(2)).to_have_text("inicio, partida", timeout=20_000)
    expect(row(teacher, "Cai").locator("td").nth(3)).to_have_text("")  # one move: no deal finished
    mistakes = teacher.locator("ol.mistakes > li")
    expect(mistakes).to_have_count(2)
    expect(mistakes.nth(0)).to_contain_text("Bazas: Dejarse una baza que la carta podía hacer · 2 estudiantes, 2 veces")
    expect(mistakes.nth(1)).to_contain_text(
        "Bazas: Llevarse cartas que no suman 15 con la carta jugada · 1 estudiante, 1 vez")
    expect(teacher.locator("#games")).to_have_count(0)

    # a mistake opens, by keyboard, to the exercises where it happened; it stays open through the refreshes
    summary = mistakes.nth(0).locator("summary")
    summary.focus()
    teacher.keyboard.press("Enter")
    links = mistakes.nth(0).get_by_role("link")
    expect(links).to_have_text(["Ejercicio 1 (inicio)", "Ejercicio 2 (inicio)"])  # most recent first: Ben's, Ana's
    assert links.nth(0).get_attribute("href") == "/voila/render/es/index.ipynb?seed=1"  # where it was answered
    board_refreshed(teacher, 2)
    expect(links).to_have_count(2)
    expect(summary).to_be_focused()
    expect(teacher.locator("#board-status")).to_contain_text("Última actualización:")

    # what the store holds: nothing for the student without a nickname
    store = ClassStore.open(tutor.database)
    board = store.board()
    store.close()
    assert [s.nickname for s in board.students] == ["Ana", "Ben", "Cai"]
    assert sum(answered for s in board.students for answered, _right in s.drills.values()) == 5

    bad = serious_violations(teacher)
    assert not bad, bad
    teacher.screenshot(path=screenshot_dir / "class-board-es-1920x1080.png")
    english = contexts(**PROJECTOR).new_page()
    english.goto(tutor.teacher_link + "&lang=en")
    expect(english.locator("ol.mistakes > li").nth(0)).to_contain_text(
        "Captures: Leaving out a capture the card could make · 2 students, 2 times")
    english.locator("ol.mistakes > li").nth(0).locator("summary").click()
    bad = serious_violations(english)
    assert not bad, bad
    english.screenshot(path=screenshot_dir / "class-board-en-1920x1080.png")


def test_the_board_is_usable_by_keyboard_with_focus_visible(teacher):
    teacher.get_by_role("heading", level=1).click()  # start from the top of the page
    seen = []
    for _ in range(24):  # the board's options, its views, the students' table and its nicknames, the mistakes...
        teacher.keyboard.press("Tab")
        focused = teacher.evaluate("""() => { const e = document.activeElement;
            const s = getComputedStyle(e); return [e.tagName, e.textContent.trim().slice(0, 30), s.outlineStyle,
            s.outlineWidth]; }""")
        if focused[0] == "BODY":  # past the last control: the browser's own bar, then the page again
            continue
        seen.append(focused)
        assert focused[2] != "none" and focused[3] != "0px", focused
    names = [text for _tag, text, *_ in seen]
    assert any("CSV" in n for n in names) and "Empezar una clase nueva" in names
    assert "Ocultar los apodos (proyector)" in names and "Ana" in names  # the views, a student's page
    assert "students-region" in teacher.evaluate("() => [...document.querySelectorAll('[tabindex]')].map(e => e.id)")


def test_without_the_key_the_page_says_so(tutor, contexts):
    page = contexts().new_page()
    page.goto(tutor.teacher_link.split("?")[0] + "?key=guess")
    expect(page.get_by_role("heading", level=1)).to_have_text("Esta página necesita el enlace del profesorado")
    expect(page.locator("body")).not_to_contain_text("Ana")


def test_the_board_pauses_while_its_tab_is_hidden(teacher):
    fetched = []
    teacher.on("request", lambda request: fetched.append(request.url) if "board.json" in request.url else None)
    teacher.evaluate("""() => { Object.defineProperty(document, "hidden", {value: true, configurable: true});
        document.dispatchEvent(new Event("visibilitychange")); }""")
    expect(teacher.locator("#board-status")).to_have_text("En pausa mientras esta pestaña está oculta.")
    teacher.wait_for_timeout(500)
    fetched.clear()
    teacher.wait_for_timeout(6000)
    assert fetched == []
    teacher.evaluate("""() => { Object.defineProperty(document, "hidden", {value: false, configurable: true});
        document.dispatchEvent(new Event("visibilitychange")); }""")
    expect(teacher.locator("#board-status")).to_contain_text("Última actualización:")
    assert fetched


def test_a_bad_nickname_is_refused_in_the_student_s_language(tutor, contexts, screenshot_dir):
    page = student(tutor, contexts, None, "en")
    form = page.locator(".escoba-nickname")
    form.get_by_label("Nickname (optional)").fill("<script>")
    form.get_by_role("button", name="Save the nickname").click()
    expect(page.get_by_role("alert")).to_have_text(
        "A nickname may contain only letters, digits, spaces and the characters - _ . (no other symbols or "
        "emoji).")
    expect(page.get_by_label("Nickname (optional)")).to_have_value("<script>")
    assert not [c for c in page.context.cookies() if c["name"] == "escoba_nickname"]
    page.screenshot(path=screenshot_dir / "class-board-nickname-refused-en.png")
    page.get_by_role("link", name="Back to the course").click()
    expect(page.locator(".escoba-nickname")).to_be_visible(timeout=120_000)


# ---------------------------------------------------------------------------- a game, and a Scopa mistake
GAME_SEED = 3
ONE_POINT_GAME = "escoba+target=1"  # a game of one deal: whoever has more points after it has won


def test_a_deal_and_a_game_played_to_the_end_show_under_their_level(tutor, contexts, teacher):
    """A student plays a whole deal against the computer by clicking, on the game page with a target of one point
    (``?rules=``), so the deal ends the game; the teacher's board shows the game under the level played (easy, the
    page's own), and the records hold the deal and the game as the page showed them."""
    from test_widgets_browser import Table

    began = time.monotonic()
    page = contexts().new_page()
    page.goto(f"{tutor.url}?lang=es")
    wait_rendered(page)  # (a form filled while Voilà still draws the page can be drawn again, empty)
    form = page.locator(".escoba-nickname")
    form.get_by_label("Apodo (opcional)").fill("Dani")
    form.get_by_role("button", name="Guardar el apodo").click()
    expect(page.locator(".escoba-nickname-now")).to_have_text("Dani", timeout=60_000)  # no need to wait for more
    named = time.monotonic()
    page.goto(f"{tutor.url}voila/render/es/play.ipynb?seed={GAME_SEED}&rules={quote(ONE_POINT_GAME)}")
    t = Table(page)
    expect(t.root.locator(".et-live", has_text="Te toca.")).to_be_visible(timeout=120_000)
    dealt = time.monotonic()
    moves = 0
    my_turn = t.root.locator(".et-live", has_text="Te toca.")
    while True:
        # the last play's line can still say «Te toca.» when the sheet comes up: either will do, then which it is
        expect(my_turn.or_(t.sheet_heading).first).to_be_visible(timeout=30_000)
        if t.sheet_heading.is_visible():
            break
        t.play_one(by_cards=False)
        moves += 1
        assert moves <= 18, "a deal gives each of 2 players 18 cards"
    assert moves == 18
    expect(t.root).to_contain_text("Pulsa «Partida nueva» para jugar otra.")  # the game is over
    deal_points = [int(t.scores.locator("tbody tr").nth(i).locator("td").first.inner_text()) for i in range(2)]
    assert deal_points[0] != deal_points[1]
    won = deal_points[0] > deal_points[1]

    expect(row(teacher, "Dani")).to_be_visible(timeout=20_000)
    games = row(teacher, "Dani").locator("td").nth(-2)
    said = f"{int(won)} ganada" if won else "0 ganadas"  # («1 ganada», never «1 ganadas»)
    expect(games).to_have_text(f"1 ({said})", timeout=20_000)
    expect(games).to_have_attribute("title", f"fácil: 1 ({said})")
    expect(row(teacher, "Dani").locator("td").nth(2)).to_have_text("inicio, partida")
    level_row = teacher.locator("#games tbody tr", has=teacher.locator("th", has_text=re.compile("^fácil$")))
    expect(level_row.locator("td")).to_have_text(["1", str(int(won)), str(int(not won))])
    store = ClassStore.open(tutor.database)
    out = io.StringIO()
    store.export_csv(out)
    store.close()
    rows = [r for r in csv.DictReader(io.StringIO(out.getvalue().removeprefix("\ufeff"))) if r["nickname"] == "Dani"]
    deals = [r for r in rows if r["event"] == "deal"]
    games_recorded = [r for r in rows if r["event"] == "game"]
    assert [(r["level"], r["seed"], int(r["points_player"]), int(r["points_computer"])) for r in deals] == [
        ("random", str(GAME_SEED), *deal_points)]
    assert [(r["level"], r["outcome"]) for r in games_recorded] == [("random", "won" if won else "lost")]
    print(f"\na deal and a game through the browser: {time.monotonic() - began:.0f} s (nickname {named - began:.0f} s, "
          f"game page {dealt - named:.0f} s, 18 plays and the board {time.monotonic() - dealt:.0f} s)")


def test_a_scopa_mistake_s_link_opens_that_exercise_under_scopa(tutor, contexts, teacher):
    """A student checks the Scopa lesson's captures drill with a capture missing; the teacher's board links the
    mistake to that lesson, under Scopa, at that exercise; the link opens the very same position."""
    seed = 4
    assert make_drill("captures", seed, "scopa").answer  # checked with nothing built: a capture missed
    page = student(tutor, contexts, "Eva", "es")
    page.goto(f"{tutor.url}voila/render/es/07-variants.ipynb?seed={seed}")
    wait_rendered(page)
    # the lesson's drill of captures (the lesson has a drill of house rules too, with no table)
    drill = page.locator(".escoba-drill").filter(has=page.get_by_role("group", name="Mesa"))
    expect(drill.get_by_role("status")).to_be_attached(timeout=60_000)
    expect(drill.locator("h3")).to_contain_text(f"n.º {seed}")
    position = drill.get_by_role("group", name="Mesa").locator("[data-code]").evaluate_all(
        "cards => cards.map((card) => card.dataset.code)")
    check(page, "es", "Falta:", drill)

    mistake = teacher.locator("ol.mistakes > li", has=teacher.locator(f"a[href*='07-variants.ipynb?seed={seed}']"))
    expect(mistake).to_have_count(1, timeout=20_000)
    if mistake.locator("details[open]").count() == 0:
        mistake.locator("summary").click()
    link = mistake.get_by_role("link", name=f"Ejercicio {seed} (lección 7, reglas «scopa»)")
    assert link.get_attribute("href") == f"/voila/render/es/07-variants.ipynb?seed={seed}&rules=scopa"
    with teacher.context.expect_page() as opened:
        link.click()
    shown = opened.value
    wait_rendered(shown)
    again = shown.locator(".escoba-drill").filter(has=shown.get_by_role("group", name="Mesa"))
    expect(again.locator("h3")).to_contain_text(f"n.º {seed}", timeout=60_000)
    expect(again.get_by_role("group", name="Mesa").locator("[data-code]")).to_have_count(len(position))
    assert again.get_by_role("group", name="Mesa").locator("[data-code]").evaluate_all(
        "cards => cards.map((card) => card.dataset.code)") == position
    assert position == [card.code for card in make_drill("captures", seed, "scopa").table]
    shown.goto("about:blank")
    shown.close()
