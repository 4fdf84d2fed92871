"""The class exercise (escoba_tutor/records/class_exercise.py, escoba_tutor/server/class_exercise.py): its state
machine in the class database, then the real server's endpoints, the teacher's with the board's key and the
students' kernels' with their records tokens (the tokens read from the real kernels' environments)."""

from __future__ import annotations

import http.client
import json
import re
import secrets
import shutil
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
from test_class_board import KEYS, Browser, landing
from test_records_server import kernel_env_of, student

from escoba_tutor.records import ClassStore, DrillAnswer, RecordsError
from escoba_tutor.records.recorder import TOKEN_HEADER

REFERENCES = Path(__file__).parent / "data" / "records"


def token() -> str:
    return secrets.token_urlsafe(24)


def answer(nickname: str, seed: int = 3, correct: bool = True, mistake: str | None = None, kind: str = "captures",
           rules: str = "escoba") -> DrillAnswer:
    return DrillAnswer(nickname, kind, seed, correct, mistake, lesson="class", rules=rules)


@pytest.fixture
def store(tmp_path):
    with ClassStore.open(tmp_path / "class.sqlite3") as opened:
        yield opened


# ------------------------------------------------------------------------------------------- the state machine
def test_a_start_form_sent_twice_starts_one_exercise(store):
    sent = token()
    first, new = store.start_exercise(sent, "captures", 3, "escoba", 60)
    again, new_again = store.start_exercise(sent, "captures", 3, "escoba", 60)
    assert new and not new_again and again.id == first.id
    assert store.running_exercise() == first and first.state == "open" and first.takes_answers()


def test_starting_an_exercise_ends_the_one_running(store):
    first, _new = store.start_exercise(token(), "captures", 3, "escoba", 60)
    second, _new = store.start_exercise(token(), "setenta", 4, "escoba", 60)
    assert store.running_exercise().id == second.id != first.id
    with pytest.raises(RecordsError) as refused:
        store.answer_exercise(first.id, answer("Ana"))
    assert refused.value.code == "exercise_not_running"
    with pytest.raises(RecordsError) as refused:
        store.change_exercise(first.id, "reveal")
    assert refused.value.code == "exercise_not_running"


def test_each_student_answers_once_and_the_answer_is_a_drill_record(store):
    exercise, _new = store.start_exercise(token(), "captures", 3, "escoba", 60)
    store.answer_exercise(exercise.id, answer("Ana", correct=False, mistake="missed_15"))
    store.answer_exercise(exercise.id, answer("Leo"))
    with pytest.raises(RecordsError) as refused:
        store.answer_exercise(exercise.id, answer("ana"))  # the same student, as the board groups nicknames
    assert refused.value.code == "exercise_answered"
    tally = store.exercise_tally(exercise.id)
    assert (tally.answered, tally.right, tally.mistakes) == (2, 1, {"missed_15": 1})
    board = store.board()
    assert {s.nickname: s.drills for s in board.students} == {"Ana": {"captures": (1, 0)}, "Leo": {"captures": (1, 1)}}
    assert [(m.kind, m.code, m.times) for m in board.mistakes] == [("captures", "missed_15", 1)]


@pytest.mark.parametrize("other", [{"seed": 4}, {"kind": "setenta"}, {"rules": "scopa"}])
def test_an_answer_to_another_position_is_refused_and_nothing_written(store, other):
    exercise, _new = store.start_exercise(token(), "captures", 3, "escoba", 60)
    with pytest.raises(RecordsError) as refused:
        store.answer_exercise(exercise.id, answer("Ana", **other))
    assert refused.value.code == "exercise_other_position"
    assert store.exercise_tally(exercise.id).answered == 0 and store.board().students == []


