"""A class's servers started before the lesson on a real JupyterHub: ``escoba-tutor hub-start-class``.

The hub is the one test_jupyterhub_browser.py uses, run before this module (tests/browser/hub_setup.py:
deploy/jupyterhub/jupyterhub_config.py as shipped, with the dummy login, a local process spawner and an idle culler
stopping a server idle for 40 s), with a students group of three and a teacher. The teacher, with an API token of
their own, starts the students group's servers through the hub's REST API (the command, as a teacher runs it), kept
until the lesson's start; the culler does not stop them while the test watches, longer than its idle time; a
student then logs in and lands on the course at once, with no wait for a server to start, while a student whose
server was not started ahead waits for it. Bad input (no token, a token the hub refuses, a student's own token, a
name the hub does not know, a hub that does not answer) gets one line naming the problem, and nothing is started.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import time
import urllib.request
from datetime import datetime, timedelta

import pytest
from helpers import assert_no_error, wait_rendered
from hub_setup import CLASS, CULL_TIMEOUT, ROOT, TEACHER, WAIT, Hub, free_port
from playwright.sync_api import expect

pytest.importorskip("jupyterhub", reason="the JupyterHub test needs the hub extra: pip install -e '.[hub]'")
pytest.importorskip("jupyterhub_idle_culler", reason="the JupyterHub test needs the hub extra: pip install -e '.[hub]'")

pytestmark = pytest.mark.browser

LATE = "gael"  # a student of no group, whose server nobody started
KEEP_S = 100  # at least this long until the lesson's start (the command takes whole minutes)


def token_of(hub: Hub, name: str, folder) -> str:
    """An API token of ``name``'s, made as a teacher makes one (all of their permissions), in a file of its own."""
    request = urllib.request.Request(
        hub.local + f"hub/api/users/{name}/tokens", method="POST", headers={"Content-Type": "application/json"},
        data=json.dumps({"auth": {"username": name, "password": "any"}, "note": "start the class"}).encode())
    with urllib.request.urlopen(request, timeout=30) as answer:
        token = json.load(answer)["token"]
    path = folder / f"{name}.token"
    path.write_text(token + "\n")
    return str(path)


def start_class(hub_url: str, *args: str, token: str | None = None, env_token: str | None = None):
    env = {key: value for key, value in os.environ.items() if key != "JUPYTERHUB_API_TOKEN"}
    if env_token is not None:
        env["JUPYTERHUB_API_TOKEN"] = env_token
    command = [sys.executable, "-m", "escoba_tutor", "hub-start-class", "--hub-url", hub_url, *args]
    if token:
        command += ["--token-file", token]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)


def lesson_clock() -> str:
    """The lesson's start as a teacher gives it (HH:MM, today): the first whole minute KEEP_S seconds away."""
    soon = datetime.now() + timedelta(seconds=KEEP_S)
    minute = soon.replace(second=0, microsecond=0) + timedelta(minutes=math.ceil(soon.second / 60))
    if minute.date() != datetime.now().date():
        pytest.skip("too close to midnight for a lesson today")
    return f"{minute:%H:%M}"


def server_starts_in_log(hub: Hub, start: int) -> list[str]:
    """The hub's log lines, after byte ``start``, of a request to start a server."""
    with hub.log.open("rb") as log:
        log.seek(start)
        text = log.read().decode(errors="replace")
    return [line for line in text.splitlines() if re.search(r"POST /hub/api/users/[^/ ]+/server\b", line)]


def test_bad_input_is_refused_by_name_and_nothing_starts(hub, tmp_path):
    teacher = token_of(hub, TEACHER, tmp_path)
    student = token_of(hub, CLASS[0], tmp_path)
    log_start = hub.log.stat().st_size
    no_token = start_class(hub.local, "--group", "students")
    assert no_token.returncode == 2 and "no API token" in no_token.stderr, no_token.stderr
    wrong = start_class(hub.local, "--group", "students", env_token="not-a-token")
    assert wrong.returncode == 2 and "the hub refused the API token (HTTP 403)" in wrong.stderr, wrong.stderr
    own = start_class(hub.local, "--users", CLASS[1], token=student)
    assert own.returncode == 2 and f"the token of {CLASS[0]} may not start other users' servers" in own.stderr, (
        own.stderr)
    unknown = start_class(hub.local, "--users", f"{CLASS[0]},nadie", token=teacher)
    assert unknown.returncode == 2 and "nadie" in unknown.stderr and "nothing was started" in unknown.stderr, (
        unknown.stderr)
    group = start_class(hub.local, "--group", "no-such-class", token=teacher)
    assert group.returncode == 2 and "no group 'no-such-class'" in group.stderr, group.stderr
    away = start_class(f"http://127.0.0.1:{free_port()}/", "--group", "students", token=teacher)
    assert away.returncode == 2 and "cannot be reached" in away.stderr, away.stderr
    for result in (no_token, wrong, own, unknown, group, away):
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    started = server_starts_in_log(hub, log_start)
    assert not started, f"a refused command started servers: {started}"


