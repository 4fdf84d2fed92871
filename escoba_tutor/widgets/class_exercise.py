"""The class exercise page: the exercise the teacher leads from the projector, answered on the student's own screen.

The page shows what the course server says runs now (escoba_tutor/records/exercise_client.py keeps one long poll
open to it): nothing yet, an exercise to answer with the drill's own controls, "time is up", or the answer with the
drill's explanation once the teacher reveals it. The student checks once: the kernel judges the answer as any
drill's check does, and sends the outcome (right, or which mistake) to the server, which counts it for the
projector and records it as a drill answer. The page never shows who else answered, nor what.

The drill's number box, its "New exercise" and its "Show the answer" are hidden (the teacher chooses the
exercise and when its answer shows), and so is the check's feedback until the answer is revealed (a neighbour's
screen would give it away). Once the answer is in, or the time is up, every control of the position is disabled and
the status line says why. The answer as given (the drill model's ``built``, ``answers`` and ``choices``) goes
with the outcome: the server keeps it for this student alone, so a reloaded page shows it again, judged once the
teacher reveals the answer.
"""

from __future__ import annotations

import threading
from html import escape

import ipywidgets as w
from traitlets import Bool, Dict, Unicode, observe

from ..exercises.registry import kind
from ..records.exercise_client import ExerciseClient, client_from_environment
from ..text.translator import DEFAULT_LANGUAGE, Translator
from .drills import Drill
from .drills.base import view_class
from .kernel_loop import on_kernel_loop
from .primitives import LiveRegion

__all__ = ["ClassExercise"]


