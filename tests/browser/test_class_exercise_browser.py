"""The class exercise in real headless Chromium against the real ``escoba-tutor`` server and its real kernels: three
students with nicknames open the class exercise page (each in a browser context of its own); the teacher starts
the captures exercise 1 from the class board; every student's page shows it (the time each took is printed), one
of them only after a reload; they answer with the drill's own controls, right and wrong; the projected view, never
reloaded, counts the answers as they arrive, without names; the teacher reveals the answer, which every
student's page then shows with the drill's explanation, and starts the next exercise. Then, on the same server and
the same students' pages, in English and by keyboard alone: the teacher starts the next exercise, stops its
countdown and reveals its answer with the keyboard; a student answers with the keyboard, their controls are then
disabled, and a reload shows the answer they gave.

The captures exercise 1: the two of swords plays to 7e 7b 12c 5c 6e 10b, and takes 10b+5c, 6e+7e or 6e+7b.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from helpers import PROJECTOR, start_class_exercise, wait_rendered
from test_class_board_browser import SEED_1_CAPTURES, build_captures
from test_drills_browser import choose_by_keyboard
from test_widgets_browser import serious_violations, tab_into, tab_until

from escoba_tutor.records import ClassStore

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

#: Ana's answer (every capture of exercise 1) as the projected view lists it
ANA_GIVES = "cinco de copas y sota de bastos · seis de espadas y siete de espadas · seis de espadas y siete de bastos"



def student(tutor, contexts, nickname: str, lang: str):
    """A student's browser: the nickname saved on the landing page, then the class exercise page it links to."""
    page = contexts().new_page()
    page.goto(f"{tutor.url}?lang={lang}")
    wait_rendered(page)
    form = page.locator(".escoba-nickname")
    form.get_by_label("Apodo (opcional)" if lang == "es" else "Nickname (optional)").fill(nickname)
    form.get_by_role("button", name="Guardar el apodo" if lang == "es" else "Save the nickname").click()
    wait_rendered(page)
    page.locator(".escoba-class-exercise-link").click()
    wait_rendered(page)
    return page


@pytest.fixture(scope="module")
def students(board_tutor, contexts):
    """Three students' class exercise pages, shared by the module's tests (in file order): Ana and Cai in Spanish,
    Ben in English."""
    return {"Ana": student(board_tutor, contexts, "Ana", "es"), "Ben": student(board_tutor, contexts, "Ben", "en"),
            "Cai": student(board_tutor, contexts, "Cai", "es")}


def status(page):
    return page.locator(".escoba-class-exercise").get_by_role("status").first


def check_button(page, lang: str):
    return page.locator(".escoba-drill").get_by_role("button", name="Comprobar" if lang == "es" else "Check")