def test_stopped_revealed_and_ended_exercises_take_no_answer(store):
    exercise, _new = store.start_exercise(token(), "captures", 3, "escoba", 60)
    closed = store.change_exercise(exercise.id, "close")
    assert closed.state == "closed" and not closed.takes_answers()
    with pytest.raises(RecordsError) as refused:
        store.answer_exercise(exercise.id, answer("Ana"))
    assert refused.value.code == "exercise_closed"
    assert store.change_exercise(exercise.id, "close").state == "closed"  # a second stop changes nothing
    assert store.change_exercise(exercise.id, "reveal").state == "revealed"
    assert store.change_exercise(exercise.id, "close").state == "revealed"  # no way back
    store.change_exercise(exercise.id, "end")
    assert store.running_exercise() is None
    with pytest.raises(RecordsError) as refused:
        store.answer_exercise(exercise.id, answer("Ana"))
    assert refused.value.code == "exercise_not_running"
    assert store.board().students == []


def test_an_exercise_whose_countdown_ran_out_takes_no_answer(store):
    exercise, _new = store.start_exercise(token(), "captures", 3, "escoba", 5)
    with store.engine.begin() as connection:  # five seconds later, without waiting them
        connection.exec_driver_sql("UPDATE class_exercises SET deadline_at = started_at")
    current = store.running_exercise()
    assert current.state == "open" and current.shown_state() == "closed" and current.stamp().endswith("-closed")
    with pytest.raises(RecordsError) as refused:
        store.answer_exercise(exercise.id, answer("Ana"))
    assert refused.value.code == "exercise_closed"


@pytest.mark.parametrize("sent, kwargs, code", [
    ("short", {}, "exercise_bad_token"), ("x" * 65, {}, "exercise_bad_token"), ("ñ" * 20, {}, "exercise_bad_token"),
    (None, {"seconds": 4}, "exercise_bad_settings"), (None, {"seconds": 601}, "exercise_bad_settings"),
    (None, {"seed": -1}, "exercise_bad_settings"),
])
def test_bad_start_settings_are_refused(store, sent, kwargs, code):
    settings = {"seed": 3, "seconds": 60, **kwargs}
    with pytest.raises(RecordsError) as refused:
        store.start_exercise(sent or token(), "captures", settings["seed"], "escoba", settings["seconds"])
    assert refused.value.code == code and store.running_exercise() is None


def test_forgetting_a_class_or_a_student_deletes_their_exercise_answers(store):
    exercise, _new = store.start_exercise(token(), "captures", 3, "escoba", 60)
    store.answer_exercise(exercise.id, answer("Ana"))
    store.answer_exercise(exercise.id, answer("Leo"))
    store.remove_student(store.current_class().id, "Ana")
    assert store.exercise_tally(exercise.id).answered == 1 and set(store.exercise_answered(exercise.id)) == {"leo"}
    store.forget_class(store.current_class().id)
    assert store.running_exercise() is None and store.exercise_tally(exercise.id).answered == 0


def test_a_version_3_database_gets_the_class_exercise_tables(tmp_path):
    copy = tmp_path / "class.sqlite3"
    shutil.copy(REFERENCES / "v3" / "class.sqlite3", copy)
    with ClassStore.open(copy) as opened:
        assert opened.running_exercise() is None
        exercise, _new = opened.start_exercise(token(), "captures", 3, "escoba", 60)
        opened.answer_exercise(exercise.id, answer("Ana"))
        assert opened.exercise_tally(exercise.id).answered == 1


# ----------------------------------------------------------------------------------------------- the real server
@pytest.fixture(scope="module")
def server(class_tutor_factory):
    server = class_tutor_factory()
    KEYS[server.url] = server.key
    return server


def call(url: str, method: str = "GET", body: dict | None = None, token_value: str = "", timeout: float = 60):
    address = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=timeout)
    try:
        headers = {TOKEN_HEADER: token_value, "Content-Type": "application/json"} if token_value else {}
        path = address.path + (f"?{address.query}" if address.query else "")
        connection.request(method, path, body=json.dumps(body).encode() if body is not None else None,
                           headers=headers)
        reply = connection.getresponse()
        said = reply.read().decode("utf-8", "replace")
        try:
            return reply.status, json.loads(said)
        except ValueError:
            return reply.status, said
    finally:
        connection.close()