class ClassExercise(w.VBox):
    """The class exercise page's widget. ``state`` is what the server said last (set by the client's thread, or by
    a test): ``{"exercise": None | {"id", "kind", "seed", "rules", "state", "seconds_left"}, "answered": bool}``.
    ``answered`` says whether this student's answer was counted; ``message`` is the status line's text."""

    state = Dict()
    answered = Bool(False)
    lang = Unicode(DEFAULT_LANGUAGE)

    def __init__(self, lang: str = DEFAULT_LANGUAGE, *, client: ExerciseClient | None = None,
                 connect: bool = True, **kwargs) -> None:
        super().__init__(**kwargs)
        self.add_class("escoba-class-exercise")
        self.lang = lang
        self.heading = w.HTML()
        self.status = LiveRegion()
        self.drill: Drill | None = None
        self._lock = threading.RLock()  # the client's thread and the page's clicks change the page in turn
        self._exercise_id: int | None = None
        self._judged = None  # the check of the answer sent, kept out of sight until the teacher reveals the answer
        self._fixed: list[w.Widget] = []
        self.children = [self.heading, self.status]
        self.client = client if client is not None or not connect else client_from_environment(self._arrived)
        _ = Translator(self.lang)
        title = _("Class exercise")
        self.heading.value = f"<h2 class='escoba-title'>{escape(title)}</h2>"
        if self.client is None:
            self.status.message = _("The class exercise needs a nickname: choose one on the start page, then open "
                                    "this page again.")
        else:
            self.status.message = _("Waiting for your teacher to start an exercise…")
            self.client.start()

    @property
    def message(self) -> str:
        return self.status.message

    def _arrived(self, data: dict) -> None:
        """A new state from the client's thread: shown on the kernel's own event loop, where the page's clicks are
        handled too, so the page never changes under a click (outside a kernel, at once)."""
        on_kernel_loop(self._set_state, data)

    def _set_state(self, data: dict) -> None:
        with self._lock:
            self.state = data

    @observe("state")
    def _show(self, change) -> None:
        with self._lock:
            _ = Translator(self.lang)
            if self.state.get("unavailable"):
                self._drop_drill()
                self.status.message = _("This server does not run class exercises.")
                return
            exercise = self.state.get("exercise")
            if not exercise:
                self._drop_drill()
                self.status.message = _("No exercise is running now. When your teacher starts one, it appears "
                                        "here.")
                return
            if exercise["id"] != self._exercise_id:
                self._new_drill(exercise)
            if self.state.get("answered"):
                if not self.answered:  # a reloaded page: the answer this student gave, as the server kept it
                    self._restore(self.state.get("mine"))
                self.answered = True
            assert self.drill is not None
            stage = exercise["state"]
            self._disable(self.answered or stage != "open")
            if stage == "revealed":
                self._reveal()
                self.status.message = _("Your teacher has shown the answer.")
            elif stage == "closed":
                self.status.message = (_("Time is up. Your answer is in: wait for your teacher to show the answer.")
                                       if self.answered else
                                       _("Time is up. Wait for your teacher to show the answer."))
            elif self.answered:
                self.status.message = _("Your answer is in and can no longer be changed. Wait for your teacher to "
                                        "show the answer.")
            else:
                self.status.message = _("Answer, then press “Check”: you can check once.")

    def _drop_drill(self) -> None:
        """No exercise now: the drill leaves the page, but is kept for the next exercise."""
        self._forget_exercise()
        self.children = [self.heading, self.status]

    def _forget_exercise(self) -> None:
        self._exercise_id = None
        self._judged = None
        self.answered = False

    def close(self) -> None:
        if self.drill is not None:
            self.drill.close()
            self.drill = None
        super().close()

    def _new_drill(self, exercise: dict) -> None:
        # The drill stays on the page from one exercise to the next: taken off and put back, every browser of the
        # class would draw all of it again.
        self._forget_exercise()
        drill = self.drill
        if drill is None:
            drill = Drill(kind=exercise["kind"], seed=exercise["seed"], rules=exercise["rules"], lang=self.lang)
            drill.model.recorded = False  # the one answer goes to the class exercise, which records it
            for hidden in (drill.seed_box, drill.new_button, drill.answer_button):
                hidden.layout.display = "none"
            drill.model.observe(self._checked, "result")
        else:
            # The next exercise on the same drill: its controls are redrawn, and built anew only where the kind's
            # layout differs. Every page of the class builds a whole drill at the same moment otherwise, which
            # slowed the other clicks of the class (benchmarks/load_class.py --exercise).
            self._disable(False)
            drill.model.start(exercise["kind"], exercise["seed"], exercise["rules"])
        for hidden in (drill.feedback, drill.status):  # the check's feedback stays hidden until the reveal
            hidden.layout.display = "none"
        self.drill, self._exercise_id = drill, exercise["id"]
        # controls that are disabled by their own nature (a list to read, not to choose from) stay so
        self._fixed = [c for c in _tree(drill.position) if c.has_trait("disabled") and c.disabled]
        self.children = [self.heading, self.status, drill]

    def _disable(self, locked: bool) -> None:
        """Every control of the position, and "Check", disabled once the answer is in or the time is up."""
        assert self.drill is not None
        self.drill.check_button.disabled = locked
        for widget in _tree(self.drill.position):
            if widget.has_trait("disabled") and widget not in self._fixed:
                widget.disabled = locked

    def _restore(self, given: object) -> None:
        """Show the answer the server kept for this student (a reloaded page), judged out of sight until the
        reveal; an answer the page cannot read is left out (the page then only says it is in)."""
        assert self.drill is not None
        if not isinstance(given, dict):
            return
        model = self.drill.model
        try:
            with model.hold_trait_notifications():
                model.built = [[str(c) for c in capture] for capture in given.get("built", [])]
                model.answers = [str(a) for a in given.get("answers", model.answers)]
                model.choices = {str(q): str(c) for q, c in dict(given.get("choices", {})).items()}
            self._judged = view_class(model.drill.kind).judge(model.drill, model)
        except Exception:  # noqa: BLE001 - a kept answer this page cannot show: say only that it is in
            with model.hold_trait_notifications():
                model.built, model.choices = [], {}
                model.answers = [""] * len(model.answers)
            self._judged = None

    def _reveal(self) -> None:
        assert self.drill is not None
        self.drill.feedback.layout.display = None
        self.drill.status.layout.display = None
        if self._judged is not None:  # the student's own answer, judged, beside the worked answer
            self.drill.model.result, self._judged = self._judged, None
        self.drill.model.show_answer = True

    def _checked(self, change) -> None:
        """The student pressed "Check": the kernel's judgement goes to the server, once."""
        result = change["new"]
        with self._lock:
            exercise = self.state.get("exercise")
            if result is None or self.drill is None or not exercise or self.answered or self.client is None:
                return
            _ = Translator(self.lang)
            outcome = kind(exercise["kind"]).outcome(result)
            if outcome is None:
                self.status.message = _("You have not answered yet: answer, then press “Check”.")
                return
            model = self.drill.model
            given = {"built": list(model.built), "answers": list(model.answers), "choices": dict(model.choices)}
            verdict = self.client.answer(exercise, *outcome, given=given)
            if verdict in ("counted", "exercise_answered"):
                self.answered = True
                self._disable(True)
                # the view marks each part of the answer right or wrong from the check: not before the reveal
                self._judged, self.drill.model.result = result, None
                self.status.message = _("Your answer is in and can no longer be changed. Wait for your teacher to "
                                        "show the answer.")
            elif verdict in ("exercise_closed", "exercise_not_running"):
                self._disable(True)
                self.status.message = _("Time is up: your answer was not counted.")
            else:
                self.status.message = _("Your answer could not be sent: press “Check” again.")


def _tree(widget: w.Widget):
    """A widget and every widget inside it."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _tree(child)
