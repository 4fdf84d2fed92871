"""Shared test helpers (imported by the test modules as ``escoba_test_helpers``).

The reference functions here work on card *codes* and the tables of docs/rules.md only, never on the engine's own
values or capture search, so the tests that compare against them check the engine from the outside.

First the test tiers (README.md, "Tests"): every test is marked ``browser`` (tests/browser/), ``hub`` (the real
JupyterHub), ``site`` (tests/site/), ``server`` (it starts an escoba-tutor or Voilà server, by a fixture of
:data:`SERVER_FIXTURES` or by hand), ``packaging``, or else ``fast``: ``pytest -m fast`` runs the fast tier.

Then servers in a subprocess (the real ``escoba-tutor serve``, and the base that tests/browser's Voilà server
shares) and the ``tutor_server_factory`` fixture, for tests/test_app_security.py and tests/browser/. At the end, a
widget as the student sees it: its parts found through their public children and labels (``labelled``, ``press``,
``status_line``, ``shown_text``...), and messages from the page (``browser_sets``, ``browser_sends``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from itertools import combinations, count
from pathlib import Path

import ipywidgets as w
import pytest
from hypothesis import settings

from escoba_tutor import Game
from escoba_tutor.widgets.primitives import ActionButton, LiveRegion

settings.register_profile("escoba", database=None, deadline=None, print_blob=True)
settings.load_profile("escoba")

# The test modules import these helpers as ``escoba_test_helpers``: the plain name ``conftest`` can be taken
# by another conftest.py under tests/ (pytest imports each of them as ``conftest``).
sys.modules["escoba_test_helpers"] = sys.modules[__name__]
# For the same reason, no conftest.py is collected as a doctest module (they hold no doctests).
collect_ignore_glob = ["conftest.py", "*/conftest.py"]

# The servers and kernels the tests start keep their class records in a folder of this run, never in the user's
# data folder (tests that need another place set ESCOBA_TUTOR_CLASS_DB themselves)
os.environ.setdefault("ESCOBA_TUTOR_CLASS_DB",
                      str(Path(tempfile.mkdtemp(prefix="escoba-tutor-class-")) / "class.sqlite3"))

# ---------------------------------------------------------------------------------------------------- test tiers
TESTS = Path(__file__).resolve().parent
#: The markers of the tiers that need more than Python: a test with none of them is in the fast tier.
SLOW_TIERS = ("server", "browser", "site", "hub", "packaging")
#: A test that uses one of these fixtures (itself or through another fixture) starts a server.
SERVER_FIXTURES = frozenset({"tutor_server_factory", "class_tutor_factory", "tutor", "server", "voila_server",
                             "voila_app"})
#: Where a folder or a file says the tier.
TIER_BY_PATH = {TESTS / "browser": "browser", TESTS / "site": "site",
                TESTS / "browser" / "test_jupyterhub_browser.py": "hub",
                TESTS / "browser" / "test_jupyterhub_start_ahead_browser.py": "hub"}


def tiers_of(item: pytest.Item) -> set[str]:
    """The slow tiers a test belongs to, from its folder, its file, its fixtures and its own markers."""
    path = Path(str(item.fspath))
    tiers = {tier for where, tier in TIER_BY_PATH.items() if where == path or where in path.parents}
    if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
        tiers.add("server")
    return tiers | {mark.name for mark in item.iter_markers() if mark.name in SLOW_TIERS}


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by these markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        tiers = tiers_of(item)
        for tier in sorted(tiers):
            item.add_marker(tier)
        if not tiers:
            item.add_marker("fast")


@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")  # pytest reads only pytest_* names
def pytest_collection_modifyitems_by_module(items: list[pytest.Item]) -> None:
    """After pytest's own reordering, each file's tests run in one block again (in pytest's order otherwise).
    pytest groups the tests that take the browser parameter apart from the rest, which splits a file that has
    both and runs its module fixtures twice: the wheels built and installed twice, the culler watched twice."""
    first: dict[Path, int] = {}
    for index, item in enumerate(items):
        first.setdefault(item.path, index)
    items.sort(key=lambda item: first[item.path])


_running: list[pytest.Item] = []  # the test being set up or run, for the check in ServerProcess


@pytest.hookimpl(tryfirst=True)  # before its fixtures (a module's server starts in its first test's setup)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _running[:] = [item]


def check_tier_starts_servers(what: str) -> None:
    """A server started by a fast test fails it: the fast tier must never wait for a server (mark it ``server``)."""
    if _running and not any(_running[0].get_closest_marker(tier) for tier in SLOW_TIERS):
        pytest.fail(f"{_running[0].nodeid} starts {what} but is in the fast tier: mark it @pytest.mark.server "
                    "(tests/conftest.py, SLOW_TIERS)", pytrace=False)


RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
SUITS = "oceb"
ALL_CODES = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)
# docs/rules.md §1: capture values (figures 8, 9, 10) and setenta values.
CAPTURE_VALUE = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 10: 8, 11: 9, 12: 10}
SETENTA_VALUE = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 10: 10, 11: 10, 12: 10}


def code_of(card) -> str:
    """A card's canonical code, from a Card object or a canonical code."""
    return card if isinstance(card, str) else card.code


def codes(cards) -> frozenset[str]:
    return frozenset(code_of(card) for card in cards)


def rank(code: str) -> int:
    return int(code[:-1])


def suit(code: str) -> str:
    return code[-1]


def value(code: str) -> int:
    return CAPTURE_VALUE[rank(code)]


def brute_captures(card, table, match: bool = False) -> set[frozenset[str]]:
    """Every legal capture by trying every subset of the table (docs/rules.md §3; ``match``: Scopa, §7)."""
    card = code_of(card)
    table = sorted(code_of(c) for c in table)
    if match:
        equal = [c for c in table if value(c) == value(card)]
        if equal:
            return {frozenset([c]) for c in equal}
        target = value(card)
    else:
        target = 15 - value(card)
    found = set()
    smallest = sorted(value(c) for c in table)
    for size in range(1, len(table) + 1):
        if sum(smallest[:size]) > target:
            break
        for combo in combinations(table, size):
            if sum(value(c) for c in combo) == target:
                found.add(frozenset(combo))
    return found


def reference_score(piles, escobas, suit_count: bool = False) -> list[int]:
    """Points per side for one deal, by docs/rules.md §5 (``suit_count``: the Scopa primera of §7)."""
    piles = [[code_of(c) for c in pile] for pile in piles]
    points = list(escobas)

    def strictly_most(values) -> None:
        top = max(values)
        if values.count(top) == 1:
            points[values.index(top)] += 1

    strictly_most([len(pile) for pile in piles])
    strictly_most([sum(1 for c in pile if suit(c) == "o") for pile in piles])
    for side, pile in enumerate(piles):
        if "7o" in pile:
            points[side] += 1
    best = [{s: max(SETENTA_VALUE[rank(c)] for c in pile if suit(c) == s) for s in SUITS
             if any(suit(c) == s for c in pile)} for pile in piles]
    if suit_count:
        strictly_most([(len(b), sum(b.values())) for b in best])
    else:
        totals = [sum(b.values()) if len(b) == 4 else None for b in best]
        valid = [t for t in totals if t is not None]
        if valid and valid.count(max(valid)) == 1:
            points[totals.index(max(valid))] += 1
    return points


def side_of(players: int, player: int) -> int:
    """docs/rules.md §2: with four players 0 and 2 are partners, 1 and 3 too; otherwise each player is a side."""
    return player % 2 if players == 4 else player


def play_randomly(game: Game, rng, moves: int) -> None:
    """Play up to ``moves`` random legal moves (fewer if the game ends)."""
    for _ in range(moves):
        if game.is_over:
            return
        game.play(rng.choice(game.legal_moves()))


def play_to_end(game: Game, rng) -> Game:
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    return game


# ------------------------------------------------------------------ save formats, written out independently
def sign_save(data: dict) -> str:
    """A save document with its checksum recomputed, so a test can reach the checks behind the checksum."""
    body = {k: v for k, v in data.items() if k != "checksum"}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return json.dumps({**body, "checksum": hashlib.sha256(canonical.encode()).hexdigest()[:16]})


CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def encode_code(numbers) -> str:
    """A resume code with a valid check for any list of numbers (4 bits a digit, bit 5: more digits)."""
    body = []
    for number in numbers:
        while True:
            low, number = number & 15, number >> 4
            body.append(CODE_ALPHABET[low | (16 if number else 0)])
            if not number:
                break
    text = "".join(body)
    crc = zlib.crc32(text.encode()) & 0xFFFFF
    return text + "".join(CODE_ALPHABET[(crc >> 5 * i) & 31] for i in range(4))


# --------------------------------------------------------------------------------- a fresh interpreter's imports
def fresh_python_prints(code: str) -> str:
    """What ``code`` prints, run in a fresh interpreter (so only what it imports itself is loaded); a failure
    there fails the test with its error output."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


# ------------------------------------------------------------------- servers in a subprocess, on a port of their own
ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RecordsEndpoint:
    """The course server's records endpoint (escoba_tutor/server/records_endpoint.py), its real handler in a
    Tornado server of its own on loopback, in a thread of this process: a class store, the register's tokens and
    bounds, and the server's log (``log``). ``xheaders``: the request's address may be given in ``X-Real-Ip`` (to
    try one from another machine). ``kernel_env(nickname)`` is what the kernel manager gives a student's kernel."""

    def __init__(self, store, *, xheaders: bool = False, **limits) -> None:
        import asyncio
        import logging
        import threading

        from tornado.httpserver import HTTPServer
        from tornado.web import Application

        from escoba_tutor.server.limits import ClassRegister, Limits
        from escoba_tutor.server.records_endpoint import RECORD_PATH, RecordHandler

        self.store, self.register = store, ClassRegister(Limits(max_kernels=99, **limits))
        self.log = logging.getLogger("escoba_tutor.test_server")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/{RECORD_PATH}"
        started = threading.Event()

        def serve() -> None:
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
            app = Application([(f"/{RECORD_PATH}", RecordHandler)], escoba_log=self.log, escoba_class_store=store,
                              escoba_register=self.register, xsrf_cookies=True, cookie_secret="x" * 32)
            self.http = HTTPServer(app, xheaders=xheaders)
            self.http.listen(self.port, "127.0.0.1")
            started.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=serve, daemon=True)
        self.thread.start()
        started.wait(10)

    def token(self, nickname: str, client: str | None = None, address: str = "10.0.0.5",
              kernel_id: str | None = None) -> str:
        from escoba_tutor.server.limits import Seat

        client = client or f"browser of {nickname}"
        token = self.register.issue_record_token(nickname, client, address)
        kernel_id = kernel_id or f"kernel-{len(self.register.record_tokens)}"
        self.register.seats[kernel_id] = Seat(client, address)  # a live kernel
        self.register.bind_record_token(token, kernel_id)
        return token

    def kernel_env(self, nickname: str, **token_args) -> dict[str, str]:
        return {"ESCOBA_TUTOR_NICKNAME": nickname, "ESCOBA_TUTOR_RECORDS_URL": self.url,
                "ESCOBA_TUTOR_RECORDS_TOKEN": self.token(nickname, **token_args)}

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.http.stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def records_endpoint(tmp_path):
    """``records_endpoint(**limits)``: a started :class:`RecordsEndpoint` writing to a fresh SQLite class database
    (``.store``; its file is ``.path``), stopped after the test."""
    from escoba_tutor.records import ClassStore

    made = []

    def start(path: Path | None = None, **options) -> RecordsEndpoint:
        path = path or tmp_path / "class.sqlite3"
        endpoint = RecordsEndpoint(ClassStore.open(path), **options)
        endpoint.path = path
        made.append(endpoint)
        return endpoint

    yield start
    for endpoint in made:
        endpoint.close()
        endpoint.store.close()