class Kernel:
    """A student's kernel as the server knows it: the wait and answer endpoints, with the kernel's own token."""

    def __init__(self, server, nickname: str) -> None:
        browser = student(server, nickname)
        landing(browser, "es")
        env = kernel_env_of(server, nickname)
        self.base = env["ESCOBA_TUTOR_RECORDS_URL"].removesuffix("class/record")
        self.token = env["ESCOBA_TUTOR_RECORDS_TOKEN"]

    def wait(self, after: str = "", timeout: float = 60):
        return call(f"{self.base}class/exercise/wait?after={urllib.parse.quote(after)}", token_value=self.token,
                    timeout=timeout)

    def answer(self, exercise: dict, correct: bool = True, mistake: str | None = None, **other):
        body = {"exercise": exercise["id"], "kind": exercise["kind"], "seed": exercise["seed"],
                "rules": exercise["rules"], "correct": correct, "mistake": mistake, **other}
        return call(f"{self.base}class/exercise/answer", "POST", body, self.token)


def teacher(server) -> Browser:
    browser = Browser(server.url)
    browser.xsrf()
    return browser


def start(server, browser: Browser, sent: str | None = None, **fields):
    form = {"_xsrf": browser.xsrf(), "key": server.key, "token": sent or token(), "kind": "captures", "seed": "3",
            "seconds": "60", **fields}
    return browser.request("class/exercise/start", form)


def test_the_pages_a_start_wakes_are_let_go_in_turn_and_a_late_page_at_once(store):
    """Thirty pages redrawing in the same instant hold up every lesson click on two cores: the bell lets the pages
    one change woke go one after another, in the order they waited, over RELEASE_SPREAD_S at most."""
    import asyncio

    from own_loop import run_apart

    from escoba_tutor.server.class_exercise import RELEASE_SPREAD_S, ExerciseBell

    async def run() -> tuple[list[tuple[int, float]], float, float]:
        loop = asyncio.get_running_loop()
        bell = ExerciseBell(store)
        await bell.load()
        before = bell.stamp()
        released: list[tuple[int, float]] = []

        async def page(number: int) -> None:
            await bell.wait_state(before, timeout=10)
            released.append((number, loop.time()))

        pages = []
        for number in range(30):
            pages.append(asyncio.ensure_future(page(number)))
            await asyncio.sleep(0)  # each begins to wait before the next
        await asyncio.sleep(0.05)
        assert not released  # nothing changed: every page waits
        await asyncio.to_thread(store.start_exercise, token(), "captures", 4, "escoba", 60)
        rung = loop.time()
        await bell.changed()
        await asyncio.gather(*pages)
        late = loop.time()
        await bell.wait_state(before, timeout=10)  # a page that asks after the change: answered at once
        return released, rung, loop.time() - late

    released, rung, late_wait = run_apart(run())
    assert [number for number, _ in released] == list(range(30))  # in the order they began to wait
    first, last = released[0][1] - rung, released[-1][1] - rung
    assert first < RELEASE_SPREAD_S / 4  # the first page goes at once
    assert last >= RELEASE_SPREAD_S * 29 / 30 - 0.01  # the others in turn, not in the same instant
    assert last < RELEASE_SPREAD_S + 2  # and all well within the second a start may take to be shown
    assert late_wait < 0.1


def act(server, browser: Browser, exercise_id: int, action: str):
    return browser.request("class/exercise/act", {"_xsrf": browser.xsrf(), "key": server.key,
                                                  "exercise": str(exercise_id), "action": action})


@pytest.fixture(scope="module")
def kernels(server):
    return [Kernel(server, name) for name in ("Ana", "Leo", "Eva")]


