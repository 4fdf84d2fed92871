"""A class on one server: N students arrive within seconds of each other, open a lesson and play.

    nice -n 10 python benchmarks/load_class.py [--students 10,20,30] [--browsers 3] [--active 60]

For each N a fresh ``escoba-tutor`` server (no browser, ``--cull-idle 1``: one idle minute) is started and N
students arrive, evenly spread over ``--arrival`` seconds (10). Most of them are simulated at protocol level,
as the page does it (see ``_voila_bench.PageClient``): the HTTP GET of the Voilà page, then the kernel
websocket and the widget messages of a click. They take turns on three pages:

- ``es/play.ipynb`` and ``en/play.ipynb``: a game against the computer at level "medio" (greedy): the level
  chosen in the set-up and "New game" pressed, then a capture row chosen and "Play" pressed in turn, "Next
  deal" and "New game" when due, and now and then a look at the cards not seen yet;
- ``es/02-captures.ipynb``: the CaptureTable's rows chosen one after another, and now and then "Check".

A few (``--browsers``, 3) are real headless Chromium pages (Debian's ``/usr/bin/chromium``) on the capture
lesson, clicking its rows. Every student acts every ``--interval`` seconds (3). One Chromium on 2 cores draws
about ten pages slowly by itself, so the load is mostly protocol-level: the figure measures the server.

Printed per N: students in and when the last one was; the time until each page was usable (protocol: page,
websocket and every widget's state received; browser: the first cards drawn), p50/p95; click -> update while
all students are active (protocol: from sending the message to the kernel being idle again, its whole answer
in; browser: from the click to the answer in the DOM); the memory of the server's process tree (server and
kernels) at its peak, and per student above the idle server; errors (a page, a closed connection, an answer
that never came, an error message on the page, a traceback in the server log). Then everybody leaves and the
script watches culling bring the kernels and the memory down. The idle server it compares with is the server
just before the class (with ``--classes 2`` the second class comes to the server the first one left); once every
kernel has gone the server starts afresh in its own process (``TutorVoila.after_culling``). Targets (issue 8,
2 cores): 30 students all in within 60 s, no errors, p95 click -> update <= 300 ms, <= 90 MiB per student,
memory back to the idle server within the culling time (idle timeout plus the culler's interval, with 10 s of
slack: a kernel's last activity can come after its student left, and stopping kernels takes a few seconds).

The server runs with its class limits on, at their defaults (docs/classroom.md, "Limits"), and every student
comes from one address, 127.0.0.1, as a class behind a school's NAT does. With ``--hammer`` one of the N
students does not play but hammers while the others play: the 50-page loop (50 GETs of the play page, 10 at a
time, one round with the cookie of the student's browser and the next with none), and a page of its own that never
reads its socket while sending 1.9 MB widget updates that its kernel echoes back. The others' clicks and the
server's memory are then measured as usual, and what the hammering student got is printed.

With ``--board`` the class board is on and in use (docs/class-board.md): every student has a nickname (the
cookie the landing page's form sets), so every kernel records the pages opened, the captures checked and the deals
played into a SQLite class database of the run, and the teacher's board is open all the time, fetching its live
part every 2.5 s as the page does. Printed besides: the board's refreshes and their time, and the students it
shows at the end. Without ``--board`` the server runs with ``--no-class-board`` (nothing recorded, no board), so
the two runs' click p95 and memory per student compare the class with and without it.

With ``--exercise`` (the board on, as with ``--board``) the class plays class exercises in the second and fourth
quarters of the active time (docs/classroom.md, "One exercise for the whole class"): every protocol student has the
class exercise page open as well (``<lang>/class.ipynb``, a second tab: its kernel holds the exercise's long poll), and
the teacher starts a "who wins the game" exercise every 15 s in those quarters, reveals its answer 10 s in, and has the
projected view open (its long poll of the count, and the page again after each button, as the browser follows the
redirect); each student answers each exercise on that page 1 to 8 s after it arrives (a choice in the select, then
"Check": the kernel judges it and sends it to the server, which counts it). Printed: the class's clicks on their lesson
pages (the same students, the same pages) p50 / p95 in the quarters without an exercise and in those with one, and their
ratio (the target: within 10 %), with the load average at the end of the last quarter of each kind. The quarters
alternate so that what grows as a class goes on (games under way, kernels) weighs on both kinds alike. ``--control``
starts no exercise at all: the ratio that chance alone gives on this machine. Also printed: the exercises started, the
answers sent and counted, the projector's updates.

With ``--pool`` each class size is run twice, on a fresh server each time: without a kernel pool (``--class-size
0``) and with one the size of the class (``--class-size N``, its kernels made ready before the class comes); both are
printed side by side with their ratios (usable page p50/p95, click p95, CPU per student start, the idle server with
its pool, memory per student counted from the server alone).

With ``--hub`` the class comes through a real JupyterHub instead (``_hub_bench.py``): each student logs in at the
hub, which starts the student's own course server; there are no Chromium students, memory is the hub's whole
tree, and culling is the hub's idle culler stopping every student's server. With ``--hub --ahead`` the teacher starts
the class's servers first (``escoba-tutor hub-start-class``), and the students log in to running servers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from _voila_bench import (
    CHROMIUM,
    ERROR_TEXT,
    FIRST_IN_VIEW,
    LAUNCH_ARGS,
    ROOT,
    PageClient,
    PageError,
    load_average,
    percentile,
    rss_mib,
    tutor_server,
    widget_outputs,
)

BUTTONS = ("ButtonModel", "AnyModel")  # ipywidgets' buttons, and the course's ActionButton (an anywidget)
PAGES = ["voila/render/es/play.ipynb", "voila/render/es/02-captures.ipynb", "voila/render/en/play.ipynb"]
BROWSER_PAGE = "voila/render/es/02-captures.ipynb"
CAPTIONS = ("Todas las bazas posibles", "Every legal capture")
TARGETS = {"all_in_s": 60, "click_p95_ms": 300, "mib_per_student": 90}

# Times a browser click: the click event (capture phase) to the first DOM state where the capture table's status
# line reads the chosen row; window.__result resolves to the milliseconds between them, -1 after 30 s.
ARM = """(rowId) => {
  const table = document.querySelector(".escoba-capture-table");
  const done = () => {
    const row = table.querySelector(`tr[data-id="${CSS.escape(rowId)}"]`);
    const live = table.querySelector(".et-live");
    return row && live && live.textContent === row.getAttribute("aria-label");
  };
  window.__result = new Promise((resolve) => {
    let start = null;
    document.addEventListener("click", () => { start = performance.now(); }, { capture: true, once: true });
    const observer = new MutationObserver(() => {
      if (start !== null && done()) { observer.disconnect(); resolve(performance.now() - start); }
    });
    observer.observe(table, { subtree: true, childList: true, characterData: true, attributes: true });
    setTimeout(() => { observer.disconnect(); resolve(-1); }, 30000);
  });
}"""


@dataclass
class Student:
    number: int
    page: str
    browser: bool
    arrive_at: float  # seconds after the class started
    usable_s: float | None = None  # from arriving to a usable page
    clicks: list[tuple[float, float, str]] = field(default_factory=list)  # (when, seconds, what)
    errors: list[str] = field(default_factory=list)


async def pause(stop: asyncio.Event, seconds: float) -> None:
    """Wait this long, or less if the class ends."""
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(stop.wait(), max(0.0, seconds))


# ---------------------------------------------------------------------------------------- what students do
class GamePlayer:
    """A game against "medio" on the play page; ``next_action()`` is what the student does next."""

    def __init__(self, page: PageClient, rng: random.Random) -> None:
        self.page, self.rng = page, rng
        self.play = self._one(_model_name=BUTTONS, icon="play")
        self.new_game = self._one(_model_name=BUTTONS, icon="refresh")
        self.seen = self._one(_model_name="ToggleButtonModel", icon="eye")
        self.picker = self._one(caption=CAPTIONS)
        self.next_deal = self._one(_model_name=BUTTONS, description=("Siguiente mano", "Next deal"))
        levels = [(model_id, labels.index(name)) for model_id in page.find(_model_name="DropdownModel")
                  for labels in [page.models[model_id]["_options_labels"]] for name in ("medio", "medium")
                  if name in labels]
        if not levels:
            raise PageError(f"{page.path}: no level «medio» to choose")
        self.todo = [("level medio", page.update, levels[0][0], {"index": levels[0][1]}),
                     ("new game", page.click, self.new_game)]
        self.chosen = False
        self.waited = 0
        self.steps = 0

    def _one(self, **wanted) -> str:
        found = self.page.find(**wanted)
        if not found:
            raise PageError(f"{self.page.path}: no widget with {wanted}")
        return found[0]

    def next_action(self):
        if self.todo:
            return self.todo.pop(0)
        self.steps += 1
        models, page = self.page.models, self.page
        if self.steps % 6 == 0:  # now and then, a look at the cards not seen yet
            return ("cards not seen", page.update, self.seen, {"value": not models[self.seen]["value"]})
        if page.layout_display(self.next_deal) not in ("", "none"):
            self.waited = 0
            return ("next deal", page.click, self.next_deal)
        if models[self.play]["disabled"]:
            self.waited += 1
            if self.waited >= 3:  # not our turn three times running: the game is over
                self.waited = 0
                return ("new game", page.click, self.new_game)
            return ("cards not seen", page.update, self.seen, {"value": not models[self.seen]["value"]})
        self.waited = 0
        rows = models[self.picker]["rows"]
        if not self.chosen and rows:
            self.chosen = True
            return ("choose a capture", page.update, self.picker, {"selected": self.rng.choice(rows)["id"]})
        self.chosen = False
        return ("play", page.click, self.play)


class CapturePicker:
    """The capture lesson: the CaptureTable's rows chosen in turn, "Check" now and then."""

    def __init__(self, page: PageClient, rng: random.Random) -> None:
        self.page = page
        pickers = page.find(caption=CAPTIONS)
        checks = page.find(_model_name=BUTTONS, icon="check")
        if not pickers or not checks:
            raise PageError(f"{page.path}: no capture table")
        self.picker, self.check = pickers[0], checks[0]
        self.steps = rng.randrange(10)

    def next_action(self):
        self.steps += 1
        if self.steps % 5 == 0:
            return ("check", self.page.click, self.check)
        rows = self.page.models[self.picker]["rows"]
        return ("choose a capture", self.page.update, self.picker,
                {"selected": rows[self.steps % len(rows)]["id"]})