def write_notebook(path: Path, *sources: str) -> Path:
    """A notebook of code cells (plain JSON, so nbformat is not needed)."""
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
              "source": source.strip()} for source in sources]
    path.write_text(json.dumps({
        "cells": cells, "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    }))
    return path


def write_lessons(folder: Path, cell: str, names: tuple[str, ...] = ("index",)) -> Path:
    """A lessons folder as ``--lessons`` takes it: in es/ and in en/, a notebook of the one code cell ``cell`` for
    each of ``names`` (``index``: the landing page)."""
    for lang in ("es", "en"):
        (folder / lang).mkdir()
        for name in names:
            write_notebook(folder / lang / f"{name}.ipynb", cell)
    return folder


def voila_settings(folder: Path, **settings: object) -> dict[str, str]:
    """The environment of a server that reads these ``TutorVoila`` settings from a voila.json in ``folder``."""
    (folder / "voila.json").write_text(json.dumps({"TutorVoila": settings}))
    return {"JUPYTER_CONFIG_DIR": str(folder)}


class ServerProcess:
    """A server in a subprocess on a free port of its own, its output in ``log``; a subclass gives ``command()``.

    ``wait()`` returns once the TCP port accepts (a GET would start a kernel). ``stop()`` sends SIGTERM (the server
    stops its kernels); ``start()`` then brings it back on the same port, logging to a file of its own
    (``server.log``, then ``server-2.log``, ...); ``log_text()`` is the end of the current log. ``env``: variables
    the server gets besides this process's (``JUPYTER_CONFIG_DIR``, for a ``voila.json`` of the test's own).
    """

    name = "server"

    def __init__(self, log: Path, cwd: Path, env: dict[str, str] | None = None) -> None:
        check_tier_starts_servers(f"a {self.name} server")
        self.port = free_port()
        self.cwd = cwd
        self.env = env or {}
        self.starts = 0
        self._first_log = log
        self._launch()

    def command(self) -> list[str]:
        raise NotImplementedError

    def _launch(self) -> None:
        self.starts += 1
        first = self._first_log
        self.log = first if self.starts == 1 else first.with_name(f"{first.stem}-{self.starts}{first.suffix}")
        self._log_file = self.log.open("wb")
        self.process = subprocess.Popen(self.command(), cwd=self.cwd, stdout=self._log_file,
                                        stderr=subprocess.STDOUT,
                                        env={**os.environ, **self.env, "PYTHONUNBUFFERED": "1"})

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def wait(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"{self.name} did not open port {self.port} in {timeout} s:\n{self.log_text()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # it stops its kernels
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log_file.close()

    def start(self) -> None:
        """After ``stop()``: the server again, on the same port, once its port accepts."""
        self._launch()
        self.wait()


_TEACHER_LINK = re.compile(r"http://\S+/class/board\?key=[A-Za-z0-9_-]+")


class TutorServer(ServerProcess):
    """``escoba-tutor serve --no-browser --port P ARGS`` (``--base-url``, ``--rules``, ``--lang``, ``--lessons``...)
    run from the project's folder; ``url`` is its base URL, ending in ``/``, with the ``--base-url`` prefix when one
    is given."""

    name = "escoba-tutor"

    def __init__(self, log: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.args = args
        super().__init__(log, cwd=ROOT, env=env)
        prefix = args[args.index("--base-url") + 1].strip("/") if "--base-url" in args else ""
        self.url = f"http://127.0.0.1:{self.port}/" + (f"{prefix}/" if prefix else "")

    def command(self) -> list[str]:
        # no kernel pool unless the test asks for one: the tests count a server's kernels as its pages'
        # (tests/test_app_pool.py is the pool's)
        pool = [] if "--class-size" in self.args else ["--class-size", "0"]
        return [sys.executable, "-m", "escoba_tutor.cli", "serve", "--no-browser", "--port", str(self.port),
                *pool, *self.args]

    def read_teacher_link(self, timeout: float = 30) -> str:
        """The class board's address with its key, as this start of the server printed it (each start has a log of
        its own, and a key of its own)."""
        deadline = time.monotonic() + timeout
        while (found := _TEACHER_LINK.search(self.log.read_text())) is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert found is not None, f"the server printed no teacher's link: {self.log_text()}"
        return found.group(0)

    def read_teacher_key(self, timeout: float = 30) -> str:
        return self.read_teacher_link(timeout).rsplit("key=", 1)[1]


@pytest.fixture(autouse=True)
def widgets_without_a_kernel(monkeypatch):
    """Widgets made in this test process talk to no kernel: ``comm``'s own factories, whatever was imported before.
    Importing ipykernel's kernel module (a server's framework check does, so do some tools) points them at a
    running kernel's comm manager, and with none running a widget would then send nothing at all."""
    import comm

    monkeypatch.setattr(comm, "create_comm", comm._create_comm)
    monkeypatch.setattr(comm, "get_comm_manager", comm._get_comm_manager)


@pytest.fixture(scope="module")
def tutor_server_factory(tmp_path_factory):
    """``tutor_server_factory("--base-url", "/hub/user/ana/", env=...)``: a started server, stopped with the
    module."""
    servers = []

    def start(*args: str, env: dict[str, str] | None = None) -> TutorServer:
        server = TutorServer(tmp_path_factory.mktemp("tutor") / "server.log", *args, env=env)
        servers.append(server)
        server.wait()
        return server

    yield start
    for server in servers:
        server.stop()



@pytest.fixture(scope="module")
def class_tutor_factory(tutor_server_factory, tmp_path_factory):
    """``class_tutor_factory(*args, database=None, env=None)``: a started server with the class board on, over
    ``database`` (a new SQLite file unless given), stopped with the module: ``database``, ``teacher_link`` (the
    board's address with its key, as the server printed it) and ``key`` beside the server's usual parts."""

    def start(*args: str, database: Path | None = None, env: dict[str, str] | None = None) -> TutorServer:
        database = database or tmp_path_factory.mktemp("class-db") / "class.sqlite3"
        server = tutor_server_factory("--class-db", str(database), *args, env=env)
        server.database = database
        server.teacher_link = server.read_teacher_link()
        server.key = server.teacher_link.rsplit("key=", 1)[1]
        return server

    return start

# ------------------------------------------------------ a widget as the student sees it: its parts and their labels
# The widget tests drive widgets through what a page shows: the public ``children`` of each box, a control found by
# its label (its description, or a card row's group label), the status line, the text on screen. None of them
# reaches into a widget's private attributes, so a widget may rearrange its insides and its tests still hold.
def parts(widget):
    """The widget and every widget inside it, depth first, through their public ``children``."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from parts(child)


def _displayed(widget) -> bool:
    layout = getattr(widget, "layout", None)
    return getattr(layout, "display", None) != "none"


def shown_parts(widget):
    """The parts of the widget that are on screen: a hidden box hides everything inside it."""
    if not _displayed(widget):
        return
    yield widget
    for child in getattr(widget, "children", ()):
        yield from shown_parts(child)


def is_shown(widget, part) -> bool:
    """Whether ``part`` is on screen inside ``widget`` (it and every box around it displayed)."""
    return any(found is part for found in shown_parts(widget))


def labelled(widget, label: str, kind=None):
    """The one part of ``widget`` labelled ``label`` (its description, or a card row's group label), of ``kind``
    if given; a label found on none or on several parts fails the test."""
    kind = kind or w.Widget
    found = [part for part in parts(widget) if isinstance(part, kind)
             and label in (getattr(part, "description", None), getattr(part, "group_label", None))]
    assert len(found) == 1, f"{len(found)} parts of {type(widget).__name__} labelled {label!r}"
    return found[0]


#: What a learner presses: ipywidgets' buttons, and the buttons whose click carries the page's answers.
BUTTONS = (w.Button, ActionButton)


def press(widget, label: str) -> None:
    """Click the button labelled ``label``."""
    labelled(widget, label, BUTTONS).click()


def only(widget, kind):
    """The one part of ``widget`` of type ``kind`` (one of its own widgets, e.g. the list of captures)."""
    found = [part for part in parts(widget) if isinstance(part, kind) and part is not widget]
    assert len(found) == 1, f"{len(found)} parts of {type(widget).__name__} are {kind.__name__}"
    return found[0]


def status_line(widget):
    """The widget's status line: the live region among its own children, which screen readers read out."""
    found = [child for child in widget.children if isinstance(child, LiveRegion)]
    assert len(found) == 1, f"{type(widget).__name__} has {len(found)} status lines"
    return found[0]


def part_with(widget, label: str):
    """The child of ``widget`` that holds the part labelled ``label`` (e.g. the deal's review, by its button)."""
    inside = labelled(widget, label)
    return next(child for child in widget.children if any(part is inside for part in parts(child)))


def shown_text(widget) -> str:
    """The text of the HTML parts of the widget that are on screen, one line each."""
    return "\n".join(part.value for part in shown_parts(widget) if isinstance(part, (w.HTML, w.Label)))


def html_with(widget, text: str):
    """The one HTML part of the widget whose markup holds ``text``."""
    found = [part for part in parts(widget) if isinstance(part, w.HTML) and text in part.value]
    assert len(found) == 1, f"{len(found)} HTML parts of {type(widget).__name__} hold {text!r}"
    return found[0]


def shown_labels(widget) -> set[str]:
    """The labels (descriptions) of the controls of the widget that are on screen."""
    return {part.description for part in shown_parts(widget) if getattr(part, "description", "")}


# A message from the page reaches a widget through ipywidgets' own entry point (the comm's message handler): the one
# place the tests call a method ipywidgets names as internal, since a test has no browser to send it.
def browser_sets(widget, **state) -> None:
    """A state change arriving from the browser, as ipywidgets delivers it."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
                        "buffers": []})


def browser_sends(widget, content: dict, buffers=()) -> None:
    """A custom message from the widget's script in the page (``model.send``), with its binary buffers."""
    widget._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": list(buffers)})


# ---------------------------------------------------------------------------------------------- class databases
_databases = count()


@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL for the run's records tests (a database each: :func:`store_url`)."""
    from records_postgres import start_postgres

    yield from start_postgres()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path: Path) -> str:
    """A new, empty class database: a SQLite file, then a database of its own on the real PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "class.sqlite3")
    server = request.getfixturevalue("postgres_server")
    return server.create_database(f"class_{next(_databases)}")


@pytest.fixture
def store(store_url: str):
    from escoba_tutor.records import ClassStore

    with ClassStore.open(store_url) as opened:
        yield opened
