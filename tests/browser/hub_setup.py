"""The real JupyterHub that tests/browser/test_jupyterhub_browser.py and test_jupyterhub_start_ahead_browser.py
share (one hub for the run: tests/browser/conftest.py's ``hub``): deploy/jupyterhub/jupyterhub_config.py as
shipped, with only what a test machine needs changed (the dummy login, a local process spawner, loopback ports,
short culling times), a class database in a real PostgreSQL, a teachers group (``TEACHER``) and a students group
(``CLASS``). Each test module logs in users of its own, so that neither sees the other's.

The hub (jupyterhub from PyPI, configurable-http-proxy from npm, installed into ``.cache/`` of the checkout the
first time) is reached by a school's host name, ``aula.escoba.test``, which Chromium resolves to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
PROXY_DIR = ROOT / ".cache" / "configurable-http-proxy"  # the test's own npm folder
SCHOOL_HOST = "aula.escoba.test"
SLOW_STUDENT = "bruno"  # whose server takes longer to start than the idle time (test_jupyterhub_browser.py's)
CULL_TIMEOUT = 40  # seconds idle before the culler stops a student's server (a busy machine draws a lesson slowly)
WAIT = 60_000  # ms for what the page shows: the machine may be busy
WATCH_TOKEN = "escoba-hub-test-" + os.urandom(8).hex()
TEACHER = "profe"  # the teachers group
CLASS = ("dora", "elena", "fermin")  # the students group, whose servers a teacher may start ahead
DB_PASSWORD = "hub-s3cret-" + os.urandom(6).hex()  # in the database's URL (the test's server trusts loopback)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def proxy_command() -> str:
    """configurable-http-proxy, installed from npm into the test's folder if it is not there yet."""
    command = PROXY_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
    if command.exists():
        return str(command)
    if shutil.which("npm") is None:
        pytest.skip("the JupyterHub test needs npm to install configurable-http-proxy (apt-get install npm)")
    PROXY_DIR.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(PROXY_DIR),
                           "configurable-http-proxy@4"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and command.exists(), f"npm could not install configurable-http-proxy:\n{done.stderr}"
    return str(command)


TEST_CONFIG = """\
import sys
c = get_config()
load_subconfig({shipped!r})
# what a test machine needs instead: anyone may log in with any name (never on a real hub)
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
# the students' servers run as this user, in folders of the test's own
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {homes!r} + "/{{username}}"
c.Spawner.cmd = [sys.executable, "-m", "escoba_tutor.server.hub"]
c.Spawner.ip = "127.0.0.1"
c.Spawner.environment["ESCOBA_TUTOR_ACTIVITY_S"] = "5"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.pid_file = {folder!r} + "/proxy.pid"
c.JupyterHub.db_url = "sqlite:///" + {folder!r} + "/hub.sqlite"
c.JupyterHub.cookie_secret_file = {folder!r} + "/cookie_secret"
# the hub learns of activity from the course servers' own reports: the proxy's (every 3 s here) would hide
# a server that does not report its start
c.JupyterHub.last_activity_interval = 600
c.JupyterHub.services[0]["command"] = [sys.executable, "-m", "jupyterhub_idle_culler",
                                       "--timeout={cull}", "--cull-every=4"]
# one student's server is slow to start, longer than the idle time (a class logging in on a busy machine): the hub
# counts activity from the spawn's start, so unless the course server reports its own start, the culler stops
# it as soon as it is up
async def slow_start(spawner):
    import asyncio
    if spawner.user.name == {slow!r}:
        await asyncio.sleep({slow_s})
c.Spawner.pre_spawn_hook = slow_start
c.JupyterHub.services.append({{"name": "test-watch", "api_token": {token!r}}})
c.JupyterHub.load_roles.append({{"name": "test-watch", "scopes": ["list:users", "read:users", "read:servers"],
                                "services": ["test-watch"]}})
"""


class Hub:
    """The hub in a process group of its own (with its proxy, its services and the students' servers), its output
    in ``log``; ``url`` by the school's name, ``local`` by 127.0.0.1; ``api(path)`` asks its REST API as the test's
    own service."""

    def __init__(self, folder: Path, proxy: str, class_db: str, env: dict[str, str] | None = None) -> None:
        self.folder, self.port = folder, free_port()
        self.url = f"http://{SCHOOL_HOST}:{self.port}/"
        self.local = f"http://127.0.0.1:{self.port}/"
        (folder / "homes").mkdir()
        config = folder / "jupyterhub_config.py"
        config.write_text(TEST_CONFIG.format(
            shipped=str(SHIPPED), homes=str(folder / "homes"), hub_port=free_port(), api_port=free_port(),
            proxy=proxy, folder=str(folder), cull=CULL_TIMEOUT, token=WATCH_TOKEN, slow=SLOW_STUDENT,
            slow_s=CULL_TIMEOUT + 10))
        env = {**os.environ, "ESCOBA_HUB_URL": self.url.rstrip("/"), "ESCOBA_HUB_BIND_URL": self.local.rstrip("/"),
               "ESCOBA_HUB_CULL_TIMEOUT": str(CULL_TIMEOUT), "ESCOBA_HUB_CLASS_DB": class_db,
               "ESCOBA_HUB_TEACHERS": TEACHER, "ESCOBA_HUB_STUDENTS": ",".join(CLASS),
               "ESCOBA_HUB_BOARD_PORT": str(free_port()),
               "ESCOBA_TUTOR_PYTHON": sys.executable,  # the course's environment: the class board service's
               **(env or {})}
        self.class_db = class_db
        self.log = folder / "hub.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=folder,
                                            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def api(self, path: str):
        request = urllib.request.Request(self.local + "hub/api/" + path,
                                         headers={"Authorization": f"token {WATCH_TOKEN}"})
        with urllib.request.urlopen(request, timeout=20) as answer:
            return json.load(answer)

    def wait(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"the hub stopped:\n{self.log.read_text()[-3000:]}"
            try:
                self.api("")
                return
            except OSError:
                time.sleep(0.5)
        raise AssertionError(f"the hub did not answer within {timeout} s:\n{self.log.read_text()[-3000:]}")

    def servers(self, name: str) -> dict:
        return self.api(f"users/{name}").get("servers", {})

    def stop(self) -> None:
        """SIGTERM to the hub, which then stops what it started: its services, the students' servers and its proxy,
        each in a session of its own (so a signal to the hub's session misses them). Whatever of it is still
        running when the hub has gone, or after 30 s, is killed: nothing the test started outlives it."""
        started = descendants(self.process.pid)  # read now: once the hub has gone they are no longer its children
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        for pid, began in started:
            if _start_time(pid) == began:  # the same process, not a new one given its number since
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def _start_time(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


def descendants(pid: int) -> list[tuple[int, int | None]]:
    """Every process below ``pid`` (children, theirs...), as Linux lists them in /proc: pid and start time."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) if entry.name.isdigit() else None
        except (OSError, IndexError, ValueError):
            continue
        if parent is not None:
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append((child, _start_time(child)))
            todo.append(child)
    return found