@pytest.fixture(scope="module")
def started_ahead(hub, tmp_path_factory):
    """The teacher starts the students group's servers, kept until the lesson's start: when, and what it printed."""
    teacher = token_of(hub, TEACHER, tmp_path_factory.mktemp("tokens"))
    log_start = hub.log.stat().st_size
    began = time.monotonic()
    done = start_class(hub.local + "hub/home", "--group", "students", "--until", lesson_clock(), "--parallel", "2",
                       token=teacher)
    return teacher, began, done, log_start


@pytest.fixture(scope="module")
def watched(hub, started_ahead) -> tuple[list[str], float, bytes]:
    """The class's servers left alone for longer than the culler's idle time, before anyone logs in (the tests that
    log in ask for this first, whatever order they run in): the servers found stopped, when, and the hub's log
    since the start."""
    _teacher, began, done, log_start = started_ahead
    stopped: list[str] = []
    # nobody uses them: the culler (idle 40 s, every 4 s) would stop a server started without --until by now
    while done.returncode == 0 and not stopped and time.monotonic() - began < CULL_TIMEOUT + 30:
        stopped = [name for name in CLASS if not hub.servers(name).get("", {}).get("ready")]
        time.sleep(2)
    with hub.log.open("rb") as log:  # since the start (the hub's own earlier students were culled before it)
        log.seek(log_start)
        return stopped, time.monotonic() - began, log.read()


def test_the_teacher_starts_the_class_ahead_and_the_culler_keeps_it(hub, started_ahead, watched):
    teacher, began, done, log_start = started_ahead
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"[{len(CLASS)}/{len(CLASS)}]" in done.stdout, done.stdout
    assert f"{len(CLASS)} servers: {len(CLASS)} started, 0 already running, 0 failed" in done.stdout, done.stdout
    for name in CLASS:
        assert re.search(rf"^\[\d/\d\] {name}: started in \d+ s$", done.stdout, re.M), done.stdout
    stopped, after, log = watched
    assert not stopped, f"the culler stopped {stopped} {after:.0f} s after the start"
    assert after >= CULL_TIMEOUT + 30
    assert b"Culling server" not in log
    for name in CLASS:
        assert hub.servers(name).get("", {}).get("ready"), hub.servers(name)
    again = start_class(hub.local, "--users", ",".join(CLASS), token=teacher)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"{len(CLASS)} servers: 0 started, {len(CLASS)} already running, 0 failed" in again.stdout, again.stdout


def first_page(school_browser, hub: Hub, name: str) -> tuple[float, list[str]]:
    """``name`` logs in and lands on the course: the seconds from signing in to the landing page's drill, and the
    hub's pages for a server still starting that the browser went through."""
    context = school_browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(180_000)
    waited: list[str] = []
    page.on("framenavigated", lambda frame: "/spawn" in frame.url and waited.append(frame.url))
    try:
        page.goto(hub.url + "hub/login")
        page.get_by_label(re.compile("user ?name", re.I)).fill(name)
        page.get_by_label(re.compile("password", re.I)).fill("any")
        began = time.monotonic()
        page.get_by_role("button", name=re.compile("sign in", re.I)).click()
        page.wait_for_url(re.compile(re.escape(f"/user/{name}/") + r"voila/render/es/index\.ipynb"), timeout=180_000)
        expect(page.locator(".escoba-drill").get_by_role("status")).to_be_attached(timeout=180_000)
        seconds = time.monotonic() - began
        wait_rendered(page)
        expect(page.get_by_role("heading", name=re.compile("Escoba: aprende a jugar"))).to_be_visible(timeout=WAIT)
        assert_no_error(page)
    finally:
        context.close()
    return seconds, waited


def test_a_student_started_ahead_is_in_at_once(hub, started_ahead, watched, school_browser):
    assert started_ahead[2].returncode == 0, started_ahead[2].stdout + started_ahead[2].stderr
    ahead, waited = first_page(school_browser, hub, CLASS[0])
    late, late_waited = first_page(school_browser, hub, LATE)
    print(f"first page: {ahead:.1f} s with the server started ahead, {late:.1f} s without "
          f"(load {os.getloadavg()[0]:.1f})")
    assert not waited, f"{CLASS[0]} waited for a server started ahead: {waited}"
    assert late_waited, f"{LATE}'s server was not started, yet the hub showed no wait: the check sees nothing"
    assert ahead < late, (ahead, late)
