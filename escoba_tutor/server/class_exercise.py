"""The class exercise on the server: the teacher leads one exercise from the projector, every student answers it.

The exercise's state is in the class database (escoba_tutor/records/class_exercise.py). This module serves:

- the teacher, with the board's key (as the board's other pages and POSTs, class_board.BoardMixin):
  ``GET class/exercise?key=K`` the projected view (the position big, the countdown, the answers counted, without
  names); ``GET class/exercise.json?key=K&after=STAMP`` what changed since ``STAMP`` (a long poll: answered at
  once when something changed, else when something does, or after :data:`WAIT_S` seconds); the POSTs
  ``class/exercise/start`` (``token``, ``kind``, ``seed``, ``seconds``: a token already used starts nothing, so
  a double click starts one exercise) and ``class/exercise/act`` (``exercise`` and ``action``: ``close`` stops
  the countdown, ``reveal`` shows the answer, ``end`` ends it);
- the students' kernels, with their records token, from this machine only (as records_endpoint.py):
  ``GET class/exercise/wait?after=STAMP`` the exercise running (a long poll, as above) and whether this student
  has answered it, with the answer it gave; ``POST class/exercise/answer`` one answer (JSON: the exercise's
  number, its kind, seed and rules, the kernel's own judgement of the answer, and the answer as given), counted
  once per student and recorded as a drill answer.

The answer as given (the drill model's ``built``, ``answers`` and ``choices``) is kept in the class database with
its judgement (``class_exercise_answers.given``): the student's own reloaded page shows it again, and the
projected view shows the spread of answers, each distinct answer in its kind's words
(:func:`escoba_tutor.exercises.registry.given_words`) with how many students gave it, the right one marked once
the answer is revealed, the most given first (:data:`SPREAD_SHOWN` of them, then how many others).

Waking the pages: every kernel keeps one long poll open, and :class:`ExerciseBell`, in the server's process,
wakes them all when the exercise changes (a teacher's POST, or its countdown running out), and the projector's
when an answer is counted. Nothing polls the database while nothing changes. On one computer the teacher's POSTs
and the students' kernels reach the same process, so the bell is all it takes. Over PostgreSQL (a school's
JupyterHub: each student's server and the teacher's board service are processes of their own) every change is
also notified through the database (records/notify.py: ``NOTIFY`` in the change's own transaction), and each
server's one :class:`~escoba_tutor.records.notify.Listener` rings its bell (:func:`listening_settings`): a
student's server reads the exercise again when the board service changed it, the board service reads the count
again when a student's server stored an answer (docs/class-board-internals.md).
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from tornado import web

from ..engine.rules import as_rules
from ..exercises.registry import given_words, kind, kinds_for, make_drill, mistake_words
from ..exercises.worksheet import exercise_markup
from ..records.events import DrillAnswer, RecordsError
from ..records.recorder import TOKEN_HEADER
from ..records.rows import event_row
from ..text.translator import Translator
from .class_board import _STATIC, BoardMixin, _BoardPost, server_rules
from .records_endpoint import WRITING, RecordHandler, from_this_machine

__all__ = ["ExerciseBell", "exercise_handlers", "teacher_handlers", "kernel_handlers", "listening_settings",
           "start_form", "WAIT_S", "DEFAULT_SECONDS"]

WAIT_S = 25.0          # a long poll's longest wait: the kernel (or the projector) then asks again
MAX_ANSWER_BYTES = 8192  # an answer's request; the answer as given is kept when its JSON is at most half that
DEFAULT_SECONDS = 60   # the countdown the start form offers
EXERCISE_PATH = "class/exercise"
SPREAD_SHOWN = 6       # the distinct answers the projected view lists, the most given first (then "N others")
# The students' pages woken by one change are let go in turn over this long, not all at once: every page then
# redraws its exercise, and thirty kernels redrawing in the same instant on two cores hold up every lesson click
# made meanwhile (docs/classroom.md). A page waits at most this long; the target for "shown" is 1 s.
RELEASE_SPREAD_S = 0.4


class ExerciseBell:
    """The running exercise as this server last read it, and the waiters to wake when it changes (see the
    module's text). Lives on the event loop's thread; the database is read in a thread of its own."""

    def __init__(self, store, *, tallies: bool = True) -> None:
        self.store = store
        self.tallies = tallies       # this server shows the projected view: other servers' answers matter here
        self.current = None          # the RunningExercise, or None
        self.tally = None            # its Tally
        # nickname key -> the answer that student gave (JSON, or None), sent back to that student only
        self.answered: dict[str, str | None] = {}
        # exercise -> the countdown the teacher chose (a stop moves the deadline: the next exercise offers this one)
        self.chosen_seconds: dict[int, int] = {}
        self._loaded = False
        self._state = asyncio.Event()
        self._counted = asyncio.Event()
        self._timer: asyncio.TimerHandle | None = None
        self._reading = False        # a read told of by a notification is under way (notified)
        self._state_waiters = 0      # students' long polls waiting for the exercise to change
        self._release = (0.0, 0.0)   # the last change's (loop time, seconds between two pages let go)
        self._released = 0          # pages let go since the last change
        self._again = False          # ... and another notification came meanwhile: read once more after it

    def stamp(self) -> str:
        return self.current.stamp() if self.current is not None else "none"

    def tally_stamp(self) -> str:
        return f"{self.stamp()}.{self.tally.answered if self.tally else 0}"

    async def load(self) -> None:
        if not self._loaded:
            await self.changed()

    async def notified(self, payload: str | None) -> None:
        """Another server changed the exercise (``state``) or counted an answer (``answer``), or the listener
        connected again (None: anything may have changed meanwhile): read again. Notifications that come while a
        read is under way make one more read after it, not one each (thirty answers at once)."""
        if payload == "answer" and not self.tallies:
            return  # a student's server shows no count: only its own student's answer matters, which it stored
        if self._reading:
            self._again = True
            return
        self._reading = True
        try:
            self._again = True
            while self._again:
                self._again = False
                await self.changed(ring_same=False)
        finally:
            self._reading = False

    async def changed(self, *, ring_same: bool = True) -> None:
        """Read the running exercise again and wake every waiter (after this server changed it, or when told that
        another did); with ``ring_same`` False the students' waiters wake only when what they are told differs
        (an answer counted elsewhere changes nothing of theirs)."""
        before = (self.stamp(), frozenset(self.answered))
        def read():
            from ..records.class_exercise import Tally

            current = self.store.running_exercise()
            if current is None:
                return None, Tally(), {}
            return current, self.store.exercise_tally(current.id), self.store.exercise_answered(current.id)

        self.current, self.tally, self.answered = await asyncio.get_running_loop().run_in_executor(WRITING, read)
        self._loaded = True
        self._arm_deadline()
        self._ring(state=ring_same or before != (self.stamp(), frozenset(self.answered)))

    def counted(self, exercise_id: int, key: str, correct: bool, mistake: str | None,
                given: str | None = None) -> None:
        """An answer was counted (stored by this server): the count kept here grows at once, with no database read,
        and the projector's waiters wake (the students' do not). ``given``: the answer as given (JSON), or None."""
        if self.current is None or self.current.id != exercise_id or self.tally is None:
            asyncio.ensure_future(self.changed())  # this server's picture is behind: read it all again
            return
        if key in self.answered:
            return
        self.answered[key] = given
        self.tally = self.tally.counted(correct, mistake, given)
        self._ring(state=False)

    def _ring(self, *, state: bool) -> None:
        if state:
            waiting = max(self._state_waiters, 1)
            self._release = (asyncio.get_running_loop().time(), RELEASE_SPREAD_S / waiting)
            self._released = 0
            self._state.set()
            self._state = asyncio.Event()
        self._counted.set()
        self._counted = asyncio.Event()

    def _arm_deadline(self) -> None:
        """An open exercise closes by itself when its countdown runs out: its waiters are woken then."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.current is not None and self.current.state == "open":
            left = (self.current.deadline_at - datetime.now(timezone.utc)).total_seconds()
            self._timer = asyncio.get_running_loop().call_later(max(left, 0) + 0.05, self._ring_deadline)

    def _ring_deadline(self) -> None:
        self._timer = None
        self._ring(state=True)

    async def wait_state(self, after: str, timeout: float = WAIT_S) -> None:
        """Return once the exercise's stamp is other than ``after`` (a student's long poll), or after ``timeout``.
        The pages a change wakes are let go one after another over :data:`RELEASE_SPREAD_S`, in the order they
        began to wait; a page that asks after the change is answered at once."""
        self._state_waiters += 1
        try:
            woken = await self._wait(self.stamp, lambda: self._state, after, timeout)
        finally:
            self._state_waiters -= 1
        if woken:
            rung_at, step = self._release
            turn, self._released = self._released, self._released + 1
            left = rung_at + turn * step - asyncio.get_running_loop().time()
            if left > 0:
                await asyncio.sleep(left)

    async def wait_tally(self, after: str, timeout: float = WAIT_S) -> None:
        """Return once the count's stamp is other than ``after`` (the projector's long poll), or after ``timeout``."""
        await self._wait(self.tally_stamp, lambda: self._counted, after, timeout)

    async def _wait(self, stamp: Callable[[], str], bell: Callable[[], asyncio.Event], after: str,
                    timeout: float) -> bool:
        """Whether a ring woke this wait (False: the stamp had changed already, or the wait timed out)."""
        await self.load()
        if stamp() != after:
            return False
        event = bell()  # read after the load: each ring replaces the event with a new one
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        return True