def nickname_cookie(student: Student) -> dict[str, str]:
    """The cookie the landing page's nickname form sets (``--board``): «Alumno 7»."""
    return {"escoba_nickname": quote(f"Alumno {student.number}")}


async def protocol_student(student: Student, base: str, start: float, stop: asyncio.Event, interval: float,
                           entry_timeout: float, seed: int, log_in=None, nickname: bool = False) -> None:
    rng = random.Random(seed)
    await asyncio.sleep(max(0.0, start + student.arrive_at - time.monotonic()))
    lesson = ROOT / "lessons" / student.page.split("render/")[1]
    page = PageClient(base, student.page, views=widget_outputs(lesson),
                      cookies=nickname_cookie(student) if nickname else None)
    try:
        try:  # a page whose kernel died while Voilà drew it never ends: the student gives up
            arrived = time.monotonic()
            if log_in is not None:  # --hub: the hub's login, and the student's own server started
                base, cookies = await asyncio.wait_for(log_in(student.number, student.page), entry_timeout)
                page = PageClient(base, student.page, views=widget_outputs(lesson), cookies=cookies)
            logged_in_s = time.monotonic() - arrived
            times = await asyncio.wait_for(page.open(), entry_timeout)
        except asyncio.TimeoutError:
            raise PageError(f"{student.page}: not usable after {entry_timeout:.0f} s") from None
        student.usable_s = logged_in_s + times["usable_s"]
        behaviour = (GamePlayer if "play" in student.page else CapturePicker)(page, rng)
        await asyncio.sleep(rng.uniform(0, interval))
        while not stop.is_set():
            what, send, *arguments = behaviour.next_action()
            when = time.monotonic() - start
            student.clicks.append((when, await send(*arguments), what))
            if page.errors:
                break
            await pause(stop, when + interval - (time.monotonic() - start))
    except (PageError, OSError) as error:
        student.errors.append(str(error))
    except Exception as error:  # noqa: BLE001 - any failure is an error this student saw
        student.errors.append(f"{student.page}: {error!r}")
    finally:
        student.errors += page.errors
        await page.close()


async def browser_student(student: Student, browser, base: str, start: float, stop: asyncio.Event,
                          interval: float, entry_timeout: float, logs: Path | None, nickname: bool = False) -> None:
    await asyncio.sleep(max(0.0, start + student.arrive_at - time.monotonic()))
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    if nickname:
        await context.add_cookies([{"name": name, "value": value, "url": base}
                                   for name, value in nickname_cookie(student).items()])
    page = await context.new_page()
    page.set_default_timeout(entry_timeout * 1000)
    page.on("pageerror", lambda error: student.errors.append(f"browser: {error}"))
    console = []
    page.on("console", lambda m: console.append(f"{time.monotonic() - start:.1f} {m.type}: {m.text}"))
    try:
        await page.goto(base + student.page, wait_until="commit")
        first_ms = await (await page.wait_for_function(FIRST_IN_VIEW, arg=".escoba-capture-table [data-code]",
                                                       polling=50)).json_value()
        student.usable_s = first_ms / 1000
        table = page.locator(".escoba-capture-table").first
        await table.locator("tr[data-id]").first.wait_for()
        step = 0
        while not stop.is_set():
            rows = await table.locator("tr[data-id]").evaluate_all("(rows) => rows.map((r) => r.dataset.id)")
            selected = await table.locator("tr[aria-selected=true]").evaluate_all(
                "(rows) => rows.map((r) => r.dataset.id)")
            choices = [row for row in rows if row not in selected]
            row_id = choices[step % len(choices)]
            step += 1
            when = time.monotonic() - start
            await page.evaluate(ARM, row_id)
            await table.locator(f"tr[data-id={json.dumps(row_id)}]").click()
            ms = await page.evaluate("window.__result")
            if ms < 0:
                student.errors.append("browser: a click got no answer in 30 s")
                break
            student.clicks.append((when, ms / 1000, "choose a capture (browser)"))
            await pause(stop, when + interval - (time.monotonic() - start))
        text = await page.locator("body").inner_text()
        if ERROR_TEXT.search(text):
            student.errors.append(f"browser: the page shows {ERROR_TEXT.search(text).group(0)!r}")
    except Exception as error:  # noqa: BLE001 - any failure is an error this student saw
        student.errors.append(f"browser: {error!r}"[:300])
        if logs is not None:  # what that student saw, for the post-mortem
            with contextlib.suppress(Exception):
                logs.mkdir(parents=True, exist_ok=True)
                await page.screenshot(path=logs / f"student-{student.number}.png")
                (logs / f"student-{student.number}-console.txt").write_text("\n".join(console))
    finally:
        with contextlib.suppress(Exception):  # leaving a broken page is not a new error
            await page.goto("about:blank")  # Voilà's close beacon: the server stops the kernel
        await context.close()


# ------------------------------------------------------------------------------------------ the class board
@dataclass
class BoardWatch:
    """The teacher's board during the class (``--board``): each refresh's time, and what it showed last."""

    refreshes: list[float] = field(default_factory=list)  # seconds each
    students_shown: int = 0
    errors: list[str] = field(default_factory=list)


