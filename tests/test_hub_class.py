"""``escoba-tutor hub-start-class`` against a small stand-in for the hub's REST API (a Tornado app in a thread): the
order of its calls, how many servers start at once, what it reports, and that bad input starts nothing. The real
hub: tests/browser/test_jupyterhub_start_ahead_browser.py."""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import datetime, timedelta, timezone

import pytest

pytest.importorskip("tornado")

from tornado.httpserver import HTTPServer  # noqa: E402
from tornado.netutil import bind_sockets  # noqa: E402
from tornado.web import Application, HTTPError, RequestHandler  # noqa: E402

from escoba_tutor.cli import main  # noqa: E402
from escoba_tutor.server.hub_class import HubClient, start_class  # noqa: E402

TOKEN = "teacher-token"
STUDENTS = {"ana": {}, "bruno": {"ready": True}, "carmen": {}, "diego": {}, "elena": {}, "roto": {}}


class FakeHub:
    """The hub's API as the command uses it; ``roto``'s server fails to start."""

    def __init__(self) -> None:
        self.started: list[tuple[str, dict]] = []
        self.active = self.most_active = 0
        self.lock = threading.Lock()
        hub = self

        class Base(RequestHandler):
            def prepare(self) -> None:
                if self.request.path != "/hub/api/" and self.request.headers.get("Authorization") != f"token {TOKEN}":
                    raise HTTPError(403)

        class About(Base):
            def get(self) -> None:
                self.write({"version": "6.1.1"})

        class Me(Base):
            def get(self) -> None:
                self.write({"name": "profe", "scopes": ["servers!group=students", "read:groups!group=students"]})

        class Group(Base):
            def get(self, name: str) -> None:
                if name != "students":
                    raise HTTPError(404)
                self.write({"name": name, "users": sorted(STUDENTS)})

        class User(Base):
            def get(self, name: str) -> None:
                if name not in STUDENTS:
                    raise HTTPError(404)
                self.write({"name": name, "servers": {"": STUDENTS[name]} if STUDENTS[name] else {}})

        class Server(Base):
            def post(self, name: str) -> None:
                with hub.lock:
                    hub.started.append((name, json.loads(self.request.body or b"{}")))
                    hub.active += 1
                    hub.most_active = max(hub.most_active, hub.active)
                self.set_status(202)

        class Progress(Base):
            async def get(self, name: str) -> None:
                self.set_header("Content-Type", "text/event-stream")
                self.write("data: " + json.dumps({"progress": 50, "message": "starting"}) + "\n\n")
                self.flush()
                await asyncio.sleep(0.3)
                event = ({"progress": 100, "failed": True, "message": "Spawn failed: out of memory"} if name == "roto"
                         else {"progress": 100, "ready": True})
                with hub.lock:
                    hub.active -= 1
                self.write("data: " + json.dumps(event) + "\n\n")

        self.app = Application([(r"/hub/api/", About), (r"/hub/api/user", Me), (r"/hub/api/groups/([^/]+)", Group),
                                (r"/hub/api/users/([^/]+)", User), (r"/hub/api/users/([^/]+)/server", Server),
                                (r"/hub/api/users/([^/]+)/server/progress", Progress)])


@pytest.fixture
def fake_hub():
    hub = FakeHub()
    sockets = bind_sockets(0, "127.0.0.1")
    port = sockets[0].getsockname()[1]
    ready, loop_box = threading.Event(), {}

    def serve() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        server = HTTPServer(hub.app)
        server.add_sockets(sockets)
        loop_box["loop"] = loop
        ready.set()
        loop.run_forever()
        server.stop()
        loop.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    ready.wait(10)
    hub.url = f"http://127.0.0.1:{port}/"
    yield hub
    loop_box["loop"].call_soon_threadsafe(loop_box["loop"].stop)
    thread.join(10)