def test_the_teacher_leads_one_exercise_and_three_students_answer_it(board_tutor, contexts, students,
                                                                     screenshot_dir):
    tutor = board_tutor
    ana, ben, cai = students["Ana"], students["Ben"], students["Cai"]
    expect(status(ana)).to_contain_text("Ahora no hay ningún ejercicio en marcha", timeout=60_000)
    expect(status(ben)).to_contain_text("No exercise is running now", timeout=60_000)
    expect(status(cai)).to_contain_text("Ahora no hay ningún ejercicio en marcha", timeout=60_000)

    teacher = contexts(**PROJECTOR).new_page()
    teacher.goto(tutor.teacher_link)
    began = start_class_exercise(teacher)
    expect(teacher.get_by_role("heading", level=1)).to_have_text("Ejercicio de clase")
    teacher.evaluate("() => { window.openedOnce = true; }")  # gone if the projected view were reloaded

    shown = {}
    for name, page in (("Ana", ana), ("Ben", ben)):
        expect(page.locator(".escoba-drill h3")).to_contain_text(re.compile("n.º 1|no. 1"), timeout=30_000)
        shown[name] = time.monotonic() - began
    print(f"\nstart -> shown on the students' pages: {shown} (s, from the teacher's click)")
    # the drill's own controls, without the number box, "New exercise" or "Show the answer"
    expect(ana.locator(".escoba-drill").get_by_role("button", name="Ejercicio nuevo")).to_be_hidden()
    expect(ana.locator(".escoba-drill").get_by_role("button", name="Ver la solución")).to_be_hidden()
    expect(status(ana)).to_contain_text("Responde y pulsa «Comprobar»")

    # Cai reloads: the page shows the exercise that is running
    cai.reload()
    wait_rendered(cai)
    expect(cai.locator(".escoba-drill h3")).to_contain_text("n.º 1", timeout=60_000)

    build_captures(ana, "es", SEED_1_CAPTURES)
    check_button(ana, "es").click()
    expect(status(ana)).to_contain_text("Tu respuesta se ha registrado y ya no se puede cambiar")
    expect(check_button(ana, "es")).to_be_disabled()
    table = ana.locator(".escoba-drill").get_by_role("group", name="Mesa")
    expect(table).to_have_class(re.compile("is-disabled"))  # no card can be chosen any more
    expect(ana.locator(".escoba-drill").get_by_text("¡Bien!")).to_be_hidden()  # not before the reveal

    projected = teacher.locator("#exercise-answered")
    expect(projected).to_have_text("1 respuesta", timeout=20_000)
    check_button(ben, "en").click()  # nothing built: every capture missed
    expect(status(ben)).to_contain_text("Your answer is in")
    build_captures(cai, "es", [["7e", "7b"]])  # 2 + 7 + 7 = 16
    check_button(cai, "es").click()
    expect(status(cai)).to_contain_text("Tu respuesta se ha registrado")

    expect(projected).to_have_text("3 respuestas", timeout=20_000)
    spread = teacher.locator("ul.spread li")
    expect(spread.nth(0)).to_contain_text("Bien 1")
    expect(teacher.locator("ul.spread")).to_contain_text("Dejarse una baza que la carta podía hacer")
    # the answers given, each in the kind's words, without a name; none marked right before the reveal
    given = teacher.locator("#exercise-given li")
    expect(given).to_have_count(3)
    expect(teacher.locator("#exercise-given")).to_contain_text(ANA_GIVES)
    expect(teacher.locator("#exercise-given")).to_contain_text("ninguna baza")
    expect(teacher.locator("#exercise-given")).to_contain_text("siete de espadas y siete de bastos")
    expect(teacher.locator("#exercise-given .mark")).to_have_count(0)
    assert teacher.evaluate("() => window.openedOnce === true")
    words = teacher.locator("body").inner_text()
    assert not re.search(r"\b(Ana|Ben|Cai)\b", words), "the projected view names no student"
    assert "Cai" not in ana.locator("body").inner_text() and "Ben" not in ana.locator("body").inner_text()
    bad = serious_violations(teacher)
    assert not bad, bad
    teacher.screenshot(path=screenshot_dir / "class-exercise-es-1920x1080.png")

    teacher.get_by_role("button", name="Ver la solución").click()
    expect(teacher.locator("#exercise-answer")).to_be_visible()
    for page, lang in ((ana, "es"), (ben, "en"), (cai, "es")):
        expect(status(page)).to_contain_text("ha mostrado la solución" if lang == "es" else "has shown the answer",
                                             timeout=20_000)
        expect(page.locator(".escoba-drill .escoba-answer, .escoba-drill").first).to_be_visible()
    expect(ana.locator(".escoba-drill")).to_contain_text("¡Bien!")
    expect(ben.locator(".escoba-drill")).to_contain_text("3 missing")
    expect(teacher.locator("#exercise-answer")).to_contain_text("2 + sota (8) + 5 = 15")  # the worked answer
    right = teacher.locator("#exercise-given li.right")
    expect(right).to_have_count(1)
    expect(right).to_contain_text(f"✓ Bien: {ANA_GIVES}")
    teacher.screenshot(path=screenshot_dir / "class-exercise-es-1920x1080-revealed.png")
    bad = serious_violations(ana)
    assert not bad, bad
    ana.screenshot(path=screenshot_dir / "class-exercise-student-es.png", full_page=True)

    teacher.get_by_role("button", name="Poner el siguiente ejercicio").click()
    for page in (ana, ben, cai):
        expect(page.locator(".escoba-drill h3")).to_contain_text(re.compile("n.º 2|no. 2"), timeout=30_000)
    expect(check_button(ana, "es")).to_be_enabled()

    with ClassStore.open(tutor.database) as store:
        drills = {s.nickname: s.drills.get("captures") for s in store.board().students}
    assert drills == {"Ana": (1, 1), "Ben": (1, 0), "Cai": (1, 0)}