async def watch_board(server, stop: asyncio.Event, watch: BoardWatch) -> None:
    """The board's page once, then its live part every 2.5 s, as the page's script fetches it."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError

    found = re.search(r"class/board\?key=([A-Za-z0-9_-]+)", server.log_tail(10_000_000))
    if found is None:
        watch.errors.append("the server printed no teacher's link")
        return
    client, key = AsyncHTTPClient(), found.group(1)
    try:
        await client.fetch(f"{server.url}class/board?key={key}", request_timeout=60)
        while not stop.is_set():
            began = time.monotonic()
            answer = await client.fetch(f"{server.url}class/board.json?key={key}", request_timeout=60)
            watch.refreshes.append(time.monotonic() - began)
            watch.students_shown = json.loads(answer.body)["html"].count('class="nickname"')
            await pause(stop, 2.5)
    except (HTTPClientError, OSError) as error:
        watch.errors.append(f"board: {error}"[:200])


# ------------------------------------------------------------------------------------------ the class exercise
EXERCISE_PAGES = ("voila/render/es/class.ipynb", "voila/render/en/class.ipynb")
EXERCISE_KIND = "game_end"  # answered with one select and "Check"
EXERCISE_ROUND_S = 15.0     # a new exercise this often while the exercise runs
EXERCISE_REVEAL_S = 10.0    # its answer shown this long after it started
EXERCISE_ANSWER_S = (1.0, 8.0)  # a student answers this long after the exercise reached the page


@dataclass
class ExerciseRun:
    """The class exercise in the second and fourth quarters (``--exercise``): what the teacher, the projector and
    the students' class pages did."""

    go: asyncio.Event = field(default_factory=asyncio.Event)  # set while the teacher leads exercises
    window_end: float = 0.0         # when the quarter with exercises ends (monotonic): no start too close to it
    quarters: list[tuple[float, float, bool]] = field(default_factory=list)  # (from, to, with exercises), run time
    pages: int = 0                  # class exercise pages open
    started: int = 0                # exercises started
    starts: list[float] = field(default_factory=list)  # when each started (monotonic)
    reveals: list[float] = field(default_factory=list)  # when each answer was shown (monotonic)
    answers: int = 0                # answers the students sent ("Check" pressed)
    checks: list[float] = field(default_factory=list)  # seconds each "Check" took (the kernel's whole answer)
    counted: int = 0                # answers the projector counted, over every exercise
    projector_updates: int = 0      # the projector's long poll answered with a new count
    errors: list[str] = field(default_factory=list)


async def exercise_student(student: Student, base: str, start: float, stop: asyncio.Event, run: ExerciseRun,
                           entry_timeout: float, seed: int) -> None:
    """The student's class exercise page, open beside the lesson: each new exercise answered once, 1 to 8 s after it
    arrived, with a choice in its select and "Check"."""
    rng = random.Random(seed)
    await asyncio.sleep(max(0.0, start + student.arrive_at - time.monotonic()) + 1.0)
    path = EXERCISE_PAGES[student.number % len(EXERCISE_PAGES)]
    page = PageClient(base, path, views=1, cookies=nickname_cookie(student))
    # The next exercise reuses the page's drill (the same "Check" button): a button answered is ready again once
    # it has been seen disabled (the answer in, or the time up) and is then enabled by the next exercise.
    answered: set[str] = set()
    try:
        await asyncio.wait_for(page.open(), entry_timeout)
        run.pages += 1
        while not stop.is_set():
            answered -= {c for c in answered if c in page.models and page.models[c].get("disabled")}
            ready = [c for c in page.find(_model_name=BUTTONS, icon="check") if not page.models[c].get("disabled")]
            checks = [c for c in ready if c not in answered]
            if not checks:
                await pause(stop, 0.3)
                continue
            await pause(stop, rng.uniform(*EXERCISE_ANSWER_S))
            if stop.is_set():
                break
            check = checks[0]
            answered.add(check)
            selects = [m for m in page.find(_model_name="DropdownModel")
                       if not page.models[m].get("disabled") and len(page.models[m].get("_options_labels", ())) > 1]
            if check not in page.models or page.models[check].get("disabled") or not selects:
                continue  # the exercise ended, or its time ran out, meanwhile
            await page.update(selects[0], {"index": rng.randrange(1, len(page.models[selects[0]]["_options_labels"]))})
            run.checks.append(await page.click(check))
            run.answers += 1
    except asyncio.TimeoutError:
        run.errors.append(f"student {student.number}: the class exercise page was not usable in {entry_timeout:.0f} s")
    except (PageError, OSError) as error:
        run.errors.append(f"student {student.number}: {error}"[:200])
    finally:
        run.errors += [f"student {student.number}: {e}"[:200] for e in page.errors]
        await page.close()


async def lead_exercises(server, stop: asyncio.Event, run: ExerciseRun) -> None:
    """The teacher, once ``run.go`` is set: the projected view open, an exercise started every 15 s and its answer
    revealed 10 s in (the forms' POSTs, each followed by the page, as the browser follows the redirect)."""
    from tornado.httpclient import AsyncHTTPClient, HTTPClientError

    found = re.search(r"class/board\?key=([A-Za-z0-9_-]+)", server.log_tail(10_000_000))
    if found is None:
        run.errors.append("the server printed no teacher's link")
        return
    client, key = AsyncHTTPClient(), found.group(1)
    page_url = f"{server.url}class/exercise?key={key}"
    try:
        first = await client.fetch(page_url, request_timeout=60)
        cookie = next(c.split(";", 1)[0] for c in first.headers.get_list("Set-Cookie") if c.startswith("_xsrf="))
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', first.body.decode()).group(1)
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}

        async def post(path: str, **fields: str) -> None:
            body = "&".join(f"{k}={quote(v)}" for k, v in {"_xsrf": xsrf, "key": key, **fields}.items())
            answer = await client.fetch(f"{server.url}class/exercise/{path}", method="POST", body=body,
                                        headers=headers, follow_redirects=False, raise_error=False,
                                        request_timeout=60)
            if answer.code != 303:
                raise OSError(f"the projected view's {path} answered {answer.code}")
            await client.fetch(page_url, headers={"Cookie": cookie}, request_timeout=60)

        async def projector() -> None:
            after = ""
            while not stop.is_set():
                answer = await client.fetch(f"{server.url}class/exercise.json?key={key}&after={quote(after)}",
                                            request_timeout=60)
                after = json.loads(answer.body)["tally_stamp"]
                run.projector_updates += 1

        watching = asyncio.ensure_future(projector())
        seed = 0
        while not stop.is_set():
            # an exercise starts only in a quarter with exercises, and only if its whole round (start, answers,
            # reveal) fits in what is left of the quarter
            if not run.go.is_set() or run.window_end - time.monotonic() < EXERCISE_ROUND_S - 1:
                await pause(stop, 0.1)
                continue
            began = time.monotonic()
            seed += 1
            run.starts.append(time.monotonic())
            await post("start", token=uuid.uuid4().hex, kind=EXERCISE_KIND, seed=str(seed), seconds="60")
            run.started += 1
            await pause(stop, EXERCISE_REVEAL_S)
            exercise = json.loads((await client.fetch(f"{server.url}class/exercise.json?key={key}&after=",
                                                      request_timeout=60)).body)["tally_stamp"]
            number, _state_count = exercise.split("-", 1)
            run.counted += int(exercise.rsplit(".", 1)[1])
            if stop.is_set():
                break
            run.reveals.append(time.monotonic())
            await post("act", exercise=number, action="reveal")
            await pause(stop, began + EXERCISE_ROUND_S - time.monotonic())
        watching.cancel()
    except (HTTPClientError, OSError, AttributeError, StopIteration, ValueError) as error:
        run.errors.append(f"teacher: {error!r}"[:200])


# ------------------------------------------------------------------------------------- one student hammering
@dataclass
class Hammer:
    """What the hammering student got: pages by HTTP status, and slow-reader connections the server dropped."""

    statuses: dict[int, int] = field(default_factory=dict)
    rounds: int = 0
    slow_sent_mib: float = 0.0
    slow_dropped: int = 0
    errors: list[str] = field(default_factory=list)