def test_a_group_starts_a_few_at_a_time_and_the_summary_says_why_one_failed(fake_hub):
    until = datetime.now(timezone.utc) + timedelta(minutes=30)
    seen = []
    outcomes = start_class(HubClient(fake_hub.url, TOKEN), group="students", until=until, parallel=2,
                           progress=lambda done, total, outcome: seen.append((done, total, outcome.name)))
    assert {o.name: o.status for o in outcomes} == {"ana": "started", "bruno": "already running", "carmen": "started",
                                                    "diego": "started", "elena": "started", "roto": "failed"}
    assert [o.reason for o in outcomes if o.status == "failed"] == ["Spawn failed: out of memory"]
    assert fake_hub.most_active == 2  # bounded: never more than --parallel starts at once, and it did use both
    assert sorted(name for name, _ in fake_hub.started) == ["ana", "carmen", "diego", "elena", "roto"]
    keep = {options["escoba_keep_until"] for _, options in fake_hub.started}
    assert keep == {until.isoformat().replace("+00:00", "Z")}
    assert [done for done, _total, _name in seen] == [1, 2, 3, 4, 5, 6]


def test_the_command_prints_each_server_and_a_summary_and_exits_1_on_a_failure(fake_hub, monkeypatch, capsys):
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", TOKEN)
    assert main(["hub-start-class", "--hub-url", fake_hub.url, "--users", "ana,bruno,roto"]) == 1
    out = capsys.readouterr().out
    assert "[3/3]" in out and "bruno: already running" in out and "roto: FAILED: Spawn failed: out of memory" in out
    assert out.rstrip().endswith("3 servers: 1 started, 1 already running, 1 failed\n  roto: Spawn failed: out of "
                                 "memory")
    assert main(["hub-start-class", "--hub-url", fake_hub.url + "hub/home", "--users", "ana,carmen"]) == 0


@pytest.mark.parametrize("args, token, expected", [
    (["--users", "ana,nadie,zoe"], TOKEN, "unknown to the hub, or not a student this token may start: nadie, zoe"),
    (["--group", "1b"], TOKEN, "no group '1b' on the hub that this token may read (HTTP 404)"),
    (["--group", "students"], "wrong", "the hub refused the API token (HTTP 403)"),
    (["--group", "students"], "", "no API token: put it in the JUPYTERHUB_API_TOKEN environment variable"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_starts(fake_hub, monkeypatch, capsys, args, token, expected):
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", token)
    assert main(["hub-start-class", "--hub-url", fake_hub.url, *args]) == 2
    err = capsys.readouterr().err
    assert expected in err and len(err.strip().splitlines()) == 1, err
    assert fake_hub.started == []


def test_the_token_comes_from_a_file_never_the_command_line(fake_hub, monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("JUPYTERHUB_API_TOKEN", raising=False)
    (tmp_path / "token").write_text(TOKEN + "\n")
    assert main(["hub-start-class", "--hub-url", fake_hub.url, "--users", "ana", "--token-file",
                 str(tmp_path / "token")]) == 0
    assert main(["hub-start-class", "--hub-url", fake_hub.url, "--users", "ana", "--token", TOKEN]) == 2
    (tmp_path / "empty").write_text("\n")
    assert main(["hub-start-class", "--hub-url", fake_hub.url, "--users", "ana", "--token-file",
                 str(tmp_path / "empty")]) == 2
    assert "holds no token" in capsys.readouterr().err


def test_a_hub_that_does_not_answer_and_a_past_lesson_are_named(monkeypatch, capsys):
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", TOKEN)
    assert main(["hub-start-class", "--hub-url", "http://127.0.0.1:9/", "--group", "students"]) == 2
    assert "the hub at http://127.0.0.1:9/ cannot be reached" in capsys.readouterr().err
    past = (datetime.now() - timedelta(minutes=2)).strftime("%H:%M")
    if datetime.now().strftime("%H:%M") > "00:02":
        assert main(["hub-start-class", "--hub-url", "http://127.0.0.1:9/", "--group", "s", "--until", past]) == 2
        assert "is already past" in capsys.readouterr().err
    assert main(["hub-start-class", "--hub-url", "escoba.example.es", "--group", "s"]) == 2
    assert "is not a hub's address" in capsys.readouterr().err