def listening_settings(store, *, tallies: bool) -> dict:
    """The server's settings for hearing of other servers' changes: over PostgreSQL, the server's one listener
    (records/notify.py, started on the event loop once it runs) and the bell it rings; over SQLite nothing (one
    server writes and serves it). ``tallies``: this server shows the projected view (the board service, one
    computer's server), so other servers' answers are read as they come; a student's server on a hub does not."""
    from tornado.ioloop import IOLoop

    from ..records.class_exercise import CHANNEL
    from ..records.notify import Listener

    listener = Listener.for_store(store.engine)
    if listener is None:
        return {}
    bell = ExerciseBell(store, tallies=tallies)
    listener.add(CHANNEL, bell.notified)
    IOLoop.current().add_callback(listener.start)
    return {"escoba_listener": listener, "escoba_exercise_bell": bell}


def spread_view(_: Translator, current, tally) -> dict:
    """The spread of answers: each distinct answer in its kind's words, with how many gave it, the most given
    first and :data:`SPREAD_SHOWN` at most (then how many students gave the others); the right ones marked once
    the answer is revealed (before, the wall would give it away)."""
    revealed = current.shown_state() == "revealed"
    counts: dict[str, list] = {}  # words -> [count, right]
    for (given, correct), count in tally.given.items():
        words = _given_words(_.lang, current.kind, current.seed, current.rules, given) or _("An answer not kept")
        found = counts.setdefault(words, [0, True])
        found[0] += count
        found[1] = found[1] and correct
    ranked = sorted(counts.items(), key=lambda item: (-item[1][0], not item[1][1], item[0]))
    shown = [{"words": words, "count": count, "right": revealed and right}
             for words, (count, right) in ranked[:SPREAD_SHOWN]]
    others = sum(count for _words, (count, _right) in ranked[SPREAD_SHOWN:])
    most = max([row["count"] for row in shown] + [1])
    for row in shown:
        row["share"] = round(100 * row["count"] / most)
    return {"given": shown, "given_others": _.plural("{n} other answer", "{n} other answers", others) if others
            else None, "given_heading": _("The answers given")}