def test_in_english_by_keyboard_alone_and_a_reload_shows_the_answer_given(board_tutor, contexts, students,
                                                                          screenshot_dir):
    """The game's end, exercise 0 (Side 1 wins): the teacher's projected view in English, driven by the keyboard
    alone; Ben answers by keyboard, Ana (in Spanish) by mouse and wrongly."""
    ana, ben = students["Ana"], students["Ben"]
    teacher = contexts(**PROJECTOR).new_page()
    teacher.goto(board_tutor.teacher_link.replace("class/board", "class/exercise") + "&lang=en")
    expect(teacher.get_by_role("heading", level=1)).to_have_text("Class exercise")
    choose_by_keyboard(teacher, teacher.get_by_label("Kind of exercise"), "End of the game")
    for label, typed in (("Exercise", "0"), ("Seconds to answer", "300")):
        tab_until(teacher, teacher.get_by_label(label, exact=True), "Tab")
        teacher.keyboard.press("Control+A")
        teacher.keyboard.type(typed)
    tab_until(teacher, teacher.get_by_role("button", name="Start the next exercise"), "Tab")
    assert teacher.evaluate("() => document.activeElement.matches(':focus-visible')")
    teacher.keyboard.press("Enter")
    expect(teacher.locator("#countdown")).to_be_visible()
    for page in (ana, ben):
        expect(page.locator(".escoba-drill h3")).to_contain_text(re.compile("n.º 0|no. 0"), timeout=30_000)

    box = ben.locator(".escoba-drill")
    tab_into(ben, box)
    choose_by_keyboard(ben, box.get_by_label("Who has won?"), "Side 1 wins")
    tab_until(ben, box.get_by_role("button", name="Check"), "Tab")
    ben.keyboard.press("Enter")
    expect(status(ben)).to_contain_text("Your answer is in and can no longer be changed")
    expect(box.get_by_label("Who has won?")).to_be_disabled()
    expect(check_button(ben, "en")).to_be_disabled()
    ana.locator(".escoba-drill").get_by_label("¿Quién ha ganado?").select_option(label="Nadie todavía: otra mano")
    check_button(ana, "es").click()
    expect(status(ana)).to_contain_text("ya no se puede cambiar")

    expect(teacher.locator("#exercise-answered")).to_have_text("2 answers", timeout=20_000)
    expect(teacher.locator("ul.spread li").nth(0)).to_contain_text("Right 1")
    expect(teacher.locator("ul.spread")).to_contain_text("Asking for another deal when a side has already won")
    teacher.screenshot(path=screenshot_dir / "class-exercise-en-1920x1080.png")

    # Ben reloads: the exercise, and the answer he gave, still disabled
    ben.reload()
    wait_rendered(ben)
    box = ben.locator(".escoba-drill")
    expect(box.locator("h3")).to_contain_text("no. 0", timeout=60_000)
    expect(box.get_by_label("Who has won?").locator("option:checked")).to_have_text("Side 1 wins")
    expect(box.get_by_label("Who has won?")).to_be_disabled()
    expect(status(ben)).to_contain_text("can no longer be changed")

    # the teacher stops the countdown, then shows the answer, by keyboard
    tab_until(teacher, teacher.get_by_role("button", name="Stop the countdown"), "Tab")
    teacher.keyboard.press("Enter")
    expect(teacher.locator("#exercise-state")).to_contain_text("Time is up")
    tab_until(teacher, teacher.get_by_role("button", name="Show the answer"), "Tab")
    teacher.keyboard.press("Enter")
    expect(teacher.locator("#exercise-answer")).to_be_visible()
    expect(status(ben)).to_contain_text("has shown the answer", timeout=20_000)
    expect(box).to_contain_text("Right")  # the answer given before the reload, judged
    expect(status(ana)).to_contain_text("ha mostrado la solución", timeout=20_000)
    bad = serious_violations(teacher)
    assert not bad, bad
    teacher.screenshot(path=screenshot_dir / "class-exercise-en-1920x1080-revealed.png")