def test_a_started_exercise_wakes_every_waiting_kernel_at_once(server, kernels):
    browser = teacher(server)
    stamps = [k.wait()[1]["stamp"] for k in kernels]  # what each kernel holds now
    woken: dict[int, tuple[float, dict]] = {}

    def wait(number: int) -> None:
        status, data = kernels[number].wait(stamps[number])
        assert status == 200
        woken[number] = (time.monotonic(), data)

    waiting = [threading.Thread(target=wait, args=(n,)) for n in range(len(kernels))]
    for thread in waiting:
        thread.start()
    time.sleep(0.5)
    assert not woken  # nothing changed: the long polls wait
    began = time.monotonic()
    status, headers, _body = start(server, browser, seed="41")
    assert status == 303 and urllib.parse.urlsplit(headers["Location"]).path == "/class/exercise"
    for thread in waiting:
        thread.join(30)
    assert len(woken) == len(kernels)
    for at, data in woken.values():
        assert data["exercise"]["seed"] == 41 and data["exercise"]["state"] == "open" and not data["answered"]
        assert at - began < 5  # within the POST's own time on a busy machine (no polling period to wait for)
    assert "Ana" not in json.dumps(data) and "nickname" not in json.dumps(data)


def test_answers_are_counted_once_without_names_and_recorded(server, kernels):
    browser = teacher(server)
    start(server, browser, seed="50")
    exercise = kernels[0].wait()[1]["exercise"]
    given = {"built": [["5c", "10b"]], "answers": [], "choices": {}}
    assert kernels[0].answer(exercise, False, "missed_15", given=given) == (200, {"counted": True})
    assert kernels[1].answer(exercise, given={"built": "not cards"}) == (200, {"counted": True})  # not kept
    assert kernels[0].answer(exercise) == (409, {"refused": "exercise_answered"})  # a second answer
    assert kernels[0].answer(exercise, given={"built": [], "answers": [], "choices": {}})[0] == 409
    # each reloaded page is given back its own answer, never another's
    assert kernels[0].wait()[1]["mine"] == given
    assert kernels[1].wait()[1]["mine"] is None and kernels[2].wait()[1]["mine"] is None
    assert kernels[2].answer(exercise, seed=51)[1] == {"refused": "exercise_other_position"}
    assert kernels[2].answer({**exercise, "id": exercise["id"] - 1})[1] == {"refused": "exercise_not_running"}
    assert kernels[0].wait()[1]["answered"] and not kernels[2].wait()[1]["answered"]  # a reload knows
    status, view = browser.request(f"class/exercise.json?key={server.key}")[::2]
    assert status == 200
    live = json.loads(view)["html"]
    assert "2 respuestas" in live and "Bien" in live and "Ana" not in live and "Leo" not in live
    with ClassStore.open(server.database) as store:
        drills = {s.nickname: s.drills for s in store.board().students}
    assert drills["Ana"]["captures"] == (1, 0) and drills["Leo"]["captures"] == (1, 1) and not drills["Eva"]


def test_answers_sent_at_once_by_one_student_count_once(server, kernels):
    """A double click, or a script, sending one student's answer several times at once: one is counted."""
    browser = teacher(server)
    start(server, browser, seed="55")
    exercise = kernels[2].wait()[1]["exercise"]
    said: list[tuple[int, object]] = []
    sending = [threading.Thread(target=lambda: said.append(kernels[2].answer(exercise))) for _n in range(6)]
    for thread in sending:
        thread.start()
    for thread in sending:
        thread.join(30)
    assert sorted(status for status, _body in said).count(200) == 1, said
    assert {status for status, _body in said} <= {200, 409, 429}, said
    view = json.loads(browser.request(f"class/exercise.json?key={server.key}")[2])["html"]
    assert "1 respuesta" in view
    with ClassStore.open(server.database) as store:
        assert store.exercise_tally(exercise["id"]).answered == 1