@functools.lru_cache(maxsize=512)
def _given_words(lang: str, kind_name: str, seed: int, rules: str, given: str | None) -> str | None:
    """One answer in its kind's words (cached: the projector's view is drawn again at every answer)."""
    if given is None:
        return None
    try:
        said = json.loads(given)
    except ValueError:
        return None
    return given_words(Translator(lang), kind_name, _drill(kind_name, seed, rules), said)


@functools.lru_cache(maxsize=8)
def _drill(kind_name: str, seed: int, rules: str) -> Any:
    return make_drill(kind_name, seed, rules)


def bell_of(handler: web.RequestHandler) -> ExerciseBell:
    """The server's one bell, made on first use (it needs the store and the running event loop)."""
    bell = handler.settings.get("escoba_exercise_bell")
    if bell is None:
        bell = handler.settings["escoba_exercise_bell"] = ExerciseBell(handler.settings["escoba_class_store"])
    return bell


def seconds_left(exercise, now: datetime | None = None) -> int:
    if exercise is None or not exercise.takes_answers(now):
        return 0
    return max(0, round((exercise.deadline_at - (now or datetime.now(timezone.utc))).total_seconds()))


# --------------------------------------------------------------------------------------------------- the teacher


def start_form(handler, *, kind_name: str = "captures", seed: int = 1, seconds: int = DEFAULT_SECONDS) -> dict:
    """The start form's values: the kinds of the class's rules, and a fresh token (a second press of this very form
    starts nothing new)."""
    _ = Translator(handler.lang)
    return {"token": secrets.token_urlsafe(24), "kind": kind_name, "seed": seed, "seconds": seconds,
            "kinds": [{"name": k, "words": _(kind(k).column)} for k in kinds_for(server_rules(handler))]}