def test_the_spread_of_thirty_answers_stays_readable_on_the_projector(board_tutor, contexts, screenshot_dir):
    """Thirty students' answers to the captures exercise 1, eleven of them different: the projected view lists the
    six most given, the most given first, then how many gave the others, all inside 1920×1080; once revealed the
    right one is marked. (The answers are stored as the server stores them; stopping the countdown reads them.)"""
    from escoba_tutor.records import DrillAnswer

    teacher = contexts(**PROJECTOR).new_page()
    teacher.goto(board_tutor.teacher_link.replace("class/board", "class/exercise"))
    choose = teacher.get_by_label("Tipo de ejercicio")
    choose.select_option("captures")
    teacher.get_by_label("Ejercicio", exact=True).fill("1")
    teacher.get_by_role("button", name=re.compile("Poner el (siguiente )?ejercicio")).click()
    expect(teacher.locator("#countdown")).to_be_visible()
    answers = ([(True, SEED_1_CAPTURES)] * 9 + [(False, SEED_1_CAPTURES[:2])] * 6 + [(False, SEED_1_CAPTURES[1:])] * 4
               + [(False, [])] * 3 + [(False, [["7e", "7b"]])] * 2
               + [(False, [cards]) for cards in (["5c", "7b"], ["12c"], ["6e", "5c"], ["10b"], ["7e", "6e", "12c"],
                                                 ["5c", "6e", "7b"])])
    assert len(answers) == 30
    with ClassStore.open(board_tutor.database) as store:
        exercise = store.running_exercise()
        assert exercise is not None and (exercise.kind, exercise.seed) == ("captures", 1)
        for number, (correct, built) in enumerate(answers):
            given = json.dumps({"answers": [], "built": built, "choices": {}}, separators=(",", ":"))
            store.answer_exercise(exercise.id, DrillAnswer(f"Alumno {number}", "captures", 1, correct,
                                                           None if correct else "missed_capture", lesson="class",
                                                           rules=exercise.rules), given)
    teacher.get_by_role("button", name="Parar la cuenta atrás").click()
    expect(teacher.locator("#exercise-answered")).to_have_text("30 respuestas")
    given = teacher.locator("#exercise-given li")
    expect(given).to_have_count(6)
    expect(given.locator(".count")).to_have_text(["9", "6", "4", "3", "2", "1"])
    expect(teacher.locator("#exercise-given-others")).to_have_text("5 respuestas más")
    teacher.get_by_role("button", name="Ver la solución").click()
    expect(teacher.locator("#exercise-answer")).to_be_visible()
    expect(teacher.locator("#exercise-given li").nth(0)).to_contain_text(f"✓ Bien: {ANA_GIVES}")
    expect(teacher.locator("#exercise-given li.right")).to_have_count(1)
    # everything on the wall at once: the last line of the spread inside the projector's 1080 pixels
    teacher.screenshot(path=screenshot_dir / "class-exercise-spread-30-es-1920x1080.png")
    bottom = teacher.locator("#exercise-given-others").bounding_box()
    assert bottom is not None and bottom["y"] + bottom["height"] <= PROJECTOR["height"], bottom
    assert not re.search(r"\bAlumno\b", teacher.locator("body").inner_text())
    bad = serious_violations(teacher)
    assert not bad, bad
    teacher.screenshot(path=screenshot_dir / "class-exercise-spread-30-es-1920x1080.png")