def test_the_teacher_stops_reveals_and_ends_and_the_kernels_follow(server, kernels):
    browser = teacher(server)
    start(server, browser, seed="60")
    data = kernels[0].wait()[1]
    exercise = data["exercise"]
    assert act(server, browser, exercise["id"], "close")[0] == 303
    data = kernels[0].wait(data["stamp"], timeout=30)[1]
    assert data["exercise"]["state"] == "closed"
    assert kernels[1].answer(exercise)[1] == {"refused": "exercise_closed"}
    assert act(server, browser, exercise["id"], "reveal")[0] == 303
    data = kernels[0].wait(data["stamp"], timeout=30)[1]
    assert data["exercise"]["state"] == "revealed"
    page = browser.request(f"class/exercise?key={server.key}")[2]
    assert 'id="exercise-answer"' in page and "La solución" in page
    # the next exercise offers the countdown the teacher chose, not the time the stopped one ran
    assert 'name="seconds" min="5" max="600" value="60"' in page and 'name="seed" min="0" value="61"' in page
    assert act(server, browser, exercise["id"], "end")[0] == 303
    assert kernels[0].wait(data["stamp"], timeout=30)[1]["exercise"] is None


def test_a_double_click_on_start_starts_one_exercise(server, kernels):
    browser = teacher(server)
    sent = token()
    assert start(server, browser, sent, seed="70")[0] == 303
    first = kernels[0].wait()[1]["exercise"]
    assert start(server, browser, sent, seed="70")[0] == 303
    assert kernels[0].wait()[1]["exercise"]["id"] == first["id"]


@pytest.mark.parametrize("fields, words", [
    ({"kind": "nope"}, "Elige un tipo de ejercicio"), ({"seed": "-1"}, "número entero"),
    ({"seconds": "3"}, "de 5 a 600 segundos"), ({"token": "x"}, "ha caducado"),
])
def test_bad_start_forms_are_refused_in_words(server, fields, words):
    browser = teacher(server)
    status, _headers, body = start(server, browser, **fields)
    assert status == 400 and words in body


def test_students_cannot_start_stop_or_reveal(server, kernels):
    browser = teacher(server)
    start(server, browser, seed="80")
    exercise = kernels[0].wait()[1]["exercise"]
    pupil = Browser(server.url)
    pupil.request("voila/render/es/index.ipynb")  # a student's own cookies, without the key
    for path, form in (("class/exercise/start", {"token": token(), "kind": "captures", "seed": "1", "seconds": "60"}),
                       ("class/exercise/act", {"exercise": str(exercise["id"]), "action": "reveal"})):
        for key in ("", "wrong-key"):
            status, _headers, body = pupil.request(path, {"_xsrf": pupil.xsrf(), "key": key, **form})
            assert status == 403, (path, key)
    assert pupil.request("class/exercise?key=")[0] == 403
    assert pupil.request("class/exercise.json?key=bad")[0] == 403
    assert kernels[0].wait()[1]["exercise"] == exercise  # nothing changed
    # the kernels' endpoints want a kernel's token
    assert call(f"{server.url}class/exercise/wait")[0] == 403
    assert call(f"{server.url}class/exercise/answer", "POST", {"exercise": exercise["id"]}, "made-up")[0] == 403


def test_a_malformed_answer_is_refused(server, kernels):
    browser = teacher(server)
    start(server, browser, seed="90")
    exercise = kernels[0].wait()[1]["exercise"]
    for bad in ({"correct": "yes"}, {"kind": "x" * 100}, {"seed": -5}):
        status, _said = kernels[0].answer(exercise, **bad)
        assert status == 400, bad
    assert kernels[0].answer({**exercise, "id": "one"})[0] == 400
    status, _said = call(f"{kernels[0].base}class/exercise/answer", "POST", None, kernels[0].token)
    assert status == 400
    assert not kernels[0].wait()[1]["answered"]