class _TeacherPage(BoardMixin, web.RequestHandler):

    def tally_view(self, _: Translator, bell: ExerciseBell) -> dict:
        tally, current = bell.tally, bell.current
        if current is None or tally is None:
            return {"answered": 0, "rows": []}
        rows = [{"words": _("Right"), "count": tally.right, "right": True}]
        for code, count in tally.mistakes.items():
            words = _("Wrong, no mistake named") if code == "wrong" else mistake_words(_, current.kind, code)
            rows.append({"words": words, "count": count, "right": False})
        most = max([r["count"] for r in rows] + [1])
        for row in rows:
            row["share"] = round(100 * row["count"] / most)
        return {"answered": _.plural("{n} answer", "{n} answers", tally.answered), "count": tally.answered,
                "rows": rows, **spread_view(_, current, tally)}

    def exercise_view(self, _: Translator, bell: ExerciseBell) -> dict | None:
        current = bell.current
        if current is None:
            return None
        shown = exercise_markup(current.kind, current.seed, self.lang, current.rules)
        state = current.shown_state()
        return {"id": current.id, "kind": current.kind, "seed": current.seed, "state": state,
                "seconds_left": seconds_left(current), "heading": shown["heading"], "intro": shown["intro"],
                "task": shown["task"], "answer": shown["answer"] if state == "revealed" else None,
                "state_words": {"open": _("Answers are open"), "closed": _("Time is up: no more answers"),
                                "revealed": _("The answer is shown on every screen")}[state],
                "next": start_form(self, kind_name=current.kind, seed=current.seed + 1,
                                   seconds=bell.chosen_seconds.get(current.id) or max(5, round(
                                       (current.deadline_at - current.started_at).total_seconds())))}


class ExercisePageHandler(_TeacherPage):
    """``GET class/exercise?key=K``: the projected view."""

    async def get(self) -> None:
        bell = bell_of(self)
        await bell.load()
        _ = Translator(self.lang)
        view = {"exercise": self.exercise_view(_, bell), "tally": self.tally_view(_, bell),
                "form": start_form(self), "stamp": bell.stamp(), "tally_stamp": bell.tally_stamp(),
                "script": _STATIC.joinpath("class_exercise.js").read_text(encoding="utf-8")}
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(self.render_part("class_exercise.html.j2", view))


class ExerciseDataHandler(_TeacherPage):
    """``GET class/exercise.json?key=K&after=S``: the answers counted, once they change (a long poll)."""

    async def get(self) -> None:
        bell = bell_of(self)
        await bell.wait_tally(self.get_argument("after", "")[:80])
        _ = Translator(self.lang)
        tally = self.tally_view(_, bell)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps({"stamp": bell.stamp(), "tally_stamp": bell.tally_stamp(),
                                "html": self.render_part("class_exercise_tally.html.j2", {"tally": tally}),
                                "given_html": self.render_part("class_exercise_given.html.j2", {"tally": tally})}))


class _ExercisePost(_BoardPost):
    def refused(self, status: int, words: str) -> None:
        _ = Translator(self.lang)
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(self.render_part("class_board_confirm.html.j2", {
            "title": _("The class exercise was not changed"), "paragraphs": [words], "back_class": None,
            "fields": {}, "confirm": True, "back": _("Back to the class exercise"),
            "back_href": self.board_address("exercise")}))