async def hammer_pages(base: str, stop: asyncio.Event, hammer: Hammer) -> None:
    """The 50-page loop: 50 GETs of the play page, 10 at a time, as a script does it: one round with the cookie
    of the student's browser, the next with no cookie at all (``curl`` in a shell loop); again until the class
    ends."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    client = AsyncHTTPClient()
    url = base + "voila/render/es/play.ipynb"

    async def one(cookies: dict[str, str] | None) -> None:
        """One GET; ``cookies`` (None: thrown away) keeps what the server sets."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
        response = await client.fetch(HTTPRequest(url, headers=headers, request_timeout=300,
                                                  follow_redirects=False), raise_error=False)
        if cookies is not None:
            for cookie in response.headers.get_list("Set-Cookie"):
                name, _, value = cookie.split(";")[0].partition("=")
                cookies[name.strip()] = value
        hammer.statuses[response.code] = hammer.statuses.get(response.code, 0) + 1

    jar: dict[str, str] = {}  # the student's one browser (or a script with a cookie jar)
    await one(jar)  # the first visit gets the server's cookie
    while not stop.is_set():
        cookies = jar if hammer.rounds % 2 == 0 else None
        for _batch in range(5):
            await asyncio.gather(*(one(cookies) for _ in range(10)))
            if stop.is_set():
                return
        hammer.rounds += 1
        await pause(stop, 5)


async def hammer_slow_reader(base: str, stop: asyncio.Event, hammer: Hammer) -> None:
    """A page of its own whose socket is never read, while it sends 1.9 MB widget updates that its kernel echoes
    back (a button's description); when the server drops the connection, a new one, until the class ends."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    page = PageClient(base, "voila/render/es/play.ipynb")
    try:
        await page.open()
        button = page.find(_model_name="ButtonModel")[0]
        await page.close()
        url = base.replace("http", "ws", 1) + f"api/kernels/{page.kernel_id}/channels?session_id=slow"
        cookie = "; ".join(f"{k}={v}" for k, v in page.cookies.items())
        def big() -> str:  # a new message each time (its own id): the server drops a message sent twice
            return json.dumps(page._message("comm_msg", {"comm_id": button, "data": {
                "method": "update", "buffer_paths": [], "state": {"description": "x" * 1_900_000}}}))

        while not stop.is_set():
            connection = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookie}))
            try:
                while not stop.is_set():
                    update = big()
                    await connection.write_message(update)
                    hammer.slow_sent_mib += len(update) / 2**20
                    await asyncio.sleep(0.2)
            except Exception:  # noqa: BLE001 - the server dropped this page: what the limit is for
                hammer.slow_dropped += 1
            finally:
                connection.close()
            await pause(stop, 1)
    except Exception as error:  # noqa: BLE001 - reported with the figures
        hammer.errors.append(f"slow reader: {error!r}"[:200])


# ------------------------------------------------------------------------------------------------ --attack
@dataclass
class Attack:
    """What an attack got (pages by HTTP status, messages sent) and what newcomers saw before and during it."""

    kind: str
    statuses: dict[int, int] = field(default_factory=dict)
    sent: int = 0
    newcomers: list[tuple[float, float]] = field(default_factory=list)  # (when, seconds until usable)
    refused_newcomers: int = 0
    errors: list[str] = field(default_factory=list)


ATTACKER = "127.0.0.2"  # the script's own address: another machine than the class's 127.0.0.1


async def attack_gone_pages(base: str, stop: asyncio.Event, attack: Attack, number: int) -> None:
    """One of three browsers: a play page, 900 requests for every widget's state (about 370 kB an answer) on the
    widget control comm, and the socket closed without reading; again with a new page until the attack ends."""
    # (views=-1: the attack needs the kernel, not the page's widget outputs)
    page = PageClient(base, "voila/render/es/play.ipynb", source=f"127.0.0.{3 + number}", views=-1)
    while not stop.is_set():
        try:
            await page.open()
            control = uuid.uuid4().hex
            await page._connection.write_message(json.dumps(page._message(
                "comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
                metadata={"version": "1.0.0"})))
            for _ in range(900):
                await page._connection.write_message(json.dumps(page._message(
                    "comm_msg", {"comm_id": control, "data": {"method": "request_states"}})))
                attack.sent += 1
            attack.statuses[200] = attack.statuses.get(200, 0) + 1
        except PageError as error:
            code = re.search(r"HTTP (\d+)", str(error))
            attack.statuses[int(code.group(1)) if code else 0] = attack.statuses.get(int(code.group(1)) if code
                                                                                      else 0, 0) + 1
        except Exception as error:  # noqa: BLE001 - the server dropped the connection: reported
            attack.errors.append(f"gone page: {error!r}"[:160])
        finally:
            await page.close()
        page = PageClient(base, "voila/render/es/play.ipynb", source=f"127.0.0.{3 + number}", views=-1,
                          cookies=getattr(page, "cookies", None))  # the same browser, a new page
        await pause(stop, 5)


async def attack_fresh_cookies(base: str, stop: asyncio.Event, attack: Attack) -> None:
    """A script from its own address: 5 pages at a time, each with a new cookie (the first visit's redirect
    taken, then the page), never connecting, asking about each kernel every 20 s to hold it."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    client = AsyncHTTPClient()
    url = base + "voila/render/es/play.ipynb"
    held: list[tuple[str, dict[str, str]]] = []

    async def one() -> None:
        cookies: dict[str, str] = {}
        for _visit in range(2):
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
            response = await client.fetch(HTTPRequest(url, headers=headers, request_timeout=300,
                                                      follow_redirects=False, network_interface=ATTACKER),
                                          raise_error=False)
            for cookie in response.headers.get_list("Set-Cookie"):
                name, _, value = cookie.split(";")[0].partition("=")
                cookies[name.strip()] = value
            if response.code not in (301, 302):
                break
        attack.statuses[response.code] = attack.statuses.get(response.code, 0) + 1
        found = re.search(r'"kernelId": *"([0-9a-f-]+)"', (response.body or b"").decode(errors="replace"))
        if found:
            held.append((found.group(1), cookies))

    async def poll() -> None:
        while not stop.is_set():
            for kernel_id, cookies in list(held):
                response = await client.fetch(HTTPRequest(
                    base + f"api/kernels/{kernel_id}", network_interface=ATTACKER,
                    headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}), raise_error=False)
                if response.code == 404:
                    held.remove((kernel_id, cookies))
            await pause(stop, 20)

    poller = asyncio.ensure_future(poll())
    while not stop.is_set():
        await asyncio.gather(*(one() for _ in range(5)))
        await pause(stop, 1)
    await poller


async def newcomers(base: str, stop: asyncio.Event, attack: Attack, start: float) -> None:
    """A new student of the class (127.0.0.1) every 8 s: the capture lesson opened until usable, then left."""
    while not stop.is_set():
        page = PageClient(base, "voila/render/es/02-captures.ipynb",
                          views=widget_outputs(ROOT / "lessons" / "es" / "02-captures.ipynb"))
        when = time.monotonic() - start
        try:
            times = await asyncio.wait_for(page.open(), 120)
            attack.newcomers.append((when, times["usable_s"]))
        except Exception:  # noqa: BLE001 - a refused or failed newcomer is counted
            attack.refused_newcomers += 1
        finally:
            await page.close()
        await pause(stop, 8)


# ----------------------------------------------------------------------------------------------- one class
AFRESH_S = 10  # the time a server takes to start afresh, with some slack
# --ahead: the servers are kept (hub-start-class --until) this long after the teacher starts them, per student at
# least (about the time the start takes on 2 cores), so that the first ones are not culled before the class comes
AHEAD_KEEP_S, AHEAD_KEEP_PER_STUDENT_S = 120, 8
POOL_REFILL_S = 180  # with a pool: the fresh server fills it again before its memory is the idle server's
POOL_BACK_MIB = 1  # per pooled kernel: a refilled pool's kernels differ from the first ones by a little
BACK_MIB = 2  # "back to the idle server": at most this many MiB above it (below it counts: a fresh process is smaller)