def test_the_projected_view_shows_the_position_and_no_names(server, kernels):
    browser = teacher(server)
    start(server, browser, seed="100")
    exercise = kernels[0].wait()[1]["exercise"]
    kernels[0].answer(exercise)
    page = browser.request(f"class/exercise?key={server.key}&lang=en")[2]
    assert "Exercise no. 100" in page and 'id="countdown"' in page and "1 answer" in page
    assert not re.search(r"\b(Ana|Leo|Eva)\b", page)
    board = browser.request(f"class/board?key={server.key}")[2]
    assert 'id="exercise-start"' in board and "Ejercicio de clase" in board


def test_another_class_made_current_is_told_to_the_kernels(server, kernels):
    """The class exercise is the current class's: a new class (or another made current) has none running."""
    browser = teacher(server)
    start(server, browser, seed="110")
    data = kernels[0].wait()[1]
    assert data["exercise"]["seed"] == 110
    status, _headers, _body = browser.request("class/new", {"_xsrf": browser.xsrf(), "key": server.key,
                                                            "confirm": "yes"})
    assert status == 303
    assert kernels[0].wait(data["stamp"], timeout=30)[1]["exercise"] is None


def test_a_mistake_made_in_the_class_exercise_links_to_its_kind_s_own_page():
    """The class exercise page shows only the exercise the teacher leads: the board opens the exercise on the page
    of its kind's drill, and says it was the class exercise."""
    from escoba_tutor.server.class_board import _Where, exercise_link
    from escoba_tutor.text.translator import Translator

    link = exercise_link(Translator("es"), "captures", _Where(4, "class", "escoba"), "es", "/", "escoba")
    assert link["href"] == "/voila/render/es/02-captures.ipynb?seed=4"
    assert link["words"] == "Ejercicio 4 (ejercicio de clase)"


# -------------------------------------------------------------------------------------- the spread of answers
@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_kind_says_an_answer_in_its_own_words_and_never_fails_on_one(lang):
    """Each kind reads the answer as the page sends it (an empty one too) without a name in it; what a page cannot
    have sent (not a dict, card codes that name no card) is left out, never an error."""
    from escoba_tutor.exercises.registry import given_words, kind_names, make_drill
    from escoba_tutor.text.translator import Translator

    _ = Translator(lang)
    empty = {"built": [], "answers": [], "choices": {}}
    odd = {"built": [], "answers": ["Ana", "x" * 50], "choices": {"taker": "Ana", "winner": "9", "move": "zz"}}
    for name in kind_names():
        drill = make_drill(name, 5)
        said = given_words(_, name, drill, empty)
        assert said and _("no answer") in said or name == "captures", name
        assert "Ana" not in given_words(_, name, drill, odd), name  # typed text is never shown as typed
    drill = make_drill("captures", 5)
    assert given_words(_, "captures", drill, empty) == _("no capture")
    assert given_words(_, "captures", drill, {"built": [["zz"]]}) is None
    assert given_words(_, "captures", drill, "5o") is None
    # one answer, one line: the captures listed in any order, each capture's cards in any order
    assert given_words(_, "captures", drill, {"built": [["1o", "4c"], ["2e"]]}) == \
        given_words(_, "captures", drill, {"built": [["2e"], ["4c", "1o"]]})
    # a side named inside a sentence takes the form the sentence asks for («Gana el bando 2»)
    assert given_words(_, "game_end", make_drill("game_end", 0), {"choices": {"winner": "1"}}) == \
        {"en": "Side 2 wins", "es": "Gana el bando 2"}[lang]
    setenta = make_drill("setenta", 5)
    assert given_words(_, "setenta", setenta, {"answers": [" 078", "inválida"]}) == \
        " · ".join(_("{question}: {answer}", question=side, answer=said)
                   for side, said in zip(("Side 1", "Side 2") if lang == "en" else ("Bando 1", "Bando 2"),
                                         ("78", _("invalid"))))


def spread(tally, state: str = "open", lang: str = "en"):
    from datetime import datetime, timedelta, timezone

    from escoba_tutor.records.class_exercise import RunningExercise
    from escoba_tutor.server.class_exercise import spread_view
    from escoba_tutor.text.translator import Translator

    now = datetime.now(timezone.utc)
    current = RunningExercise(1, 1, "captures", 5, "escoba", state, now, now + timedelta(seconds=60))
    return spread_view(Translator(lang), current, tally)