class ExerciseStartHandler(_ExercisePost):
    """``POST class/exercise/start``: start the exercise (the one running ends); a token already used starts
    nothing and goes to the exercise it started."""

    async def post(self) -> None:
        _ = Translator(self.lang)
        name = self.get_body_argument("kind", "")
        seed_text, seconds_text = self.get_body_argument("seed", "").strip(), self.get_body_argument("seconds", "")
        rules = server_rules(self)
        if name not in kinds_for(rules):
            self.refused(400, _("Choose a kind of exercise from the list."))
            return
        if not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 15):
            self.refused(400, _("An exercise number is a whole number, 0 or more."))
            return
        seconds_text = seconds_text.strip()
        if not (seconds_text.isascii() and seconds_text.isdigit() and 5 <= int(seconds_text[:4]) <= 600):
            self.refused(400, _("The countdown is from 5 to 600 seconds."))
            return
        try:
            as_rules(rules)
            started, _new = await self.database(self.store.start_exercise, self.get_body_argument("token", ""), name,
                                                int(seed_text), rules, int(seconds_text))
        except RecordsError as error:
            if error.code == "exercise_bad_token":
                self.refused(400, _("This form has expired: start the exercise again from the class board."))
                return
            raise web.HTTPError(503, str(error)[:200]) from None
        bell = bell_of(self)
        bell.chosen_seconds = {started.id: round((started.deadline_at - started.started_at).total_seconds())}
        await bell.changed()
        self.redirect(self.board_address("exercise"), status=303)


class ExerciseActHandler(_ExercisePost):
    """``POST class/exercise/act`` with ``exercise`` and ``action`` (``close``, ``reveal``, ``end``)."""

    async def post(self) -> None:
        _ = Translator(self.lang)
        action = self.get_body_argument("action", "")
        number = self.get_body_argument("exercise", "")
        if action not in ("close", "reveal", "end") or not (number.isascii() and number.isdigit()
                                                            and len(number) < 12):
            self.refused(400, _("This button does not belong to a class exercise."))
            return
        try:
            await self.database(self.store.change_exercise, int(number), action)
        except RecordsError as error:
            if error.code == "exercise_not_running":
                self.refused(409, _("Another exercise has been started since this page was shown (in another tab, "
                                    "or on another computer): nothing was changed."))
                return
            raise web.HTTPError(503, str(error)[:200]) from None
        await bell_of(self).changed()
        back = self.board_address() if action == "end" else self.board_address("exercise")
        self.redirect(back, status=303)


# ------------------------------------------------------------------------------------------ the students' kernels


class _KernelEndpoint(RecordHandler):
    """A kernel's request: from this machine, with its records token (as records_endpoint.RecordHandler)."""

    def owner(self):
        if self.settings.get("escoba_class_store") is None:
            self._refuse(404, "the class board is off: there is no class exercise")
        if not from_this_machine(self.request.remote_ip, self.settings.get("escoba_record_addresses", frozenset())):
            self._refuse(403, "the class exercise answers this machine's kernels only")
        owner = self.settings["escoba_register"].record_owner(self.request.headers.get(TOKEN_HEADER, ""))
        if owner is None:
            self._refuse(403, "no kernel holds this token")
        return owner

    def send(self, status: int, body: dict) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(body))


def student_state(bell: ExerciseBell, key: str) -> dict:
    """What a student's kernel is told: the exercise (no one's name, no one's answer) and whether this student
    has answered it."""
    current = bell.current
    exercise = None if current is None else {
        "id": current.id, "kind": current.kind, "seed": current.seed, "rules": current.rules,
        "state": current.shown_state(), "seconds_left": seconds_left(current)}
    answered = current is not None and key in bell.answered
    return {"stamp": bell.stamp(), "exercise": exercise, "answered": answered,
            "mine": _read_given(bell.answered.get(key)) if answered else None}


def _read_given(kept: str | None) -> Any:
    try:
        return json.loads(kept) if kept else None
    except ValueError:
        return None


