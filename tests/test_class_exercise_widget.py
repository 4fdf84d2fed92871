"""The class exercise page's widget in the kernel (escoba_tutor/widgets/class_exercise.py), its server replaced by
a stand-in that records what the page sends: the page follows the states the server sends, answers once with the
kind's own judgement, and shows the answer with the drill's explanation only once the teacher reveals it."""

from __future__ import annotations

from escoba_tutor.exercises import make_drill
from escoba_tutor.widgets.class_exercise import ClassExercise


class StandIn:
    """The kernel's client to the course server, as the page uses it."""

    def __init__(self, verdict: str = "counted") -> None:
        self.sent: list[tuple[dict, bool, str | None]] = []
        self.given: list[dict | None] = []
        self.verdict = verdict
        self.started = False

    def start(self) -> None:
        self.started = True

    def answer(self, exercise: dict, correct: bool, mistake: str | None, given: dict | None = None) -> str:
        self.sent.append((exercise, correct, mistake))
        self.given.append(given)
        return self.verdict


EXERCISE = {"id": 7, "kind": "captures", "seed": 1, "rules": "escoba", "state": "open", "seconds_left": 60}


def state(**exercise) -> dict:
    return {"stamp": "x", "exercise": {**EXERCISE, **exercise}, "answered": False}


def test_without_a_server_the_page_says_a_nickname_is_needed():
    page = ClassExercise("es", connect=True)  # no records address in this kernel's environment
    assert page.client is None and "necesitas un apodo" in page.message


def test_the_page_follows_the_exercise_and_answers_once():
    client = StandIn()
    page = ClassExercise("en", client=client)
    assert client.started and "Waiting for your teacher" in page.message
    page.state = state()
    drill = page.drill
    assert drill is not None and drill.model.seed == 1 and drill.model.recorded is False
    assert drill.seed_box.layout.display == "none" and drill.answer_button.layout.display == "none"
    assert "check once" in page.message
    drill.model.built = [sorted(c) for c in (["10b", "5c"], ["6e", "7e"], ["6e", "7b"])]
    drill.check()
    assert client.sent == [(state()["exercise"], True, None)] and page.answered
    assert drill.check_button.disabled and "Your answer is in and can no longer be changed" in page.message
    # not before the reveal: neither the worked answer nor the marks of the student's own answer
    assert drill.feedback.layout.display == "none" and not drill.model.show_answer and drill.model.result is None
    page.state = state(state="revealed")
    assert drill.model.show_answer and drill.feedback.layout.display is None
    assert drill.model.result is not None and "Right!" in drill.status.message  # the answer sent, judged
    assert "has shown the answer" in page.message
    # the next exercise on the same drill (nothing built anew in the front end): its answers afresh, its answer
    # and feedback hidden, its controls open; the drill never leaves the page meanwhile (every browser would draw
    # all of it again)
    page_changes: list = []
    page.observe(page_changes.append, "children")
    page.state = state(id=8, seed=2)
    assert page_changes == []
    assert page.drill is drill and drill.model.seed == 2 and not page.answered
    assert drill.model.built == [] and drill.model.result is None and not drill.model.show_answer
    assert drill.feedback.layout.display == "none" and drill.status.layout.display == "none"
    assert not drill.check_button.disabled and "check once" in page.message
    # the same position again, as a new exercise: the answer given to the first is not kept
    drill.model.built = [["10b", "5c"]]
    drill.check()
    assert page.answered and drill.check_button.disabled
    page.state = state(id=9, seed=2)
    assert page.drill is drill and drill.model.built == [] and not page.answered and not drill.check_button.disabled
    # another kind on the same drill
    page.state = state(id=10, kind="points", seed=3)
    assert drill.model.kind == "points" and drill.model.drill.kind == "points" and not drill.check_button.disabled
    page.state = {"stamp": "none", "exercise": None, "answered": False}
    assert drill not in page.children and "No exercise is running" in page.message


def test_a_wrong_answer_sends_the_kind_s_mistake_and_a_refusal_is_said():
    client = StandIn(verdict="exercise_closed")
    page = ClassExercise("es", client=client)
    page.state = state()
    assert make_drill("captures", 1).answer
    page.drill.model.built = [["7b", "7e"]]
    page.drill.check()
    (sent, correct, mistake), = client.sent
    assert not correct and mistake and "no se ha contado" in page.message and page.drill.check_button.disabled


def test_a_reloaded_page_knows_its_answer_is_in_and_a_closed_one_takes_none():
    page = ClassExercise("es", client=StandIn())
    page.state = {**state(), "answered": True}
    assert page.answered and page.drill.check_button.disabled and "Tu respuesta se ha registrado" in page.message
    other = ClassExercise("es", client=StandIn())
    other.state = state(state="closed")
    assert other.drill.check_button.disabled and "Se ha acabado el tiempo" in other.message