async def classes(n: int, args, folder: Path, pool: int | None = None) -> list[dict]:
    """``args.classes`` classes of ``n`` one after another on one server, started for them; ``pool``: the server's
    ``--class-size`` (None: its default), its pool filled before the class comes."""
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=200)  # the default 10 would queue the students' GETs
    settings: dict | None = {"VoilaExecutor": {"iopub_timeout": args.iopub_timeout}} if args.iopub_timeout else None
    if args.starting:
        settings = {**(settings or {}), "TutorVoila": {"max_starting_kernels": args.starting}}
    if args.hub:
        from _hub_bench import HubServer

        server = HubServer(folder, args.cull_idle, students=n if args.ahead else 0)
    else:
        board = (["--class-db", str(folder / f"class-{n}.sqlite3")] if args.board else ["--no-class-board"])
        sized = ["--class-size", str(pool)] if pool is not None else []
        server = tutor_server(folder, "--cull-idle", str(args.cull_idle), *board, *sized, voila_json=settings)
    results: list[dict] = []
    try:
        started = time.monotonic()
        server.wait()
        await asyncio.sleep(3)  # the server settles
        ahead: dict = {}
        if args.ahead:  # the teacher starts the class's servers; the lesson starts a few minutes later
            from datetime import datetime, timedelta, timezone

            keep_s = max(AHEAD_KEEP_S, AHEAD_KEEP_PER_STUDENT_S * n)
            until = datetime.now(timezone.utc) + timedelta(seconds=keep_s)
            # the class's memory is counted from the idle hub, before its servers; culling waits for the kept time
            server.idle_mib, server.kept_until = server.tree_rss_mib(), time.monotonic() + keep_s
            cpu, load = server.tree_cpu_s(), load_average()
            seconds, outcomes = await asyncio.get_running_loop().run_in_executor(
                None, server.start_ahead, args.ahead_parallel, until)
            ahead = {"seconds": seconds, "cpu_s": server.tree_cpu_s() - cpu, "load_before": load,
                     "started": sum(o.status == "started" for o in outcomes),
                     "failed": [f"{o.name}: {o.reason}" for o in outcomes if o.status == "failed"],
                     "parallel": args.ahead_parallel}
            print(f"  started ahead: {ahead['started']}/{n} servers in {seconds:.0f} s, {args.ahead_parallel} at a "
                  f"time ({ahead['cpu_s']:.0f} CPU s; load {load} before, {load_average()} after)", flush=True)
            await asyncio.sleep(5)  # the servers settle, as they would before a lesson
        filled = await pool_filled(server, pool or 0)
        for number in range(1, args.classes + 1):
            result = await one_class(n, args, server, number, pool or 0)
            result["pool_fill"] = filled if number == 1 else None
            result["server_start_s"] = time.monotonic() - started
            if ahead:
                result["ahead"] = ahead
            results.append(result)
    finally:
        server.stop()
        if args.logs:
            args.logs.mkdir(parents=True, exist_ok=True)
            (args.logs / f"server-{n}-students.log").write_bytes(server.log_path.read_bytes())
    return results


async def pool_filled(server, pool: int, timeout: float = 300) -> dict | None:
    """Wait until the server's pool holds ``pool`` kernels, all answering (its log says so), and a few seconds
    more; the seconds and CPU seconds it took from now (the server and kernels: CPU from its start), or None."""
    if pool <= 0:
        return None
    start, deadline = time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(server.kernels()) >= pool and "kernels ready for arriving pages" in server.log_tail(10_000_000):
            break
        await asyncio.sleep(0.5)
    else:
        raise TimeoutError(f"the pool of {pool} did not fill in {timeout} s: {server.log_tail()}")
    waited = time.monotonic() - start
    await asyncio.sleep(3)  # the pool's kernels settle
    return {"kernels": len(server.kernels()), "s": waited, "cpu_s": server.tree_cpu_s()}