def given_text(value: object) -> str | None:
    """The answer as given, as the database keeps it: JSON with its keys sorted (one answer, one text), or None."""
    shaped = given_answer(value)
    return None if shaped is None else json.dumps(shaped, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def given_answer(value: object) -> dict | None:
    """The answer as given, kept for the student's reloaded page: the drill model's ``built`` (lists of card
    codes), ``answers`` (texts) and ``choices`` (question -> option), small; anything else is not kept (the
    answer still counts: its judgement is what the class records)."""
    if not isinstance(value, dict) or set(value) - {"built", "answers", "choices"}:
        return None
    built, answers, choices = value.get("built", []), value.get("answers", []), value.get("choices", {})
    shaped = (isinstance(built, list) and all(isinstance(c, list) and all(isinstance(x, str) for x in c)
                                              for c in built)
              and isinstance(answers, list) and all(isinstance(a, str) for a in answers)
              and isinstance(choices, dict) and all(isinstance(c, str) for c in choices.values()))
    if not shaped or len(json.dumps(value)) > MAX_ANSWER_BYTES // 2:
        return None
    return {"built": built, "answers": answers, "choices": choices}


class ExerciseWaitHandler(_KernelEndpoint):
    """``GET class/exercise/wait?after=STAMP``: the running exercise, once it is not ``STAMP`` any more."""

    async def get(self) -> None:
        from ..records.events import nickname_key

        owner = self.owner()
        bell = bell_of(self)
        await bell.wait_state(self.get_argument("after", "")[:80])
        self.send(200, student_state(bell, nickname_key(owner.nickname)))


class ExerciseAnswerHandler(_KernelEndpoint):
    """``POST class/exercise/answer``: one student's answer to the running exercise."""

    async def post(self) -> None:
        from ..records.events import nickname_key

        owner = self.owner()
        log = self.settings["escoba_log"]
        if len(self.request.body) > MAX_ANSWER_BYTES:
            self._refuse(413, f"an answer is at most {MAX_ANSWER_BYTES} bytes")
        try:
            body = json.loads(self.request.body)
            if not isinstance(body, dict) or type(body.get("exercise")) is not int:
                raise ValueError("an answer names its exercise by number")
            said: dict[str, Any] = body  # every value is checked by event_row below
            event = DrillAnswer(owner.nickname, kind=said.get("kind"), seed=said.get("seed"),  # type: ignore[arg-type]
                                correct=said.get("correct"), mistake=said.get("mistake"),  # type: ignore[arg-type]
                                lesson="class", rules=said.get("rules"))
            event_row(event)
        except (ValueError, TypeError, RecordsError) as error:
            log.warning("refused a class exercise answer from kernel %s: %s", owner.kernel_id, str(error)[:200])
            self._refuse(400, str(error)[:200])
        if self.settings["escoba_register"].may_record(owner) is not None:
            self._refuse(429, "too many records a second")
        try:
            given = given_text(body.get("given"))
            await asyncio.get_running_loop().run_in_executor(WRITING, self.settings["escoba_class_store"]
                                                             .answer_exercise, body["exercise"], event, given)
        except RecordsError as error:
            if error.code.startswith("exercise_"):
                self.send(409, {"refused": error.code})
                return
            log.warning("a class exercise answer was not stored: %s", str(error)[:200])
            self._refuse(503, "the class database could not store the answer")
        bell_of(self).counted(body["exercise"], nickname_key(owner.nickname), event.correct,
                              None if event.correct else event.mistake, given)
        self.send(200, {"counted": True})


def teacher_handlers(base_url: str) -> list[tuple]:
    """The teacher's addresses of the class exercise (one computer's server; the hub's board service)."""
    return [(f"{base_url}{EXERCISE_PATH}", ExercisePageHandler),
            (f"{base_url}{EXERCISE_PATH}.json", ExerciseDataHandler),
            (f"{base_url}{EXERCISE_PATH}/start", ExerciseStartHandler),
            (f"{base_url}{EXERCISE_PATH}/act", ExerciseActHandler)]


def kernel_handlers(base_url: str) -> list[tuple]:
    """The kernels' addresses of the class exercise (one computer's server; a student's server on a hub)."""
    return [(f"{base_url}{EXERCISE_PATH}/wait", ExerciseWaitHandler),
            (f"{base_url}{EXERCISE_PATH}/answer", ExerciseAnswerHandler)]


def exercise_handlers(base_url: str) -> list[tuple]:
    """The class exercise's addresses under the server's base URL (one computer: the teacher's and the kernels')."""
    return teacher_handlers(base_url) + kernel_handlers(base_url)