def test_a_check_with_nothing_answered_sends_nothing():
    client = StandIn()
    page = ClassExercise("en", client=client)
    page.state = state(kind="setenta", seed=3)
    page.drill.check()
    assert client.sent == [] and "not answered yet" in page.message and not page.answered
    page.drill.model.answers = ["53", "64"]
    page.drill.check()
    # side 1 has no clubs: its setenta is invalid, and the kind names the slip
    assert [(correct, mistake) for _e, correct, mistake in client.sent] == [(False, "missing_suit")]


def test_a_server_without_the_class_exercise_is_said():
    page = ClassExercise("es", client=StandIn())
    page.state = {"unavailable": True}
    assert page.drill is None and "no tiene ejercicios de clase" in page.message


def controls(page) -> list:
    """Every control of the drill's position that can be disabled (ipywidgets' and the course's own)."""
    found, todo = [], [page.drill.position]
    while todo:
        widget = todo.pop()
        todo.extend(getattr(widget, "children", ()))
        if widget is not page.drill.position and widget.has_trait("disabled"):
            found.append(widget)
    return found


def test_once_the_answer_is_in_every_control_is_disabled_and_the_page_says_so():
    client = StandIn()
    page = ClassExercise("en", client=client)
    page.state = state()
    mine = controls(page)
    assert mine and any(not c.disabled for c in mine)  # the table's cards and "Add this capture" are live
    page.drill.model.built = [["10b", "5c"]]
    page.drill.check()
    assert client.given == [{"built": [["10b", "5c"]], "answers": [], "choices": {}}]
    assert all(c.disabled for c in controls(page)) and page.drill.check_button.disabled
    assert "can no longer be changed" in page.message
    page.state = state(id=8, seed=2)  # the next exercise: live again
    assert any(not c.disabled for c in controls(page)) and not page.drill.check_button.disabled


def test_a_reloaded_page_shows_the_answer_it_gave_and_judges_it_at_the_reveal():
    page = ClassExercise("es", client=StandIn())
    mine = {"built": [["10b", "5c"], ["6e", "7e"]], "answers": [], "choices": {}}
    page.state = {**state(), "answered": True, "mine": mine}
    assert page.answered and page.drill.model.built == mine["built"]
    assert all(c.disabled for c in controls(page)) and "no se puede cambiar" in page.message
    assert page.drill.model.result is None and page.drill.feedback.layout.display == "none"  # not before the reveal
    page.state = {**state(state="revealed"), "answered": True, "mine": mine}
    assert page.drill.model.result is not None and page.drill.model.show_answer
    assert page.drill.status.message.startswith("Correctas: 2 · Sin encontrar: 1 · Incorrectas: 0.")
    # a kept answer the page cannot read: it says only that the answer is in
    other = ClassExercise("es", client=StandIn())
    other.state = {**state(), "answered": True, "mine": {"built": "nope"}}
    assert other.answered and other.drill.model.built == [] and "Tu respuesta se ha registrado" in other.message


def answered_page(kind_name: str, seed: int, lang: str = "en", **model) -> tuple[ClassExercise, StandIn]:
    """A class exercise page of ``kind_name`` answered through its drill's model, as the view sets it."""
    client = StandIn()
    page = ClassExercise(lang, client=client)
    page.state = state(kind=kind_name, seed=seed)
    with page.drill.model.hold_trait_notifications():
        for name, value in model.items():
            setattr(page.drill.model, name, value)
    page.drill.check()
    return page, client


def test_the_answer_sent_reads_back_in_the_kind_s_words_for_the_projector():
    """What the page sends as given is what the kind reads for the spread of answers: the captures listed (in any
    order, one answer), the points given to each side, the play chosen."""
    from escoba_tutor.exercises.registry import given_words
    from escoba_tutor.text.translator import Translator

    _ = Translator("en")
    drill = make_drill("captures", 1)
    listed = [sorted(c.code for c in capture) for capture in drill.answer]
    first, client = answered_page("captures", 1, built=listed)
    again, other = answered_page("captures", 1, built=list(reversed(listed)))
    said, said_again = (given_words(_, "captures", drill, c.given[0]) for c in (client, other))
    assert said == said_again and said.count("·") == len(listed) - 1
    assert all(_.card_name(card) in said for capture in drill.answer for card in capture)

    points = make_drill("points", 2)
    chosen = {item: "0" for item in points.items}
    _page, client = answered_page("points", 2, choices=chosen)
    said = given_words(_, "points", points, client.given[0])
    assert said.count("Side 1") == len(points.items) and "Side 2" not in said

    strategy = make_drill("strategy", 3)
    best = strategy.ranking[0].move
    _page, client = answered_page("strategy", 3, choices={"move": str(best)})
    said = given_words(_, "strategy", strategy, client.given[0])
    assert said[0].isupper() and said.lower().startswith(_.the_card(best.card).lower())
    _page, client = answered_page("strategy", 3, choices={"move": "not a play"})
    assert client.given == [] or given_words(_, "strategy", strategy, client.given[0]) == "no answer"