def test_the_spread_lists_six_answers_at_most_the_most_given_first_and_marks_the_right_one_once_revealed():
    from escoba_tutor.records.class_exercise import Tally

    cards = ["1o", "2o", "3o", "4o", "5c", "6c", "7c", "1e", "2e", "3e"]
    tally = Tally()
    for number, card in enumerate(cards):  # ten answers given by 10, 9, ... 1 students: 55 in all
        for _student in range(10 - number):
            tally = tally.counted(number == 3, None if number == 3 else "missed_capture",
                                  json.dumps({"built": [[card]], "answers": [], "choices": {}}))
    tally = tally.counted(False, "missed_capture", None)  # an answer counted before answers were kept
    shown = spread(tally)
    assert [row["count"] for row in shown["given"]] == [10, 9, 8, 7, 6, 5]
    assert shown["given"][0]["words"] == "ace of coins" and shown["given"][3]["words"] == "four of coins"
    assert shown["given_others"] == "11 other answers"  # 4 + 3 + 2 + 1 + the one not kept
    assert not any(row["right"] for row in shown["given"])  # not before the reveal: the wall would give it away
    revealed = spread(tally, "revealed", "es")
    assert [row["right"] for row in revealed["given"]] == [False, False, False, True, False, False]
    assert revealed["given"][3]["words"] == "cuatro de oros" and revealed["given_others"] == "11 respuestas más"
    # two answers said alike (one capture's cards in another order) are one line
    same = Tally().counted(True, None, '{"answers":[],"built":[["1o","4c"]],"choices":{}}') \
        .counted(True, None, '{"answers":[],"built":[["4c","1o"]],"choices":{}}')
    assert [(row["words"], row["count"]) for row in spread(same)["given"]] == [("ace of coins and four of cups", 2)]


def test_the_projected_view_shows_the_answers_given_and_marks_the_right_one_once_revealed(server, kernels):
    browser = teacher(server)
    start(server, browser, seed="130")
    exercise = kernels[0].wait()[1]["exercise"]
    alike = {"built": [["1o", "4c"]], "answers": [], "choices": {}}
    assert kernels[0].answer(exercise, True, given=alike)[0] == 200
    assert kernels[1].answer(exercise, True, given={**alike, "built": [["4c", "1o"]]})[0] == 200
    assert kernels[2].answer(exercise, False, "missed_capture", given={**alike, "built": []})[0] == 200
    data = json.loads(browser.request(f"class/exercise.json?key={server.key}&lang=en")[2])
    assert "3 answers" in data["html"] and "The answers given" not in data["html"]  # the counts, beside the answer
    live = data["given_html"]  # the answers given, under the position
    assert "The answers given" in live and "ace of coins and four of cups" in live and "no capture" in live
    given = live.split('id="exercise-given"')[1]
    counts = re.findall(r'<li class="(\w+)"><span class="words">([^<]*)</span> <strong class="count">(\d+)', given)
    assert counts == [("plain", "ace of coins and four of cups", "2"), ("plain", "no capture", "1")]
    act(server, browser, exercise["id"], "reveal")
    page = browser.request(f"class/exercise?key={server.key}&lang=en")[2]
    assert re.search(r'<li class="right"><span class="words"><span class="mark">✓ Right:</span> ace of coins and four '
                     r'of cups</span> <strong class="count">2', page)
    assert '<li class="plain"><span class="words">no capture</span>' in page
    assert not re.search(r"\b(Ana|Leo|Eva)\b", page)
    # the database keeps each answer as given: a restarted server still shows them (and a reloaded page its own)
    with ClassStore.open(server.database) as store:
        assert sum(store.exercise_tally(exercise["id"]).given.values()) == 3
        assert json.loads(store.exercise_answered(exercise["id"])["ana"]) == alike