async def one_class(n: int, args, server, number: int, pool: int = 0) -> dict:
    """One class on a running, idle server (its pool, if it has one, full): arrive, play, leave, culled."""
    result: dict = {"students": n, "class": number, "load_before": load_average(), "pool": pool}
    log_from = len(server.log_tail(10_000_000))
    browser_numbers = set()
    if args.browsers and n:
        count = min(args.browsers, n)
        browser_numbers = {int((i + 0.5) * n / count) for i in range(count)}
    students = [Student(i, BROWSER_PAGE if i in browser_numbers else PAGES[i % len(PAGES)], i in browser_numbers,
                        args.arrival * i / max(1, n - 1)) for i in range(n)]
    if args.hammer:  # the last student hammers instead of playing: the others are measured
        students = [s for s in students if s.number != n - 1 or s.browser]
    playwright = browser = None
    try:
        baseline, cpu_before = getattr(server, "idle_mib", None) or server.tree_rss_mib(), server.tree_cpu_s()
        if browser_numbers:
            from playwright.async_api import async_playwright

            playwright = await async_playwright().start()
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        stop = asyncio.Event()
        start = time.monotonic()
        samples: list[tuple[float, float, int]] = []  # (when, tree RSS MiB, kernels)
        own: list[tuple[float, float]] = []  # (when, the server process's own RSS MiB)
        own_idle = rss_mib(server.process.pid)
        afresh_before = server.log_tail(10_000_000).count("starting afresh")
        filled_before = server.log_tail(10_000_000).count("kernels ready for arriving pages")

        async def sample() -> None:
            while not stop.is_set():
                samples.append((time.monotonic() - start, server.tree_rss_mib(), len(server.kernels())))
                own.append((time.monotonic() - start, rss_mib(server.process.pid)))
                await pause(stop, 2)

        sampler = asyncio.ensure_future(sample())
        tasks = [asyncio.ensure_future(
            browser_student(s, browser, server.url, start, stop, args.interval, args.entry_timeout, args.logs,
                            nickname=args.board)
            if s.browser else
            protocol_student(s, server.url, start, stop, args.interval, args.entry_timeout, seed=1000 * n + s.number,
                             log_in=getattr(server, "log_in", None), nickname=args.board))
            for s in students]
        board = BoardWatch()
        if args.board:
            tasks.append(asyncio.ensure_future(watch_board(server, stop, board)))
        exercise = ExerciseRun()
        if args.exercise:
            tasks += [asyncio.ensure_future(exercise_student(s, server.url, start, stop, exercise, args.entry_timeout,
                                                             seed=2000 * n + s.number))
                      for s in students if not s.browser]
            tasks.append(asyncio.ensure_future(lead_exercises(server, stop, exercise)))
        deadline = args.arrival + args.entry_timeout
        while time.monotonic() - start < deadline:  # until everybody is in, or has failed, or time is up
            if all(s.usable_s is not None or s.errors for s in students):
                break
            await asyncio.sleep(0.5)
        cpu_entry = server.tree_cpu_s() - cpu_before
        entered = [s for s in students if s.usable_s is not None]
        all_in = max((s.arrive_at + s.usable_s for s in entered), default=float("nan"))
        active_from = time.monotonic() - start
        print(f"  N={n}: {len(entered)}/{len(students)} in, the last {all_in:.1f} s after the first arrived; "
              f"all active for {args.active} s (load {load_average()})", flush=True)
        hammer = Hammer()
        hammering = [asyncio.ensure_future(hammer_pages(server.url, stop, hammer)),
                     asyncio.ensure_future(hammer_slow_reader(server.url, stop, hammer))] if args.hammer else []
        attack, attack_from = Attack(args.attack or ""), None
        if args.attack:  # the first half quiet, then the attack: the same students' clicks before and during it
            hammering.append(asyncio.ensure_future(newcomers(server.url, stop, attack, start)))
            await asyncio.sleep(args.active / 2)
            attack_from = time.monotonic() - start
            own_before = max((mib for _when, mib in own), default=own_idle)
            if args.attack == "gone-pages":
                hammering += [asyncio.ensure_future(attack_gone_pages(server.url, stop, attack, i)) for i in range(3)]
            else:
                hammering.append(asyncio.ensure_future(attack_fresh_cookies(server.url, stop, attack)))
            await asyncio.sleep(args.active / 2)
        elif args.exercise:
            # quarters without and with a class exercise in turn, the same students all along: what changes as a
            # class goes on (more games under way, bigger kernels) weighs on both kinds of quarter alike
            loads = {}
            for quarter in range(4):
                with_exercises, began = quarter % 2 == 1, time.monotonic()
                exercise.window_end = began + args.active / 4
                if with_exercises and not args.control:
                    exercise.go.set()
                else:
                    exercise.go.clear()
                await asyncio.sleep(args.active / 4)
                exercise.quarters.append((began - start, time.monotonic() - start, with_exercises))
                loads[with_exercises] = load_average()
            exercise.go.clear()
            load_without, load_with = loads[False], loads[True]
        else:
            await asyncio.sleep(args.active)
        active_to = time.monotonic() - start
        peak = max((rss for _when, rss, _k in samples), default=float("nan"))
        kernels_peak = max((k for _when, _rss, k in samples if active_from <= _when), default=0)
        stop.set()
        await asyncio.gather(*tasks, *hammering)
        await sampler
        left = time.monotonic()
        if browser is not None:
            await browser.close()
            await playwright.stop()
            browser = None
        # everybody has left: watch culling (the idle time, then up to one culler interval, and some slack)
        cull_limit = args.cull_idle * 60 + min(60, max(1, args.cull_idle * 60 // 2))
        cull_limit += round(max(0.0, getattr(server, "kept_until", 0.0) - left))  # --ahead: kept until the lesson
        after = []  # (seconds after leaving, tree RSS MiB, kernels), every second until the memory is back
        back_at = None
        own_back = None  # seconds after the attack until the server's own memory is near its level before it
        culled_at = None  # with a pool: when the server started afresh (every student's kernel gone)
        while time.monotonic() - left < cull_limit + 30 + (POOL_REFILL_S if pool else 0):
            await asyncio.sleep(1)
            after.append((time.monotonic() - left, server.tree_rss_mib(), len(server.kernels())))
            if args.attack and own_back is None and rss_mib(server.process.pid) - own_before <= 20:
                own_back = time.monotonic() - left
            if pool and culled_at is None and server.log_tail(10_000_000).count("starting afresh") > afresh_before:
                culled_at = after[-1][0]
            refilled = server.log_tail(10_000_000).count("kernels ready for arriving pages") > filled_before
            if pool and culled_at is not None and after[-1][2] >= pool and refilled and (
                    after[-1][1] - baseline <= BACK_MIB + POOL_BACK_MIB * pool):  # the fresh server's pool full
                back_at = after[-1][0]
                break
            if not pool and after[-1][2] == 0 and after[-1][1] - baseline <= BACK_MIB:  # not while it starts afresh
                back_at = after[-1][0]
                await asyncio.sleep(AFRESH_S)  # and it stays there
                after.append((time.monotonic() - left, server.tree_rss_mib(), len(server.kernels())))
                break
        log = server.log_tail(10_000_000)[log_from:]
    finally:
        if browser is not None:
            await browser.close()
            await playwright.stop()

    protocol_clicks = [s * 1000 for st in students if not st.browser for when, s, _w in st.clicks
                       if active_from <= when <= active_to]
    browser_clicks = [s * 1000 for st in students if st.browser for when, s, _w in st.clicks
                      if active_from <= when <= active_to]
    usable = [s.usable_s for s in entered]
    errors = [f"student {s.number} ({s.page}): {e}" for s in students for e in s.errors]
    tracebacks = log.count("Traceback")
    if tracebacks:
        errors.append(f"server log: {tracebacks} traceback(s)")
    # Voilà's executor waits 4 s by default for a cell's outputs after the kernel's reply, then renders the page
    # without them: on a busy machine a student then gets a lesson with no widgets
    iopub_timeouts = log.count("Timeout waiting for IOPub output")
    kinds = sorted({w for st in students for _t, _s, w in st.clicks})
    by_kind = {w: percentile([s * 1000 for st in students for when, s, what in st.clicks
                              if what == w and active_from <= when <= active_to], 95) for w in kinds}
    if args.attack:
        def clicks_in(low: float, high: float) -> list[float]:
            return [s * 1000 for st in students if not st.browser for when, s, _w in st.clicks if low <= when <= high]

        result["attack"] = {
            "kind": attack.kind, "statuses": attack.statuses, "sent": attack.sent, "errors": attack.errors[:5],
            "click_p95_before_ms": percentile(clicks_in(active_from, attack_from), 95),
            "click_p95_during_ms": percentile(clicks_in(attack_from, active_to), 95),
            "new_page_p95_before_s": percentile([u for w, u in attack.newcomers if w < attack_from], 95),
            "new_page_p95_during_s": percentile([u for w, u in attack.newcomers if w >= attack_from], 95),
            "newcomers_refused": attack.refused_newcomers,
            "server_mib_before": own_before,
            "server_mib_peak_during": max((m for w, m in own if w >= attack_from), default=float("nan")),
            "server_back_s": own_back, "refused_in_log": log.count("no kernel for a page from 127.0.0.1"),
            "stopped_for_room": log.count("for a page from"), "load_during": load_average()}
    if args.exercise:
        def lesson_clicks(low: float, high: float) -> list[float]:
            return [s * 1000 for st in students if not st.browser for when, s, _w in st.clicks if low <= when <= high]

        without = [c for low, high, on in exercise.quarters if not on for c in lesson_clicks(low, high)]
        during = [c for low, high, on in exercise.quarters if on for c in lesson_clicks(low, high)]
        # the clicks made within 3 s of a start or a reveal (every class page draws the exercise, or its answer)
        marks = [at - start for at in exercise.starts + exercise.reveals]
        near = [s * 1000 for st in students if not st.browser for when, s, _w in st.clicks
                if active_from <= when <= active_to and any(0 <= when - m <= 3 for m in marks)]
        errors += exercise.errors
        result["exercise"] = {
            "clicks_without": len(without), "clicks_with": len(during),
            "click_p50_without_ms": percentile(without, 50), "click_p95_without_ms": percentile(without, 95),
            "click_p50_with_ms": percentile(during, 50), "click_p95_with_ms": percentile(during, 95),
            "load_without": load_without, "load_with": load_with, "pages": exercise.pages,
            "started": exercise.started, "answers": exercise.answers, "counted": exercise.counted,
            "check_p95_ms": percentile([c * 1000 for c in exercise.checks], 95),
            "projector_updates": exercise.projector_updates, "clicks_near_changes": len(near),
            "control": args.control,
            "click_p50_near_changes_ms": percentile(near, 50), "click_p95_near_changes_ms": percentile(near, 95)}
    if args.board:
        errors += board.errors
        result["board"] = {"refreshes": len(board.refreshes), "refresh_p50_ms": percentile(board.refreshes, 50) * 1000,
                           "refresh_p95_ms": percentile(board.refreshes, 95) * 1000,
                           "students_shown": board.students_shown}
    if args.hammer:
        result["hammer"] = {"statuses": hammer.statuses, "rounds": hammer.rounds,
                            "slow_sent_mib": hammer.slow_sent_mib, "slow_dropped": hammer.slow_dropped,
                            "errors": hammer.errors, "kernels_peak": kernels_peak}
    result.update({
        "measured": len(students), "in": len(entered), "browsers": len(browser_numbers), "all_in_s": all_in,
        "usable_p50_s": percentile(usable, 50), "usable_p95_s": percentile(usable, 95),
        "clicks": len(protocol_clicks), "click_p50_ms": percentile(protocol_clicks, 50),
        "click_p95_ms": percentile(protocol_clicks, 95), "click_max_ms": max(protocol_clicks, default=float("nan")),
        "browser_clicks": len(browser_clicks), "browser_click_p50_ms": percentile(browser_clicks, 50),
        "browser_click_p95_ms": percentile(browser_clicks, 95), "click_p95_by_kind_ms": by_kind,
        "baseline_mib": baseline, "peak_mib": peak, "server_idle_mib": own_idle,
        # against the idle server alone (without its pool's kernels): with a pool, what the class costs beyond it
        "mib_per_student": (peak - (own_idle if pool else baseline)) / n,
        "errors": errors, "culled_after_s": (culled_at if pool else
                                             next((when for when, _rss, kernels in after if kernels == 0), None)),
        "memory_back_s": back_at,
        "kernels_left": after[-1][2] if after else None, "after_mib": after[-1][1] if after else float("nan"),
        "cull_limit_s": cull_limit, "load_after": load_average(), "entry_cpu_s": cpu_entry,
        "iopub_timeouts": iopub_timeouts, "afresh": log.count("starting afresh"),
    })
    return result


def report(r: dict) -> list[str]:
    n = r["students"]
    lines = [f"N = {n} ({n - r['browsers']} at protocol level, {r['browsers']} in Chromium), class {r['class']} on "
             f"this server; load average {r['load_before']} before, {r['load_after']} after"]
    lines.append(f"  students in: {r['in']}/{r['measured']}, the last {r['all_in_s']:.1f} s after the first arrived "
                 f"(target: all in within {TARGETS['all_in_s']} s)")
    lines.append(f"  page usable after arriving: p50 {r['usable_p50_s']:.1f} s, p95 {r['usable_p95_s']:.1f} s; the "
                 f"server and kernels used {r['entry_cpu_s']:.0f} CPU s until all were in "
                 f"({r['entry_cpu_s'] / n:.1f} per student)")
    lines.append(f"  click -> update while all active: protocol {r['clicks']} clicks, p50 {r['click_p50_ms']:.0f} ms, "
                 f"p95 {r['click_p95_ms']:.0f} ms, max {r['click_max_ms']:.0f} ms (target p95 <= "
                 f"{TARGETS['click_p95_ms']} ms); Chromium {r['browser_clicks']} clicks, "
                 f"p50 {r['browser_click_p50_ms']:.0f} ms, p95 {r['browser_click_p95_ms']:.0f} ms")
    by_kind = r["click_p95_by_kind_ms"].items()
    lines.append("  p95 by action (ms): " + ", ".join(f"{k} {v:.0f}" for k, v in by_kind if v == v))
    if r.get("pool"):
        fill = r.get("pool_fill") or {}
        lines.append(f"  kernel pool (--class-size {r['pool']}): " + (
            f"{fill['kernels']} kernels ready {fill['s']:.1f} s after the server opened its port, the server having "
            f"used {fill['cpu_s']:.1f} CPU s since its start; " if fill else "") +
            f"idle server with its pool {r['baseline_mib']:.0f} MiB, the server alone {r['server_idle_mib']:.0f} MiB")
    lines.append(f"  server + kernels memory: idle server {r['baseline_mib']:.0f} MiB, peak {r['peak_mib']:.0f} MiB: "
                 f"{r['mib_per_student']:.0f} MiB per student (target <= {TARGETS['mib_per_student']}"
                 + (", counted from the server alone: the pool's kernels became the students'" if r.get("pool")
                    else "") + ")")
    # 10 s of slack: a kernel's last activity can come seconds after its student left (a computer's move still
    # due), and shutting 30 kernels down, then starting the server afresh, take a few seconds more
    culled = (f"all kernels culled {r['culled_after_s']:.0f} s after the students left, "
              + ("within" if r["culled_after_s"] <= r["cull_limit_s"] + 10 else "LATER than")
              + " the limit" if r["culled_after_s"] is not None
              else f"{r['kernels_left']} kernel(s) still running {r['cull_limit_s'] + 30} s after")
    # with a pool, the fresh server fills it again first (as long as the first one took)
    refill_s = (r.get("pool_fill") or {}).get("s", 0) + AFRESH_S if r.get("pool") else 0
    back = (f"back to the idle server's {r['memory_back_s']:.0f} s after the students left, "
            + ("within" if r["memory_back_s"] <= r["cull_limit_s"] + 10 + refill_s else "LATER than") + " the limit"
            + (f" (and {refill_s:.0f} s to fill the pool again)" if refill_s else "")
            if r["memory_back_s"] is not None else "NOT back to the idle server's")
    lines.append(f"  after leaving: {culled} (culling limit: {r['cull_limit_s']} s); memory {back}: "
                 f"{r['after_mib']:.0f} MiB against {r['baseline_mib']:.0f} MiB "
                 f"({r['after_mib'] - r['baseline_mib']:+.0f} MiB; the server started afresh {r['afresh']} time(s))")
    lines.append(f"  errors: {len(r['errors'])}" + "".join(f"\n    {e}" for e in r["errors"][:10]))
    if "ahead" in r:
        a = r["ahead"]
        lines.append(f"  servers started ahead by the teacher: {a['started']}/{n} in {a['seconds']:.0f} s, "
                     f"{a['parallel']} at a time, {a['cpu_s']:.0f} CPU s (load {a['load_before']} before); failed: "
                     f"{len(a['failed'])}" + "".join(f"\n    {e}" for e in a["failed"][:10]))
    if "hammer" in r:
        h = r["hammer"]
        lines.append(f"  one student hammering while {r['measured']} play: {h['rounds']} rounds of the 50-page loop, "
                     f"pages by HTTP status {dict(sorted(h['statuses'].items()))}; slow reader: "
                     f"{h['slow_sent_mib']:.0f} MiB sent, dropped by the server {h['slow_dropped']} time(s); "
                     f"at most {h['kernels_peak']} kernels on the server while all played"
                     + "".join(f"\n    hammer: {e}" for e in h["errors"]))
    if "attack" in r:
        a = r["attack"]
        lines.append(
            f"  attack {a['kind']} in the second half: its pages by HTTP status {dict(sorted(a['statuses'].items()))}"
            + (f", {a['sent']} requests for every widget's state sent" if a["sent"] else "") + "; "
            f"the class's clicks p95 {a['click_p95_before_ms']:.0f} ms before, {a['click_p95_during_ms']:.0f} ms "
            f"during; a new page usable p95 {a['new_page_p95_before_s']:.1f} s before, "
            f"{a['new_page_p95_during_s']:.1f} s during ({a['newcomers_refused']} newcomers failed or refused; "
            f"{a['refused_in_log']} pages of the class's address refused in the log); the server process "
            f"{a['server_mib_before']:.0f} MiB before, {a['server_mib_peak_during']:.0f} MiB at most during, back "
            f"within 20 MiB " + (f"{a['server_back_s']:.0f} s after it ended" if a["server_back_s"] is not None
                                 else "NOT within the watch") + f" (load {a['load_during']} at its end)"
            + "".join(f"\n    attack: {e}" for e in a["errors"]))
    if "exercise" in r:
        e = r["exercise"]
        lines.append(
            f"  class exercise in the second and fourth quarters: {e['pages']} class exercise pages open, "
            f"{e['started']} exercises started, {e['answers']} answers sent (\"Check\" p95 {e['check_p95_ms']:.0f} "
            f"ms), {e['counted']} counted on the projector by each reveal, {e['projector_updates']} projector updates")
        if e["control"]:
            lines.append("  control run (--control): no exercise was started; the two kinds of quarter differ by "
                         "chance alone")
        lines.append(
            f"  the class's clicks on their lessons: in the quarters without an exercise {e['clicks_without']} "
            f"clicks, p50 "
            f"{e['click_p50_without_ms']:.0f} ms, p95 {e['click_p95_without_ms']:.0f} ms (load {e['load_without']}); "
            f"in those with one {e['clicks_with']} clicks, p50 {e['click_p50_with_ms']:.0f} ms, p95 "
            f"{e['click_p95_with_ms']:.0f} ms (load {e['load_with']}); ratio p50 "
            f"{e['click_p50_with_ms'] / e['click_p50_without_ms']:.2f}, p95 "
            f"{e['click_p95_with_ms'] / e['click_p95_without_ms']:.2f} (target: within 10 %); of them the "
            f"{e['clicks_near_changes']} clicks within 3 s of a start or a reveal: p50 "
            f"{e['click_p50_near_changes_ms']:.0f} ms, p95 {e['click_p95_near_changes_ms']:.0f} ms")
    if "board" in r:
        b = r["board"]
        lines.append(f"  class board open all along: {b['refreshes']} refreshes, p50 {b['refresh_p50_ms']:.0f} ms, "
                     f"p95 {b['refresh_p95_ms']:.0f} ms; at the end it showed {b['students_shown']} of "
                     f"{r['measured']} students (every student with a nickname, recording)")
    if r["iopub_timeouts"]:
        lines.append(f"  the server log has {r['iopub_timeouts']} 'Timeout waiting for IOPub output': Voilà sent "
                     "pages without the outputs of a cell")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", default="10,20,30", help="class sizes, one run each (default 10,20,30)")
    parser.add_argument("--browsers", type=int, default=3, help="students in real Chromium (default 3)")
    parser.add_argument("--arrival", type=float, default=10, help="seconds over which students arrive (10)")
    parser.add_argument("--interval", type=float, default=3, help="seconds between a student's clicks (3)")
    parser.add_argument("--active", type=float, default=60, help="seconds of play once all are in (60)")
    parser.add_argument("--entry-timeout", type=float, default=180, help="seconds a student may wait to get in")
    parser.add_argument("--cull-idle", type=int, default=1, help="the server's --cull-idle, in minutes (1)")
    parser.add_argument("--classes", type=int, default=1,
                        help="classes of each size one after another on the same server (default 1)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--logs", type=Path,
                        help="keep the servers' logs here, and a screenshot of any Chromium student who failed")
    parser.add_argument("--hammer", action="store_true",
                        help="one of the N students hammers while the others play: the 50-page loop (50 GETs of "
                             "the play page, 10 at a time, with the browser's cookie one round and none the next) "
                             "and a page "
                             "that never reads its socket while sending 1.9 MB widget updates")
    parser.add_argument("--starting", type=int,
                        help="run the server with this many pages started at once (max_starting_kernels, through a "
                             "voila.json in its working folder; the server's default: two per core)")
    parser.add_argument("--iopub-timeout", type=int,
                        help="diagnosis: run the server with VoilaExecutor.iopub_timeout at this many seconds "
                             "(through a voila.json in its working folder; Voilà's default is 4)")
    parser.add_argument("--attack", choices=("gone-pages", "fresh-cookies"),
                        help="in the second half of the active time: three pages flooding requests for every widget's "
                             "state and closing their sockets (gone-pages), or a script from another address taking a "
                             "new cookie for every page and asking about its kernels instead of connecting "
                             "(fresh-cookies); a new student arrives every 8 s to time new pages")
    parser.add_argument("--board", action="store_true",
                        help="the class board in use: every student with a nickname (recorded), the teacher's board "
                             "open and refreshing; without it the server runs with --no-class-board")
    parser.add_argument("--exercise", action="store_true",
                        help="the class board on (as --board) and, in the second half, a class exercise every 15 s "
                             "answered on every protocol student's class exercise page: the class's clicks with and "
                             "without it, and their ratio")
    parser.add_argument("--control", action="store_true",
                        help="with --exercise: everything as with it (the class exercise pages open, the projector "
                             "watching), but no exercise is started in the second half either: the ratio two halves "
                             "show by chance on this machine, beside which --exercise's ratio is read")
    parser.add_argument("--pool", action="store_true",
                        help="each class size twice, side by side: without a kernel pool (--class-size 0) and with "
                             "one the class's size (--class-size N), filled before the class comes; prints the "
                             "ratios")
    parser.add_argument("--hub", action="store_true",
                        help="the class comes through a real JupyterHub (deploy/jupyterhub/), each student logging "
                             "in and getting a course server of their own; protocol-level students only")
    parser.add_argument("--ahead", action="store_true",
                        help="with --hub: the teacher starts the class's servers before the students arrive "
                             "(escoba-tutor hub-start-class), and the students log in to running servers")
    parser.add_argument("--ahead-parallel", type=int, default=4,
                        help="with --ahead: servers the teacher's command starts at once (default 4)")
    args = parser.parse_args()
    if args.ahead and not args.hub:
        sys.exit("--ahead goes with --hub: it starts the students' servers on the hub")
    if args.exercise and (args.hub or args.attack):
        sys.exit("--exercise goes with neither --hub nor --attack: its halves compare the class with and without it")
    if args.control and not args.exercise:
        parser.error("--control goes with --exercise")
    args.board = args.board or args.exercise
    if args.hub and args.board:
        sys.exit("--board and --hub cannot go together: the hub's course servers would need a shared database")
    if args.hub:
        args.browsers = 0  # a browser student would need the hub's login in Chromium: the protocol measures it
    sizes = [int(x) for x in args.students.split(",") if x.strip()]
    if args.browsers and not Path(CHROMIUM).exists():
        sys.exit(f"needs Debian's Chromium at {CHROMIUM} (or --browsers 0): apt-get install chromium")
    commit = subprocess.run(["git", "log", "-1", "--oneline"], cwd=ROOT, capture_output=True, text=True).stdout
    print(f"tree: {commit.strip()}; {time.strftime('%Y-%m-%d %H:%M')}; load average {load_average()}", flush=True)
    results = []
    if args.pool and args.hub:
        sys.exit("--pool is the classroom server's (a hub's course server serves one student)")
    with tempfile.TemporaryDirectory(prefix="load-class-") as folder:
        for n in sizes:
            for pool in ((0, n) if args.pool else (None,)):
                for result in asyncio.run(classes(n, args, Path(folder), pool)):
                    results.append(result)
                    print("\n".join(report(result)), flush=True)
    print()
    print(f"{'N':>3} {'class':>5} {'in':>5} {'last in':>8} {'usable p50/p95':>15} {'click p95':>10} "
          f"{'MiB/student':>12} {'errors':>7} {'culled after':>13} {'memory back after':>17} "
          f"{'memory after / idle':>20}")
    for r in results:
        culled = f"{r['culled_after_s']:.0f} s" if r["culled_after_s"] is not None else "no"
        back = f"{r['memory_back_s']:.0f} s" if r["memory_back_s"] is not None else "no"
        print(f"{r['students']:>3} {r['class']:>5} {r['in']:>2}/{r['students']:<2} {r['all_in_s']:>7.1f}s "
              f"{r['usable_p50_s']:>6.1f}/{r['usable_p95_s']:.1f} s {r['click_p95_ms']:>7.0f} ms "
              f"{r['mib_per_student']:>12.0f} {len(r['errors']):>7} {culled:>13} {back:>17} "
              f"{r['after_mib']:>9.0f} / {r['baseline_mib']:.0f} MiB")
    if args.pool:
        print()
        print("\n".join(side_by_side(results)))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


def side_by_side(results: list[dict]) -> list[str]:
    """Each class size without and with the pool (the first class of each server), and the ratio."""
    rows = [("usable page p50 (s)", "usable_p50_s", "{:.1f}"), ("usable page p95 (s)", "usable_p95_s", "{:.1f}"),
            ("last student in (s)", "all_in_s", "{:.1f}"), ("click p95 (ms)", "click_p95_ms", "{:.0f}"),
            ("Chromium click p95 (ms)", "browser_click_p95_ms", "{:.0f}"),
            ("CPU per student start (s)", "cpu_per_student_s", "{:.2f}"),
            ("idle server, with its pool (MiB)", "baseline_mib", "{:.0f}"),
            ("memory per student (MiB)", "mib_per_student", "{:.0f}"), ("errors", "error_count", "{:.0f}")]
    lines = []
    for n in sorted({r["students"] for r in results}):
        pair = {bool(r["pool"]): r for r in results if r["students"] == n and r["class"] == 1}
        if len(pair) != 2:
            continue
        lines.append(f"N = {n}: {'without the pool':>18} {'with --class-size ' + str(n):>20} {'ratio':>8}")
        for title, key, shape in rows:
            values = []
            for with_pool in (False, True):
                r = pair[with_pool]
                derived = {"cpu_per_student_s": r["entry_cpu_s"] / r["students"], "error_count": len(r["errors"])}
                values.append(derived.get(key, r.get(key, float("nan"))))
            ratio = f"{values[0] / values[1]:.2f}x" if values[1] else "-"
            lines.append(f"  {title:<34} {shape.format(values[0]):>10} {shape.format(values[1]):>20} {ratio:>8}")
        lines.append(f"  (load average {pair[False]['load_before']} / {pair[True]['load_before']} before each)")
    return lines


if __name__ == "__main__":
    main()
